// The browser host's sink: the trace protocol (docs/protocol.md) over the
// page's WebSocket, captured before the page runs. The core hands each
// piece of the trace over (write); it is kept as a chunk until the
// collector acknowledges it, sent while fewer than the collector's window
// of bytes wait, sent again after a reconnection (the welcome's next), and
// bounded: past the configuration's bufferLimit the trace stops and its
// end says what was dropped. At the end (pagehide, Alt+Shift+T, the
// collector's stop) what is left goes over the socket and, as a page that
// goes away cannot wait for acknowledgements, in a keepalive request to
// the collector's beacon too (docs/protocol.md, "The end of a page"); the
// collector keeps each chunk once, whichever way it came first.

import { apply, $Uint8Array, typedArraySlice, typedArraySet, N_SET_TIMEOUT, G } from '../natives.js';

const Socket = typeof G.WebSocket === 'function' ? G.WebSocket : undefined;
const wsSend = Socket !== undefined ? Socket.prototype.send : undefined;
const wsClose = Socket !== undefined ? Socket.prototype.close : undefined;
const addListener = typeof G.EventTarget === 'function' ? G.EventTarget.prototype.addEventListener : undefined;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const $JSON = JSON;
const $DataView = DataView;
const dvSetUint32 = DataView.prototype.setUint32;
const $fetch = typeof G.fetch === 'function' ? G.fetch : undefined;
const $Blob = typeof G.Blob === 'function' ? G.Blob : undefined;
const floor = Math.floor;
const encode = encodeURIComponent;

// openSocketSink returns the sink ({write, idle, close, stream,
// stopRequested}) for the collector at o.url (o: {url, token, meta,
// limit, beacon}); say tells the user, stop(reason) ends the trace,
// onStop() is called when the collector asks the trace to end.
// CHUNK_MAX bounds a chunk's bytes (the collector's frame limit is
// larger): small enough that the chunks a page still holds when it goes
// away fit, whole, in its last request, which a browser bounds (a
// keepalive request carries at most 64 KiB: BEACON_MAX with the headers).
const CHUNK_MAX = 16 << 10;
const BEACON_MAX = 60 << 10;

export function openSocketSink(o, say, stop, onStop) {
  if (Socket === undefined) return { error: new Error('no WebSocket in this context') };
  const chunks = []; // {seq, data}, not acknowledged, in order
  let nextSeq = 0;
  let sendFrom = 0;
  let inflight = 0;
  let kept = 0;
  let sealed = 0;
  let windowBytes = 16 << 20;
  let session = '';
  let resume = '';
  let ws = null;
  let ready = false;
  let ended = false;
  let closed = false;
  let dropped = null;
  let stopAsked = false;
  let backoff = 50;
  // The name this page gives its session, by which its beacon finds it
  // when the page goes away before the collector's welcome.
  const client = typeof o.client === 'string' ? o.client : '';

  function connect() {
    if (ended) return;
    let s;
    try {
      s = new Socket(o.url, 'memtrace.trace.v1');
    } catch (e) {
      say('the collector at ' + o.url + ' cannot be reached: ' + (e && e.message));
      return;
    }
    s.binaryType = 'arraybuffer';
    ws = s;
    ready = false;
    apply(addListener, s, ['open', () => {
      send(s, apply(jsonStringify, $JSON, [{ type: 'hello', protocol: 1, token: o.token, session, resume, client: session === '' ? client : '', meta: o.meta }]));
    }]);
    apply(addListener, s, ['message', (ev) => {
      if (typeof ev.data !== 'string') return;
      let m;
      try { m = apply(jsonParse, $JSON, [ev.data]); } catch { return; }
      if (m === null || typeof m !== 'object') return;
      if (m.type === 'welcome') {
        session = m.session;
        resume = m.resume;
        if (m.window > 0) windowBytes = m.window;
        while (chunks.length > 0 && chunks[0].seq < m.next) kept -= shift().data.length;
        sendFrom = 0;
        inflight = 0;
        ready = true;
        backoff = 50;
        pump();
      } else if (m.type === 'ack') {
        while (chunks.length > 0 && chunks[0].seq <= m.seq) {
          const c = shift();
          kept -= c.data.length;
          if (sendFrom > 0) {
            sendFrom--;
            inflight -= c.data.length;
          }
        }
        pump();
      } else if (m.type === 'stop') {
        stopAsked = true;
        onStop();
      } else if (m.type === 'ended') {
        ended = true;
        try { apply(wsClose, s, []); } catch { /* closed */ }
      } else if (m.type === 'error' && !ready && session === '') {
        say('the collector refused the session: ' + m.reason);
        ended = true;
      }
    }]);
    apply(addListener, s, ['close', () => {
      if (ws !== s) return;
      ws = null;
      ready = false;
      if (ended || closed) return;
      apply(N_SET_TIMEOUT, G, [connect, backoff]);
      backoff = backoff * 2 < 2000 ? backoff * 2 : 2000;
    }]);
  }

  // shift takes the first chunk out (the page may have replaced
  // Array.prototype.shift).
  function shift() {
    const c = chunks[0];
    for (let i = 1; i < chunks.length; i++) chunks[i - 1] = chunks[i];
    chunks.length--;
    return c;
  }

  function send(s, data) {
    try { apply(wsSend, s, [data]); } catch { /* closing */ }
  }

  function frame(c) {
    const f = new $Uint8Array(8 + c.data.length);
    const dv = new $DataView(f.buffer);
    apply(dvSetUint32, dv, [0, floor(c.seq / 4294967296)]);
    apply(dvSetUint32, dv, [4, c.seq >>> 0]);
    apply(typedArraySet, f, [c.data, 8]);
    return f;
  }

  function pump() {
    if (!ready || ws === null) return;
    while (sendFrom < chunks.length && inflight < windowBytes) {
      const c = chunks[sendFrom++];
      inflight += c.data.length;
      send(ws, frame(c));
    }
  }

  function write(buf, from, to) {
    const n = to - from;
    if (closed || n <= 0) return 0;
    if (dropped !== null) {
      dropped.bytes += n;
      return 0;
    }
    if (kept + n > o.limit) {
      dropped = { fromSeq: nextSeq, fromByte: sealed, chunks: 1, bytes: n,
        why: kept + ' bytes waited for the collector\'s acknowledgement, and the page keeps at most ' + o.limit };
      stop('the collector at ' + o.url + ' fell behind: ' + dropped.why + '; the trace ends after its first ' + sealed + ' bytes');
      return 0;
    }
    // A piece goes in chunks of at most CHUNK_MAX bytes.
    for (let at = from; at < to; at += CHUNK_MAX) {
      const end = to - at > CHUNK_MAX ? at + CHUNK_MAX : to;
      chunks[chunks.length] = { seq: nextSeq++, data: apply(typedArraySlice, buf, [at, end]) };
    }
    kept += n;
    sealed += n;
    pump();
    return 0;
  }

  // close ends the session: the end over the socket, and what was not
  // acknowledged, with the end, to the beacon (a page going away cannot
  // wait for the socket).
  function close() {
    if (closed) return;
    closed = true;
    const end = { type: 'end', reason: stopAsked ? 'stop' : o.reason(), last: nextSeq - 1, bytes: sealed, dropped };
    if (ready && ws !== null) {
      pump();
      send(ws, apply(jsonStringify, $JSON, [end]));
    }
    if (o.beacon && (session !== '' || client !== '') && $fetch !== undefined && $Blob !== undefined) {
      // [seq: 8 bytes][length: 4 bytes][bytes]... then the end as JSON:
      // the first chunks not acknowledged, as many as the request takes
      // (the socket may still deliver the others; if it does not, the
      // collector ends the session incomplete, saying from which chunk).
      let size = 0;
      let n = 0;
      while (n < chunks.length && size + 12 + chunks[n].data.length <= BEACON_MAX) size += 12 + chunks[n++].data.length;
      const body = new $Uint8Array(size);
      const dv = new $DataView(body.buffer);
      let p = 0;
      for (let i = 0; i < n; i++) {
        const c = chunks[i];
        apply(dvSetUint32, dv, [p, floor(c.seq / 4294967296)]);
        apply(dvSetUint32, dv, [p + 4, c.seq >>> 0]);
        apply(dvSetUint32, dv, [p + 8, c.data.length]);
        apply(typedArraySet, body, [c.data, p + 12]);
        p += 12 + c.data.length;
      }
      const who = session !== '' ? '?session=' + encode(session) + '&resume=' + encode(resume)
        : '?client=' + client + '&token=' + encode(o.token) + '&meta=' + encode(apply(jsonStringify, $JSON, [o.meta]));
      const q = who + '&end=' + encode(apply(jsonStringify, $JSON, [end]));
      try {
        apply($fetch, G, [o.beacon + q, { method: 'POST', body: new $Blob([body]), keepalive: true, credentials: 'omit' }]);
      } catch { /* the page is gone */ }
    }
  }

  connect();
  return { write, idle() {}, close, stream: true, stopRequested: () => stopAsked };
}
