// The Node host's sink to a collector (docs/protocol.md): memtrace node
// --collector URL, or MEMTRACE_COLLECTOR for code instrumented ahead of
// time. Node 20 has no WebSocket without a flag (--experimental-websocket,
// which would change the program's globals), so the host speaks the
// protocol itself, over net or tls, from a worker thread of its own: the
// program's thread hands each piece of the trace over (postMessage, a
// copy transferred, never blocking on the network) and the worker sends
// it, keeps it until the collector acknowledges it, reconnects and
// resumes when the connection drops. What is acknowledged is counted in
// shared memory, which bounds what the program's thread hands over: past
// MEMTRACE_COLLECTOR_BUFFER bytes waiting (default 64 MiB) it stops the
// trace and its end says exactly what was dropped. At the end, the
// program's thread waits (Atomics.wait, at most the wait given) until the
// worker has delivered everything and the collector has answered.

import { apply, strIndexOf, strSlice, typedArraySlice, SafeSet } from '../natives.js';

// openCollectorSink returns the sink ({write, idle, close, stream,
// stopRequested}) for
// the collector at o.url (o: {url, token, meta, limit, waitMs}), or one
// with error set when no worker thread can be started. builtin loads
// Node's modules; ownThread(start) starts a thread of memtrace's own
// without the ticks Node queues for it (host.js); say tells the user;
// stop(reason) ends the trace; done({session, status, reason}) receives
// the collector's answer.
export function openCollectorSink(builtin, ownThread, o, say, stop, done) {
  let wt;
  try { wt = builtin('worker_threads'); } catch (e) { return { error: e }; }
  if (typeof SharedArrayBuffer !== 'function' || typeof Atomics !== 'object' || typeof BigInt64Array !== 'function') {
    return { error: new Error('no shared memory for the worker that talks to the collector') };
  }
  const now = Date.now;
  const wait = Atomics.wait;
  const load = Atomics.load;
  const sab = new SharedArrayBuffer(16);
  const st = new Int32Array(sab, 0, 2); // [0]: 0 running, 1 ended, 2 failed; [1]: 1 the collector asked to stop
  const acked = new BigInt64Array(sab, 8, 1);
  const ch = new wt.MessageChannel();
  const port = ch.port1;
  const post = port.postMessage;
  const receive = wt.receiveMessageOnPort;
  // The address as said to the user: without its token.
  const shown = apply(strSlice, o.url, [0, apply(strIndexOf, o.url, ['?']) >= 0 ? apply(strIndexOf, o.url, ['?']) : o.url.length]);
  let w;
  try {
    w = ownThread(() => new wt.Worker('(' + collectorWorker.toString() + ')()', {
      eval: true,
      workerData: { memtraceHelper: true, memtraceCollector: { url: o.url, shown, token: o.token, meta: o.meta, sab, port: ch.port2, resumeWaitMs: o.waitMs } },
      transferList: [ch.port2], execArgv: [], stdout: false, stderr: false,
    }));
    w.on('error', (e) => say('the connection to the collector failed: ' + (e && e.message)));
    w.unref();
    port.unref();
  } catch (e) {
    return { error: e };
  }
  let posted = 0; // bytes handed to the worker
  let seqs = 0; // pieces handed over
  let dropped = null;
  let closed = false;
  function write(buf, from, to) {
    const n = to - from;
    if (closed || n <= 0) return 0;
    if (dropped !== null) {
      dropped.bytes += n;
      return 0;
    }
    const waiting = posted - Number(apply(load, Atomics, [acked, 0]));
    if (waiting + n > o.limit) {
      dropped = { fromSeq: seqs, fromByte: posted, chunks: 1, bytes: n,
        why: waiting + ' bytes waited for the collector\'s acknowledgement, and the process keeps at most ' + o.limit + ' (MEMTRACE_COLLECTOR_BUFFER)' };
      stop('the collector at ' + shown + ' fell behind: ' + dropped.why + '; the trace ends after its first ' + posted + ' bytes');
      return 0;
    }
    const copy = apply(typedArraySlice, buf, [from, to]);
    try {
      apply(post, port, [copy, [copy.buffer]]);
    } catch { return 0; }
    posted += n;
    seqs++;
    return 0;
  }
  function close() {
    if (closed) return;
    closed = true;
    try {
      apply(post, port, [{ end: true, reason: st[1] === 1 ? 'stop' : 'exit', bytes: posted, dropped }]);
    } catch { /* the worker is gone */ }
    // The worker gives up reconnecting after waitMs: a little longer
    // here, for its answer.
    const deadline = apply(now, Date, []) + o.waitMs + 2000;
    while (apply(load, Atomics, [st, 0]) === 0) {
      const left = deadline - apply(now, Date, []);
      if (left <= 0) break;
      apply(wait, Atomics, [st, 0, 0, left < 1000 ? left : 1000]);
    }
    let answer;
    for (;;) {
      const m = receive(port);
      if (m === undefined) break;
      answer = m.message;
    }
    if (answer === undefined) {
      answer = { session: '', status: 'failed', reason: 'the collector at ' + shown + ' did not answer the end of the trace within ' + (o.waitMs + 2000) / 1000 + ' s' };
    }
    if (answer.status !== 'complete') say(answer.reason ? answer.reason : 'the trace ended ' + answer.status + ' at the collector');
    done(answer);
  }
  // script hands the worker a script's original source (text() returns
  // it, or null when it is not known), once per name. Code named only by
  // how it was made (eval) has no name to keep it under. A source over
  // the collector's frame limit is not sent (the worker drops it); the
  // trace does not depend on it.
  const sent = new SafeSet();
  function script(name, text) {
    if (closed || dropped !== null || name === 'eval' || name === 'evalIndirect' || name === '' || sent.has(name)) return;
    sent.add(name);
    const src = text();
    if (typeof src !== 'string') return;
    try {
      apply(post, port, [{ script: name, source: src }]);
    } catch { /* the worker is gone */ }
  }
  // stopRequested: the collector asked the trace to end (the host ends
  // it the next time the program idles, or at the process's end).
  return { write, idle() {}, close, script, stream: true, stopRequested: () => st[1] === 1 };
}

// collectorWorker is the worker's code, run from its own source text: it
// refers to nothing outside itself.
function collectorWorker() {
  'use strict';
  const load = process.getBuiltinModule;
  const { workerData } = load('worker_threads');
  const net = load('net');
  const tls = load('tls');
  const crypto = load('crypto');
  const cfg = workerData.memtraceCollector;
  const port = cfg.port;
  const st = new Int32Array(cfg.sab, 0, 2);
  const acked = new BigInt64Array(cfg.sab, 8, 1);
  const u = new URL(cfg.url);
  const secure = u.protocol === 'wss:' || u.protocol === 'https:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const portNo = +u.port || (secure ? 443 : 80);
  const path = u.pathname === '' || u.pathname === '/' ? '/__memtrace__/collect' : u.pathname;
  const resumeWait = cfg.resumeWaitMs > 0 ? cfg.resumeWaitMs : 30000;
  // chunks: what is not known to have arrived, in order: {seq, data} for
  // the trace's chunks, {text} for a script's source. Messages arrive in
  // the order sent, so a source has arrived once a chunk sent after it is
  // acknowledged; one with no chunk after it is sent again after a
  // reconnect (the collector keeps a name's first source).
  const chunks = [];
  let nextSeq = 0;
  let sendFrom = 0;
  let inflight = 0;
  let windowBytes = 16 << 20;
  let maxFrame = 4 << 20;
  let ackedBytes = 0;
  let session = '';
  let resume = '';
  let ending = null;
  let endSent = false;
  let finished = false;
  let sock = null;
  let ready = false;
  let lostAt = 0;
  let backoff = 50;
  let lastWhy = '';
  let heard = Date.now();
  let heartbeat = 15000;

  port.on('message', (m) => {
    if (m instanceof Uint8Array) {
      // A piece over the collector's frame limit goes in several chunks.
      for (let i = 0; i < m.length; i += maxFrame - 8) {
        chunks.push({ seq: nextSeq++, data: m.subarray(i, Math.min(m.length, i + maxFrame - 8)) });
      }
      pump();
    } else if (m !== null && typeof m === 'object' && typeof m.script === 'string') {
      chunks.push({ text: JSON.stringify({ type: 'script', name: m.script, source: m.source }) });
      pump();
    } else if (m !== null && typeof m === 'object' && m.end) {
      ending = m;
      pump();
    }
  });

  function finish(status, reason) {
    if (finished) return;
    finished = true;
    port.postMessage({ session, status, reason });
    Atomics.store(st, 0, status === 'complete' || status === 'incomplete' ? 1 : 2);
    Atomics.notify(st, 0);
    if (sock !== null) sock.destroy();
    port.close();
    clearInterval(watch);
  }

  // The collector silent for three heartbeats while something waits:
  // the connection is given up and made again.
  const watch = setInterval(() => {
    if (ready && sock !== null && (inflight > 0 || endSent) && Date.now() - heard > 3 * heartbeat) {
      lastWhy = 'the collector was silent for three heartbeats';
      sock.destroy();
    }
  }, 1000);

  connect();

  function connect() {
    if (finished) return;
    const key = crypto.randomBytes(16).toString('base64');
    const s = secure ? tls.connect({ host, port: portNo, servername: host }) : net.connect({ host, port: portNo });
    sock = s;
    ready = false;
    let buf = Buffer.alloc(0);
    let upgraded = false;
    let frag = null;
    let fragOp = 0;
    s.setNoDelay(true);
    s.on(secure ? 'secureConnect' : 'connect', () => {
      s.write('GET ' + path + ' HTTP/1.1\r\nHost: ' + u.host + '\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: ' + key + '\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: memtrace.trace.v1\r\n\r\n');
    });
    s.on('data', (d) => {
      heard = Date.now();
      buf = buf.length > 0 ? Buffer.concat([buf, d]) : d;
      if (!upgraded) {
        const i = buf.indexOf('\r\n\r\n');
        if (i < 0) {
          if (buf.length > 65536) s.destroy();
          return;
        }
        const head = buf.subarray(0, i).toString('latin1');
        buf = buf.subarray(i + 4);
        const line = head.split('\r\n')[0];
        if (!/^HTTP\/1\.1 101/.test(line)) {
          const body = buf.toString('utf8').trim();
          refused('the collector refused the connection: ' + line + (body ? ' (' + body + ')' : ''));
          return;
        }
        const want = crypto.createHash('sha1').update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
        const m = /\r\nsec-websocket-accept:[ \t]*([^\r\n]*)/i.exec(head);
        if (m === null || m[1].trim() !== want) {
          refused('the server at ' + cfg.shown + ' does not speak websockets');
          return;
        }
        upgraded = true;
        sendText(s, JSON.stringify({ type: 'hello', protocol: 1, token: cfg.token, session, resume, meta: cfg.meta }));
      }
      for (;;) {
        if (buf.length < 2) break;
        const b0 = buf[0];
        const b1 = buf[1];
        let len = b1 & 127;
        let p = 2;
        if (len === 126) {
          if (buf.length < 4) break;
          len = buf.readUInt16BE(2);
          p = 4;
        } else if (len === 127) {
          if (buf.length < 10) break;
          len = Number(buf.readBigUInt64BE(2));
          p = 10;
        }
        if (b1 & 128) p += 4; // a masked frame (servers send none)
        if (buf.length < p + len) break;
        const payload = buf.subarray(p, p + len);
        buf = buf.subarray(p + len);
        const op = b0 & 15;
        const fin = (b0 & 128) !== 0;
        if (op === 9) {
          sendFrame(s, 10, payload);
        } else if (op === 10) {
          // a pong
        } else if (op === 8) {
          if (payload.length > 2) lastWhy = payload.subarray(2).toString('utf8');
          s.end();
        } else if (op === 0) {
          if (frag !== null) {
            frag = Buffer.concat([frag, payload]);
            if (fin) {
              onMessage(s, fragOp, frag);
              frag = null;
            }
          }
        } else if (!fin) {
          frag = Buffer.from(payload);
          fragOp = op;
        } else {
          onMessage(s, op, payload);
        }
      }
    });
    s.on('error', (e) => { lastWhy = e.message; });
    s.on('close', () => {
      if (sock === s) lost();
    });
  }

  function refused(why) {
    lastWhy = why;
    // Refused before any session began: nothing to resume.
    if (session === '') finish('failed', why);
    else if (sock !== null) sock.destroy();
  }

  function lost() {
    sock = null;
    ready = false;
    if (finished) return;
    if (lostAt === 0) lostAt = Date.now();
    if (Date.now() - lostAt > resumeWait) {
      finish('failed', 'the collector at ' + cfg.shown + ' could not be reached for ' + Math.round((Date.now() - lostAt) / 1000) + ' s' + (lastWhy ? ' (' + lastWhy + ')' : '') + ': the trace after its first ' + ackedBytes + ' bytes is lost');
      return;
    }
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 1000);
  }

  function onMessage(s, op, payload) {
    if (op !== 1) return;
    let m;
    try { m = JSON.parse(payload.toString('utf8')); } catch { return; }
    if (m === null || typeof m !== 'object') return;
    if (m.type === 'welcome') {
      session = m.session;
      resume = m.resume;
      if (m.window > 0) windowBytes = m.window;
      if (m.maxFrame > 16) maxFrame = m.maxFrame;
      if (m.heartbeat > 0) heartbeat = m.heartbeat * 1000;
      settle(m.next - 1);
      sendFrom = 0;
      inflight = 0;
      endSent = false;
      ready = true;
      lostAt = 0;
      backoff = 50;
      pump();
    } else if (m.type === 'ack') {
      settle(m.seq);
      pump();
    } else if (m.type === 'stop') {
      Atomics.store(st, 1, 1);
    } else if (m.type === 'ended') {
      finish(m.status, m.reason || '');
    } else if (m.type === 'error') {
      lastWhy = m.reason;
      if (!ready) refused('the collector refused the session: ' + m.reason);
    }
  }

  // settle drops what has arrived: every chunk up to seq and what was
  // sent before it.
  function settle(seq) {
    let k = -1;
    for (let i = 0; i < chunks.length; i++) {
      const c = chunks[i];
      if (c.text !== undefined) continue;
      if (c.seq > seq) break;
      k = i;
    }
    for (let i = 0; i <= k; i++) {
      const c = chunks.shift();
      const n = c.text !== undefined ? 0 : c.data.length;
      ackedBytes += n;
      if (sendFrom > 0) {
        sendFrom--;
        inflight -= n;
      }
    }
    Atomics.store(acked, 0, BigInt(ackedBytes));
  }

  function pump() {
    if (!ready || finished || sock === null) return;
    const s = sock;
    while (sendFrom < chunks.length && inflight < windowBytes) {
      const c = chunks[sendFrom++];
      if (c.text !== undefined) {
        // A source over the frame limit is not sent.
        if (Buffer.byteLength(c.text, 'utf8') <= maxFrame) sendText(s, c.text);
        continue;
      }
      inflight += c.data.length;
      const h = Buffer.alloc(8);
      h.writeBigUInt64BE(BigInt(c.seq));
      sendFrame(s, 2, h, c.data);
    }
    if (ending !== null && !endSent && sendFrom === chunks.length && chunks.every((c) => c.text !== undefined)) {
      endSent = true;
      heard = Date.now();
      sendText(s, JSON.stringify({ type: 'end', reason: ending.reason, last: nextSeq - 1, bytes: ending.bytes, dropped: ending.dropped }));
    }
  }

  function sendText(s, text) { sendFrame(s, 1, Buffer.from(text, 'utf8')); }

  // sendFrame writes one frame, masked as a client's must be.
  function sendFrame(s, op, a, b) {
    const len = a.length + (b ? b.length : 0);
    const ext = len < 126 ? 0 : len < 65536 ? 2 : 8;
    const hl = 2 + ext + 4;
    const f = Buffer.allocUnsafe(hl + len);
    f[0] = 0x80 | op;
    if (ext === 0) f[1] = 0x80 | len;
    else if (ext === 2) {
      f[1] = 0x80 | 126;
      f.writeUInt16BE(len, 2);
    } else {
      f[1] = 0x80 | 127;
      f.writeBigUInt64BE(BigInt(len), 2);
    }
    const mask = crypto.randomBytes(4);
    mask.copy(f, hl - 4);
    f.set(a, hl);
    if (b) f.set(b, hl + a.length);
    const m0 = mask[0], m1 = mask[1], m2 = mask[2], m3 = mask[3];
    let i = hl;
    const end = hl + len;
    for (; i + 4 <= end; i += 4) {
      f[i] ^= m0;
      f[i + 1] ^= m1;
      f[i + 2] ^= m2;
      f[i + 3] ^= m3;
    }
    for (let k = 0; i < end; i++, k++) f[i] ^= mask[k & 3];
    s.write(f);
  }
}
