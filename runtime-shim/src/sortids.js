// sortIds sorts the n ids at the start of a (positive int32s, at most
// max) in ascending order, and returns the array that then holds them: a,
// or b (at least n long). count is scratch of 256 int32s. A radix sort by
// bytes, as many as max has (three up to 16 million ids), or, for a few
// ids, an insertion sort. The last-use blocks list their ids this way: a
// block of 900 ids up to 1.4 million (Box2D's) took the engine's sort
// about 26 us here, this one 10 us (digits of 11 bits: 12 us; 600 ids up
// to 12.9 million, EarleyBoyer's: 16, 7 and 15 us). It calls no native,
// so the program cannot change it.
export function sortIds(a, b, count, n, max) {
  if (n <= 64) {
    for (let k = 1; k < n; k++) {
      const v = a[k];
      let h = k - 1;
      while (h >= 0 && a[h] > v) {
        a[h + 1] = a[h];
        h--;
      }
      a[h + 1] = v;
    }
    return a;
  }
  let src = a;
  let dst = b;
  for (let shift = 0; shift < 32 && (max >>> shift) !== 0; shift += 8) {
    for (let d = 0; d < 256; d++) count[d] = 0;
    for (let k = 0; k < n; k++) count[(src[k] >>> shift) & 255]++;
    let at = 0;
    for (let d = 0; d < 256; d++) {
      const c = count[d];
      count[d] = at;
      at += c;
    }
    for (let k = 0; k < n; k++) {
      const v = src[k];
      dst[count[(v >>> shift) & 255]++] = v;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}
