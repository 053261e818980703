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
