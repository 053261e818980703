// offsets.js: UTF-16 offsets (what acorn reports) to UTF-8 byte offsets
// (what memtrace's AST uses), shared by spans.js and freevars.js.
'use strict';

// byteOffsets returns map with map[i] = the UTF-8 byte offset of UTF-16
// offset i of src, for 0 <= i <= src.length.
function byteOffsets(src) {
  const map = new Int32Array(src.length + 1);
  let b = 0;
  for (let i = 0; i < src.length; i++) {
    map[i] = b;
    const c = src.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length) {
      const d = src.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        map[i + 1] = b;
        b += 4;
        i++;
        continue;
      }
      b += 3;
    } else b += 3;
  }
  map[src.length] = b;
  return map;
}

module.exports = { byteOffsets };
