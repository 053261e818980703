'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

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
report();
