// The binary encoding (spec 1.2): a type byte, big-endian int32 fields,
// strings as a big-endian int32 byte length followed by UTF-16LE code units.
// Entries are encoded into one reusable 64 KiB buffer, handed to the sink
// when the next entry would not fit; an entry is never split across two
// hand-overs unless it is larger than the buffer itself.

export const CAP = 1 << 20;

export class Writer {
  constructor(sink) {
    this.buf = new Uint8Array(CAP);
    this.off = 0;
    this.sink = sink; // sink(bytes Uint8Array, length)
    this.bytes = 0;
  }

  // need makes room for n more bytes.
  need(n) {
    if (this.off + n > CAP) this.flush();
  }

  flush() {
    if (this.off > 0) {
      this.sink(this.buf, this.off);
      this.bytes += this.off;
      this.off = 0;
    }
  }

  u8(v) {
    this.buf[this.off++] = v;
  }

  i32(v) {
    const b = this.buf;
    const o = this.off;
    b[o] = v >>> 24;
    b[o + 1] = v >>> 16;
    b[o + 2] = v >>> 8;
    b[o + 3] = v;
    this.off = o + 4;
  }

  // str writes a string; the caller has made room for 4 + 2*s.length
  // bytes, unless that is more than CAP (then it streams).
  str(s) {
    const n = s.length;
    if (4 + 2 * n > CAP - this.off) {
      this.longStr(s);
      return;
    }
    this.i32(n * 2);
    const b = this.buf;
    let o = this.off;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      b[o] = c;
      b[o + 1] = c >>> 8;
      o += 2;
    }
    this.off = o;
  }

  longStr(s) {
    const n = s.length;
    this.need(4);
    this.i32(n * 2);
    for (let i = 0; i < n; i++) {
      if (this.off + 2 > CAP) this.flush();
      const c = s.charCodeAt(i);
      this.buf[this.off] = c;
      this.buf[this.off + 1] = c >>> 8;
      this.off += 2;
    }
  }

  // site writes the string "sid:iid" without building it.
  site(sid, iid) {
    const ls = decLen(sid);
    const li = decLen(iid);
    this.i32((ls + 1 + li) * 2);
    this.dec(sid, ls);
    this.buf[this.off] = 58; // ':'
    this.buf[this.off + 1] = 0;
    this.off += 2;
    this.dec(iid, li);
  }

  dec(v, len) {
    const b = this.buf;
    const start = this.off;
    let o = start + 2 * len;
    this.off = o;
    let neg = false;
    if (v < 0) {
      neg = true;
      v = -v;
    }
    do {
      const q = (v / 10) | 0;
      o -= 2;
      b[o] = 48 + v - 10 * q;
      b[o + 1] = 0;
      v = q;
    } while (v > 0);
    if (neg) {
      b[start] = 45; // '-'
      b[start + 1] = 0;
    }
  }
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
