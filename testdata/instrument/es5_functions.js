// ES5: hoisting, named function expressions, recursion, this, arguments,
// exceptions through instrumented frames, eval, with, getters.
console.log(typeof hoisted, hoisted());
function hoisted() { return "h" }
var fact = function f(n) { return n <= 1 ? 1 : n * f(n - 1) };
console.log(fact(5));
function Point(x, y) { this.x = x; this.y = y }
Point.prototype.norm = function () { return Math.sqrt(this.x * this.x + this.y * this.y) };
console.log(new Point(3, 4).norm());
function args() { return arguments.length + [].slice.call(arguments).join("") }
console.log(args(1, 2, 3));
function thrower() { throw new Error("boom") }
function catcher() { try { thrower() } catch (e) { return e.message } finally { console.log("finally") } }
console.log(catcher());
function shadow() { var shadow = 1; return shadow }
console.log(shadow());
function dup() { var g = 2; function g() {} return g }
console.log(dup());
var ev = (function () { var a = 1; eval("a = 2"); return a })();
console.log(ev);
var w = {wx: 1, wf: function () { return this === w }};
with (w) { wx = 5; console.log(wf()) }
console.log(w.wx);
var acc = {get v() { return this._v * 2 }, set v(x) { this._v = x }};
acc.v = 21;
console.log(acc.v, Object.keys(acc).join());
var strict = (function () { "use strict"; try { Object.freeze({a: 1}).a = 2 } catch (e) { return e.constructor.name } })();
console.log(strict);
console.log([3, 1, 2].sort(function (a, b) { return a - b }).map(function (x) { return x * 2 }));
