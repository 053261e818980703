'use strict';
// Verdict suite (README.md): caches that are bounded (an LRU over a Map, a
// memoizer that evicts its oldest entry) are not leaks; a cache keyed by a
// growing id that never evicts is.
const LIMIT = 16;
const lru = new Map();
function lruGet(key) {
  let v = lru.get(key);
  if (v !== undefined) {
    lru.delete(key);
  } else {
    v = { key, payload: [key, key * 2] }; // verdict: not leaking
    if (lru.size >= LIMIT) lru.delete(lru.keys().next().value);
  }
  lru.set(key, v);
  return v;
}

function memoize(f, limit) {
  const memo = new Map();
  return (n) => {
    if (memo.has(n)) return memo.get(n);
    const r = f(n);
    memo.set(n, r);
    if (memo.size > limit) memo.delete(memo.keys().next().value);
    return r;
  };
}
const square = memoize((n) => ({ n, sq: n * n }), 10); // verdict: not leaking

const sessions = {};
function open(id) {
  sessions[id] = { id, opened: id * 3 }; // verdict: leaking
}

let i = 0;
function step() {
  lruGet(i % 40);
  square(i % 25);
  open(i);
  if (++i < 300) setImmediate(step);
  else console.log(lru.size, Object.keys(sessions).length);
}
step();
