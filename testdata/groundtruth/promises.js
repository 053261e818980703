'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function pendingReactions() {
  // A pending promise (its resolve function kept) holds its reactions,
  // and the reactions hold what they capture.
  let resolve;
  const p = new Promise((r) => { resolve = r; });
  kept.resolve = resolve;
  const captured = track('pending-reaction-capture', { c: 1 });
  p.then(() => captured.c);
  const caught = track('pending-catch-capture', { c: 2 });
  p.catch(() => caught.c);
}

function lostPromise() {
  // A pending promise nobody can settle is garbage with its reactions.
  const lost = new Promise(() => {});
  const lostCapture = track('lost-promise-reaction-capture', { c: 3 });
  lost.then(() => lostCapture.c);
}

function settledReactions() {
  // Reactions run and are dropped once their promise settles.
  const p = Promise.resolve(1);
  kept.settled = p;
  const ran = track('ran-reaction-capture', { r: 1 });
  p.then(() => ran.r);
  const skipped = track('skipped-catch-capture', { r: 2 });
  p.catch(() => skipped.r);
  const fin = track('finally-capture', { r: 3 });
  p.finally(() => fin.r);
}

function settledValues() {
  // A settled promise holds its value.
  const v1 = track('resolved-value', { v: 1 });
  kept.resolved = Promise.resolve(v1);
  const v2 = track('executor-value', { v: 2 });
  kept.executor = new Promise((r) => r(v2));
  const p3 = Promise.resolve(1);
  kept.chained = p3.then(function result() {
    return track('then-result', { v: 3 });
  });
  const v4 = track('dropped-promise-value', { v: 4 });
  const dropped = Promise.resolve(v4);
  dropped.then(() => {});
}

function main() {
  pendingReactions();
  lostPromise();
  settledReactions();
  settledValues();
}
main();
report();
