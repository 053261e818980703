'use strict';
// Ground-truth program (see README.md). track(SITE, x) keeps a WeakRef to x
// (and to its prototype object, if x is a function that has one) under SITE
// and returns x; each track call is on its own line and its
// argument is the only allocation on that line.
const refs = Object.create(null);
// What the program keeps until the end (a global binding in both models).
const kept = {};
function track(site, o) {
  const rs = refs[site] || (refs[site] = []);
  rs.push(new WeakRef(o));
  // A function's own prototype object is made with it, at the same site.
  const p = typeof o === 'function' && Object.hasOwn(o, 'prototype') ? o.prototype : undefined;
  if (p !== null && typeof p === 'object') rs.push(new WeakRef(p));
  return o;
}

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
// After the main job: collect twice, in later macrotasks (WeakRef targets are
// kept until the end of the job that created or dereferenced them), then
// count the survivors per site.
setImmediate(() => {
  gc();
  setImmediate(() => {
    gc();
    const out = {};
    for (const site of Object.keys(refs)) out[site] = [refs[site].filter((r) => r.deref() !== undefined).length, refs[site].length];
    console.log(JSON.stringify(out));
  });
});
