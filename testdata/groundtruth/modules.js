'use strict';
// Ground-truth program (see README.md). track(SITE, x) keeps a WeakRef to x
// (and to its prototype object, if x is a function that has one) under SITE
// and returns x; each track call is on its own line and its
// argument is the only allocation on that line. The modules in modules/
// track through the same function (global.track).
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
global.track = track;

// Two modules whose top-level bindings have the same names: each module's
// closures keep its own objects.
kept.a = require('./modules/a.js');
kept.b = require('./modules/b.js');
// A write to one module's binding drops that module's old object only.
kept.a.replace();
// The same file evaluated twice is two module scopes.
kept.c1 = require('./modules/c.js');
delete require.cache[require.resolve('./modules/c.js')];
kept.c2 = require('./modules/c.js');
// A module whose top-level binding nothing captures: V8 drops it when the
// module function returns (the model keeps module scopes to the end).
require('./modules/d.js');
// The main module's own binding named like the modules' ones.
let cache = track('main-cache', { main: 1 });
kept.main = () => cache;

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
