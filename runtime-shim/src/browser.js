// The shim's browser entry point: the core (core.js) installed with the
// browser host (browser/host.js), for pages (memtrace serve, the proxy).
// The Node host's entry is node.js.

import { G } from './natives.js';
import { install, VERSION } from './core.js';
import { browserHost } from './browser/host.js';

if (G.__mt === undefined) {
  install(browserHost(G));
} else if (G.__mt.version !== VERSION && G.console) {
  G.console.warn('memtrace: shim ' + VERSION + ' not installed: shim ' + G.__mt.version + ' is already running');
}
