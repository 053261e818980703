'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Object.*: what the result or the target holds.
function objects() {
  const src = {};
  src.a = track('assign-value', { a: 1 });
  kept.assigned = Object.assign({}, src);
  const ev = {};
  ev.v = track('entries-value', { e: 1 });
  kept.entries = Object.entries(ev);
  const vv = {};
  vv.v = track('values-value', { v: 1 });
  kept.values = Object.values(vv);
  const dropped = {};
  dropped.v = track('values-dropped', { v: 2 });
  Object.values(dropped);
  const pairs = [];
  const pv = track('fromentries-value', { p: 1 });
  pairs.push(['k', pv]);
  kept.fromEntries = Object.fromEntries(pairs);
  const mfe = new Map();
  mfe.set('k', track('fromentries-map-value', { p: 2 }));
  kept.fromMap = Object.fromEntries(mfe);
  const proto = track('create-proto', { c: 1 });
  kept.created = Object.create(proto);
  const dp = track('create-descriptor-value', { c: 2 });
  kept.createdWith = Object.create(null, { x: { value: dp, enumerable: true } });
  const sp = track('setprototypeof-proto', { s: 1 });
  kept.withProto = Object.setPrototypeOf({}, sp);
  const old = track('setprototypeof-replaced', { s: 2 });
  const re = Object.create(old);
  Object.setPrototypeOf(re, null);
  kept.re = re;
  const pw = track('proto-write', { s: 3 });
  const o = {};
  o.__proto__ = pw;
  kept.protoWrite = o;
  const pl = track('proto-literal', { s: 4 });
  kept.protoLiteral = { __proto__: pl };
  const dps = track('defineproperties-value', { d: 1 });
  kept.defined = Object.defineProperties({}, { x: { value: dps } });
  const dpv = track('defineproperty-value', { d: 2 });
  kept.defined1 = Object.defineProperty({}, 'y', { value: dpv });
}

// Reflect: writes, definitions, deletes, reads, calls and constructions.
function reflect() {
  const t = {};
  Reflect.set(t, 'x', track('reflect-set-value', { r: 1 }));
  kept.rs = t;
  const t2 = {};
  t2.y = track('reflect-set-overwritten', { r: 2 });
  Reflect.set(t2, 'y', 0);
  kept.rs2 = t2;
  const t3 = {};
  const rdv = track('reflect-define-value', { r: 3 });
  Reflect.defineProperty(t3, 'z', { value: rdv });
  kept.rd = t3;
  const t4 = {};
  t4.w = track('reflect-delete-dropped', { r: 4 });
  Reflect.deleteProperty(t4, 'w');
  kept.rdel = t4;
  const holder = {};
  holder.v = track('reflect-get-value', { r: 5 });
  kept.rg = Reflect.get(holder, 'v');
  const ra = track('reflect-apply-arg', { r: 6 });
  const wrap = function (x) {
    return [x];
  };
  kept.ra = Reflect.apply(wrap, null, [ra]);
  const rc = track('reflect-construct-arg', { r: 7 });
  const Box = function (x) {
    this.x = x;
  };
  kept.rc = Reflect.construct(Box, [rc]);
  const rsp = track('reflect-setprototypeof-proto', { r: 8 });
  kept.rsp = {};
  Reflect.setPrototypeOf(kept.rsp, rsp);
}

// JSON.parse with a reviver, structuredClone.
function json() {
  kept.revived = JSON.parse('{"a":{"b":1}}', function (k, v) {
    return k === 'b' ? track('reviver-value', { k }) : v;
  });
  JSON.parse('[1]', function (k, v) {
    return k === '0' ? track('reviver-value-dropped', { k }) : v;
  });
  const o = {};
  o.inner = track('clone-source', { c: 1 });
  kept.clone = structuredClone(o);
  const m = new Map();
  m.set('k', track('clone-map-source', { c: 2 }));
  kept.cloneMap = structuredClone(m);
}

// Map, Set and array iterators, their results and spreads.
function iterators() {
  const m = new Map();
  m.set('a', track('map-values-iterator-kept', { m: 1 }));
  kept.mapIter = m.values();
  const m2 = new Map();
  m2.set('b', track('map-spread-values', { m: 2 }));
  kept.mapSpread = [...m2.values()];
  const m3 = new Map();
  m3.set('c', track('map-entries-spread', { m: 3 }));
  kept.mapEntries = [...m3.entries()];
  const m4 = new Map();
  m4.set('d', track('map-next-value', { m: 4 }));
  kept.mapNext = m4.values().next();
  const m5 = new Map();
  m5.set('e', track('map-entries-from', { m: 5 }));
  kept.mapFrom = Array.from(m5.entries());
  const m6 = new Map();
  m6.set('f', track('map-next-entry', { m: 6 }));
  kept.mapNextEntry = m6.entries().next().value;
  const km = new Map();
  km.set(track('map-keys-from', { k: 1 }), 1);
  kept.keys = Array.from(km.keys());
  const s = new Set();
  s.add(track('set-spread', { s: 1 }));
  kept.setSpread = [...s];
  const s2 = new Set();
  s2.add(track('set-iterator-kept', { s: 2 }));
  kept.setIter = s2.values();
  const s3 = new Set();
  s3.add(track('set-iterator-exhausted', { s: 3 }));
  const it = s3.values();
  while (!it.next().done);
  kept.setExhausted = it;
  const s4 = new Set();
  s4.add(track('set-iterator-for-of', { s: 4 }));
  const it4 = s4.values();
  for (const x of it4) x.s++;
  kept.setForOf = it4;
  const a = [];
  a.push(track('array-iterator-kept', { a: 1 }));
  kept.arrIter = a.values();
}

// Bound functions keep their target, this and arguments.
function bound() {
  const t = track('bind-target', function () {});
  kept.bound = t.bind(null);
  const self = track('bind-this', { b: 1 });
  const f = function () {
    return this;
  };
  kept.bound2 = f.bind(self);
  const arg = track('bind-arg', { b: 2 });
  kept.bound3 = Math.max.bind(null, arg);
  const lost = track('bind-dropped-arg', { b: 3 });
  Math.max.bind(null, lost);
}

// Proxies keep their target and handler until revoked.
function proxies() {
  const target = track('proxy-target', { p: 1 });
  const handler = track('proxy-handler', { p: 2 });
  kept.proxy = new Proxy(target, handler);
  const t2 = track('revoked-proxy-target', { p: 3 });
  const r = Proxy.revocable(t2, {});
  r.revoke();
  kept.revoked = r.proxy;
  const t3 = track('revocable-proxy-target', { p: 4 });
  kept.revocable = Proxy.revocable(t3, {});
}

// Typed arrays and DataViews keep their buffer (and hold no elements).
function typed() {
  const buf = track('typed-buffer', new ArrayBuffer(8));
  kept.view = new Uint8Array(buf);
  const buf2 = track('dataview-buffer', new ArrayBuffer(8));
  kept.dv = new DataView(buf2);
  const buf3 = track('typed-buffer-dropped', new ArrayBuffer(8));
  new Uint8Array(buf3);
  const sub = track('subarray-buffer', new ArrayBuffer(4));
  kept.sub = new Uint8Array(sub).subarray(1);
  const ta = new Float64Array(2);
  ta[0] = 1;
  kept.ta = ta;
}

// Weak collections hold nothing of their members; string and regexp
// results hold strings.
function weak() {
  const ws = new WeakSet();
  ws.add(track('weakset-member', { w: 1 }));
  kept.ws = ws;
  const wm = new WeakMap();
  const wv = track('weakmap-value-of-dead-key', { w: 3 });
  wm.set(track('weakmap-dead-key', { w: 2 }), wv);
  kept.wm = wm;
  const re = track('exec-regexp', /a(b)/);
  kept.execd = re.exec('ab');
  const re2 = track('matchall-regexp', /a/g);
  kept.matches = 'aa'.matchAll(re2);
  const re3 = track('split-regexp', /,/);
  kept.split = 'a,b'.split(re3);
}

// Descriptors, errors' causes, string matches.
function more() {
  const dv = {};
  dv.x = track('descriptor-value', { d: 1 });
  kept.desc = Object.getOwnPropertyDescriptor(dv, 'x');
  const dvs = {};
  dvs.y = track('descriptors-value', { d: 2 });
  kept.descs = Object.getOwnPropertyDescriptors(dvs);
  const acc = {};
  const getter = track('descriptor-getter', () => 1);
  Object.defineProperty(acc, 'z', { get: getter });
  kept.accDesc = Reflect.getOwnPropertyDescriptor(acc, 'z');
  const cause = track('error-cause', { c: 1 });
  kept.err = new Error('e', { cause });
  const inner = track('aggregate-error', { c: 2 });
  kept.agg = new AggregateError([inner], 'all');
  const lost = track('error-cause-dropped', { c: 3 });
  new Error('e', { cause: lost });
  const re = track('match-regexp', /(?<x>a)/);
  kept.matched = 'a'.match(re);
}

function main() {
  objects();
  more();
  weak();
  reflect();
  json();
  iterators();
  bound();
  proxies();
  typed();
}
main();
report();
