// Classes: methods, accessors, statics, private members, fields, static
// blocks, derived classes with super calls, implicit constructors, class
// expressions and computed keys (docs/instrumentation.md §7).
"use strict";
const log = [];
const sym = Symbol("tag");
class Shape {
  static count = 0;
  static #registry = [];
  #id;
  kind = "shape";
  tags = { list: [] };
  constructor(name) {
    this.name = name;
    this.#id = ++Shape.count;
    Shape.#registry.push(this);
  }
  get id() { return this.#id; }
  set label(v) { this.name = v; }
  area() { return 0; }
  #secret() { return "s" + this.#id; }
  reveal() { return this.#secret(); }
  static get size() { return Shape.#registry.length; }
  static #helper(x) { return x * 2; }
  static double(x) { return Shape.#helper(x); }
  [sym]() { return "sym"; }
  ["computed" + 1]() { return "c1"; }
  static { log.push("static block " + this.name); }
}
class Circle extends Shape {
  r = 1;
  constructor(r) {
    super("circle");
    this.r = r;
  }
  area() { return Math.round(3.14159 * this.r * this.r); }
  describe() { return super.area() + "/" + this.area(); }
  static make(r) { return new this(r); }
}
class Square extends Shape {}
const Anon = class { v = this; m() { return this.v === this; } };
const Named = class Inner { who() { return Inner.name; } };

const c = Circle.make(2);
const s = new Square("sq");
s.label = "square";
log.push(c.area(), c.describe(), c.id, s.id, s.name, s.kind, c.reveal(), Shape.size, Shape.double(21));
log.push(c[sym](), c.computed1(), new Anon().m(), new Named().who(), Anon.name, Named.name, Circle.name);
log.push(c instanceof Shape, Object.getPrototypeOf(Square) === Shape, Object.keys(c).join(","));
log.push(typeof Shape.prototype.area, Object.getOwnPropertyNames(Shape.prototype).join(","));
try { Shape.prototype.reveal.call({}); } catch (e) { log.push(e.constructor.name); }
console.log(log.join("\n"));
