// nested: none
var arrow = (a, b) => a + b;
var asyncArrow = async x => x;
function decl(x) { return {x}; }
var expr = function named() { return [1]; };
class C {
  constructor(a) { this.a = a; }
  static async *m(a) { return a }
  get [Symbol.iterator]() { return 1 }
  'we(ird'() { return {} }
  #p() {}
}
class D extends C {}
var o = { async f(x) { return x }, get g() { return 1 }, set g(v) {}, ['k' + 1]() {}, *gen() {} };
const show = (f) => console.log(Function.prototype.toString.call(f));
[arrow, asyncArrow, decl, expr, C, D, C.m, Object.getOwnPropertyDescriptor(C.prototype, Symbol.iterator).get,
  C.prototype['we(ird'], o.f, Object.getOwnPropertyDescriptor(o, 'g').get, Object.getOwnPropertyDescriptor(o, 'g').set,
  o.k1, o.gen, Math.max, function () {}.bind(null)].forEach(show);
console.log(decl.toString() === String(decl), `${arrow}`);
class K { [() => {}] = 1; [function () { return 2 }]() {} }
console.log(Object.keys(new K()).join(), Object.getOwnPropertyNames(K.prototype).join('|'));
var ts = Function.prototype.toString;
console.log(ts.toString(), String(ts), ts.name, ts.length, Object.getOwnPropertyNames(ts).join(), 'prototype' in ts);
console.log(JSON.stringify(Object.getOwnPropertyDescriptor(Function.prototype, 'toString'), (k, v) => typeof v === 'function' ? 'fn' : v));
try { new ts(); } catch (err) { console.log(err.constructor.name); }
try { ts.call({}); } catch (err) { console.log(err.constructor.name, err.message); }
