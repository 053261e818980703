'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

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
report();
