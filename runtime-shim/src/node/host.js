// The Node host: what the core (core.js, install: the members it reads)
// needs of Node, and what it does for Node that a browser's host will do
// its own way. The core calls nothing of Node's but through this object;
// the core imports no module of this directory.
//
//   config     the core's settings (config.js: the environment's variables)
//   isProxy, isPromise, natives  util.types' tests; the natives of events,
//              process and async_hooks that the core models
//   cwd, readText  the working directory; files read (a function's
//              original text, an uncaught exception's line)
//   openSink   the trace file (filesink.js), or a collector
//              (collectorsink.js: memtrace node --collector)
//   stopped    a trace that ended early says why (the status file)
//   instrument run-time code (eval, new Function, vm) through memtrace's
//              instrument server (bridge.js: two FIFOs), or a process per
//              string; posMap: a position map through the server
//   fullCollection, sha256  V8's full collection (the v8 module); crypto
//   attach     process.exit and the end of the event loop end the trace;
//              an uncaught exception's line is the original's (fatal.js);
//              the trace file is written while the program idles; vm is
//              patched (vm.js)
//   end        the trace has ended: the server's FIFOs are closed

import { apply, arraySlice, fnToString, isArray, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, strIndexOf, strSlice, $String, FunctionPrototype, N_FUNCTION, N_SET_INTERVAL, N_CLEAR_INTERVAL, N_QUEUE_MICROTASK } from '../natives.js';
import { K_EMITTER, K_NEXT_TICK, K_ALS_RUN, K_ALS_ENTER } from '../consts.js';
import { readEnv, settings, coreConfig, helperIdleMs } from './config.js';
import { openFileSink } from './filesink.js';
import { openCollectorSink } from './collectorsink.js';
import { startBridge, bridgeNatives } from './bridge.js';
import { fatalLine, markPrinted } from './fatal.js';
import { patchVm } from './vm.js';

export function nodeHost(G) {
  const proc = typeof G.process === 'object' && G.process !== null ? G.process : undefined;
  const env = readEnv(proc);
  const s = settings(env);
  const builtinMod = proc !== undefined && typeof proc.getBuiltinModule === 'function' ? proc.getBuiltinModule : undefined;
  const builtin = builtinMod !== undefined ? (id) => apply(builtinMod, proc, [id]) : undefined;
  let fs;
  if (builtin !== undefined) {
    try { fs = builtin('fs'); } catch { fs = undefined; }
  }
  const fsWriteSync = fs !== undefined ? fs.writeSync : undefined;
  const fsReadFileSync = fs !== undefined ? fs.readFileSync : undefined;
  // Node's own runInNewContext, before the core patches vm (fatal.js,
  // markPrinted).
  let nRunNew;
  try {
    const vm = builtin !== undefined ? builtin('vm') : undefined;
    if (vm !== undefined && vm !== null && typeof vm.runInNewContext === 'function') nRunNew = vm.runInNewContext;
  } catch { nRunNew = undefined; }
  const say = (msg) => {
    if (G.console) {
      try { G.console.error('memtrace: ' + msg); } catch { /* ignore */ }
    }
  };

  // Run-time code: the memtrace binary named by MEMTRACE_BIN instruments
  // it synchronously, through its long-lived instrument-server reached by
  // two FIFOs (about 0.5 ms a string, bridge.js), or where that is
  // unavailable or MEMTRACE_INSTRUMENTER=spawn, a process per string
  // (about 20 ms).
  const bin = typeof s.bin === 'string' && s.bin !== '' ? s.bin : undefined;
  const getBuiltin = bin ? builtin : undefined;
  const execFileSync = getBuiltin !== undefined ? getBuiltin('child_process').execFileSync : undefined;
  const bridgeNat = getBuiltin !== undefined && env.MEMTRACE_INSTRUMENTER !== 'spawn' ? bridgeNatives(getBuiltin) : undefined;
  let bridge; // the server's FIFOs: undefined until needed, null when it cannot start
  // brokenInstrumenter says once on standard error that the instrumenter
  // failed (e: how), so that run-time code runs uninstrumented.
  let brokenSaid = false;
  function brokenInstrumenter(e) {
    if (brokenSaid) return;
    brokenSaid = true;
    const how = e !== null && typeof e === 'object' ? (e.code ? $String(e.code) : e.status !== undefined && e.status !== null ? 'exit status ' + e.status : e.signal ? $String(e.signal) : 'failed') : 'failed';
    say('the instrumenter MEMTRACE_BIN=' + bin + ' failed (' + how + '): run-time code (eval, new Function, vm) runs uninstrumented');
  }
  // instrument returns code s (named nm; kind: vm's, or undefined for
  // eval code) instrumented: its text, or {code, sites} with the site
  // table apart, or s when memtrace gives it back as it is; it throws when
  // the process per string fails.
  function instrument(nm, strict, global, s, kind) {
    if (bridge === undefined) bridge = startBridge(bridgeNat, bin, helperIdleMs(env)) || null;
    const r = bridge !== null ? bridge.instrument(nm, strict, global, s, kind) : undefined;
    if (r === null) return s;
    if (r !== undefined) return r;
    // No server (no FIFOs here, or it failed): a process per string.
    const args = kind === 'vmfn' ? ['instrument', '--no-shim', '--goal', 'commonjs']
      : kind === 'vmmod' ? ['instrument', '--no-shim', '--goal', 'module'] : ['instrument', '--eval'];
    if (strict) args[args.length] = '--strict-code';
    if (global) args[args.length] = '--global-code';
    args[args.length] = '--name';
    args[args.length] = nm;
    args[args.length] = '-';
    try {
      return execFileSync(bin, args, {
        input: s, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (e) {
      // Code memtrace rejects (exit 1, a diagnostic) runs as it is and
      // fails as it would; an instrumenter that does not run or ends
      // otherwise is broken: said once, naming it.
      const said = e !== null && typeof e === 'object' && e.stderr ? $String(e.stderr) : '';
      if (!(e !== null && typeof e === 'object' && e.status === 1 && apply(strIndexOf, said, [': error: ']) >= 0)) brokenInstrumenter(e);
      throw e;
    }
  }

  // isMainThread reports whether the shim runs in Node's main thread (a
  // worker hands its uncaught errors to its parent).
  function isMainThread() {
    try {
      const wt = builtin !== undefined ? builtin('worker_threads') : undefined;
      return wt !== undefined && wt !== null && wt.isMainThread === true;
    } catch {
      return false;
    }
  }

  let isProxy, isPromise;
  if (builtin !== undefined) {
    try {
      const ip = builtin('util').types.isProxy;
      if (typeof ip === 'function') isProxy = ip;
      const ipr = builtin('util').types.isPromise;
      if (typeof ipr === 'function') isPromise = ipr;
    } catch { /* no test */ }
  }

  // natives returns Node's natives with models: EventEmitter's methods
  // that add, remove or run listeners, process.nextTick, and
  // AsyncLocalStorage's run, enterWith and disable.
  function natives() {
    const r = { marks: [], removeAll: undefined, alsDisable: undefined };
    const marks = r.marks;
    try {
      const EP = builtin !== undefined ? builtin('events').prototype : undefined;
      const ms = ['on', 'addListener', 'prependListener', 'once', 'prependOnceListener', 'off', 'removeListener', 'removeAllListeners', 'emit'];
      for (let k = 0; EP !== undefined && k < ms.length; k++) {
        const d = getOwnPropertyDescriptor(EP, ms[k]);
        if (d !== undefined && typeof d.value === 'function') marks[marks.length] = [d.value, K_EMITTER];
      }
      if (EP !== undefined) r.removeAll = getOwnPropertyDescriptor(EP, 'removeAllListeners').value;
      if (proc !== undefined && typeof proc.nextTick === 'function') marks[marks.length] = [proc.nextTick, K_NEXT_TICK];
      const AP = builtin !== undefined ? builtin('async_hooks').AsyncLocalStorage.prototype : undefined;
      if (AP !== undefined) {
        marks[marks.length] = [getOwnPropertyDescriptor(AP, 'run').value, K_ALS_RUN];
        marks[marks.length] = [getOwnPropertyDescriptor(AP, 'enterWith').value, K_ALS_ENTER];
        r.alsDisable = getOwnPropertyDescriptor(AP, 'disable').value;
        marks[marks.length] = [r.alsDisable, K_ALS_ENTER];
      }
    } catch { /* no events module */ }
    return r;
  }

  // readText returns file path's text without a byte order mark, or
  // undefined.
  function readText(path) {
    let text;
    try { text = apply(fsReadFileSync, fs, [path, 'utf8']); } catch { return undefined; }
    if (typeof text !== 'string') return undefined;
    return text[0] === '\uFEFF' ? apply(strSlice, text, [1]) : text;
  }

  // fullCollection returns a function that collects the whole heap and
  // returns the bytes in use after it, or null where there is none: V8's
  // %CollectGarbage, compiled once with natives syntax allowed for that
  // compilation only (left as it was when the program's flags allow it).
  function fullCollection() {
    if (builtin === undefined) return null;
    try {
      const v8 = builtin('v8');
      const stats = v8.getHeapStatistics, setFlags = v8.setFlagsFromString;
      const make = () => N_FUNCTION('%CollectGarbage(0)');
      let f;
      try {
        f = make();
      } catch {
        apply(setFlags, v8, ['--allow-natives-syntax']);
        try {
          f = make();
        } finally {
          apply(setFlags, v8, ['--no-allow-natives-syntax']);
        }
      }
      return () => {
        f();
        return apply(stats, v8, []).used_heap_size;
      };
    } catch {
      return null;
    }
  }

  let sha256;
  try {
    const crypto = builtin !== undefined ? builtin('crypto') : undefined;
    if (crypto && typeof crypto.createHash === 'function') sha256 = (t) => crypto.createHash('sha256').update(t).digest('hex');
  } catch { sha256 = undefined; }

  let sink; // the trace file, once open

  // attach wraps process.emit (core: end, closeScripts, textOf(file): a
  // script's original text). process.exit and the end of the event loop:
  // like MemInsight, no SCRIPT_EXIT for scripts still open (their frames
  // may be open too). Node emits both events through process.emit; a
  // wrapper (an own, non-enumerable emit) sees them without listeners,
  // which the program would count (listenerCount, eventNames, a
  // MaxListenersExceeded warning at its eleventh 'exit' listener) or
  // remove (removeAllListeners). The trace ends before the program's
  // 'exit' listeners run, as with a listener added first.
  //
  // An exception no 'uncaughtException' listener handles is fatal: Node
  // emits 'exit' unless the process is exiting already, then prints the
  // error. The line above it is the original's (fatal.js), written after
  // the program's 'exit' listeners.
  function attach(core) {
    // Only a shim of the realm the vm module belongs to patches it (a shim
    // loaded into a context by a program that runs one per context, as the
    // test262 runner does, leaves it alone).
    if (builtin !== undefined && env.MEMTRACE_VM !== '0') {
      let vm;
      try { vm = builtin('vm'); } catch { vm = undefined; }
      if (vm !== undefined && vm !== null && typeof vm.runInContext === 'function' &&
        getPrototypeOf(vm.runInContext) === FunctionPrototype) patchVm(vm, builtin, core.vm);
    }
    if (proc === undefined || typeof proc.emit !== 'function') return;
    const emitEvent = proc.emit;
    let fatal; // [line, error] to print before Node prints the error
    const printFatal = () => {
      const f = fatal;
      fatal = undefined;
      if (f !== undefined && fsWriteSync !== undefined && markPrinted(f[1], nRunNew)) {
        try { apply(fsWriteSync, fs, [2, f[0] + '\n']); } catch { /* stderr closed */ }
      }
    };
    try {
      defineProperty(proc, 'emit', {
        value: function emit(type) {
          if (type === 'exit') {
            core.end();
            // (Node's exit code for an uncaught exception; an event the
            // program emitted itself prints nothing.)
            if (fatal === undefined || arguments[1] !== 1) {
              fatal = undefined;
              return apply(emitEvent, this, arguments);
            }
            try {
              return apply(emitEvent, this, arguments);
            } finally {
              printFatal();
            }
          }
          if (type === 'uncaughtExceptionMonitor') core.closeScripts();
          else if (type === 'uncaughtException' && nRunNew !== undefined && this === proc) {
            const err = arguments[1], origin = arguments[2];
            const handled = apply(emitEvent, this, arguments);
            if (handled === false && isMainThread()) {
              const line = fatalLine(err, origin, core.textOf);
              if (line !== undefined) {
                fatal = [line, err];
                if (proc._exiting === true) printFatal();
              }
            }
            return handled;
          }
          return apply(emitEvent, this, arguments);
        },
        writable: true, enumerable: false, configurable: true,
      });
    } catch { /* a frozen process: no end written */ }
    // No signal listeners: one would change what a signal does (a program
    // busy in JavaScript would run on until it yields, and
    // process.listenerCount would see it). A signal that kills the process
    // leaves the trace as last written; memtrace node cuts it to its last
    // whole entry (trace.Repair). To bound what is lost, bytes waiting in
    // the buffer are written every second the event loop gets to run (an
    // unref'd timer: it keeps nothing alive).
    const isNode = typeof proc.versions === 'object' && proc.versions !== null && typeof proc.versions.node === 'string';
    if (sink !== undefined && (sink.file || sink.stream) && isNode && typeof N_SET_INTERVAL === 'function') {
      try {
        const idle = apply(N_SET_INTERVAL, G, [() => {
          if (sink.stopRequested !== undefined && sink.stopRequested()) {
            // The collector asked: the trace ends here, as at the
            // process's end (the last uses written), and the program
            // runs on untraced.
            if (N_CLEAR_INTERVAL !== undefined) apply(N_CLEAR_INTERVAL, G, [idle]);
            note('stopped', 'the collector asked the trace to end; the rest of the run was not traced');
            core.end();
            return;
          }
          if (core.flushPending()) sink.idle();
        }, 1000]);
        if (idle && typeof idle.unref === 'function') idle.unref();
      } catch { /* no timers */ }
    }
  }

  // note records what memtrace node reads after the run in the status
  // file: why the trace stopped early, the collector's answer.
  const status = {};
  function note(k, v) {
    status[k] = v;
    if (fs !== undefined && typeof s.status === 'string' && s.status !== '') {
      try { fs.writeFileSync(s.status, JSON.stringify(status)); } catch { /* ignore */ }
    }
  }
  // collectorOptions are the collector sink's: the address, the token
  // (given, or the URL's token parameter), what this process is.
  function collectorOptions() {
    let token = typeof s.token === 'string' ? s.token : '';
    if (token === '') {
      try { token = new URL(s.collector).searchParams.get('token') || ''; } catch { token = ''; }
    }
    if (token === '' && typeof env.MEMTRACE_TOKEN === 'string') token = env.MEMTRACE_TOKEN;
    const argv = proc !== undefined && isArray(proc.argv) ? proc.argv : [];
    const limit = +env.MEMTRACE_COLLECTOR_BUFFER > 0 ? +env.MEMTRACE_COLLECTOR_BUFFER : 64 << 20;
    const waitMs = +env.MEMTRACE_COLLECTOR_WAIT > 0 ? +env.MEMTRACE_COLLECTOR_WAIT * 1000 : 30000;
    return {
      url: s.collector, token, limit, waitMs,
      meta: {
        kind: 'node', script: typeof argv[1] === 'string' ? argv[1] : '', args: apply(arraySlice, argv, [2]),
        node: proc !== undefined ? proc.version : '', pid: proc !== undefined ? proc.pid : 0, format: 'meminsight',
        debugFun: typeof s.debugFun === 'string' ? s.debugFun : '', allUses: s.allUses === true, allPutFields: s.allPutFields === true,
        compact: s.compact === true, exclude: isArray(s.exclude) ? s.exclude : [],
      },
    };
  }
  // ownThread runs start, which starts a thread of memtrace's own, without
  // the ticks Node queues for a new Worker (the 'worker' event, the
  // resumption of the stdio pipes), which would change when the program's
  // first promise reactions run: they run as microtasks instead, and the
  // 'worker' event not at all (as noderun/preload.cjs does for its own).
  function ownThread(start) {
    if (proc === undefined) return start();
    const saved = proc.nextTick;
    const later = [];
    try {
      proc.nextTick = function nextTick(fn, ...args) { later[later.length] = [fn, args]; };
      return start();
    } finally {
      proc.nextTick = saved;
      for (let i = 0; i < later.length; i++) {
        const fn = later[i][0];
        const args = later[i][1];
        if (args.length === 0 && apply(strIndexOf, apply(fnToString, fn, []), ["'worker'"]) >= 0) continue;
        if (N_QUEUE_MICROTASK !== undefined) apply(N_QUEUE_MICROTASK, G, [() => apply(fn, undefined, args)]);
      }
    }
  }

  return {
    config: coreConfig(s, env),
    isProxy,
    isPromise,
    natives,
    cwd: proc !== undefined && typeof proc.cwd === 'function' ? proc.cwd() : '',
    readText: fsReadFileSync !== undefined ? readText : undefined,
    openSink(stop) {
      if (typeof s.collector === 'string' && s.collector !== '' && builtin !== undefined) {
        sink = openCollectorSink(builtin, ownThread, collectorOptions(), say, stop, (answer) => note('collector', answer));
        return sink;
      }
      const out = typeof s.out === 'string' && s.out !== '' ? s.out : 'mem-trace';
      sink = fs !== undefined ? openFileSink(fs, proc, out, env.MEMTRACE_DIRECT !== '0', say, stop) : undefined;
      return sink;
    },
    stopped(reason) {
      note('stopped', reason);
    },
    instrument: execFileSync !== undefined ? instrument : undefined,
    posMap(name, strict, global, src, kind) {
      return bridge ? bridge.instrument(name, strict, global, src, kind, true) : undefined;
    },
    fullCollection,
    sha256,
    timersTakeStrings: !(proc !== undefined && proc.versions && proc.versions.node),
    attach,
    end() {
      if (bridge) bridge.close();
    },
  };
}
