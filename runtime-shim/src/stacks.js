// Stack traces: a call hook runs its callee inside itself, so every stack
// the program captures would show the shim's frames between its own
// (`at gn.c1 (…/shim.js:3:25719)`), and code that picks a frame by its
// index (get-caller-file, depd, callsites) would pick the shim. Where the
// engine formats stacks through Error.prepareStackTrace (Node 20 and later:
// its default formatter is that property's value), the shim leaves its own
// frames out: the property becomes an accessor whose value, the program's
// function or Node's default, is given the frames without the shim's.

import { apply, defineProperty, getOwnPropertyDescriptor, hasOwn, isArray, SafeSet, SafeWeakMap } from './natives.js';

// Files all of whose frames are memtrace's (memtrace node's preload).
const hiddenFiles = new SafeSet();

// hideFile hides every frame of the file name (__mt.hideFrames).
export function hideFile(name) {
  if (typeof name === 'string' && name !== '') hiddenFiles.add(name);
}

// hideShimFrames installs the filter on the Error constructor E; the
// shim's code is the lines of its file up to its caller's (the last
// statement of install), which it finds from its own stack.
export function hideShimFrames(E) {
  if (typeof E !== 'function' || typeof E.captureStackTrace !== 'function') return false;
  const d = getOwnPropertyDescriptor(E, 'prepareStackTrace');
  if (d === undefined || !hasOwn(d, 'value') || typeof d.value !== 'function' || !d.configurable || !d.writable) return false;
  let frames;
  try {
    E.prepareStackTrace = (_, s) => s;
    const o = {};
    apply(E.captureStackTrace, E, [o]);
    frames = o.stack;
  } catch {
    frames = undefined;
  } finally {
    E.prepareStackTrace = d.value;
  }
  if (!isArray(frames) || frames.length < 2) return false;
  const getFileName = frames[0].getFileName, getLineNumber = frames[0].getLineNumber;
  const getSourceURL = frames[0].getScriptNameOrSourceURL;
  if (typeof getFileName !== 'function' || typeof getLineNumber !== 'function') return false;
  // A file's name, or the sourceURL of code evaluated from a string (the
  // shim installed by (0,eval)(…), runtimeshim.EvalLiteral).
  const where = (c) => {
    const f = apply(getFileName, c, []);
    return f !== undefined || typeof getSourceURL !== 'function' ? f : apply(getSourceURL, c, []);
  };
  const file = where(frames[0]);
  const l0 = apply(getLineNumber, frames[0], []), l1 = apply(getLineNumber, frames[1], []);
  if (typeof file !== 'string' || file === '' || where(frames[1]) !== file || !(l1 > 0)) return false;
  const last = l0 > l1 ? l0 : l1;

  isShim = function (c) {
    try {
      const f = where(c);
      return f === file ? apply(getLineNumber, c, []) <= last : typeof f === 'string' && hiddenFiles.has(f);
    } catch {
      return false;
    }
  };
  guard(E, d.value, d.enumerable);
  return true;
}

// isShim tells a frame of the shim's (hideShimFrames sets it).
let isShim;

// hideRealmFrames installs the filter on the Error constructor E of
// another realm (a vm context whose code memtrace instruments): Node
// formats an error of that realm through its own Error.prepareStackTrace
// when the program sets one (a test runner's source-map support), and
// through the main realm's otherwise (filtered already).
export function hideRealmFrames(E) {
  if (isShim === undefined || typeof E !== 'function') return false;
  const d = getOwnPropertyDescriptor(E, 'prepareStackTrace');
  if (d !== undefined && (!hasOwn(d, 'value') || !d.configurable || !d.writable)) return false;
  guard(E, d !== undefined ? d.value : undefined, d !== undefined && d.enumerable);
  return true;
}

// strip leaves the shim's frames out, and keeps at most
// E.stackTraceLimit frames (an error made through a call hook is
// captured with a higher limit: index.js, errorMade).
function strip(E, trace) {
  if (!isArray(trace)) return trace;
  let n = 0;
  for (let k = 0; k < trace.length; k++) if (isShim(trace[k])) n++;
  let lim = E.stackTraceLimit;
  if (typeof lim !== 'number' || !(lim >= 0)) lim = Infinity;
  if (n === 0 && trace.length <= lim) return trace;
  const out = [];
  for (let k = 0; k < trace.length && out.length < lim; k++) if (!isShim(trace[k])) out[out.length] = trace[k];
  return out;
}

// guard makes E.prepareStackTrace an accessor whose value, initially
// initial, is given the frames without the shim's.
function guard(E, initial, enumerable) {
  // The program sees the function it set (or Node's default) as a wrapper
  // of the same name and length, one per function, which an assignment
  // maps back: saving and restoring the property keeps working.
  let current = initial;
  const wrapperOf = new SafeWeakMap();
  const wrapped = new SafeWeakMap();
  function wrap(f) {
    let w = wrapperOf.get(f);
    if (w === undefined) {
      w = function (error, trace) {
        return apply(f, this, [error, strip(E, trace)]);
      };
      try {
        defineProperty(w, 'name', { value: f.name, configurable: true });
        defineProperty(w, 'length', { value: f.length, configurable: true });
      } catch { /* a name or length that throws: the wrapper's own */ }
      wrapperOf.set(f, w);
      wrapped.set(w, f);
    }
    return w;
  }
  defineProperty(E, 'prepareStackTrace', {
    get() {
      return typeof current === 'function' ? wrap(current) : current;
    },
    set(v) {
      const f = typeof v === 'function' ? wrapped.get(v) : undefined;
      current = f !== undefined ? f : v;
    },
    enumerable,
    configurable: true,
  });
}
