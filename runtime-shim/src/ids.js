// Object ids (spec 2.0), stamped on the object itself as a private class
// field: a class whose base constructor returns the object it is given
// installs the field on that object. The field is invisible to
// Reflect.ownKeys, proxies, JSON.stringify and for-in, and reading it costs
// about as much as an ordinary property read. Objects that refuse the field
// fall back to a WeakMap.
//
// The same field marks the natives the shim models (Array.prototype.push,
// Map.prototype.set, ...): it holds -kind until such a native gets an id of
// its own (rare: a native used as a value), when the kind moves to a side
// table. A call hook thus learns both the callee's id and whether it is a
// modelled native from one field read (fieldOf).

import { SafeWeakMap, SafeMap, apply, getOwnPropertyDescriptor, getPrototypeOf, hasOwn, isArray, $Int32Array, typedArrayFill } from './natives.js';

const Return = function (o) { return o; };

// NOFIELD: what the getters below return for an object without the field
// (0 is a field's value too: an object looked at once and found to have no
// id, see miss).
const NOFIELD = -1073741824;

// A reader's id read is one probe of V8's property cache, o.#id in a try
// statement, where `#id in o ? o.#id : miss` is two: a use or write hook
// that sees more than four kinds of object (megamorphic) pays a stub-cache
// probe per operation, about 20 ns each here. An object without the field
// makes the one-probe read throw, which costs about 10 us (the engine
// makes a TypeError with its stack): tries[k] counts the misses reader k
// may still take that way (u0..u31 at 0..31, p0..p31 at 32..63, get at
// 64, useGet at 65, putGet at 66), after which it reads with two probes
// for good. Objects without the field reach the use and write readers
// rarely (regexps and proxies, kept in the fallback map; natives' results
// once), so most readers never turn; get, the shim's own reader (the ids
// of values written, declared and returned, a frame's this), reads them
// more often, and may turn.
const tries = new $Int32Array(67);
apply(typedArrayFill, tries, [16]);

// twoProbes makes every reader read with two probes from the start
// (MEMTRACE_TWO_PROBES=1: tests compare the traces).
export function twoProbes() {
  apply(typedArrayFill, tries, [0]);
}

class Stamp extends Return {
  #id;
  constructor(o, v) {
    super(o);
    this.#id = v;
  }
  static get(o) {
    if (tries[64] > 0) { try { return o.#id; } catch { tries[64]--; } } return #id in o ? o.#id : NOFIELD;
  }
  // useGet is get for the use hooks only: a separate function keeps their
  // type feedback apart from the shim's own lookups (functions, the global
  // object, literals being created), so that a monomorphic read loop stays
  // monomorphic in the hook too.
  static useGet(o) {
    if (tries[65] > 0) { try { return o.#id; } catch { tries[65]--; } } return #id in o ? o.#id : NOFIELD;
  }
  // putGet is get for property writes' objects (P).
  static putGet(o) {
    if (tries[66] > 0) { try { return o.#id; } catch { tries[66]--; } } return #id in o ? o.#id : NOFIELD;
  }
  // u0..u31: get for the use hooks G0..G31, p0..p31 for the write hooks
  // P0..P31; the instrumenter gives each site one of them (by the name of
  // the object, instrument.copyOf). V8 keeps the type feedback of the
  // field read per function, not per call site: through one getter, every
  // site's objects are one site's, which turns megamorphic (a hash probe
  // per read) as soon as a program reads fields of more than four kinds of
  // object anywhere; spread over 32 copies, most sites see one or two.
  // Each use reader reads functions' ids apart from other objects' (two
  // IC sites): start-up code reads constructors (Foo.prototype.m = ...)
  // through names that share copies with the names hot code reads
  // instances through, and a copy that had seen a function and an object
  // at start-up had two of V8's four maps left (Crypto's this_array, whose
  // arrays take three elements kinds: 15% of its CPU in the megamorphic
  // stubs). Arrays apart instead (Array.isArray) gained as much on Crypto
  // but cost NavierStokes about 8%; functions apart about 3%.
  static u0(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[0] > 0) { try { return o.#id; } catch { tries[0]--; } } return #id in o ? o.#id : NOFIELD; }
  static u1(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[1] > 0) { try { return o.#id; } catch { tries[1]--; } } return #id in o ? o.#id : NOFIELD; }
  static u2(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[2] > 0) { try { return o.#id; } catch { tries[2]--; } } return #id in o ? o.#id : NOFIELD; }
  static u3(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[3] > 0) { try { return o.#id; } catch { tries[3]--; } } return #id in o ? o.#id : NOFIELD; }
  static u4(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[4] > 0) { try { return o.#id; } catch { tries[4]--; } } return #id in o ? o.#id : NOFIELD; }
  static u5(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[5] > 0) { try { return o.#id; } catch { tries[5]--; } } return #id in o ? o.#id : NOFIELD; }
  static u6(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[6] > 0) { try { return o.#id; } catch { tries[6]--; } } return #id in o ? o.#id : NOFIELD; }
  static u7(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[7] > 0) { try { return o.#id; } catch { tries[7]--; } } return #id in o ? o.#id : NOFIELD; }
  static u8(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[8] > 0) { try { return o.#id; } catch { tries[8]--; } } return #id in o ? o.#id : NOFIELD; }
  static u9(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[9] > 0) { try { return o.#id; } catch { tries[9]--; } } return #id in o ? o.#id : NOFIELD; }
  static u10(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[10] > 0) { try { return o.#id; } catch { tries[10]--; } } return #id in o ? o.#id : NOFIELD; }
  static u11(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[11] > 0) { try { return o.#id; } catch { tries[11]--; } } return #id in o ? o.#id : NOFIELD; }
  static u12(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[12] > 0) { try { return o.#id; } catch { tries[12]--; } } return #id in o ? o.#id : NOFIELD; }
  static u13(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[13] > 0) { try { return o.#id; } catch { tries[13]--; } } return #id in o ? o.#id : NOFIELD; }
  static u14(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[14] > 0) { try { return o.#id; } catch { tries[14]--; } } return #id in o ? o.#id : NOFIELD; }
  static u15(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[15] > 0) { try { return o.#id; } catch { tries[15]--; } } return #id in o ? o.#id : NOFIELD; }
  static u16(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[16] > 0) { try { return o.#id; } catch { tries[16]--; } } return #id in o ? o.#id : NOFIELD; }
  static u17(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[17] > 0) { try { return o.#id; } catch { tries[17]--; } } return #id in o ? o.#id : NOFIELD; }
  static u18(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[18] > 0) { try { return o.#id; } catch { tries[18]--; } } return #id in o ? o.#id : NOFIELD; }
  static u19(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[19] > 0) { try { return o.#id; } catch { tries[19]--; } } return #id in o ? o.#id : NOFIELD; }
  static u20(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[20] > 0) { try { return o.#id; } catch { tries[20]--; } } return #id in o ? o.#id : NOFIELD; }
  static u21(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[21] > 0) { try { return o.#id; } catch { tries[21]--; } } return #id in o ? o.#id : NOFIELD; }
  static u22(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[22] > 0) { try { return o.#id; } catch { tries[22]--; } } return #id in o ? o.#id : NOFIELD; }
  static u23(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[23] > 0) { try { return o.#id; } catch { tries[23]--; } } return #id in o ? o.#id : NOFIELD; }
  static u24(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[24] > 0) { try { return o.#id; } catch { tries[24]--; } } return #id in o ? o.#id : NOFIELD; }
  static u25(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[25] > 0) { try { return o.#id; } catch { tries[25]--; } } return #id in o ? o.#id : NOFIELD; }
  static u26(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[26] > 0) { try { return o.#id; } catch { tries[26]--; } } return #id in o ? o.#id : NOFIELD; }
  static u27(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[27] > 0) { try { return o.#id; } catch { tries[27]--; } } return #id in o ? o.#id : NOFIELD; }
  static u28(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[28] > 0) { try { return o.#id; } catch { tries[28]--; } } return #id in o ? o.#id : NOFIELD; }
  static u29(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[29] > 0) { try { return o.#id; } catch { tries[29]--; } } return #id in o ? o.#id : NOFIELD; }
  static u30(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[30] > 0) { try { return o.#id; } catch { tries[30]--; } } return #id in o ? o.#id : NOFIELD; }
  static u31(o) { if (typeof o === 'function') return #id in o ? o.#id : NOFIELD; if (tries[31] > 0) { try { return o.#id; } catch { tries[31]--; } } return #id in o ? o.#id : NOFIELD; }
  static p0(o) { if (tries[32] > 0) { try { return o.#id; } catch { tries[32]--; } } return #id in o ? o.#id : NOFIELD; }
  static p1(o) { if (tries[33] > 0) { try { return o.#id; } catch { tries[33]--; } } return #id in o ? o.#id : NOFIELD; }
  static p2(o) { if (tries[34] > 0) { try { return o.#id; } catch { tries[34]--; } } return #id in o ? o.#id : NOFIELD; }
  static p3(o) { if (tries[35] > 0) { try { return o.#id; } catch { tries[35]--; } } return #id in o ? o.#id : NOFIELD; }
  static p4(o) { if (tries[36] > 0) { try { return o.#id; } catch { tries[36]--; } } return #id in o ? o.#id : NOFIELD; }
  static p5(o) { if (tries[37] > 0) { try { return o.#id; } catch { tries[37]--; } } return #id in o ? o.#id : NOFIELD; }
  static p6(o) { if (tries[38] > 0) { try { return o.#id; } catch { tries[38]--; } } return #id in o ? o.#id : NOFIELD; }
  static p7(o) { if (tries[39] > 0) { try { return o.#id; } catch { tries[39]--; } } return #id in o ? o.#id : NOFIELD; }
  static p8(o) { if (tries[40] > 0) { try { return o.#id; } catch { tries[40]--; } } return #id in o ? o.#id : NOFIELD; }
  static p9(o) { if (tries[41] > 0) { try { return o.#id; } catch { tries[41]--; } } return #id in o ? o.#id : NOFIELD; }
  static p10(o) { if (tries[42] > 0) { try { return o.#id; } catch { tries[42]--; } } return #id in o ? o.#id : NOFIELD; }
  static p11(o) { if (tries[43] > 0) { try { return o.#id; } catch { tries[43]--; } } return #id in o ? o.#id : NOFIELD; }
  static p12(o) { if (tries[44] > 0) { try { return o.#id; } catch { tries[44]--; } } return #id in o ? o.#id : NOFIELD; }
  static p13(o) { if (tries[45] > 0) { try { return o.#id; } catch { tries[45]--; } } return #id in o ? o.#id : NOFIELD; }
  static p14(o) { if (tries[46] > 0) { try { return o.#id; } catch { tries[46]--; } } return #id in o ? o.#id : NOFIELD; }
  static p15(o) { if (tries[47] > 0) { try { return o.#id; } catch { tries[47]--; } } return #id in o ? o.#id : NOFIELD; }
  static p16(o) { if (tries[48] > 0) { try { return o.#id; } catch { tries[48]--; } } return #id in o ? o.#id : NOFIELD; }
  static p17(o) { if (tries[49] > 0) { try { return o.#id; } catch { tries[49]--; } } return #id in o ? o.#id : NOFIELD; }
  static p18(o) { if (tries[50] > 0) { try { return o.#id; } catch { tries[50]--; } } return #id in o ? o.#id : NOFIELD; }
  static p19(o) { if (tries[51] > 0) { try { return o.#id; } catch { tries[51]--; } } return #id in o ? o.#id : NOFIELD; }
  static p20(o) { if (tries[52] > 0) { try { return o.#id; } catch { tries[52]--; } } return #id in o ? o.#id : NOFIELD; }
  static p21(o) { if (tries[53] > 0) { try { return o.#id; } catch { tries[53]--; } } return #id in o ? o.#id : NOFIELD; }
  static p22(o) { if (tries[54] > 0) { try { return o.#id; } catch { tries[54]--; } } return #id in o ? o.#id : NOFIELD; }
  static p23(o) { if (tries[55] > 0) { try { return o.#id; } catch { tries[55]--; } } return #id in o ? o.#id : NOFIELD; }
  static p24(o) { if (tries[56] > 0) { try { return o.#id; } catch { tries[56]--; } } return #id in o ? o.#id : NOFIELD; }
  static p25(o) { if (tries[57] > 0) { try { return o.#id; } catch { tries[57]--; } } return #id in o ? o.#id : NOFIELD; }
  static p26(o) { if (tries[58] > 0) { try { return o.#id; } catch { tries[58]--; } } return #id in o ? o.#id : NOFIELD; }
  static p27(o) { if (tries[59] > 0) { try { return o.#id; } catch { tries[59]--; } } return #id in o ? o.#id : NOFIELD; }
  static p28(o) { if (tries[60] > 0) { try { return o.#id; } catch { tries[60]--; } } return #id in o ? o.#id : NOFIELD; }
  static p29(o) { if (tries[61] > 0) { try { return o.#id; } catch { tries[61]--; } } return #id in o ? o.#id : NOFIELD; }
  static p30(o) { if (tries[62] > 0) { try { return o.#id; } catch { tries[62]--; } } return #id in o ? o.#id : NOFIELD; }
  static p31(o) { if (tries[63] > 0) { try { return o.#id; } catch { tries[63]--; } } return #id in o ? o.#id : NOFIELD; }
  // callGet is get for the call hooks' callee.
  // newGet: the this of a constructor call, which [[Construct]] has just
  // made: it has the field only when a field initializer gave it an id,
  // so the read is two probes from the start (selfIdOfNew).
  static newGet(o) {
    return #id in o ? o.#id : NOFIELD;
  }
  static callGet(o) {
    return #id in o ? o.#id : 0;
  }
  static has(o) {
    return #id in o;
  }
  static set(o, v) {
    o.#id = v;
  }
}

const fallback = new SafeWeakMap();
let fallbackCount = 0;
const kindById = new SafeMap(); // modelled natives that also have an id
let kindCount = 0;

// idOf returns the id of object o (typeof object, non-null, or function),
// or 0 if it has none.
export function idOf(o) {
  return withFallback(Stamp.get(o), o, true);
}

// useIdOf is idOf for G and method lookups.
export function useIdOf(o) {
  return withFallback(Stamp.useGet(o), o, true);
}

// useReaders and putReaders: Stamp.u0.., Stamp.p0.. (their results go
// through stampedId).
export const useReaders = [Stamp.u0, Stamp.u1, Stamp.u2, Stamp.u3, Stamp.u4, Stamp.u5, Stamp.u6, Stamp.u7, Stamp.u8, Stamp.u9, Stamp.u10, Stamp.u11, Stamp.u12, Stamp.u13, Stamp.u14, Stamp.u15, Stamp.u16, Stamp.u17, Stamp.u18, Stamp.u19, Stamp.u20, Stamp.u21, Stamp.u22, Stamp.u23, Stamp.u24, Stamp.u25, Stamp.u26, Stamp.u27, Stamp.u28, Stamp.u29, Stamp.u30, Stamp.u31];
export const putReaders = [Stamp.p0, Stamp.p1, Stamp.p2, Stamp.p3, Stamp.p4, Stamp.p5, Stamp.p6, Stamp.p7, Stamp.p8, Stamp.p9, Stamp.p10, Stamp.p11, Stamp.p12, Stamp.p13, Stamp.p14, Stamp.p15, Stamp.p16, Stamp.p17, Stamp.p18, Stamp.p19, Stamp.p20, Stamp.p21, Stamp.p22, Stamp.p23, Stamp.p24, Stamp.p25, Stamp.p26, Stamp.p27, Stamp.p28, Stamp.p29, Stamp.p30, Stamp.p31];

// stampedId is idOf for what one of the readers read from o.
export function stampedId(v, o) {
  return withFallback(v, o, true);
}

// putIdOf is idOf for the objects P writes to.
export function putIdOf(o) {
  return withFallback(Stamp.putGet(o), o, true);
}

// idOfNew is idOf for an object that gets an id (create) when it has
// none: nothing is remembered about it (the id will be).
export function idOfNew(o) {
  return withFallback(Stamp.get(o), o, false);
}

// selfIdOf is idOfNew for a frame's this: the id, negated when it is kept
// in the fallback map (a proxy's, a regexp's): an id on the field is never
// a proxy's (setId), so a write to this need not test for one.
export function selfIdOf(o) {
  const v = Stamp.get(o);
  return v > 0 ? v : -withFallback(v, o, false);
}

// selfIdOfNew is selfIdOf for the this of a constructor call: an object
// [[Construct]] has just made, which is no proxy and no function's
// prototype object (claimProto), and most often has no field yet. Through
// get, those misses (EarleyBoyer: 9.3 M constructions of sc_Pair) turned
// the shim's own reader to two probes for good (see tries).
export function selfIdOfNew(o) {
  const v = Stamp.newGet(o);
  if (v > 0) return v;
  if (v !== NOFIELD || fallbackCount === 0) return 0;
  const f = fallback.get(o);
  return f === undefined ? 0 : -f;
}

// peekId is o's id as far as it has one already: a prototype object that
// has not reached the shim yet is not looked at (see claimProto).
export function peekId(o) {
  const v = Stamp.get(o);
  if (v > 0) return v;
  if (v !== NOFIELD || fallbackCount === 0) return 0;
  const f = fallback.get(o);
  return f === undefined ? 0 : f;
}

// withFallback completes a field read v of o: an id, or, for an object
// without the field, what miss finds, or 0.
function withFallback(v, o, memo) {
  if (v > 0) return v;
  if (v !== NOFIELD) return 0; // 0, or a modelled native's -kind
  return miss(o, memo);
}

// miss is the id of an object without the field: its id in the fallback
// map, or the id its function reserved if it is the prototype object of an
// instrumented function that has not reached the shim yet (claimProto), or
// 0. memo: remember a 0 on the object.
function miss(o, memo) {
  if (fallbackCount !== 0) {
    const f = fallback.get(o);
    if (f !== undefined) return f;
  }
  // functions and arrays are never such prototypes (Array.isArray throws
  // on a revoked proxy: proxies go to claimProto, which reads none)
  if (pendingProtos === 0 || typeof o !== 'object' || (!isProxy(o) && isArray(o))) return 0;
  return claimProto(o, memo);
}

// fieldOf returns a callee's field: its id (> 0), -kind for a modelled
// native without an id, or 0. Ids kept in the fallback map are returned
// too; kindOf gives the kind of a positive result.
export function fieldOf(f) {
  const v = Stamp.callGet(f);
  if (v !== 0 || fallbackCount === 0) return v;
  const x = fallback.get(f);
  return x === undefined ? 0 : x;
}

// Prototype objects of instrumented functions (MemInsight: the prototype
// of function id is id+1, announced by CREATE_FUN). V8 makes a function's
// prototype object only when something reads it, and most functions never
// have theirs read (callbacks, methods); reading it at the literal to give
// it its id would make every one (about 350 bytes and a dictionary-mode
// object each). So a function literal that has an ordinary prototype only
// reserves the id (setFunInfo's proto, pendingProtos counts them), and the
// object gets it when it first reaches the shim without an id (miss): an
// object whose own data property constructor is such a function f, with
// f.prototype === o, is f's original prototype. This needs a test for
// proxies that runs no trap (isProxy, Node's util.types.isProxy); without
// one (setProxyTest), or unless enableLazyProtos is called, prototypes
// get their ids at the literal.
let pendingProtos = 0;
let isProxy = null;
let lazy = false;
const RegExpPrototype = RegExp.prototype;

// setProxyTest gives the shim a test for proxies that runs no trap.
export function setProxyTest(p) {
  isProxy = p;
}

// enableLazyProtos turns the lazy scheme on (with a proxy test only).
export function enableLazyProtos() {
  lazy = isProxy !== null;
}

// proxy reports whether o (an object) is a proxy, when the test exists
// (else false).
export function proxy(o) {
  return isProxy !== null && isProxy(o);
}

// lazyProtos reports whether prototypes may get their ids lazily.
export function lazyProtos() {
  return lazy;
}

// claimProto is miss for an object o without an id: the id reserved for o
// if it is the original prototype object of an instrumented function, or
// 0. The answer is remembered on o (the field, or the fallback map for
// regexps and objects that refuse fields), so that each object is looked
// at once; a 0 only when memo is set (else the caller gives o an id).
function claimProto(o, memo) {
  let id = 0;
  // A proxy's properties cannot be read without running its traps.
  const plain = !isProxy(o);
  // (Exotic objects may throw: a module namespace whose export named
  // constructor is not initialized yet.)
  let d;
  try {
    d = plain && hasOwn(o, 'constructor') ? getOwnPropertyDescriptor(o, 'constructor') : undefined;
  } catch {
    d = undefined;
  }
  if (d !== undefined && hasOwn(d, 'value')) {
    const c = d.value;
    if (typeof c === 'function') {
      const p = FunInfo.proto(c);
      // c is an instrumented function: reading its prototype runs no code
      if (p > 0 && c.prototype === o) {
        FunInfo.setProto(c, 0);
        pendingProtos--;
        id = p;
      }
    }
  }
  if (id === 0 && !memo) return 0;
  if (!plain || getPrototypeOf(o) === RegExpPrototype) {
    fallback.set(o, id); // a field would slow the regexp down (setId)
    fallbackCount++;
    return id;
  }
  try {
    new Stamp(o, id);
  } catch {
    fallback.set(o, id);
    fallbackCount++;
  }
  return id;
}

// kindOf is the model kind of the object with id id (0: none).
export function kindOf(id) {
  if (kindCount === 0) return 0;
  const k = kindById.get(id);
  return k === undefined ? 0 : k;
}

// RegExp objects keep their id in the fallback map: a private field
// changes a regexp's hidden class, and V8 then takes the slow, generic path
// for every exec, replace, match and split on it (about 8X slower). The
// caller says when o may be a regexp (a fresh literal, whose prototype can
// be read without reaching a proxy's trap); the brand check below calls no
// trap either.
const RegExpProto = RegExp.prototype;
const sourceGetter = getOwnPropertyDescriptor(RegExpProto, 'source').get;
function isRegExp(o) {
  try {
    apply(sourceGetter, o, []);
    return o !== RegExpProto;
  } catch {
    return false;
  }
}

// setId gives o the id; o must not have one. re: o may be a RegExp. It
// reports whether the id is on the field (else in the fallback map).
export function setId(o, id, re) {
  if (re === true && isRegExp(o)) {
    fallback.set(o, id);
    fallbackCount++;
    return false;
  }
  if (Stamp.has(o)) {
    const v = Stamp.get(o);
    if (v < 0) {
      kindById.set(id, -v);
      kindCount++;
    }
    Stamp.set(o, id);
    return true;
  }
  // A proxy keeps its id in the fallback map: an id read from the field is
  // then never a proxy's, which saves P the proxy test for every write to
  // an object with the field. re === 2: a literal, never a proxy.
  if (re !== 2 && isProxy !== null && isProxy(o)) {
    fallback.set(o, id);
    fallbackCount++;
    return false;
  }
  try {
    new Stamp(o, id);
  } catch {
    fallback.set(o, id);
    fallbackCount++;
    return false;
  }
  return true;
}

export function markNative(f, kind) {
  if (typeof f === 'function') {
    try { new Stamp(f, -kind); } catch { /* leave it unmodelled */ }
  }
}

// nativeKind is the model kind of function f (0: none).
export function nativeKind(f) {
  const v = fieldOf(f);
  return v < 0 ? -v : v > 0 ? kindOf(v) : 0;
}

// What the shim keeps about an instrumented function lives on the function
// itself, in private fields, and goes with it: its function-enter iid (0:
// none, not instrumented code) and the global iid of the literal that made
// it. (Tables by id kept a slot for every function ever created: a
// closure-heavy program's memory grew with its closures.) Functions that
// refuse fields keep them in a WeakMap.
class FunInfo extends Return {
  #fe;
  #lit;
  #script;
  #proto;
  constructor(f, fe, lit, h, proto) {
    super(f);
    this.#fe = fe;
    this.#lit = lit;
    this.#script = h;
    this.#proto = proto;
  }
  static proto(f) {
    return #proto in f ? f.#proto : 0;
  }
  static setProto(f, v) {
    f.#proto = v;
  }
  static script(f) {
    return #script in f ? f.#script : undefined;
  }
  static fe(f) {
    return #fe in f ? f.#fe : -1;
  }
  static lit(f) {
    return #lit in f ? f.#lit : -1;
  }
  static setFe(f, v) {
    if (#fe in f) {
      f.#fe = v;
      return true;
    }
    return false;
  }
}
const funFallback = new SafeWeakMap(); // f -> [fe, lit, script]
let funFallbackCount = 0;

// setFunInfo records f's function-enter iid, literal site and script
// handle, and proto, the id reserved for its prototype object when that
// object gets it lazily (0: none, see claimProto).
export function setFunInfo(f, fe, lit, h, proto) {
  if (FunInfo.setFe(f, fe)) {
    // a second literal evaluation cannot happen for one function object;
    // keep the first site (no id is reserved lazily for its prototype)
    return false;
  }
  try {
    new FunInfo(f, fe, lit, h, proto);
    if (proto > 0) pendingProtos++;
  } catch {
    funFallback.set(f, [fe, lit, h]);
    funFallbackCount++;
    // a function that refuses fields cannot be found from its prototype:
    // the caller gives the prototype its id now
    return false;
  }
  return true;
}

// funFe is f's function-enter iid (0: not instrumented, or unknown).
export function funFe(f) {
  const v = FunInfo.fe(f);
  if (v >= 0) return v;
  if (funFallbackCount === 0) return 0;
  const x = funFallback.get(f);
  return x === undefined ? 0 : x[0];
}

// funLit is the global iid of the literal that made f (0: unknown).
export function funLit(f) {
  const v = FunInfo.lit(f);
  if (v >= 0) return v;
  if (funFallbackCount === 0) return 0;
  const x = funFallback.get(f);
  return x === undefined ? 0 : x[1];
}

// funScript is the handle of the script whose literal made f (undefined:
// unknown).
export function funScript(f) {
  const h = FunInfo.script(f);
  if (h !== undefined || funFallbackCount === 0) return h;
  const x = funFallback.get(f);
  return x === undefined ? undefined : x[2];
}
