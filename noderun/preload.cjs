// memtrace's Node.js preload, loaded by every Node process of a `memtrace
// node` session (NODE_OPTIONS=--require, which child processes inherit)
// before the program. It gives the process its trace file (the session's
// main process: MEMTRACE_OUT; any other: a directory of its own under
// MEMTRACE_CHILDREN), installs the runtime shim (written beside this file
// by memtrace), makes the processes the program starts load this preload
// too, and instruments every module the process loads, CommonJS here and
// ES modules through the loader hooks registered below. Modules that are
// instrumented already load as they are; the others are sent to one
// long-lived `memtrace instrument-server` (through a helper thread, as
// CommonJS compiles synchronously). Instrumented sources are cached per
// process by content.
'use strict';
// Main threads are traced, and the program's worker threads, each with a
// trace of its own (a trace is one heap) as a child's: the Worker class
// below gives them MEMTRACE_WORKER in their environment. Node's
// loader-hooks thread and memtrace's helper threads inherit the preload
// and must not be traced; a worker whose environment is the process's own
// (SHARE_ENV), which cannot be told apart, runs its modules uninstrumented
// with a shim writing nowhere, so that modules instrumented ahead of time
// run there too.
const wt = require('node:worker_threads');
const helperThread = !wt.isMainThread && (process.env.MEMTRACE_HOOKS_THREAD ||
  wt.workerData && (wt.workerData.memtraceBridge || wt.workerData.memtraceHelper));
const programWorker = !wt.isMainThread && !helperThread && process.env.MEMTRACE_WORKER === '1';
if (!wt.isMainThread && !helperThread && !programWorker) require('./client.cjs').loadShimNowhere();
if (wt.isMainThread || programWorker) {
const path = require('node:path');
const fs = require('node:fs');
const Module = require('node:module');
const childProcess = require('node:child_process');
const crypto = require('node:crypto');
const { isInstrumented, instrumentArgs, readConfig, writeConfig, noteUninstrumented, deeperThan } = require('./client.cjs');

const env = process.env;
// What is read after the preload has run: memtrace's variables, which
// the program's process.env does not keep (the end of this file).
let menv = env;
// The shim's configuration (MEMTRACE_CONFIG: runtimeshim.Config).
const config = readConfig(env);
const bin = config.bin;
const shimFile = path.join(__dirname, 'shim.js');
const self = __filename;

// ---------------------------------------------------------------- the trace file

// A process whose MEMTRACE_PARENT names another process is a child: it
// takes the first free number n (mkdir DIR/children/.seq/<n> is the lock)
// and the directory DIR/children/<n>-<pid>, records what it is in
// process.json and how it ended in exit.json, and writes its trace there;
// the shim reads its configuration's out when it loads, below.
const childrenDir = env.MEMTRACE_CHILDREN;
let childDir;
const isChild = programWorker || env.MEMTRACE_PARENT && env.MEMTRACE_PARENT !== String(process.pid);
if (isChild && config.collector) {
  // Streamed to a collector (memtrace node --collector): each process is
  // a session of its own there; none of the parent's files is written.
  config.status = '';
  writeConfig(env, config);
  env.MEMTRACE_UNINSTRUMENTED = '';
} else if (isChild) {
  const parent = Number(env.MEMTRACE_PARENT);
  try {
    fs.mkdirSync(childrenDir, { recursive: true });
    // children/.seq/<n> is taken by one process only.
    fs.mkdirSync(path.join(childrenDir, '.seq'), { recursive: true });
    for (let n = 1; childDir === undefined; n++) {
      try {
        fs.mkdirSync(path.join(childrenDir, '.seq', String(n)));
      } catch (e) {
        if (e.code === 'EEXIST') continue;
        throw e;
      }
      childDir = path.join(childrenDir, n + '-' + process.pid + (programWorker ? '-t' + wt.threadId : ''));
      fs.mkdirSync(childDir);
    }
    fs.writeFileSync(path.join(childDir, 'process.json'), JSON.stringify({
      pid: process.pid, parentPid: parent, ppid: process.ppid, threadId: programWorker ? wt.threadId : undefined,
      argv: process.argv, execArgv: process.execArgv.filter((a) => a !== env.MEMTRACE_STACK_ARG), cwd: process.cwd(),
      start: new Date().toISOString(),
    }) + '\n');
  } catch (e) {
    childDir = undefined;
    process.stderr.write(`memtrace: this process (pid ${process.pid}) is not traced: ${e.message}\n`);
  }
  // Never the parent's files.
  config.out = childDir ? path.join(childDir, 'mem-trace') : require('node:os').devNull;
  config.status = childDir ? path.join(childDir, 'status.json') : '';
  writeConfig(env, config);
  env.MEMTRACE_UNINSTRUMENTED = childDir ? path.join(childDir, 'uninstrumented.jsonl') : '';
}

// The shim first: it must see the program's natives before the program
// can patch them. This file's frames (the _compile and child_process
// wrappers below) are left out of the program's stack traces, as the
// shim's are.
const vmCompileFunction = require('node:vm').compileFunction; // the shim's replaces it
require(shimFile);
if (globalThis.__mt && typeof globalThis.__mt.hideFrames === 'function') globalThis.__mt.hideFrames(__filename);

// node:test takes a test's location (its reports' "test at file:line:col")
// from the engine's stack, whose caller frame is a call hook's: its
// functions are called through trampolines compiled at the program's call
// (the shim's setCallerSites). Subtests (the context's t.test) are not
// reached: TestContext is not exported.
if (globalThis.__mt && typeof globalThis.__mt.setCallerSites === 'function') {
  try {
    const nodeTest = require('node:test');
    const fns = [];
    // assert(value) and assert.ok(value) without a message read the
    // expression at their caller's position from its file.
    const assert = require('node:assert');
    for (const f of [assert, assert.ok, assert.strict, assert.strict.ok]) if (typeof f === 'function') fns.push(f);
    for (const k of ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach']) {
      const f = nodeTest[k];
      if (typeof f !== 'function') continue;
      fns.push(f);
      for (const v of ['skip', 'todo', 'only']) if (typeof f[v] === 'function') fns.push(f[v]);
    }
    // The call g(a[0], …) is at line, column of the script name.
    globalThis.__mt.setCallerSites(fns, (name, line, column, n) => {
      const args = [];
      for (let k = 0; k < n; k++) args.push('a[' + k + ']');
      return vmCompileFunction('return (\n' + ' '.repeat(column - 1) + 'g(' + args.join(', ') + '));', ['g', 'a'],
        { filename: name, lineOffset: line - 2 });
    });
  } catch { /* no node:test: nothing to mark */ }
}

if (childDir !== undefined) {
  process.on('exit', (code) => {
    try {
      fs.writeFileSync(path.join(childDir, 'exit.json'), JSON.stringify({ code, end: new Date().toISOString() }) + '\n');
    } catch { /* the directory is gone */ }
  });
}

// ---------------------------------------------------------------- child processes

// The processes this one starts see it as their parent. Those that run
// node load this preload through NODE_OPTIONS, inherited with the
// environment. A program that gives a child an environment of its own
// gets ours added to it: NODE_OPTIONS with this preload, and the
// MEMTRACE_ variables, so every node process it starts is traced.
env.MEMTRACE_PARENT = String(process.pid);
const ours = {};
for (const k of ['MEMTRACE_CONFIG', 'MEMTRACE_CHILDREN', 'MEMTRACE_PARENT', 'MEMTRACE_INSTRUMENTER', 'MEMTRACE_STACK_ARG']) {
  if (env[k] !== undefined) ours[k] = env[k];
}
const requireOpt = '--require ' + JSON.stringify(self);
function withNodeOptions(v) {
  if (v && v.includes(self)) return v;
  return v ? v + ' ' + requireOpt : requireOpt;
}
// fixEnvPairs: the KEY=VALUE list Node's ChildProcess.spawn receives.
function fixEnvPairs(pairs) {
  const out = [];
  let nodeOptions;
  const seen = new Set();
  for (const p of pairs) {
    const eq = p.indexOf('=');
    const k = eq < 0 ? p : p.slice(0, eq);
    if (k === 'NODE_OPTIONS') { nodeOptions = p.slice(eq + 1); continue; }
    if (k === 'MEMTRACE_PARENT') continue;
    seen.add(k);
    out.push(p);
  }
  for (const k in ours) if (!seen.has(k)) out.push(k + '=' + ours[k]);
  if (nodeOptions !== undefined && !seen.has('MEMTRACE_NODE_OPTIONS')) out.push('MEMTRACE_NODE_OPTIONS=' + nodeOptions);
  out.push('NODE_OPTIONS=' + withNodeOptions(nodeOptions));
  return out;
}
function fixEnv(e) {
  const out = { ...e };
  for (const k in ours) if (out[k] === undefined) out[k] = ours[k];
  out.MEMTRACE_PARENT = ours.MEMTRACE_PARENT;
  if (out.NODE_OPTIONS !== undefined && out.MEMTRACE_NODE_OPTIONS === undefined) out.MEMTRACE_NODE_OPTIONS = out.NODE_OPTIONS;
  out.NODE_OPTIONS = withNodeOptions(out.NODE_OPTIONS);
  return out;
}
const exitsDir = childrenDir ? path.join(childrenDir, '.exits') : undefined;
// The asynchronous forms (spawn, fork, exec, execFile) all start their
// process through ChildProcess.prototype.spawn, with the environment as
// envPairs. How each child ends, as this process sees it (an exit code or
// a signal), goes to DIR/children/.exits/<pid>.json.
const origExecFileSync = childProcess.execFileSync; // for instrument, below
const ChildProcess = childProcess.ChildProcess;
const origSpawn = ChildProcess.prototype.spawn;
// A node child (fork, or spawn and execFile of node itself: not through a
// shell) gets the stack size memtrace node gave this process (noderun.go
// stackArg), unless its arguments set one; its preload takes it out of
// its process.execArgv.
function withStack(options) {
  const arg = ours.MEMTRACE_STACK_ARG;
  const args = options.args;
  if (!arg || !Array.isArray(args) || args.length === 0) return;
  const file = String(options.file);
  if (file !== process.execPath && path.basename(file) !== 'node') return;
  for (const a of args) if (typeof a === 'string' && (a.startsWith('--stack-size') || a.startsWith('--stack_size'))) return;
  options.args = [args[0], arg, ...args.slice(1)];
}
ChildProcess.prototype.spawn = function spawn(options) {
  if (options && typeof options === 'object' && Array.isArray(options.envPairs)) {
    options.envPairs = fixEnvPairs(options.envPairs);
  }
  if (options && typeof options === 'object') withStack(options);
  const r = origSpawn.apply(this, arguments);
  const pid = this.pid;
  if (exitsDir && typeof pid === 'number') {
    this.once('exit', (code, signal) => {
      try {
        fs.mkdirSync(exitsDir, { recursive: true });
        fs.writeFileSync(path.join(exitsDir, pid + '.json'), JSON.stringify({ code, signal }) + '\n');
      } catch { /* ignore */ }
    });
  }
  return r;
};
// The synchronous forms take the environment from their options.
for (const name of ['spawnSync', 'execSync', 'execFileSync']) {
  const orig = childProcess[name];
  if (typeof orig !== 'function') continue;
  const wrapped = {
    [name](...args) {
      // The options are the last argument but the first, unless that is
      // an array (the arguments) or undefined. Without options, or
      // without env in them, the child would get this process's
      // environment, which holds no memtrace variables: ours is given.
      let k = args.length - 1;
      while (k >= 1 && (args[k] === undefined || args[k] === null)) k--;
      const o = args[k];
      if (k >= 1 && typeof o === 'object' && !Array.isArray(o)) {
        args[k] = { ...o, env: fixEnv(o.env !== null && typeof o.env === 'object' ? o.env : process.env) };
      } else {
        args.length = k + 1;
        args.push({ env: fixEnv(process.env) });
      }
      return orig.apply(this, args);
    },
  }[name];
  Object.defineProperty(wrapped, 'length', { value: orig.length });
  childProcess[name] = wrapped;
}
// Worker threads: the program's get memtrace's variables, this preload in
// NODE_OPTIONS and MEMTRACE_WORKER added to their environment (a copy:
// never SHARE_ENV's), so that their preload traces them (above); how each
// ends, as this thread sees it, goes to
// DIR/children/.exits/<pid>-t<threadId>.json.
const OrigWorker = wt.Worker;
if (typeof OrigWorker === 'function') {
  // A traced worker's stack is four times the size asked (default 4 MB),
  // as memtrace node raises the main thread's (instrumented calls need
  // about four times the stack); resourceLimits report the size asked.
  const stackAsked = new WeakMap();
  const Worker = class Worker extends OrigWorker {
    constructor(filename, options) {
      let o = options;
      let asked;
      if (!(o !== null && typeof o === 'object' && o.env === wt.SHARE_ENV)) {
        const base = o !== null && typeof o === 'object' && o.env !== null && typeof o.env === 'object' ? o.env : process.env;
        const rl = o !== null && typeof o === 'object' && o.resourceLimits !== null && typeof o.resourceLimits === 'object' ? o.resourceLimits : undefined;
        asked = rl !== undefined && typeof rl.stackSizeMb === 'number' && rl.stackSizeMb > 0 ? rl.stackSizeMb : 4;
        // (Node reads a worker's NODE_OPTIONS from the env it is given.)
        o = { ...o, env: { ...fixEnv(base), MEMTRACE_PARENT: String(process.pid), MEMTRACE_WORKER: '1', MEMTRACE_WORKER_STACK: String(asked) },
          resourceLimits: { ...rl, stackSizeMb: asked * 4 } };
      }
      super(filename, o);
      if (asked !== undefined) stackAsked.set(this, asked);
      const tid = this.threadId;
      if (exitsDir && typeof tid === 'number') {
        this.once('exit', (code) => {
          try {
            fs.mkdirSync(exitsDir, { recursive: true });
            fs.writeFileSync(path.join(exitsDir, process.pid + '-t' + tid + '.json'), JSON.stringify({ code }) + '\n');
          } catch { /* ignore */ }
        });
      }
    }
  };
  const limits = Object.getOwnPropertyDescriptor(OrigWorker.prototype, 'resourceLimits');
  if (limits && typeof limits.get === 'function') {
    Object.defineProperty(Worker.prototype, 'resourceLimits', {
      get() {
        const r = limits.get.call(this);
        if (stackAsked.has(this) && r && typeof r.stackSizeMb === 'number') r.stackSizeMb = stackAsked.get(this);
        return r;
      },
      enumerable: limits.enumerable, configurable: true,
    });
  }
  Object.defineProperty(Worker, 'length', { value: OrigWorker.length });
  wt.Worker = Worker;
  // This worker's own view of its limits: the size asked.
  if (programWorker && env.MEMTRACE_WORKER_STACK && wt.resourceLimits && typeof wt.resourceLimits.stackSizeMb === 'number') {
    try { wt.resourceLimits.stackSizeMb = Number(env.MEMTRACE_WORKER_STACK); } catch { /* frozen */ }
  }
}
if (typeof Module.syncBuiltinESMExports === 'function') Module.syncBuiltinESMExports();

// ---------------------------------------------------------------- instrumenting

const extraArgs = instrumentArgs(env);
const cache = new Map();

// scriptName is the name recorded in SCRIPT_ENTER: the path relative to the
// working directory when the file is under it (as MemInsight recorded the
// path given to it), else the absolute path.
function scriptName(filename) {
  const rel = path.relative(process.cwd(), filename);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : filename;
}

// TypeScript, TSX and JSX go through esbuild inside memtrace (--loader);
// --path lets it find the file's tsconfig.json.
const loaders = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' };
function loaderOf(filename) {
  return loaders[path.extname(filename).toLowerCase()] || 'js';
}

// ownThread runs start, which starts a thread of memtrace's own (the
// helper, the ES module hooks thread), without the process.nextTick
// callbacks Node queues for a new Worker: the 'worker' event on process
// (the program never sees memtrace's threads) and the resumption of the
// pipes of its stdout and stderr, which run as microtasks instead. A tick
// still queued when the main module's code ends makes Node run the
// program's promise reactions from processTicksAndRejections, whose frame
// then ends their stacks (plain node runs them from its native checkpoint).
function ownThread(start) {
  const saved = process.nextTick;
  const later = [];
  try {
    process.nextTick = function nextTick(fn, ...args) { later.push([fn, args]); };
    return start();
  } finally {
    process.nextTick = saved;
    for (const [fn, args] of later) {
      if (args.length === 0 && Function.prototype.toString.call(fn).includes("'worker'")) continue;
      queueMicrotask(() => fn(...args));
    }
  }
}

// The helper thread (bridge.cjs) that talks to the instrument-server; the
// main thread waits for its answers on a shared flag. Both start on the
// first module that needs instrumenting (about 45 ms for the thread, 15 ms
// for the server), so that processes that need none (ES modules only,
// modules instrumented ahead of time) pay nothing. If the thread cannot
// start, each module is instrumented by a `memtrace instrument`
// process of its own (as is every module with
// MEMTRACE_INSTRUMENTER=spawn).
let bridge;
function startBridge() {
  if (menv.MEMTRACE_INSTRUMENTER === 'spawn') return null;
  try {
    const { MessageChannel, receiveMessageOnPort } = require('node:worker_threads');
    const Worker = OrigWorker;
    const { port1, port2 } = new MessageChannel();
    // f[0]: set by the helper when it answers; f[1]: 0 idle, 1 claimed for
    // a request, 2 left (the helper leaves when idle: bridge.cjs); f[2]:
    // set once a helper that left has seen its server exit.
    const flag = new SharedArrayBuffer(12);
    const f = new Int32Array(flag);
    const w = ownThread(() => new Worker(path.join(__dirname, 'bridge.cjs'), {
      workerData: { memtraceBridge: { port: port2, flag, bin, args: extraArgs, idleMs: helperIdleMs() } },
      transferList: [port2], execArgv: [], stdout: false, stderr: false,
    }));
    w.unref();
    port1.unref();
    return { port: port1, f, receive: receiveMessageOnPort, ready: false };
  } catch (e) {
    process.stderr.write(`memtrace: instrumenting each module with its own process: ${e.message}\n`);
    return null;
  }
}
// helperIdleMs: how long the helper waits for another module before it
// leaves (MEMTRACE_HELPER_IDLE_MS, default 2 s; 0: it stays).
function helperIdleMs() {
  const v = menv.MEMTRACE_HELPER_IDLE_MS;
  const n = v === undefined || v === '' ? 2000 : +v;
  return n >= 0 && n < 1e9 ? n : 2000;
}
// readyBridge returns the helper, ready and claimed for one request
// (release it with done), or null. A helper that has left is replaced.
function readyBridge() {
  for (;;) {
    if (bridge === undefined) bridge = startBridge();
    if (bridge && !bridge.ready) {
      if (wait(bridge, 30000) === undefined) {
        process.stderr.write('memtrace: instrumenting each module with its own process: the helper thread did not start\n');
        bridge = null;
      } else {
        bridge.ready = true;
      }
    }
    if (!bridge || Atomics.compareExchange(bridge.f, 1, 0, 1) === 0) return bridge;
    bridge = undefined; // it left: its server ends on its own
  }
}
// done releases a helper claimed by readyBridge.
function done(b) {
  Atomics.store(b.f, 1, 0);
}
// wait returns the helper's next answer, or undefined after ms.
function wait(b, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = b.receive(b.port);
    if (m !== undefined) return m.message;
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    Atomics.wait(b.f, 0, 0, Math.min(left, 1000));
  }
}

// cacheKey names what instrument was given: goal, file and text.
function cacheKey(goal, filename, source) {
  return goal + '\0' + filename + '\0' + crypto.createHash('sha256').update(source).digest('hex');
}

// instrument returns the instrumented source, or the original source with a
// warning on standard error if memtrace cannot instrument it. compiled: the
// source comes from _compile, which a loader may have given text that is
// not the file's.
function instrument(source, filename, goal, compiled) {
  const r = attempt(source, filename, goal, compiled);
  if (r.error !== undefined && !r.warned) {
    r.warned = true;
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${r.error}\n`);
    noteUninstrumented(menv.MEMTRACE_UNINSTRUMENTED, filename, r.error);
  }
  return r.out;
}

// attempt instruments source once per goal, file and text: {out} or, if
// memtrace cannot instrument it, {out: source, error}.
function attempt(source, filename, goal, compiled) {
  if (isInstrumented(source)) return { out: source };
  const key = cacheKey(goal, filename, source);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const name = scriptName(filename);
  const loader = loaderOf(filename);
  const b = readyBridge();
  let out = source;
  let error;
  if (b) {
    Atomics.store(b.f, 0, 0); // the helper sets it to 1 after answering
    b.port.postMessage({ req: { name, goal, loader, path: filename }, source });
    const r = wait(b, 600000);
    done(b);
    if (r === undefined) error = 'no answer from memtrace instrument-server';
    else if (r.error !== undefined) error = r.error;
    else out = r.code;
  } else {
    const args = ['instrument', '--no-shim', ...extraArgs, '--goal', goal, '--name', name];
    if (loader !== 'js') args.push('--loader', loader, '--path', filename);
    args.push('-');
    try {
      out = origExecFileSync(bin, args, {
        input: source,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (e) {
      error = (e.stderr && String(e.stderr).trim()) || String(e);
    }
  }
  const r = error === undefined ? { out } : { out: source, error };
  cache.set(key, r);
  if (r.out !== source) {
    // The shim reads a file's original text from the disk (Function.prototype.toString,
    // stack positions); text another loader compiled is only here. (Read once per
    // module instrumented, not on a cache hit.)
    const own = compiled && !isFileText(filename, source) ? source : undefined;
    instrumented.set(filename, { goal, name, loader, length: source.length, key, source: own });
    if (own !== undefined) textByName.set(name, own);
  }
  return r;
}

// Position maps for stack traces (docs/instrumentation.md §4): the
// shim asks, when it formats a stack, for the map of a file a frame is in
// (its name as the engine gives it: a path, or a file: URL for an ES
// module). The file is read again and instrumented again by the server,
// with the map instead of the code, if it is the text that was
// instrumented (CommonJS: same length and hash; ES modules, instrumented
// by the loader thread: as a module). Maps are kept per file.
const instrumented = new Map(); // filename -> {goal, name, loader, length, key, source (when not the file's)}
const textByName = new Map(); // script name -> the text compiled, when not the file's
const posMaps = new Map(); // frame file name -> map text, or null
function positionMap(file) {
  if (typeof file !== 'string' || file === '') return undefined;
  const known = posMaps.get(file);
  if (known !== undefined) return known === null ? undefined : known;
  posMaps.set(file, null);
  let filename = file;
  let rec = instrumented.get(file);
  if (rec === undefined && file.startsWith('file://')) {
    try { filename = require('node:url').fileURLToPath(file); } catch { return undefined; }
    const ext = path.extname(filename).toLowerCase();
    if (ext === '.cjs' || ext === '.cts') return undefined;
    rec = { goal: 'module', name: scriptName(filename), loader: loaderOf(filename) };
  }
  if (rec === undefined) return undefined;
  let source = rec.source;
  if (source === undefined) {
    try { source = fs.readFileSync(filename, 'utf8'); } catch { return undefined; }
    if (source.charCodeAt(0) === 0xFEFF) source = source.slice(1);
  }
  if (rec.key !== undefined && (source.length !== rec.length || cacheKey(rec.goal, filename, source) !== rec.key)) {
    // A CommonJS module's text as Node gave it (without a BOM, or changed
    // by another loader): the map of what was instrumented.
    return undefined;
  }
  const b = readyBridge();
  if (!b) return undefined;
  Atomics.store(b.f, 0, 0);
  b.port.postMessage({ req: { name: rec.name, goal: rec.goal, loader: rec.loader || 'js', path: filename, posmap: true }, source });
  const r = wait(b, 600000);
  done(b);
  if (r === undefined || r.error !== undefined || typeof r.code !== 'string') return undefined;
  posMaps.set(file, r.code);
  return r.code;
}

// Run-time code (eval, new Function: docs/instrumentation.md §6) goes to
// the same instrumenter, through the shim's setInstrumenter; the shim
// caches the results. Undefined: run the code as it is.
// kind: code given to the vm module ('vm': a script of its own named
// name, 'vmfn': a function body, instrumented as a CommonJS module's,
// 'vmmod': a vm.SourceTextModule's, an ES module's), with
// its site table in the code and the run's exclusions applied to its name.
// posmap: the position map of that code instead (vm code's stack frames).
function instrumentRunTimeCode(code, name, strict, global, kind, posmap) {
  const b = readyBridge();
  if (b) {
    Atomics.store(b.f, 0, 0);
    // The site table comes apart from the code (the shim hands it to S):
    // the string the engine keeps while the code lives is shorter.
    const req = kind === 'vmfn' ? { name, goal: 'commonjs', loader: 'js' }
      : kind === 'vmmod' ? { name, goal: 'module', loader: 'js' }
      : kind === 'vm' ? { name, goal: 'script', eval: true, global: true, file: true }
        : { name, goal: 'script', eval: true, strict, global: global === true, sitesApart: true };
    if (posmap === true) req.posmap = true;
    b.port.postMessage({ req, source: code });
    const r = wait(b, 600000);
    done(b);
    if (r === undefined) {
      // No answer: the instrumenter is broken (not code it rejects, which
      // runs as it is and fails as it would).
      if (posmap !== true) brokenInstrumenter(name, 'it gave no answer');
      return undefined;
    }
    if (r.error !== undefined) {
      if (r.broken && posmap !== true) brokenInstrumenter(name, r.error);
      return undefined;
    }
    return typeof r.sites === 'string' ? { code: r.code, sites: r.sites } : r.code;
  }
  if (posmap === true) return undefined;
  const args = kind === 'vmfn' ? ['instrument', '--no-shim', ...extraArgs, '--goal', 'commonjs']
    : kind === 'vmmod' ? ['instrument', '--no-shim', ...extraArgs, '--goal', 'module'] : ['instrument', '--eval'];
  if (strict) args.push('--strict-code');
  if (global === true) args.push('--global-code');
  args.push('--name', name, '-');
  try {
    return origExecFileSync(bin, args, { input: code, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    // Code memtrace rejects (exit 1 with a diagnostic) runs as it is; an
    // instrumenter that cannot run, or ends otherwise, is broken.
    const said = e && e.stderr ? String(e.stderr) : '';
    if (!(e && e.status === 1 && said.includes(': error: '))) brokenInstrumenter(name, e && e.code ? e.code : e && e.status !== undefined ? 'exit status ' + e.status : String(e));
    return undefined;
  }
}

// brokenInstrumenter says, once per process, that run-time code (eval,
// new Function, vm) runs uninstrumented because memtrace's instrumenter
// failed, naming it, and records it for session.json.
let brokenSaid = false;
function brokenInstrumenter(name, why) {
  if (brokenSaid) return;
  brokenSaid = true;
  const what = `the instrumenter ${bin} failed (${why}): run-time code (eval, new Function, vm) runs uninstrumented`;
  process.stderr.write(`memtrace: ${what}\n`);
  noteUninstrumented(menv.MEMTRACE_UNINSTRUMENTED, `run-time code (first: ${name})`, what);
}
if (env.MEMTRACE_INSTRUMENTER !== 'spawn' && bin && globalThis.__mt && typeof globalThis.__mt.setInstrumenter === 'function') {
  globalThis.__mt.setInstrumenter(instrumentRunTimeCode);
}
if (bin && globalThis.__mt && typeof globalThis.__mt.setPositionMapper === 'function') {
  globalThis.__mt.setPositionMapper(positionMap);
}
if (globalThis.__mt && typeof globalThis.__mt.setTextSource === 'function') {
  globalThis.__mt.setTextSource((name) => textByName.get(name));
}

// isFileText reports whether text is the file's (without a BOM, as Node
// compiles it): a loader such as ts-node, @babel/register or pirates
// compiles text of its own under the file's name.
function isFileText(filename, text) {
  let disk;
  try { disk = fs.readFileSync(filename, 'utf8'); } catch { return false; }
  if (disk.charCodeAt(0) === 0xFEFF) disk = disk.slice(1);
  return disk === text;
}

// CommonJS: wrap the .js/.cjs compiler. Module._extensions keeps Node's own
// reading and error handling; only the source changes.
const origCompile = Module.prototype._compile;

// Node runs a .js file whose package.json names no "type" as an ES module
// when it does not compile as CommonJS but does as a module, and passes
// _compile no format for such a file. The entry point follows module
// syntax detection (on by default since Node 20.19 and 22.7,
// --[no-]experimental-detect-module), a file require() loads follows
// require(esm) (since 20.19 and 22.12, --[no-]experimental-require-module):
// measured on Node 20.20, where turning detection off leaves require()
// detecting.
const nodeFlags = [...process.execArgv, ...String(env.NODE_OPTIONS || '').split(/\s+/)];
function nodeFlag(name, byDefault) {
  if (nodeFlags.includes('--no-' + name)) return false;
  if (nodeFlags.includes('--' + name)) return true;
  return byDefault;
}
const detectsModules = (() => {
  if (origCompile.length < 3) return { main: false, required: false }; // no format: no detection
  const [major, minor] = process.versions.node.split('.').map(Number);
  return {
    main: nodeFlag('experimental-detect-module', major > 22 || major === 22 && minor >= 7 || major === 20 && minor >= 19),
    required: nodeFlag('experimental-require-module', major > 22 || major === 22 && minor >= 12 || major === 20 && minor >= 19),
  };
})();

// compilesAsCommonJS: V8 compiles content as a CommonJS module's body (as
// Node's loader does first). On a failure Node tries it as a module.
// (strict: any error is a failure to compile, a RangeError too.)
function compilesAsCommonJS(content, filename, strict) {
  try {
    vmCompileFunction(content, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
    return true;
  } catch (e) {
    return !strict && !(e instanceof SyntaxError);
  }
}

// Node 20.19+ also compiles ES modules that require() loads here, with
// format 'module' (require(esm)).
Module.prototype._compile = function (content, filename, format) {
  if (typeof filename === 'string' && filename !== shimFile && !filename.startsWith(__dirname + path.sep)) {
    if (!tsRegistered && tsExts.includes(path.extname(filename).toLowerCase())) registerTS();
    const goal = format === 'module' || /\.m[jt]s$/i.test(filename) ? 'module' : 'commonjs';
    if (goal === 'commonjs' && format === undefined && (this.id === '.' ? detectsModules.main : detectsModules.required) &&
      loaderOf(filename) === 'js' &&
      attempt(content, filename, goal, true).error !== undefined && !compilesAsCommonJS(content, filename)) {
      // Node runs it as an ES module if it compiles as one (module syntax
      // detection; as the instrumenter decides, js.FileGoal): it is given
      // the module instrumented, with the format its detection would give.
      const m = attempt(content, filename, 'module', true);
      if (m.error === undefined) {
        const args = Array.prototype.slice.call(arguments);
        args[0] = m.out;
        args[2] = 'module';
        return origCompile.apply(this, args);
      }
    }
    const out = instrument(content, filename, goal, true);
    if (out !== content) return compiledOrOriginal(this, out, content, filename, goal, arguments);
  }
  return origCompile.apply(this, [content, ...Array.prototype.slice.call(arguments, 1)]);
};

// compiledOrOriginal runs module m's instrumented text out, or its
// original text when V8 cannot compile out but can compile the original:
// V8 nests only as deep as its stack lets its parser recurse, and the hooks
// of some forms (member chains, new new …) add a call to every level, so
// near V8's own limit the instrumented text is too deep where the original
// is not (docs/instrumentation.md, "Nesting"; ES modules: loader.mjs). A
// text that nests deep is compiled alone first. (Not a try around the
// compile: an exception the module throws would then be thrown again from
// here, and Node would print this file's line above it.)
function compiledOrOriginal(m, out, original, filename, goal, args) {
  const rest = Array.prototype.slice.call(args, 1);
  if (goal === 'commonjs' && deeperThan(out, 1000) && !compilesAsCommonJS(out, filename, true) &&
    compilesAsCommonJS(original, filename, true)) {
    const why = 'V8 cannot compile its instrumented text (nested too deep for its stack)';
    process.stderr.write(`memtrace: ${filename} runs uninstrumented: ${why}\n`);
    noteUninstrumented(menv.MEMTRACE_UNINSTRUMENTED, filename, why);
    return origCompile.apply(m, [original, ...rest]);
  }
  return origCompile.apply(m, [out, ...rest]);
}


// require() finds .ts, .cts, .tsx and .jsx files without their extension
// too; Node 20 compiles them with the .js handler, whose _compile is the
// one above. (.mts is an ES module: the loader hooks take it.) Only in a
// program that is TypeScript or JSX (its main file, or the first such file
// it loads): a JavaScript program sees Node's require.extensions.
const tsExts = ['.ts', '.cts', '.tsx', '.jsx'];
let tsRegistered = false;
function registerTS() {
  if (tsRegistered) return;
  tsRegistered = true;
  for (const ext of tsExts) {
    if (!Module._extensions[ext]) Module._extensions[ext] = Module._extensions['.js'];
  }
}
if (tsExts.includes(path.extname(process.argv[1] || '').toLowerCase())) registerTS();

// ES modules: loader hooks in their own thread.
// The hooks thread starts here and copies the environment: the variable
// tells its preload what it is.
if (typeof Module.register === 'function') {
  env.MEMTRACE_HOOKS_THREAD = '1';
  try {
    ownThread(() => Module.register(require('node:url').pathToFileURL(path.join(__dirname, 'loader.mjs')).href, {
      data: { bin },
    }));
  } finally {
    delete env.MEMTRACE_HOOKS_THREAD;
  }
}

// The program's process.env is the environment it was given: the
// variables memtrace sets go (the shim and this file keep what they read
// later; the program's children get them back, above), and NODE_OPTIONS is
// the program's own again (memtrace node and this file's child wrappers
// pass it as MEMTRACE_NODE_OPTIONS; none: it had none).
menv = {};
for (const k of Object.keys(env)) if (k.startsWith('MEMTRACE_')) menv[k] = env[k];
for (const k of ['MEMTRACE_CONFIG', 'MEMTRACE_PARENT', 'MEMTRACE_CHILDREN', 'MEMTRACE_OUT', 'MEMTRACE_BIN', 'MEMTRACE_DEBUG_FUN', 'MEMTRACE_STATUS', 'MEMTRACE_UNINSTRUMENTED', 'MEMTRACE_WORKER', 'MEMTRACE_WORKER_STACK',
  'MEMTRACE_ALL_USES', 'MEMTRACE_ALL_PUTFIELDS', 'MEMTRACE_COMPACT', 'MEMTRACE_EXCLUDE', 'MEMTRACE_NODE_OPTIONS', 'MEMTRACE_STACK_ARG']) delete env[k];
// The stack size memtrace node gives node for instrumented code (its
// --stack-size, MEMTRACE_STACK_ARG) is no option of the program's.
if (menv.MEMTRACE_STACK_ARG) {
  const k = process.execArgv.indexOf(menv.MEMTRACE_STACK_ARG);
  if (k >= 0) process.execArgv.splice(k, 1);
}
if (menv.MEMTRACE_NODE_OPTIONS !== undefined) env.NODE_OPTIONS = menv.MEMTRACE_NODE_OPTIONS;
else delete env.NODE_OPTIONS;
}

// The program's require.cache holds its own modules only, as without
// memtrace (this file, the client and the shim are loaded and stay so).
for (const k of Object.keys(require.cache)) {
  if (k.startsWith(__dirname + require('node:path').sep)) delete require.cache[k];
}
