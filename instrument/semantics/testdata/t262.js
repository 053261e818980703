// Runs test262 jobs read as JSON lines on standard input ({id, scripts,
// module, async, out, timeout, realm}) one at a time, each in a fresh
// realm, and writes one JSON line per job: {id, ok, error, prints,
// timedOut, stderr, uncaught}.
//
// realm "context" (classic scripts): a new vm context whose global has
// print, $262 and a minimal process ({env: {MEMTRACE_OUT, MEMTRACE_BIN}, getBuiltinModule,
// on}) through which the shim opens its trace; scripts run in it in order
// as global code. About 50 times cheaper than a worker.
// realm "worker" (modules, or every job with argv[2] == "worker"): a new
// worker thread running t262-worker.js, a real Node environment whose
// process.env.MEMTRACE_OUT is job.out.
'use strict';
const { Worker } = require('worker_threads');
const path = require('path');
const fs = require('fs');
const vm = require('vm');
const readline = require('readline');

const forceWorker = process.argv[2] === 'worker';
const workerFile = path.join(__dirname, 't262-worker.js');
const queue = [];
let busy = false;
let inputDone = false;
let current = null; // the finish function of the job in flight

function emit(o) { process.stdout.write(JSON.stringify(o) + '\n'); }

function describe(e) {
  let name = 'Throw', message = '';
  try { name = String(e && e.constructor && e.constructor.name); } catch { /* keep */ }
  try { if (e && typeof e.name === 'string') name = e.name; } catch { /* keep */ }
  try { message = String(e && e.message !== undefined ? e.message : e); } catch { message = '<unprintable>'; }
  return { name, message: message.slice(0, 500) };
}

function makeHost(global, evalIn) {
  return {
    global,
    evalScript(src) { return evalIn(src); },
    detachArrayBuffer(buf) { structuredClone(buf, { transfer: [buf] }); return null; },
    createRealm() {
      const ctx = vm.createContext();
      const g = vm.runInContext('this', ctx);
      const host = makeHost(g, (s) => vm.runInContext(s, ctx));
      g.$262 = host;
      return host;
    },
  };
}

function runContext(job, finish) {
  const prints = [];
  let waiter = null;
  const sandbox = {};
  const ctx = vm.createContext(sandbox);
  const g = vm.runInContext('this', ctx);
  g.print = function print(msg) {
    const s = String(msg);
    prints[prints.length] = s;
    if (waiter !== null && (s === 'Test262:AsyncTestComplete' || s.startsWith('Test262:AsyncTestFailure:'))) waiter();
  };
  g.$262 = makeHost(g, (s) => vm.runInContext(s, ctx));
  g.process = {
    env: { MEMTRACE_OUT: job.out || '/dev/null', MEMTRACE_BIN: job.bin || '' },
    getBuiltinModule: (n) => process.getBuiltinModule(n),
    on() { return this; },
  };
  const done = (res) => {
    res.prints = prints;
    try { if (typeof g.__mt === 'object' && typeof g.__mt.end === 'function') g.__mt.end(); } catch { /* ignore */ }
    finish(res);
  };
  current = done;
  try {
    for (const f of job.scripts) {
      vm.runInContext(fs.readFileSync(f, 'utf8'), ctx, { filename: f, timeout: job.timeout || 10000 });
    }
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      done({ ok: false, timedOut: true, error: { name: 'Timeout', message: String(e.message) } });
    } else {
      done({ ok: false, error: describe(e) });
    }
    return;
  }
  if (!job.async || prints.some((s) => s === 'Test262:AsyncTestComplete' || s.startsWith('Test262:AsyncTestFailure:'))) {
    // Let pending promise jobs run (an uncaught error in them still counts).
    setImmediate(() => done({ ok: true }));
    return;
  }
  const timer = setTimeout(() => done({ ok: false, timedOut: true, error: { name: 'Timeout', message: '$DONE never called' } }), job.timeout || 10000);
  waiter = () => { clearTimeout(timer); setImmediate(() => done({ ok: true })); };
}

function runWorker(job, finish) {
  let stderr = '';
  const env = { ...process.env, MEMTRACE_OUT: job.out || '/dev/null', MEMTRACE_BIN: job.bin || '' };
  const w = new Worker(workerFile, {
    workerData: job, env, stdout: true, stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  });
  w.stdout.resume();
  w.stderr.on('data', (d) => { if (stderr.length < 2000) stderr += d; });
  let done = false;
  const end = (res) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (stderr) res.stderr = stderr.slice(0, 2000);
    w.terminate().finally(() => finish(res));
  };
  const timer = setTimeout(() => end({ ok: false, timedOut: true, error: { name: 'Timeout', message: 'timed out after ' + job.timeout + ' ms' } }), job.timeout || 10000);
  w.on('message', (res) => end(res));
  w.on('error', (e) => end({ ok: false, error: { name: 'WorkerError', message: String(e && e.stack || e).slice(0, 500) } }));
  w.on('exit', (code) => end({ ok: false, error: { name: 'Exit', message: 'worker exited with code ' + code } }));
}

function pump() {
  if (busy) return;
  if (queue.length === 0) {
    if (inputDone) process.exit(0);
    return;
  }
  busy = true;
  const job = queue.shift();
  let finished = false;
  const finish = (res) => {
    if (finished) return;
    finished = true;
    current = null;
    res.id = job.id;
    emit(res);
    busy = false;
    setImmediate(pump);
  };
  if (forceWorker || job.realm === 'worker' || job.module) runWorker(job, finish);
  else runContext(job, finish);
}

// Errors thrown by a context's promise jobs or timers reach the process.
process.on('uncaughtException', (e) => {
  if (current !== null) current({ ok: false, error: describe(e), uncaught: true });
});
process.on('unhandledRejection', () => { /* test262 ignores unhandled rejections */ });

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => { if (line.trim()) { queue.push(JSON.parse(line)); pump(); } });
rl.on('close', () => { inputDone = true; pump(); });
