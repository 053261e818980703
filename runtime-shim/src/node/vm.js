// Node's vm module, patched so that code given to it is instrumented as it
// is compiled (docs/instrumentation.md §6, "The vm module"): new vm.Script,
// vm.runInThisContext, runInContext and runInNewContext as a script of its
// own named by its filename option (relative to the working directory when
// below it), keeping its completion value; vm.compileFunction's body as a
// CommonJS module's; vm.SourceTextModule's text as an ES module's. That is
// how test runners load the program's modules (Jest compiles each with
// compileFunction in the test environment's context, Vitest runs each
// through runInThisContext). Code that runs in another context (another
// realm: its own global object and built-ins) finds the shim there: before
// it first runs, the core gets the context's global object ready
// (installRealm). The context's eval and function constructors are left as
// they are: code they compile runs uninstrumented.
//
// rt is what the core lends the host for it (core.js, vmRuntime):
// canInstrument(), instrument(code, kind, name), run(f, self, args) (f
// called, SCRIPT_EXIT written for the scripts an exception leaves open),
// installRealm(global, generator function, async generator function),
// setText(fn, text) (fn's toString) and relName(file).

import { G, apply, defineProperty, fnToString, isArray, strIndexOf, strSlice, SafeWeakSet } from '../natives.js';

// vmName is the name vm code runs under in the trace: its filename option
// (o, or o itself when a string), relative to the working directory when
// below it (relName).
function vmName(o, relName) {
  let f = 'evalmachine.<anonymous>';
  try {
    if (typeof o === 'string') f = o;
    else if (o !== null && typeof o === 'object' && typeof o.filename === 'string') f = o.filename;
  } catch { /* a throwing getter: Node reports it */ }
  return relName(f);
}

const isObj = (o) => o !== null && (typeof o === 'object' || typeof o === 'function');

export function patchVm(vm, builtin, rt) {
  const OScript = vm.Script, oRunThis = vm.runInThisContext, oRunIn = vm.runInContext, oRunNew = vm.runInNewContext,
    oCompile = vm.compileFunction, oCreate = vm.createContext;
  if (typeof oRunIn !== 'function' || typeof oRunThis !== 'function' || typeof oCreate !== 'function') return;
  // (Code instrumented already, an instrumented file a runner loads, is
  // left as it is without a round trip to the instrumenter.)
  const isInstr = (x) => typeof x === 'string' && apply(strIndexOf, x, ['__mt.S']) >= 0;
  const code = (c, o, kind) => typeof c === 'string' && rt.canInstrument() && !isInstr(c)
    ? rt.instrument(c, kind, vmName(o, rt.relName)) : c;
  const realms = new SafeWeakSet(); // contexts got ready
  // realm gets the context ctx ready for instrumented code (once).
  function realm(ctx) {
    if (ctx === null || typeof ctx !== 'object' || realms.has(ctx)) return;
    let r;
    try {
      r = apply(oRunIn, vm, ['[globalThis, function* () {}, async function* () {}]', ctx]);
    } catch {
      return; // not a context: the program's call throws Node's error
    }
    realms.add(ctx);
    if (isArray(r) && r.length === 3 && isObj(r[0]) && r[0] !== G) rt.installRealm(r[0], r[1], r[2]);
  }
  function defineFn(name, f, length) {
    try {
      defineProperty(f, 'name', { value: name, configurable: true });
      defineProperty(f, 'length', { value: length, configurable: true });
    } catch { /* ignore */ }
    return f;
  }
  const run = rt.run; // f called, leaving the scripts an exception leaves open
  const oThis = OScript.prototype.runInThisContext, oIn = OScript.prototype.runInContext;
  // A context is got ready only for instrumented code (instrumented here,
  // or ahead of time: a test runner loading an instrumented project).
  const instrScripts = new SafeWeakSet();
  const Script = class Script extends OScript {
    constructor(c, o) {
      const out = code(c, o, 'vm');
      super(out, o);
      if (isInstr(out)) instrScripts.add(this);
    }
    runInThisContext(o) {
      return run(oThis, this, arguments);
    }
    runInContext(ctx, o) {
      if (instrScripts.has(this)) realm(ctx);
      return run(oIn, this, arguments);
    }
  };
  defineFn('runInThisContext', Script.prototype.runInThisContext, oThis.length);
  defineFn('runInContext', Script.prototype.runInContext, oIn.length);
  defineFn('Script', Script, OScript.length);
  const runInThisContext = defineFn('runInThisContext', function (c, o) {
    return run(oRunThis, this, [code(c, o, 'vm'), o]);
  }, oRunThis.length);
  const runInContext = defineFn('runInContext', function (c, ctx, o) {
    const out = code(c, o, 'vm');
    if (isInstr(out)) realm(ctx);
    return run(oRunIn, this, [out, ctx, o]);
  }, oRunIn.length);
  // Node's: a context made from contextObject with the options' context
  // settings, then runInContext.
  const runInNewContext = defineFn('runInNewContext', function (c, obj, o) {
    let co;
    if (o !== null && typeof o === 'object') {
      co = {};
      if (o.contextName !== undefined) co.name = o.contextName;
      if (o.contextOrigin !== undefined) co.origin = o.contextOrigin;
      if (o.contextCodeGeneration !== undefined) co.codeGeneration = o.contextCodeGeneration;
      if (o.microtaskMode !== undefined) co.microtaskMode = o.microtaskMode;
    }
    if (typeof c !== 'string') return apply(oRunNew, this, arguments);
    const ctx = apply(oCreate, vm, co === undefined ? [obj === undefined ? {} : obj] : [obj === undefined ? {} : obj, co]);
    const out = code(c, o, 'vm');
    if (isInstr(out)) realm(ctx);
    return run(oRunIn, vm, [out, ctx, o]);
  }, typeof oRunNew === 'function' ? oRunNew.length : 3);
  try {
    vm.Script = Script;
    vm.runInThisContext = runInThisContext;
    vm.runInContext = runInContext;
    if (typeof oRunNew === 'function') vm.runInNewContext = runInNewContext;
    if (typeof oCompile === 'function') {
      vm.compileFunction = defineFn('compileFunction', function (c, params, o) {
        let body = code(c, o, 'vmfn');
        // A parameter named as the body's handle would clash with it.
        if (body !== c && isArray(params)) {
          for (let k = 0; k < params.length; k++) {
            if (typeof params[k] === 'string' && apply(strIndexOf, body, ['const ' + params[k] + ' = __mt.S(']) >= 0) body = c;
          }
        }
        if (o !== null && typeof o === 'object' && isInstr(body)) {
          let pc;
          try { pc = o.parsingContext; } catch { pc = undefined; }
          if (pc !== undefined) realm(pc);
        }
        const fn = apply(oCompile, this, [body, params, o]);
        // Its text is the native's with the original body.
        if (body !== c && typeof fn === 'function') {
          try {
            const t = apply(fnToString, fn, []);
            const at = apply(strIndexOf, t, [body]);
            if (at >= 0) rt.setText(fn, apply(strSlice, t, [0, at]) + c + apply(strSlice, t, [at + body.length]));
          } catch { /* its own text */ }
        }
        return fn;
      }, oCompile.length);
    }
    // vm.SourceTextModule (node --experimental-vm-modules: Jest's ES
    // module mode): its text instrumented as an ES module named by its
    // identifier option.
    const OSTM = vm.SourceTextModule;
    if (typeof OSTM === 'function') {
      const SourceTextModule = class SourceTextModule extends OSTM {
        constructor(c, o) {
          let out = c;
          if (typeof c === 'string' && o !== null && typeof o === 'object' && typeof o.identifier === 'string') {
            out = code(c, { filename: o.identifier }, 'vmmod');
            if (isInstr(out)) {
              let ctx;
              try { ctx = o.context; } catch { ctx = undefined; }
              if (ctx !== undefined) realm(ctx);
            }
          }
          super(out, o);
        }
      };
      defineFn('SourceTextModule', SourceTextModule, OSTM.length);
      vm.SourceTextModule = SourceTextModule;
    }
    const m = builtin('module');
    if (m && typeof m.syncBuiltinESMExports === 'function') m.syncBuiltinESMExports();
  } catch { /* a frozen vm module: its code runs uninstrumented */ }
}

