// Stack traces: a call hook runs its callee inside itself, so every stack
// the program captures would show the shim's frames between its own
// (`at gn.c1 (…/shim.js:3:25719)`), and code that picks a frame by its
// index (get-caller-file, depd, callsites) would pick the shim. Where the
// engine formats stacks through Error.prepareStackTrace (Node 20 and later:
// its default formatter is that property's value), the shim leaves its own
// frames out: the property becomes an accessor whose value, the program's
// function or Node's default, is given the frames without the shim's.

import { apply, arraySlice, defineProperty, getOwnPropertyDescriptor, hasOwn, isArray, regExpExec, SafeSet, SafeWeakMap, strIndexOf, strSlice } from './natives.js';

const strLastIndexOf = String.prototype.lastIndexOf;
const PST = 'prepareStackTrace';

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
  const d = getOwnPropertyDescriptor(E, PST);
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

// The program's Error.stackTraceLimit. The engine captures that many
// frames when it makes an error, counting the shim's (a call hook's frame
// lies under each call of the program's), and the filter could not give
// back those it left out: a TypeError the engine threw ten calls deep
// showed five of the program's frames. So the main realm's limit L is
// kept raised (raised(L): 4L + 4, as the shim's own captures raise it),
// the filter keeps L of the program's frames, and the program reads and
// writes L: the instrumenter gives reads and writes of a property named
// stackTraceLimit hooks of their own (Gl, Pl: index.js), and a value
// written without them (reflection, uninstrumented code) is taken for the
// program's when the shim next meets it (programLimit).
let limitE; // the Error constructor whose limit is raised
let limitView; // the program's limit
let limitReal; // the value the shim left in the property
let limitHeld = 0; // the shim has the property for one of its own captures

// holdLimit brackets the shim's own changes of E's limit (d: 1 before,
// -1 after): meanwhile the property is not the program's.
export function holdLimit(d) {
  limitHeld += d;
}

function raised(l) {
  return typeof l === 'number' && l > 0 && l < 1e4 ? 4 * l + 4 : l;
}

// The raised values the property held and the program's limits they
// stood for, the last few: a read the instrumenter did not give Gl
// (destructuring, Reflect.get, a descriptor, uninstrumented code) sees
// the raised value, and a program that saves the limit that way and
// restores it (const { stackTraceLimit } = Error; ...; Error.stackTraceLimit
// = stackTraceLimit, around JSON.parse in fastify's body parser) writes
// back a raised value, which was raised again at every save and restore:
// 10, 44, 180, 724 across four requests. Such a value restores the limit
// it stood for.
const SEEN = 4;
const seenReal = [];
const seenView = [];
let seenNext = 0;
function unraise(l) {
  for (let k = 0; k < seenReal.length; k++) {
    if (seenReal[k] === l) return seenView[k];
  }
  return l;
}

function adopt(E, l) {
  l = unraise(l);
  limitView = l;
  limitReal = l;
  const up = raised(l);
  if (up === l) return;
  try {
    // A writable data property only: an accessor of the program's would
    // run (its setter would see the raised value).
    const d = getOwnPropertyDescriptor(E, 'stackTraceLimit');
    if (d === undefined || !hasOwn(d, 'value') || !d.writable) return;
    E.stackTraceLimit = up;
    if (E.stackTraceLimit === up) {
      limitReal = up;
      seenReal[seenNext] = up;
      seenView[seenNext] = l;
      seenNext = (seenNext + 1) % SEEN;
    }
  } catch { /* the shim's frames count */ }
}

// raiseLimit raises E's limit (hideShimFrames installed the filter on E).
export function raiseLimit(E) {
  limitE = E;
  adopt(E, E.stackTraceLimit);
}

// programLimit returns E's limit as the program set it.
export function programLimit(E) {
  const l = E.stackTraceLimit;
  if (E !== limitE) return l;
  if (limitHeld === 0 && l !== limitReal && (l === l || limitReal === limitReal)) adopt(E, l);
  return limitView;
}

// limitWritten: the program wrote v to E.stackTraceLimit (Pl), which
// took when the property holds v now.
export function limitWritten(E, v) {
  if (E !== limitE) return;
  const l = E.stackTraceLimit;
  if (l === v || (l !== l && v !== v)) adopt(E, l);
}

// limitRaised reports whether E's limit is kept raised (the shim's
// captures need not raise it again).
export function limitRaised(E) {
  return E === limitE && limitReal !== limitView;
}

// hideRealmFrames installs the filter on the Error constructor E of
// another realm (a vm context whose code memtrace instruments): Node
// formats an error of that realm through its own Error.prepareStackTrace
// when the program sets one (a test runner's source-map support), and
// through the main realm's otherwise (filtered already).
export function hideRealmFrames(E) {
  if (isShim === undefined || typeof E !== 'function') return false;
  const d = getOwnPropertyDescriptor(E, PST);
  if (d !== undefined && (!hasOwn(d, 'value') || !d.configurable || !d.writable)) return false;
  guard(E, d !== undefined ? d.value : undefined, d !== undefined && d.enumerable);
  return true;
}

// strip leaves the shim's frames out, and keeps at most
// E.stackTraceLimit frames (an error made through a call hook is
// captured with a higher limit: index.js, errorMade); frames in
// instrumented code get the columns of the original (mapFrame).
function strip(E, trace) {
  if (!isArray(trace)) return trace;
  let n = 0;
  let prevShim = true;
  for (let k = trace.length - 1; k >= 0; k--) {
    const shim = isShim(trace[k]);
    if (shim) n++;
    else if (prevShim && k + 1 < trace.length) {
      // The program's frame just above one of the shim's.
      const t = timerCallback(trace[k], trace[k + 1]);
      if (t !== trace[k]) {
        trace = apply(arraySlice, trace, []);
        trace[k] = t;
      }
    }
    prevShim = shim;
  }
  let lim = programLimit(E);
  if (typeof lim !== 'number' || !(lim >= 0)) lim = Infinity;
  let out = trace;
  if (n !== 0 || trace.length > lim) {
    out = [];
    for (let k = 0; k < trace.length && out.length < lim; k++) if (!isShim(trace[k])) out[out.length] = trace[k];
  }
  if (frameMap === undefined) return out;
  let copied = out !== trace;
  for (let k = 0; k < out.length; k++) {
    const m = mapFrame(out[k]);
    if (m !== out[k]) {
      if (!copied) {
        out = apply(arraySlice, out, []);
        copied = true;
      }
      out[k] = m;
    }
  }
  return out;
}

// timerCallback returns CallSite c (the program's, whose caller w is the
// shim's), or when w is the shim's wrapper of a setTimeout callback
// (index.js, named __mt$timer), which Node calls as timer._onTimeout(), c
// named as the engine names a callback called that way: Timeout._onTimeout,
// Timeout.named [as _onTimeout] (the callback itself is not on the timer,
// so the engine found no method name for it: Timeout.<anonymous>).
function timerCallback(c, w) {
  try {
    if (w.getFunctionName() !== '__mt$timer') return c;
    const method = w.getMethodName();
    if (typeof method !== 'string' || method === '' || c.getMethodName() !== null || c.getTypeName() !== w.getTypeName()) return c;
    const fn = c.getFunctionName();
    const name = typeof fn === 'string' && fn !== '' ? fn : method;
    // Its position stays c's (mapFrame maps it).
    return new MappedSite(c, undefined, undefined, undefined, undefined, undefined, false, undefined, name, method);
  } catch {
    return c;
  }
}

// frameMap(file) returns the column map of the instrumented script named
// file (index.js, posMapOf), or undefined (setFrameMap).
let frameMap;
// evalFrame(c) returns, for a frame in run-time code the shim instrumented,
// [map, origin, made by a function constructor] (index.js), or undefined.
let evalFrame;
export function setFrameMap(f, ef) {
  frameMap = f;
  evalFrame = ef;
}

// mapOrigin maps the position at the end of an eval origin ("eval at f
// (file:line:col)") through file's map.
function mapOrigin(origin) {
  const m = /^(.*\()([^()]*):(\d+):(\d+)(\))$/;
  const r = apply(regExpExec, m, [origin]);
  if (r === null) return origin;
  const fm = frameMap(r[2]);
  if (fm === undefined) return origin;
  const [l, c] = fm(+r[3], +r[4]);
  return r[1] + r[2] + ':' + l + ':' + c + r[5];
}
let mapping = false;
// The methods of a CallSite, which a mapped frame forwards to it.
const siteMethods = ['getThis', 'getTypeName', 'getFunction', 'getFunctionName', 'getMethodName', 'getFileName',
  'getLineNumber', 'getColumnNumber', 'getEvalOrigin', 'isToplevel', 'isEval', 'isNative', 'isConstructor', 'isAsync',
  'isPromiseAll', 'getPromiseIndex', 'getScriptNameOrSourceURL', 'getScriptHash', 'getEnclosingColumnNumber',
  'getEnclosingLineNumber', 'getPosition', 'toString'];

// MappedSite is a frame the filter gives other answers than CallSite c's:
// the original's line and column (line, col: c's; toLine, to: the
// original's; undefined: c's own, a timer callback's frame, which mapFrame
// maps later), the eval origin, the function's name (fn) and the names its
// text shows (name, method: namedAs) that the hooks hid from V8. One
// object per frame, its methods on its prototype as a CallSite's are (code
// that copies a frame's methods from the prototype finds them: source-map-
// support's cloneCallSite), a method needing the frame as its receiver as
// a CallSite's does. (Before: a closure per method and frame, and a weak
// set of the frames made: a third of the time of a program that formats
// many stacks went to the collector.)
class MappedSite {
  #c; #line; #col; #toLine; #to; #origin; #evalFn; #fn; #name; #method;
  constructor(c, line, col, toLine, to, origin, evalFn, fn, name, method) {
    this.#c = c;
    this.#line = line;
    this.#col = col;
    this.#toLine = toLine;
    this.#to = to;
    this.#origin = origin;
    this.#evalFn = evalFn;
    this.#fn = fn;
    this.#name = name;
    this.#method = method;
  }
  // mapped reports a frame given the original's position already.
  static mapped(x) {
    return x !== null && typeof x === 'object' && #c in x && x.#line !== undefined;
  }
  static site(x) {
    return x.#c;
  }
  getLineNumber() { return this.#line !== undefined ? this.#toLine : this.#c.getLineNumber(); }
  getColumnNumber() { return this.#line !== undefined ? this.#to : this.#c.getColumnNumber(); }
  // A function constructor's function: the engine names its frames
  // "eval" (the shim's is named "anonymous" by the literal that makes it).
  getFunctionName() {
    if (this.#fn !== undefined) return this.#fn;
    const n = this.#c.getFunctionName();
    return this.#evalFn && n === 'anonymous' ? 'eval' : n;
  }
  getMethodName() {
    return this.#name !== undefined ? this.#method : this.#c.getMethodName();
  }
  getEvalOrigin() {
    return this.#origin !== undefined ? this.#origin : this.#c.getEvalOrigin();
  }
  toString() {
    const c = this.#c;
    let t = c.toString();
    if (this.#line !== undefined) {
      const suffix = ':' + this.#line + ':' + this.#col;
      const at = apply(strLastIndexOf, t, [suffix]);
      if (at >= 0) t = apply(strSlice, t, [0, at]) + ':' + this.#toLine + ':' + this.#to + apply(strSlice, t, [at + suffix.length]);
    }
    const origin = this.#origin, evalOrigin = origin !== undefined ? c.getEvalOrigin() : undefined;
    if (origin !== undefined && typeof evalOrigin === 'string') {
      const k = apply(strIndexOf, t, [evalOrigin]);
      if (k >= 0) t = apply(strSlice, t, [0, k]) + origin + apply(strSlice, t, [k + evalOrigin.length]);
    }
    if (this.#evalFn && c.getFunctionName() === 'anonymous' && apply(strSlice, t, [0, 11]) === 'anonymous (') t = 'eval (' + apply(strSlice, t, [11]);
    if (this.#name !== undefined) t = namedAs(c, this.#name, this.#method, t);
    return t;
  }
}
// The other methods are c's.
for (let k = 0; k < siteMethods.length; k++) {
  const name = siteMethods[k];
  if (hasOwn(MappedSite.prototype, name)) continue;
  defineProperty(MappedSite.prototype, name, {
    value: function () {
      const c = MappedSite.site(this);
      const f = c[name];
      return typeof f === 'function' ? apply(f, c, arguments) : undefined; // (an engine without it)
    },
    writable: true,
    configurable: true,
  });
}

// mapFrame returns CallSite c, or when it is in instrumented code whose
// map is known and its position is not the original's, an object with c's
// methods whose getLineNumber, getColumnNumber and toString give the
// original's.
function mapFrame(c) {
  // (A frame mapped already: a program's function that calls the one it
  // replaced, which the shim wraps too, gets the frames a second time.)
  if (mapping || MappedSite.mapped(c)) return c;
  mapping = true;
  try {
    const file = c.getFileName();
    let m, origin, evalFn = false;
    if (typeof file === 'string') {
      m = frameMap(file);
    } else if (evalFrame !== undefined && c.isEval()) {
      // Run-time code: its map, and where the program made it.
      const ef = evalFrame(c);
      if (ef !== undefined) {
        m = ef[0];
        origin = ef[1];
        evalFn = ef[2];
      }
      const o = c.getEvalOrigin();
      if (typeof o === 'string') {
        const mapped = origin !== undefined ? origin : mapOrigin(o);
        origin = mapped !== o ? mapped : undefined;
      }
    }
    if (m === undefined && origin === undefined) return c;
    const line = c.getLineNumber(), col = c.getColumnNumber();
    if (typeof line !== 'number' || typeof col !== 'number') return c;
    const [toLine, to] = m !== undefined ? m(line, col) : [line, col];
    // The name V8 infers for a function stored by "o.m = function () {}",
    // which the hook around the literal hid: found by where the frame's
    // function begins.
    let inferred;
    const fnName = c.getFunctionName();
    if (m !== undefined && m.inferredName !== undefined && (fnName === null || fnName === '') && typeof c.getEnclosingLineNumber === 'function') {
      const el = c.getEnclosingLineNumber(), ec = c.getEnclosingColumnNumber();
      if (typeof el === 'number' && typeof ec === 'number') {
        const [ol, oc] = m(el, ec);
        inferred = m.inferredName(ol, oc);
      }
    }
    if (to === col && toLine === line && origin === undefined && inferred === undefined) return c;
    let method;
    if (inferred !== undefined) {
      // V8 finds a method's name through the function's name: the
      // inferred name's last part (the receiver, which would tell, is
      // hidden below the shim's strict frames).
      method = c.getMethodName();
      if ((method === null || method === '') && !c.isToplevel() && !c.isConstructor()) {
        const dot = apply(strLastIndexOf, inferred, ['.']);
        method = apply(strSlice, inferred, [dot + 1]);
      }
    }
    return new MappedSite(c, line, col, toLine, to, origin, evalFn, inferred, inferred, method);
  } catch {
    return c;
  } finally {
    mapping = false;
  }
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
        const s = strip(E, trace);
        noteMade(error, s);
        return apply(f, this, [error, s]);
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
  defineProperty(E, PST, {
    get() {
      if (rawPrepare !== undefined) return rawPrepare;
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

// namedAs rewrites CallSite c's text t (the part before its location) as
// V8 writes a frame whose function is named name (inferred: "o.m"):
// top-level name, "new name", or for a method call name qualified by the
// receiver's type unless the name has a dot or starts with the type, then
// " [as method]" where the method's name differs from the name's end.
function namedAs(c, name, method, t) {
  // "location" alone (an anonymous function called at top level), or
  // "head (location)".
  const loc = apply(strIndexOf, t, [' (']);
  if (loc < 0 || t[t.length - 1] !== ')') return c.isToplevel() && !c.isConstructor() ? name + ' (' + t + ')' : t;
  let head;
  if (c.isToplevel()) head = name;
  else if (c.isConstructor()) head = 'new ' + name;
  else {
    const type = c.getTypeName();
    head = typeof type === 'string' && type !== '' && apply(strIndexOf, name, ['.']) < 0 && apply(strIndexOf, name, [type]) !== 0 ? type + '.' + name : name;
    if (typeof method === 'string' && method !== '' && name !== method && apply(strSlice, name, [name.length - method.length - 1]) !== '.' + method) head += ' [as ' + method + ']';
  }
  return head + apply(strSlice, t, [loc]);
}

// Where an uncaught exception was thrown (fatal.js). Node prints the line
// V8 says an exception was thrown at: a throw statement's, or for an error
// V8 threw, or one that rejected a promise, where the error was made, the
// first frame of its stack in a file.

// madeAt holds, for each error whose stack was formatted, its first frame
// in a file as [file, line, column], the original's position.
const madeAt = new SafeWeakMap();
function noteMade(error, frames) {
  if (error === null || typeof error !== 'object' && typeof error !== 'function' || !isArray(frames)) return;
  try {
    for (let k = 0; k < frames.length; k++) {
      const f = frames[k];
      const file = f.getFileName();
      if (typeof file === 'string' && file !== '') {
        madeAt.set(error, [file, f.getLineNumber(), f.getColumnNumber()]);
        return;
      }
      if (f.isEval()) return; // code from a string: V8 points into it
    }
  } catch { /* a frame that throws: not noted */ }
}

// madeAtOf returns error e's first frame in a file, or undefined.
export function madeAtOf(e) {
  return madeAt.get(e);
}

// rawPrepare, while set, is the formatter every guarded Error constructor
// gives the engine: the frames as they are, read by the shim (throwSite).
let rawPrepare;
const siteOfTop = (_, s) => {
  const c = s[0];
  return c === undefined ? undefined : [c.getFileName(), c.getLineNumber(), c.getColumnNumber()];
};

// throwSite returns the frame that called fn (a throw statement's Tw) as
// [file, line, column] in the instrumented text, or undefined: one frame
// captured with E's capture function and read at once, so that nothing of
// the frame's (its receiver, its function) is kept, and no formatter of
// the program's runs.
export function throwSite(E, capture, fn) {
  if (isShim === undefined || capture === undefined) return undefined;
  const lim = E.stackTraceLimit;
  let set = false, site;
  holdLimit(1);
  try {
    try {
      E.stackTraceLimit = 1;
      set = true;
    } catch { /* read-only: the program's limit */ }
    const o = {};
    rawPrepare = siteOfTop;
    apply(capture, E, [o, fn]);
    site = o.stack;
  } catch {
    site = undefined;
  } finally {
    rawPrepare = undefined;
    if (set) E.stackTraceLimit = lim;
    holdLimit(-1);
  }
  return isArray(site) ? site : undefined;
}

// originalAt maps an instrumented frame's [file, line, column] to the
// original's, or returns undefined when the file is not instrumented code
// with a map.
export function originalAt(site) {
  if (frameMap === undefined || !isArray(site) || typeof site[0] !== 'string') return undefined;
  const m = frameMap(site[0]);
  if (m === undefined || typeof site[1] !== 'number' || typeof site[2] !== 'number') return undefined;
  const [l, c] = m(site[1], site[2]);
  return [site[0], l, c];
}

// instrumentedFile reports whether file is instrumented code with a map.
export function instrumentedFile(file) {
  return frameMap !== undefined && typeof file === 'string' && frameMap(file) !== undefined;
}

// The throw statement that last threw each object (Tw), as [file, line,
// column] in the instrumented text (node/fatal.js).
const thrownAt = new SafeWeakMap();

// noteThrow notes where the throw statement that called fn throws v.
export function noteThrow(v, E, capture, fn) {
  if (v === null || typeof v !== 'object' && typeof v !== 'function') return;
  const site = throwSite(E, capture, fn);
  if (site !== undefined) thrownAt.set(v, site);
}

// thrownAtOf returns where a throw statement last threw v, or undefined.
export function thrownAtOf(v) {
  return thrownAt.get(v);
}
