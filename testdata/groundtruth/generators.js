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

function main() {
  generators();
  settled();
  neverSettles();
  keptResult().then((r) => { kept.result = r; });
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
