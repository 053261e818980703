// memtrace runtime shim: serves the hooks that instrumented code calls
// (docs/instrumentation.md §4) and writes a MemInsight-format trace
// (shared/spec/meminsight-trace.md). The entries, their order and the
// logical clock follow MemInsight's writer (LoggingAnalysis.ts, Loggers.ts,
// ObjIdManager.ts, LastUseManager.ts, NativeModels.ts) so that the counted
// entries and object ids match it exactly for its ES5 test programs.

import {
  N_WEAK_REF_DEREF, N_FIN_REG, N_FIN_REGISTER, N_FIN_UNREGISTER, N_PROMISE, N_PROMISE_THEN, N_PROMISE_CATCH, N_PROMISE_FINALLY, N_PROMISE_RESOLVE, N_PROMISE_REJECT, N_REFLECT_APPLY, N_REFLECT_CONSTRUCT, N_CALL, N_APPLY,
  N_OBJECT_ASSIGN, N_ARRAY_FROM, N_MAP, N_SET, N_WEAK_MAP, N_MAP_SET, N_MAP_DELETE, N_MAP_CLEAR, N_SET_ADD, N_SET_DELETE, N_SET_CLEAR, N_WEAK_MAP_SET, N_WEAK_MAP_DELETE, mapForEach, setForEach,
  $TypeError, $Error as $MainError, captureStackTrace as mainCapture, N_EVAL, N_FUNCTION, N_ASYNC_FUNCTION, N_GENERATOR_FUNCTION, N_ASYNC_GENERATOR_FUNCTION, FunctionPrototype, GeneratorFunctionPrototype, AsyncGeneratorFunctionPrototype, N_GEN_NEXT, N_GEN_RETURN, N_GEN_THROW, strIndexOf, strSlice, strConcat, strCharCodeAt, fnBind, $String, G, callWith, arraySlice, N_CLEAR_INTERVAL, N_CLEAR_TIMEOUT, N_CONCAT, N_DEFINE_PROPERTY, N_POP, N_PUSH, N_SET_INTERVAL, N_SET_TIMEOUT, N_SHIFT, N_SPLICE, N_UNSHIFT, SafeMap, SafeSet, SafeWeakMap, apply, construct, defineProperty, fnToString, SafeWeakSet, $JSON, jsonParse, getOwnPropertyDescriptor, getPrototypeOf, hasOwn, ownGetter, isArray, objectKeys, ownKeys, regExpExec, imul, clz32, typedArrayFill, typedArrayTag, typedArraySlice, typedArraySet, arraySort, bufferProtos, typedBuffer,
  $Int32Array as Int32Array, $Uint8Array as Uint8Array, $Int8Array as Int8Array, errorText, MODELLED, modelsOf, ownValue,
} from './natives.js';
import { idOf, useIdOf, putIdOf, selfIdOf, selfIdOfNew, useReaders, putReaders, stampedId, setId, markNative, fieldOf, kindOf, nativeKind, setFunInfo, funFe, funLit, funScript, enableLazyProtos, lazyProtos, proxy, setProxyTest, idOfNew, peekId, twoProbes } from './ids.js';
import { hideShimFrames, hideRealmFrames, hideFile, setFrameMap, raiseLimit, programLimit, limitWritten, limitRaised, holdLimit, noteThrow } from './stacks.js';
import { calleeName } from './callee.js';
import { DECLARE, CREATE_OBJ, CREATE_FUN, PUTFIELD, WRITE, LAST_USE, FUNCTION_ENTER, FUNCTION_EXIT, TOP_LEVEL_FLUSH, UPDATE_IID, DEBUG, RETURN, CALL, SCRIPT_ENTER, SCRIPT_EXIT, FREE_VARS, SOURCE_MAPPING, UPDATE_CURRENT_SCRIPT, END_LAST_USE, LAST_USE_FLUSH_PERIOD, K_PUSH, K_POP, K_SHIFT, K_UNSHIFT, K_SPLICE, K_CONCAT, K_DEFINE_PROPERTY, K_SET_TIMEOUT, K_CLEAR_TIMEOUT, K_SET_INTERVAL, K_CLEAR_INTERVAL, K_MAP, K_SET, K_WEAK_MAP, K_MAP_SET, K_MAP_DELETE, K_MAP_CLEAR, K_SET_ADD, K_SET_DELETE, K_SET_CLEAR, K_WEAK_MAP_SET, K_WEAK_MAP_DELETE, K_OBJECT_ASSIGN, K_ARRAY_FROM, K_WEAK_REF_DEREF, K_FIN_REG, K_FIN_REGISTER, K_FIN_UNREGISTER, K_PROMISE, K_THEN, K_CATCH, K_FINALLY, K_PROMISE_RESOLVE, K_PROMISE_REJECT, K_REFLECT_APPLY, K_REFLECT_CONSTRUCT, K_CALL, K_APPLY, K_GEN_RESUME, K_ERROR, K_LOC, K_EVAL, K_FUNCTION, K_RESULT, K_REWRITE, K_ENTRIES, K_OWN_PROPS, K_ITER_RESULT, K_ITERATOR, K_DEEP, K_CREATE, K_DEFINE_PROPS, K_SET_PROTO, K_REFLECT_SET, K_REFLECT_DELETE, K_BIND, K_PROXY, K_REVOKE, K_VIEW, K_SUBARRAY, K_ALL, K_ALL_SETTLED, K_ANY, K_RACE, K_EMITTER, K_SET_IMMEDIATE, K_NEXT_TICK, K_ALS_RUN, K_ALS_ENTER, K_EVENT_TARGET, K_ABORT_CONTROLLER, STORE_SLOTS, CREATE_DOM_NODE, ADD_DOM_CHILD, REMOVE_DOM_CHILD, DOM_ROOT, K_HOST } from './consts.js';
import { sortIds } from './sortids.js';
import { setSink, buffer as writerBuffer, need, flush, pending as unflushed, bytes as bytesWritten, e1, e2, e3, e4, u8, i32, str, strNum, site, SITE_MAX, runSlot, cacheRun, runBytes, runEntries, putRun, runOf, putBytes } from './writer.js';

/* global __MT_VERSION__ */
export const VERSION = typeof __MT_VERSION__ === 'string' ? __MT_VERSION__ : 'dev';
const GLOBAL = G;

// install installs the shim (globalThis.__mt) with the host host: what the
// core needs of the platform it runs on (node/host.js for Node). Every
// member may be absent (a host that cannot):
//
//   config          the settings (node/config.js, coreConfig)
//   isProxy, isPromise  tests that run no code of the program's
//   natives()       the platform's natives with models: {marks: [[function,
//                   kind]], removeAll (EventEmitter's removeAllListeners),
//                   alsDisable (AsyncLocalStorage's disable)}
//   cwd             the working directory at start-up: relative script
//                   names are relative to it
//   readText(path)  a file's text (BOM removed), or undefined
//   openSink(stop)  where the trace goes: {write, close, idle, file, error,
//                   script(name, source) when it keeps sources};
//                   none: the bytes wait for drain
//   stopped(why)    the trace ended early
//   instrument, posMap  run-time code instrumented, and its position map
//   codeText(v), trust(code, v)  run-time code given as an object of the
//                   platform's (a Trusted Types TrustedScript): its text, or
//                   undefined; the instrumented code as such an object (v
//                   itself when the host cannot make one: then it runs as it
//                   was)
//   fullCollection()  a function that collects the whole heap and returns
//                   the bytes in use, or null
//   sha256(text)    hex digest (frames in run-time code)
//   timersTakeStrings  false where string timers throw (Node)
//   attach(core)    the host's part starts: the core lends it end,
//                   closeScripts, textOf, flushPending and vm (vmRuntime)
//   end()           the trace has ended
//
// The core imports no module of a host and names nothing of a platform's
// but through this object.
export function install(host) {
  var config = host.config;
  // The shim's state and helpers are declared with var at this level, never
  // let or const: the hooks are closures over this scope, and V8 (Node 20)
  // checks a let or const read from a closure for its temporal dead zone at
  // every access, a load, compare and branch that no compiler removes; with
  // var there is nothing to check. Measured on Octane shortened (300
  // iterations of Richards and DeltaBlue, NavierStokes), CPU of the
  // instrumented run, minimum of alternating runs: Richards 13.7 -> 12.2 s,
  // DeltaBlue 27.2 -> 24.5 s, NavierStokes 28.5 -> 26.5 s
  // (TestShimScopeHasNoLexicals keeps it so). Each name is declared once at
  // this level, as it was with let.
  //
  // A test for proxies that runs no trap (the host's isProxy, Node's
  // util.types.isProxy): the shim reads no property of a proxy the program
  // did not (put), and prototype objects get their ids lazily (ids.js,
  // claimProto; with config.eagerProtos at the literal, as without the
  // test: tests compare the two). isPromise (Node's util.types.isPromise)
  // tells the promises the combinators' model listens to.
  var isPromise = typeof host.isPromise === 'function' ? host.isPromise : null;
  if (typeof host.isProxy === 'function') {
    setProxyTest(host.isProxy);
    if (!config.eagerProtos) enableLazyProtos();
    if (config.twoProbes) twoProbes();
  }

  var RegExpProto = RegExp.prototype;
  var $RegExp = RegExp;
  // The last logical time at which a periodic block may start: the entries
  // up to the next check stay below 2^31 (MEMTRACE_TIME_LIMIT sets it).
  var timeLimit = 2147483647 - 4 * LAST_USE_FLUSH_PERIOD;

  markNative(N_PUSH, K_PUSH);
  markNative(N_POP, K_POP);
  markNative(N_SHIFT, K_SHIFT);
  markNative(N_UNSHIFT, K_UNSHIFT);
  markNative(N_SPLICE, K_SPLICE);
  markNative(N_CONCAT, K_CONCAT);
  markNative(N_DEFINE_PROPERTY, K_DEFINE_PROPERTY);
  markNative(N_SET_TIMEOUT, K_SET_TIMEOUT);
  markNative(N_CLEAR_TIMEOUT, K_CLEAR_TIMEOUT);
  markNative(N_SET_INTERVAL, K_SET_INTERVAL);
  markNative(N_CLEAR_INTERVAL, K_CLEAR_INTERVAL);
  markNative(N_MAP, K_MAP);
  markNative(N_SET, K_SET);
  markNative(N_WEAK_MAP, K_WEAK_MAP);
  markNative(N_MAP_SET, K_MAP_SET);
  markNative(N_MAP_DELETE, K_MAP_DELETE);
  markNative(N_MAP_CLEAR, K_MAP_CLEAR);
  markNative(N_SET_ADD, K_SET_ADD);
  markNative(N_SET_DELETE, K_SET_DELETE);
  markNative(N_SET_CLEAR, K_SET_CLEAR);
  markNative(N_WEAK_MAP_SET, K_WEAK_MAP_SET);
  markNative(N_WEAK_MAP_DELETE, K_WEAK_MAP_DELETE);
  markNative(N_OBJECT_ASSIGN, K_OBJECT_ASSIGN);
  markNative(N_ARRAY_FROM, K_ARRAY_FROM);
  markNative(N_WEAK_REF_DEREF, K_WEAK_REF_DEREF);
  markNative(N_FIN_REG, K_FIN_REG);
  markNative(N_FIN_REGISTER, K_FIN_REGISTER);
  markNative(N_FIN_UNREGISTER, K_FIN_UNREGISTER);
  markNative(N_PROMISE, K_PROMISE);
  markNative(N_PROMISE_THEN, K_THEN);
  markNative(N_PROMISE_CATCH, K_CATCH);
  markNative(N_PROMISE_FINALLY, K_FINALLY);
  markNative(N_PROMISE_RESOLVE, K_PROMISE_RESOLVE);
  markNative(N_PROMISE_REJECT, K_PROMISE_REJECT);
  markNative(N_REFLECT_APPLY, K_REFLECT_APPLY);
  markNative(N_REFLECT_CONSTRUCT, K_REFLECT_CONSTRUCT);
  markNative(N_CALL, K_CALL);
  markNative(N_APPLY, K_APPLY);
  markNative(N_GEN_NEXT, K_GEN_RESUME);
  markNative(N_GEN_RETURN, K_GEN_RESUME);
  markNative(N_GEN_THROW, K_GEN_RESUME);
  for (const E of [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
    typeof AggregateError === 'function' ? AggregateError : undefined]) markNative(E, K_ERROR);
  // (Not a script's own function eval, hoisted over the global's before a
  // shim its file installs runs: that is no eval.)
  if (nativeEvalText(N_EVAL)) markNative(N_EVAL, K_EVAL);
  markNative(N_FUNCTION, K_FUNCTION);
  for (let k = 0; k < MODELLED.length; k++) markNative(MODELLED[k][0], MODELLED[k][1]);
  // The host's natives with models (Node: EventEmitter's methods that
  // add, remove or run listeners, K_EMITTER; process.nextTick;
  // AsyncLocalStorage's run, enterWith and disable); removeAll:
  // EventEmitter's removeAllListeners.
  var removeAll, alsDisable, etRemove;
  // hostModel: the host's models of its natives (kinds from K_HOST on) and
  // of writes to the properties it watches (browser/dom.js): before(kind,
  // ci, base, args) runs before such a native's call and after(kind, ci,
  // base, args, val, what before returned) after it; put(o, k) before a
  // write, putDone(g, o, k, v, what put returned) after it when put
  // returned something. isDomNode(o): o is written CREATE_DOM_NODE, after
  // which created(o) is called.
  var hostModel;
  var hostEnter; // hostModel.enter, before a function the event loop calls
  var isDomNode = host.isDomNode;
  if (typeof G.EventTarget === 'function') {
    const EP = G.EventTarget.prototype;
    markNative(EP.addEventListener, K_EVENT_TARGET);
    etRemove = EP.removeEventListener;
    markNative(etRemove, K_EVENT_TARGET);
  }
  // new AbortController(): it holds its signal (read through the
  // prototype's getter, which runs no program code).
  var signalOf;
  if (typeof G.AbortController === 'function') {
    const d = getOwnPropertyDescriptor(G.AbortController.prototype, 'signal');
    if (d !== undefined && typeof d.get === 'function') {
      signalOf = d.get;
      markNative(G.AbortController, K_ABORT_CONTROLLER);
    }
  }
  if (host.natives !== undefined) {
    const n = host.natives();
    for (let k = 0; k < n.marks.length; k++) if (nativeKind(n.marks[k][0]) === 0) markNative(n.marks[k][0], n.marks[k][1]);
    removeAll = n.removeAll;
    alsDisable = n.alsDisable;
    hostModel = n.model;
    if (hostModel !== undefined && typeof hostModel.enter === 'function') hostEnter = hostModel.enter;
  }
  markNative(N_ASYNC_FUNCTION, K_FUNCTION);
  markNative(N_GENERATOR_FUNCTION, K_FUNCTION);
  markNative(N_ASYNC_GENERATOR_FUNCTION, K_FUNCTION);

  // ---------------------------------------------------------------- config
  var debugFun = config.debugFun;
  var allPutfields = config.allPutFields;
  var allUses = config.allUses;
  var compact = config.compact;
  if (config.timeLimit > 0) timeLimit = config.timeLimit; // tests

  // ---------------------------------------------------------------- sink
  // The host's sink takes the trace's bytes (writer.js hands them over);
  // without one (a host with nowhere to write), they wait for drain. A
  // trace file that cannot be opened (a directory that does not exist, no
  // permission) leaves the program untraced, not failed: the reason goes
  // where a write failure's does (stopTrace), once the shim's state is set
  // up.
  var chunks = [];
  var sink = host.openSink !== undefined ? host.openSink(stopTrace) : undefined;
  setSink(sink !== undefined ? sink.write : (buf, from, to) => {
    chunks[chunks.length] = apply(typedArraySlice, buf, [from, to]);
    return 0;
  });

  // ---------------------------------------------------------------- state
  var time = -1; // time of the previous counted entry
  var lastUseFlushTime = 0;
  var emittedSid = -1; // last UPDATE_CURRENT_SCRIPT written
  var curSid = 0; // J$.sid: 0 outside instrumented code
  // The pending-flush slot: pend[0] is 1 while a flush is pending. An
  // array, not a variable, so that instrumented code can test it inline
  // (H.p[0] || H.X(k), docs/instrumentation.md §4) and call X only when
  // the slot is empty: in code that writes no entry between statements,
  // nearly every X finds it full.
  var pend = new Int32Array(1);
  var pendSid = 0;
  var pendIid = 0;
  var stopped = false;
  var ended = false;
  if (sink !== undefined && sink.error !== undefined) {
    stopTrace('the trace file could not be opened (' + errorText(sink.error) + '); the program runs untraced');
  }

  // Compact traces (docs/instrumentation.md §12; trace.Compactor mirrors
  // this): a flush is left out when its frame's candidate set must be
  // empty, i.e. no entry since the frame's previous flush could have added
  // a candidate. dirty is that for the top frame; frames holds the callers'
  // (CALL and FUNCTION_ENTER push, FUNCTION_EXIT pops); fresh: only
  // DECLAREs since the frame began; retPend: a RETURN awaits its exit.
  // The bookkeeping runs in both modes; only compact mode leaves flushes
  // out. elided counts them, so that last-use blocks come after the same
  // entries as in a full trace.
  var dirty = true;
  var fresh = false;
  var retPend = false;
  var frames = new Uint8Array(256);
  var fdepth = 0;
  var elided = 0;
  // Compact mode also holds back a frame's first DECLAREs of primitives
  // (trace.Compactor, rule 2) until an entry of that frame may resolve
  // their names: a WRITE, a PUTFIELD on the global object or another
  // DECLARE of the name releases that name's (releaseName), CREATE_FUN
  // and SCRIPT_ENTER all (releaseHeld). defIid, defName, defSid [0,
  // defLen), the frame's from defBase[fdepth - 1]; defMask marks those
  // released by name. elided counts them as well while they are held
  // back. A run of up to 31 vars (Nu) is one record: its bytes in defName,
  // their number in defIid, its entries in defCount, its names in defList
  // from iid defG, bit j of defMask for its j-th.
  var defBase = new Int32Array(256);
  var defIid = new Int32Array(256);
  var defSid = new Int32Array(256);
  var defName = [];
  var defCount = new Int32Array(256); // a run's entries (holdRun)
  var defG = new Int32Array(256);
  var defMask = new Int32Array(256);
  var defList = [];
  var defLen = 0;
  function note(type) {
    switch (type) {
      case CALL:
      case FUNCTION_ENTER:
        if (fdepth === frames.length) {
          const f = new Uint8Array(2 * fdepth);
          apply(typedArraySet, f, [frames]);
          frames = f;
          const b = new Int32Array(2 * fdepth);
          apply(typedArraySet, b, [defBase]);
          defBase = b;
        }
        defBase[fdepth] = defLen;
        frames[fdepth++] = dirty ? 1 : 0;
        dirty = false;
        fresh = true;
        return;
      case DECLARE:
        if (!fresh) dirty = true;
        return;
      case RETURN:
        retPend = true;
        fresh = false;
        return;
      case FUNCTION_EXIT:
        if (fdepth > 0) {
          fdepth--;
          dirty = frames[fdepth] === 1 || retPend;
          defLen = defBase[fdepth]; // held back and never needed: left out
        } else {
          dirty = true;
        }
        retPend = false;
        fresh = false;
        return;
      default:
        dirty = true;
        fresh = false;
    }
  }

  // Object ids and what the shim keeps per id. Nothing is kept for every
  // id ever created: memory follows the objects used in one last-use
  // period and the functions created, not all allocations.
  var nextId = 0;

  // Last uses since the last block (spec 1.4): an open-addressing table
  // keyed by id (0: an empty slot; ids start at 1) with the time and site
  // of the latest use, emptied at each block.
  var luCap = 4096;
  var luShift = 32 - 12;
  var luCount = 0;
  var luKeys = new Int32Array(luCap);
  var luT = new Int32Array(luCap);
  var luI = new Int32Array(luCap);

  // luSet records time and site g for id: one probe when id was used
  // since the last block and no other id took its slot.
  function luSet(id, g) {
    let h = imul(id, -1640531535) >>> luShift;
    if (luKeys[h] !== id) h = luSlot(id, h);
    luT[h] = time;
    luI[h] = g;
  }

  // luSlot finds or makes id's slot, starting at h.
  function luSlot(id, h) {
    // Stopped (the time limit, or the end): nothing will be written, so
    // the table must not grow; any slot will do.
    if (stopped) return h;
    for (;;) {
      const mask = luCap - 1;
      let k = luKeys[h];
      while (k !== 0) {
        if (k === id) return h;
        h = (h + 1) & mask;
        k = luKeys[h];
      }
      if (luCount < luCap >> 1) {
        luKeys[h] = id;
        luCount++;
        return h;
      }
      luResize(luCap * 2);
      h = imul(id, -1640531535) >>> luShift;
    }
  }

  // luResize moves the table to c slots (a power of 2 above 2 * luCount),
  // or, with empty, replaces it by an empty one (the block just written:
  // it used to be moved, keys and all, with luCount 0, so that a later
  // block left out the last uses beyond its count and the table filled up
  // until a lookup probed forever). The new table is made apart and takes
  // over in plain assignments at the end, so that an exception on the way
  // (a stack overflow of a program that recurses to the engine's limit)
  // leaves the old one whole.
  function luResize(c, empty) {
    const ok = luKeys, ot = luT, oi = luI, oc = empty === true ? 0 : luCap;
    const shift = 32 - (31 - clz32(c));
    const keys = new Int32Array(c), ts = new Int32Array(c), is = new Int32Array(c);
    const mask = c - 1;
    for (let s = 0; s < oc; s++) {
      const id = ok[s];
      if (id === 0) continue;
      let h = imul(id, -1640531535) >>> shift;
      while (keys[h] !== 0) h = (h + 1) & mask;
      keys[h] = id;
      ts[h] = ot[s];
      is[h] = oi[s];
    }
    luCap = c;
    luShift = shift;
    luKeys = keys;
    luT = ts;
    luI = is;
  }

  // What a call needs to know about its callee's code: the script of its
  // function-enter iid (the script handle on the function, ids.js) and
  // whether it is a generator (1) or async generator (2) function, by
  // local iid in that script's feGen. Both go with the script's functions:
  // nothing grows with the run-time code a program evaluates.
  function funSid(f) {
    const h = funScript(f);
    return h === undefined ? 0 : h.sid;
  }
  function funGen(f, fe) {
    const h = funScript(f);
    if (h === undefined) return 0;
    const k = fe - h.base;
    const fg = h.feGen;
    return fg !== null && k > 0 && k < fg.length ? fg[k] : 0;
  }

  // Objects from which the trace holds an edge: ids with a PUTFIELD of an
  // object (not __proto__), functions (their prototype) and the global
  // object (global variables), one bit each, in pages of 32768 ids. A
  // primitive written over an own property of an object without edges
  // cannot remove an edge, so P logs it without reading the property's
  // descriptor (MemInsight's writer would log a PUTFIELD of 0 when the
  // old value was an object stored where it could not see, which changes
  // nothing in its engine).
  var edgePages = [];
  function hasEdges(id) {
    return hasBit(edgePages, id);
  }
  function markEdges(id) {
    setBit(edgePages, id);
  }
  // Sets of ids, one bit each, in pages of 32768 ids made as needed.
  function hasBit(pages, id) {
    const k = id >>> 15;
    if (k >= pages.length) return false;
    const p = pages[k];
    return p !== null && (p[(id >>> 3) & 4095] & (1 << (id & 7))) !== 0;
  }
  function setBit(pages, id) {
    const k = id >>> 15;
    while (pages.length <= k) pages[pages.length] = null;
    let p = pages[k];
    if (p === null) p = pages[k] = new Uint8Array(4096);
    p[(id >>> 3) & 4095] |= 1 << (id & 7);
  }
  // Typed arrays, by id (create): a write of a primitive to one under a
  // numeric key (putRead) is an element's, which logs nothing in any case.
  var typedPages = [];
  function markTyped(o, id) {
    if (typeof o === 'object' && typedArrayTag !== undefined && callWith(typedArrayTag, o) !== undefined) setBit(typedPages, id);
  }
  // Field edges: one bit per hash of (id, key number) in a fixed table
  // of 2^21 bits (256 KB), set for every PUTFIELD of an object (and a
  // function's prototype) and never cleared. A clear bit means the trace
  // holds no edge from that property: a primitive written over it, an own
  // property, is elided without reading its descriptor, which allocates
  // (data or accessor, as above). A set bit may be another pair's: the
  // descriptor decides. Not for the global object, whose properties are
  // also global variables (DECLARE, WRITE). Key numbers (keyNum) stand for
  // the names: hashing a name's characters cost as much as the descriptor.
  var fieldBits = new Int32Array(1 << 16);
  function markField(id, kn) {
    if (kn === 0) return;
    const h = (imul(id, -1640531535) ^ imul(kn, 16777619)) >>> 11;
    fieldBits[h >>> 5] |= 1 << (h & 31);
  }
  // mayHoldEdge: the trace may hold an edge from o's property of key
  // number kn (0: unknown).
  function mayHoldEdge(id, kn) {
    if (!hasEdges(id)) return false;
    if (id === 1 || kn === 0) return true;
    const h = (imul(id, -1640531535) ^ imul(kn, 16777619)) >>> 11;
    return (fieldBits[h >>> 5] & (1 << (h & 31))) !== 0;
  }
  // keyNum numbers the property names of PUTFIELDs and named writes, for
  // the field table: the first 16384 names met, never those that begin
  // with a digit (array indices); 0 for any other, for good (a name
  // without a number then never gets one, so its marks and tests agree).
  var keyNums = new SafeMap();
  var nKeys = 0;
  function keyNum(k) {
    let n = keyNums.get(k);
    if (n !== undefined) return n;
    const c = callWith(strCharCodeAt, k, 0); // the captured native: the program may replace String's
    if (nKeys >= 16384 || !(c > 57 || c < 48)) return 0;
    keyNums.set(k, ++nKeys);
    return nKeys;
  }
  var PROTO_KN = keyNum('prototype');
  var LENGTH_KN = keyNum('length');

  // Objects under construction (the constructor protocol): few at a time,
  // one added and removed for every instrumented constructor call. An
  // open-addressing set of ids with backward-shift deletion: nothing is
  // allocated per call (a Set reallocated its table as it emptied and
  // refilled: about a seventh of all that RayTrace allocated instrumented).
  var ucKeys = new Int32Array(16);
  var nUnder = 0;
  function ucHome(id) {
    return (imul(id, -1640531535) >>> 8) & (ucKeys.length - 1);
  }
  function ucFind(id) {
    const mask = ucKeys.length - 1;
    for (let h = ucHome(id); ; h = (h + 1) & mask) {
      const k = ucKeys[h];
      if (k === id) return h;
      if (k === 0) return -1;
    }
  }
  function isUnder(id) {
    return nUnder !== 0 && ucFind(id) >= 0;
  }
  function setUnder(id) {
    if (nUnder !== 0 && ucFind(id) >= 0) return;
    if (2 * (nUnder + 1) > ucKeys.length) {
      const old = ucKeys;
      ucKeys = new Int32Array(2 * old.length);
      for (let j = 0; j < old.length; j++) if (old[j] !== 0) ucInsert(old[j]);
    }
    ucInsert(id);
    nUnder++;
  }
  function ucInsert(id) {
    const mask = ucKeys.length - 1;
    let h = ucHome(id);
    while (ucKeys[h] !== 0) h = (h + 1) & mask;
    ucKeys[h] = id;
  }
  function clearUnder(id) {
    if (nUnder === 0) return;
    let h = ucFind(id);
    if (h < 0) return;
    ucKeys[h] = 0;
    nUnder--;
    // Move later members of the probe run into the hole when their home
    // slot does not lie cyclically in (hole, their slot].
    const mask = ucKeys.length - 1;
    for (let j = (h + 1) & mask; ucKeys[j] !== 0; j = (j + 1) & mask) {
      const home = ucHome(ucKeys[j]);
      const stays = h <= j ? home > h && home <= j : home > h || home <= j;
      if (!stays) {
        ucKeys[h] = ucKeys[j];
        ucKeys[j] = 0;
        h = j;
      }
    }
  }

  var pendingStatic = []; // (class, key, value) of static fields before the class's F
  var pendingThis = []; // (class, closure id, iid) of Ft before the class's F

  function newId() {
    return ++nextId;
  }

  // Scripts: global iid = base + local iid; bases grow with each script.
  var scriptBase = [0];
  var scriptSid = [0];
  var nextBase = 0;
  var sidCounter = 0;
  var openScripts = [];

  function sidOfIid(g) {
    let lo = 0, hi = scriptBase.length - 1;
    if (g <= 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (scriptBase[mid] < g) lo = mid; else hi = mid - 1;
    }
    return scriptSid[lo];
  }

  // Frames of instrumented function activations, in slots handed out from a
  // free list (generators and async functions interleave their frames).
  var fcap = 256;
  var frameSid = new Int32Array(fcap);
  var frameThis = new Int32Array(fcap);
  // The id of the activation's this for its uses (Gt, Pt): 1 for the
  // global object, 0 when this is not an object or has no id yet.
  var frameSelf = new Int32Array(fcap);
  var frameRet = new Int32Array(fcap);
  var freeSlots = new Int32Array(fcap);
  // Frames of generators and async functions (Fg): 0 not one, 1 running,
  // 2 suspended; the function's id, its entry iid (global), the id of the
  // this it declared (-1: none), the generator object holding the frame
  // while it is suspended (0: held by a global name), the frame object.
  var frameSusp = new Uint8Array(fcap);
  var frameFn = new Int32Array(fcap);
  var frameFe = new Int32Array(fcap);
  var frameDis = new Int32Array(fcap);
  var frameGen = new Int32Array(fcap);
  var frameFo = new Int32Array(fcap);
  // The iid (global) of the frame's resume function (0: none; the
  // resumption enters the function itself) and the resume function's id
  // once created (0: not yet), see makeResume.
  var frameRes = new Int32Array(fcap);
  var frameRf = new Int32Array(fcap);
  // frameIters[d]: the global iids of the loop iterations open in the
  // suspendable frame d (Iy, Iz), outermost first, or undefined.
  var frameIters = [];
  var nFree = 0;
  for (let s = fcap - 1; s >= 1; s--) freeSlots[nFree++] = s;
  function growFrames() {
    const c = fcap * 2;
    let t = new Int32Array(c); apply(typedArraySet, t, [frameSid]); frameSid = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameThis]); frameThis = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameSelf]); frameSelf = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameRet]); frameRet = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameFn]); frameFn = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameFe]); frameFe = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameDis]); frameDis = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameGen]); frameGen = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameFo]); frameFo = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameRes]); frameRes = t;
    t = new Int32Array(c); apply(typedArraySet, t, [frameRf]); frameRf = t;
    const u = new Uint8Array(c); apply(typedArraySet, u, [frameSusp]); frameSusp = u;
    t = new Int32Array(c);
    for (let s = c - 1; s >= fcap; s--) t[nFree++] = s;
    freeSlots = t;
    fcap = c;
  }

  // The call protocol: a CALL written by a call hook for the function whose
  // entry iid is pendFe; its Fe then writes no FUNCTION_ENTER. The callee's
  // parameter list runs between the two, and its default values may call
  // other functions: a call hook that starts while a CALL is pending takes
  // the generic path (invoke), which keeps the pending CALL aside for the
  // duration of its own call (callAside). The pending CALL opened the
  // model's frame at depth pendDepth (fdepth after it); a frame that exits
  // at that depth before the callee entered means its parameter list threw
  // out of it: callLeft writes the callee's exit first (callers' frames,
  // suspensions and the script's end check).
  var callPending = false;
  var pendFe = 0;
  var pendFid = 0; // the function of the pending CALL
  var pendDepth = 0;
  var pendCallSid = 0; // the callee's script
  // The generator a hooked next/return/throw is resuming (K_GEN_RESUME),
  // taken by the Fg of its body's first run; enterFid, enterThis: the
  // function and this id (-1: none) of the last Fe.
  var resumeGen;
  var enterFid = 0;
  var enterThis = -1;
  var pendCtor = false;

  // Native-object allocation sites (spec 2.2a).
  var nativeSite = new SafeWeakMap();
  var nativeCount = 0;

  // Timer models.
  var timerGlobals = new SafeMap();
  var callbackCounter = 0;
  var spliceOldLen;
  var timerName = '';
  var timerState = null;

  function isObj(o) {
    return (typeof o === 'object' && o !== null) || typeof o === 'function';
  }

  // ---------------------------------------------------------------- logging

  // before is beforeLog() of Loggers.ts for a counted entry. It returns
  // false when the trace has reached its logical-time limit and stopped.
  function before() {
    if (!blockDue()) return false;
    meta();
    time++;
    return true;
  }

  // blockDue is step 2 of beforeLog(): the periodic last-use block, when
  // its period has passed (counting what compact mode leaves out, so that
  // blocks fall after the same entries as in a full trace). It returns
  // false when the trace has reached its logical-time limit and stopped.
  function blockDue() {
    if (time + elided - lastUseFlushTime >= LAST_USE_FLUSH_PERIOD) {
      flushLastUse();
      lastUseFlushTime = time + elided;
      if (time >= timeLimit) {
        stopAtLimit();
        return false;
      }
    }
    return true;
  }

  // stopAtLimit ends the trace when logical time approaches 2^31 (times are
  // int32 in the format): the block just written is the final one, and
  // the reason goes to MEMTRACE_STATUS (session.json) and standard error.
  function stopAtLimit() {
    stopped = true;
    flush();
    if (sink !== undefined) sink.idle();
    stopTrace('the trace reached the format\'s logical-time limit (' + time + ' entries); the rest of the run was not traced');
  }

  // stopTrace: no entry is written any more, for the reason given, which
  // goes to MEMTRACE_STATUS (memtrace node: session.json) and standard
  // error.
  function stopTrace(reason) {
    stopped = true;
    if (host.stopped !== undefined) host.stopped(reason);
    if (GLOBAL.console) {
      try { GLOBAL.console.error('memtrace: ' + reason); } catch { /* ignore */ }
    }
  }

  // meta is steps 3 and 4 of beforeLog().
  function meta() {
    writeSid();
    flushPending();
  }

  // flushPending is step 4: the pending flush, written (after the script,
  // if it changed) or, in compact mode, left out.
  function flushPending() {
    if (pend[0] !== 0) {
      pend[0] = 0;
      if (!dirty && compact) {
        elided++;
        return;
      }
      dirty = false;
      writeSid();
      need(1 + SITE_MAX);
      u8(TOP_LEVEL_FLUSH);
      site(pendSid, pendIid);
      time++;
    }
  }

  function log2(type, a) {
    if (stopped || !before()) return;
    note(type);
    need(5);
    e1(type, a);
  }

  function log3(type, a, b) {
    if (stopped || !before()) return;
    note(type);
    need(9);
    e2(type, a, b);
  }

  function log4(type, a, b, c) {
    if (type === CREATE_FUN) releaseHeld();
    if (stopped || !before()) return;
    note(type);
    if (type === CREATE_FUN) {
      markEdges(c); // it implies the edge to the prototype (id+1)
      markField(c, PROTO_KN);
    }
    need(13);
    e3(type, a, b, c);
  }

  // DECLARE and WRITE: iid, name, id.
  function logName(type, iid, name, id) {
    if (compact && type === DECLARE && fresh && id === 0 && fdepth > 0) {
      holdDeclare(iid, name);
      return;
    }
    if (defLen !== 0 && (type === WRITE || !fresh)) releaseName(name, true);
    if (stopped || !before()) return;
    if (type === WRITE || !fresh) {
      dirty = true;
      fresh = false;
    }
    need(37 + 2 * name.length);
    u8(type);
    i32(iid);
    varName(name);
    i32(id);
  }

  // declareRun is logName(DECLARE, g + k, names[k], 0) for each of the
  // comma-separated names of a run of vars at a function's entry (Nu),
  // written at once from the bytes the writer keeps for g's run when no
  // last-use block can fall due among them (compact mode holds them as
  // one record where it would hold each: holdRun), and the run is at most
  // RUN_MAX bytes (the writer copies a run whole,
  // so it must fit its buffer: a run of fewer entries than a last-use
  // period may still have long names; logName streams a long name).
  var RUN_MAX = 1 << 16;
  function declareRun(g, names) {
    if (stopped) return;
    let k = runSlot(g);
    if (k < 0) {
      const list = splitNames(names);
      k = cacheRun(DECLARE, g, list);
      runNames[k] = list;
    }
    const m = runEntries(k);
    const n = runBytes(k);
    if (compact && fresh && fdepth > 0 && m <= 31 && n <= RUN_MAX && time + elided + m - lastUseFlushTime < LAST_USE_FLUSH_PERIOD) {
      holdRun(runOf(k), n, m, g, runNames[k]);
      return;
    }
    if (compact || defLen !== 0 || n > RUN_MAX || time + elided + m - lastUseFlushTime >= LAST_USE_FLUSH_PERIOD) {
      const list = runNames[k];
      for (let j = 0; j < m; j++) logName(DECLARE, g + j, list[j], 0);
      return;
    }
    meta();
    if (!fresh) dirty = true;
    need(n);
    putRun(k);
    time += m;
  }

  // runNames: the names of the run in each of the writer's run slots.
  var runNames = [];

  // splitNames splits Nu's names at its commas. They come back as an
  // object's keys: internalized strings, as the names the other hooks are
  // given are, so that releaseName compares them by identity.
  function splitNames(names) {
    const list = [];
    const keys = { __proto__: null };
    let from = 0;
    for (;;) {
      const c = callWith(strIndexOf, names, ',', from);
      if (c < 0) break;
      list[list.length] = callWith(strSlice, names, from, c);
      from = c + 1;
    }
    list[list.length] = callWith(strSlice, names, from);
    for (let j = 0; j < list.length; j++) keys[list[j]] = 0;
    const ks = objectKeys(keys);
    return ks.length === list.length ? ks : list;
  }

  // varName writes the name of a variable. A top-level binding of a module
  // or CommonJS module is named with instrument.ModuleTag ("@") at its end
  // (the model keeps module scopes in the GLOBAL context): the script id of
  // the module follows the tag, so that the bindings of two modules, or of
  // two evaluations of one module, are different variables. The hooks that
  // name such a binding are the module's own, so curSid is its id.
  function varName(name) {
    const n = name.length;
    if (n > 1 && name[n - 1] === '@') strNum(name, curSid);
    else str(name);
  }

  // holdDeclare is logName for a DECLARE that compact mode holds back:
  // beforeLog's steps but the script's (written with the next entry) and
  // the tick (counted in elided until it is written).
  function holdDeclare(iid, name) {
    if (stopped) return;
    if (!blockDue()) return;
    flushPending();
    holdSlot();
    defIid[defLen] = iid;
    defSid[defLen] = curSid;
    defName[defLen] = name;
    defMask[defLen] = 0;
    defLen++;
    elided++;
  }

  // holdRun is holdDeclare for each of a run's m DECLAREs (declareRun:
  // the n bytes of run v, from the writer's run cache), held as one
  // record: no last-use block can fall due among them (the caller's test),
  // so holding them one by one would flush the pending slot at the first
  // and only count the others. releaseHeld writes the bytes.
  function holdRun(v, n, m, g, list) {
    flushPending();
    holdSlot();
    defIid[defLen] = n;
    defCount[defLen] = m;
    defSid[defLen] = curSid;
    defName[defLen] = v;
    defG[defLen] = g;
    defList[defLen] = list;
    defMask[defLen] = 0;
    defLen++;
    elided += m;
  }

  function holdSlot() {
    if (defLen === defIid.length) {
      let a = new Int32Array(2 * defLen); apply(typedArraySet, a, [defIid]); defIid = a;
      a = new Int32Array(2 * defLen); apply(typedArraySet, a, [defSid]); defSid = a;
      a = new Int32Array(2 * defLen); apply(typedArraySet, a, [defCount]); defCount = a;
      a = new Int32Array(2 * defLen); apply(typedArraySet, a, [defG]); defG = a;
      a = new Int32Array(2 * defLen); apply(typedArraySet, a, [defMask]); defMask = a;
    }
  }

  // releaseHeld writes the top frame's held-back DECLAREs, each in its own
  // script, before the entry that needs them, after what that entry's
  // beforeLog writes first (a due last-use block, the pending flush).
  function releaseHeld() {
    if (defLen === 0 || fdepth === 0 || defLen <= defBase[fdepth - 1] || stopped) return;
    const from = defBase[fdepth - 1];
    if (!blockDue()) return;
    flushPending();
    const saved = curSid;
    for (let k = from; k < defLen; k++) {
      curSid = defSid[k];
      const name = defName[k];
      const mask = defMask[k];
      defName[k] = undefined;
      if (typeof name !== 'string') {
        // a run (holdRun)
        const m = defCount[k];
        const list = defList[k];
        defList[k] = undefined;
        if (mask !== 0) {
          for (let j = 0; j < m; j++) if ((mask & (1 << j)) === 0) writeHeld(defG[k] + j, list[j]);
          continue;
        }
        const n = defIid[k];
        writeSid();
        need(n);
        putBytes(name, n);
        time += m;
        elided -= m;
        continue;
      }
      if (mask === 0) writeHeld(defIid[k], name);
    }
    curSid = saved;
    defLen = from;
  }

  // writeHeld writes a held-back DECLARE, in script curSid.
  function writeHeld(iid, name) {
    writeSid();
    need(37 + 2 * name.length);
    u8(DECLARE);
    i32(iid);
    varName(name);
    i32(0);
    time++;
    elided--;
  }

  // releaseName writes the top frame's last held-back DECLARE of name, as a
  // WRITE or DECLARE of name (isVar) or a PUTFIELD of property name on the
  // global object resolves it, and keeps the others held (a name held twice,
  // as parameters may be, is one binding to the engine, of no edge). A
  // module binding's name is its script's: "x@" in another script is
  // another name; a property named with an "@" may be the trace's name of
  // any module binding ("x@" and its script's id), so it releases all.
  function releaseName(name, isVar) {
    if (fdepth === 0 || stopped) return;
    const from = defBase[fdepth - 1];
    if (defLen <= from) return;
    if (!isVar && callWith(strIndexOf, name, '@', 0) >= 0) {
      releaseHeld();
      return;
    }
    const tagged = name.length > 1 && name[name.length - 1] === '@';
    const saved = curSid;
    for (let k = defLen - 1; k >= from; k--) {
      if (tagged && defSid[k] !== saved) continue;
      const v = defName[k];
      let iid;
      if (typeof v === 'string') {
        if (v !== name || defMask[k] !== 0) continue;
        defMask[k] = 1;
        iid = defIid[k];
      } else {
        const list = defList[k];
        let j = list.length - 1;
        while (j >= 0 && (list[j] !== name || (defMask[k] & (1 << j)) !== 0)) j--;
        if (j < 0) continue;
        defMask[k] |= 1 << j;
        iid = defG[k] + j;
      }
      if (!blockDue()) return;
      flushPending();
      curSid = defSid[k];
      writeHeld(iid, name);
      curSid = saved;
      return;
    }
  }

  // kn: prop's key number when the caller has it.
  function logPutfield(iid, base, prop, val, kn) {
    if (base === 1 && defLen !== 0) releaseName(prop, false); // resolved as a WRITE
    if (stopped || !before()) return;
    dirty = true;
    fresh = false;
    if (val !== 0 && prop !== '__proto__') {
      markEdges(base);
      // An element's edge (a name without a number: an index) marks the
      // object's length, so that a write of length reaches put, which
      // drops the elements a shorter length deletes.
      const n = kn !== undefined ? kn : keyNum(prop);
      markField(base, n !== 0 ? n : LENGTH_KN);
    }
    need(17 + 2 * prop.length);
    e2(PUTFIELD, iid, base);
    str(prop);
    i32(val);
  }

  function logCall(iid, fid, fe, fsid) {
    if (stopped || !before()) return;
    note(CALL);
    need(17);
    e4(CALL, iid, fid, fe, fsid);
  }

  function logCreateObjDiffScript(sid, iid, id, type) {
    if (stopped || !before()) return;
    note(CREATE_OBJ);
    need(19);
    u8(UPDATE_CURRENT_SCRIPT);
    i32(sid);
    u8(type);
    i32(iid);
    i32(id);
    u8(UPDATE_CURRENT_SCRIPT);
    i32(curSid);
  }

  function logScriptEnter(iid, sid, file) {
    releaseHeld();
    if (stopped || !before()) return;
    note(SCRIPT_ENTER);
    need(13 + 2 * file.length);
    u8(SCRIPT_ENTER);
    i32(iid);
    i32(sid);
    str(file);
  }

  function logSourceMapping(iid, a, b, c, d) {
    if (stopped || !before()) return;
    need(21);
    e4(SOURCE_MAPPING, iid, a, b, c);
    i32(d);
    time--;
  }

  function logFreeVars(iid, names) {
    if (stopped || !before()) return;
    if (typeof names === 'string') {
      need(13 + 2 * names.length);
      u8(FREE_VARS);
      i32(iid);
      i32(-1);
      str(names);
    } else {
      let n = 9;
      for (let i = 0; i < names.length; i++) n += 24 + 2 * $String(names[i]).length;
      need(n);
      u8(FREE_VARS);
      i32(iid);
      i32(names.length);
      for (let i = 0; i < names.length; i++) varName($String(names[i]));
    }
    time--;
  }

  function logLastUse(id, t, iid) {
    if (stopped) return;
    meta(); // beforeLog(true): no periodic flush, and no tick
    const sid = sidOfIid(iid);
    need(9 + SITE_MAX);
    e2(LAST_USE, id, t);
    site(sid, iid);
  }

  // flushLastUse writes the pending last uses in ascending id order and
  // END_LAST_USE (LastUseManager.flushLastUse).
  function flushLastUse() {
    if (stopped) return;
    if (eagerSinceBlock) {
      // all-uses mode: normal mode's block would hold a LAST_USE, whose
      // beforeLog writes the pending flush.
      eagerSinceBlock = false;
      meta();
    }
    if (luCount > 0) {
      const n = luCount;
      // The block lists the ids in ascending order: the table's ids,
      // sorted (sortIds: a radix sort; the engine's sort took RayTrace
      // 1.2% of its CPU, a heap sort of slots in JavaScript 2.7%), each
      // then found again in the table. The scratch arrays are as long as
      // the table (which holds under half as many ids).
      if (sortA.length < n) {
        sortA = new Int32Array(luCap);
        sortB = new Int32Array(luCap);
      }
      let j = 0;
      let max = 0;
      for (let s = 0; s < luCap; s++) {
        const id = luKeys[s];
        if (id !== 0) {
          sortA[j++] = id;
          if (id > max) max = id;
        }
      }
      const order = sortIds(sortA, sortB, sortCount, n, max);
      const mask = luCap - 1;
      for (let k = 0; k < n; k++) {
        const id = order[k];
        let s = imul(id, -1640531535) >>> luShift;
        while (luKeys[s] !== id) s = (s + 1) & mask;
        logLastUse(id, luT[s], luI[s]);
      }
      luCount = 0;
      if (luCap > 4096 && n < luCap >> 3) {
        let c = 4096;
        while (c < 4 * n) c *= 2;
        luResize(c, true); // empty, smaller
        sortA = new Int32Array(luCap);
        sortB = new Int32Array(luCap);
      } else {
        apply(typedArrayFill, luKeys, [0]);
      }
    }
    need(1);
    u8(END_LAST_USE);
  }

  // Scratch of sortIds (sortids.js) for the last-use blocks.
  var sortA = new Int32Array(4096);
  var sortB = new Int32Array(4096);
  var sortCount = new Int32Array(256);

  // use records a use of object id at global iid g, after the most recent
  // counted entry (LastUseManager.updateLastUse).
  function use(id, g) {
    if (allUses) {
      eagerUse(id, g);
      return;
    }
    luSet(id, g);
  }

  // eagerUse is a use in all-uses mode (MemInsight's eagerFlush): written
  // at once, as a block of its own (LAST_USE, END_LAST_USE), so that the
  // trace keeps spec 1.4a's block structure. Its time is that of the last
  // counted entry, as in a block. Unlike MemInsight's, it does not write
  // the pending flush (only UPDATE_CURRENT_SCRIPT): the counted entries,
  // hence every time and every engine result, are those of the normal
  // mode. The block that normal mode would write next writes the flush
  // (flushLastUse).
  var eagerSinceBlock = false;
  function writeSid() {
    if (curSid !== emittedSid) {
      emittedSid = curSid;
      need(5);
      e1(UPDATE_CURRENT_SCRIPT, curSid);
    }
  }
  function eagerUse(id, g) {
    if (stopped) return;
    writeSid();
    const sid = sidOfIid(g);
    need(10 + SITE_MAX);
    e2(LAST_USE, id, time);
    site(sid, g);
    u8(END_LAST_USE);
    eagerSinceBlock = true;
  }

  // The readers of the hook copies G0.., P0.. (ids.js, Stamp.u0..).
  var [readU0, readU1, readU2, readU3, readU4, readU5, readU6, readU7, readU8, readU9, readU10, readU11, readU12, readU13, readU14, readU15, readU16, readU17, readU18, readU19, readU20, readU21, readU22, readU23, readU24, readU25, readU26, readU27, readU28, readU29, readU30, readU31] = useReaders;
  var [readP0, readP1, readP2, readP3, readP4, readP5, readP6, readP7, readP8, readP9, readP10, readP11, readP12, readP13, readP14, readP15, readP16, readP17, readP18, readP19, readP20, readP21, readP22, readP23, readP24, readP25, readP26, readP27, readP28, readP29, readP30, readP31] = putReaders;

  // useHit: the rest of a use hook copy, given what its reader read from o
  // (an object): the use of o's id at local iid i of h. useHitAll in
  // all-uses mode (configure).
  // putRead is put for a P copy, given what its reader read from o (an
  // object; k is not): a write of a primitive to an own property of an
  // object with its id in the field that put would not log (the engine
  // holds no edge from o: the primitive-elision rule, whatever the
  // setter rule says) is made and counted as a use at once.
  // c: the copy's number, for its own keyed store.
  // A primitive written to a typed array under a number (every number is
  // a numeric key there: an element in range, else nothing) never makes
  // a property, reaches a setter or removes an edge: stored and used.
  function putRead(h, i, o, k, v, s, r, c) {
    if (typeof k === 'number' && r > 0 && !isObj(v) && !allPutfields && hasBit(typedPages, r)) {
      keyedStore(c, s)(o, k, v);
      curSid = h.sid;
      use(r, h.base + i);
      return v;
    }
    const f = s >= 2 ? siteStore(h.base + i, k, s & 1) : undefined;
    if (r <= 0 || allPutfields || isObj(v) || mayHoldEdge(r, f !== undefined ? f.kn : 0)) return put(h, i, o, k, v, s, r, true, f);
    if (!hasOwn(o, k)) return put(h, i, o, k, v, s, r, false, f); // a new property: put need not ask again
    if (f !== undefined) f(o, k, v);
    else keyedStore(c, s)(o, k, v);
    curSid = h.sid;
    use(r, h.base + i);
    return v;
  }

  // quick: Pq's test, for o's id r read by the copy's reader.
  // A miss leaves what it learnt for Pm, which the program calls next:
  // qR, o's id as read (put's known), and qStamp, put's stamp (false: not
  // o's own property; true: put must look; undefined: nothing read).
  var qR = 0;
  var qStamp;
  function unread() {
    qR = 0;
    qStamp = undefined;
    return 0;
  }
  function quick(o, k, v, r) {
    if (r > 0 && !allPutfields && !isObj(v)) {
      if (typeof k === 'number' && hasBit(typedPages, r)) return r;
      if (!mayHoldEdge(r, 0)) {
        if (hasOwn(o, k)) return r;
        qR = r;
        qStamp = false;
        return 0;
      }
    }
    qR = r;
    qStamp = true;
    return 0;
  }

  function useHitFast(h, i, o, v) {
    const id = stampedId(v, o);
    if (id !== 0) luSet(id, h.base + i);
    return o;
  }
  function useHitAll(h, i, o, v) {
    const id = stampedId(v, o);
    if (id !== 0) {
      curSid = h.sid;
      use(id, h.base + i);
    }
    return o;
  }
  var useHit = useHitFast;

  // mObj, mId: the object of the last method lookup (M0..M31, Mt) and its
  // id on the field, for the callee's Fe: the this of a method call is the
  // object whose id the lookup has just read, which Fe would otherwise read
  // again through one reader for every function of the program (a
  // megamorphic read once the program has a few kinds of object: Richards,
  // 2.5% of its CPU). Held from the lookup to the next Fe, function exit,
  // call end or invoke, so that the shim keeps no object alive.
  var mObj;
  var mId = 0;
  // useM is useHit for a method lookup (M0..M31), remembering o.
  function useMFast(h, j, o, v) {
    if (v > 0) {
      mObj = o;
      mId = v;
      luSet(v, h.base + j);
      return;
    }
    const id = stampedId(v, o);
    if (id !== 0) luSet(id, h.base + j);
  }
  function useMAll(h, j, o, v) {
    if (v > 0) {
      mObj = o;
      mId = v;
    }
    useHitAll(h, j, o, v);
  }
  var useM = useMFast;

  // useG is G in all-uses mode (configure installs it).
  function useG(i, o) {
    if (isObj(o)) {
      const id = useIdOf(o);
      if (id !== 0) {
        curSid = this.sid;
        use(id, this.base + i);
      }
    }
    return o;
  }

  // ---------------------------------------------------------------- ids

  // createdOnField: the last object create gave an id keeps it on the field
  // (setId), not in the fallback map.
  var createdOnField = false;

  // create gives object o a new id and writes its CREATE_OBJ at global iid
  // g, or at the remembered native-call site (ObjIdManager.createObjId).
  // create: re, o may be a RegExp (see setId).
  function create(o, g, re) {
    let allocIid = g;
    let allocSid = curSid;
    if (nativeCount !== 0) {
      const s = nativeSite.get(o);
      if (s !== undefined) {
        // A negative site: a regexp the RegExp constructor made (it keeps
        // its id in the fallback map, see setId).
        allocIid = s < 0 ? -s : s;
        allocSid = sidOfIid(allocIid);
        if (s < 0) re = true;
      }
    }
    if (typeof o === 'function' && feFromSource(o) > 0) return createEarly(o, allocIid);
    const id = newId();
    createdOnField = setId(o, id, re);
    if (re !== 2) markTyped(o, id);
    const type = isDomNode !== undefined && isDomNode(o) ? CREATE_DOM_NODE : CREATE_OBJ;
    if (allocSid !== curSid) logCreateObjDiffScript(allocSid, allocIid, id, type);
    else log3(type, allocIid, id);
    if (type === CREATE_DOM_NODE && hostModel !== undefined) hostModel.created(o);
    return id;
  }

  // markGen records, for a generator function (1) or an async generator
  // function (2) made by script h, that its calls run no code (callStart
  // writes no CALL: its body is entered by next()).
  function markGen(fn, fe, h) {
    const gen = genKind(getPrototypeOf(fn));
    const k = fe - h.base;
    if (gen !== 0 && k > 0 && k < h.nSites + 2) {
      if (h.feGen === null) h.feGen = new Uint8Array(h.nSites + 2);
      h.feGen[k] = gen;
    }
  }

  // genKind tells a generator function (1) or an async generator function
  // (2) by its prototype fp, also another realm's (installRealm).
  var realmGen = new SafeMap();
  function genKind(fp) {
    return fp === GeneratorFunctionPrototype ? 1 : fp === AsyncGeneratorFunctionPrototype ? 2
      : realmGen.size === 0 ? 0 : realmGen.has(fp) ? realmGen.get(fp) : 0;
  }

  // createEarly gives its id to an instrumented function that reaches the
  // shim before its F: a function declaration of an ES module whose body
  // has not run, seen by another module of an import cycle (the value of
  // an import, an argument). It is a function (CREATE_FUN, at the site
  // that first saw it, its function-enter iid unknown: the script that
  // made it may not have entered yet), so that entering it later enters a
  // function; its F records its script (F).
  function createEarly(fn, g) {
    const id = newId();
    createdOnField = setId(fn, id);
    let pid = 0;
    const proto = fn.prototype;
    if (isObj(proto)) {
      pid = newId();
      if (idOf(proto) === 0) setId(proto, pid);
    }
    log4(CREATE_FUN, g, -1, id);
    if (pid === 0) newId(); // the announced prototype
    return id;
  }

  function idOrCreate(o, g) {
    const id = idOfNew(o);
    return id !== 0 ? id : create(o, g);
  }

  // createFun gives a function its id and, when fn.prototype is an object,
  // the prototype id+1 (MemInsight's rule), and writes CREATE_FUN. The
  // entry announces id+1 as the function's prototype (MemInsight's engine
  // materialises it, with a "prototype" edge, for every function), so a
  // function without a prototype object (an arrow, a method, an accessor,
  // an async function, a native or a bound function first seen in a
  // literal) still gets id+1 reserved: the next object would otherwise
  // take it and live, in the model, as long as the function. MemInsight's
  // writer skips it (spec §7, "Ids and prototypes"): the goldens that
  // show it are in testdata/fidelity.
  // fresh: fn was made by the literal being evaluated (F); its prototype,
  // if it has an ordinary one, gets the id when it first reaches the shim
  // (ids.js, claimProto) instead of being made here.
  function createFun(fn, g, fe, h, fresh) {
    const id = newId();
    setId(fn, id);
    let pid = 0, gen = 0;
    // (A fresh literal is never a proxy: its prototype chain is read
    // without a trap.)
    if (fresh === true && lazy && getPrototypeOf(fn) === FunctionPrototype) {
      // An ordinary function or a base class: hasOwn does not make the
      // prototype object, and for a fresh literal it is there exactly
      // when it is an object.
      if (hasOwn(fn, 'prototype')) pid = newId();
      if (!setFunInfo(fn, fe > 0 ? fe : 0, g, h, pid) && pid !== 0) setId(fn.prototype, pid);
    } else {
      const proto = fn.prototype;
      if (isObj(proto)) {
        pid = newId();
        if (idOf(proto) === 0) setId(proto, pid);
        if (fe > 0) {
          gen = genKind(getPrototypeOf(fn));
        }
      }
      setFunInfo(fn, fe > 0 ? fe : 0, g, h, 0);
    }
    if (fe > 0) {
      const k = fe - h.base;
      if (gen !== 0 && k > 0 && k < h.nSites + 2) {
        if (h.feGen === null) h.feGen = new Uint8Array(h.nSites + 2);
        h.feGen[k] = gen;
      }
    }
    log4(CREATE_FUN, g, fe, id);
    if (pid === 0) newId(); // the announced prototype
    return id;
  }
  var lazy = lazyProtos();

  // literalFun is F for a function the rewriter could not wrap: an
  // accessor or method of an object literal or a class, or any function
  // (a native too) that a literal stores.
  function literalFun(fn, g, h) {
    let id = idOf(fn);
    if (id !== 0) return id;
    const fe = feFromSource(fn);
    if (fe > 0 && fe <= h.nSites) {
      id = createFun(fn, g, h.base + fe, h);
      h.closures[h.slot[fe]] = id;
    } else {
      id = createFun(fn, g, -1, h);
    }
    return id;
  }

  // feFromSource finds the function-enter iid of an instrumented function
  // the rewriter could not wrap in F (accessors, methods), from its source
  // text, as MemInsight does (its prologue, `const __mt$f = H.Fe(fe`,
  // whatever the handle's name, or `(H || __mt$h()).Fe(fe` in a function
  // declaration of an ES module); 0 when there is none.
  var feRegExp = /__mt\$f = (?:[\w$]+|\([\w$]+ \|\| __mt\$h\(\)\))\.F[eg]\((\d+)/;
  function feFromSource(fn) {
    let src;
    try { src = apply(fnToString, fn, []); } catch { return 0; }
    const m = apply(regExpExec, feRegExp, [src]);
    return m === null ? 0 : +m[1];
  }

  // classWrite: a write to fn, which has no id: a class being defined (a
  // static block's this.k = v, before F gives it its id) keeps the value
  // for F to log, as Q keeps a static field's, when the write made k an
  // own data property holding v (no setter took it).
  function classWrite(fn, k, v) {
    if (!isClassSource(fn)) return;
    let d;
    try { d = getOwnPropertyDescriptor(fn, k); } catch { return; }
    if (d === undefined || !hasOwn(d, 'value') || d.value !== v) return;
    pendingStatic[pendingStatic.length] = fn;
    pendingStatic[pendingStatic.length] = typeof k === 'string' ? k : $String(k);
    pendingStatic[pendingStatic.length] = v;
  }

  // isClassSource reports whether fn is a class (its source text starts
  // with "class").
  function isClassSource(fn) {
    let src;
    try { src = apply(fnToString, fn, []); } catch { return false; }
    return typeof src === 'string' && src.length > 5 && src[0] === 'c' && src[1] === 'l' && src[2] === 'a' && src[3] === 's' && src[4] === 's';
  }

  // ---------------------------------------------------------------- writes

  function setSloppy(o, k, v) { o[k] = v; }
  function setStrict(o, k, v) { 'use strict'; o[k] = v; }

  // A write the program makes as o.name = v is made as a named store too,
  // by a small function per name and strictness (made once, with the
  // native Function constructor): V8 turns an object into a dictionary
  // once a keyed store (o[k] = v) has added more than a dozen properties
  // out of its object, where named stores may add up to 128, so writing
  // o.p through setSloppy's keyed store made slow objects of the
  // program's namespaces, exports and many-field instances (and garbage
  // of their growing dictionaries). Where code cannot be made from strings
  // the keyed store stands in (a name from the instrumenter is always an
  // IdentifierName).
  var STORE_TAIL = ' /* node-do-not-add-exception-line */\n//# sourceURL=memtrace-store';
  var namedStores = [new SafeMap(), new SafeMap()];
  // siteStore is namedStore for the write at global iid g, whose name and
  // strictness never change: a direct-mapped cache by g of the stores the
  // last writes used, so that a write does not look its name up in a map
  // (Richards: 1% of its CPU in that lookup).
  var storeIid = new Int32Array(STORE_SLOTS);
  apply(typedArrayFill, storeIid, [-1]);
  var storeFn = new Array(STORE_SLOTS);
  function siteStore(g, k, strict) {
    const s = g & (STORE_SLOTS - 1);
    if (storeIid[s] === g) return storeFn[s];
    const f = namedStore(k, strict);
    storeIid[s] = g;
    storeFn[s] = f;
    return f;
  }
  function namedStore(k, strict) {
    const m = namedStores[strict];
    let f = m.get(k);
    if (f === undefined) {
      try {
        // named like a file of the shim's own, so that stacks leave its frame
        // out; the mark keeps Node from printing its line above an uncaught
        // error thrown there (a write to undefined's property)
        f = N_FUNCTION('o', 'k', 'v', (strict ? '"use strict";o.' : 'o.') + k + '=v' + STORE_TAIL);
      } catch {
        // no code from strings
        f = strict ? (o, k, v) => setStrict(o, k, v) : (o, k, v) => setSloppy(o, k, v);
      }
      f.kn = keyNum(k); // the name's number (field table)
      m.set(k, f);
    }
    return f;
  }
  // keyedStore(c, strict): copy c's own keyed store (o[k] = v), made on
  // first use with the native Function constructor. One shared store site
  // sees every kind of object the program writes by key and turns
  // megamorphic, where V8 makes a store to a typed array's element through
  // its runtime (about 7x a polymorphic site's cost): numeric code writing
  // Int32Array and Uint8Array views of one heap spent a sixth of its time
  // there. A copy's site sees the writes of a 32nd of the program's sites.
  // Where code cannot be made from strings the shared stores stand in.
  var keyedStores = [];
  function keyedStore(c, strict) {
    const n = 2 * c + strict;
    let f = keyedStores[n];
    if (f === undefined) {
      try {
        f = N_FUNCTION('o', 'k', 'v', (strict ? '"use strict";' : '') + 'o[k]=v' + STORE_TAIL);
      } catch {
        f = strict ? setStrict : setSloppy;
      }
      keyedStores[n] = f;
    }
    return f;
  }
  function delSloppy(o, k) { return delete o[k]; }
  function delStrict(o, k) { 'use strict'; return delete o[k]; }

  // isAccessor reports whether k is an accessor property of o or its
  // prototype chain; the walk stops at a proxy (whose traps the program
  // would see), as at a data property.
  function isAccessor(o, k) {
    let t = o;
    while (t !== null && t !== undefined) {
      if (proxy(t)) return false;
      const d = getOwnPropertyDescriptor(t, k);
      if (d !== undefined) return d.get !== undefined || d.set !== undefined;
      t = getPrototypeOf(t);
    }
    return false;
  }

  function toKey(k) {
    return typeof k === 'symbol' ? k : $String(k);
  }

  // ---------------------------------------------------------------- calls

  function invoke(h, i, f, base, args, isNew, hook) {
    mObj = undefined;
    retObj = undefined;
    if (callPending) return callAside(h, i, f, base, args, isNew);
    curSid = h.sid;
    const ci = h.base + i;
    if (typeof f === 'function' && !isNew) {
      // Reflection: the call of its target, as if written directly (the
      // target's CALL, models and use); the reflective function itself is
      // native and unused.
      const rk = nativeKind(f);
      if (rk >= K_REFLECT_APPLY) {
        if (rk === K_CALL && typeof base === 'function') {
          return invoke(h, i, base, args[0], apply(arraySlice, args, [1]), false, hook);
        }
        if (rk === K_CALL) {
          // call's receiver is not callable (Function.prototype.call.call(1)):
          // the engine's message names the program's callee as written.
          const e = notCallable(h, ci, false, hook);
          if (e !== undefined) throw e;
        }
        if (rk === K_APPLY && typeof base === 'function') {
          const a = args[1];
          return invoke(h, i, base, args[0], a === undefined || a === null ? [] : a, false, hook);
        }
        if (rk === K_REFLECT_APPLY && typeof args[0] === 'function' && isObj(args[2])) {
          return invoke(h, i, args[0], args[1], args[2], false, hook);
        }
        if (rk === K_REFLECT_CONSTRUCT && typeof args[0] === 'function' && isObj(args[1]) && (args.length < 3 || args[2] === args[0])) {
          return invoke(h, i, args[0], undefined, args[1], true, hook);
        }
      }
    }
    if (debugFun !== '' && typeof f === 'function' && f.name === debugFun) {
      const a = args[0];
      if (isObj(a)) log3(DEBUG, ci, idOrCreate(a, ci));
    }
    const fv = typeof f === 'function' ? fieldOf(f) : 0;
    const kind = fv < 0 ? -fv : fv > 0 ? kindOf(fv) : 0;
    if (kind === K_EVAL) {
      if (typeof args[0] === 'string') {
        const s0 = args[0];
        args[0] = instrumentCode(s0, 'evalIndirect', undefined, h);
        if (args[0] !== s0 && hook !== undefined && s0.length <= CODE_CACHE_SRC) evalOrigin('evalIndirect\0' + s0, hook, false);
      }
    } else if ((kind === K_SET_TIMEOUT || kind === K_SET_INTERVAL) && typeof args[0] === 'string' && timersTakeStrings) {
      args[0] = instrumentCode(args[0], 'timer', undefined, h);
    }
    let hostPre;
    if (kind >= K_HOST) {
      if (hostModel !== undefined) hostPre = hostModel.before(kind, ci, base, args);
    } else if (kind === K_SPLICE) {
      spliceOldLen = lengthOf(base);
    } else if (kind === K_SET_TIMEOUT || kind === K_SET_IMMEDIATE || kind === K_NEXT_TICK) {
      preSetTimeout(ci, args, kind === K_SET_TIMEOUT ? 2 : 1);
    } else if (kind === K_ALS_RUN) {
      alsRun(ci, args);
    } else if (kind === K_MAP_CLEAR || kind === K_SET_CLEAR) {
      clearKeys = collectionKeys(base, kind === K_MAP_CLEAR);
    } else if (kind === K_MAP_DELETE || kind === K_SET_DELETE || kind === K_WEAK_MAP_DELETE) {
      deleteHad = collectionHas(base, args[0], kind);
    } else if (kind >= K_PROMISE && kind <= K_FINALLY) {
      if (prePromise(kind, ci, base, args, isNew)) {
        // p.catch(r) as p.then(fulfilled, r), its definition, so that a
        // wrapper runs however p settles (when p.then is the native one).
        f = N_PROMISE_THEN;
        args = catchArgs;
        catchArgs = null;
      }
    } else if (kind === 0 && fv > 0) {
      const fid = fv;
      const fe = funFe(f);
      if (fe !== 0 && funGen(f, fe) === 0) {
        callWritten(ci, fid, fe, funSid(f), isNew);
      }
    }
    if (typeof f !== 'function') {
      // V8's message names the callee as the program wrote it (the
      // native apply's or construct's would name the shim's own call).
      throw notCallable(h, ci, isNew, hook, true);
    }
    let val;
    const since = nextId; // ids above it are first given during the call
    // Object.defineProperty, Reflect.defineProperty, Reflect.set of an
    // array's length: the elements a shorter length deletes (put's rule).
    const cut = (kind === K_DEFINE_PROPERTY || kind === K_REFLECT_SET) && args[1] === 'length' && isObj(args[0]) && !proxy(args[0]) && isArray(args[0]) ?
      objectsFrom(args[0], kind === K_REFLECT_SET && typeof args[2] === 'number' ? args[2] : 0) : null;
    if (kind === K_FUNCTION) val = makeFunction(f, args, hook, h);
    else if (kind === K_GEN_RESUME) val = resume(f, base, args);
    else if (kind === K_ERROR && hook !== undefined) val = makeError(h, i, f, base, args, isNew, hook);
    else if (kind === K_EVAL) {
      // Eval code without a try statement (instrument.blockScoped) that
      // throws is left here.
      const n = openScripts.length;
      try {
        val = apply(f, base, args);
      } catch (e) {
        leaveScripts(n);
        throw e;
      }
    } else if (kind === K_LOC && !isNew && locAt !== undefined && hook !== undefined) val = callAtCaller(f, base, args, hook);
    else if (!isNew) val = apply(f, base, args);
    else {
      // A subclass of an error constructor: the engine captures its stack
      // in the native constructor, with the program's limit counting the
      // shim's frames; raised, the filter keeps the program's limit of
      // the program's frames (stacks.js).
      const E = hook !== undefined && !proxy(f) && errorSub(f);
      let lim, raised = false;
      if (E && !limitRaised(E)) {
        lim = E.stackTraceLimit;
        if (typeof lim === 'number' && lim > 0 && lim < 1e4) {
          try {
            E.stackTraceLimit = 4 * lim + 4;
            raised = true;
          } catch { /* read-only */ }
        }
      }
      try {
        val = construct(f, args);
      } catch (e) {
        throw newFailed(h, i, f, e, hook);
      } finally {
        if (raised && E.stackTraceLimit === 4 * lim + 4) E.stackTraceLimit = lim;
      }
    }
    callPending = false;
    curSid = h.sid;
    if (isObj(val)) returned(ci, f, val, isNew);
    if (kind >= K_HOST) {
      if (hostModel !== undefined) hostModel.after(kind, ci, base, args, val, hostPre);
    } else if (kind !== 0 && kind !== K_ERROR && kind !== K_LOC) modelAfter(kind, ci, base, args, val, since, f);
    else if (kind === K_ERROR && isObj(val)) errorHolds(ci, val);
    if (cut !== null) lengthCut(ci, args[0], cut);
    if (isObj(f)) {
      const fid = idOf(f);
      if (fid !== 0) use(fid, ci);
    }
    return val;
  }

  // errorSub returns, for a subclass f of an error constructor (class
  // extends Error, or TypeError…: its constructor chain reaches one), the
  // Error constructor of that realm; undefined for any other function.
  var errorSubs = new SafeWeakMap(); // f -> Error constructor, or null
  function errorSub(f) {
    let r = errorSubs.get(f);
    if (r !== undefined) return r === null ? undefined : r;
    r = null;
    let p = f;
    for (let d = 0; d < 64; d++) {
      if (proxy(p)) break;
      p = getPrototypeOf(p);
      if (typeof p !== 'function') break;
      if (nativeKind(p) === K_ERROR) {
        r = errorRealm.get(p);
        if (r === undefined) r = $MainError;
        break;
      }
    }
    errorSubs.set(f, r);
    return r === null ? undefined : r;
  }
  // errorRealm: the Error constructor of another realm's error
  // constructors (installRealm), whose stackTraceLimit and capture count.
  var errorRealm = new SafeWeakMap();
  // makeError: an error constructor called through the call hook hook.
  // The engine captures an error's stack when it is made, here inside the
  // hook: its top frame, where Node points when it prints an uncaught
  // error or an unhandled rejection (the source line and caret), was the
  // shim's line (tens of KB of minified text), and the shim's frames took
  // places of Error.stackTraceLimit's. The error is made with the limit at
  // 0 and its stack captured once, without the hook and the frames above
  // it, with the limit raised (the stack's filter, stacks.js, keeps the
  // limit's number of the program's frames): as the program's own call
  // would have captured it.
  function makeError(h, i, f, base, args, isNew, hook) {
    const RE = errorRealm.get(f);
    const $Error = RE === undefined ? $MainError : RE;
    let captureStackTrace = RE === undefined ? mainCapture : undefined;
    if (RE !== undefined) {
      try { captureStackTrace = getOwnPropertyDescriptor(RE, 'captureStackTrace').value; } catch { captureStackTrace = undefined; }
      if (typeof captureStackTrace !== 'function') captureStackTrace = undefined;
    }
    const lim = $Error.stackTraceLimit;
    if (captureStackTrace === undefined || typeof lim !== 'number' || !(lim >= 0) || lim >= 1e4) {
      return isNew ? constructError(h, i, f, args) : apply(f, base, args);
    }
    // With only primitives to read, no code of the program's runs while
    // the limit is 0 (an object, a message with toString or an options
    // object with a cause getter, sees the limit it set: the error is then
    // made as it is, and its stack captured a second time).
    let plain = true;
    for (let k = 0; k < args.length; k++) if (isObj(args[k])) plain = false;
    let set = false;
    if (plain) {
      try {
        $Error.stackTraceLimit = 0;
        set = true;
      } catch { /* a limit the program made read-only: the engine's capture stays */ }
    }
    let v;
    if (set) holdLimit(1);
    try {
      v = isNew ? constructError(h, i, f, args) : apply(f, base, args);
    } finally {
      if (set) {
        $Error.stackTraceLimit = lim;
        holdLimit(-1);
      }
    }
    if (isObj(v)) captureAbove($Error, captureStackTrace, v, hook);
    return v;
  }
  // captureAbove captures error e's stack again above hook (the program's
  // call of it at the top), with E's limit L raised to 4L + 4 unless it is
  // kept raised (stacks.js): the filter keeps L of the program's frames.
  function captureAbove(E, capture, e, hook) {
    const lim = E.stackTraceLimit;
    let raised = false;
    if (!limitRaised(E) && typeof lim === 'number' && lim > 0 && lim < 1e4) {
      try {
        E.stackTraceLimit = 4 * lim + 4;
        raised = true;
      } catch { /* read-only: the program's limit counts the shim's frames */ }
    }
    try {
      apply(capture, E, [e, hook]);
    } catch { /* a frozen error: its stack stays */ }
    if (raised && E.stackTraceLimit === 4 * lim + 4) E.stackTraceLimit = lim;
  }
  function constructError(h, i, f, args) {
    try {
      return construct(f, args);
    } catch (e) {
      throw newFailed(h, i, f, e);
    }
  }

  // The call hooks' fast path (c0..c6, m0..m6, n0..n6: calls with that
  // many arguments and no spread), for a callee without a model: callStart
  // does what invoke does before the call and returns the callee's id, or
  // -1 when the callee is a modelled native (then invoke does everything,
  // with an arguments array); callEnd does what invoke does after it.
  // retObj, retId: the object the last return statement returned (R) and
  // its id, for the caller's call hook (returned), which would read the id
  // again through the shim's shared reader (megamorphic: Richards, 1.2% of
  // its CPU). Held until that hook, the next call or function entry, so
  // that the shim keeps no object alive; an id never changes once given.
  var retObj;
  var retId = 0;

  function callStart(h, i, f, isNew, n, a0) {
    retObj = undefined;
    if (callPending) return -1; // a call in a pending callee's parameter list
    const fv = fieldOf(f);
    if (fv < 0 || (fv > 0 && kindOf(fv) !== 0)) return -1;
    if (isNew && !proxy(f) && getPrototypeOf(f) !== FunctionPrototype && errorSub(f) !== undefined) return -1; // invoke
    curSid = h.sid;
    const ci = h.base + i;
    if (debugFun !== '' && f.name === debugFun && n > 0 && isObj(a0)) log3(DEBUG, ci, idOrCreate(a0, ci));
    const fe = fv > 0 ? funFe(f) : 0;
    if (fe === 0) return fv;
    // funGen and funSid with one read of the function's script.
    const h2 = funScript(f);
    let fsid = 0;
    if (h2 !== undefined) {
      const k = fe - h2.base;
      if (h2.feGen !== null && k > 0 && k < h2.feGen.length && h2.feGen[k] !== 0) return fv;
      fsid = h2.sid;
    }
    callWritten(ci, fv, fe, fsid, isNew);
    return fv;
  }

  // callWritten writes the CALL at global iid ci of function fid (entry
  // iid fe, in script fsid) and leaves it pending for the callee's Fe.
  function callWritten(ci, fid, fe, fsid, isNew) {
    logCall(ci, fid, fe, fsid);
    callPending = true;
    pendFe = fe;
    pendFid = fid;
    pendCtor = isNew;
    pendDepth = fdepth;
    pendCallSid = fsid;
  }

  // callAside is invoke for a call that starts while a CALL is pending (in
  // the pending callee's parameter list, or in a function that list
  // called): the pending CALL waits for its callee's Fe again once the
  // call returns or throws.
  function callAside(h, i, f, base, args, isNew) {
    const fe = pendFe, fid = pendFid, ctor = pendCtor, depth = pendDepth, sid = pendCallSid;
    callPending = false;
    try {
      return invoke(h, i, f, base, args, isNew);
    } finally {
      callPending = true;
      pendFe = fe;
      pendFid = fid;
      pendCtor = ctor;
      pendDepth = depth;
      pendCallSid = sid;
    }
  }

  // callLeft: before a frame at the model's depth pendDepth exits (or the
  // script ends), a pending CALL there is one whose callee never entered:
  // its parameter list threw. Its FUNCTION_EXIT (at its entry iid) leaves
  // the frame the CALL opened.
  function callLeft() {
    callPending = false;
    const saved = curSid;
    curSid = pendCallSid;
    log2(FUNCTION_EXIT, pendFe);
    curSid = saved;
  }

  // notCallable is the TypeError of a call (or new) at global iid g of
  // script h whose callee is not a function, with V8's message naming the
  // callee from the call's original text (callee.js); undefined when the
  // text is unknown or its form is not rendered.
  // With hook (the call hook the program called), the stack starts at the
  // program's frame that called it and keeps Error.stackTraceLimit frames
  // of the program's, as makeError's errors do (captureAbove; the shim's
  // frames counted in the limit: an uncaught one showed a few frames less
  // than plain).
  // Without the call's original text (a file run from a directory where
  // its relative name finds nothing, a file moved since), the callee is
  // named as V8 names one it cannot print, "(intermediate value)"; so it
  // is with always for a form the renderer does not read.
  function notCallable(h, g, isNew, hook, always) {
    let name;
    const text = siteText(h, g);
    if (text === undefined) {
      name = '(intermediate value)';
    } else {
      try {
        name = calleeName(text, isNew);
      } catch {
        name = undefined;
      }
      if (name === undefined) {
        if (always !== true) return undefined;
        name = '(intermediate value)';
      }
    }
    const e = new $TypeError(name + (isNew ? ' is not a constructor' : ' is not a function'));
    if (hook !== undefined && mainCapture !== undefined) captureAbove($MainError, mainCapture, e, hook);
    return e;
  }

  // newFailed is what new f(…) at local iid i of script h throws when it
  // threw e: V8's "x is not a constructor" names the hook's own variable
  // when f is a function that is not a constructor (an arrow, a method),
  // so that TypeError is replaced by one naming the program's callee.
  // Whether f is a constructor: Reflect.construct checks its new.target
  // first (a proxy, whose prototype read would run a trap, is taken for
  // one).
  function newFailed(h, i, f, e, hook) {
    if (!(e instanceof $TypeError) || typeof f !== 'function' || proxy(f)) return e;
    try {
      construct(emptyCtor, [], f);
      return e; // a constructor: the error is its own
    } catch {
      // Not entered: the CALL written for it (an instrumented arrow or
      // method) is left at once.
      if (callPending && pendFe === funFe(f)) callLeft();
      const n = notCallable(h, h.base + i, true, hook);
      return n !== undefined ? n : e;
    }
  }
  function emptyCtor() {}

  // siteText is the original text of global iid g of script h, or
  // undefined.
  function siteText(h, g) {
    if (sidOfIid(g) !== h.sid) return undefined;
    const src = scriptText(h);
    if (src === null) return undefined;
    const p = 4 * (g - h.base - 1);
    const sites = siteTable(h);
    const ls = h.lineStarts;
    if (p < 0 || p + 3 >= sites.length || sites[p] === 0 || sites[p] > ls.length || sites[p + 2] > ls.length) return undefined;
    const start = ls[sites[p] - 1] + sites[p + 1] - 1;
    const end = ls[sites[p + 2] - 1] + sites[p + 3] - 1;
    if (start < 0 || end > src.length || start >= end) return undefined;
    return apply(strSlice, src, [start, end]);
  }

  // resume calls a generator's next, return or throw with resumeGen set to
  // the generator, so that its body's first Fg knows the object that
  // holds its frame.
  function resume(f, gen, args) {
    const saved = resumeGen;
    resumeGen = gen;
    try {
      return apply(f, gen, args);
    } finally {
      resumeGen = saved;
    }
  }

  // suspend is Ys and Yv for script h; r is the id of the yielded object
  // (0: none), which the frame object holds (its "~yield~" property) until
  // the frame resumes or completes: the consumer has it by then, and the
  // exits' flushes do not reclaim it fresh (a yielded closure keeps its
  // context). In an async generator the operand is held as given (a
  // promise, whose settled value the consumer then receives).
  // The frame object also holds the values of the names the resumption
  // declares again (nv: Y's name, value pairs, with loop iids as numbers):
  // the exits drop them from the contexts, and a resumption declares them
  // again in fresh ones. It captures nothing (no FREE_VARS): the names a
  // nested function captures are in the function's own context, which the
  // resume function keeps (makeResume).
  function suspend(h, i, d, r, nv) {
    if (callPending && pendDepth === fdepth) callLeft();
    curSid = h.sid;
    const g = h.base + i;
    makeResume(d);
    const fo = newId();
    newId(); // its announced prototype
    log4(CREATE_FUN, g, g, fo);
    if (r !== 0) logPutfield(g, fo, '~yield~', r);
    // The receiver, as V8's generator object keeps it (the exit drops the
    // context's this; the resumption declares it again).
    if (frameDis[d] > 1) logPutfield(g, fo, 'this', frameDis[d]);
    for (let k = 0; k < nv.length;) {
      if (typeof nv[k] === 'number') {
        k++;
        continue;
      }
      const x = nv[k + 1];
      if (isObj(x)) logPutfield(g, fo, nv[k], idOrCreate(x, g));
      k += 2;
    }
    frameFo[d] = fo;
    hold(d, g, fo);
    const its = frameIters[d];
    if (its !== undefined) for (let k = its.length - 1; k >= 0; k--) log2(FUNCTION_EXIT, its[k]);
    log2(FUNCTION_EXIT, g);
    frameSusp[d] = 2;
    curSid = frameSid[d];
  }

  // makeResume creates the resume function of frame d if it has one and
  // it does not exist yet (docs/instrumentation.md §7): at the frame's
  // first suspension or first suspending loop iteration, when the
  // function's own context is the current one. It is declared there
  // ("~resume~", which its FREE_VARS keep), so that it lives as long as
  // that context.
  function makeResume(d) {
    const rg = frameRes[d];
    if (rg === 0 || frameRf[d] !== 0) return;
    const rf = newId();
    newId(); // its announced prototype
    log4(CREATE_FUN, rg, rg, rf);
    logName(DECLARE, rg, '~resume~', rf);
    frameRf[d] = rf;
  }

  // enterIteration creates a loop's synthetic function at its iid g in the
  // current context (id+1 reserved, as for every CREATE_FUN) and enters it.
  function enterIteration(g) {
    const l = newId();
    newId(); // its announced prototype
    log4(CREATE_FUN, g, g, l);
    log3(FUNCTION_ENTER, g, l);
  }

  // hold makes the suspended frame d's frame object fo reachable (g: the
  // global iid of the suspension): a generator object known to hold the
  // frame gets a "~frame~" property; otherwise the frame object is kept by
  // a global name "~frame~ID" (a pending resumption: its job is a root).
  function hold(d, g, fo) {
    if (frameGen[d] !== 0) logPutfield(g, frameGen[d], '~frame~', fo);
    else logName(WRITE, g, '~frame~' + fo, fo);
  }

  function release(d, g) {
    const fo = frameFo[d];
    if (fo === 0) return;
    frameFo[d] = 0;
    if (frameGen[d] !== 0) logPutfield(g, frameGen[d], '~frame~', 0);
    else logName(WRITE, g, '~frame~' + fo, 0);
  }

  // returned: an object a call at global iid ci returned. The constructor
  // protocol (spec 3.3: UPDATE_IID and the __proto__ PUTFIELD of an object
  // made under construction), or, for an object without an id, its
  // allocation site should it get one later in this statement (spec 2.2a).
  function returned(ci, f, val, isNew) {
    // an object under construction has its id
    const vid = val === retObj ? retId : peekId(val);
    retObj = undefined;
    if (vid !== 0) {
      if (isUnder(vid)) {
        if (isNew) {
          log3(UPDATE_IID, vid, ci);
          const proto = f.prototype;
          if (isObj(proto)) logPutfield(ci, vid, '__proto__', idOrCreate(proto, ci));
        }
        clearUnder(vid);
      }
    } else if (!stopped) { // stopped: X no longer empties the map
      nativeSite.set(val, f === $RegExp ? -ci : ci);
      nativeCount++;
    }
  }

  function callEnd(h, i, f, fid, val, isNew) {
    callPending = false;
    curSid = h.sid;
    mObj = undefined;
    const ci = h.base + i;
    if ((typeof val === 'object' && val !== null) || typeof val === 'function') returned(ci, f, val, isNew);
    if (fid === 0) fid = idOf(f);
    if (fid !== 0) use(fid, ci);
    return val;
  }

  // preSetTimeout: setTimeout's model before the call (spec §3.6), also
  // setImmediate's, process.nextTick's and queueMicrotask's: the pending
  // callback is held by a global name, and so are the arguments from
  // index a0 on that Node passes it (names timerArgNames gives), until
  // it runs or is cleared.
  function preSetTimeout(ci, args, a0) {
    const fun = args[0];
    timerName = '';
    if (typeof fun !== 'function') return;
    const fid = idOrCreateFirst(fun, ci);
    const fe0 = funFe(fun);
    const fe = fe0 !== 0 ? fe0 : -1;
    const fsid = fe0 !== 0 ? funSid(fun) : 0;
    const name = '~timer~global~' + ++callbackCounter;
    log4Name(ci, name, fid);
    timerArgsHeld(ci, name, args, a0);
    const state = { timeoutId: undefined };
    // The wrapper's name tells the stack filter that the frame above it is
    // the timer's callback, which Node calls as timer._onTimeout()
    // (stacks.js, timerCallback).
    const wrapper = ({ __mt$timer(...a) {
      try {
        apply(fun, this, a);
      } finally {
        const saved = curSid;
        curSid = fsid;
        logName(WRITE, fe, name, 0);
        timerArgsReleased(fe, name);
        if (pend[0] === 0) setPending(fsid, fe);
        timerGlobals.delete(state.timeoutId);
        curSid = saved;
      }
    } }).__mt$timer;
    args[0] = wrapper;
    timerName = name;
    timerState = state;
  }

  // timerArgsHeld writes the global names name~1, name~2, ... for the
  // object arguments from index a0 on of a timer's call; timerArgsReleased
  // writes 0 to them.
  var timerArgs = new SafeMap(); // timer's name -> its argument names' count
  function timerArgsHeld(ci, name, args, a0) {
    let n = 0;
    for (let j = a0; j < args.length; j++) {
      if (!isObj(args[j])) continue;
      logName(WRITE, ci, name + '~' + (j - a0 + 1), idOrCreate(args[j], ci));
      n = j - a0 + 1;
    }
    if (n !== 0) timerArgs.set(name, n);
  }
  function timerArgsReleased(iid, name) {
    const n = timerArgs.get(name);
    if (n === undefined) return;
    timerArgs.delete(name);
    for (let j = 1; j <= n; j++) logName(WRITE, iid, name + '~' + j, 0);
  }

  // idOrCreateFirst is idOrCreate, for the write that precedes the call.
  function idOrCreateFirst(o, ci) {
    return idOrCreate(o, ci);
  }
  function log4Name(ci, name, id) {
    logName(WRITE, ci, name, id);
  }

  function setPending(sid, iid) {
    pend[0] = 1;
    pendSid = sid;
    pendIid = iid;
  }

  function elemId(v) {
    return isObj(v) ? idOf(v) : 0;
  }
  var ArrayCtor = Array;

  // The models read what a native left behind without the program seeing
  // it: only the native's own reads may run a getter or a proxy's trap
  // (Object.assign onto a setter whose getter throws, splice on an array
  // with an accessor element, a proxy's traps counting reads). ownData is
  // o's own data property k, read through its descriptor (undefined for an
  // accessor, a missing property, or a property the engine refuses to
  // describe); o must not be a proxy.
  function ownData(o, k) {
    try {
      if (ownGetter !== undefined) {
        // An own property whose getter is undefined is data, or an
        // accessor without a getter, whose read runs nothing either.
        return hasOwn(o, k) && ownGetter(o, k) === undefined ? o[k] : undefined;
      }
      const d = getOwnPropertyDescriptor(o, k);
      return d !== undefined && hasOwn(d, 'value') ? d.value : undefined;
    } catch {
      return undefined;
    }
  }

  // lengthOf is o's length where reading it runs no code of the program's
  // (an array's, or an own data property's), else undefined: a proxy's,
  // an accessor's, an inherited one.
  function lengthOf(o) {
    if (!isObj(o) || proxy(o)) return undefined;
    if (isArray(o)) return o.length;
    const n = ownData(o, 'length');
    return typeof n === 'number' ? n : undefined;
  }

  // elemIdAt is elemId of o's element i, as ownData reads it.
  function elemIdAt(o, i) {
    return elemId(ownData(o, i));
  }

  // Collections. A Map's entry for key k is two PUTFIELDs on the map:
  // "~map~" + entryName(k) = the value and "~mapkey~" + entryName(k) = the
  // key (object keys only); a Set's member v is "~set~" + entryName(v).
  // entryName is "o" + id for objects, "s:" + the string, "n:" + the
  // number, and so on. A WeakMap's entry is an edge from the key to the
  // value, "~weakmap~" + id(map) on the key: the map holds nothing (an
  // ephemeron, approximated: the value lives while the key does). WeakSet
  // members make no edge. delete and clear write 0 to those names.
  var clearKeys = null;
  var deleteHad = false;

  function entryName(k, ci) {
    if (isObj(k)) return 'o' + idOrCreate(k, ci);
    const t = typeof k;
    return (t === 'string' ? 's' : t === 'number' ? 'n' : t === 'symbol' ? 'y' : t === 'bigint' ? 'b' : t === 'boolean' ? 'l' : 'u') + ':' + $String(k);
  }

  function collectionKeys(c, isMap) {
    const ks = [];
    try { apply(isMap ? mapForEach : setForEach, c, [(v, k) => { ks.push(k); }]); } catch { return null; }
    return ks;
  }

  function collectionHas(c, k, kind) {
    try {
      return kind === K_WEAK_MAP_DELETE ? apply(SafeWeakMap.prototype.has, c, [k]) :
        kind === K_MAP_DELETE ? apply(SafeMap.prototype.has, c, [k]) : apply(SafeSet.prototype.has, c, [k]);
    } catch { return false; }
  }

  function mapEntry(ci, mid, k, v) {
    const n = entryName(k, ci);
    logPutfield(ci, mid, '~map~' + n, isObj(v) ? idOrCreate(v, ci) : 0);
    if (isObj(k)) logPutfield(ci, mid, '~mapkey~' + n, idOf(k));
  }
  function weakEntry(ci, mid, k, v) {
    if (!isObj(k)) return;
    logPutfield(ci, idOrCreate(k, ci), '~weakmap~' + mid, isObj(v) ? idOrCreate(v, ci) : 0);
  }

  function modelCollection(kind, ci, base, args, val) {
    switch (kind) {
      case K_OBJECT_ASSIGN: {
        // Object.assign(target, ...sources): a PUTFIELD per copied
        // object-valued own enumerable string key.
        // The keys are the sources' again (a proxy's would run its traps),
        // the values the target's own data properties (a setter took its
        // value: no field).
        if (!isObj(val) || proxy(val)) break;
        let tid = 0;
        for (let a = 1; a < args.length; a++) {
          const src = args[a];
          if (!isObj(src) || proxy(src)) continue;
          let ks;
          try { ks = objectKeys(src); } catch { continue; }
          for (let j = 0; j < ks.length; j++) {
            const v = ownData(val, ks[j]);
            if (isObj(v)) {
              if (tid === 0) tid = idOrCreate(val, ci);
              logPutfield(ci, tid, ks[j], idOrCreate(v, ci));
            }
          }
        }
        break;
      }
      case K_ARRAY_FROM: {
        // Array.from(it): the new array (at the call site) and a PUTFIELD
        // per object element.
        // The array the main realm's Array.from made itself (no subclass
        // constructor ran) has an own data element at every index: read
        // directly, no descriptor per element.
        const fresh = base === ArrayCtor && isArray(val);
        const len = fresh ? val.length : lengthOf(val);
        if (typeof len !== 'number') break;
        const vid = idOrCreate(val, ci);
        for (let j = 0; j < len; j++) {
          const e = fresh ? val[j] : ownData(val, j);
          if (isObj(e)) logPutfield(ci, vid, $String(j), holdFirst(ci, e));
        }
        break;
      }
      case K_MAP:
      case K_SET:
      case K_WEAK_MAP: {
        if (!isObj(val) || args.length === 0 || args[0] === undefined || args[0] === null) break;
        const mid = idOrCreate(val, ci);
        if (kind === K_MAP) apply(mapForEach, val, [(v, k) => mapEntry(ci, mid, k, v)]);
        else if (kind === K_SET) apply(setForEach, val, [(v) => { if (isObj(v)) logPutfield(ci, mid, '~set~' + entryName(v, ci), idOf(v)); }]);
        else {
          // The WeakMap's entries cannot be listed: take them again from
          // the iterable when it is an array of pairs.
          const it = args[0];
          const len = isArray(it) ? lengthOf(it) : undefined;
          if (typeof len === 'number') {
            for (let j = 0; j < len; j++) {
              const e = ownData(it, j);
              if (isObj(e) && !proxy(e)) weakEntry(ci, mid, ownData(e, 0), ownData(e, 1));
            }
          }
        }
        break;
      }
      case K_MAP_SET:
        if (isObj(base) && val === base) mapEntry(ci, idOrCreate(base, ci), args[0], args[1]);
        break;
      case K_SET_ADD: {
        const v = args[0];
        if (isObj(base) && val === base && isObj(v)) logPutfield(ci, idOrCreate(base, ci), '~set~' + entryName(v, ci), idOf(v));
        break;
      }
      case K_WEAK_MAP_SET:
        if (isObj(base) && val === base) weakEntry(ci, idOrCreate(base, ci), args[0], args[1]);
        break;
      case K_MAP_DELETE:
      case K_SET_DELETE:
      case K_WEAK_MAP_DELETE: {
        const had = deleteHad;
        deleteHad = false;
        if (!had || val !== true || !isObj(base)) break;
        const bid = idOf(base);
        if (bid === 0) break;
        const k = args[0];
        if (kind === K_MAP_DELETE) {
          const n = entryName(k, ci);
          logPutfield(ci, bid, '~map~' + n, 0);
          if (isObj(k)) logPutfield(ci, bid, '~mapkey~' + n, 0);
        } else if (kind === K_SET_DELETE) {
          if (isObj(k)) logPutfield(ci, bid, '~set~' + entryName(k, ci), 0);
        } else if (isObj(k) && idOf(k) !== 0) {
          logPutfield(ci, idOf(k), '~weakmap~' + bid, 0);
        }
        break;
      }
      case K_MAP_CLEAR:
      case K_SET_CLEAR: {
        const ks = clearKeys;
        clearKeys = null;
        if (ks === null || !isObj(base)) break;
        const bid = idOf(base);
        if (bid === 0) break;
        for (let j = 0; j < ks.length; j++) {
          const k = ks[j];
          if (kind === K_MAP_CLEAR) {
            const n = entryName(k, ci);
            logPutfield(ci, bid, '~map~' + n, 0);
            if (isObj(k)) logPutfield(ci, bid, '~mapkey~' + n, 0);
          } else if (isObj(k)) {
            logPutfield(ci, bid, '~set~' + entryName(k, ci), 0);
          }
        }
        break;
      }
    }
  }

  // ------------------------------------------------ weak refs, promises
  //
  // WeakRef: no edge to its target; deref() is a use of the target.
  // FinalizationRegistry: the registry holds its cleanup callback
  // ("~finreg~cleanup") and each registration's held value
  // ("~finreg~N"), never the target; unregister(token) writes 0 to the
  // names registered with that token (remembered in a WeakMap keyed by
  // the token, which holds no object).
  // Promises: p.then(f, r) / p.catch(r) / p.finally(f) give p edges
  // "~then~N", "~catch~N", "~finally~N" to the callbacks and "~derived~N"
  // to the promise the call returns, until the reaction runs: the shim
  // passes a wrapper, which writes 0 to them before calling the callback
  // (V8 drops them all when p settles), with p's settled value as
  // "~value~" on p, and the callback's result as "~value~" on the derived
  // promise after it. A promise holds its settled value: "~value~" is
  // written by Promise.resolve(v)/reject(v), and by the resolve and reject
  // functions new Promise(executor) passes (wrapped likewise), when v is
  // an object. Those resolving functions hold their promise ("~promise~"
  // on each, while it is pending when the constructor returns).
  var nFin = 0;
  var nReact = 0;
  var finTokens = new SafeWeakMap();
  var promiseHolder = null; // new Promise: the promise, once constructed
  var reactNames = null; // then/catch/finally: the names for modelAfter

  function siteOf(ci) {
    const saved = curSid;
    curSid = sidOfIid(ci);
    return saved;
  }

  function promiseValue(ci, pid, v) {
    if (pid !== 0 && isObj(v)) {
      const saved = siteOf(ci);
      logPutfield(ci, pid, '~value~', holdNew(ci, v));
      curSid = saved;
    }
  }

  function wrapSettle(ci, holder, fn) {
    return function (v) {
      if (!holder.settled) {
        holder.settled = true;
        if (holder.p !== undefined) promiseValue(ci, idOf(holder.p), v);
        else holder.early = v;
      }
      return apply(fn, undefined, [v]);
    };
  }

  function wrapReaction(ci, st, fn) {
    return function (...a) {
      if (!st.ran) {
        st.ran = true;
        const saved = siteOf(ci);
        for (let k = 0; k < st.names.length; k++) logPutfield(ci, st.pid, st.names[k], 0);
        if (a.length > 0) promiseValue(ci, st.pid, a[0]);
        if (pend[0] === 0) setPending(curSid, ci);
        curSid = saved;
      }
      const r = apply(fn, undefined, a);
      if (st.derived !== 0 && !st.fin) promiseValue(ci, st.derived, r);
      return r;
    };
  }

  function prePromise(kind, ci, base, args, isNew) {
    if (kind === K_PROMISE) {
      const ex = args[0];
      if (!isNew || typeof ex !== 'function') return false;
      const holder = { p: undefined, settled: false, early: undefined, res: undefined, rej: undefined };
      args[0] = function (res, rej) {
        holder.res = wrapSettle(ci, holder, res);
        holder.rej = wrapSettle(ci, holder, rej);
        return apply(ex, this, [holder.res, holder.rej]);
      };
      promiseHolder = holder;
      return false;
    }
    if (!isObj(base)) return false;
    let swap = false;
    if (kind === K_CATCH) {
      if (base.then !== N_PROMISE_THEN) return false;
      catchArgs = [undefined, args[0]];
      args = catchArgs;
      swap = true;
    }
    // finally's derived promise takes p's value, not the callback's.
    const st = { pid: 0, names: [], derived: 0, ran: false, fin: kind === K_FINALLY };
    const n = ++nReact;
    const names = [];
    const which = kind === K_FINALLY ? ['~finally~'] : ['~then~', '~catch~'];
    for (let k = 0; k < which.length; k++) {
      const fn = args[k];
      if (typeof fn !== 'function') {
        // The default handler (identity, thrower), so that a wrapper runs
        // however the promise settles: its reactions are dropped then.
        if (kind !== K_FINALLY) {
          while (args.length <= k) args[args.length] = undefined;
          args[k] = wrapReaction(ci, st, k === 0 ? identity : thrower);
        }
        continue;
      }
      names[names.length] = which[k] + n;
      names[names.length] = fn;
      st.names[st.names.length] = which[k] + n;
      args[k] = wrapReaction(ci, st, fn);
    }
    st.names[st.names.length] = '~derived~' + n;
    reactNames = { st, names, n };
    return swap;
  }
  var catchArgs = null;
  function identity(v) { return v; }
  function thrower(e) { throw e; }

  function modelPromise(kind, ci, base, args, val) {
    switch (kind) {
      case K_WEAK_REF_DEREF:
        if (isObj(val)) {
          const id = idOf(val);
          if (id !== 0) use(id, ci);
        }
        break;
      case K_FIN_REG:
        if (isObj(val) && typeof args[0] === 'function') logPutfield(ci, idOrCreate(val, ci), '~finreg~cleanup', idOrCreate(args[0], ci));
        break;
      case K_FIN_REGISTER: {
        const held = args[1], token = args[2];
        if (!isObj(base) || !isObj(held)) break;
        const rid = idOrCreate(base, ci);
        const name = '~finreg~' + ++nFin;
        logPutfield(ci, rid, name, idOrCreate(held, ci));
        if (isObj(token)) {
          const l = finTokens.get(token) || [];
          finTokens.set(token, l);
          l[l.length] = rid;
          l[l.length] = name;
        }
        break;
      }
      case K_FIN_UNREGISTER: {
        const token = args[0];
        if (val !== true || !isObj(token) || !isObj(base)) break;
        const l = finTokens.get(token) || [];
        const rid = idOf(base);
        for (let k = 0; k < l.length; k += 2) {
          if (l[k] === rid) {
            logPutfield(ci, rid, l[k + 1], 0);
            l[k] = 0;
          }
        }
        break;
      }
      case K_PROMISE: {
        const holder = promiseHolder;
        promiseHolder = null;
        if (holder === null || !isObj(val)) break;
        holder.p = val;
        const pid = idOrCreate(val, ci);
        if (holder.settled && isObj(holder.early)) promiseValue(ci, pid, holder.early);
        holder.early = undefined;
        // The resolving functions hold their promise: whoever keeps
        // resolve keeps the promise and its reactions.
        if (!holder.settled && holder.res !== undefined) {
          logPutfield(ci, idOrCreate(holder.res, ci), '~promise~', pid);
          logPutfield(ci, idOrCreate(holder.rej, ci), '~promise~', pid);
        }
        holder.res = holder.rej = undefined;
        break;
      }
      case K_THEN:
      case K_CATCH:
      case K_FINALLY: {
        const rn = reactNames;
        reactNames = null;
        if (rn === null || !isObj(base)) break;
        const st = rn.st;
        if (st.ran) break; // cannot happen: reactions run later
        st.pid = idOrCreate(base, ci);
        for (let k = 0; k < rn.names.length; k += 2) logPutfield(ci, st.pid, rn.names[k], idOrCreate(rn.names[k + 1], ci));
        if (isObj(val)) {
          st.derived = idOrCreate(val, ci);
          logPutfield(ci, st.pid, '~derived~' + rn.n, st.derived);
        }
        break;
      }
      case K_PROMISE_RESOLVE:
      case K_PROMISE_REJECT:
        if (isObj(val) && val !== args[0]) promiseValue(ci, idOrCreate(val, ci), args[0]);
        break;
    }
  }

  function modelAfter(kind, ci, base, args, val, since, f) {
    if (kind >= K_RESULT) {
      modelResult(kind, ci, base, args, val, since, f);
      return;
    }
    if (kind >= K_WEAK_REF_DEREF) {
      modelPromise(kind, ci, base, args, val);
      return;
    }
    if (kind >= K_MAP) {
      modelCollection(kind, ci, base, args, val);
      return;
    }
    switch (kind) {
      case K_PUSH: {
        const len = lengthOf(base);
        const bid = isObj(base) ? idOf(base) : 0;
        if (typeof len === 'number' && bid !== 0) {
          let ind = len - 1;
          for (let a = args.length - 1; a >= 0; a--) {
            const aid = elemId(args[a]);
            if (aid !== 0) logPutfield(ci, bid, $String(ind), aid);
            ind--;
          }
        }
        break;
      }
      case K_POP: {
        const len = lengthOf(base);
        const bid = isObj(base) ? idOf(base) : 0;
        if (typeof len === 'number' && bid !== 0) logPutfield(ci, bid, $String(len), 0);
        break;
      }
      case K_SHIFT:
      case K_UNSHIFT: {
        const len = lengthOf(base);
        const bid = isObj(base) ? idOf(base) : 0;
        if (typeof len === 'number' && bid !== 0) {
          for (let i = 0; i < len; i++) logPutfield(ci, bid, $String(i), elemIdAt(base, i));
          if (kind === K_SHIFT) logPutfield(ci, bid, $String(len), 0);
        }
        break;
      }
      case K_CONCAT: {
        if (isObj(val)) {
          const vid = idOrCreate(val, ci);
          const len = lengthOf(val);
          if (typeof len === 'number') {
            for (let i = 0; i < len; i++) {
              const e = elemIdAt(val, i);
              if (e !== 0) logPutfield(ci, vid, $String(i), e);
            }
          }
        }
        break;
      }
      case K_SPLICE: {
        const len = lengthOf(base);
        const bid = isObj(base) ? idOf(base) : 0;
        if (typeof len === 'number' && bid !== 0) {
          for (let i = 0; i < len; i++) logPutfield(ci, bid, $String(i), elemIdAt(base, i));
          const oldLen = spliceOldLen;
          if (typeof oldLen === 'number' && oldLen > len) {
            for (let i = len; i < oldLen; i++) logPutfield(ci, bid, $String(i), 0);
          }
          spliceOldLen = undefined;
        }
        const removed = lengthOf(val);
        if (typeof removed === 'number' && removed > 0) {
          const vid = idOrCreate(val, ci);
          for (let i = 0; i < removed; i++) {
            const e = elemIdAt(val, i);
            if (e !== 0) logPutfield(ci, vid, $String(i), e);
          }
        }
        break;
      }
      case K_DEFINE_PROPERTY: {
        // What the descriptor had, as the property now is: the native
        // has read the descriptor (its getters, a proxy's traps) and
        // converted the key (an object's toString) once, as the program
        // sees them; the model reads neither again. A proxy target's
        // property cannot be read without its traps.
        defined(ci, args[0], args[1], args[2]);
        break;
      }
      case K_SET_TIMEOUT: {
        if (timerName !== '') {
          timerGlobals.set(val, timerName);
          timerState.timeoutId = val;
          timerName = '';
          timerState = null;
        }
        break;
      }
      case K_SET_INTERVAL: {
        const fun = args[0];
        const name = '~timer~global~' + ++callbackCounter;
        timerGlobals.set(val, name);
        logName(WRITE, ci, name, isObj(fun) ? idOrCreate(fun, ci) : 0);
        timerArgsHeld(ci, name, args, 2);
        break;
      }
      case K_CLEAR_TIMEOUT:
      case K_CLEAR_INTERVAL: {
        const t = args[0];
        const name = timerGlobals.get(t);
        if (name !== undefined) {
          logName(WRITE, ci, name, 0);
          timerArgsReleased(ci, name);
          if (pend[0] === 0) setPending(curSid, ci);
          timerGlobals.delete(t);
        }
        break;
      }
    }
  }

  function elemIdOrCreate(v, ci) {
    return isObj(v) ? idOrCreate(v, ci) : 0;
  }

  // defined: Object.defineProperty(target, key, d)'s model.
  function defined(ci, target, key, d) {
    if (!isObj(target) || isObj(key) || !isObj(d) || proxy(target)) return;
    let td;
    try { td = getOwnPropertyDescriptor(target, key); } catch { return; }
    if (td === undefined) return;
    const acc = !hasOwn(td, 'value');
    const plain = !proxy(d);
    const prop = $String(key);
    const tid = idOrCreate(target, ci);
    if (!acc && (plain ? hasOwn(d, 'value') : true)) logPutfield(ci, tid, prop, elemIdOrCreate(td.value, ci));
    if (acc && (plain ? hasOwn(d, 'get') : true)) logPutfield(ci, tid, '~get~' + prop, elemIdOrCreate(td.get, ci));
    if (acc && (plain ? hasOwn(d, 'set') : true)) logPutfield(ci, tid, '~set~' + prop, elemIdOrCreate(td.set, ci));
  }

  // definedAll: Object.defineProperties(target, ds)' model (and
  // Object.create's second argument): defined for each own enumerable key
  // of ds (not a proxy: its keys would run traps).
  function definedAll(ci, target, ds) {
    if (!isObj(ds) || proxy(ds)) return;
    let ks;
    try { ks = ownKeys(ds); } catch { return; }
    for (let j = 0; j < ks.length; j++) {
      const k = ks[j];
      const d = ownData(ds, k);
      if (isObj(d) && typeof k === 'string') defined(ci, target, k, d);
      else if (isObj(d)) definedSym(ci, target, k, d);
    }
  }
  function definedSym(ci, target, k, d) {
    let td;
    try { td = getOwnPropertyDescriptor(target, k); } catch { return; }
    if (td === undefined || !hasOwn(td, 'value') || proxy(target)) return;
    logPutfield(ci, idOrCreate(target, ci), $String(k), elemIdOrCreate(td.value, ci));
  }

  // protoSet: o's prototype is now p (Object.setPrototypeOf, o.__proto__ =
  // p, Object.create): the "__proto__" edge, when the call set it.
  function protoSet(ci, o, p) {
    if (!isObj(o) || proxy(o) || (p !== null && !isObj(p))) return;
    let now;
    try { now = getPrototypeOf(o); } catch { return; }
    if (now !== p) return;
    const oid = p === null ? idOf(o) : idOrCreate(o, ci);
    if (oid !== 0) logPutfield(ci, oid, '__proto__', p === null ? 0 : idOrCreate(p, ci));
  }

  // Generic models (docs/natives.md). What they read is what the native
  // left behind, as ownData reads it (no getter, no proxy trap runs).
  // since: the last id given before the call; f: the native called.
  function modelResult(kind, ci, base, args, val, since, f) {
    switch (kind) {
      case K_SET_IMMEDIATE:
      case K_NEXT_TICK:
        // setImmediate's handle clears it as setTimeout's does
        // (clearImmediate is K_CLEAR_TIMEOUT); nextTick has none.
        if (timerName !== '' && kind === K_SET_IMMEDIATE && isObj(val)) {
          timerGlobals.set(val, timerName);
          timerState.timeoutId = val;
        }
        timerName = '';
        timerState = null;
        break;
      case K_ALL:
      case K_ALL_SETTLED:
      case K_ANY:
      case K_RACE:
        combinator(kind, ci, args[0], val);
        break;
      case K_EMITTER:
        emitterChanged(ci, f, base, args);
        break;
      case K_ABORT_CONTROLLER: {
        if (!isObj(val) || proxy(val)) break;
        let sg;
        try { sg = callWith(signalOf, val); } catch { break; }
        if (isObj(sg)) logPutfield(ci, idOrCreate(val, ci), 'signal', idOrCreate(sg, ci));
        break;
      }
      case K_EVENT_TARGET: {
        // EventTarget's addEventListener(type, l, options) and
        // removeEventListener: the target holds each listener added, under
        // "~event~" + entryName(type) + "~" + b or c (bubble, capture) +
        // "~" + its id. A once listener fired, or one whose signal aborted,
        // is removed natively: the model keeps it (docs/natives.md).
        const t = args[0], l = args[1], o = args[2];
        if (!isObj(base) || proxy(base) || typeof t !== 'string' || !isObj(l)) break;
        const add = f !== etRemove;
        const cap = o === true || (isObj(o) && !proxy(o) && ownData(o, 'capture') === true);
        const lid = add ? idOrCreate(l, ci) : idOf(l);
        const bid = add ? idOrCreate(base, ci) : idOf(base);
        if (lid !== 0 && bid !== 0) logPutfield(ci, bid, '~event~' + entryName(t, ci) + (cap ? '~c~' : '~b~') + lid, add ? lid : 0);
        break;
      }
      case K_ALS_ENTER:
        // als.enterWith(store): the store is the current one for the rest
        // of the synchronous run and every async resource made after it
        // (held, here, until the next enterWith or disable); disable():
        // none.
        if (isObj(base)) logName(WRITE, ci, '~als~' + idOrCreate(base, ci), f === alsDisable ? 0 : elemIdOrCreate(args[0], ci));
        break;
      case K_OWN_PROPS:
        // Object.fromEntries: a new object holding its own properties.
        holdOwn(ci, val, 1);
        break;
      case K_ITER_RESULT:
        // An iterator's next(): {value, done}, value an entry's new pair
        // for entries(); done: the iterator lets its collection go.
        if (!isObj(val) || proxy(val)) break;
        if (ownData(val, 'done') === true) {
          const bid = isObj(base) ? idOf(base) : 0;
          if (bid !== 0) logPutfield(ci, bid, '~iterated~', 0);
        } else {
          holdOwn(ci, val, 2);
        }
        break;
      case K_ITERATOR:
        // map.values(), set.entries(), array.keys(), ...: the iterator
        // holds what it iterates.
        if (isObj(val) && isObj(base)) logPutfield(ci, idOrCreate(val, ci), '~iterated~', idOrCreate(base, ci));
        break;
      case K_DEEP:
        // JSON.parse (a reviver's values), structuredClone: a new graph.
        if (isObj(val)) holdDeep(ci, val, since, new SafeSet());
        break;
      case K_CREATE:
        // Object.create(p, ds): its prototype and the properties ds defined.
        if (!isObj(val)) break;
        if (isObj(args[0])) protoSet(ci, val, args[0]);
        definedAll(ci, val, args[1]);
        break;
      case K_DEFINE_PROPS:
        definedAll(ci, args[0], args[1]);
        break;
      case K_SET_PROTO:
        // Object.setPrototypeOf(o, p), Reflect.setPrototypeOf(o, p).
        if (val !== false) protoSet(ci, args[0], args[1]);
        break;
      case K_REFLECT_SET: {
        // Reflect.set(o, k, v[, receiver]): the receiver's own data
        // property, as the write left it (a setter's: nothing).
        const r = args.length > 3 ? args[3] : args[0];
        const k = args[1];
        if (val !== true || !isObj(r) || proxy(r) || isObj(k)) break;
        let d;
        try { d = getOwnPropertyDescriptor(r, k); } catch { break; }
        if (d === undefined || !hasOwn(d, 'value')) break;
        const rid = isObj(d.value) ? idOrCreate(r, ci) : idOf(r);
        if (rid !== 0) logPutfield(ci, rid, $String(k), elemIdOrCreate(d.value, ci));
        break;
      }
      case K_REFLECT_DELETE: {
        // Reflect.deleteProperty(o, k).
        const o = args[0], k = args[1];
        if (val !== true || !isObj(o) || proxy(o) || isObj(k) || hasOwn(o, k)) break;
        const oid = idOf(o);
        if (oid !== 0) logPutfield(ci, oid, $String(k), 0);
        break;
      }
      case K_BIND: {
        // f.bind(t, ...a): the bound function holds f, t and a.
        if (typeof val !== 'function' || typeof base !== 'function') break;
        const bid = idOrCreate(val, ci);
        logPutfield(ci, bid, '~target~', idOrCreate(base, ci));
        if (isObj(args[0])) logPutfield(ci, bid, '~this~', idOrCreate(args[0], ci));
        for (let j = 1; j < args.length; j++) if (isObj(args[j])) logPutfield(ci, bid, '~arg~' + (j - 1), idOrCreate(args[j], ci));
        break;
      }
      case K_PROXY: {
        // new Proxy(t, h): the proxy holds its target and handler;
        // Proxy.revocable(t, h): {proxy, revoke}, revoke holding the proxy
        // until it is called.
        const rev = !isObj(val) || proxy(val) ? undefined : ownData(val, 'revoke');
        const p = rev !== undefined ? ownData(val, 'proxy') : val;
        if (!isObj(p) || !proxy(p)) break;
        const pid = idOrCreate(p, ci);
        if (isObj(args[0])) logPutfield(ci, pid, '~target~', idOrCreate(args[0], ci));
        if (isObj(args[1])) logPutfield(ci, pid, '~handler~', idOrCreate(args[1], ci));
        if (typeof rev === 'function') {
          markNative(rev, K_REVOKE); // before its id, which keeps the kind
          holdOwn(ci, val, 1);
          logPutfield(ci, idOrCreate(rev, ci), '~proxy~', pid);
          revokes.set(rev, pid);
        }
        break;
      }
      case K_REVOKE: {
        const pid = revokes.get(f);
        if (pid === undefined) break;
        revokes.delete(f);
        logPutfield(ci, pid, '~target~', 0);
        logPutfield(ci, pid, '~handler~', 0);
        const rid = idOf(f);
        if (rid !== 0) logPutfield(ci, rid, '~proxy~', 0);
        break;
      }
      case K_VIEW: {
        // new Uint8Array(buffer, ...), new DataView(buffer, ...): the view
        // holds its buffer.
        const b = args[0];
        if (isObj(val) && isObj(b) && isBuffer(b)) logPutfield(ci, idOrCreate(val, ci), '~buffer~', idOrCreate(b, ci));
        break;
      }
      case K_SUBARRAY: {
        // ta.subarray(...): a view of ta's buffer, which it now has.
        if (!isObj(val) || !isObj(base) || typedBuffer === undefined) break;
        let b;
        try { b = callWith(typedBuffer, val); } catch { break; }
        if (!isObj(b)) break;
        const id = idOrCreate(b, ci);
        logPutfield(ci, idOrCreate(val, ci), '~buffer~', id);
        logPutfield(ci, idOrCreate(base, ci), '~buffer~', id);
        break;
      }
      case K_RESULT:
        // A new array (filter, map, slice, flat, toSorted, ..., Array.of,
        // Object.values): it holds its elements.
        holdElements(ci, val, 1);
        break;
      case K_ENTRIES:
        // Object.entries: a new array of new [key, value] pairs;
        // Object.getOwnPropertyDescriptors: an object of new descriptors.
        holdOwn(ci, val, 2);
        break;
      case K_REWRITE:
        // reverse, sort, fill, copyWithin: the array's elements again.
        rewriteElements(ci, base);
        break;
    }
  }

  // holdElements: the elements of array-like a (a native's new result)
  // are its edges: a PUTFIELD per object element, a given an id at ci when
  // it has one; elements first seen here are walked the same way, depth -
  // 1 levels down (Object.entries' pairs). A result without object
  // elements holds nothing and is left to get its id when it is used.
  function holdElements(ci, a, depth) {
    if (!isObj(a)) return 0;
    const len = lengthOf(a);
    if (typeof len !== 'number') return 0;
    let aid = 0;
    for (let j = 0; j < len; j++) {
      const e = ownData(a, j);
      if (!isObj(e)) continue;
      let eid = depth > 1 && !proxy(e) && idOf(e) === 0 ? holdOwn(ci, e, depth - 1) : 0;
      if (eid === 0) eid = idOrCreate(e, ci);
      if (aid === 0) aid = idOrCreate(a, ci);
      logPutfield(ci, aid, $String(j), eid);
    }
    return aid;
  }

  // holdOwn is holdElements for arrays, and for other objects the same over
  // their own data properties (string and symbol keys).
  function holdOwn(ci, o, depth) {
    if (!isObj(o) || proxy(o) || typeof o === 'function') return 0;
    if (isArray(o)) return holdElements(ci, o, depth);
    if (typed(o)) return 0; // elements are numbers, every index a key
    let ks;
    try { ks = ownKeys(o); } catch { return 0; }
    let oid = 0;
    for (let j = 0; j < ks.length; j++) {
      // (An error's stack is formatted when first read, by the program's
      // Error.prepareStackTrace: never read here.)
      if (ks[j] === 'stack') continue;
      const e = ownData(o, ks[j]);
      if (!isObj(e)) continue;
      let eid = depth > 1 && !proxy(e) && idOf(e) === 0 ? holdOwn(ci, e, depth - 1) : 0;
      if (eid === 0) eid = idOrCreate(e, ci);
      if (oid === 0) oid = idOrCreate(o, ci);
      logPutfield(ci, oid, $String(ks[j]), eid);
    }
    return oid;
  }

  // holdFirst: the id of object e, an element a model is about to log;
  // an array first seen here (an entries() pair) holds its elements.
  function holdFirst(ci, e) {
    const id = idOf(e);
    if (id !== 0) return id;
    if (isArray(e) && !proxy(e)) {
      const aid = holdElements(ci, e, 1);
      if (aid !== 0) return aid;
    }
    return idOrCreate(e, ci);
  }

  // holdDeep: the edges of a graph a native made (JSON.parse,
  // structuredClone): every object reached through own data properties,
  // Map entries and Set members that got its first id after since (or
  // has none) is walked; older objects are the program's, whose edges the
  // trace has. seen: the objects walked.
  function holdDeep(ci, o, since, seen) {
    let id = idOf(o);
    if ((id !== 0 && id <= since) || seen.has(o)) return id !== 0 ? id : idOrCreate(o, ci);
    seen.add(o);
    if (id === 0) id = idOrCreate(o, ci);
    if (proxy(o) || typeof o === 'function') return id;
    let pr;
    try { pr = getPrototypeOf(o); } catch { return id; }
    if (pr === MapProto) {
      const es = [];
      apply(mapForEach, o, [(v, k) => { es[es.length] = k; es[es.length] = v; }]);
      for (let j = 0; j < es.length; j += 2) {
        if (isObj(es[j])) holdDeep(ci, es[j], since, seen);
        if (isObj(es[j + 1])) holdDeep(ci, es[j + 1], since, seen);
        mapEntry(ci, id, es[j], es[j + 1]);
      }
      return id;
    }
    if (pr === SetProto) {
      const es = [];
      apply(setForEach, o, [(v) => { es[es.length] = v; }]);
      for (let j = 0; j < es.length; j++) {
        if (isObj(es[j])) logPutfield(ci, id, '~set~' + entryName(es[j], ci), holdDeep(ci, es[j], since, seen));
      }
      return id;
    }
    if (isArray(o)) {
      const len = o.length;
      for (let j = 0; j < len; j++) {
        const e = ownData(o, j);
        if (isObj(e)) logPutfield(ci, id, $String(j), holdDeep(ci, e, since, seen));
      }
      return id;
    }
    if (typed(o)) return id;
    let ks;
    try { ks = ownKeys(o); } catch { return id; }
    for (let j = 0; j < ks.length; j++) {
      if (ks[j] === 'stack') continue; // (holdOwn)
      const e = ownData(o, ks[j]);
      if (isObj(e)) logPutfield(ci, id, $String(ks[j]), holdDeep(ci, e, since, seen));
    }
    return id;
  }
  var MapProto = N_MAP.prototype, SetProto = N_SET.prototype, ObjectProto = Object.prototype;
  function typed(o) {
    return typedArrayTag !== undefined && callWith(typedArrayTag, o) !== undefined;
  }

  // Promise.all, allSettled, any, race(array): each input promise holds
  // the result R through its reaction while it is pending ("~comb~N" on
  // the input), and R holds what it will settle with: for all and
  // allSettled each input's value, for any the rejections (its
  // AggregateError's errors) and its first value, for race its first
  // settlement ("~comb~N~j" on R, "~value~" for a first). The shim sees
  // the inputs settle through reactions of its own, attached with the
  // native then (Promise.all has attached its own: nothing the program
  // sees changes); they hold ids, no object. Values that are no promise
  // are held at once. Inputs of another iterable are not listed.
  var nComb = 0;
  function combinator(kind, ci, it, R) {
    if (!isObj(R) || isPromise === null || !isPromise(R) || !isObj(it) || proxy(it) || !isArray(it)) return;
    const len = it.length;
    const rid = idOrCreate(R, ci);
    const n = ++nComb;
    const st = { first: false };
    for (let j = 0; j < len; j++) {
      const x = ownData(it, j);
      if (!isObj(x)) continue;
      const xid = idOrCreate(x, ci);
      if (!isPromise(x) || proxy(x)) {
        logPutfield(ci, rid, '~comb~' + n + '~' + j, xid);
        continue;
      }
      logPutfield(ci, xid, '~comb~' + n, rid);
      const settled = (ok) => (v) => {
        const saved = siteOf(ci);
        logPutfield(ci, xid, '~comb~' + n, 0);
        if (isObj(v)) {
          const first = !st.first;
          const holds = kind === K_ALL_SETTLED || (kind === K_ALL && ok) || (kind === K_ANY && !ok);
          if (holds) logPutfield(ci, rid, '~comb~' + n + '~' + j, holdNew(ci, v));
          else if (first && (kind === K_RACE || (kind === K_ANY && ok) || (kind === K_ALL && !ok))) promiseValue(ci, rid, v);
        }
        if (kind === K_RACE || (kind === K_ANY && ok) || (kind === K_ALL && !ok)) st.first = true;
        if (pend[0] === 0) setPending(curSid, ci);
        curSid = saved;
      };
      try { apply(N_PROMISE_THEN, x, [settled(true), settled(false)]); } catch { /* not a promise after all */ }
    }
  }

  // alsRun: als.run(store, fn)'s model before the call: the store is held
  // by a global name while fn runs (a wrapper releases it when fn returns
  // or throws). Async resources fn makes keep it too, in V8, which the
  // model does not follow (docs/natives.md).
  var nAls = 0;
  function alsRun(ci, args) {
    const store = args[0], fn = args[1];
    if (!isObj(store) || typeof fn !== 'function') return;
    const name = '~als~run~' + ++nAls;
    logName(WRITE, ci, name, idOrCreate(store, ci));
    args[1] = function (...a) {
      try {
        return apply(fn, this, a);
      } finally {
        const saved = siteOf(ci);
        logName(WRITE, ci, name, 0);
        if (pend[0] === 0) setPending(curSid, ci);
        curSid = saved;
      }
    };
  }

  // errorHolds: an error made through a call hook holds its cause
  // (new Error(m, {cause})) and an AggregateError its errors, a new array
  // holding them.
  function errorHolds(ci, e) {
    if (proxy(e)) return;
    const c = ownData(e, 'cause');
    if (isObj(c)) logPutfield(ci, idOrCreate(e, ci), 'cause', idOrCreate(c, ci));
    const es = ownData(e, 'errors');
    if (isObj(es) && isArray(es) && !proxy(es)) logPutfield(ci, idOrCreate(e, ci), 'errors', holdFirst(ci, es));
  }

  // holdNew: the id of object v, which a promise settles with; one first
  // seen here (Promise.all's array of values, allSettled's results) holds
  // its own elements and properties two levels down.
  function holdNew(ci, v) {
    const id = idOf(v);
    if (id !== 0) return id;
    const h = holdOwn(ci, v, 2);
    return h !== 0 ? h : idOrCreate(v, ci);
  }

  // EventEmitter (Node's events module): after on, once, off, prepend*,
  // removeAllListeners and emit, the emitter's listeners of the event the
  // call named (of every event it has had, for removeAllListeners()) are
  // its edges "~event~" + entryName(type) + "~" + index, once's wrapper
  // standing for its listener (it holds it, and nothing else does); read
  // from the emitter's _events as the call left them. Only the slots that
  // changed are written (emit seldom changes any).
  var emitterSlots = new SafeWeakMap(); // emitter -> Map(type -> [ids])
  function emitterChanged(ci, f, e, args) {
    if (!isObj(e) || proxy(e)) return;
    const evs = ownData(e, '_events');
    if (!isObj(evs) || proxy(evs)) return;
    let m = emitterSlots.get(e);
    if (f === removeAll && (args.length === 0 || args[0] === undefined)) {
      if (m === undefined) return;
      const ts = [];
      apply(mapForEach, m, [(v, t) => { ts[ts.length] = t; }]);
      for (let j = 0; j < ts.length; j++) emitterSync(ci, e, evs, m, ts[j]);
      return;
    }
    const t = args[0];
    if (typeof t !== 'string' && typeof t !== 'symbol') return;
    if (m === undefined) {
      m = new SafeMap();
      emitterSlots.set(e, m);
    }
    emitterSync(ci, e, evs, m, t);
  }
  function emitterSync(ci, e, evs, m, t) {
    const x = ownData(evs, t);
    const ls = typeof x === 'function' ? [x] : isObj(x) && isArray(x) && !proxy(x) ? x : null;
    const n = ls === null ? 0 : ls.length;
    const old = m.get(t) || [];
    const ids = [];
    for (let j = 0; j < n; j++) {
      let l = ls === x ? ownData(ls, j) : ls[j];
      if (typeof l !== 'function') {
        ids[j] = 0;
        continue;
      }
      const u = ownData(l, 'listener');
      if (typeof u === 'function') l = u;
      ids[j] = idOrCreate(l, ci);
    }
    let eid = 0;
    for (let j = 0; j < n || j < old.length; j++) {
      const v = j < n ? ids[j] : 0;
      if (v === (j < old.length ? old[j] : 0)) continue;
      if (eid === 0) eid = idOrCreate(e, ci);
      logPutfield(ci, eid, '~event~' + entryName(t, ci) + '~' + j, v);
    }
    if (n === 0) m.delete(t);
    else m.set(t, ids);
  }
  var revokes = new SafeWeakMap(); // Proxy.revocable's revoke -> the proxy's id
  // isBuffer: b (an object) is an ArrayBuffer or SharedArrayBuffer of
  // this realm, by its prototype (a proxy's would run a trap).
  function isBuffer(b) {
    if (proxy(b)) return false;
    const pr = getPrototypeOf(b);
    return pr !== null && (pr === bufferProtos[0] || pr === bufferProtos[1]);
  }

  // rewriteElements: array-like a's elements after a native moved them in
  // place: every index again (0 where an object was before, unless the
  // trace holds no edge from a at all).
  function rewriteElements(ci, a) {
    const len = lengthOf(a);
    if (typeof len !== 'number') return;
    let aid = idOf(a);
    const had = aid !== 0 && hasEdges(aid);
    for (let j = 0; j < len; j++) {
      const e = ownData(a, j);
      if (!isObj(e) && !had) continue;
      if (aid === 0) aid = idOrCreate(a, ci);
      logPutfield(ci, aid, $String(j), elemIdOrCreate(e, ci));
    }
  }

  // lengthCut writes 0 to the indices of cut (objectsFrom's, before a
  // write of a's length) that a's length no longer reaches.
  function lengthCut(g, a, cut) {
    const id = idOf(a);
    if (id === 0) return;
    const len = a.length;
    for (let q = 0; q < cut.length; q++) if (cut[q] >= len) logPutfield(g, id, $String(cut[q]), 0);
  }

  // objectsFrom: the indices from n up of array a's elements that are
  // objects (ascending), before a write of its length that may delete
  // them; null when there are none. Ranges of more than 65536 indices are
  // listed from a's own keys (a sparse array's length may be far larger
  // than its elements).
  function objectsFrom(a, n) {
    const len = a.length;
    if (!(n < len)) return null;
    if (!(n >= 0)) n = 0;
    let r = null;
    if (len - n <= 65536) {
      for (let j = n; j < len; j++) {
        if (isObj(ownData(a, j))) {
          if (r === null) r = [];
          r[r.length] = j;
        }
      }
      return r;
    }
    const ks = ownKeys(a);
    for (let q = 0; q < ks.length; q++) {
      const k = ks[q];
      if (typeof k !== 'string') continue;
      const j = +k;
      if (j >= n && j < len && $String(j >>> 0) === k && isObj(ownData(a, k))) {
        if (r === null) r = [];
        r[r.length] = j;
      }
    }
    if (r !== null) apply(arraySort, r, [(x, y) => x - y]);
    return r;
  }

  // ---------------------------------------------------------------- handles

  // put is P of script h: o[k] = v; known: o's id if the caller knows it
  // (Pt), else 0.
  // known: o's id when the hook knows it (Pt: this's, from the frame), or
  // with stamp (true or false) what a P copy's reader read from o; false:
  // putRead found k not an own property of o, which holds no edge.
  // st: the named store when the caller has it.
  function put(h, i, o, k, v, strict, known, stamp, st) {
    if (isObj(k)) k = toKey(k);
    const store = st !== undefined ? st : strict >= 2 ? siteStore(h.base + i, k, strict & 1) : undefined;
    const kn = store !== undefined ? store.kn : 0;
    let id = 0;
    let skip = false;
    let d; // o's own property k before the write, once read
    let haveD = false;
    let px = false;
    if (isObj(o)) {
      id = known > 0 ? known : stamp !== undefined ? stampedId(known, o) : putIdOf(o);
      // (An id from the field is never a proxy's: setId.)
      if (id !== 0 && (stamp === undefined || known <= 0) && proxy(o)) {
        // A proxy's descriptors and prototype cannot be read without
        // running its traps, which the program would see: the write is
        // logged as a data property's.
        px = true;
      } else if (id !== 0) {
        const prim = !allPutfields && !isObj(v);
        const may = mayHoldEdge(id, kn);
        // own: k is o's own property (true too when the descriptor will
        // tell): putRead found it not; without a possible edge, hasOwn.
        const own = stamp === false ? false : may || hasOwn(o, k);
        if (prim && !may && own) {
          // The engine holds no edge from o: an own property, data or
          // accessor, is not logged either way (an elided write, or a
          // setter's); no descriptor needed (element writes of numeric
          // arrays are most writes of numeric code).
          skip = true;
        } else {
          // One descriptor serves the elision rule and the setter rule
          // (each allocates: the larger part of what the shim allocates);
          // none for a property not own (the fields constructors add).
          d = own ? getOwnPropertyDescriptor(o, k) : undefined;
          haveD = true;
          if (prim && d !== undefined && d.get === undefined && d.set === undefined && !isObj(d.value)) skip = true;
        }
      }
    }
    // A shorter length deletes the elements past it: their indices, read
    // before the write (all of them when the new length is no number,
    // whose conversion may run the program's code).
    const cut = id !== 0 && !px && k === 'length' && hasEdges(id) && isArray(o) ? objectsFrom(o, typeof v === 'number' ? v : 0) : null;
    const hp = hostModel !== undefined && typeof k === 'string' && !px && isObj(o) ? hostModel.put(o, k) : undefined;
    // The host may write another value than the program's (HTML whose
    // handlers it instruments); the assignment's value stays the program's.
    const sv = hp !== undefined && hasOwn(hp, 'value') && typeof hp.value === 'function' ? hp.value(v) : v;
    if (store !== undefined) store(o, k, sv);
    else if (strict) setStrict(o, k, sv);
    else setSloppy(o, k, sv);
    if (hp !== undefined) {
      curSid = h.sid;
      hostModel.putDone(h.base + i, o, k, v, hp);
    }
    if (id === 0) {
      if (!isObj(o)) return v;
      id = idOf(o); // a setter's entry may have given it one
      if (id === 0) {
        if (typeof o === 'function') classWrite(o, k, v);
        return v;
      }
    }
    curSid = h.sid;
    const g = h.base + i;
    if (cut !== null) lengthCut(g, o, cut);
    if (!skip) {
      // A write that reached a setter logs nothing: own accessor, or (no
      // own property before the write) one on the prototype chain, which
      // the write tells: a write that made no own property reached a
      // setter (or failed: a read-only inherited property, an object that
      // takes no new property), and walking the chain's descriptors cost
      // RayTrace's constructors three calls out of compiled code per field.
      const acc = px ? false : !haveD ? isAccessor(o, k)
        : d !== undefined ? d.get !== undefined || d.set !== undefined
          : !hasOwn(o, k);
      if (!acc) logPutfield(g, id, typeof k === 'string' ? k : $String(k), isObj(v) ? idOrCreate(v, g) : 0, store !== undefined ? kn : undefined);
      else if (k === '__proto__' && !px) protoSet(g, o, v); // Object.prototype's setter
    }
    use(id, g);
    return v;
  }

  // A Script is the handle H of one instrumented script; its methods are
  // the hooks of docs/instrumentation.md §4. Local iid i is written as
  // base + i.
  // What Gl gives for Error: an object with the program's limit.
  var limitObj = { __proto__: null, stackTraceLimit: 0 };

  class Script {
    constructor(sid, base, n, srIid, prevSid) {
      this.sid = sid;
      this.base = base;
      this.nSites = n;
      this.srIid = srIid;
      this.prevSid = prevSid;
      this.slot = noSlots; // local Fe iid -> its function's slot in closures (set by S)
      this.closures = noSlots; // the most recent closure's id per function
      this.feGen = null; // per local Fe iid, 1: a generator function's, 2: an async generator's (made for the first)
      this.open = true;
      this.file = '';
      this.sites = null; // the site table as the prologue gave it (siteTable decodes it)
      this.seIid = 0;
      this.src = undefined; // run-time code's original text
      this.from = undefined; // run-time code: the handle of the script that made it
      this.imp = undefined; // a file's import() (S's last argument)
      this.text = undefined; // the original text once looked for (null: unknown)
      this.lineStarts = null;
    }

    // N: DECLARE (hoisted declarations, parameters, let/const/class).
    N(i, name, v) {
      if (name !== 'arguments') {
        curSid = this.sid;
        const g = this.base + i;
        logName(DECLARE, g, name, isObj(v) ? idOrCreate(v, g) : 0);
      }
      return v;
    }

    // Nt: the entry of a function whose this an arrow captures (frame d,
    // v its this; absent in a derived constructor, before super()):
    // DECLARE this as 0 where Fe declared nothing (a primitive, the global
    // object), so that no closure's "this" resolves to an outer
    // function's; a suspendable frame declares it again at resumptions.
    Nt(i, d, v) {
      if (v === GLOBAL || !isObj(v)) {
        logName(DECLARE, this.base + i, 'this', 0);
        if (frameSusp[d] !== 0) frameDis[d] = 0;
      }
    }

    // Na: the entry of a function whose arguments object an arrow
    // captures: the object, created at i as a literal with its
    // object-valued elements from index n on (a sloppy function's first n
    // alias its parameters, which the closures keep by name), DECLAREd as
    // ~arguments~ (the engine ignores an object declared as arguments).
    Na(i, a, n) {
      curSid = this.sid;
      const g = this.base + i;
      let id = idOf(a);
      if (id === 0) id = create(a, g, 2);
      const len = a.length;
      for (let j = n; j < len; j++) {
        const c = a[j];
        if (isObj(c)) logPutfield(g, id, $String(j), this.child(c, g));
      }
      logName(DECLARE, g, '~arguments~', id);
    }

    // Nm: the entry of a method whose super an arrow uses: DECLARE
    // ~method~, the function entered (its ~home~ field holds its home
    // object, members).
    Nm(i) {
      logName(DECLARE, this.base + i, '~method~', enterFid > 0 ? enterFid : 0);
    }

    // Nu: DECLAREs of a run of a function's vars at its entry, names
    // separated by commas, at iids i, i + 1, ...: undefined there.
    Nu(i, names) {
      curSid = this.sid;
      declareRun(this.base + i, names);
    }

    // Nw: the declaration of a binding that a generator or async function
    // declared at its entry (one a nested function captures, declared
    // after the first suspension: it may run in a resumption's context,
    // where a DECLARE would make a second binding): a WRITE of an object.
    Nw(i, name, v) {
      if (isObj(v)) {
        curSid = this.sid;
        const g = this.base + i;
        logName(WRITE, g, name, idOrCreate(v, g));
      }
      return v;
    }

    // F: a function literal; fe is its function-enter iid (negated for
    // a class's implicit constructor, which has no body: no CALL for it).
    // name: the name named evaluation would give it. A class's members
    // follow as (key, kind, fe) triples (kind: 0 method, 1 getter, 2
    // setter, +4 static, +8 private).
    F(i, fe, fn, name) {
      if (typeof fn === 'function') {
        curSid = this.sid;
        const g = this.base + i;
        let id = idOf(fn);
        if (fe < 0) {
          if (id === 0) {
            id = createFun(fn, g, this.base - fe, this);
            setFunInfo(fn, 0, g, this);
          }
        } else {
          if (id === 0) {
            id = createFun(fn, g, this.base + fe, this, true);
          } else if (fe > 0 && funFe(fn) === 0) {
            // Seen before its module's body ran (an import cycle,
            // createEarly): its script is known now.
            setFunInfo(fn, this.base + fe, g, this, 0);
            markGen(fn, this.base + fe, this);
          }
          if (fe > 0 && fe <= this.nSites) this.closures[this.slot[fe]] = id;
        }
        if (name !== undefined && fn.name === '') {
          try { defineProperty(fn, 'name', { value: name, configurable: true }); } catch { /* ignore */ }
        }
        if (arguments.length > 4 || pendingStatic.length !== 0 || pendingThis.length !== 0) this.members(fn, g, id, arguments);
      }
      return fn;
    }

    // Ft: fn (its F's result) was created in a field initializer or a
    // static block whose this closures keep (V8 runs those as one function,
    // whose context holds this): the edge fn.~this~ → t. inst: an instance
    // field's, whose object may have no id yet (as in Q); a static one's
    // class gets its id from F, which logs the edge then.
    Ft(i, t, fn, inst) {
      if (typeof fn !== 'function' || !isObj(t)) return fn;
      const fid = idOf(fn);
      if (fid === 0) return fn;
      curSid = this.sid;
      const g = this.base + i;
      let tid = idOf(t);
      if (tid === 0) {
        if (!inst) {
          pendingThis[pendingThis.length] = t;
          pendingThis[pendingThis.length] = fid;
          pendingThis[pendingThis.length] = g;
          return fn;
        }
        tid = create(t, g);
        setUnder(tid);
      }
      logPutfield(g, fid, '~this~', tid);
      return fn;
    }

    // Fo: the property [k]: v of an object literal, v an anonymous
    // function or class (named by the key's value), written as the spread
    // of o = {[k]: v}: F for v, o returned for the spread.
    Fo(i, fe, o) {
      const v = o[ownKeys(o)[0]];
      if (arguments.length <= 4) {
        this.F(i, fe, v);
      } else {
        const a = [i, fe, v];
        for (let k = 3; k < arguments.length; k++) a[k] = arguments[k];
        apply(this.F, this, a);
      }
      return o;
    }

    // K: a class field's computed key, converted to a property key (the
    // engine's own conversion, once) for the instrumenter's temporary.
    K(k) {
      return ownKeys({ [k]: 0 })[0];
    }

    // members: a class's methods, getters and setters get their
    // CREATE_FUN (ids), then PUTFIELDs on the prototype (on the class when
    // static), accessors under "~get~KEY"/"~set~KEY"; private methods get
    // an id of their own (the shim cannot read them). Methods with computed
    // keys are found on the prototype and the class (their Fe iid from
    // their source text), and static fields initialized before the class
    // had its id (Q) are logged now.
    members(fn, g, cid, args) {
      const proto = fn.prototype;
      const pid = isObj(proto) ? idOrCreate(proto, g) : 0;
      for (let k = 4; k + 2 < args.length; k += 3) {
        const key = args[k], kind = args[k + 1], fe = args[k + 2];
        const tid = (kind & 4) !== 0 ? cid : pid;
        if (tid === 0) continue;
        const acc = kind & 3;
        const pname = acc === 1 ? '~get~' + key : acc === 2 ? '~set~' + key : $String(key);
        if ((kind & 8) !== 0) {
          let mid = this.closures[this.slot[fe]];
          if (mid === 0) {
            mid = newId();
            log4(CREATE_FUN, g, this.base + fe, mid);
            newId(); // its announced prototype (createFun)
            this.closures[this.slot[fe]] = mid;
          }
          logPutfield(g, tid, pname, mid);
          if ((kind & 16) !== 0) logPutfield(g, mid, '~home~', tid);
          continue;
        }
        const d = getOwnPropertyDescriptor((kind & 4) !== 0 ? fn : proto, key);
        if (d === undefined) continue;
        const m = acc === 1 ? d.get : acc === 2 ? d.set : d.value;
        if (typeof m !== 'function') continue;
        let mid = idOf(m);
        if (mid === 0) mid = createFun(m, g, this.base + fe, this);
        this.closures[this.slot[fe]] = mid;
        logPutfield(g, tid, pname, mid);
        // A method that uses super holds its home object (V8: the
        // class's context, which the method's closures keep).
        if ((kind & 16) !== 0) logPutfield(g, mid, '~home~', tid);
      }
      if (pid !== 0) this.unnamed(proto, pid, g);
      this.unnamed(fn, cid, g);
      // This class's pending entries only: a class defined in a static
      // initializer of another is given its id first.
      let w = 0;
      for (let k = 0; k < pendingStatic.length; k += 3) {
        if (pendingStatic[k] === fn) {
          const v = pendingStatic[k + 2];
          logPutfield(g, cid, pendingStatic[k + 1], isObj(v) ? idOrCreate(v, g) : 0);
        } else {
          pendingStatic[w] = pendingStatic[k];
          pendingStatic[w + 1] = pendingStatic[k + 1];
          pendingStatic[w + 2] = pendingStatic[k + 2];
          w += 3;
        }
      }
      pendingStatic.length = w;
      w = 0;
      for (let k = 0; k < pendingThis.length; k += 3) {
        if (pendingThis[k] === fn) {
          logPutfield(pendingThis[k + 2], pendingThis[k + 1], '~this~', cid);
        } else {
          pendingThis[w] = pendingThis[k];
          pendingThis[w + 1] = pendingThis[k + 1];
          pendingThis[w + 2] = pendingThis[k + 2];
          w += 3;
        }
      }
      pendingThis.length = w;
    }

    // unnamed: methods and accessors of o (a class or its prototype)
    // without an id: computed keys.
    unnamed(o, oid, g) {
      const ks = ownKeys(o);
      for (let j = 0; j < ks.length; j++) {
        const k = ks[j];
        const d = getOwnPropertyDescriptor(o, k);
        if (d === undefined) continue;
        const ks2 = typeof k === 'symbol' ? $String(k) : k;
        if (typeof d.value === 'function' && idOf(d.value) === 0) logPutfield(g, oid, ks2, literalFun(d.value, g, this));
        if (typeof d.get === 'function' && idOf(d.get) === 0) logPutfield(g, oid, '~get~' + ks2, literalFun(d.get, g, this));
        if (typeof d.set === 'function' && idOf(d.set) === 0) logPutfield(g, oid, '~set~' + ks2, literalFun(d.set, g, this));
      }
    }

    // Q: a class field's definition (x = e in a class body) or a private
    // field's write (o.#x = e), which JavaScript performs: the PUTFIELD
    // only. inst: an instance field's initializer, which may see the new
    // object before its constructor's Fe; it is then under construction.
    // A static field runs before F gives the class its id: F logs it.
    Q(i, o, k, v, inst) {
      if (!isObj(o)) return v;
      if (typeof k !== 'string') k = $String(k); // a computed key (K)
      curSid = this.sid;
      const g = this.base + i;
      let id = idOf(o);
      if (id === 0) {
        if (!inst) {
          pendingStatic[pendingStatic.length] = o;
          pendingStatic[pendingStatic.length] = k;
          pendingStatic[pendingStatic.length] = v;
          return v;
        }
        id = create(o, g);
        setUnder(id);
      }
      logPutfield(g, id, k, isObj(v) ? idOrCreate(v, g) : 0);
      use(id, g);
      return v;
    }

    // Qt: this in an instance field's initializer, written to before its
    // constructor's Fe: given its id there, under construction, as Q
    // gives it (the constructor protocol moves it to the new's site).
    Qt(i, o) {
      if (isObj(o) && idOf(o) === 0) {
        curSid = this.sid;
        setUnder(create(o, this.base + i));
      }
      return o;
    }

    // Ps: super.k = v, after the write, which JavaScript performed on o
    // (this, its receiver) unless a setter took it: the PUTFIELD when o
    // now owns k as data holding v (a proxy's descriptor is not read).
    Ps(i, o, k, v) {
      if (!isObj(o) || proxy(o)) return v;
      let d;
      try { d = getOwnPropertyDescriptor(o, k); } catch { return v; }
      if (d === undefined || !hasOwn(d, 'value') || d.value !== v) return v;
      const obj = isObj(v);
      let id = idOf(o);
      if (id === 0 && !obj) return v;
      curSid = this.sid;
      const g = this.base + i;
      if (id === 0) id = idOrCreate(o, g);
      logPutfield(g, id, k, obj ? idOrCreate(v, g) : 0);
      use(id, g);
      return v;
    }

    // T: object, array and RegExp literals; acc is present (the first
    // key of the instrumenter's triples, which may be 0, "" or null) when
    // an object literal has getters, setters or methods: its values are
    // then read through descriptors, so that no getter runs.
    T(i, v, acc) {
      if (!isObj(v)) return v;
      curSid = this.sid;
      const g = this.base + i;
      const hasAcc = acc !== undefined;
      if (hasAcc) {
        const ks = objectKeys(v);
        for (let j = 0; j < ks.length; j++) {
          const d = getOwnPropertyDescriptor(v, ks[j]);
          if (d === undefined) continue;
          if (typeof d.get === 'function') literalFun(d.get, g, this);
          if (typeof d.set === 'function') literalFun(d.set, g, this);
        }
      }
      // A literal is never a proxy: its prototype is read without a trap.
      let id = idOf(v);
      if (id === 0) id = create(v, g, !hasAcc && typeof v === 'object' && getPrototypeOf(v) === RegExpProto ? true : 2);
      if (typeof v === 'function') return v;
      if (isArray(v)) {
        const len = v.length;
        for (let j = 0; j < len; j++) {
          const c = v[j];
          if (isObj(c)) logPutfield(g, id, $String(j), this.child(c, g));
        }
        return v;
      }
      const ks = objectKeys(v);
      for (let j = 0; j < ks.length; j++) {
        const k = ks[j];
        if (hasAcc) {
          const d = getOwnPropertyDescriptor(v, k);
          if (d !== undefined && (d.get !== undefined || d.set !== undefined)) {
            if (d.get !== undefined) logPutfield(g, id, '~get~' + k, idOrCreate(d.get, g));
            if (d.set !== undefined) logPutfield(g, id, '~set~' + k, idOrCreate(d.set, g));
            continue;
          }
        }
        const c = v[k];
        if (isObj(c)) logPutfield(g, id, k, this.child(c, g));
      }
      // {__proto__: p}: the literal holds its prototype (one whose own
      // prototype is null is taken for an Object.prototype, of any realm;
      // a regexp literal's is RegExp.prototype).
      const pr = getPrototypeOf(v);
      if (pr !== ObjectProto && pr !== RegExpProto && pr !== null && (proxy(pr) || getPrototypeOf(pr) !== null)) logPutfield(g, id, '__proto__', this.child(pr, g));
      return v;
    }

    // Tm: T of an object literal with a method that uses super (kind +16
    // in its triples): Ts, then each such method's ~home~ edge to the
    // literal (its home object).
    Tm(i, v) {
      apply(this.Ts, this, apply(arraySlice, arguments, []));
      if (!isObj(v)) return v;
      const oid = idOf(v);
      const g = this.base + i;
      for (let k = 2; k + 2 < arguments.length; k += 3) {
        const kind = arguments[k + 1];
        if ((kind & 16) === 0 || arguments[k] === null) continue;
        const d = getOwnPropertyDescriptor(v, arguments[k]);
        if (d === undefined) continue;
        const m = (kind & 3) === 1 ? d.get : (kind & 3) === 2 ? d.set : d.value;
        const mid = typeof m === 'function' ? idOf(m) : 0;
        if (mid !== 0 && oid !== 0) logPutfield(g, mid, '~home~', oid);
      }
      return v;
    }

    // Ts: T of an object literal with computed keys or spreads, which may
    // define symbol-keyed properties: those are logged too, under their
    // String() (as P logs a write of one).
    Ts(i, v, acc) {
      if (arguments.length <= 3) this.T(i, v, acc);
      else apply(this.T, this, apply(arraySlice, arguments, []));
      if (!isObj(v) || typeof v === 'function') return v;
      const ks = ownKeys(v);
      const g = this.base + i;
      let id = 0;
      for (let j = 0; j < ks.length; j++) {
        const k = ks[j];
        if (typeof k !== 'symbol') continue;
        const d = getOwnPropertyDescriptor(v, k);
        if (d === undefined) continue;
        if (id === 0) {
          curSid = this.sid;
          id = idOf(v);
          if (id === 0) return v;
        }
        const name = $String(k);
        if (d.get !== undefined || d.set !== undefined) {
          if (d.get !== undefined) logPutfield(g, id, '~get~' + name, this.child(d.get, g));
          if (d.set !== undefined) logPutfield(g, id, '~set~' + name, this.child(d.set, g));
        } else if (isObj(d.value)) {
          logPutfield(g, id, name, this.child(d.value, g));
        }
      }
      return v;
    }

    child(c, g) {
      const id = idOf(c);
      if (id !== 0) return id;
      // An array no hook has seen (a spread entries() pair) holds its
      // elements.
      return typeof c === 'function' ? literalFun(c, g, this) : !proxy(c) && isArray(c) ? holdFirst(g, c) : create(c, g);
    }

    // W: variable write.
    W(i, name, v, old) {
      if (isObj(v)) {
        curSid = this.sid;
        const g = this.base + i;
        logName(WRITE, g, name, idOrCreate(v, g));
      } else if (isObj(old)) {
        curSid = this.sid;
        logName(WRITE, this.base + i, name, 0);
      }
      return v;
    }

    // G: property read base (also optional calls' bases); a use. This is
    // the hottest hook: use() is inlined by hand (all-uses mode replaces
    // the method, see configure).
    G(i, o) {
      if ((typeof o === 'object' && o !== null) || typeof o === 'function') {
        const id = useIdOf(o);
        if (id !== 0) {
          luSet(id, this.base + i);
        }
      }
      return o;
    }

    // Gl, Pl: G and P of a property named stackTraceLimit (stacks.js): the
    // main realm's Error reads as an object whose stackTraceLimit is the
    // program's limit, and a write to it is the program's.
    Gl(i, o) {
      this.G(i, o);
      if (o !== $MainError) return o;
      limitObj.stackTraceLimit = programLimit(o);
      return limitObj;
    }
    Pl(i, o, k, v, s) {
      const r = put(this, i, o, k, v, s, 0);
      if (o === $MainError && k === 'stackTraceLimit') limitWritten(o, v);
      return r;
    }

    // G0..G31 and P0..P31: G and P, each with a reader of its own for the
    // object's id (ids.js, u0.. and p0..): the instrumenter picks the copy
    // by the name of the object (instrument.copyOf).
    G0(i, o) { return isObj(o) ? useHit(this, i, o, readU0(o)) : o; }
    G1(i, o) { return isObj(o) ? useHit(this, i, o, readU1(o)) : o; }
    G2(i, o) { return isObj(o) ? useHit(this, i, o, readU2(o)) : o; }
    G3(i, o) { return isObj(o) ? useHit(this, i, o, readU3(o)) : o; }
    G4(i, o) { return isObj(o) ? useHit(this, i, o, readU4(o)) : o; }
    G5(i, o) { return isObj(o) ? useHit(this, i, o, readU5(o)) : o; }
    G6(i, o) { return isObj(o) ? useHit(this, i, o, readU6(o)) : o; }
    G7(i, o) { return isObj(o) ? useHit(this, i, o, readU7(o)) : o; }
    G8(i, o) { return isObj(o) ? useHit(this, i, o, readU8(o)) : o; }
    G9(i, o) { return isObj(o) ? useHit(this, i, o, readU9(o)) : o; }
    G10(i, o) { return isObj(o) ? useHit(this, i, o, readU10(o)) : o; }
    G11(i, o) { return isObj(o) ? useHit(this, i, o, readU11(o)) : o; }
    G12(i, o) { return isObj(o) ? useHit(this, i, o, readU12(o)) : o; }
    G13(i, o) { return isObj(o) ? useHit(this, i, o, readU13(o)) : o; }
    G14(i, o) { return isObj(o) ? useHit(this, i, o, readU14(o)) : o; }
    G15(i, o) { return isObj(o) ? useHit(this, i, o, readU15(o)) : o; }
    G16(i, o) { return isObj(o) ? useHit(this, i, o, readU16(o)) : o; }
    G17(i, o) { return isObj(o) ? useHit(this, i, o, readU17(o)) : o; }
    G18(i, o) { return isObj(o) ? useHit(this, i, o, readU18(o)) : o; }
    G19(i, o) { return isObj(o) ? useHit(this, i, o, readU19(o)) : o; }
    G20(i, o) { return isObj(o) ? useHit(this, i, o, readU20(o)) : o; }
    G21(i, o) { return isObj(o) ? useHit(this, i, o, readU21(o)) : o; }
    G22(i, o) { return isObj(o) ? useHit(this, i, o, readU22(o)) : o; }
    G23(i, o) { return isObj(o) ? useHit(this, i, o, readU23(o)) : o; }
    G24(i, o) { return isObj(o) ? useHit(this, i, o, readU24(o)) : o; }
    G25(i, o) { return isObj(o) ? useHit(this, i, o, readU25(o)) : o; }
    G26(i, o) { return isObj(o) ? useHit(this, i, o, readU26(o)) : o; }
    G27(i, o) { return isObj(o) ? useHit(this, i, o, readU27(o)) : o; }
    G28(i, o) { return isObj(o) ? useHit(this, i, o, readU28(o)) : o; }
    G29(i, o) { return isObj(o) ? useHit(this, i, o, readU29(o)) : o; }
    G30(i, o) { return isObj(o) ? useHit(this, i, o, readU30(o)) : o; }
    G31(i, o) { return isObj(o) ? useHit(this, i, o, readU31(o)) : o; }
    P0(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP0(o), 0) : put(this, i, o, k, v, s, 0); }
    P1(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP1(o), 1) : put(this, i, o, k, v, s, 0); }
    P2(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP2(o), 2) : put(this, i, o, k, v, s, 0); }
    P3(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP3(o), 3) : put(this, i, o, k, v, s, 0); }
    P4(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP4(o), 4) : put(this, i, o, k, v, s, 0); }
    P5(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP5(o), 5) : put(this, i, o, k, v, s, 0); }
    P6(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP6(o), 6) : put(this, i, o, k, v, s, 0); }
    P7(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP7(o), 7) : put(this, i, o, k, v, s, 0); }
    P8(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP8(o), 8) : put(this, i, o, k, v, s, 0); }
    P9(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP9(o), 9) : put(this, i, o, k, v, s, 0); }
    P10(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP10(o), 10) : put(this, i, o, k, v, s, 0); }
    P11(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP11(o), 11) : put(this, i, o, k, v, s, 0); }
    P12(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP12(o), 12) : put(this, i, o, k, v, s, 0); }
    P13(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP13(o), 13) : put(this, i, o, k, v, s, 0); }
    P14(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP14(o), 14) : put(this, i, o, k, v, s, 0); }
    P15(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP15(o), 15) : put(this, i, o, k, v, s, 0); }
    P16(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP16(o), 16) : put(this, i, o, k, v, s, 0); }
    P17(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP17(o), 17) : put(this, i, o, k, v, s, 0); }
    P18(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP18(o), 18) : put(this, i, o, k, v, s, 0); }
    P19(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP19(o), 19) : put(this, i, o, k, v, s, 0); }
    P20(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP20(o), 20) : put(this, i, o, k, v, s, 0); }
    P21(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP21(o), 21) : put(this, i, o, k, v, s, 0); }
    P22(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP22(o), 22) : put(this, i, o, k, v, s, 0); }
    P23(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP23(o), 23) : put(this, i, o, k, v, s, 0); }
    P24(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP24(o), 24) : put(this, i, o, k, v, s, 0); }
    P25(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP25(o), 25) : put(this, i, o, k, v, s, 0); }
    P26(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP26(o), 26) : put(this, i, o, k, v, s, 0); }
    P27(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP27(o), 27) : put(this, i, o, k, v, s, 0); }
    P28(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP28(o), 28) : put(this, i, o, k, v, s, 0); }
    P29(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP29(o), 29) : put(this, i, o, k, v, s, 0); }
    P30(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP30(o), 30) : put(this, i, o, k, v, s, 0); }
    P31(i, o, k, v, s) { return isObj(o) && !isObj(k) ? putRead(this, i, o, k, v, s, readP31(o), 31) : put(this, i, o, k, v, s, 0); }
    // Pq0..Pq31: the test of an element write o[k] = v that the program
    // performs itself (docs/instrumentation.md §4, Pq): o's id when the
    // write would be elided (a primitive over an own property of an object
    // without edges, or a typed array's element), else 0 (the write goes
    // through P's copy). Pu: the use that follows the program's store.
    Pq0(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP0(o)) : unread(); }
    Pq1(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP1(o)) : unread(); }
    Pq2(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP2(o)) : unread(); }
    Pq3(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP3(o)) : unread(); }
    Pq4(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP4(o)) : unread(); }
    Pq5(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP5(o)) : unread(); }
    Pq6(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP6(o)) : unread(); }
    Pq7(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP7(o)) : unread(); }
    Pq8(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP8(o)) : unread(); }
    Pq9(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP9(o)) : unread(); }
    Pq10(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP10(o)) : unread(); }
    Pq11(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP11(o)) : unread(); }
    Pq12(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP12(o)) : unread(); }
    Pq13(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP13(o)) : unread(); }
    Pq14(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP14(o)) : unread(); }
    Pq15(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP15(o)) : unread(); }
    Pq16(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP16(o)) : unread(); }
    Pq17(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP17(o)) : unread(); }
    Pq18(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP18(o)) : unread(); }
    Pq19(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP19(o)) : unread(); }
    Pq20(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP20(o)) : unread(); }
    Pq21(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP21(o)) : unread(); }
    Pq22(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP22(o)) : unread(); }
    Pq23(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP23(o)) : unread(); }
    Pq24(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP24(o)) : unread(); }
    Pq25(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP25(o)) : unread(); }
    Pq26(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP26(o)) : unread(); }
    Pq27(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP27(o)) : unread(); }
    Pq28(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP28(o)) : unread(); }
    Pq29(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP29(o)) : unread(); }
    Pq30(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP30(o)) : unread(); }
    Pq31(i, o, k, v) { return isObj(o) && !isObj(k) ? quick(o, k, v, readP31(o)) : unread(); }
    Pm(i, o, k, v, s) {
      const r = qR, st = qStamp;
      qR = 0;
      qStamp = undefined;
      return put(this, i, o, k, v, s, r, st);
    }
    Pu(i, r) {
      curSid = this.sid;
      use(r, this.base + i);
    }

    // L: the instrumenter's all-uses mode: an operand whose object an
    // operation reads without another hook (spread, for-in/of, in,
    // instanceof); a use.
    L(i, o) {
      if (isObj(o)) {
        const id = useIdOf(o);
        if (id !== 0) {
          curSid = this.sid;
          use(id, this.base + i);
        }
      }
      return o;
    }

    // Gt: G of this in a function whose Fe returned frame d (the
    // instrumenter's rule: not an arrow, a generator, an async function or
    // a derived class's constructor, and not in its parameters): the id
    // comes from the frame instead of the object.
    Gt(i, d, o) {
      const id = frameSelf[d];
      if (id > 0) {
        if (allUses) {
          curSid = this.sid;
          use(id, this.base + i);
        } else {
          luSet(id, this.base + i);
        }
        return o;
      }
      return this.G(i, o);
    }

    // P: property write o[k] = v, performed here (put).
    P(i, o, k, v, strict) {
      return put(this, i, o, k, v, strict, 0);
    }

    // Pt: P of this (see Gt).
    Pt(i, d, o, k, v, strict) {
      const id = frameSelf[d];
      return id > 0 ? put(this, i, o, k, v, strict, id, true) : put(this, i, o, k, v, strict, 0);
    }

    // D: delete o[k].
    D(i, o, k, strict) {
      if (isObj(k)) k = toKey(k);
      const r = strict ? delStrict(o, k) : delSloppy(o, k);
      if (isObj(o) && k !== null && k !== undefined) {
        const id = idOf(o);
        if (id !== 0) {
          curSid = this.sid;
          const g = this.base + i;
          logPutfield(g, id, $String(k), 0);
          use(id, g);
        }
      }
      return r;
    }

    // c: call f(...args).
    c(i, f, ...args) {
      return invoke(this, i, f, undefined, args, false, this.c);
    }

    // M: the method lookup o.m or o[k] of a method call, which the program
    // performed (f, its result: H.M(j, t, t.m)), before the arguments are
    // evaluated; a use of o at local iid j (the call's iid + 1), recorded
    // after the read as MemInsight's getField. Returns f for m.
    M(j, o, f) {
      if (isObj(o)) {
        const id = useIdOf(o);
        if (id !== 0) {
          if (allUses) curSid = this.sid;
          use(id, this.base + j);
        }
      }
      return f;
    }

    // Mk: M of an optional chain's method call, which performs the lookup
    // o[k] itself (the chain's text is made of pieces, and the hook's
    // position stands for the lookup's in stack traces).
    Mk(j, o, k) {
      return this.M(j, o, o[k]);
    }

    // M0..M31: M, each with the reader of the G copy of its number (the
    // instrumenter picks it by the name of the object, as for G: the
    // objects of one name are looked up for their methods and read for
    // their fields). A lookup of an object with its id on the field leaves
    // it for the callee's Fe (mObj).
    M0(j, o, f) { if (isObj(o)) useM(this, j, o, readU0(o)); return f; }
    M1(j, o, f) { if (isObj(o)) useM(this, j, o, readU1(o)); return f; }
    M2(j, o, f) { if (isObj(o)) useM(this, j, o, readU2(o)); return f; }
    M3(j, o, f) { if (isObj(o)) useM(this, j, o, readU3(o)); return f; }
    M4(j, o, f) { if (isObj(o)) useM(this, j, o, readU4(o)); return f; }
    M5(j, o, f) { if (isObj(o)) useM(this, j, o, readU5(o)); return f; }
    M6(j, o, f) { if (isObj(o)) useM(this, j, o, readU6(o)); return f; }
    M7(j, o, f) { if (isObj(o)) useM(this, j, o, readU7(o)); return f; }
    M8(j, o, f) { if (isObj(o)) useM(this, j, o, readU8(o)); return f; }
    M9(j, o, f) { if (isObj(o)) useM(this, j, o, readU9(o)); return f; }
    M10(j, o, f) { if (isObj(o)) useM(this, j, o, readU10(o)); return f; }
    M11(j, o, f) { if (isObj(o)) useM(this, j, o, readU11(o)); return f; }
    M12(j, o, f) { if (isObj(o)) useM(this, j, o, readU12(o)); return f; }
    M13(j, o, f) { if (isObj(o)) useM(this, j, o, readU13(o)); return f; }
    M14(j, o, f) { if (isObj(o)) useM(this, j, o, readU14(o)); return f; }
    M15(j, o, f) { if (isObj(o)) useM(this, j, o, readU15(o)); return f; }
    M16(j, o, f) { if (isObj(o)) useM(this, j, o, readU16(o)); return f; }
    M17(j, o, f) { if (isObj(o)) useM(this, j, o, readU17(o)); return f; }
    M18(j, o, f) { if (isObj(o)) useM(this, j, o, readU18(o)); return f; }
    M19(j, o, f) { if (isObj(o)) useM(this, j, o, readU19(o)); return f; }
    M20(j, o, f) { if (isObj(o)) useM(this, j, o, readU20(o)); return f; }
    M21(j, o, f) { if (isObj(o)) useM(this, j, o, readU21(o)); return f; }
    M22(j, o, f) { if (isObj(o)) useM(this, j, o, readU22(o)); return f; }
    M23(j, o, f) { if (isObj(o)) useM(this, j, o, readU23(o)); return f; }
    M24(j, o, f) { if (isObj(o)) useM(this, j, o, readU24(o)); return f; }
    M25(j, o, f) { if (isObj(o)) useM(this, j, o, readU25(o)); return f; }
    M26(j, o, f) { if (isObj(o)) useM(this, j, o, readU26(o)); return f; }
    M27(j, o, f) { if (isObj(o)) useM(this, j, o, readU27(o)); return f; }
    M28(j, o, f) { if (isObj(o)) useM(this, j, o, readU28(o)); return f; }
    M29(j, o, f) { if (isObj(o)) useM(this, j, o, readU29(o)); return f; }
    M30(j, o, f) { if (isObj(o)) useM(this, j, o, readU30(o)); return f; }
    M31(j, o, f) { if (isObj(o)) useM(this, j, o, readU31(o)); return f; }

    // Mt: M of this (see Gt).
    Mt(j, d, o, f) {
      let id = frameSelf[d];
      if (id > 0) {
        mObj = o;
        mId = id;
      }
      if (id === 0 && isObj(o)) id = useIdOf(o);
      if (id !== 0) {
        if (allUses) curSid = this.sid;
        use(id, this.base + j);
      }
      return f;
    }

    // m: method call f.apply(o, args), f looked up by M.
    m(i, o, f, ...args) {
      return invoke(this, i, f, o, args, false, this.m);
    }

    // Tagged templates: tag`a${x}` → ct(i, tag, q`a${x}`), o.f`a` →
    // mt(i, o, M(j, o, "f"), q`a`). q returns its arguments, the strings
    // object of its site and the substitutions, as an array (a rest
    // parameter: no iterator runs).
    q(...args) {
      return args;
    }
    ct(i, f, args) {
      return invoke(this, i, f, undefined, args, false);
    }
    mt(i, o, f, args) {
      return invoke(this, i, f, o, args, false);
    }

    // n: new F(...args).
    n(i, f, ...args) {
      return invoke(this, i, f, undefined, args, true, this.n);
    }

    // c0..c6, m0..m6, n0..n6: c, m and n for calls with 0..6 arguments and
    // no spread (no arguments array when the callee has no model).
    c0(i, f) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 0) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [], false, this.c0);
      return callEnd(this, i, f, fid, f(), false);
    }
    c1(i, f, a) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 1, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a], false, this.c1);
      return callEnd(this, i, f, fid, f(a), false);
    }
    c2(i, f, a, b) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 2, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b], false, this.c2);
      return callEnd(this, i, f, fid, f(a, b), false);
    }
    c3(i, f, a, b, c) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 3, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c], false, this.c3);
      return callEnd(this, i, f, fid, f(a, b, c), false);
    }
    c4(i, f, a, b, c, d) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 4, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d], false, this.c4);
      return callEnd(this, i, f, fid, f(a, b, c, d), false);
    }
    c5(i, f, a, b, c, d, e) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 5, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d, e], false, this.c5);
      return callEnd(this, i, f, fid, f(a, b, c, d, e), false);
    }
    c6(i, f, a, b, c, d, e, g) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 6, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d, e, g], false, this.c6);
      return callEnd(this, i, f, fid, f(a, b, c, d, e, g), false);
    }
    m0(i, o, f) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 0) : -1;
      if (fid < 0) return invoke(this, i, f, o, [], false, this.m0);
      return callEnd(this, i, f, fid, callWith(f, o), false);
    }
    m1(i, o, f, a) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 1, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a], false, this.m1);
      return callEnd(this, i, f, fid, callWith(f, o, a), false);
    }
    m2(i, o, f, a, b) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 2, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a, b], false, this.m2);
      return callEnd(this, i, f, fid, callWith(f, o, a, b), false);
    }
    m3(i, o, f, a, b, c) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 3, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a, b, c], false, this.m3);
      return callEnd(this, i, f, fid, callWith(f, o, a, b, c), false);
    }
    m4(i, o, f, a, b, c, d) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 4, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a, b, c, d], false, this.m4);
      return callEnd(this, i, f, fid, callWith(f, o, a, b, c, d), false);
    }
    m5(i, o, f, a, b, c, d, e) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 5, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a, b, c, d, e], false, this.m5);
      return callEnd(this, i, f, fid, callWith(f, o, a, b, c, d, e), false);
    }
    m6(i, o, f, a, b, c, d, e, g) {
      const fid = typeof f === 'function' ? callStart(this, i, f, false, 6, a) : -1;
      if (fid < 0) return invoke(this, i, f, o, [a, b, c, d, e, g], false, this.m6);
      return callEnd(this, i, f, fid, callWith(f, o, a, b, c, d, e, g), false);
    }
    n0(i, f) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 0) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [], true, this.n0);
      let v;
      try {
        v = new f();
      } catch (e) {
        throw newFailed(this, i, f, e, this.n0);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n1(i, f, a) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 1, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a], true, this.n1);
      let v;
      try {
        v = new f(a);
      } catch (e) {
        throw newFailed(this, i, f, e, this.n1);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n2(i, f, a, b) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 2, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b], true, this.n2);
      let v;
      try {
        v = new f(a, b);
      } catch (e) {
        throw newFailed(this, i, f, e, this.n2);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n3(i, f, a, b, c) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 3, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c], true, this.n3);
      let v;
      try {
        v = new f(a, b, c);
      } catch (e) {
        throw newFailed(this, i, f, e, this.n3);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n4(i, f, a, b, c, d) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 4, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d], true, this.n4);
      let v;
      try {
        v = new f(a, b, c, d);
      } catch (e) {
        throw newFailed(this, i, f, e, this.n4);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n5(i, f, a, b, c, d, e) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 5, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d, e], true, this.n5);
      let v;
      try {
        v = new f(a, b, c, d, e);
      } catch (err) {
        throw newFailed(this, i, f, err, this.n5);
      }
      return callEnd(this, i, f, fid, v, true);
    }
    n6(i, f, a, b, c, d, e, g) {
      const fid = typeof f === 'function' ? callStart(this, i, f, true, 6, a) : -1;
      if (fid < 0) return invoke(this, i, f, undefined, [a, b, c, d, e, g], true, this.n6);
      let v;
      try {
        v = new f(a, b, c, d, e, g);
      } catch (err) {
        throw newFailed(this, i, f, err, this.n6);
      }
      return callEnd(this, i, f, fid, v, true);
    }

    // Fe: function entry; returns the frame for R and Fr.
    Fe(i, fn, dis, nt) {
      // A function the event loop calls (no script open, no CALL): the
      // host's DOM may have to catch up first (its initial traversal).
      if (hostEnter !== undefined && !callPending && openScripts.length === 0) hostEnter();
      const fe = this.base + i;
      if (nFree === 0) growFrames();
      const d = freeSlots[--nFree];
      frameSid[d] = curSid;
      frameRet[d] = 0;
      frameThis[d] = 0;
      curSid = this.sid;
      let ctor;
      enterThis = -1;
      if (callPending && pendFe === fe && pendDepth === fdepth) {
        callPending = false;
        ctor = pendCtor;
        enterFid = pendFid;
      } else {
        let fid;
        if (typeof fn === 'function') {
          fid = idOfNew(fn);
          if (fid === 0) {
            // A function declaration of an ES module called before the
            // module's body has run (an import cycle): its F has not
            // given it its id.
            fid = createFun(fn, fe, fe, this);
            if (i <= this.nSites) this.closures[this.slot[i]] = fid;
          }
        } else {
          fid = this.closures[this.slot[i]];
        }
        if (fid === 0) {
          // A function the shim has not seen created (a method called
          // while its class is being defined): an id of its own, so that
          // FUNCTION_ENTER names a created function.
          fid = newId();
          log4(CREATE_FUN, fe, fe, fid);
          newId(); // its announced prototype (createFun)
          this.closures[this.slot[i]] = fid;
        }
        log3(FUNCTION_ENTER, fe, fid);
        if (fid !== 0) use(fid, fe);
        ctor = nt !== undefined;
        enterFid = fid;
      }
      pendCtor = false;
      let self = dis === GLOBAL ? 1 : 0;
      const mo = mObj;
      mObj = undefined;
      retObj = undefined;
      if (dis !== GLOBAL && isObj(dis)) {
        let id;
        if (dis === mo) {
          id = mId;
        } else {
          id = ctor ? selfIdOfNew(dis) : selfIdOf(dis);
        }
        if (id > 0) self = id;
        else if (id < 0) id = -id;
        if (id === 0 && typeof dis === 'function' && isClassSource(dis)) {
          // A static method or block run while its class is being
          // defined: the class gets its id (CREATE_FUN) from F, later.
        } else if (id === 0) {
          id = create(dis, fe, ctor ? 2 : undefined); // 2: no proxy, no typed array
          if (createdOnField) self = id;
          if (ctor) {
            setUnder(id);
            frameThis[d] = id;
          }
        } else if (ctor && isUnder(id)) {
          frameThis[d] = id; // given its id by a field initializer (Q)
        }
        logName(DECLARE, fe, 'this', id);
        enterThis = id;
      }
      // Only an id on the field, never a proxy's: Pt writes to this
      // without testing for a proxy.
      frameSelf[d] = self;
      return d;
    }

    // Fg: Fe of a generator or an async function (its first run). The
    // frame remembers what a resumption (Y) enters again (r: the local iid
    // of its resume function, when it has one); a generator's first run
    // from a hooked next/return/throw knows its generator.
    Fg(i, fn, dis, nt, r) {
      const d = this.Fe(i, fn, dis, nt);
      frameRes[d] = r === undefined ? 0 : this.base + r;
      frameRf[d] = 0;
      frameSelf[d] = 0; // a suspended frame keeps its slot: no Gt reads it
      const fid = enterFid;
      frameSusp[d] = 1;
      frameFn[d] = fid;
      frameFe[d] = this.base + i;
      frameDis[d] = enterThis;
      frameFo[d] = 0;
      frameGen[d] = 0;
      frameIters[d] = undefined;
      if (resumeGen !== undefined && fid > 0 && this.feGen !== null && this.feGen[i] === 1) {
        frameGen[d] = idOrCreate(resumeGen, this.base + i);
        resumeGen = undefined;
      }
      return d;
    }

    // Ys: the frame d suspends (yield, yield*, await, for await) after its
    // operand v: a frame object (CREATE_FUN in the innermost context)
    // holding the objects among the values of nv (Y's pairs, read after
    // the operand), held itself (hold), then FUNCTION_EXIT of each loop
    // iteration open in the frame (innermost first) and of the frame
    // (suspend). A frame already suspended writes nothing.
    Ys(i, d, v, ...nv) {
      if (frameSusp[d] === 1) suspend(this, i, d, 0, nv);
      return v;
    }

    // Yv: Ys of yield v: the frame object holds the yielded value until
    // the frame resumes (suspend).
    Yv(i, d, v, ...nv) {
      if (frameSusp[d] === 1) suspend(this, i, d, isObj(v) ? idOf(v) : 0, nv);
      return v;
    }

    // Y: the frame d resumes (after yield or await, at the start of a
    // catch or finally block that a throw or return resumption may reach,
    // after a for await loop): FUNCTION_ENTER of its resume function, or of
    // the function when it has none (makeResume), DECLAREs of
    // this and of the live names (name, value pairs; a number instead of a
    // name is the iid of a loop iteration open there, entered again as Iy
    // does, the pairs after it its bindings), then the frame object is
    // released. Returns v. A running frame writes nothing.
    Y(i, d, v, ...nv) {
      if (frameSusp[d] !== 2) return v;
      frameSid[d] = curSid;
      curSid = this.sid;
      const g = this.base + i;
      resumeGen = undefined;
      if (frameRf[d] !== 0) log3(FUNCTION_ENTER, frameRes[d], frameRf[d]);
      else log3(FUNCTION_ENTER, frameFe[d], frameFn[d]);
      if (frameDis[d] >= 0) logName(DECLARE, g, 'this', frameDis[d]);
      for (let k = 0; k < nv.length;) {
        const n = nv[k];
        if (typeof n === 'number') {
          enterIteration(this.base + n);
          k++;
          continue;
        }
        const x = nv[k + 1];
        logName(DECLARE, g, n, isObj(x) ? idOrCreate(x, g) : 0);
        k += 2;
      }
      release(d, g);
      frameSusp[d] = 1;
      // An await's value no hook has seen (Promise.all's array) holds its
      // elements.
      if (isObj(v) && idOf(v) === 0) holdOwn(g, v, 2);
      return v;
    }

    // Fx: Fr of a generator or an async function. A body completed by a
    // return or throw resumption while suspended (gen.return(), a
    // rejection reaching no catch) exits nothing: its frame object is
    // released.
    Fx(i, d, v) {
      if (frameSusp[d] === 2) {
        const saved = curSid;
        curSid = this.sid;
        release(d, this.base + i);
        curSid = saved;
        frameSusp[d] = 0;
        frameRet[d] = 0;
        frameThis[d] = 0;
        frameSelf[d] = 0;
        if (nFree === freeSlots.length) growFrames();
        freeSlots[nFree++] = d;
        return v;
      }
      frameSusp[d] = 0;
      return this.Fr(i, d, v);
    }

    // Sp: super(...) in a derived constructor (frame d) returned this.
    Sp(i, d, v) {
      if (isObj(v)) {
        curSid = this.sid;
        const id = idOf(v);
        if (id !== 0) {
          logName(DECLARE, this.base + i, 'this', id);
          if (isUnder(id)) frameThis[d] = id;
        }
      }
      return v;
    }

    // R: the value of a return statement.
    R(d, v) {
      if (isObj(v)) {
        const id = idOf(v);
        frameRet[d] = id;
        if (id !== 0) {
          retObj = v;
          retId = id;
        }
      } else {
        frameRet[d] = 0;
      }
      return v;
    }

    // Rx: X(i) and R(d, v) in one call, return v's.
    Rx(d, i, v) {
      if (pend[0] === 0) this.X(i);
      return this.R(d, v);
    }

    // Fr: function exit (in the body's finally, or, for a body that cannot
    // be wrapped in try, around the returned value v, which it returns).
    Fr(i, d, v) {
      if (callPending && pendDepth === fdepth) callLeft();
      curSid = this.sid;
      mObj = undefined;
      const r = frameRet[d];
      if (r !== 0) log2(RETURN, r);
      else if (frameThis[d] !== 0) log2(RETURN, frameThis[d]);
      log2(FUNCTION_EXIT, this.base + i);
      curSid = frameSid[d];
      frameRet[d] = 0;
      frameThis[d] = 0;
      // Code may still run in this activation after its exit (a finally
      // of the program's after a return, in functions that cannot be
      // wrapped in try): its uses of this then look the object up.
      frameSelf[d] = 0;
      if (nFree === freeSlots.length) growFrames();
      freeSlots[nFree++] = d;
      return v;
    }

    // Il, Ie, Ix: a loop whose per-iteration bindings closures capture
    // is a synthetic scope (docs/instrumentation.md §7, "Per-iteration
    // bindings"); i is its one iid (allocation site, Fe iid and exit
    // site, FREE_VARS marked "~iteration~"). Il, when the loop statement
    // starts: its synthetic function (CREATE_FUN, id+1 reserved as for
    // every CREATE_FUN); returns its id.
    Il(i) {
      curSid = this.sid;
      const g = this.base + i;
      const id = newId();
      newId(); // its announced prototype
      log4(CREATE_FUN, g, g, id);
      return id;
    }

    // Ie: an iteration of the loop l starts: FUNCTION_ENTER.
    Ie(i, l) {
      curSid = this.sid;
      log3(FUNCTION_ENTER, this.base + i, l);
    }

    // Ix: the iteration ends (normally, break, continue, return, throw):
    // FUNCTION_EXIT, after a RETURN of the value the frame d (-1 at top
    // level) is returning, which the exit's flush must not reclaim.
    Ix(i, l, d) {
      curSid = this.sid;
      if (d >= 0 && frameRet[d] !== 0) log2(RETURN, frameRet[d]);
      log2(FUNCTION_EXIT, this.base + i);
    }

    // Iy, Iz: Ie and Ix of a loop that suspends its generator or async
    // function d: the synthetic function is created at each iteration, in
    // the context running the loop then (a resumption runs the rest of the
    // frame in a fresh one), and the frame knows its open iterations, which
    // a suspension (Ys) exits and a resumption (Y) enters again.
    Iy(i, d) {
      curSid = this.sid;
      const g = this.base + i;
      makeResume(d);
      enterIteration(g);
      let its = frameIters[d];
      if (its === undefined) frameIters[d] = its = [];
      its[its.length] = g;
    }

    // Iz: the iteration ends; nothing is written when the frame is
    // suspended (a return or throw resumption leaving the loop: Ys exited
    // the iteration).
    Iz(i, d) {
      const its = frameIters[d];
      if (its !== undefined && its.length > 0) its.length--;
      if (frameSusp[d] === 2) return;
      curSid = this.sid;
      if (frameRet[d] !== 0) log2(RETURN, frameRet[d]);
      log2(FUNCTION_EXIT, this.base + i);
    }

    // Tw: the value a throw statement throws (fatal.js).
    Tw(v) {
      noteThrow(v, $MainError, mainCapture, this.Tw);
      return v;
    }

    // X: end of a statement-level expression: fills the pending-flush slot.
    X(i, v) {
      if (pend[0] === 0) {
        pend[0] = 1;
        pendSid = this.sid;
        pendIid = this.base + i;
        if (nativeCount !== 0) {
          nativeSite = new SafeWeakMap();
          nativeCount = 0;
        }
      }
      return v;
    }

    // Sx: script exit.
    Sx() {
      if (!this.open) return;
      this.open = false;
      if (callPending && pendDepth === fdepth) callLeft(); // a call of the top level left by an exception
      curSid = this.sid;
      log2(SCRIPT_EXIT, this.base + this.srIid);
      for (let k = openScripts.length - 1; k >= 0; k--) {
        if (openScripts[k] === this) {
          for (let j = k + 1; j < openScripts.length; j++) openScripts[j - 1] = openScripts[j];
          openScripts.length--;
          break;
        }
      }
      curSid = this.prevSid;
    }

    // E: direct eval's argument, instrumented as a nested script, when
    // the callee f is the engine's eval (code instrumented before f was
    // passed gives none): a call of another function named eval (a
    // script's own, a wrapper in the global's place) is no eval, and gets
    // the value as it is.
    E(i, s, strict, f) {
      if (f !== undefined && !isEngineEval(f)) return s;
      return instrumentCode(s, strict ? 'eval strict' : 'eval', undefined, this);
    }
    // im: import() in run-time code (instrumented as H.im(…)), which the
    // engine resolves against the script whose code made it (called eval
    // or the function constructor): that script's import() (a file's, S's
    // last argument; run-time code's made by run-time code: its maker's),
    // since the code is compiled by the shim, whose own import() would
    // resolve it against the shim's file.
    im(s, o) {
      let h = this;
      while (h.imp === undefined && h.from !== undefined) h = h.from;
      if (h.imp !== undefined) return h.imp(s, o);
      // No maker with an import() of its own: the shim's, as before.
      if (shimImport === undefined) shimImport = apply(N_EVAL, undefined, ['(s, o) => import(s, o)']);
      return shimImport(s, o);
    }
  }


  // isEngineEval reports whether f is an engine's own eval (another
  // realm's: a vm context's), by its native text.
  function isEngineEval(f) {
    return typeof f === 'function' && (nativeKind(f) === K_EVAL || nativeEvalText(f));
  }
  // nativeEvalText: f's text is a native function's (an engine's eval, or
  // a proxy of it), not a script's own function's.
  function nativeEvalText(f) {
    try {
      const t = typeof f === 'function' ? apply(fnToString, f, []) : '';
      return t === 'function eval() { [native code] }' || t === 'function () { [native code] }';
    } catch {
      return false;
    }
  }

  // ---------------------------------------------------------------- toString

  // Function.prototype.toString shows an instrumented function's original
  // text, not the hooks: the function's range in its script (the site of
  // its Fe iid; for a class, of its F iid) cut from the script's original
  // text. That text is the string given to eval for run-time code, and in
  // Node the script's file, read at the first toString of one of its
  // functions (relative names against the working directory at start-up);
  // it is used only if its end is where the site table says the program
  // ends. Otherwise, and for every other function, the native text.
  var cwd = typeof host.cwd === 'string' ? host.cwd : '';
  var readText = host.readText;
  var nativeToString = fnToString;
  var toString = {
    toString() {
      const t = apply(nativeToString, this, []);
      if (this === toString) return apply(nativeToString, nativeToString, []);
      const c = ctorText.get(this);
      if (c !== undefined) return c;
      if (funScript(this) === undefined) return t; // not instrumented
      try {
        const o = originalText(this, t);
        return o === undefined ? t : o;
      } catch {
        return t;
      }
    },
  }.toString;
  try {
    const d = getOwnPropertyDescriptor(FunctionPrototype, 'toString');
    if (d !== undefined && d.value === nativeToString) {
      defineProperty(FunctionPrototype, 'toString', { value: toString, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable });
    }
  } catch { /* a frozen Function.prototype keeps the native */ }

  function originalText(fn, t) {
    const id = idOf(fn);
    if (id === 0) return undefined;
    let g = funFe(fn);
    const cls = t.length > 5 && t[0] === 'c' && t[1] === 'l' && t[2] === 'a' && t[3] === 's' && t[4] === 's';
    if (cls || g === 0) g = funLit(fn);
    const h = funScript(fn);
    if (h === undefined || sidOfIid(g) !== h.sid) return undefined;
    const src = scriptText(h);
    if (src === null) return undefined;
    const p = 4 * (g - h.base - 1);
    const sites = siteTable(h);
    const ls = h.lineStarts;
    if (sites[p] === 0 || sites[p] > ls.length || sites[p + 2] > ls.length) return undefined;
    const start = ls[sites[p] - 1] + sites[p + 1] - 1;
    const end = ls[sites[p + 2] - 1] + sites[p + 3] - 1;
    if (start < 0 || end > src.length || start >= end) return undefined;
    const o = apply(strSlice, src, [start, end]);
    if (o[0] === t[0]) return o;
    // A method, getter or setter: its site starts at its parameters; the
    // text starts at its key.
    if (o[0] !== '(') return undefined;
    const pre = methodPrefix(t, src, start);
    return pre === undefined ? undefined : pre + o;
  }

  // methodPrefix returns the text of a method before its parameters: the
  // native text's, up to the "(" (modifiers and key; a string key may hold
  // brackets), except for a computed key, which is the original's (the
  // instrumented key may hold hooks).
  function methodPrefix(t, src, start) {
    for (let k = 0; k < t.length; k++) {
      const c = t[k];
      if (c === '(') return apply(strSlice, t, [0, k]);
      if (c === '"' || c === "'") {
        for (k++; k < t.length && t[k] !== c; k++) if (t[k] === '\\') k++;
      } else if (c === '/' && t[k + 1] === '*') {
        k = apply(strIndexOf, t, ['*/', k + 2]);
        if (k < 0) return undefined;
        k++;
      } else if (c === '/' && t[k + 1] === '/') {
        while (k < t.length && t[k] !== '\n') k++;
      } else if (c === '[') {
        let e = start - 1;
        while (e >= 0 && (src[e] === ' ' || src[e] === '\t' || src[e] === '\n' || src[e] === '\r')) e--;
        if (src[e] !== ']') return undefined;
        let depth = 0;
        for (; e >= 0; e--) {
          if (src[e] === ']') depth++;
          else if (src[e] === '[' && --depth === 0) break;
        }
        return e < 0 ? undefined : apply(strSlice, t, [0, k]) + apply(strSlice, src, [e, start]);
      }
    }
    return undefined;
  }

  // scriptText returns the original text of script h (and computes its
  // line starts), or null when it is not known.
  function scriptText(h) {
    if (h.text !== undefined) return h.text;
    let text = h.src;
    if (text === undefined && textSource !== undefined && typeof h.file === 'string') {
      try { text = textSource(h.file); } catch { text = undefined; }
      if (typeof text !== 'string') text = undefined;
    }
    if (text === undefined && readText !== undefined && typeof h.file === 'string' && h.file !== 'eval' && h.file !== 'evalIndirect') {
      text = readText(h.file[0] === '/' || cwd === '' ? h.file : cwd + '/' + h.file);
    }
    h.text = null;
    if (typeof text !== 'string') return null;
    const ls = [0];
    for (let k = 0; k < text.length; k++) {
      const c = text[k];
      if (c === '\n' || c === '\u2028' || c === '\u2029') ls[ls.length] = k + 1;
      else if (c === '\r') {
        if (text[k + 1] === '\n') k++;
        ls[ls.length] = k + 1;
      }
    }
    // The program's site (its Se iid) ends where the text ends.
    const p = 4 * (h.seIid - 1);
    const last = ls.length;
    const sites = siteTable(h);
    if (sites[p + 2] !== last || sites[p + 3] !== text.length - ls[last - 1] + 1) return null;
    h.lineStarts = ls;
    h.text = text;
    return text;
  }

  // decodeSites turns a prologue's site table (a string of base-64 VLQ
  // numbers, docs/instrumentation.md §2) into [startLine, startCol,
  // endLine, endCol, ...] for local iids 1, 2, ...; a table that is already
  // an array (code instrumented by earlier versions) is returned as is.
  var vlqValue = new Int8Array(128).fill(-1);
  for (let k = 0; k < 64; k++) vlqValue[callWith(strCharCodeAt, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', k)] = k;
  // scratch: decode into a buffer that the next call reuses (S, which
  // needs the table only while it writes the SOURCE_MAPPINGs).
  var siteScratch = new Int32Array(0);
  function decodeSites(t, scratch) {
    if (typeof t !== 'string') return t;
    const len = t.length;
    let count = 0;
    for (let k = 0; k < len; k++) {
      const c = callWith(strCharCodeAt, t, k);
      if (c < 128 && vlqValue[c] >= 0 && vlqValue[c] < 32) count++;
    }
    count &= ~3;
    let out;
    if (scratch) {
      if (siteScratch.length < count) siteScratch = new Int32Array(count);
      out = siteScratch;
    } else {
      out = new Int32Array(count);
    }
    let x = 0, mul = 1, j = 0, pl = 0, pc = 0;
    for (let k = 0; k < len && j < count; k++) {
      const c = callWith(strCharCodeAt, t, k);
      const d = c < 128 ? vlqValue[c] : -1;
      if (d < 0) continue;
      x += (d & 31) * mul;
      if (d >= 32) {
        mul *= 32;
        continue;
      }
      const v = x % 2 === 1 ? -(x - 1) / 2 : x / 2;
      x = 0;
      mul = 1;
      switch (j & 3) {
        case 0: out[j] = pl + v; break; // start line
        case 1: out[j] = out[j - 1] === pl ? pc + v : v; pl = out[j - 1]; pc = out[j]; break;
        case 2: out[j] = out[j - 2] + v; break; // end line
        default: out[j] = out[j - 1] === out[j - 3] ? out[j - 2] + v : v;
      }
      j++;
    }
    decodedCount = count;
    return out;
  }
  var decodedCount = 0; // decodeSites' numbers (its scratch buffer may be longer)

  // siteTable is script h's site table, decoded on first need (a
  // function's source text).
  function siteTable(h) {
    if (typeof h.sites === 'string') h.sites = decodeSites(h.sites, false);
    return h.sites;
  }

  // S registers a script: SCRIPT_ENTER, its SOURCE_MAPPINGs, its FREE_VARS.
  function S(file, table, freeVars, seIid, srIid, modes, imp) {
    if (modes) configure(modes);
    // 0: run-time code whose table instrumentCode was given apart.
    if (table === 0) table = evalSites !== undefined ? evalSites : '';
    evalSites = undefined;
    const sites = decodeSites(table, true);
    const sid = ++sidCounter;
    const n = typeof table === 'string' ? decodedCount >> 2 : sites.length >> 2;
    const base = nextBase;
    nextBase += n;
    scriptBase[scriptBase.length] = base;
    scriptSid[scriptSid.length] = sid;
    const h = new Script(sid, base, n, srIid, curSid);
    // The shim keeps no table of handles: a script's functions hold its
    // handle (FunInfo), and so does its code, so that the handle, its site
    // table and the text of run-time code go when they do (a program that
    // evaluates fresh strings over and over must not keep them all).

    h.file = file;
    h.sites = table;
    h.seIid = seIid;
    h.src = evalSource; // run-time code: the string given to eval
    evalSource = undefined;
    h.from = evalFrom;
    evalFrom = undefined;
    h.imp = imp;
    if (h.src === undefined && typeof file === 'string' && vmCode.size !== 0) { // vm code
      const v = vmCode.get(file);
      if (v !== undefined) h.src = v[1];
    }
    openScripts[openScripts.length] = h;
    curSid = sid;
    logScriptEnter(base + seIid, sid, $String(file));
    // A sink that keeps sources (a collector's: its session's scripts/)
    // is told of each script, with how to get its original text (null
    // when the text at hand is not the one the sites are in, as with a
    // file instrumented ahead of time); the text is not kept here.
    if (sink !== undefined && sink.script !== undefined && !stopped) {
      sink.script($String(file), () => {
        const t = scriptText(h);
        h.text = undefined;
        h.lineStarts = null;
        return t;
      });
    }
    for (let k = 1; k <= n; k++) {
      const p = 4 * (k - 1);
      if (sites[p] !== 0) logSourceMapping(base + k, sites[p], sites[p + 1], sites[p + 2], sites[p + 3]);
    }
    const ks = freeVars ? objectKeys(freeVars) : [];
    for (let j = 0; j < ks.length; j++) logFreeVars(base + +ks[j], freeVars[ks[j]]);
    h.slot = slotsFor(n, ks);
    h.closures = new Int32Array(ks.length + 1);
    return h;
  }

  // A script's closure table has a slot per function, not per site (a
  // library has ten sites or more per function): the slot of local Fe
  // iid i is slot[i], its rank among the script's FREE_VARS keys (every
  // function has an entry, in ascending iid order), 0 for other iids,
  // whose writes land in the table's unused slot 0. Scripts with the
  // same keys share one map (copies of a library evaluated over and over;
  // the last 8 maps are compared, each key checked).
  var noSlots = new Int32Array(1);
  var slotRing = [];
  var slotPos = 0;
  function slotsFor(n, ks) {
    const k = ks.length;
    ring: for (let r = 0; r < slotRing.length; r += 2) {
      const m = slotRing[r];
      if (m.length !== n + 2 || slotRing[r + 1] !== k) continue;
      for (let j = 0; j < k; j++) if (m[+ks[j]] !== j + 1) continue ring;
      return m;
    }
    const m = new Int32Array(n + 2);
    for (let j = 0; j < k; j++) {
      const i = +ks[j];
      if (i > 0 && i <= n + 1) m[i] = j + 1;
    }
    slotRing[slotPos] = m;
    slotRing[slotPos + 1] = k;
    slotPos = (slotPos + 2) & 15;
    return m;
  }

  // ---------------------------------------------------------------- run-time code

  // instrumentCode returns code s (a string given to eval, a function
  // constructor or a string timer) instrumented as a nested script named
  // name ("eval" or "evalIndirect"; "eval strict": direct eval in strict
  // code, instrumented as strict code; "timer": a string timer's code,
  // named evalIndirect, which runs as a script of its own, so that its
  // handle needs a unique name), or s itself when it cannot be: no
  // instrumenter, or code memtrace does not instrument (a syntax error
  // then comes from the engine, as without instrumentation). In Node the
  // memtrace binary named by MEMTRACE_BIN instruments it synchronously: its
  // long-lived instrument-server, reached through two FIFOs (about 0.5 ms
  // a string, bridge.js), or where that is unavailable or
  // MEMTRACE_INSTRUMENTER=spawn, a process per string (about 20 ms); an
  // instrumenter set by setInstrumenter (`memtrace node`'s) takes
  // precedence. Results are cached per
  // (name, string): at most 256 entries and 4M characters of keys and
  // results, none over 256K, no string over 64K (a program that evaluates
  // fresh copies of a library, as Octane's CodeLoad does, would otherwise
  // fill the cache with results it never uses again, each about five
  // times its source).
  var hostInstrument = host.instrument; // the host's instrumenter, or undefined
  var instrumenter; // f(code, name, strict) -> instrumented code or undefined
  var CODE_CACHE_ENTRIES = 256, CODE_CACHE_CHARS = 4 << 20, CODE_CACHE_SRC = CODE_CACHE_CHARS >> 6;
  var codeCache = new SafeMap();
  var codeRing = [];
  var codeRingPos = 0;
  var codeChars = 0;
  var evalSource; // the original text of the script that S registers next
  var evalFrom; // the handle of the script whose code made it
  var shimImport; // im's import() when the code's makers have none
  // evalSites: the site table of the script S registers next, when its
  // code leaves the table out (S's table is then 0: the server's (bridge.js)
  // and memtrace node's instrumenters give it apart, so that the string
  // the engine keeps while the code lives is shorter).
  var evalSites;
  var codeSites = new SafeMap(); // key -> the site table of a cached result given apart
  // file: code given to the vm module (name 'vm': a script of its own,
  // named file; 'vmfn': a function body, vm.compileFunction's, instrumented
  // as a CommonJS module's; 'vmmod': a vm.SourceTextModule's, an ES
  // module), whose table stays in the code (the code may run long after it
  // is instrumented, or never, so the next S may not be its) and whose
  // original text S finds by its name (vmCode).
  var codeText = host.codeText, trustCode = host.trust;
  function instrumentCode(s, name, file, from) {
    if (hostInstrument === undefined && instrumenter === undefined) return s;
    if (typeof s !== 'string') {
      // Code the platform vouches for (a page's TrustedScript): its text,
      // instrumented, vouched for again by the host, else run as it is.
      const t = codeText !== undefined ? codeText(s) : undefined;
      if (t === undefined) return s;
      const out = instrumentCode(t, name, file, from);
      return out === t ? s : trustCode(out, s);
    }
    // Strings over CODE_CACHE_SRC characters are not cached: no key is
    // made for them (each would be a copy of the string).
    const key = s.length > CODE_CACHE_SRC ? undefined : file === undefined ? name + '\0' + s : name + '\0' + file + '\0' + s;
    let out = key === undefined ? undefined : codeCache.get(key);
    let sites;
    if (out === undefined) {
      try {
        let r;
        if (instrumenter !== undefined) {
          const strict = name === 'eval strict';
          r = file !== undefined ? instrumenter(s, file, false, name === 'vm', name)
            : instrumenter(s, strict ? 'eval' : name === 'timer' ? 'evalIndirect' : name, strict, name === 'timer');
        } else {
          const strict = name === 'eval strict', global = name === 'timer' || name === 'vm';
          const nm = file !== undefined ? file : strict ? 'eval' : global ? 'evalIndirect' : name;
          r = hostInstrument(nm, strict, global, s, file !== undefined ? name : undefined);
        }
        // The instrumented code, or {code, sites} with the table apart.
        if (typeof r === 'string') {
          out = r;
        } else if (r !== null && typeof r === 'object' && typeof r.code === 'string') {
          out = r.code;
          if (typeof r.sites === 'string') sites = sharedSites(r.sites);
        } else {
          out = s;
        }
      } catch {
        out = s;
        sites = undefined;
      }
      if (file !== undefined && sites !== undefined) {
        out = s; // a table apart cannot be matched with its script
        sites = undefined;
      }
      if (key !== undefined) cacheCode(key, out, sites);
      if (out !== s) codeMade(out.length);
    } else {
      sites = codeSites.get(key);
      // Evaluated again: without the marker that keeps first-time code out
      // of V8's eval cache (instrument.EvalNoCache), the same length, so
      // that code the program evaluates over and over is cached as it
      // would be uninstrumented.
      if (out !== s && file === undefined) {
        // "const NAME = " precedes it (NAME: the handle, a few characters)
        const p = apply(strIndexOf, out, ['= 0?0``:']);
        if (p > 6 && p < 24) {
          out = apply(strSlice, out, [0, p + 2]) + '      ' + apply(strSlice, out, [p + 8]);
          codeCache.set(key, out);
        }
      }
    }
    if (file !== undefined) {
      if (out !== s) vmSource(file, name, s);
      return out;
    }
    if (out !== s) {
      evalSource = s;
      evalFrom = from;
    }
    evalSites = sites;
    return out;
  }
  // vmCode keeps code given to the vm module by the name it runs under
  // (vmName): [kind, its original text, whether other text ran under that
  // name too, its position map (posMapOf)]. S takes a script's original
  // text from it (a module loader compiles a module and runs it at once);
  // a stack's frames in it are mapped unless the name is ambiguous (code
  // without a filename option is all evalmachine.<anonymous>). The last
  // 1024 names are kept.
  var vmCode = new SafeMap();
  var vmNames = [];
  var vmPos = 0;
  function vmSource(file, kind, s) {
    const v = vmCode.get(file);
    if (v === undefined) {
      const old = vmNames[vmPos];
      if (old !== undefined) vmCode.delete(old);
      vmNames[vmPos] = file;
      vmPos = (vmPos + 1) & 1023;
      vmCode.set(file, [kind, s, false, undefined]);
    } else if (v[1] !== s || v[0] !== kind) {
      v[0] = kind;
      v[1] = s;
      v[2] = true;
      v[3] = undefined;
    }
  }
  // codeMade counts the characters of instrumented run-time code (the
  // strings the engine keeps as its scripts' text while their code lives,
  // about four times the program's own) and, each time they reach
  // RT_GC_CHARS or an eighth of the heap the last such collection left,
  // has the host collect the whole heap (where it can). V8 lets the
  // heap grow to about four times what its last full collection left while
  // collections cost little of the run's time; a program that evaluates
  // fresh code over and over (Octane's CodeLoad: copies of a library made
  // distinct by a salt) makes its instrumented text and bytecode faster
  // than it would its own, and so reached twice its plain peak before the
  // next collection came (docs/performance-log.md, "Full collections"). A
  // collection is paid per RT_GC_CHARS characters or more, which cost
  // far more to instrument and compile than a full collection of a heap
  // eight times their size takes. The collector is the host's
  // (fullCollection: Node's is V8's %CollectGarbage).
  var RT_GC_CHARS = 16 << 20;
  var rtChars = 0, rtGcAt = RT_GC_CHARS, rtGc;
  function codeMade(n) {
    rtChars += n;
    if (rtChars < rtGcAt) return;
    rtChars = 0;
    if (rtGc === undefined) rtGc = host.fullCollection !== undefined ? host.fullCollection() : null;
    if (rtGc === null) {
      rtGcAt = Infinity;
      return;
    }
    try {
      const used = rtGc();
      rtGcAt = used / 8 > RT_GC_CHARS ? used / 8 : RT_GC_CHARS;
    } catch {
      rtGcAt = Infinity;
    }
  }
  // sharedSites returns site table t, or an equal one that a script of
  // the last 8 strings instrumented has: strings that differ in names of
  // one length have one table (copies of a library made distinct by a
  // salt: Octane's CodeLoad keeps 1,600, with a handful of tables; each
  // script keeps its table while its code lives). The ring holds at most
  // 8 tables beyond the scripts that keep them.
  var sitesRing = [];
  var sitesPos = 0;
  function sharedSites(t) {
    for (let k = 0; k < sitesRing.length; k++) if (sitesRing[k] === t) return sitesRing[k];
    sitesRing[sitesPos] = t;
    sitesPos = (sitesPos + 1) & 7;
    return t;
  }
  function cacheCode(key, out, sites) {
    const n = key.length + out.length + (sites !== undefined ? sites.length : 0);
    if (n > CODE_CACHE_CHARS >> 4) return;
    if (codeChars + n > CODE_CACHE_CHARS) {
      for (let k = 0; k < codeRing.length; k++) {
        codeCache.delete(codeRing[k]);
        codeSites.delete(codeRing[k]);
        codeInfo.delete(codeRing[k]);
      }
      codeRing.length = 0;
      codeRingPos = 0;
      codeChars = 0;
    }
    const old = codeRing[codeRingPos];
    if (old !== undefined) {
      const os = codeSites.get(old);
      codeChars -= old.length + codeCache.get(old).length + (os !== undefined ? os.length : 0);
      codeCache.delete(old);
      codeSites.delete(old);
      codeInfo.delete(old);
    }
    codeRing[codeRingPos] = key;
    codeRingPos = (codeRingPos + 1) % CODE_CACHE_ENTRIES;
    codeCache.set(key, out);
    if (sites !== undefined) codeSites.set(key, sites);
    codeChars += n;
  }

  // String timers run their code as global code (browsers); Node's timers
  // refuse strings (a TypeError naming the string), so they are left alone.
  var timersTakeStrings = host.timersTakeStrings !== false;

  // makeFunction is Function(...args) (or the async, generator and async
  // generator function constructors C): the native constructor converts
  // the arguments and parses them (the same errors at the same time) and
  // gives the function's text, "function anonymous(a,b\n) {\nbody\n}";
  // that text, without the name (a named function expression would bind
  // it in its body), is instrumented as a nested script evalIndirect and
  // evaluated in the global scope, as the value of a property named
  // "anonymous", which names it as the native is named (defining its name
  // afterwards would leave V8 a function with slow, dictionary-mode
  // properties). Its toString is the native's text.
  var ctorText = new SafeWeakMap();
  function makeFunction(C, args, hook, from) {
    const strs = [];
    for (let k = 0; k < args.length; k++) strs[k] = apply(strConcat, '', [args[k]]);
    const fn = construct(C, strs);
    if (hostInstrument === undefined && instrumenter === undefined) return fn;
    const text = apply(fnToString, fn, []);
    const at = apply(strIndexOf, text, ['anonymous(']);
    if (at < 0) return fn;
    const src = '({"anonymous": ' + apply(strSlice, text, [0, at]) + apply(strSlice, text, [at + 9]) + '}).anonymous';
    const code = instrumentCode(src, 'evalIndirect', undefined, from);
    if (code === src) return fn;
    if (hook !== undefined && src.length <= CODE_CACHE_SRC) evalOrigin('evalIndirect\0' + src, hook, true);
    let g;
    try {
      g = apply(N_EVAL, undefined, [code]);
    } catch {
      return fn;
    }
    if (typeof g !== 'function') return fn;
    ctorText.set(g, text);
    return g;
  }

  // ---------------------------------------------------------------- realms

  // Code that runs in another realm (a context of Node's vm module: its
  // own global object and built-ins; the host patches vm, node/vm.js)
  // finds the shim there: before it first runs, the realm's global object
  // gets __mt (its script handles and temporaries are made on that global
  // object), its natives with models are marked, its error constructors
  // make their errors as the main realm's do, its Error.prepareStackTrace
  // leaves the shim's frames out and its Function.prototype.toString gives
  // the original text (installRealm). vmRuntime is what the core lends a
  // host for such code.
  var vmRuntime = {
    canInstrument: () => hostInstrument !== undefined || instrumenter !== undefined,
    instrument: (c, kind, name) => instrumentCode(c, kind, name),
    run: runLeaving,
    installRealm,
    setText: (fn, text) => { ctorText.set(fn, text); },
    relName,
  };
  // runLeaving calls f, leaving the scripts an exception leaves open.
  function runLeaving(f, self, args) {
    const n = openScripts.length;
    try {
      return apply(f, self, args);
    } catch (e) {
      leaveScripts(n);
      throw e;
    }
  }

  // relName is file name f relative to the host's working directory
  // (host.cwd) when below it.
  function relName(f) {
    return cwd !== '' && f.length > cwd.length + 1 && apply(strSlice, f, [0, cwd.length + 1]) === cwd + '/' ? apply(strSlice, f, [cwd.length + 1]) : f;
  }

  // originalTextOf returns the original text of the instrumented script
  // that stack frames name file (fatal.js): the text a loader compiled
  // under the name, code given to vm, or the file's.
  function originalTextOf(file) {
    let path = file;
    if (apply(strSlice, file, [0, 7]) === 'file://') {
      try { path = decodeURIComponent(apply(strSlice, file, [7])); } catch { return undefined; }
    }
    let text;
    if (textSource !== undefined) text = textSource(path);
    if (typeof text === 'string') return text;
    const v = vmCode.size !== 0 ? vmCode.get(relName(file)) : undefined;
    if (v !== undefined) return v[2] ? undefined : v[1];
    return readText !== undefined ? readText(path) : undefined;
  }

  // ---------------------------------------------------------------- stack columns

  // callerFrame returns the CallSite of the program's call of hook (a call
  // hook), with the original's position (the stack filter maps it), or
  // undefined.
  function callerFrame(hook) {
    if (mainCapture === undefined) return undefined;
    const E = $MainError;
    const lim = E.stackTraceLimit;
    const saved = E.prepareStackTrace;
    holdLimit(1);
    try {
      E.stackTraceLimit = 1;
      E.prepareStackTrace = (_, st) => st;
      const o = {};
      apply(mainCapture, E, [o, hook]);
      const st = o.stack;
      return isArray(st) && st.length > 0 ? st[0] : undefined;
    } catch {
      return undefined;
    } finally {
      try {
        E.prepareStackTrace = saved;
        E.stackTraceLimit = lim;
      } catch { /* read-only: never changed */ }
      holdLimit(-1);
    }
  }

  // Natives that read their caller's position from the engine's stack
  // (node:test's test, it, describe and its hooks take it as the test's
  // location), where a call hook's frame would be the caller: memtrace
  // node's preload marks them (setCallerSites) with a maker of trampolines,
  // functions compiled at a position of a script that call their first
  // argument with the elements of their second; invoke calls such a native
  // through the trampoline at the program's call (a bound function when
  // it has a receiver: a bound function has no frame of its own).
  var locAt;
  var locCache = new SafeMap();
  function callAtCaller(f, base, args, hook) {
    const c = callerFrame(hook);
    let tr = null;
    if (c !== undefined) {
      try {
        const name = c.getScriptNameOrSourceURL(), line = c.getLineNumber(), col = c.getColumnNumber();
        if (typeof name === 'string' && name !== '' && line > 0 && col > 0) {
          const key = name + '\0' + line + '\0' + col + '\0' + args.length;
          tr = locCache.get(key);
          if (tr === undefined) {
            tr = locAt(name, line, col, args.length);
            if (typeof tr !== 'function') tr = null;
            locCache.set(key, tr);
          }
        }
      } catch {
        tr = null;
      }
    }
    return tr !== null ? apply(tr, undefined, [base === undefined ? f : apply(fnBind, f, [base]), args]) : apply(f, base, args);
  }

  // Frames in run-time code (indirect eval, the function constructors,
  // and direct eval, whose strings the shim's cache holds: at most 256,
  // none over 256K characters, no string over 64K). The engine names such
  // a frame's script by the hash of its text (CallSite getScriptHash:
  // SHA-256 of its UTF-8), so the cached results are hashed, once each,
  // when a stack with such a frame is first formatted. codeInfo keeps, per cache key, where the
  // program made the code (the eval origin the engine would have given:
  // "eval at f (file:line:col)", not the shim's) and whether a function
  // constructor made it (whose functions' frames the engine names "eval").
  var codeInfo = new SafeMap(); // cache key -> [origin, made by Function, hash, position map]
  var sha256 = host.sha256;
  function evalOrigin(key, hook, fn) {
    if (!codeCache.has(key)) return;
    let origin;
    const c = callerFrame(hook);
    try {
      if (c !== undefined) {
        const name = c.getFunctionName();
        let where = c.getFileName();
        if (typeof where !== 'string') where = c.isEval() ? c.getEvalOrigin() + ', <anonymous>' : '<anonymous>';
        origin = 'eval at ' + (typeof name === 'string' && name !== '' ? name : '<anonymous>') + ' (' + where + ':' + c.getLineNumber() + ':' + c.getColumnNumber() + ')';
      }
    } catch {
      origin = undefined;
    }
    const info = codeInfo.get(key);
    codeInfo.set(key, [origin, fn, info !== undefined ? info[2] : undefined, info !== undefined ? info[3] : undefined]);
  }
  // evalFrame returns, for a frame c in run-time code of the cache,
  // [map, origin, made by Function] (map as posMapOf's), or undefined.
  function evalFrame(c) {
    if (typeof c.getScriptHash !== 'function' || codeRing.length === 0) return undefined;
    const hash = c.getScriptHash();
    if (typeof hash !== 'string' || hash === '') return undefined;
    if (sha256 === undefined) return undefined;
    let key;
    for (let k = 0; k < codeRing.length && key === undefined; k++) {
      const kk = codeRing[k];
      const out = codeCache.get(kk);
      if (out === undefined || out === apply(strSlice, kk, [apply(strIndexOf, kk, ['\0']) + 1])) continue;
      let info = codeInfo.get(kk);
      if (info === undefined) {
        info = [undefined, false, undefined, undefined];
        codeInfo.set(kk, info);
      }
      if (info[2] === undefined) info[2] = sha256(out);
      if (info[2] === hash) key = kk;
    }
    if (key === undefined) return undefined;
    const info = codeInfo.get(key);
    if (info[3] === undefined) {
      const at = apply(strIndexOf, key, ['\0']);
      const name = apply(strSlice, key, [0, at]), src = apply(strSlice, key, [at + 1]);
      const strict = name === 'eval strict', global = name === 'timer';
      info[3] = decodePosMap(posMapText(src, strict ? 'eval' : global ? 'evalIndirect' : name, strict, global, undefined)) || null;
    }
    return [info[3] === null ? undefined : info[3], info[0], info[1]];
  }

  // posMapOf returns, for the instrumented script the engine names file
  // in stack frames, a function from an instrumented line and column to
  // the original [line, column] (instrument/posmap.go), or undefined: code
  // given to vm (vmCode) is mapped by the instrumenter, files by memtrace
  // node's mapper (setPositionMapper), once each, when a stack with a frame
  // in them is formatted.
  var posMaps = new SafeMap(); // file -> map function, or null
  var positionMapper;
  var textSource; // setTextSource
  function posMapOf(file) {
    const v = vmCode.size !== 0 ? vmCode.get(relName(file)) : undefined;
    if (v !== undefined) {
      if (v[2]) return undefined; // more than one text under the name
      if (v[3] === undefined) v[3] = decodePosMap(posMapText(v[1], relName(file), false, v[0] === 'vm', v[0])) || null;
      return v[3] === null ? undefined : v[3];
    }
    const known = posMaps.get(file);
    if (known !== undefined) return known === null ? undefined : known;
    posMaps.set(file, null);
    let text;
    try {
      if (positionMapper !== undefined) text = positionMapper(file);
    } catch {
      text = undefined;
    }
    const f = decodePosMap(text);
    if (f !== undefined) posMaps.set(file, f);
    return f;
  }
  // posMapText asks the instrumenter for the position map of run-time or
  // vm code src as instrumentCode had it instrumented (kind: vm's).
  function posMapText(src, name, strict, global, kind) {
    let text;
    try {
      if (instrumenter !== undefined) text = instrumenter(src, name, strict, global, kind, true);
      else if (host.posMap !== undefined) text = host.posMap(name, strict, global, src, kind);
    } catch {
      return undefined;
    }
    if (text !== null && typeof text === 'object') text = text.code;
    return typeof text === 'string' ? text : undefined;
  }
  // decodePosMap returns the function of a map's text (posMapOf), or
  // undefined.
  function decodePosMap(text) {
    if (typeof text !== 'string' || text === '[]' || text.length < 2 || text[0] !== '[') return undefined;
    // A second line: the names V8 infers for function literals the hooks
    // wrap (instrument.inferName), by their original line and column.
    const nl = apply(strIndexOf, text, ['\n']);
    let names;
    if (nl >= 0) {
      try {
        const a = apply(jsonParse, $JSON, [apply(strSlice, text, [nl + 1])]);
        names = new SafeMap();
        for (let k = 0; k + 2 < a.length; k += 3) names.set(a[k + 1] * 1048576 + a[k + 2], a[k]);
      } catch { names = undefined; }
    }
    const end = nl >= 0 ? nl : text.length;
    // The numbers into an Int32Array (a large file's map has millions: as
    // a JSON array of doubles, eight bytes each).
    let n = 1;
    for (let k = 1; k < end; k++) if (callWith(strCharCodeAt, text, k) === 44) n++;
    const m = new Int32Array(n);
    let j = 0, v = 0;
    for (let k = 1; k < end; k++) {
      const c = callWith(strCharCodeAt, text, k);
      if (c >= 48 && c <= 57) v = v * 10 + (c - 48);
      else if (c === 44 || c === 93) {
        m[j++] = v;
        v = 0;
      } else return undefined;
    }
    if (j !== n) return undefined;
    // The entries of each line: [first, end) in m, five numbers each.
    const lines = new SafeMap();
    for (let k = 0; k + 4 < m.length; k += 5) {
      const l = m[k];
      const r = lines.get(l);
      if (r === undefined) lines.set(l, [k, k + 5]);
      else r[1] = k + 5;
    }
    // f gives the original line and column (a call's may be on a later
    // line than its hook: "f(a)\n.m()" reports "m"'s line).
    const f = (line, col) => {
      const r = lines.get(line);
      if (r === undefined) return [line, col];
      // The last entry of the line at or before col (binary search: a
      // minified line has thousands).
      let lo = 0, hi = (r[1] - r[0]) / 5;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (m[r[0] + 5 * mid + 1] <= col) lo = mid + 1;
        else hi = mid;
      }
      if (lo === 0) return [line, col];
      const best = r[0] + 5 * (lo - 1);
      const c = m[best + 1], ol = m[best + 2], oc = m[best + 3], kind = m[best + 4];
      return [ol, kind === 0 ? oc + (col - c) : oc];
    };
    // inferredName(line, col): the name of the literal that begins there
    // (original position), or undefined.
    f.inferredName = (line, col) => names !== undefined ? names.get(line * 1048576 + col) : undefined;
    return f;
  }
  setFrameMap(posMapOf, evalFrame);

  // installRealm gives the realm whose global object is g (gen and agen:
  // a generator function and an async generator function of it) what
  // instrumented code needs (patchVm).
  function installRealm(g, gen, agen) {
    try {
      if (getOwnPropertyDescriptor(g, '__mt') !== undefined) return;
    } catch {
      return;
    }
    const realmApi = {};
    const ks = objectKeys(api);
    for (let k = 0; k < ks.length; k++) realmApi[ks[k]] = api[ks[k]];
    realmApi.Sg = function Sg(name, nt, nk, file, table, freeVars, seIid, srIid, modes, imp) {
      return globalScript(g, name, nt, nk, file, table, freeVars, seIid, srIid, modes, imp);
    };
    try {
      defineProperty(g, '__mt', { value: realmApi, writable: false, enumerable: false, configurable: false });
    } catch {
      return;
    }
    const get = ownValue;
    const proto = (C) => get(C, 'prototype');
    const A = get(g, 'Array'), O = get(g, 'Object'), M = get(g, 'Map'), St = get(g, 'Set'), WM = get(g, 'WeakMap');
    const WR = get(g, 'WeakRef'), FR = get(g, 'FinalizationRegistry'), P = get(g, 'Promise'), R = get(g, 'Reflect'), F = get(g, 'Function');
    const marks = [
      [get(proto(A), 'push'), K_PUSH], [get(proto(A), 'pop'), K_POP], [get(proto(A), 'shift'), K_SHIFT],
      [get(proto(A), 'unshift'), K_UNSHIFT], [get(proto(A), 'splice'), K_SPLICE], [get(proto(A), 'concat'), K_CONCAT],
      [get(O, 'defineProperty'), K_DEFINE_PROPERTY], [get(O, 'assign'), K_OBJECT_ASSIGN], [get(A, 'from'), K_ARRAY_FROM],
      [M, K_MAP], [St, K_SET], [WM, K_WEAK_MAP],
      [get(proto(M), 'set'), K_MAP_SET], [get(proto(M), 'delete'), K_MAP_DELETE], [get(proto(M), 'clear'), K_MAP_CLEAR],
      [get(proto(St), 'add'), K_SET_ADD], [get(proto(St), 'delete'), K_SET_DELETE], [get(proto(St), 'clear'), K_SET_CLEAR],
      [get(proto(WM), 'set'), K_WEAK_MAP_SET], [get(proto(WM), 'delete'), K_WEAK_MAP_DELETE],
      [get(proto(WR), 'deref'), K_WEAK_REF_DEREF], [FR, K_FIN_REG], [get(proto(FR), 'register'), K_FIN_REGISTER],
      [get(proto(FR), 'unregister'), K_FIN_UNREGISTER], [P, K_PROMISE], [get(proto(P), 'then'), K_THEN],
      [get(proto(P), 'catch'), K_CATCH], [get(proto(P), 'finally'), K_FINALLY], [get(P, 'resolve'), K_PROMISE_RESOLVE],
      [get(P, 'reject'), K_PROMISE_REJECT], [get(R, 'apply'), K_REFLECT_APPLY], [get(R, 'construct'), K_REFLECT_CONSTRUCT],
      [get(proto(F), 'call'), K_CALL], [get(proto(F), 'apply'), K_APPLY],
    ];
    const more = modelsOf(g);
    for (let k = 0; k < more.length; k++) marks[marks.length] = more[k];
    for (let k = 0; k < marks.length; k++) if (typeof marks[k][0] === 'function' && nativeKind(marks[k][0]) === 0) markNative(marks[k][0], marks[k][1]);
    // Generators: their functions' prototypes tell them (markGen), their
    // next, return and throw resume them.
    if (typeof gen === 'function') {
      const gfp = getPrototypeOf(gen);
      realmGen.set(gfp, 1);
      const gp = getPrototypeOf(proto(gen));
      const resumes = ['next', 'return', 'throw'];
      for (let k = 0; k < resumes.length; k++) if (typeof get(gp, resumes[k]) === 'function') markNative(get(gp, resumes[k]), K_GEN_RESUME);
    }
    if (typeof agen === 'function') realmGen.set(getPrototypeOf(agen), 2);
    // Errors: made with the realm's stack capture (makeError).
    const E = get(g, 'Error');
    const errors = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError'];
    for (let k = 0; k < errors.length; k++) {
      const C = get(g, errors[k]);
      if (typeof C === 'function' && nativeKind(C) === 0) {
        markNative(C, K_ERROR);
        if (typeof E === 'function') errorRealm.set(C, E);
      }
    }
    if (!config.shimFrames) hideRealmFrames(E);
    // The original text of its functions.
    try {
      const FP = proto(F);
      const d = getOwnPropertyDescriptor(FP, 'toString');
      if (d !== undefined && typeof d.value === 'function' && d.value !== toString && d.configurable) {
        defineProperty(FP, 'toString', { value: toString, writable: d.writable, enumerable: d.enumerable, configurable: d.configurable });
      }
    } catch { /* a frozen Function.prototype keeps its own */ }
  }

  // ---------------------------------------------------------------- end

  function end() {
    if (ended) return;
    ended = true;
    flushLastUse();
    stopped = true;
    flush();
    if (sink !== undefined) sink.close();
    if (host.end !== undefined) host.end();
  }

  // leaveScripts writes SCRIPT_EXIT for the scripts above the first n of
  // openScripts that an exception left open (eval and vm code without a
  // try statement, whose top-level declarations must stay where they are:
  // instrument.blockScoped).
  function leaveScripts(n) {
    for (let k = openScripts.length - 1; k >= n; k--) if (openScripts[k].open) openScripts[k].Sx();
  }

  // closeScripts writes SCRIPT_EXIT for scripts an exception left open
  // (modules and classic scripts cannot wrap their bodies in finally).

  function closeScripts() {
    for (let k = openScripts.length - 1; k >= 0; k--) {
      const h = openScripts[k];
      if (h.open) {
        h.open = false;
        curSid = h.sid;
        log2(SCRIPT_EXIT, h.base + h.srIid);
        curSid = h.prevSid;
      }
    }
    openScripts.length = 0;
  }

  // domApi is what the host's DOM model (browser/dom.js) writes through:
  // ids (given at global iid g, or at the native call site that returned
  // the node), the DOM's entries, and outside(iid, fn), which runs fn as
  // code of no script (a mutation observer's callback, the initial
  // traversal: current script 0) and leaves the pending flush at 0:iid
  // when fn wrote something (not when inside: in the middle of the
  // program's code).
  var domApi = {
    idOf: (o) => idOf(o),
    id: (o, g) => idOrCreate(o, g),
    child: (add, pid, cid) => log3(add ? ADD_DOM_CHILD : REMOVE_DOM_CHILD, pid, cid),
    root: (id) => log2(DOM_ROOT, id),
    put: (g, bid, name, vid) => logPutfield(g, bid, name, vid),
    write: (g, name, id) => logName(WRITE, g, name, id),
    outside(iid, fn, inside) {
      const saved = curSid;
      const t0 = time;
      curSid = 0;
      try {
        fn();
      } finally {
        if (time !== t0 && pend[0] === 0 && !inside) setPending(0, iid);
        curSid = saved;
      }
    },
  };

  // The host ends the trace when the program ends (Node: process.exit and
  // the end of the event loop, before the program's 'exit' listeners),
  // gives an uncaught exception its original line, writes the bytes
  // waiting in the buffer while the program idles (flushPending: true when
  // it wrote some) and patches what compiles code in other realms (vm).
  if (host.attach !== undefined) {
    host.attach({
      end, closeScripts, textOf: originalTextOf, vm: vmRuntime, dom: domApi,
      flushPending() {
        if (unflushed() === 0 || stopped) return false;
        flush();
        return true;
      },
    });
  }

  // configure sets the modes: debugFun (a name), allUses, allPutFields
  // (booleans; allPutfields, MemInsight's spelling, is accepted too). An
  // instrumented script's prologue passes the modes it was instrumented
  // with (S).
  // p: the pending-flush slot, read by instrumented code (H.p[0]).
  defineProperty(Script.prototype, 'p', { value: pend });
  var fastG = Script.prototype.G;
  function configure(o) {
    if (!o) return;
    if (typeof o.debugFun === 'string') debugFun = o.debugFun;
    if (typeof o.allPutFields === 'boolean') allPutfields = o.allPutFields;
    else if (typeof o.allPutfields === 'boolean') allPutfields = o.allPutfields;
    if (typeof o.compact === 'boolean') compact = o.compact;
    if (typeof o.allUses === 'boolean') {
      if (o.allUses && !allUses && luCount > 0) flushLastUse(); // uses recorded so far
      allUses = o.allUses;
      Script.prototype.G = allUses ? useG : fastG;
      useHit = allUses ? useHitAll : useHitFast;
      useM = allUses ? useMAll : useMFast;
    }
  }
  if (allUses) {
    Script.prototype.G = useG;
    useHit = useHitAll;
    useM = useMAll;
  }

  // ---------------------------------------------------------------- api

  // Sg registers a classic script (S) whose handle and top-level
  // temporaries are global names: non-enumerable, configurable properties
  // of the global object made here (name; name_1 … name_<nt>; name_k1 …
  // name_k<nk>), not declarations of the script. A const handle would make
  // a second run of the same text (a page that includes a script twice, a
  // string given to setInterval) throw "Identifier has already been
  // declared", and var temporaries were enumerable properties of the
  // global object (Object.keys(window), for-in). A second run redefines
  // them: functions of the first then log through the second's handle,
  // whose sites are the same.
  function Sg(name, nt, nk, file, table, freeVars, seIid, srIid, modes, imp) {
    return globalScript(GLOBAL, name, nt, nk, file, table, freeVars, seIid, srIid, modes, imp);
  }
  // globalScript is Sg for the realm whose global object is g.
  function globalScript(g, name, nt, nk, file, table, freeVars, seIid, srIid, modes, imp) {
    const h = S(file, table, freeVars, seIid, srIid, modes, imp);
    globalName(g, name, h, false);
    for (let k = 1; k <= nt; k++) globalName(g, name + '_' + k, undefined, true);
    for (let k = 1; k <= nk; k++) globalName(g, name + '_k' + k, undefined, true);
    return h;
  }
  function globalName(g, name, value, writable) {
    try {
      defineProperty(g, name, { value, writable, enumerable: false, configurable: true });
    } catch { /* a frozen global object: the script's hooks will throw */ }
  }

  var api = {
    version: VERSION,
    S,
    Sg,
    configure,
    end,
    // setInstrumenter sets how run-time code is instrumented (§6):
    // f(code, name, strict, global) returns the instrumented code, or
    // {code, sites} when the code's prologue leaves its site table out,
    // or anything else when it cannot (global: the code runs as a script
    // of its own, a string timer's). memtrace node's preload sets it.
    setInstrumenter(f) {
      if (typeof f === 'function') instrumenter = f;
    },
    // setPositionMapper sets how the position map of an instrumented file
    // is found: f(file) returns its text (instrument/posmap.go) or
    // undefined (memtrace node's preload).
    setPositionMapper(f) {
      if (typeof f === 'function') positionMapper = f;
    },
    // setTextSource sets where a file's original text is found before the
    // disk: f(name) returns the text compiled under the script name when a
    // loader other than Node's changed it (memtrace node's preload), else
    // undefined.
    setTextSource(f) {
      if (typeof f === 'function') textSource = f;
    },
    // setCallerSites marks the functions fns as natives that read their
    // caller's position (callAtCaller); at(name, line, column, argc) returns
    // a trampoline compiled there (memtrace node's preload).
    setCallerSites(fns, at) {
      if (!isArray(fns) || typeof at !== 'function') return;
      locAt = at;
      for (let k = 0; k < fns.length; k++) if (typeof fns[k] === 'function' && idOf(fns[k]) === 0) markNative(fns[k], K_LOC);
    },
    // hideFrames leaves every frame of the file name out of the stack
    // traces the program sees (memtrace node's preload, which wraps
    // Module.prototype._compile and the child_process functions).
    hideFrames(name) {
      hideFile(name);
    },
    // stats reports the writer's figures (for session.json and tests).
    stats() {
      return { time, ids: nextId, bytes: bytesWritten(), scripts: sidCounter };
    },
    // drain returns and forgets the bytes written so far when there is no
    // file sink.
    drain() {
      flush();
      const out = apply(arraySlice, chunks, []);
      chunks.length = 0;
      return out;
    },
  };
  // The host may name what other realms of the page read (a frame's
  // shim reads its parent's session: browser/host.js).
  if (host.client !== undefined) defineProperty(api, 'client', { value: host.client, enumerable: false });
  defineProperty(GLOBAL, '__mt', { value: api, writable: false, enumerable: false, configurable: false });

  // The global object is id 1, created first (createObjIdManager).
  create(GLOBAL, -1);
  markEdges(1); // global variables (DECLARE, WRITE) are its edges

  // Last, so that the shim's code is the lines up to this one (stacks.js).
  if (!config.shimFrames && hideShimFrames(GLOBAL.Error)) {
    hideFile('memtrace-store');
    raiseLimit(GLOBAL.Error);
  }
}
