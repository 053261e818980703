// process.exit from inside a function: the final last-use block is written
// by the exit handler; the open frame has no FUNCTION_EXIT.
// exit: 3
const __mt$ = __mt.S("cases/exit.js", [].concat(...Array.from({length: 20}, (_, k) => [1, k + 1, 1, k + 2])), {5: []}, 1, 2);
try {
__mt$.N(3, "f", __mt$.F(4, 5, f));
function f(x) { const __mt$f = __mt$.Fe(5, f, this, new.target); try {
  __mt$.N(7, "x", x);
  __mt$.X(9, __mt$.m(8, process, __mt$.M(9, process, process.exit), __mt$.G(10, x).code));
} finally { __mt$.Fr(6, __mt$f); } }
__mt$.X(12, __mt$.c(11, f, __mt$.T(13, {code: 3})));
} finally { __mt$.Sx(); }
