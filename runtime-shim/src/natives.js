// Natives the shim relies on, captured when it loads so that a program
// that patches them later cannot change the shim's behaviour.

import {
  K_RESULT, K_REWRITE, K_ENTRIES, K_OWN_PROPS, K_ITER_RESULT, K_ITERATOR, K_DEEP, K_CREATE, K_DEFINE_PROPS, K_SET_PROTO,
  K_REFLECT_SET, K_REFLECT_DELETE, K_BIND, K_PROXY, K_VIEW, K_SUBARRAY, K_DEFINE_PROPERTY, K_ALL, K_ALL_SETTLED, K_ANY, K_RACE,
  K_SET_IMMEDIATE, K_NEXT_TICK, K_CLEAR_TIMEOUT,
} from './consts.js';

export const G = globalThis;
// The typed array constructors, under their own names: index.js imports
// them, so that its code means these, not the global bindings of the time.
const typedArrays = [globalThis.Int32Array, globalThis.Uint8Array, globalThis.Int8Array];
export const $Int32Array = typedArrays[0];
export const $Uint8Array = typedArrays[1];
export const $Int8Array = typedArrays[2];
export const $Object = Object;
export const $String = String;
export const $Number = Number;
export const $Error = Error;
export const $TypeError = TypeError;
// V8's (undefined elsewhere: errorMade then keeps the stack).
export const captureStackTrace = typeof Error.captureStackTrace === 'function' ? Error.captureStackTrace : undefined;
export const objectKeys = Object.keys;
export const isArray = Array.isArray;
export const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const getPrototypeOf = Object.getPrototypeOf;
export const defineProperty = Object.defineProperty;
export const hasOwn = Object.hasOwn;
// ownGetter(o, k) is Object.prototype.__lookupGetter__ called on o: the
// getter of o's own property k when it is an accessor, undefined when it
// is a data property (for a missing one it would walk the prototype chain:
// callers ask hasOwn first). It allocates nothing, where a descriptor is
// an object per read; undefined where the host lacks Annex B's method.
const lookupGetter = Object.prototype.__lookupGetter__;
export const ownGetter = typeof lookupGetter === 'function' ? Function.prototype.call.bind(lookupGetter) : undefined;
export const apply = Reflect.apply;
export const ownKeys = Reflect.ownKeys;
export const construct = Reflect.construct;
export const fnToString = Function.prototype.toString;
export const fnBind = Function.prototype.bind;
export const regExpExec = RegExp.prototype.exec;
export const arraySort = Array.prototype.sort;
export const imul = Math.imul;
export const clz32 = Math.clz32;
export const typedArrayFill = getPrototypeOf(Int32Array.prototype).fill;
export const typedArraySlice = getPrototypeOf(Int32Array.prototype).slice;
export const typedArraySet = getPrototypeOf(Int32Array.prototype).set;
// %TypedArray%.prototype[@@toStringTag]'s getter: the element type's name
// for a typed array (of any realm), undefined for anything else; found
// among the prototype's own keys, since a program may have removed the
// global Symbol before the shim loads (lodash's tests do); undefined if
// it is not there.
export const typedArrayTag = (() => {
  const p = getPrototypeOf(Int32Array.prototype);
  const keys = ownKeys(p);
  const probe = new Int32Array(0);
  for (let i = 0; i < keys.length; i++) {
    // the one accessor keyed by a symbol: its getter names the type
    const d = typeof keys[i] === 'symbol' ? getOwnPropertyDescriptor(p, keys[i]) : undefined;
    if (d !== undefined && typeof d.get === 'function' && apply(d.get, probe, []) === 'Int32Array') return d.get;
  }
  return undefined;
})();
// callWith(f, thisArg, ...args) is f.call(thisArg, ...args) without an
// arguments array (Function.prototype.call, uncurried).
export const callWith = Function.prototype.call.bind(Function.prototype.call);
export const arraySlice = Array.prototype.slice;

// Collections whose methods are own properties of a private subclass'
// prototype: patching WeakMap.prototype or Map.prototype later does not
// reach them, and calls stay ordinary (monomorphic) method calls.
function safe(Base, names) {
  // An explicit constructor: a default derived constructor spreads its
  // arguments through Array.prototype[Symbol.iterator], which the program
  // may have replaced (with instrumented code that calls back into us).
  const Safe = class extends Base {
    constructor() {
      super();
    }
  };
  for (const n of names) {
    defineProperty(Safe.prototype, n, { value: Base.prototype[n] });
  }
  return Safe;
}
export const SafeWeakMap = safe(WeakMap, ['get', 'set', 'has', 'delete']);
export const SafeMap = safe(Map, ['get', 'set', 'has', 'delete']);
export const SafeSet = safe(Set, ['has', 'add', 'delete']);
export const SafeWeakSet = safe(WeakSet, ['has', 'add', 'delete']);

// Natives with models (spec 3.6), captured by identity.
const AP = Array.prototype;
export const N_PUSH = AP.push;
export const N_POP = AP.pop;
export const N_SHIFT = AP.shift;
export const N_UNSHIFT = AP.unshift;
export const N_SPLICE = AP.splice;
export const N_CONCAT = AP.concat;
export const N_DEFINE_PROPERTY = Object.defineProperty;
export const N_SET_TIMEOUT = typeof setTimeout === 'function' ? setTimeout : undefined;
export const N_CLEAR_TIMEOUT = typeof clearTimeout === 'function' ? clearTimeout : undefined;
export const N_SET_INTERVAL = typeof setInterval === 'function' ? setInterval : undefined;
export const N_CLEAR_INTERVAL = typeof clearInterval === 'function' ? clearInterval : undefined;
export const N_QUEUE_MICROTASK = typeof queueMicrotask === 'function' ? queueMicrotask : undefined;

// Keyed collections (docs/instrumentation.md §4, "Collections").
export const N_MAP = Map;
export const N_SET = Set;
export const N_WEAK_MAP = WeakMap;
export const N_MAP_SET = Map.prototype.set;
export const N_MAP_DELETE = Map.prototype.delete;
export const N_MAP_CLEAR = Map.prototype.clear;
export const N_SET_ADD = Set.prototype.add;
export const N_SET_DELETE = Set.prototype.delete;
export const N_SET_CLEAR = Set.prototype.clear;
export const N_WEAK_MAP_SET = WeakMap.prototype.set;
export const N_WEAK_MAP_DELETE = WeakMap.prototype.delete;
export const mapForEach = Map.prototype.forEach;
export const setForEach = Set.prototype.forEach;
export const N_OBJECT_ASSIGN = Object.assign;
export const N_ARRAY_FROM = Array.from;

// Weak references, finalization registries, promises, reflection
// (docs/instrumentation.md §4, "Weak references and promises").
export const N_WEAK_REF_DEREF = typeof WeakRef === 'function' ? WeakRef.prototype.deref : undefined;
export const N_FIN_REG = typeof FinalizationRegistry === 'function' ? FinalizationRegistry : undefined;
export const N_FIN_REGISTER = N_FIN_REG !== undefined ? N_FIN_REG.prototype.register : undefined;
export const N_FIN_UNREGISTER = N_FIN_REG !== undefined ? N_FIN_REG.prototype.unregister : undefined;
export const N_PROMISE = Promise;
export const N_PROMISE_THEN = Promise.prototype.then;
export const N_PROMISE_CATCH = Promise.prototype.catch;
export const N_PROMISE_FINALLY = Promise.prototype.finally;
export const N_PROMISE_RESOLVE = Promise.resolve;
export const N_PROMISE_REJECT = Promise.reject;
export const N_REFLECT_APPLY = Reflect.apply;
export const N_REFLECT_CONSTRUCT = Reflect.construct;
export const N_CALL = Function.prototype.call;
export const N_APPLY = Function.prototype.apply;
// Run-time code (docs/instrumentation.md §6): eval and the function
// constructors, whose string arguments are instrumented before they run.
export const N_EVAL = G.eval;
export const N_FUNCTION = Function;
export const N_ASYNC_FUNCTION = (async function () {}).constructor;
export const N_GENERATOR_FUNCTION = (function* () {}).constructor;
export const N_ASYNC_GENERATOR_FUNCTION = (async function* () {}).constructor;
export const FunctionPrototype = Function.prototype;
export const GeneratorFunctionPrototype = N_GENERATOR_FUNCTION.prototype;
export const AsyncGeneratorFunctionPrototype = N_ASYNC_GENERATOR_FUNCTION.prototype;
const GP = GeneratorFunctionPrototype.prototype; // %GeneratorPrototype%
export const N_GEN_NEXT = GP.next;
export const N_GEN_RETURN = GP.return;
export const N_GEN_THROW = GP.throw;
export const strIndexOf = String.prototype.indexOf;
export const $JSON = JSON;
export const jsonParse = JSON.parse;
export const strCharCodeAt = String.prototype.charCodeAt;
export const strSlice = String.prototype.slice;
// strConcat converts with ToString (as a template literal does: a symbol throws), for the function constructors.
export const strConcat = String.prototype.concat;
export const strFromCodePoint = String.fromCodePoint;

// The prototypes of ArrayBuffer and SharedArrayBuffer (K_VIEW), and
// %TypedArray%.prototype.buffer's getter (K_SUBARRAY).
export const bufferProtos = [ArrayBuffer.prototype, typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer.prototype : undefined];
export const typedBuffer = getOwnPropertyDescriptor(getPrototypeOf(Int32Array.prototype), 'buffer').get;

// Natives whose models are the generic ones (docs/natives.md), by where
// they live: [global ('' the global object itself, 'TypedArray' the
// typed arrays' prototype), 1 when on its prototype (2: the global
// itself), property, kind]. The main realm's are captured when the shim
// loads (MODELLED); installRealm resolves the same table against another
// realm's global object.
const VIEWS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView'];
export const MODEL_TABLE = [
  ['Object', 0, 'fromEntries', K_OWN_PROPS], ['Object', 0, 'getOwnPropertyDescriptor', K_OWN_PROPS],
  ['Reflect', 0, 'getOwnPropertyDescriptor', K_OWN_PROPS], ['Object', 0, 'getOwnPropertyDescriptors', K_ENTRIES], ['Object', 0, 'create', K_CREATE], ['Object', 0, 'defineProperties', K_DEFINE_PROPS],
  ['Object', 0, 'setPrototypeOf', K_SET_PROTO], ['Reflect', 0, 'setPrototypeOf', K_SET_PROTO], ['Reflect', 0, 'set', K_REFLECT_SET],
  ['Reflect', 0, 'deleteProperty', K_REFLECT_DELETE], ['Reflect', 0, 'defineProperty', K_DEFINE_PROPERTY],
  ['JSON', 0, 'parse', K_DEEP], ['', 0, 'structuredClone', K_DEEP], ['Function', 1, 'bind', K_BIND],
  ['Proxy', 2, '', K_PROXY], ['Proxy', 0, 'revocable', K_PROXY], ['TypedArray', 1, 'subarray', K_SUBARRAY],
  ['Map', 1, 'entries', K_ITERATOR], ['Map', 1, 'values', K_ITERATOR], ['Map', 1, 'keys', K_ITERATOR],
  ['Set', 1, 'values', K_ITERATOR], ['Set', 1, 'entries', K_ITERATOR],
  ['Array', 1, 'values', K_ITERATOR], ['Array', 1, 'keys', K_ITERATOR], ['Array', 1, 'entries', K_ITERATOR],
  ['Promise', 0, 'all', K_ALL], ['Promise', 0, 'allSettled', K_ALL_SETTLED], ['Promise', 0, 'any', K_ANY], ['Promise', 0, 'race', K_RACE],
  ['', 0, 'setImmediate', K_SET_IMMEDIATE], ['', 0, 'clearImmediate', K_CLEAR_TIMEOUT], ['', 0, 'queueMicrotask', K_NEXT_TICK],
  ['Array', 1, 'filter', K_RESULT], ['Array', 1, 'map', K_RESULT], ['Array', 1, 'flat', K_RESULT],
  ['Array', 1, 'flatMap', K_RESULT], ['Array', 1, 'slice', K_RESULT], ['Array', 1, 'toSorted', K_RESULT],
  ['Array', 1, 'toReversed', K_RESULT], ['Array', 1, 'toSpliced', K_RESULT], ['Array', 1, 'with', K_RESULT],
  ['Array', 0, 'of', K_RESULT], ['Object', 0, 'values', K_RESULT],
  ['Array', 1, 'reverse', K_REWRITE], ['Array', 1, 'sort', K_REWRITE], ['Array', 1, 'fill', K_REWRITE],
  ['Array', 1, 'copyWithin', K_REWRITE],
  ['Object', 0, 'entries', K_ENTRIES],
];

// ownValue is the value of o's own data property k, or undefined (an
// accessor's getter is not run; a proxy's trap may throw: undefined).
export function ownValue(o, k) {
  try {
    const d = o !== null && (typeof o === 'object' || typeof o === 'function') ? getOwnPropertyDescriptor(o, k) : undefined;
    return d !== undefined ? d.value : undefined;
  } catch {
    return undefined;
  }
}

// modelsOf resolves MODEL_TABLE against global object g: [function, kind]
// pairs, reading only own data properties (nothing a program defined as
// an accessor runs).
export function modelsOf(g) {
  const get = ownValue;
  // (Called for a realm made after the program patched Array.prototype:
  // no method of an array, no destructuring.)
  const r = [];
  const table = [];
  for (let j = 0; j < MODEL_TABLE.length; j++) table[j] = MODEL_TABLE[j];
  for (let j = 0; j < VIEWS.length; j++) table[table.length] = [VIEWS[j], 2, '', K_VIEW];
  for (let j = 0; j < table.length; j++) {
    const name = table[j][0], onProto = table[j][1], key = table[j][2], kind = table[j][3];
    let o = name === '' ? g : get(g, name === 'TypedArray' ? 'Int8Array' : name);
    if (name === 'TypedArray') o = typeof o === 'function' ? getPrototypeOf(o) : undefined;
    if (onProto === 1) o = get(o, 'prototype');
    const f = onProto === 2 ? o : get(o, key);
    if (typeof f === 'function') r[r.length] = [f, kind];
  }
  // The next() of Map, Set and array iterators (their prototypes are
  // reached through an iterator of each, made by the realm's own method).
  const its = [['Map', new N_MAP()], ['Set', new N_SET()], ['Array', []]];
  for (let j = 0; j < its.length; j++) {
    const values = get(get(get(g, its[j][0]), 'prototype'), 'values');
    if (typeof values !== 'function') continue;
    try {
      const next = get(getPrototypeOf(apply(values, its[j][1], [])), 'next');
      if (typeof next === 'function') r[r.length] = [next, K_ITER_RESULT];
    } catch { /* no iterator */ }
  }
  return r;
}
export const MODELLED = modelsOf(G);

// errorText is error e's message, or a stand-in (reading it runs no code
// of the program's but a getter's, caught).
export function errorText(e) {
  try {
    if (e !== null && typeof e === 'object' && typeof e.message === 'string') return e.message;
  } catch { /* ignore */ }
  return 'an error';
}
