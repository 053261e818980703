package semantics

// Known differences between plain and instrumented runs are listed below
// with their cause and a minimal reproduction. Past causes, each fixed, with a minimal reproduction:
//
// class C { [() => {}] = 1 } put the arrow's source text, hooks included,
// in the key (Function.prototype.toString now shows the original text).
// Array.prototype[Symbol.iterator] = function* () { yield this[0]; };
// var o = Object.create(null); — instrumented: RangeError.
// function f() { var x; return x; function x() {} } typeof f():
// plain "function", instrumented "undefined".
// function* yield() { yield 3; } yield().next().value: plain 3,
// instrumented undefined (sloppy scripts only).

// knownT262 lists test262 scenarios ("path [scenario]") that pass under
// plain Node.js and fail instrumented, with the cause. Keep it exact.
var knownT262 = map[string]string{}

// knownT262Trace lists the sampled test262 runs whose trace fails
// trace.Check.
var knownT262Trace = map[string]string{}

// knownT262CLI lists the scenarios of TestTest262Own that fail as
// memtrace instrument FILE writes them for plain node. The prologue that
// loads the shim, ;if(!globalThis.__mt)(0,eval)("…"); (cmd/memtrace's
// withShim), names eval, which is the script's own binding when the script
// declares one at its top level. A let eval is in its temporal dead zone
// when the prologue runs: test262's seven for-await-of
// *-dstr-*-simple-no-strict cases, which begin with let argument, eval,
// fail so (async-gen-decl-dstr-array-elem-init-simple-no-strict.js among
// them). A function eval, hoisted, has replaced the global object's, so the
// prologue calls it with the shim's text and the shim is never installed.
// (0,globalThis.eval)(…) would mend the first, ({}).constructor.constructor
// (…)() both. Runs with the shim loaded first pass.
var knownT262CLI = map[string]string{
	"eval-let-destructuring.js [sloppy]":       "ReferenceError: Cannot access 'eval' before initialization",
	"eval-let-for-await-async-fn.js [sloppy]":  "ReferenceError: Cannot access 'eval' before initialization",
	"eval-let-for-await-async-gen.js [sloppy]": "ReferenceError: Cannot access 'eval' before initialization",
	"eval-function-declaration.js [sloppy]":    "ReferenceError: __mt$ handle is not defined (the shim was not installed)",
}
