// SIGTERM with no handler of the program's: the process dies at once, as it
// does without memtrace (the shim listens to no signal); its trace is what
// the shim had written: here all of it, because every second the event
// loop runs the shim writes its buffer. No final last-use block.
// exit: -1
const __mt$ = __mt.S("cases/sigterm.js", [].concat(...Array.from({length: 20}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
try {
var o = __mt$.X(4, __mt$.W(3, "o", __mt$.T(5, {}), o));
__mt$.G(6, o).x;
__mt$.c(7, setTimeout, function () { process.kill(process.pid, "SIGTERM"); }, 1500);
} finally { __mt$.Sx(); }
