// The standalone instrumenter of run-time code (docs/instrumentation.md
// §6): an instrumented script run by plain `node` with MEMTRACE_BIN set
// has eval'd strings instrumented by that memtrace binary. Starting a
// process per string costs about 20 ms of CPU (and more as the program's
// memory grows: the fork copies its page tables), so one long-lived
// `memtrace instrument-server` answers them all. Node compiles eval code
// synchronously, and it has no synchronous pipe to a child process; a FIFO
// opened with fs.openSync is one: the main thread writes a request and
// reads the answer with blocking system calls. The server makes the two
// FIFOs in a private directory (instrument-server --fifo, which starts
// the server in a process of its own and returns), the shim opens its
// ends and unlinks them, so that nothing is left on the disk however
// either side ends; the server ends when the program closes its ends (its
// exit, its death) or after idleMs without a request, and the next string
// starts another. The program sees nothing of it: no thread, no handle in
// its event loop, no callback. (An earlier design relayed through a
// helper thread, whose isolate cost about 10 MB: 200 distinct evals, peak
// RSS 63 MB against 52.5 MB.) A server that stops answering without
// closing its end blocks the program, as any blocking system call would;
// one that dies or leaves is replaced.
//
// The protocol is noderun/server.go's: a JSON header line with the
// source's byte length, the source's UTF-8 bytes; the answer's header line
// ({len, sites} or {error}), then the code's bytes.

const $Atomics = Atomics;
const atomicsWait = Atomics.wait;
const $Int32Array = Int32Array;
const $Uint8Array = Uint8Array;
const $SharedArrayBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : undefined;
const $Date = Date;
const dateNow = Date.now;
const $JSON = JSON;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const $apply = Reflect.apply;
const $TextEncoder = typeof TextEncoder === 'function' ? TextEncoder : undefined;
const $TextDecoder = typeof TextDecoder === 'function' ? TextDecoder : undefined;
const encodeInto = $TextEncoder !== undefined ? $TextEncoder.prototype.encodeInto : undefined;
const decode = $TextDecoder !== undefined ? $TextDecoder.prototype.decode : undefined;
const copyWithin = Uint8Array.prototype.copyWithin;
const strSlice = String.prototype.slice;

// bridgeNatives takes, at the shim's start (before the program can
// replace them: mock file systems, graceful-fs), what a bridge calls, or
// returns undefined where there are no FIFOs (no fs, child_process or os
// module; Windows). getBuiltin is process.getBuiltinModule.
export function bridgeNatives(getBuiltin) {
  if ($SharedArrayBuffer === undefined || typeof getBuiltin !== 'function' || encodeInto === undefined || decode === undefined) return undefined;
  let fs, os, cp, proc;
  try {
    fs = getBuiltin('fs');
    os = getBuiltin('os');
    cp = getBuiltin('child_process');
    proc = getBuiltin('process');
  } catch {
    return undefined;
  }
  if (!fs || !os || !cp || !proc || proc.platform === 'win32' || typeof fs.mkdtempSync !== 'function' || typeof cp.execFileSync !== 'function') return undefined;
  const { openSync, readSync, writeSync, closeSync, unlinkSync, rmdirSync, mkdtempSync, constants } = fs;
  return { fs, os, cp, openSync, readSync, writeSync, closeSync, unlinkSync, rmdirSync, mkdtempSync, constants, execFileSync: cp.execFileSync, tmpdir: os.tmpdir };
}

// startBridge returns a bridge, or undefined when the first server does
// not start. nat: bridgeNatives'; the server leaves after idleMs without
// a string (0: it stays until the program ends).
export function startBridge(nat, bin, idleMs) {
  if (nat === undefined) return undefined;
  const { fs, os, cp, openSync, readSync, writeSync, closeSync, unlinkSync, rmdirSync, mkdtempSync, execFileSync, tmpdir } = nat;
  const C = nat.constants;
  const enc = new $TextEncoder();
  const dec = new $TextDecoder();
  const nap = new $Int32Array(new $SharedArrayBuffer(4));
  const sleep = (ms) => $apply(atomicsWait, $Atomics, [nap, 0, 0, ms]);
  const now = () => $apply(dateNow, $Date, []);
  const call = (f, a) => $apply(f, fs, a);
  // One buffer for requests and answers, grown as needed and given back
  // after one over 1 MiB: no garbage per string.
  let buf = new $Uint8Array(1 << 16);
  let w = -1; // request FIFO, blocking
  let r = -1; // answer FIFO, blocking

  function drop() {
    if (w >= 0) try { call(closeSync, [w]); } catch { /* ignore */ }
    if (r >= 0) try { call(closeSync, [r]); } catch { /* ignore */ }
    w = -1;
    r = -1;
  }
  // connect starts a server and opens the FIFOs; false if it cannot.
  function connect() {
    let dir;
    try {
      dir = call(mkdtempSync, [$apply(tmpdir, os, []) + '/memtrace-']);
    } catch {
      return false;
    }
    const req = dir + '/req', ans = dir + '/ans';
    let ok = false;
    try {
      $apply(execFileSync, cp, [bin, ['instrument-server', '--fifo', dir, '--idle-ms', '' + idleMs],
        { stdio: 'ignore', timeout: 30000, windowsHide: true }]);
      const deadline = now() + 30000;
      // Opened without blocking until the server reads (ENXIO before),
      // then again blocking, which returns at once.
      let nb = -1;
      while (nb < 0) {
        try {
          nb = call(openSync, [req, C.O_WRONLY | C.O_NONBLOCK]);
        } catch (e) {
          if (e.code !== 'ENXIO' || now() > deadline) throw e;
          sleep(1);
        }
      }
      w = call(openSync, [req, C.O_WRONLY]);
      call(closeSync, [nb]);
      // A reader that does not block lets the server open its end; a read
      // then says EAGAIN (a writer, nothing written yet) rather than 0 (no
      // writer yet).
      nb = call(openSync, [ans, C.O_RDONLY | C.O_NONBLOCK]);
      try {
        for (;;) {
          let n;
          try {
            n = call(readSync, [nb, buf, 0, 1, null]);
          } catch (e) {
            if (e.code === 'EAGAIN') break;
            throw e;
          }
          if (n !== 0 || now() > deadline) throw new Error('no server');
          sleep(1);
        }
        r = call(openSync, [ans, C.O_RDONLY]);
      } finally {
        call(closeSync, [nb]);
      }
      ok = true;
    } catch {
      ok = false;
    }
    try { call(unlinkSync, [req]); } catch { /* ignore */ }
    try { call(unlinkSync, [ans]); } catch { /* ignore */ }
    try { call(rmdirSync, [dir]); } catch { /* ignore */ }
    if (!ok) drop();
    return ok;
  }
  // room makes buf n bytes or more, keeping its first keep bytes.
  function room(n, keep) {
    if (buf.length >= n) return;
    const b = new $Uint8Array(n + (n >> 2));
    for (let k = 0; k < keep; k++) b[k] = buf[k];
    buf = b;
  }
  function writeAll(n) {
    for (let o = 0; o < n;) o += call(writeSync, [w, buf, o, n - o]);
  }
  // readAnswer returns {code, sites}, null (memtrace cannot instrument
  // it), or undefined when the server is gone.
  function readAnswer() {
    let got = 0;
    let nl = -1;
    for (let seen = 0; nl < 0;) {
      if (got === buf.length) room(2 * got, got);
      const n = call(readSync, [r, buf, got, buf.length - got, null]);
      if (!(n > 0)) return undefined;
      got += n;
      for (; seen < got; seen++) {
        if (buf[seen] === 10) {
          nl = seen;
          break;
        }
      }
    }
    let head;
    try {
      head = $apply(jsonParse, $JSON, [$apply(decode, dec, [new $Uint8Array(buf.buffer, 0, nl)])]);
    } catch {
      return undefined;
    }
    if (head === null || typeof head !== 'object') return undefined;
    if (typeof head.error === 'string') return null;
    const len = head.len;
    if (typeof len !== 'number' || !(len >= 0)) return undefined;
    const start = nl + 1;
    room(start + len, got);
    while (got < start + len) {
      const n = call(readSync, [r, buf, got, start + len - got, null]);
      if (!(n > 0)) return undefined;
      got += n;
    }
    const code = $apply(decode, dec, [new $Uint8Array(buf.buffer, start, len)]);
    return { code, sites: typeof head.sites === 'string' ? head.sites : undefined };
  }

  if (!connect()) return undefined;
  let usable = true;
  return {
    // instrument returns {code, sites}: code instrumented as the request
    // says (name, strict, global: the server's eval requests) and its
    // site table, which the code leaves out (its prologue passes 0 to S:
    // instrument.Options.SitesApart); null when memtrace cannot
    // instrument it (it then runs as it is: a syntax error is thrown by
    // the engine), or undefined when no server answers.
    // kind: code given to the vm module ('vm': a script named name,
    // 'vmfn': a function body, as a CommonJS module's), with its table in
    // the code and the run's exclusions applied to its name.
    // posmap: the position map of that code instead (stack columns).
    instrument(name, strict, global, source, kind, posmap) {
      if (!usable) return undefined;
      const req = kind === 'vmfn' ? { id: 1, name, goal: 'commonjs', loader: 'js' }
        : kind === 'vmmod' ? { id: 1, name, goal: 'module', loader: 'js' }
        : kind === 'vm' ? { id: 1, name, goal: 'script', loader: 'js', eval: true, global: true, file: true }
          : { id: 1, name, goal: 'script', loader: 'js', eval: true, strict, global, sitesApart: true };
      if (posmap === true) req.posmap = true;
      // The source's UTF-8 bytes first (at most 3 per UTF-16 unit), then
      // the header before them.
      const head = $apply(jsonStringify, $JSON, [req]);
      const max = head.length * 3 + 32 + source.length * 3;
      // A server that has left (idle) or died: once more with a new one.
      for (let attempt = 0; attempt < 2; attempt++) {
        if (w < 0 && !connect()) break;
        room(max, 0);
        const at = head.length * 3 + 32;
        const n = $apply(encodeInto, enc, [source, new $Uint8Array(buf.buffer, at, buf.length - at)]).written;
        const h = $apply(encodeInto, enc, [$apply(strSlice, head, [0, -1]) + ',"len":' + n + '}\n', buf]).written;
        if (h !== at) $apply(copyWithin, buf, [h, at, at + n]);
        let a;
        try {
          writeAll(h + n);
          a = readAnswer();
        } catch {
          a = undefined;
        }
        if (buf.length > 1 << 20) buf = new $Uint8Array(1 << 16);
        if (a !== undefined) return a;
        drop();
      }
      usable = false;
      return undefined;
    },
    // close closes the program's ends: the server ends.
    close() {
      usable = false;
      drop();
    },
  };
}
