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

function tree(depth) {
  const n = track('tree-node', { left: null, right: null });
  if (depth > 0) {
    n.left = tree(depth - 1);
    n.right = tree(depth - 1);
  }
  return n;
}

function temporaries() {
  let sum = 0;
  for (let i = 0; i < 5; i++) {
    const p = track('temp-point', { x: i, y: i });
    sum += p.x + p.y;
  }
  return sum;
}

function replaced() {
  const holder = {};
  holder.v = track('replaced-field', { old: true });
  holder.v = { old: false };
  kept.holder = holder;
}

function arrays() {
  const el = track('array-literal-element', { a: 1 });
  const arr = [el];
  kept.arr = arr;
  const el2 = track('dropped-array-element', { a: 2 });
  const tmp = [el2];
  return tmp.length;
}

// A fresh literal returned by a return statement keeps its children (the
// engine's default; MemInsight's, under MemInsightReturns, reclaims the literal at the return's
// flush with its edges).
function returnedLiteral() {
  const c = track('returned-literal-child', { c: 1 });
  return { child: c };
}

function droppedLiteral() {
  const c = track('dropped-returned-literal-child', { c: 2 });
  return { child: c };
}

// A function without a prototype object first seen as a literal's element
// (a bound function, as call-bind helpers make them): CREATE_FUN announces
// its id+1 as its prototype, so the next object must not take that id (it
// would live, in the model, as long as the function).
function boundInLiteral() {
  function f() { return 1; }
  kept.fns = [f.bind(null)];
  const o = track('after-bound-in-literal', { b: 1 });
  return o.b;
}

function main() {
  kept.lit = returnedLiteral();
  boundInLiteral();
  droppedLiteral();
  tree(2);
  kept.tree = tree(1);
  temporaries();
  replaced();
  arrays();
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
