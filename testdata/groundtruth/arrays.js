'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function natives() {
  const arr = [];
  for (let i = 0; i < 4; i++) arr.push(track('pushed', { i }));
  arr.splice(1, 2);
  arr.pop();
  kept.arr = arr;
  const q = [];
  q.unshift(track('unshifted', { u: 1 }));
  q.unshift(track('unshifted-shifted', { u: 2 }));
  q.shift();
  kept.q = q;
  const inserted = [];
  inserted.splice(0, 0, track('spliced-in', { s: 1 }));
  kept.inserted = inserted;
  const one = track('concat-element', { c: 1 });
  const c = [].concat([one]);
  kept.c = c;
}

// Natives called in optional chains get their models too.
function optional() {
  const list = [];
  const maybe = Math.random() < 2 ? list : null;
  maybe?.push(track('optional-push', { p: 1 }));
  const holder = { arr: [] };
  holder.arr?.push(track('optional-member-push', { p: 2 }));
  holder?.arr.unshift(track('optional-base-unshift', { p: 3 }));
  const m = new Map();
  m.set?.('k', track('optional-call-map-set', { p: 4 }));
  kept.list = list;
  kept.holder = holder;
  kept.m = m;
  const gone = [];
  gone?.push(track('optional-push-dropped', { p: 5 }));
}

function main() {
  natives();
  optional();
}
main();
report();
