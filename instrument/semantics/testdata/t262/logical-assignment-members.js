/*---
description: >
  Logical assignments to private fields (through this, a variable and a
  call's result), to super properties (read on the home object's
  prototype, written to this) and to fields in initializers and static
  blocks assign only when the operator says so, evaluate their base once,
  give the assigned value, and throw where the write throws.
flags: [onlyStrict]
---*/
var calls = 0;
class Base {}
Base.prototype.flag = true;
Object.defineProperty(Base.prototype, 'ro', { get: function () { return null; } });
class C extends Base {
  #p = null;
  #q = 1;
  #m() {}
  get #acc() { calls++; return null; }
  set #acc(v) { calls += 10; }
  get #ro() { return null; }
  f = (this.g ??= { g: 1 }, this.g ??= { g: 2 }, 0);
  #h;
  i = typeof (this.#h ||= 'h');
  static s = (this.t ||= 't');
  static { this.u ??= 'u'; this.u ??= 'v'; }
  run(o) {
    var first = this.#p ??= { a: 1 };
    assert.sameValue(this.#p ??= { a: 2 }, first, '??= keeps a non-nullish value');
    assert.sameValue(typeof (this.#q &&= { b: 1 }), 'object', '&&= assigns over a truthy value');
    assert.sameValue(this.#p || 0, first);
    this.#acc ??= 5;
    assert.sameValue(calls, 11, 'getter then setter');
    assert.throws(TypeError, () => { this.#m &&= 1; }, 'a private method is not writable');
    assert.sameValue(typeof (this.#m ||= 1), 'function', '||= short-circuits on the method');
    assert.throws(TypeError, () => { this.#ro ??= 1; }, 'no setter');
    assert.throws(TypeError, () => { o.#p ??= 1; }, 'no brand');
    var n = 0;
    var objs = [new C({}), this];
    objs[n++].#p ??= 3;
    assert.sameValue(n, 1, 'the base is evaluated once');
    assert.sameValue(super.x ??= 'x1', 'x1');
    assert.sameValue(super.x ??= 'x2', 'x2', 'super.x is read on the prototype');
    assert.sameValue(this.x, 'x2');
    assert.sameValue(super.flag &&= 'f', 'f');
    assert.sameValue(this.flag, 'f');
    super.y ||= 0;
    assert.sameValue(this.y, 0);
    assert.throws(TypeError, () => { super.ro ??= 1; }, 'a getter without setter');
    assert.sameValue(super.z = 'z', 'z');
    assert.sameValue(this.z, 'z');
    assert.sameValue(this.g.g, 1, 'the initializer assigned once');
    assert.sameValue(this.#h, 'h');
    return this;
  }
}
new C(null).run({});
assert.sameValue(C.t, 't');
assert.sameValue(C.u, 'u');
let a = null;
const get = () => a;
a ??= 1;
a &&= 2;
a ||= 3;
assert.sameValue(get(), 2);
const k = { c: 0 };
assert.throws(TypeError, () => { const d = null; d ??= (k.c++, 1); });
assert.sameValue(k.c, 1, 'the value is evaluated before the const write throws');
