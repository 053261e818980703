'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function perIteration() {
  const fs = [];
  for (let i = 0; i < 3; i++) {
    const o = track('per-iteration-capture', { i });
    fs.push(() => o.i);
  }
  return fs;
}

function perIterationLet() {
  const fs = [];
  for (let i = 0; i < 3; i++) {
    fs.push(track('per-iteration-closure', () => i));
  }
  return fs;
}

function perIterationForOf() {
  const fs = [];
  for (const k of [1, 2, 3]) {
    const o = track('per-iteration-for-of', { k });
    fs.push(() => o.k + k);
  }
  return fs;
}

function perIterationDropped() {
  let n = 0;
  for (let i = 0; i < 3; i++) {
    const o = track('per-iteration-dropped', { i });
    const f = () => o.i;
    n += f();
  }
  return n;
}

function perIterationReturn() {
  let k = 0;
  while (k < 5) {
    const o = track('per-iteration-return', { k });
    k++;
    if (k === 3) return () => o.k;
  }
  return null;
}

function perIterationNested() {
  const fs = [];
  outer: for (const a of [1, 2]) {
    const oa = track('per-iteration-nested-outer', { a });
    for (let b = 0; b < 3; b++) {
      const ob = track('per-iteration-nested-inner', { b });
      if (b === 2) continue outer;
      fs.push(() => [oa, ob]);
    }
  }
  return fs;
}

function perIterationThrow() {
  const fs = [];
  try {
    for (let i = 0; i < 3; i++) {
      const o = track('per-iteration-throw', { i });
      fs.push(() => o);
      if (i === 1) throw new Error('stop');
    }
  } catch (e) {
    return fs;
  }
  return fs;
}

class Counter {
  constructor(keep) {
    this.n = 0;
    const inc = track('arrow-this', () => ++this.n);
    if (keep) kept.inc = inc;
  }
}

function uncaptured() {
  const dead = track('uncaptured-local', { big: true });
  const small = track('captured-local', { small: true });
  return () => small.small;
}

function sharedContext() {
  const big = track('shared-context', { big: true });
  const small = 1;
  const g = () => big.big;
  g();
  return () => small;
}

function sharedContextUncreated() {
  const big = track('shared-context-uncreated', { big: true });
  const small = 1;
  if (small === 2) return () => big.big;
  return () => small;
}

function droppedClosure() {
  const o = track('dropped-closure-capture', { x: 1 });
  const f = () => o.x;
  return f();
}

function main() {
  kept.iter = perIteration();
  kept.iterLet = perIterationLet();
  kept.iterForOf = perIterationForOf();
  perIterationDropped();
  kept.iterReturn = perIterationReturn();
  kept.iterNested = perIterationNested();
  kept.iterThrow = perIterationThrow();
  new Counter(true);
  new Counter(false);
  kept.unc = uncaptured();
  kept.shared = sharedContext();
  kept.sharedUncreated = sharedContextUncreated();
  droppedClosure();
}
main();

report();
