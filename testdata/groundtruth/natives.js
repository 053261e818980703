'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Array methods that make a new array: it holds the elements it got (kept),
// not those it left out (dropped with their source array).
function results() {
  const a = [];
  a.push(track('filter-kept', { f: 1 }));
  a.push(track('filter-rejected', { f: 0 }));
  kept.filtered = a.filter((o) => o.f === 1);
  const m = [1, 2];
  kept.mapped = m.map(function (n) {
    return track('map-value', { n });
  });
  [3].map(function (n) {
    return track('map-value-dropped', { n });
  });
  const s = [];
  s.push(track('slice-kept', { s: 1 }));
  s.push(track('slice-cut', { s: 2 }));
  kept.sliced = s.slice(0, 1);
  const inner = [];
  inner.push(track('flat-element', { f: 1 }));
  const nested = [];
  nested.push(inner);
  kept.flat = nested.flat();
  kept.flatMapped = [1].flatMap(function () {
    const r = [];
    r.push(track('flatmap-value', { f: 1 }));
    return r;
  });
  const ts = [];
  ts.push(track('tosorted-element', { t: 1 }));
  kept.toSorted = ts.toSorted();
  const tr = [];
  tr.push(track('toreversed-element', { t: 1 }));
  kept.toReversed = tr.toReversed();
  const tsp = [];
  tsp.push(track('tospliced-kept', { t: 1 }));
  tsp.push(track('tospliced-removed', { t: 2 }));
  const ins = track('tospliced-inserted', { t: 3 });
  kept.toSpliced = tsp.toSpliced(1, 1, ins);
  const w = [];
  w.push(track('with-replaced', { w: 1 }));
  w.push(track('with-kept', { w: 2 }));
  const wn = track('with-new', { w: 3 });
  kept.with = w.with(0, wn);
  const of = track('array-of-element', { o: 1 });
  kept.of = Array.of(of);
  kept.fromMapped = Array.from([1], function () {
    return track('array-from-mapped', { a: 1 });
  });
  const dropped = [];
  dropped.push(track('filter-result-dropped', { f: 1 }));
  dropped.filter(() => true);
  const viaCall = [];
  viaCall.push(track('slice-call-element', { c: 1 }));
  kept.viaCall = Array.prototype.slice.call(viaCall);
}

// Methods that move elements in place, length writes, delete and holes.
function inPlace() {
  const r = [];
  r.push(track('reverse-moved-out', { r: 1 }));
  r.push(1);
  r.reverse();
  r.length = 1;
  kept.reversed = r;
  const so = [];
  so.push(track('sort-moved-out', { s: 1 }));
  so.push(0);
  so.sort((x) => (typeof x === 'number' ? -1 : 1));
  so.length = 1;
  kept.sorted = so;
  const fl = [0, 0];
  fl.fill(track('fill-value', { f: 1 }), 1);
  kept.filled = fl;
  const fo = [];
  fo.push(track('fill-overwritten', { f: 2 }));
  fo.fill(0);
  kept.fillOver = fo;
  const cw = [];
  cw.push(track('copywithin-copied', { c: 1 }));
  cw.push(track('copywithin-overwritten', { c: 2 }));
  cw.copyWithin(1, 0);
  kept.copyWithin = cw;
  const z = [];
  for (let i = 0; i < 2; i++) z.push(track('length-zero', { i }));
  z.length = 0;
  kept.z = z;
  const h = [];
  h.push(track('length-kept', { l: 1 }));
  h.push(track('length-cut', { l: 2 }));
  h.length = 1;
  kept.h = h;
  const hs = [];
  hs[100000] = track('length-sparse-cut', { l: 3 });
  hs.length = 0;
  kept.hs = hs;
  const dl = [];
  dl.push(track('define-length-cut', { l: 4 }));
  Object.defineProperty(dl, 'length', { value: 0 });
  kept.dl = dl;
  const rl = [];
  rl.push(track('reflect-set-length-kept', { l: 5 }));
  rl.push(track('reflect-set-length-cut', { l: 6 }));
  Reflect.set(rl, 'length', 1);
  kept.rl = rl;
  const d = [];
  d.push(track('delete-element', { d: 1 }));
  delete d[0];
  kept.d = d;
  const hole = [];
  hole[5] = track('hole-element', { h: 1 });
  kept.hole = hole;
}

// The mutators of arrays.js (push, pop, shift, unshift, splice, concat),
// with the results they return.
function mutators() {
  const sh = [];
  sh.push(track('shift-dropped', { s: 1 }));
  sh.shift();
  kept.sh = sh;
  const sk = [];
  sk.push(track('shift-result-kept', { s: 1 }));
  kept.shifted = sk.shift();
  const pp = [];
  pp.push(track('pop-dropped', { s: 1 }));
  pp.pop();
  kept.pp = pp;
  const sp = [];
  sp.push(track('splice-removed-kept', { s: 1 }));
  kept.spliceRemoved = sp.splice(0, 1);
  kept.sp = sp;
}

function main() {
  results();
  inPlace();
  mutators();
}
main();
report();
