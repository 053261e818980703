// Prototype objects reach the shim in every way a program can show them.
function Point(x, y) { this.x = x; this.y = y; }
Point.prototype.norm = function () { return Math.sqrt(this.x * this.x + this.y * this.y); };
var p = new Point(3, 4);
console.log(p.norm());

function Lazy() {}
var lp = Object.getPrototypeOf(new Lazy()); // first seen through a native's result
lp.tag = { t: 1 };

function Viaproto() {}
var inst = new Viaproto();
var vp = inst.__proto__; // a getter on Object.prototype
vp.kept = [inst];

function Renamed() {}
Renamed.prototype.constructor = Point; // first seen as P's base, before the write
var rp = Renamed.prototype;
rp.z = {};

function Replaced() {}
Replaced.prototype = { constructor: Replaced, m: function () { return 1; } };
console.log(new Replaced().m());

function Untouched() {} // its prototype never made

class Base { m() { return 'b'; } static s() { return Base; } }
class Derived extends Base { m() { return super.m() + 'd'; } }
console.log(new Derived().m(), Derived.s() === Base);

function* gen() { yield 1; }
var gp = gen.prototype;
gp.extra = {};
console.log([...gen()].length);

var holder = {};
function Stored() {}
holder.p = Stored.prototype; // first seen as a PUTFIELD's value
var arr = [];
function Pushed() {}
arr.push(Pushed.prototype);

function Trapped() {}
var seen = [];
var prox = new Proxy(Trapped.prototype, {
  getOwnPropertyDescriptor(t, k) { seen.push('gOPD ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
  has(t, k) { seen.push('has ' + String(k)); return k in t; },
  getPrototypeOf(t) { seen.push('getPrototypeOf'); return Reflect.getPrototypeOf(t); },
});
holder.prox = prox;
prox.q = {};
console.log(seen.join(',') || 'no traps');
// Primitive writes to the proxy (P's copies write primitives to objects
// whose id is in their field without the shim's reading anything; a proxy
// keeps its id elsewhere): the traps the write itself runs, no more.
seen.length = 0;
prox.n = 1;
prox.n = 2;
prox['n' + 1] = 3;
console.log(seen.join(',') || 'no traps');

var fakeCtor = { constructor: Point }; // not Point's prototype
fakeCtor.v = {};
var m = Math;
holder.m = m; // an object without an id, looked at twice
holder.m2 = Math;

function Later() {}
var fns = [];
for (var i = 0; i < 3; i++) fns.push(function () { return i; });
var later = Later.prototype;
later.r = fns;
console.log(typeof Untouched, fns.length, Object.keys(holder).join(' '));

// A callable proxy stored in a literal gets an id when the literal's
// PUTFIELD names it: no trap may run (plain node runs none here).
var ftraps = [];
var fprox = new Proxy(function target() {}, {
  get(t, k) { ftraps.push('get ' + String(k)); return Reflect.get(t, k); },
  getPrototypeOf(t) { ftraps.push('getPrototypeOf'); return Reflect.getPrototypeOf(t); },
});
var lit = { f: fprox };
console.log(ftraps.join(',') || 'no traps', typeof lit.f);

// A proxy as a function's this (its id is kept apart from the field, so
// the frame does not hold it for Gt, Mt and Pt): writes to this run the
// traps the write itself runs, no more.
var strapped = [];
var target = {};
var sprox = new Proxy(target, {
  getOwnPropertyDescriptor(t, k) { strapped.push('gOPD ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
  set(t, k, v, r) { strapped.push('set ' + String(k)); return Reflect.set(t, k, v, r); },
  defineProperty(t, k, d) { strapped.push('define ' + String(k)); return Reflect.defineProperty(t, k, d); },
  getPrototypeOf(t) { strapped.push('getPrototypeOf'); return Reflect.getPrototypeOf(t); },
});
holder.sprox = sprox; // the proxy gets its id
function Fill(o) { this.a = 1; this.b = o; this.a = 2; return this.a + this.b.c; }
console.log(Fill.call(sprox, { c: 3 }), strapped.join(','));
strapped.length = 0;
function Fresh() { this.z = {}; }
console.log(typeof Fresh.call(new Proxy({}, { set(t, k, v) { strapped.push('set ' + String(k)); t[k] = v; return true; } })), strapped.join(','));
