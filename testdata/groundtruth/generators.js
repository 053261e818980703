'use strict';
// Ground-truth program (see README.md). track(SITE, x) keeps a WeakRef to x
// under SITE and returns x; each track call is on its own line and its
// argument is the only allocation on that line.
const refs = Object.create(null);
// What the program keeps until the end (a global binding in both models).
const kept = {};
function track(site, o) { (refs[site] || (refs[site] = [])).push(new WeakRef(o)); return o; }

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

function main() {
  generators();
  settled();
  neverSettles();
  keptResult().then((r) => { kept.result = r; });
  acrossAwait();
  waiting();
  asyncGenerators();
  const all = [];
  for (let i = 0; i < 20; i++) all.push(worker(i));
  Promise.all(all).then(() => release());
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
    for (const site of Object.keys(refs)) out[site] = refs[site].filter((r) => r.deref() !== undefined).length;
    console.log(JSON.stringify(out));
  });
});
