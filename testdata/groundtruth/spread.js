'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function rest(...args) {
  return args;
}

function copies() {
  const a = track('array-spread-source-element', { a: 1 });
  const src = [a];
  const copy = [...src];
  kept.copy = copy;
  const o = {};
  o.inner = track('object-spread-value', { o: 1 });
  kept.ocopy = { ...o };
  kept.restArgs = rest(track('rest-argument', { r: 1 }));
  rest(track('dropped-rest-argument', { r: 2 }));
  const e = track('rest-element', { e: 1 });
  const [first, ...others] = [1, e];
  kept.others = others;
  const p = track('rest-property', { p: 1 });
  const { x, ...restObj } = { x: 1, y: p };
  kept.restObj = restObj;
  const z = track('object-assign-value', { z: 1 });
  kept.assigned = Object.assign({}, { z });
  const f = track('array-from-element', { f: 1 });
  kept.from = Array.from([f]);
}

function main() {
  copies();
}
main();
report();
