'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Logical assignments (??=, ||=, &&=) write only when they assign: each
// site's object is made by the right-hand side, so it exists only when
// the assignment happens, and the trace must hold its edge from then on.
// Each idiom runs twice, once kept and once dropped; a second run of the
// same assignment short-circuits.

// The lazily cached getter, on a private field.
class Lazy {
  #cache;
  get cache() { return this.#cache ??= track('private-nullish', new Map()); }
  #list = null;
  #box = 1;
  fill() {
    for (let r = 0; r < 2; r++) this.#list ||= track('private-or', []);
    this.#box &&= track('private-and', {});
    return this;
  }
  // A base that is not a variable (a call's result): read once.
  static of(o) {
    const f = () => o;
    for (let r = 0; r < 2; r++) f().#list ??= track('private-call-base', []);
    return o;
  }
}

function lazy(keep) {
  const l = new Lazy();
  l.cache;
  l.cache;
  l.fill();
  const m = Lazy.of(new Lazy());
  if (keep) kept.lazy = [l, m];
}

// Fields with static and computed keys.
function fields(keep) {
  const o = { y: {}, z: null };
  for (let r = 0; r < 2; r++) o.x ||= track('field-or', {});
  o.y &&= track('field-and', {});
  o.z &&= o;
  for (let r = 0; r < 2; r++) o.w ??= track('field-nullish', {});
  const k = 'k' + keep;
  for (let r = 0; r < 2; r++) o[k] ??= track('computed-nullish', {});
  o[k] &&= track('computed-and', { ...o[k] });
  o['a' + k] ||= track('computed-or', []);
  if (keep) kept.fields = o;
}

// The old value of an &&= is replaced, and dropped.
function replaced(keep) {
  const o = {};
  o.v = track('and-replaced-old', {});
  o.v &&= track('and-replaced-new', {});
  if (keep) kept.replaced = o;
}

// Variables captured by a closure: let, var, a parameter.
function variables(keep, p) {
  let a = null;
  var b = 0;
  let c = track('let-and-old', {});
  const get = () => [a, b, c, p];
  for (let r = 0; r < 2; r++) a ??= track('let-nullish', {});
  for (let r = 0; r < 2; r++) b ||= track('var-or', {});
  c &&= track('let-and-new', {});
  p ??= track('param-nullish', {});
  if (keep) kept.get = get;
  return get().length;
}

// Module-level bindings (GLOBAL in the model, a closure's in V8).
let moduleCache = null;
let moduleSlot = track('module-and-old', {});
function moduleLevel() {
  for (let r = 0; r < 2; r++) moduleCache ??= track('module-nullish', {});
  moduleSlot &&= track('module-and-new', {});
}
kept.module = () => [moduleCache, moduleSlot];

// super properties: read on the home object's prototype, written to this
// (no setter on the chain), so a second ??= of super.x assigns again.
class Base {}
Base.prototype.flag = true;
class Sub extends Base {
  init() {
    for (let r = 0; r < 2; r++) super.x ??= track('super-nullish', {});
    super.y ||= track('super-or', {});
    super.z = track('super-assign', {});
    super.flag &&= track('super-and', {});
    return this;
  }
}

function supers(keep) {
  const s = new Sub().init();
  if (keep) kept.sub = s;
}

// Field initializers (no temporaries there) and a static block, whose
// class has no id yet when it runs.
class Init {
  a = (this.b ??= track('initializer-nullish', {}), 1);
  #c;
  d = (this.#c ||= track('initializer-private', {}), 2);
  get c() { return this.#c; }
}
function initializers(keep) {
  const i = new Init();
  const C = class {
    static { this.s ??= track('static-block-nullish', {}); }
  };
  if (keep) kept.init = [i, C];
}

function main() {
  lazy(1);
  lazy(0);
  fields(1);
  fields(0);
  replaced(1);
  replaced(0);
  variables(1, null);
  variables(0, undefined);
  moduleLevel();
  supers(1);
  supers(0);
  initializers(1);
  initializers(0);
}
main();

report();
