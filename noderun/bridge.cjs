// memtrace's helper thread (started by preload.cjs): it owns the
// long-lived instrument-server and answers the main thread, which waits on
// a shared flag (Atomics.wait) for each answer, so that CommonJS modules,
// which Node compiles synchronously, are instrumented without starting a
// process per module. It leaves when idle (MEMTRACE_HELPER_IDLE_MS).
'use strict';
const { workerData } = require('node:worker_threads');
const { Client } = require('./client.cjs');

const { port, flag, bin, args, idleMs } = workerData.memtraceBridge;
const f = new Int32Array(flag);
const client = new Client(bin, args);

function answer(msg) {
  port.postMessage(msg);
  Atomics.store(f, 0, 1);
  Atomics.notify(f, 0);
  idle();
}

// Idle for idleMs, the thread leaves, unless the main thread has just
// claimed it (f[1]: 0 idle, 1 claimed for a request, 2 left): its server's
// input ends, and once the server has exited, f[2] is set and the port
// closed, so that this thread ends and gives back its heap. preload.cjs
// starts another for the next module.
let timer;
function idle() {
  if (!(idleMs > 0)) return;
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(leave, idleMs);
}
function leave() {
  timer = undefined;
  if (Atomics.compareExchange(f, 1, 0, 2) !== 0) return; // a request is on its way
  client.end(() => {
    Atomics.store(f, 2, 1);
    Atomics.notify(f, 2);
    port.close();
  });
}

port.on('message', ({ req, source }) => {
  client.instrument(req, source).then(answer, (e) => answer({ error: String(e) }));
});
answer({ ready: true });
