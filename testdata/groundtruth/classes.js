'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

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
report();
