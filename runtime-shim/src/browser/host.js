// The browser host: what the core (core.js, install) needs of a page, and
// what it does for a page. Its configuration is the page's injected
// configuration (globalThis.__memtraceConfig, which memtrace serve and the
// proxy write into the page before the shim: runtimeshim.Config as JSON);
// the trace goes to the collector over the page's WebSocket (sink.js), by
// default on the page's own origin (/__memtrace__/collect), never
// 127.0.0.1, so that a phone's page reaches the machine that served it.
//
//   config     the core's settings
//   openSink   the collector (sink.js)
//   isDomNode, natives  the DOM's model (dom.js): nodes, their edges, the
//              DOM methods and handler properties
//   attach     pagehide and Alt+Shift+T end the trace (MemInsight's key);
//              the DOM's initial traversal at DOMContentLoaded
//
//   instrument run-time code (eval, new Function, string timers) through
//              the instrument service named by the configuration, with a
//              synchronous request (instrument.js); none: it runs
//              uninstrumented

import { apply, G as GLOBAL, N_SET_INTERVAL } from '../natives.js';
import { instrumentService } from './instrument.js';
import { openSocketSink } from './sink.js';
import { domModel } from './dom.js';

const addListener = typeof GLOBAL.EventTarget === 'function' ? GLOBAL.EventTarget.prototype.addEventListener : undefined;

export function browserHost(G) {
  const c = G.__memtraceConfig !== null && typeof G.__memtraceConfig === 'object' ? G.__memtraceConfig : {};
  const loc = G.location;
  let url = typeof c.collector === 'string' && c.collector !== '' ? c.collector : '';
  let token = typeof c.token === 'string' ? c.token : '';
  if (url !== '') {
    // An address as memtrace collect prints it (ws://HOST/?token=T): the
    // trace's path, the token from the query when none is given.
    try {
      const u = new URL(url);
      if (token === '') token = u.searchParams.get('token') || '';
      if (u.pathname === '' || u.pathname === '/') u.pathname = '/__memtrace__/collect';
      if (u.protocol === 'http:') u.protocol = 'ws:';
      if (u.protocol === 'https:') u.protocol = 'wss:';
      url = u.href;
    } catch { /* used as it is */ }
  } else if (loc !== undefined && typeof loc.host === 'string' && loc.host !== '') {
    url = (loc.protocol === 'https:' ? 'wss://' : 'ws://') + loc.host + '/__memtrace__/collect';
  }
  const beacon = url !== '' ? (url.indexOf('wss://') === 0 ? 'https://' + url.slice(6) : 'http://' + url.slice(5)).replace(/\/collect(\?.*)?$/, '/beacon') : '';
  let endReason = 'pagehide';
  let stopFn;
  const worker = typeof G.importScripts === 'function' && G.document === undefined;
  // The name this page gives its session (hello's client: its beacon finds
  // the session by it), on __mt.client for the pages of its frames, and
  // the parent's, when this page is a same-origin frame's.
  let client = '';
  try {
    const r = new Uint8Array(16);
    G.crypto.getRandomValues(r);
    for (let i = 0; i < 16; i++) client += (r[i] < 16 ? '0' : '') + r[i].toString(16);
  } catch { client = ''; }
  let parentClient = '';
  try {
    const p = G.parent;
    if (p !== undefined && p !== null && p !== G && p.__mt !== undefined && typeof p.__mt.client === 'string') parentClient = p.__mt.client;
  } catch { parentClient = ''; } // another origin's frame
  // What a page posts its dedicated workers when it goes away: the
  // server's end key (each page and worker has a token of its own), else
  // the token they share.
  const endKey = typeof c.endKey === 'string' && c.endKey !== '' ? c.endKey : token;
  const endMsg = { __memtrace$end: endKey };
  let ttPolicy; // the shim's Trusted Types policy: undefined until needed, null when refused
  const say = (msg) => {
    if (G.console) {
      try { G.console.warn('memtrace: ' + msg); } catch { /* ignore */ }
    }
  };
  // Run-time code through the instrument service (instrument.js).
  const inst = typeof c.instrument === 'string' && c.instrument !== '' ? instrumentService(G, c.instrument, say) : undefined;
  // The DOM's model (dom.js): its natives' marks now, before the page runs.
  let dm;
  try { dm = domModel(G, inst); } catch { dm = undefined; }

  return {
    config: {
      debugFun: typeof c.debugFun === 'string' ? c.debugFun : '',
      allPutFields: c.allPutFields === true,
      allUses: c.allUses === true,
      compact: c.compact === true,
      timeLimit: 0,
      eagerProtos: false,
      twoProbes: false,
      shimFrames: false,
    },
    cwd: '',
    client,
    isDomNode: dm !== undefined ? dm.isNode : undefined,
    natives() {
      return dm !== undefined ? { marks: dm.marks, model: dm.model } : { marks: [] };
    },
    openSink(stop) {
      if (url === '') return undefined;
      const nav = G.navigator;
      return openSocketSink({
        url, token, client, limit: c.bufferLimit > 0 ? c.bufferLimit : 64 << 20, beacon,
        reason: () => endReason,
        meta: {
          kind: worker ? 'worker' : 'page', url: loc !== undefined ? $href(loc) : '', userAgent: nav !== undefined ? nav.userAgent : '', format: 'meminsight',
          debugFun: typeof c.debugFun === 'string' ? c.debugFun : '', allUses: c.allUses === true, allPutFields: c.allPutFields === true,
          compact: c.compact === true, parentClient,
        },
      }, say, stop, () => {
        endReason = 'stop';
        if (stopFn !== undefined) stopFn();
      });
    },
    timersTakeStrings: true,
    // Run-time code (eval, new Function, string timers) through the
    // instrument service the configuration names (instrument.js).
    instrument: inst,
    // A TrustedScript's text, and instrumented code as one, made by the
    // shim's Trusted Types policy ("memtrace", which the server adds to
    // the page's trusted-types directive); without the policy the page's
    // own object runs as it was.
    codeText(v) {
      const tt = G.trustedTypes;
      if (tt === undefined || v === null || typeof v !== 'object') return undefined;
      try { return tt.isScript(v) ? '' + v : undefined; } catch { return undefined; }
    },
    trust(code, v) {
      if (ttPolicy === undefined) {
        ttPolicy = null;
        try { ttPolicy = G.trustedTypes.createPolicy('memtrace', { createScript: (x) => x }); } catch { /* not allowed */ }
      }
      if (ttPolicy === null) return v;
      try { return ttPolicy.createScript(code); } catch { return v; }
    },
    attach(core) {
      const end = () => {
        if (dm !== undefined) {
          dm.flush();
          dm.endWorkers(endMsg);
        }
        core.end();
      };
      stopFn = end;
      if (dm !== undefined) dm.start(core.dom);
      // What waits in the buffer goes to the collector every tenth of a
      // second the page idles (a timer of the shim's: the page's timers
      // are not touched), so that little is left for the page's last
      // request when it goes away (sink.js).
      if (N_SET_INTERVAL !== undefined) {
        try { apply(N_SET_INTERVAL, G, [() => { core.flushPending(); }, 100]); } catch { /* no timers */ }
      }
      if (addListener === undefined) return;
      // A dedicated worker: the page that made it goes away (its shim
      // posts endMsg), the worker's trace ends; the message is the shim's.
      if (worker) {
        apply(addListener, G, ['message', (e) => {
          const d = e !== null && typeof e === 'object' ? e.data : undefined;
          if (d !== null && typeof d === 'object' && d.__memtrace$end === endKey && endKey !== '') {
            try { e.stopImmediatePropagation(); } catch { /* not an event */ }
            endReason = 'pagehide';
            end();
          }
        }, true]);
      }
      // The page goes away: its trace ends, last uses written.
      apply(addListener, G, ['pagehide', () => {
        endReason = 'pagehide';
        end();
      }, true]);
      // MemInsight's key: Alt+Shift+T ends the trace (keyCode 84).
      apply(addListener, G, ['keydown', (e) => {
        if (e && e.altKey && e.shiftKey && (e.keyCode === 84 || e.code === 'KeyT')) {
          endReason = 'key';
          end();
        }
      }, true]);
    },
  };
}

function $href(loc) {
  try { return String(loc.href); } catch { return ''; }
}
