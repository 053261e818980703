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

// Functions with and without a prototype object: an arrow, an async arrow
// and an async function have none (one object each), a function, a
// generator function and a class have one (two objects each). Half of them
// are kept. (A class's methods are made at the class's site: a class with
// methods would make more objects there than track sees.)
function make(keep) {
  const fs = [];
  fs.push(track('arrow', () => keep));
  fs.push(track('async-arrow', async () => keep));
  fs.push(track('async-function', async function () { return keep; }));
  fs.push(track('function', function () { return keep; }));
  fs.push(track('generator', function* () { yield keep; }));
  fs.push(track('class', class { constructor() { this.k = keep; } }));
  return fs;
}

function main() {
  kept.fs = make(1);
  make(2);
}
main();

setImmediate(() => {
  gc();
  setImmediate(() => {
    gc();
    const out = {};
    for (const site of Object.keys(refs)) out[site] = [refs[site].filter((r) => r.deref() !== undefined).length, refs[site].length];
    console.log(JSON.stringify(out));
  });
});
