// Modern forms: let/const, arrows, classes, destructuring, spread,
// optional chaining, generators, async, template literals, labels.
"use strict";
const add = (a, b = 1) => a + b;
let total = 0;
for (let i = 0; i < 3; i++) total += add(i);
console.log(total, add.name);
class Animal {
  #secret = 42;
  static count = 0;
  constructor(name) { this.name = name; Animal.count++ }
  speak() { return `${this.name} makes a sound` }
  get secret() { return this.#secret }
  static create(n) { return new this(n) }
}
class Dog extends Animal {
  constructor(name) { super(name); this.kind = "dog" }
  speak() { return super.speak() + " (woof)" }
}
const d = Dog.create("Rex");
console.log(d.speak(), d.secret, Animal.count, Dog.name);
const {name, kind: k, missing = "def"} = d;
const [first, , ...rest] = [1, 2, 3, 4];
console.log(name, k, missing, first, rest);
let a1 = 1, b1 = 2;
[a1, b1] = [b1, a1];
console.log(a1, b1);
const o = {x: {y: null}, f() { return this.x }};
console.log(o?.x?.y?.z, o.f?.().y, o.g?.(), o.x.y ?? "nullish");
function* gen() { let x = yield 1; yield x * 2 }
const g = gen();
console.log(g.next().value, g.next(5).value, g.next().done);
async function af(v) { await null; return v + 1 }
af(1).then(v => console.log("async", v));
const m = new Map([[1, {a: 1}], [2, {a: 2}]]);
for (const [key, {a}] of m) console.log(key, a);
outer: for (const i of [1, 2, 3]) { for (const j of [1, 2]) { if (j === 2) continue outer; if (i === 3) break outer; console.log(i, j) } }
const spread = {...o.x, z: [...rest, ...[9]]};
console.log(JSON.stringify(spread), Math.max(...rest));
const tag = (s, ...v) => s.raw.join("|") + v.join(",");
console.log(tag`a${1}b${2}c`);
let lazy = null;
lazy ??= {v: 1};
lazy.v ||= 2;
lazy.w &&= 3;
console.log(JSON.stringify(lazy));
const fnName = function () {}, arrowName = () => {}, clsName = class {};
console.log(fnName.name, arrowName.name, clsName.name, ({m: () => 1}).m.name);
// names from computed keys: the key converted once, before the value
let keyReads = 0;
const keyObj = { toString() { keyReads++; return "viaToString"; } };
const symKey = Symbol("desc");
const computed = { [symKey]: () => 1, [keyObj]: function () {}, [1 + 1]: class {}, ["__proto__"]: function* () {}, plain: 1, ...{ s: 2 } };
console.log(computed[symKey].name, computed.viaToString.name, computed[2].name, Object.getOwnPropertyNames(computed).join(), keyReads);
function classWithKey(k) { return class { static [k] = () => k; [k + "I"] = function () {}; }; }
const K1 = classWithKey("one"), K2 = classWithKey("two");
console.log(K1.one.name, K2.two.name, new K1().oneI.name, new K2().twoI.name, K1.one(), keyReads);
const lit = {get 0() { console.log("ran get 0"); return 0 }, get ""() { return 1 }, get [k + "c"]() { return 2 }, set [k + "s"](v) {}};
console.log(Object.keys(lit).join());
