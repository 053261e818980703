'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

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
report();
