// A classic-script body (not wrapped): an uncaught exception leaves the
// script open; the shim writes its SCRIPT_EXIT and the final block.
// exit: 1
const __mt$ = __mt.S("cases/uncaught.js", [].concat(...Array.from({length: 20}, (_, k) => [1, k + 1, 1, k + 2])), {5: []}, 1, 2);
__mt$.N(3, "f", __mt$.F(4, 5, f));
function f() { const __mt$f = __mt$.Fe(5, f, this, new.target); try {
  throw __mt$.X(9, __mt$.n(8, Error, "boom"));
} finally { __mt$.Fr(6, __mt$f); } }
var o = __mt$.X(11, __mt$.W(10, "o", __mt$.T(12, {}), o));
__mt$.G(13, o).x;
__mt$.X(15, __mt$.c(14, f));
__mt$.Sx();
