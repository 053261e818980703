/*---
description: >
  Arrows see the this, arguments, new.target and super of the code around
  them: methods, constructors (a derived one before and after super()),
  field initializers, static blocks, generators, async functions; sloppy
  mapped arguments alias their parameters both ways.
flags: [noStrict, async]
includes: [asyncHelpers.js]
---*/
class Base { hello() { return 'base'; } }
class D extends Base {
  a = () => this;
  b = () => 1;
  static s = () => this;
  static { D.t = () => this; }
  constructor(out) {
    const early = () => this;
    assert.throws(ReferenceError, early, 'this before super()');
    super();
    out.push(early, () => new.target, () => arguments.length);
  }
  m() { return [() => this, () => super.hello(), () => () => this]; }
  *g() { yield 1; yield () => this; }
  async h() { await null; return () => this; }
}
var out = [];
var d = new D(out, 2);
assert.sameValue(out[0](), d);
assert.sameValue(out[1](), D);
assert.sameValue(out[2](), 2);
assert.sameValue(d.a(), d);
assert.sameValue(d.b(), 1);
assert.sameValue(D.s(), D);
assert.sameValue(D.t(), D);
var ms = d.m();
assert.sameValue(ms[0](), d);
assert.sameValue(ms[1](), 'base');
assert.sameValue(ms[2]()(), d);
var other = {};
assert.sameValue(D.prototype.m.call(other)[1](), 'base', 'super with another this');
var it = d.g();
it.next();
assert.sameValue(it.next().value(), d);
function mapped(a, b) {
  var f = () => arguments[0];
  a = 'changed';
  var g = () => a;
  arguments[1] = 'set';
  return [f(), g(), b, arguments.length, (() => arguments[2])()];
}
var r = mapped('x', 'y', 'z');
assert.sameValue(r.join(), 'changed,changed,set,3,z');
function unmapped(a) {
  'use strict';
  var f = () => arguments[0];
  a = 'changed';
  return f();
}
assert.sameValue(unmapped('x'), 'x');
function withThis() { return () => this; }
assert.sameValue(withThis.call(5)() instanceof Number, true, 'a sloppy primitive this is boxed');
asyncTest(async function () {
  var f = await d.h();
  assert.sameValue(f(), d);
});
