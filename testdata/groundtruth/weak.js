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

function weakRefs() {
  // A WeakRef does not keep its target; deref() only uses it.
  const dropped = track('weakref-only-target', { w: 1 });
  kept.ref = new WeakRef(dropped);
  const live = track('weakref-kept-target', { w: 2 });
  kept.live = live;
  kept.ref2 = new WeakRef(live);
  if (kept.ref2.deref() !== live) throw new Error('deref');
}

function registries() {
  const reg = new FinalizationRegistry(() => {});
  kept.reg = reg;
  // The registry holds the held value strongly, never the target.
  const target = track('finreg-kept-target', { t: 1 });
  kept.target = target;
  reg.register(target, track('finreg-held', { h: 1 }));
  reg.register(track('finreg-dropped-target', { t: 2 }), 'primitive held');
  // unregister(token) drops the held values registered with the token.
  const token = {};
  kept.token = token;
  reg.register(target, track('finreg-unregistered-held', { h: 2 }), token);
  reg.unregister(token);
  // A registry that is itself garbage holds nothing.
  const lost = new FinalizationRegistry(() => {});
  lost.register(target, track('finreg-dropped-registry-held', { h: 3 }));
}

function main() {
  weakRefs();
  registries();
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
