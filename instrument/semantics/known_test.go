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
// memtrace instrument FILE writes them for plain node (none: the prologue
// that loads the shim reaches the Function constructor from an object
// literal, which a script's own eval binding, a let in its temporal dead
// zone or a hoisted function, cannot shadow, where (0,eval)(…) failed; and
// a call of the script's own function eval is no direct eval: E gets the
// callee and gives another function the string as it is).
var knownT262CLI = map[string]string{}
