// Runs one test262 job in a fresh realm: a worker thread started by
// t262.js, or the main thread of its own process (node t262-worker.js
// JOB.json, which prints the result as one JSON line). A job is
// {scripts: [paths of classic scripts, run in order as global code],
// module: path of the entry module or "", async: bool}. The result is
// {ok, error: {name, message}, prints: [...]}; the Go test decides what
// passing means (negative tests, $DONE).
'use strict';
const wt = require('worker_threads');
const vm = require('vm');
const fs = require('fs');
const url = require('url');

const job = wt.isMainThread ? JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) : wt.workerData;
const prints = [];
let finished = false;
let asyncWaiter = null;

function describe(e) {
  let name = 'Throw', message = '';
  try { name = String(e && e.constructor && e.constructor.name); } catch { /* keep */ }
  try { if (e && typeof e.name === 'string') name = e.name; } catch { /* keep */ }
  try { message = String(e && e.message !== undefined ? e.message : e); } catch { message = '<unprintable>'; }
  return { name, message: message.slice(0, 500) };
}

function finish(res) {
  if (finished) return;
  finished = true;
  res.prints = prints;
  // Complete the trace now (the shim's final block); worker threads are
  // terminated, not exited.
  try { if (typeof globalThis.__mt === 'object' && typeof globalThis.__mt.end === 'function') globalThis.__mt.end(); } catch { /* ignore */ }
  if (wt.isMainThread) {
    process.stdout.write('T262RESULT ' + JSON.stringify(res) + '\n');
  } else {
    wt.parentPort.postMessage(res);
  }
}

globalThis.print = function print(msg) {
  const s = String(msg);
  prints[prints.length] = s;
  if (asyncWaiter !== null && (s === 'Test262:AsyncTestComplete' || s.startsWith('Test262:AsyncTestFailure:'))) {
    asyncWaiter();
  }
};

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
globalThis.$262 = makeHost(globalThis, (s) => vm.runInThisContext(s));

function afterEvaluation() {
  if (!job.async) { finish({ ok: true }); return; }
  if (prints.some((s) => s === 'Test262:AsyncTestComplete' || s.startsWith('Test262:AsyncTestFailure:'))) {
    finish({ ok: true });
    return;
  }
  asyncWaiter = () => setImmediate(() => finish({ ok: true }));
}

process.on('uncaughtException', (e) => finish({ ok: false, error: describe(e), uncaught: true }));
process.on('unhandledRejection', () => { /* test262 ignores unhandled rejections */ });

let threw = false;
try {
  for (const f of job.scripts) {
    vm.runInThisContext(fs.readFileSync(f, 'utf8'), { filename: f });
  }
} catch (e) {
  threw = true;
  finish({ ok: false, error: describe(e) });
}
if (!threw) {
  if (job.module) {
    import(url.pathToFileURL(job.module).href).then(afterEvaluation, (e) => finish({ ok: false, error: describe(e) }));
  } else {
    afterEvaluation();
  }
}
