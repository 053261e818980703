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
const atomicsCompareExchange = Atomics.compareExchange;
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
const $queueMicrotask = globalThis.queueMicrotask;
const arraySlice = Array.prototype.slice;
const strIndexOf = String.prototype.indexOf;

// ownThread runs start, which starts the helper thread, without the
// process.nextTick callbacks Node queues for a new Worker (as
// noderun/preload.cjs does for its threads): the 'worker' event on
// process (the program never sees the helper), and the resumption of the
// pipes of its stdout and stderr, which run as microtasks instead (a tick
// queued while the program runs would change the stacks of its promise
// reactions: processTicksAndRejections below them).
function ownThread(proc, start) {
  const saved = proc.nextTick;
  const later = [];
  proc.nextTick = function nextTick(...a) { later[later.length] = a; };
  try {
    return start();
  } finally {
    proc.nextTick = saved;
    for (let k = 0; k < later.length; k++) {
      const a = later[k];
      if (a.length > 1 || $apply(strIndexOf, $apply(fnToString, a[0], []), ["'worker'"]) < 0) $queueMicrotask(() => $apply(a[0], undefined, $apply(arraySlice, a, [1])));
    }
  }
}

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
  const { port, flag, bin, idleMs } = workerData;
  const f = new Int32Array(flag);
  const answer = (m) => {
    port.postMessage(m);
    Atomics.store(f, 0, 1);
    Atomics.notify(f, 0);
    idle();
  };
  // Idle for idleMs, the thread leaves, unless the main thread has just
  // claimed it (f[1]: 0 idle, 1 claimed for a request, 2 left): it ends
  // the server's input, and once the server has exited and been reaped
  // it sets f[2] and closes its port, so that its loop empties and the
  // thread ends, giving back its heap. The main thread starts another on
  // the next string.
  let timer;
  const idle = () => {
    if (idleMs <= 0) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(leave, idleMs);
  };
  const gone = () => {
    Atomics.store(f, 2, 1);
    Atomics.notify(f, 2);
    port.close();
  };
  const leave = () => {
    timer = undefined;
    if (Atomics.compareExchange(f, 1, 0, 2) !== 0) return; // a request is on its way
    if (proc === undefined || exited) gone();
    else {
      proc.on('exit', gone);
      proc.stdin.end();
    }
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
            idle();
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
// 30 s). getBuiltin is process.getBuiltinModule. The helper leaves after
// idleMs without a string (0: never), and the bridge starts another when
// the next one comes: a program that evaluates strings only at start-up
// (zlib's compressor, templates compiled once) does not keep a thread and
// its heap for the rest of its run.
export function startBridge(getBuiltin, bin, idleMs) {
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
  const proc = getBuiltin('process');
  const src = '(' + $apply(fnToString, helper, []) + ')()';

  // start returns a helper, {port, post, f, worker}, ready to answer, or
  // undefined. f[0]: set by the helper when it answers; f[1]: 0 idle, 1
  // claimed for a request (by the main thread), 2 left (by the helper);
  // f[2]: set once the helper's server has exited after it left.
  function start() {
    const flag = new $SharedArrayBuffer(12);
    const f = new $Int32Array(flag);
    let h;
    try {
      const ch = new wt.MessageChannel();
      const port = ch.port1;
      const worker = ownThread(proc, () => new wt.Worker(src, {
        eval: true,
        execArgv: [],
        workerData: { port: ch.port2, flag, bin, idleMs, memtraceHelper: true },
        transferList: [ch.port2],
      }));
      // Neither keeps the program alive.
      worker.unref();
      if (typeof port.unref === 'function') port.unref();
      h = { port, post: port.postMessage, f, worker };
    } catch {
      return undefined;
    }
    const ready = wait(h, 30000);
    if (ready === undefined || ready.ready !== true) {
      try { h.worker.terminate(); } catch { /* ignore */ }
      return undefined;
    }
    return h;
  }
  // wait returns helper h's next answer, or undefined after ms.
  function wait(h, ms) {
    const deadline = $apply(dateNow, $Date, []) + ms;
    for (;;) {
      const m = receive(h.port);
      if (m !== undefined) return m.message;
      const left = deadline - $apply(dateNow, $Date, []);
      if (left <= 0) return undefined;
      $apply(atomicsWait, $Atomics, [h.f, 0, 0, left < 1000 ? left : 1000]);
    }
  }
  // claim returns a helper claimed for one request (a new one if the
  // current one has left), or undefined when none starts.
  function claim() {
    for (;;) {
      if (cur === undefined) {
        cur = start();
        if (cur === undefined) return undefined;
      }
      if ($apply(atomicsCompareExchange, $Atomics, [cur.f, 1, 0, 1]) === 0) return cur;
      cur = undefined; // it left (f[1] = 2): its server ends on its own
    }
  }
  let cur = start();
  if (cur === undefined) return undefined;
  let usable = true;
  return {
    // instrument returns {code, sites}: code instrumented as the request
    // says (name, strict, global: the server's eval requests) and its
    // site table, which the code leaves out (its prologue passes 0 to S:
    // instrument.Options.SitesApart); null when memtrace cannot
    // instrument it (it then runs as it is: a syntax error is thrown by
    // the engine), or undefined when the server is not usable.
    // kind: code given to the vm module ('vm': a script named name,
    // 'vmfn': a function body, as a CommonJS module's), with its table in
    // the code and the run's exclusions applied to its name.
    // posmap: the position map of that code instead (stack columns).
    instrument(name, strict, global, source, kind, posmap) {
      if (!usable) return undefined;
      const h = claim();
      if (h === undefined) {
        usable = false;
        return undefined;
      }
      $apply(atomicsStore, $Atomics, [h.f, 0, 0]);
      const req = kind === 'vmfn' ? { id: 1, name, goal: 'commonjs', loader: 'js' }
        : kind === 'vmmod' ? { id: 1, name, goal: 'module', loader: 'js' }
        : kind === 'vm' ? { id: 1, name, goal: 'script', loader: 'js', eval: true, global: true, file: true }
          : { id: 1, name, goal: 'script', loader: 'js', eval: true, strict, global, sitesApart: true };
      if (posmap === true) req.posmap = true;
      const head = $apply(jsonStringify, $JSON, [req]);
      // The source's bytes are transferred to the helper, not copied.
      const bytes = $apply(encode, enc, [source]);
      $apply(h.post, h.port, [{ head, bytes }, [bytes.buffer]]);
      const r = wait(h, 600000);
      $apply(atomicsStore, $Atomics, [h.f, 1, 0]);
      if (r === undefined || r.fatal === true) {
        usable = false;
        return undefined;
      }
      if (r.bytes === undefined) return null;
      return { code: $apply(decode, dec, [r.bytes]), sites: typeof r.sites === 'string' ? r.sites : undefined };
    },
    // close ends the server and waits (at most 5 s) until it has exited
    // and been reaped: the current helper's, or the one of a helper that
    // has left.
    close() {
      if (!usable) return;
      usable = false;
      if (cur === undefined) return;
      const h = cur;
      if ($apply(atomicsCompareExchange, $Atomics, [h.f, 1, 0, 1]) === 0) {
        $apply(atomicsStore, $Atomics, [h.f, 0, 0]);
        $apply(h.post, h.port, [{ close: true }]);
        wait(h, 5000);
      } else {
        $apply(atomicsWait, $Atomics, [h.f, 2, 0, 5000]);
      }
    },
  };
}
