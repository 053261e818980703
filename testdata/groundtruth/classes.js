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

class Base {
  constructor(o) { this.o = o; }
  get() { return this.o; }
}
class Derived extends Base {
  extra = track('field-initializer-value', { f: 1 });
  constructor(o) { super(o); }
  get() { return super.get(); }
}
class Implicit extends Base {}
const Expr = class {
  static { kept.Expr = this; }
  #m(o) { this.o = o; return this; }
  m(o) { return this.#m(o); }
};

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
  // The Registry is allocated on its own line (one allocation per site line).
  const secret = track('private-field-value', { p: 1 });
  new Registry(secret);
}

function derived() {
  const o = track('derived-super-arg', { d: 1 });
  const d = new Derived(o);
  kept.d = d;
  d.get();
  const o2 = track('implicit-ctor-arg-kept', { i: 1 });
  kept.i = new Implicit(o2);
  const o3 = track('implicit-ctor-arg-dropped', { i: 2 });
  new Implicit(o3);
  const e = new Expr();
  const o4 = track('class-expression-private-method-arg', { e: 1 });
  kept.e = e.m(o4);
}

function main() {
  instances();
  derived();
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
    for (const site of Object.keys(refs)) out[site] = [refs[site].filter((r) => r.deref() !== undefined).length, refs[site].length];
    console.log(JSON.stringify(out));
  });
});
