'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');
const { EventEmitter } = require('events');
const { AsyncLocalStorage } = require('async_hooks');

// Promise combinators: the result holds its inputs' values once settled;
// a pending input holds the result's reaction.
function combinators() {
  const v1 = track('all-value', { a: 1 });
  kept.all = Promise.all([Promise.resolve(v1), 2]);
  const v2 = track('allsettled-value', { a: 2 });
  kept.allSettled = Promise.allSettled([Promise.resolve(v2)]);
  const v3 = track('any-value', { a: 3 });
  kept.any = Promise.any([Promise.resolve(v3)]);
  const v4 = track('race-value', { a: 4 });
  kept.race = Promise.race([Promise.resolve(v4)]);
  const v5 = track('all-dropped-value', { a: 5 });
  Promise.all([Promise.resolve(v5)]);
  const v6 = track('all-plain-value', { a: 6 });
  kept.allPlain = Promise.all([v6]);
  let res;
  const pending = new Promise((r) => {
    res = r;
  });
  kept.res = res;
  const cb = track('all-pending-reaction', function () {});
  Promise.all([pending]).then(cb);
  kept.thenAll = [];
  const v7 = track('all-then-value', { a: 7 });
  Promise.all([Promise.resolve(v7)]).then((vs) => {
    kept.thenAll.push(vs);
  });
}

async function awaited() {
  const v = track('all-awaited-value', { a: 9 });
  kept.awaited = await Promise.all([Promise.resolve(v)]);
  const w = track('allsettled-awaited-value', { a: 10 });
  kept.settled = await Promise.allSettled([Promise.resolve(w)]);
}

// EventEmitter listeners.
function emitters() {
  const e = new EventEmitter();
  e.on('x', track('on-listener', () => 1));
  const gone = track('off-listener', () => 2);
  e.on('x', gone);
  e.off('x', gone);
  e.once('y', track('once-listener-pending', () => 3));
  e.once('z', track('once-listener-fired', () => 4));
  e.emit('z');
  e.on('w', track('removeall-type-listener', () => 5));
  e.removeAllListeners('w');
  e.prependListener('v', track('prepend-listener', () => 6));
  e.addListener('u', track('addlistener-listener', () => 7));
  kept.e = e;
  const e2 = new EventEmitter();
  e2.on('x', track('dropped-emitter-listener', () => 8));
  const e3 = new EventEmitter();
  e3.on('a', track('removeall-listener', () => 9));
  e3.on('b', track('removeall-listener-2', () => 10));
  e3.removeAllListeners();
  kept.e3 = e3;
}

// EventTarget listeners (an AbortSignal's too).
function targets() {
  const et = new EventTarget();
  et.addEventListener('x', track('eventtarget-listener', () => 1));
  const gone = track('eventtarget-removed', () => 2);
  et.addEventListener('x', gone);
  et.removeEventListener('x', gone);
  const cap = track('eventtarget-capture-kept', () => 3);
  et.addEventListener('y', cap, { capture: true });
  et.removeEventListener('y', cap);
  const once = { once: true };
  et.addEventListener('z', track('eventtarget-once-fired', () => 4), once);
  et.dispatchEvent(new Event('z'));
  kept.et = et;
  const ac = new AbortController();
  const signal = ac.signal;
  signal.addEventListener('abort', track('abortsignal-listener', () => 5));
  kept.ac = ac;
}

// Timers: a pending timer holds its callback and arguments; a fired or
// cleared one neither.
function timers() {
  const t1 = track('timeout-pending', () => 1);
  setTimeout(t1, 1e6).unref();
  const t2 = track('timeout-cleared', () => 2);
  const h2 = setTimeout(t2, 1e6);
  clearTimeout(h2);
  setTimeout(track('timeout-fired', () => 3), 0);
  const t4 = track('interval-pending', () => 4);
  const h4 = setInterval(t4, 1e6);
  h4.unref();
  const t5 = track('interval-cleared', () => 5);
  const h5 = setInterval(t5, 1e6);
  clearInterval(h5);
  setImmediate(track('immediate-fired', () => 6));
  const t7 = track('immediate-cleared', () => 7);
  const h7 = setImmediate(t7);
  clearImmediate(h7);
  process.nextTick(track('nexttick-fired', () => 8));
  queueMicrotask(track('microtask-fired', () => 9));
  const arg = track('timeout-arg-pending', { t: 1 });
  const noop = () => {};
  setTimeout(noop, 1e6, arg).unref();
  const arg2 = track('timeout-arg-fired', { t: 2 });
  setTimeout(noop, 0, arg2);
  const arg3 = track('immediate-arg-fired', { t: 3 });
  setImmediate(noop, arg3);
  const arg4 = track('nexttick-arg-fired', { t: 4 });
  process.nextTick(noop, arg4);
  const arg5 = track('interval-arg-pending', { t: 5 });
  const h8 = setInterval(noop, 1e6, arg5);
  h8.unref();
}

// AsyncLocalStorage: run's store while its callback runs (and in V8 in
// every async resource made there), enterWith's from then on.
function storage() {
  const als = new AsyncLocalStorage();
  const store = track('als-run-store', { s: 1 });
  als.run(store, () => 1);
  const s2 = track('als-run-store-timer', { s: 2 });
  als.run(s2, () => setTimeout(() => {}, 1e6).unref());
  const s3 = track('als-enterwith-store', { s: 3 });
  als.enterWith(s3);
  kept.als = als;
}

function main() {
  combinators();
  awaited();
  emitters();
  targets();
  timers();
  storage();
}
main();
report();
