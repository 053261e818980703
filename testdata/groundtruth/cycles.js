'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function makeCycle(keep) {
  const a = track('cycle-a', { name: 'a' });
  const b = track('cycle-b', { name: 'b', a });
  a.b = b;
  if (keep) kept.cycle = a;
}

function selfCycle() {
  const s = track('self-cycle', {});
  s.self = s;
}

function ring(n, keep) {
  let first = null;
  let prev = null;
  for (let i = 0; i < n; i++) {
    const node = track('ring-node', { i, next: null });
    if (prev) prev.next = node; else first = node;
    prev = node;
  }
  prev.next = first;
  if (keep) kept.ring = first;
}

function cutCycle() {
  const a = track('cut-cycle', { name: 'a' });
  const b = { a };
  a.b = b;
  kept.cut = b;
  b.a = null;
}

function main() {
  makeCycle(true);
  makeCycle(false);
  selfCycle();
  ring(3, true);
  ring(4, false);
  cutCycle();
}
main();
report();
