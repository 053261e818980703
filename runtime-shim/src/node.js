// The shim's Node entry point: the core (core.js) installed with the Node
// host (node/host.js). A browser's host is an entry point of its own.

import { G } from './natives.js';
import { install, VERSION } from './core.js';
import { nodeHost } from './node/host.js';

if (G.__mt === undefined) {
  install(nodeHost(G));
} else if (G.__mt.version !== VERSION && G.console) {
  G.console.warn('memtrace: shim ' + VERSION + ' not installed: shim ' + G.__mt.version + ' is already running');
}
