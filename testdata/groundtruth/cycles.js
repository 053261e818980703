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
