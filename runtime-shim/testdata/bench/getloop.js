// Micro-benchmark: a property-read-heavy loop (a linked-list walk, two
// reads per node) plain and with the G hook on every read, as the
// instrumenter writes it (H.G(i, o).p). Prints one JSON line.
const H = __mt.S("bench/getloop.js", [].concat(...Array.from({length: 10}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
const N = 100000, ROUNDS = +(process.env.ROUNDS || 50);
let head = null;
for (let k = 0; k < N; k++) head = H.T(4, { next: head, v: k & 7 });

function walkPlain(h) {
  let s = 0;
  for (let p = h; p !== null; p = p.next) s += p.v;
  return s;
}
function walkHook(h) {
  let s = 0;
  for (let p = h; p !== null; p = H.G(6, p).next) s += H.G(7, p).v;
  return s;
}
function best(f) {
  let min = Infinity, sum = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint();
    sum += f(head);
    const dt = Number(process.hrtime.bigint() - t0);
    if (dt < min) min = dt;
  }
  if (sum < 0) throw new Error("unreachable");
  return min / (2 * N); // ns per property read
}
best(walkPlain); best(walkHook); // warm up
const plain = best(walkPlain), hook = best(walkHook);
console.log(JSON.stringify({ plainNsPerRead: plain, hookNsPerRead: hook, ratio: hook / plain }));
H.Sx();
