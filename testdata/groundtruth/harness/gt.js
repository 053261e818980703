'use strict';
// The ground-truth programs' harness (../README.md). track(SITE, x) keeps a
// WeakRef to x (and to its prototype object, if x is a function that has
// one: a function's own prototype object is made with it, at the same site)
// under SITE and returns x; it changes no reachability, in V8 or in the
// model. kept is what a program keeps until the end (a binding of the
// program's top level in both models). report(), called after the main
// job, collects twice in later macrotasks (WeakRef targets are kept until
// the end of the job that created or dereferenced them), then prints
// {SITE: [survivors, made]} as JSON.
const refs = Object.create(null);
const kept = {};

function track(site, o) {
  const rs = refs[site] || (refs[site] = []);
  rs.push(new WeakRef(o));
  const p = typeof o === 'function' && Object.hasOwn(o, 'prototype') ? o.prototype : undefined;
  if (p !== null && typeof p === 'object') rs.push(new WeakRef(p));
  return o;
}

function report() {
  setImmediate(() => {
    gc();
    setImmediate(() => {
      gc();
      const out = {};
      for (const site of Object.keys(refs)) out[site] = [refs[site].filter((r) => r.deref() !== undefined).length, refs[site].length];
      console.log(JSON.stringify(out));
    });
  });
}

module.exports = { track, kept, report };
