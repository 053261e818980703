'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

function* counter(o) {
  let n = 0;
  while (true) yield n++ + o.base;
}

function* finite() {
  const inner = track('completed-generator-local', { done: false });
  yield inner;
}

function generators() {
  const karg = track('kept-generator-arg', { base: 1 });
  const kg = counter(karg);
  kg.next();
  kept.gen = kg;
  const darg = track('suspended-dropped-generator-arg', { base: 2 });
  const dg = counter(darg);
  dg.next();
  for (const v of finite()) v.done = true;
}

async function settled() {
  const local = track('settled-async-local', { s: 1 });
  await null;
  return local.s;
}

async function neverSettles() {
  const local = track('never-settled-async-local', { s: 2 });
  await new Promise(() => {});
  return local.s;
}

async function keptResult() {
  await null;
  return track('async-result', { r: 1 });
}

// Locals across an await: one used after it (kept while suspended), one
// not; the function is resumed by a promise the program resolves later.
let release;
async function acrossAwait() {
  const live = track('await-kept-local', { a: 1 });
  const gone = track('await-dropped-local', { a: 2 });
  gone.a = 3;
  await new Promise((res) => { release = res; });
  kept.live = live;
}

// A suspended async function still waiting at the end: its frame is kept
// by the pending promise whose resolve the program keeps.
async function waiting() {
  const local = track('waiting-async-local', { w: 1 });
  const dead = track('waiting-dead-local', { w: 2 });
  dead.w = 3;
  await new Promise((res) => { kept.resolveWaiting = res; });
  return local.w;
}

// Async generators: one kept suspended (its argument kept), one run to
// completion by for await (its local dropped).
async function* ticker(o) {
  while (true) yield await o.n;
}
async function* finiteAsync() {
  const inner = track('async-generator-local', { n: 1 });
  yield inner;
  yield inner;
}
async function asyncGenerators() {
  const targ = track('async-generator-arg', { n: 1 });
  const t = ticker(targ);
  await t.next();
  kept.ticker = t;
  for await (const v of finiteAsync()) v.n++;
}

// Many interleaved async calls: every finished call's local is dropped.
async function worker(i) {
  const tmp = track('interleaved-async-local', { i });
  await null;
  await Promise.resolve(tmp);
  return tmp.i;
}

// Loops whose body suspends: each iteration keeps its own bindings across
// the suspension, and a closure created in an iteration keeps that
// iteration's (not the last one's).
async function asyncLoopCapture() {
  const fns = [];
  for (const k of [1, 2, 3]) {
    const o = track('async-loop-per-iteration', { k });
    await null;
    fns.push(() => o.k);
  }
  kept.asyncLoopFns = fns;
}

// Closures created before the await, kept for even iterations only.
async function asyncLoopDropped() {
  const fns = [];
  for (let i = 0; i < 4; i++) {
    const o = track('async-loop-dropped', { i });
    const f = () => o.i;
    await null;
    if (i % 2 === 0) fns.push(f);
  }
  kept.asyncLoopDropped = fns;
}

// A live iteration binding across the await, used after it; the objects
// of the finished iterations that no closure keeps are dropped.
async function asyncLoopAcross() {
  let last;
  for (const k of [1, 2, 3]) {
    const tmp = track('async-loop-across', { k });
    const f = () => tmp.k;
    await null;
    last = f;
  }
  kept.asyncLoopLast = last;
}

// Nested loops, both suspending; a rejected await leaves both through
// their iterations' ends, and the catch resumes the function.
async function asyncLoopNested() {
  const fns = [];
  try {
    for (const a of [1, 2]) {
      const oa = track('async-loop-nested-outer', { a });
      for (const b of [1, 2]) {
        const ob = track('async-loop-nested-inner', { b });
        fns.push(() => oa.a + ob.b);
        await (a === 2 && b === 2 ? Promise.reject(new Error('stop')) : null);
      }
    }
  } catch {
    kept.asyncLoopNested = fns;
  }
}

// A generator's loop: each yielded closure keeps its own iteration.
function* generatorLoop() {
  for (const k of [1, 2, 3]) {
    const o = track('generator-loop-per-iteration', { k });
    yield () => o.k;
  }
}
function runGeneratorLoop() {
  const fns = [];
  for (const f of generatorLoop()) fns.push(f);
  kept.generatorLoopFns = fns;
}

// A captured local written after the await: the closure made before it
// sees the new value (one context), so the old object is dropped.
async function capturedRewrite() {
  let x = track('async-captured-old', { v: 1 });
  const f = () => x.v;
  await null;
  x = track('async-captured-new', { v: 2 });
  kept.capturedRewrite = f;
}

// A captured const declared after the first await, used by a closure made
// after a second one.
async function capturedLate() {
  await null;
  const late = track('async-captured-late', { v: 3 });
  await null;
  kept.capturedLate = () => late.v;
}

// The same, but the closure dies with the call: the binding must be the
// function's (declared at its entry), not a global that keeps it.
async function capturedLateDropped() {
  await null;
  const gone = track('async-captured-late-dropped', { v: 4 });
  const f = () => gone.v;
  await null;
  return f();
}

// An async factory: its returned closure keeps the captured binding only,
// not the other locals live across its awaits.
async function factory() {
  const tmp = track('async-factory-temp', { t: 1 });
  await null;
  const cfg = track('async-factory-cfg', { c: tmp.t });
  await null;
  return () => cfg.c;
}

// A generator whose closure, made before a yield, sees a later write.
function* capturedGen() {
  let cur = track('generator-captured-old', { g: 1 });
  const peek = () => cur.g;
  yield peek;
  cur = track('generator-captured-new', { g: 2 });
  yield 0;
}
function runCapturedGen() {
  const g = capturedGen();
  kept.genPeek = g.next().value;
  g.next();
  g.next();
}

// A loop iteration's captured binding written after the await: a limit of
// the model (docs/instrumentation.md §7), listed in gtExpectedDiff.
async function iterationRewrite() {
  const fns = [];
  for (const k of [1, 2]) {
    let cur = track('async-loop-captured-old', { k });
    fns.push(() => cur.k);
    await null;
    cur = track('async-loop-captured-new', { k });
  }
  kept.iterationRewrite = fns;
}

// The receiver of a suspended async method, reachable only through the
// frame, which a promise the program can still resolve keeps.
class Holder {
  async wait() {
    await new Promise((res) => { kept.resolveHolder = res; });
    return this.v;
  }
}
function startHolder() {
  const h = track('async-this-suspended', new Holder());
  h.v = 1;
  h.wait();
}

function main() {
  generators();
  settled();
  neverSettles();
  keptResult().then((r) => { kept.result = r; });
  acrossAwait();
  waiting();
  asyncGenerators();
  asyncLoopCapture();
  asyncLoopDropped();
  asyncLoopAcross();
  asyncLoopNested();
  runGeneratorLoop();
  capturedRewrite();
  capturedLate();
  capturedLateDropped();
  factory().then((f) => { kept.factory = f; });
  runCapturedGen();
  iterationRewrite();
  startHolder();
  const all = [];
  for (let i = 0; i < 20; i++) all.push(worker(i));
  Promise.all(all).then(() => release());
}
main();
report();
