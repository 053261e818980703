// memtrace's helper thread (started by preload.cjs): it owns the
// long-lived instrument-server and answers the main thread, which waits on
// a shared flag (Atomics.wait) for each answer, so that CommonJS modules,
// which Node compiles synchronously, are instrumented without starting a
// process per module.
'use strict';
const { workerData } = require('node:worker_threads');
const { Client } = require('./client.cjs');

const { port, flag, bin, args } = workerData.memtraceBridge;
const f = new Int32Array(flag);
const client = new Client(bin, args);

function answer(msg) {
  port.postMessage(msg);
  Atomics.store(f, 0, 1);
  Atomics.notify(f, 0);
}

port.on('message', ({ req, source }) => {
  client.instrument(req, source).then(answer, (e) => answer({ error: String(e) }));
});
answer({ ready: true });
