// SIGTERM with no handler of the program's: the shim writes the final block
// and re-raises (exit status 128+15 as the shell sees it; node reports -1).
// exit: -1
const __mt$ = __mt.S("cases/sigterm.js", [].concat(...Array.from({length: 20}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
try {
var o = __mt$.X(4, __mt$.W(3, "o", __mt$.T(5, {}), o));
__mt$.G(6, o).x;
__mt$.c(7, setInterval, function () {}, 1000);
__mt$.m(8, process, __mt$.M(9, process, "kill"), process.pid, "SIGTERM");
} finally { __mt$.Sx(); }
