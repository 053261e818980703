'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Default parameters that call functions run after the call hook's CALL
// and before the callee's body enters: the callee's own entry must still
// be matched with that CALL (or the model's stack stays one context too
// deep, and the caller's context is never left).
function g() { return 1; }
function native(a = g(), b = Math.max(1, 2), c = [1, 2].map((x) => x * 2)) {
  const local = track('param-callee-local', { a, b, c });
  return local.a + local.b;
}
function inner() {
  const before = track('param-caller-before', { k: 1 });
  const n = native();
  const after = track('param-caller-after', { k: 2 });
  return n + before.k + after.k;
}

// A default whose call throws: caught in the default itself, and a
// parameter list that throws out of the callee.
function h(a = (() => { try { return null.x; } catch { return 2; } })()) {
  const local = track('param-caught-local', { a });
  return local.a;
}
function thrower(a = null.x) { return a; }
function outer() {
  const o = track('param-outer-local', { k: 3 });
  let r = h();
  try { thrower(); } catch { r++; }
  const keep = track('param-outer-kept', { r });
  kept.fromOuter = () => keep;
  return o.k + r;
}

function main() {
  inner();
  inner();
  outer();
}
main();
report();
