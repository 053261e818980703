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
