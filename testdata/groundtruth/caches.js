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

function mapCache() {
  const cache = new Map();
  for (let i = 0; i < 4; i++) cache.set(i, track('map-value', { i }));
  cache.delete(0);
  kept.map = cache;
  const dropped = new Map();
  dropped.set('k', track('dropped-map-value', { k: 1 }));
}

function setCache() {
  const set = new Set();
  set.add(track('set-member', { s: 1 }));
  set.add(track('set-deleted', { s: 2 }));
  for (const v of set) if (v.s === 2) set.delete(v);
  kept.set = set;
}

function weakMapCache() {
  const wm = new WeakMap();
  const key = track('weakmap-live-key', { key: 1 });
  wm.set(key, track('weakmap-value-live-key', { v: 1 }));
  wm.set(
    track('weakmap-dead-key', { key: 2 }),
    track('weakmap-value-dead-key', { v: 2 }));
  kept.wm = wm;
  kept.key = key;
}

function objectCache() {
  const cache = {};
  for (let i = 0; i < 3; i++) cache['k' + i] = track('object-cache-value', { i });
  delete cache.k1;
  kept.obj = cache;
}

function main() {
  mapCache();
  setCache();
  weakMapCache();
  objectCache();
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
