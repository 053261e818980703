// Object ids (spec 2.0), stamped on the object itself as a private class
// field: a class whose base constructor returns the object it is given
// installs the field on that object. The field is invisible to
// Reflect.ownKeys, proxies, JSON.stringify and for-in, and reading it costs
// about as much as an ordinary property read. Objects that refuse the field
// fall back to a WeakMap.

import { SafeWeakMap } from './natives.js';

const Return = function (o) { return o; };

class Stamp extends Return {
  #id;
  constructor(o, id) {
    super(o);
    this.#id = id;
  }
  static id(o) {
    return #id in o ? o.#id : 0;
  }
  // useId is id for the use hooks only: a separate function keeps their
  // type feedback apart from the shim's own lookups (functions, the global
  // object, literals being created), so that a monomorphic read loop stays
  // monomorphic in the hook too.
  static useId(o) {
    return #id in o ? o.#id : 0;
  }
}

// Marks the natives the shim models, with a private field too, so that
// recognising one costs a field check per call.
class Mark extends Return {
  #kind;
  constructor(o, kind) {
    super(o);
    this.#kind = kind;
  }
  static kind(o) {
    return #kind in o ? o.#kind : 0;
  }
}

const fallback = new SafeWeakMap();
let fallbackCount = 0;

// idOf returns the id of object o (typeof object, non-null, or function),
// or 0 if it has none.
export function idOf(o) {
  const id = Stamp.id(o);
  if (id !== 0 || fallbackCount === 0) return id;
  const v = fallback.get(o);
  return v === undefined ? 0 : v;
}

// useIdOf is idOf for G and method lookups.
export function useIdOf(o) {
  const id = Stamp.useId(o);
  if (id !== 0 || fallbackCount === 0) return id;
  const v = fallback.get(o);
  return v === undefined ? 0 : v;
}

// setId gives o the id; o must not have one.
export function setId(o, id) {
  try {
    new Stamp(o, id);
  } catch {
    fallback.set(o, id);
    fallbackCount++;
  }
}

export function markNative(f, kind) {
  if (typeof f === 'function') {
    try { new Mark(f, kind); } catch { /* leave it unmodelled */ }
  }
}

export function nativeKind(f) {
  return Mark.kind(f);
}
