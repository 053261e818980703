// The standalone instrumenter of run-time code (docs/instrumentation.md
// §6): an instrumented script run by plain `node` with MEMTRACE_BIN set
// has eval'd strings instrumented by that memtrace binary. Starting a
// process per string costs about 20 ms of CPU (and more as the program's
// memory grows: the fork copies its page tables), so one long-lived
// `memtrace instrument-server` answers them all, owned by a helper thread
// (Node compiles eval code synchronously, and a thread can wait for a
// pipe while the main thread blocks on a shared flag). This is what
// `memtrace node`'s preload does for modules (noderun/bridge.cjs); the
// shim has its own so that an instrumented file needs nothing else.

const $Atomics = Atomics;
const atomicsWait = Atomics.wait;
const atomicsStore = Atomics.store;
const $SharedArrayBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined;
const $Int32Array = Int32Array;
const $Date = Date;
const dateNow = Date.now;
const $JSON = JSON;
const jsonStringify = JSON.stringify;
const $apply = Reflect.apply;
const fnToString = Function.prototype.toString;
const $TextEncoder = typeof TextEncoder === 'function' ? TextEncoder : undefined;
const $TextDecoder = typeof TextDecoder === 'function' ? TextDecoder : undefined;
const encode = $TextEncoder !== undefined ? $TextEncoder.prototype.encode : undefined;
const decode = $TextDecoder !== undefined ? $TextDecoder.prototype.decode : undefined;

// helper is the helper thread's program: its source text is the worker's
// script, so it refers to nothing outside itself. It starts the server on
// the first request, relays requests (a JSON header line and the source
// bytes, noderun/server.go) and answers ({bytes, sites}: the code's UTF-8
// bytes, transferred, and its site table; or {error}, with fatal when the
// server is gone), then sets the flag to 1 and wakes the main thread. {close} ends the server's input and
// answers once the server has exited (and been reaped, so that its CPU
// time is counted as the program's).
function helper() {
  const { workerData } = process.getBuiltinModule('worker_threads');
  const { spawn } = process.getBuiltinModule('child_process');
  const { port, flag, bin } = workerData;
  const f = new Int32Array(flag);
  const answer = (m) => {
    port.postMessage(m);
    Atomics.store(f, 0, 1);
    Atomics.notify(f, 0);
  };
  let proc;
  let failed;
  let exited = false;
  let buf = Buffer.alloc(0);
  let head;
  let waiting = false; // an answer is due
  let closing = false;
  const fail = (why) => {
    if (failed === undefined) failed = why;
    if (waiting) {
      waiting = false;
      answer({ error: failed, fatal: true });
    }
  };
  const start = () => {
    proc = spawn(bin, ['instrument-server'], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    proc.on('error', (e) => fail('memtrace instrument-server: ' + e.message));
    proc.on('exit', (code, sig) => {
      exited = true;
      fail('memtrace instrument-server ended (' + (sig || code) + ')');
      if (closing) answer({ closed: true });
    });
    proc.stdin.on('error', () => {});
    // An answer's bytes are gathered in one buffer of its length and
    // transferred, not copied: nothing of it stays in this thread's heap.
    let out = null;
    let got = 0;
    proc.stdout.on('data', (d) => {
      buf = buf.length ? Buffer.concat([buf, d]) : d;
      for (;;) {
        if (head === undefined) {
          const nl = buf.indexOf(10);
          if (nl < 0) return;
          try {
            head = JSON.parse(buf.subarray(0, nl).toString('utf8'));
          } catch (e) {
            fail('bad answer: ' + e.message);
            return;
          }
          buf = buf.subarray(nl + 1);
          out = new Uint8Array(head.len);
          got = 0;
        }
        const n = Math.min(buf.length, head.len - got);
        out.set(buf.subarray(0, n), got);
        got += n;
        buf = buf.subarray(n);
        if (got < head.len) return;
        const h = head;
        const bytes = out;
        head = undefined;
        out = null;
        if (waiting) {
          waiting = false;
          if (h.error) answer({ error: h.error });
          else {
            port.postMessage({ bytes, sites: h.sites }, [bytes.buffer]);
            Atomics.store(f, 0, 1);
            Atomics.notify(f, 0);
          }
        }
      }
    });
  };
  port.on('message', (m) => {
    if (m.close) {
      closing = true;
      if (proc === undefined || exited) answer({ closed: true });
      else proc.stdin.end();
      return;
    }
    if (failed === undefined && proc === undefined) {
      try {
        start();
      } catch (e) {
        fail(String(e));
      }
    }
    waiting = true;
    if (failed !== undefined) {
      fail(failed);
      return;
    }
    proc.stdin.write(m.head.slice(0, -1) + ',"len":' + m.bytes.length + '}\n');
    proc.stdin.write(m.bytes);
  });
  port.on('close', () => {
    if (proc !== undefined && !exited) proc.stdin.end();
  });
  answer({ ready: true });
}

// startBridge starts the helper thread and returns a bridge, or undefined
// where there are no worker threads (or the helper does not start within
// 30 s). getBuiltin is process.getBuiltinModule.
export function startBridge(getBuiltin, bin) {
  if ($SharedArrayBuffer === undefined || typeof getBuiltin !== 'function' || encode === undefined || decode === undefined) return undefined;
  const enc = new $TextEncoder();
  const dec = new $TextDecoder();
  let wt;
  try {
    wt = getBuiltin('worker_threads');
  } catch {
    return undefined;
  }
  if (!wt || typeof wt.Worker !== 'function' || typeof wt.receiveMessageOnPort !== 'function') return undefined;
  const receive = wt.receiveMessageOnPort;
  const flag = new $SharedArrayBuffer(4);
  const f = new $Int32Array(flag);
  let port;
  let post;
  let worker;
  try {
    const ch = new wt.MessageChannel();
    port = ch.port1;
    post = port.postMessage;
    worker = new wt.Worker('(' + $apply(fnToString, helper, []) + ')()', {
      eval: true,
      execArgv: [],
      workerData: { port: ch.port2, flag, bin },
      transferList: [ch.port2],
    });
    // Neither keeps the program alive.
    worker.unref();
    if (typeof port.unref === 'function') port.unref();
  } catch {
    return undefined;
  }
  let usable = true;
  // wait returns the helper's next answer, or undefined after ms.
  function wait(ms) {
    const deadline = $apply(dateNow, $Date, []) + ms;
    for (;;) {
      const m = receive(port);
      if (m !== undefined) return m.message;
      const left = deadline - $apply(dateNow, $Date, []);
      if (left <= 0) return undefined;
      $apply(atomicsWait, $Atomics, [f, 0, 0, left < 1000 ? left : 1000]);
    }
  }
  const ready = wait(30000);
  if (ready === undefined || ready.ready !== true) {
    try { worker.terminate(); } catch { /* ignore */ }
    return undefined;
  }
  return {
    // instrument returns {code, sites}: code instrumented as the request
    // says (name, strict, global: the server's eval requests) and its
    // site table, which the code leaves out (its prologue passes 0 to S:
    // instrument.Options.SitesApart); null when memtrace cannot
    // instrument it (it then runs as it is: a syntax error is thrown by
    // the engine), or undefined when the server is not usable.
    instrument(name, strict, global, source) {
      if (!usable) return undefined;
      $apply(atomicsStore, $Atomics, [f, 0, 0]);
      const head = $apply(jsonStringify, $JSON, [{ id: 1, name, goal: 'script', loader: 'js', eval: true, strict, global, sitesApart: true }]);
      // The source's bytes are transferred to the helper, not copied.
      const bytes = $apply(encode, enc, [source]);
      $apply(post, port, [{ head, bytes }, [bytes.buffer]]);
      const r = wait(600000);
      if (r === undefined || r.fatal === true) {
        usable = false;
        return undefined;
      }
      if (r.bytes === undefined) return null;
      return { code: $apply(decode, dec, [r.bytes]), sites: typeof r.sites === 'string' ? r.sites : undefined };
    },
    // close ends the server and waits (at most 5 s) until it has exited
    // and been reaped.
    close() {
      if (!usable) return;
      usable = false;
      $apply(atomicsStore, $Atomics, [f, 0, 0]);
      $apply(post, port, [{ close: true }]);
      wait(5000);
    },
  };
}
