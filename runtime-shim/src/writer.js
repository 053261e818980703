// The binary encoding (spec 1.2): a type byte, big-endian int32 fields,
// strings as a big-endian int32 byte length followed by UTF-16LE code units.
// Entries are encoded into one reusable buffer of about 1 MiB, handed to
// the sink when the next entry would not fit; an entry is never split
// across two hand-overs unless it is larger than the buffer itself.
//
// The writer is module state and plain functions rather than an object:
// every entry goes through here (tens of millions a second at best), and
// V8 inlines these into the shim's log functions, keeping the offset in a
// register between the fields of one entry. Callers make room for the
// whole entry first (need), then write its fields (e1..e4, or u8, i32,
// str and site in order).
//
// The sink may keep the end of what it was given at the front of the
// buffer, under TAIL bytes, and tells where the next bytes go: a trace
// written by direct I/O takes whole blocks from an aligned address, and
// its staging area is this buffer, so that no byte is copied on the way
// but the tail (index.js, sink).

export const CAP = 1 << 20;

// Code units are read with the String.prototype.charCodeAt found at
// start-up: called as a method while String.prototype still has it (V8
// compiles s.charCodeAt(i) to a load), else through Reflect.apply, so that
// a program that replaces it sees no call from the shim (an instrumented
// replacement would log, and the log would call it again).
const stringProto = String.prototype;
const charCodeAt = stringProto.charCodeAt;
const reflectApply = Reflect.apply;
function unit(s, i) {
  return reflectApply(charCodeAt, s, [i]);
}

// The writer's DataViews have a prototype of their own with the DataView
// methods found at start-up, and are made with the constructors found
// then, so that a program that replaces DataView.prototype's methods (or
// the global constructors) changes nothing here.
const $ArrayBuffer = ArrayBuffer;
const $DataView = DataView;
const $Int32Array = Int32Array;
const $Uint8Array = Uint8Array;
const setPrototypeOf = Object.setPrototypeOf;
const dataViewProto = DataView.prototype;
const viewProto = {
  __proto__: dataViewProto,
  getInt32: dataViewProto.getInt32,
  setInt32: dataViewProto.setInt32,
  setUint16: dataViewProto.setUint16,
  setUint8: dataViewProto.setUint8,
};
function view(b) {
  const v = new $DataView(b);
  setPrototypeOf(v, viewProto);
  return v;
}

// TAIL: room at the front for what a sink keeps (under 2 blocks of 4 KB:
// the alignment found and the partial block). END: where entries stop,
// at least CAP - TAIL bytes after where they start. Past END, TAIL more
// bytes let the sink move a first hand-over that began at 0 to its
// aligned start, and SLACK bytes let site strings be copied as whole int32
// words.
const TAIL = 2 * 4096;
const END = CAP + TAIL / 2;
const SLACK = 64;
const ab = new $ArrayBuffer(END + TAIL + SLACK);
const buf = new $Uint8Array(ab);
const dv = view(ab);
let start = 0; // where the bytes not yet handed to the sink begin
let off = 0;
let written = 0; // bytes handed to the sink
let sink = null; // sink(buf, from, to): hands over buf[from, to), returns the next start

export function setSink(f) {
  sink = f;
}

// buffer is the writer's buffer (the sink's staging area).
export function buffer() {
  return buf;
}

// need makes room for n more bytes.
export function need(n) {
  if (off + n > END) flush();
}

export function flush() {
  if (off > start) {
    written += off - start;
    start = off = sink(buf, start, off);
  }
}

// pending is the number of bytes encoded and not yet handed to the sink.
export function pending() {
  return off - start;
}

// bytes is the number of bytes encoded so far.
export function bytes() {
  return written + off - start;
}

// e1..e4: an entry of a type byte and one to four int32 fields.
export function e1(t, a) {
  const o = off;
  buf[o] = t;
  dv.setInt32(o + 1, a);
  off = o + 5;
}

export function e2(t, a, b) {
  const o = off;
  buf[o] = t;
  dv.setInt32(o + 1, a);
  dv.setInt32(o + 5, b);
  off = o + 9;
}

export function e3(t, a, b, c) {
  const o = off;
  buf[o] = t;
  dv.setInt32(o + 1, a);
  dv.setInt32(o + 5, b);
  dv.setInt32(o + 9, c);
  off = o + 13;
}

export function e4(t, a, b, c, d) {
  const o = off;
  buf[o] = t;
  dv.setInt32(o + 1, a);
  dv.setInt32(o + 5, b);
  dv.setInt32(o + 9, c);
  dv.setInt32(o + 13, d);
  off = o + 17;
}

export function u8(v) {
  buf[off++] = v;
}

export function i32(v) {
  const o = off;
  dv.setInt32(o, v);
  off = o + 4;
}

// str writes a string; the caller has made room for 4 + 2*s.length
// bytes, unless that is more than CAP (then it streams).
export function str(s) {
  const n = s.length;
  if (4 + 2 * n > END - off) {
    longStr(s);
    return;
  }
  let o = off;
  dv.setInt32(o, n * 2);
  o += 4;
  off = units(s, n, o);
}

// units writes the n code units of s at o and returns the offset after
// them.
function units(s, n, o) {
  if (stringProto.charCodeAt === charCodeAt) {
    for (let i = 0; i < n; i++) {
      dv.setUint16(o, s.charCodeAt(i), true);
      o += 2;
    }
  } else {
    for (let i = 0; i < n; i++) {
      dv.setUint16(o, unit(s, i), true);
      o += 2;
    }
  }
  return o;
}

// strNum writes the string s followed by the decimal digits of v (an
// int32); the caller has made room for 24 more bytes than str(s) needs.
export function strNum(s, v) {
  const n = s.length;
  const l = decLen(v);
  if (4 + 2 * (n + l) > END - off) {
    longStr(s + v);
    return;
  }
  let o = off;
  dv.setInt32(o, (n + l) * 2);
  o += 4;
  off = units(s, n, o);
  dec(v, l);
}

function longStr(s) {
  const n = s.length;
  need(4);
  i32(n * 2);
  for (let i = 0; i < n; i++) {
    if (off + 2 > END) flush();
    dv.setUint16(off, unit(s, i), true);
    off += 2;
  }
}

// Site strings "sid:iid": sites repeat (a loop's flushes and last uses), so
// each is encoded once into a direct-mapped cache of SLOTS slots by global
// iid (bounded memory, however much run-time code a program evaluates):
// slot k holds the bytes, length prefix included, at pool[k * SLOT_BYTES]
// (copied as whole int32 words), slotLen[k] of them, for slotIid[k] and
// slotSid[k] (slotLen 0: empty).
const SLOTS = 1 << 14;
const SLOT_BYTES = 52; // the longest site, "-2147483648:-2147483648", is 4 + 46 bytes
const pool = view(new $ArrayBuffer(SLOTS * SLOT_BYTES));
const slotIid = new $Int32Array(SLOTS);
const slotSid = new $Int32Array(SLOTS);
const slotLen = new $Uint8Array(SLOTS);

// site writes the string "sid:iid"; the caller has made room for
// SITE_MAX bytes.
export function site(sid, iid) {
  const k = iid & (SLOTS - 1);
  const n = slotLen[k];
  if (n !== 0 && slotIid[k] === iid && slotSid[k] === sid) {
    const p = k * SLOT_BYTES;
    const o = off;
    for (let j = 0; j < n; j += 4) dv.setInt32(o + j, pool.getInt32(p + j));
    off = o + n;
    return;
  }
  const o = off;
  encodeSite(sid, iid);
  const m = off - o;
  const p = k * SLOT_BYTES;
  for (let j = 0; j < m; j++) pool.setUint8(p + j, buf[o + j]);
  slotIid[k] = iid;
  slotSid[k] = sid;
  slotLen[k] = m;
}

function encodeSite(sid, iid) {
  const ls = decLen(sid);
  const li = decLen(iid);
  i32((ls + 1 + li) * 2);
  dec(sid, ls);
  dv.setUint16(off, 58, true); // ':'
  off += 2;
  dec(iid, li);
}

function dec(v, len) {
  const start = off;
  let o = start + 2 * len;
  off = o;
  let neg = false;
  if (v < 0) {
    neg = true;
    v = -v;
  }
  do {
    const q = (v / 10) | 0;
    o -= 2;
    dv.setUint16(o, 48 + v - 10 * q, true);
    v = q;
  } while (v > 0);
  if (neg) dv.setUint16(start, 45, true); // '-'
}

// decLen is the number of characters of v (an int32) in decimal.
export function decLen(v) {
  if (v < 0) return 1 + decLen(-v);
  return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : v < 100000 ? 5 : v < 1000000 ? 6 :
    v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
}

// SITE_MAX bounds the encoded size of a site string "sid:iid" (the
// longest, "-2147483648:-2147483648", is 4 + 46 bytes): callers make room
// for that much rather than count the digits of the two numbers.
export const SITE_MAX = 50;

// Runs of DECLAREs of a function's vars at its entry (Nu): their values
// are undefined there, so a run's entries are the same bytes at every
// call, encoded once per site into a direct-mapped cache of RUNS slots by
// the global iid g of the run's first entry (its k-th is at g + k): slot
// k holds runLen[k] bytes in runView[k] (whole int32 words, zeros past
// the last byte), runCount[k] entries, for runIid[k] (0: empty; global
// iids start at 1).
const RUNS = 1 << 13;
const runIid = new $Int32Array(RUNS);
const runLen = new $Int32Array(RUNS);
const runCount = new $Int32Array(RUNS);
const runView = [];
for (let k = 0; k < RUNS; k++) runView[k] = null;

// runSlot is the slot of g's run, -1 when it is not cached.
export function runSlot(g) {
  const k = g & (RUNS - 1);
  return runIid[k] === g ? k : -1;
}

// cacheRun encodes the run of DECLAREs (type t) of names (names[j] at iid
// g + j, id 0) into g's slot, and returns the slot.
export function cacheRun(t, g, names) {
  let n = 0;
  for (let j = 0; j < names.length; j++) n += 13 + 2 * names[j].length;
  const v = view(new $ArrayBuffer((n + 3) & ~3));
  let o = 0;
  for (let j = 0; j < names.length; j++) {
    const name = names[j];
    v.setUint8(o, t);
    v.setInt32(o + 1, g + j);
    v.setInt32(o + 5, 2 * name.length);
    o += 9;
    for (let c = 0; c < name.length; c++) {
      v.setUint16(o, unit(name, c), true);
      o += 2;
    }
    v.setInt32(o, 0);
    o += 4;
  }
  const k = g & (RUNS - 1);
  runIid[k] = g;
  runLen[k] = n;
  runCount[k] = names.length;
  runView[k] = v;
  return k;
}

// runBytes and runEntries: the size of slot k's run.
export function runBytes(k) {
  return runLen[k];
}
export function runEntries(k) {
  return runCount[k];
}

// runOf is slot k's run as putBytes takes it (its bytes stay the same
// after the slot takes another run: cacheRun makes a new view).
export function runOf(k) {
  return runView[k];
}

// putRun writes slot k's run; the caller has made room (need(runBytes(k))).
export function putRun(k) {
  putBytes(runView[k], runLen[k]);
}

// putBytes writes the first n bytes of run v (runOf); the caller has made
// room.
export function putBytes(v, n) {
  const o = off;
  for (let j = 0; j < n; j += 4) dv.setInt32(o + j, v.getInt32(j));
  off = o + n;
}
