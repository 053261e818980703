// The binary encoding (spec 1.2): a type byte, big-endian int32 fields,
// strings as a big-endian int32 byte length followed by UTF-16LE code units.
// Entries are encoded into one reusable 1 MiB buffer, handed to the sink
// when the next entry would not fit; an entry is never split across two
// hand-overs unless it is larger than the buffer itself.
//
// The writer is module state and plain functions rather than an object:
// every entry goes through here (tens of millions a second at best), and
// V8 inlines these into the shim's log functions, keeping the offset in a
// register between the fields of one entry. Callers make room first
// (need), then write the entry's fields with the offset they return.

export const CAP = 1 << 20;

// SLACK bytes past CAP let site strings be copied as whole int32 words.
const SLACK = 64;
const ab = new ArrayBuffer(CAP + SLACK);
const buf = new Uint8Array(ab);
const dv = new DataView(ab);
let off = 0;
let written = 0; // bytes handed to the sink
let sink = null; // sink(bytes Uint8Array, length)

export function setSink(f) {
  sink = f;
}

// need makes room for n more bytes.
export function need(n) {
  if (off + n > CAP) flush();
}

export function flush() {
  if (off > 0) {
    sink(buf, off);
    written += off;
    off = 0;
  }
}

// pending is the number of bytes encoded and not yet handed to the sink.
export function pending() {
  return off;
}

// bytes is the number of bytes encoded so far.
export function bytes() {
  return written + off;
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
  if (4 + 2 * n > CAP - off) {
    longStr(s);
    return;
  }
  let o = off;
  dv.setInt32(o, n * 2);
  o += 4;
  for (let i = 0; i < n; i++) {
    dv.setUint16(o, s.charCodeAt(i), true);
    o += 2;
  }
  off = o;
}

function longStr(s) {
  const n = s.length;
  need(4);
  i32(n * 2);
  for (let i = 0; i < n; i++) {
    if (off + 2 > CAP) flush();
    dv.setUint16(off, s.charCodeAt(i), true);
    off += 2;
  }
}

// Site strings "sid:iid" by global iid: sites repeat (a loop's flushes and
// last uses), so each is encoded once, length prefix included, into pool
// at siteAt[iid] (0: not yet), siteLen[iid] bytes, for script siteSid[iid],
// padded to whole int32 words.
let siteAt = new Int32Array(1024);
let siteLen = new Uint8Array(1024);
let siteSid = new Int32Array(1024);
let pool = new DataView(new ArrayBuffer(1 << 16));
let poolLen = 4;
const POOL_MAX = 1 << 26;

// site writes the string "sid:iid"; the caller has made room for
// siteBytes(sid, iid).
export function site(sid, iid) {
  if (iid < siteAt.length && siteSid[iid] === sid) {
    const p = siteAt[iid];
    if (p !== 0) {
      const n = siteLen[iid];
      const o = off;
      for (let k = 0; k < n; k += 4) dv.setInt32(o + k, pool.getInt32(p + k));
      off = o + n;
      return;
    }
  }
  const o = off;
  encodeSite(sid, iid);
  if (iid > 0) remember(sid, iid, o);
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

// remember keeps the site encoded at [o, off) for iid.
function remember(sid, iid, o) {
  const n = off - o;
  if (iid >= siteAt.length) {
    if (iid >= 1 << 24) return;
    let c = siteAt.length;
    while (c <= iid) c *= 2;
    const a = new Int32Array(c);
    a.set(siteAt);
    siteAt = a;
    const l = new Uint8Array(c);
    l.set(siteLen);
    siteLen = l;
    const s = new Int32Array(c);
    s.set(siteSid);
    siteSid = s;
  }
  const p = poolLen;
  if (p + n + 4 > pool.byteLength) {
    if (2 * pool.byteLength > POOL_MAX) return;
    const np = new Uint8Array(2 * pool.byteLength);
    np.set(new Uint8Array(pool.buffer));
    pool = new DataView(np.buffer);
  }
  for (let k = 0; k < n; k++) pool.setUint8(p + k, buf[o + k]);
  siteAt[iid] = p;
  siteLen[iid] = n;
  siteSid[iid] = sid;
  poolLen = p + ((n + 3) & ~3);
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

// siteBytes is the encoded size of the string "sid:iid".
export function siteBytes(sid, iid) {
  return 4 + 2 * (decLen(sid) + 1 + decLen(iid));
}
