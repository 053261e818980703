'use strict';
// Ground-truth program (see README.md). track(SITE, x) keeps a WeakRef to x
// under SITE and returns x; each track call is on its own line and its
// argument is the only allocation on that line.
const refs = Object.create(null);
// What the program keeps until the end (a global binding in both models).
const kept = {};
function track(site, o) { (refs[site] || (refs[site] = [])).push(new WeakRef(o)); return o; }

class Node {
  constructor(v) { this.v = v; this.children = []; }
  add(c) { this.children.push(c); return c; }
}

class Registry {
  static all = [];
  #secret;
  constructor(s) { this.#secret = s; Registry.all.push(this); }
  get secret() { return this.#secret; }
}

function instances() {
  const root = track('class-instance-kept', new Node(0));
  kept.root = root;
  track('class-instance-dropped', new Node(1));
}

function methods() {
  const n = new Node(2);
  n.add(track('method-added-child', { c: 1 }));
  kept.n = n;
}

function statics() {
  new Registry(track('private-field-value', { p: 1 }));
}

function main() {
  instances();
  methods();
  statics();
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
