'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Arrow functions take this, arguments, new.target and super from the code
// around them: V8 keeps them in that code's context (or the class's), which
// every closure created there keeps. Each idiom has a site made twice, once
// kept (through a registry or an emitter the program keeps) and once
// dropped, unless the site says otherwise.

// A registry and an emitter of the program's own (instrumented code).
class Emitter {
  constructor() { this.ls = []; }
  on(f) { this.ls.push(f); }
}

// A listener registered as an arrow inside a method: the instance is
// dropped, the emitter keeps the arrow, which keeps the instance and what
// it holds.
class Counter {
  constructor() {
    this.count = 0;
    this.data = track('listener-held', {});
  }
  start(em) { em.on(() => this.count++); }
}

function listener(keep) {
  const em = new Emitter();
  track('listener-instance', new Counter()).start(em);
  if (keep) kept.em = em;
}

// Class-field arrows, the bound-handler idiom: only the arrow is kept.
class Stream {
  #buf = track('field-arrow-buf', []);
  onData = (x) => this.#buf.push(x);
}
class StreamCtor {
  onData = (x) => this.items.push(x);
  constructor() { this.items = []; }
}
class Base {
  constructor() { this.v = 1; }
  hello() { return this.v; }
}
class Derived extends Base {
  handler = () => this.v;
}
// V8 runs a class's field initializers as one function: an arrow that
// does not use this keeps it too when another field's arrow does.
class Shared {
  a = () => 1;
  b = () => this;
}

function fields(keep) {
  const reg = [];
  reg.push(new Stream().onData);
  reg.push(track('field-arrow-instance', new Stream()).onData);
  reg.push(track('field-arrow-ctor-instance', new StreamCtor()).onData);
  reg.push(track('field-arrow-derived-instance', new Derived()).handler);
  reg.push(track('field-shared-instance', new Shared()).a);
  if (keep) kept.fields = reg;
}

// Arrows in static blocks and static field initializers: this is the class.
function staticBlock(reg) {
  return track('static-block-class', class {
    static data = track('static-block-data', {});
    static { reg.push(() => this.data); }
  });
}
function staticField() {
  return track('static-field-class', class {
    static data = track('static-field-data', {});
    static h = () => this.data;
  });
}

function statics(keep) {
  const reg = [];
  staticBlock(reg);
  const h = staticField().h;
  if (keep) kept.statics = [reg, h];
}

// Arrows in constructors: a class's, a function's, and a derived class's
// made before super() and called after it.
class Widget {
  constructor(reg) {
    this.big = track('ctor-arrow-held', {});
    reg.push(() => this.big);
  }
}
function Timer(reg) {
  this.data = track('function-ctor-held', {});
  reg.push(() => this.data);
}
class Early extends Base {
  constructor(reg) {
    const f = () => this;
    super();
    reg.push(f);
  }
}

function constructors(keep) {
  const reg = [];
  track('ctor-arrow-instance', new Widget(reg));
  track('function-ctor-instance', new Timer(reg));
  track('derived-early-instance', new Early(reg));
  if (keep) kept.ctors = reg;
}

// Nested arrows: only the inner one is kept.
class Nest {
  m() { return () => () => this; }
}
// An arrow that does not use this, its instance dropped: never kept.
class NoThis {
  m() { return () => 1; }
}
// A dropped arrow that uses this and a kept one that does not: V8 keeps
// this in the method's context, which the kept arrow keeps.
class SharedThis {
  m() {
    const f = () => this;
    f();
    return () => 2;
  }
}
// The arrow that uses this is never created: V8 still keeps this.
class Uncreated {
  m(x) {
    if (x) return () => this;
    return () => 3;
  }
}
// An arrow inside a function called without this, inside a method: it
// keeps that function's this (undefined), not the method's.
class Outer {
  m() {
    function inner() { return () => this; }
    return inner();
  }
}
// A loop whose per-iteration bindings the arrows capture too.
class Looper {
  m() {
    const fs = [];
    for (let i = 0; i < 2; i++) fs.push(() => this.v + i);
    return fs;
  }
}
// An arrow of a function called with an explicit this.
function later() { return () => this; }

function methods(keep) {
  const fs = [];
  fs.push(track('nested-arrow-instance', new Nest()).m()());
  fs.push(track('no-this-instance', new NoThis()).m());
  fs.push(track('shared-this-instance', new SharedThis()).m());
  fs.push(track('uncreated-this-instance', new Uncreated()).m(false));
  fs.push(track('inner-this-instance', new Outer()).m());
  fs.push(track('loop-this-instance', new Looper()).m());
  fs.push(later.call(track('call-this', {})));
  if (keep) kept.methods = fs;
}

// Arrows in generator and async methods, made after a suspension. (The
// async method keeps its arrow in a registry: a dropped object that an
// async function returns after an await is only reported at the end of
// the program by the engine, a limit of its own.)
class Loader {
  async load(reg) {
    await null;
    reg.push(() => this);
  }
  *gen() {
    yield 1;
    yield () => this;
  }
}

async function suspending(keep) {
  const reg = [];
  const l = track('async-method-instance', new Loader());
  await l.load(reg);
  const m = track('generator-method-instance', new Loader());
  const g = m.gen();
  g.next();
  reg.push(g.next().value);
  if (keep) kept.suspending = reg;
}

// arguments: the arrow keeps the arguments object, which keeps the
// arguments.
function args() { return () => arguments[0]; }
function argsLater(a) {
  a = null;
  return () => arguments[0];
}

function argumentsObjects(keep) {
  const f = args(track('arguments-arg', {}));
  const g = argsLater(track('arguments-reassigned-arg', {}));
  if (keep) kept.args = [f, g];
  // The same in sloppy code (arrows/sloppy.js).
  const s = require('./arrows/sloppy.js')(track, keep);
  if (keep) kept.sloppy = s;
}

// new.target: the arrow keeps the constructor.
function newTargetClass(reg) {
  const K = track('new-target-class', class {
    constructor() { reg.push(() => new.target); }
  });
  new K();
}
function newTargetFunction(reg) {
  const F = track('new-target-function', function () {
    reg.push(() => new.target);
  });
  new F();
}

function newTargets(keep) {
  const reg = [];
  newTargetClass(reg);
  newTargetFunction(reg);
  if (keep) kept.newTargets = reg;
}

// super: the arrow keeps this and the method's home object (the class's
// prototype), which it keeps even when the method runs with another this.
function superClass() {
  const D = class extends Base {
    m() { return () => super.hello(); }
  };
  D.prototype.tag = track('super-home', {});
  return D;
}
function superMethodClass() {
  const D = class extends Base {
    m() { return super.hello(); }
  };
  D.prototype.tag = track('super-method-home', {});
  return D;
}
function superObject() {
  const o = {
    __proto__: Base.prototype,
    m() { return () => super.hello; },
  };
  o.tag = track('super-object-home', {});
  return o;
}

function supers(keep) {
  const D = superClass();
  const fs = [];
  fs.push(track('super-instance', new D()).m());
  fs.push(superClass().prototype.m.call(undefined));
  fs.push(superMethodClass().prototype.m);
  fs.push(superObject().m.call(undefined));
  if (keep) kept.supers = fs;
}

async function main() {
  listener(1);
  listener(0);
  fields(1);
  fields(0);
  statics(1);
  statics(0);
  constructors(1);
  constructors(0);
  methods(1);
  methods(0);
  await suspending(1);
  await suspending(0);
  argumentsObjects(1);
  argumentsObjects(0);
  newTargets(1);
  newTargets(0);
  supers(1);
  supers(0);
}
main();

report();
