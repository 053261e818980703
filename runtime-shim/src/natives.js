// Natives the shim relies on, captured when it loads so that a program
// that patches them later cannot change the shim's behaviour.

import { K_RESULT, K_REWRITE, K_ENTRIES } from './consts.js';

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

// Natives whose models are the generic ones (docs/natives.md), by where
// they live: [global, 1 when on its prototype, property, kind]. The main
// realm's are captured when the shim loads (MODELLED); installRealm
// resolves the same table against another realm's global object.
export const MODEL_TABLE = [
  ['Array', 1, 'filter', K_RESULT], ['Array', 1, 'map', K_RESULT], ['Array', 1, 'flat', K_RESULT],
  ['Array', 1, 'flatMap', K_RESULT], ['Array', 1, 'slice', K_RESULT], ['Array', 1, 'toSorted', K_RESULT],
  ['Array', 1, 'toReversed', K_RESULT], ['Array', 1, 'toSpliced', K_RESULT], ['Array', 1, 'with', K_RESULT],
  ['Array', 0, 'of', K_RESULT], ['Object', 0, 'values', K_RESULT],
  ['Array', 1, 'reverse', K_REWRITE], ['Array', 1, 'sort', K_REWRITE], ['Array', 1, 'fill', K_REWRITE],
  ['Array', 1, 'copyWithin', K_REWRITE],
  ['Object', 0, 'entries', K_ENTRIES],
];

// modelsOf resolves MODEL_TABLE against global object g: [function, kind]
// pairs, reading only own data properties (nothing a program defined as
// an accessor runs).
export function modelsOf(g) {
  const get = (o, k) => {
    try {
      const d = o !== null && (typeof o === 'object' || typeof o === 'function') ? getOwnPropertyDescriptor(o, k) : undefined;
      return d !== undefined ? d.value : undefined;
    } catch {
      return undefined;
    }
  };
  const r = [];
  for (let j = 0; j < MODEL_TABLE.length; j++) {
    const [name, onProto, key, kind] = MODEL_TABLE[j];
    let o = get(g, name);
    if (onProto === 1) o = get(o, 'prototype');
    const f = get(o, key);
    if (typeof f === 'function') r[r.length] = [f, kind];
  }
  return r;
}
export const MODELLED = modelsOf(G);
