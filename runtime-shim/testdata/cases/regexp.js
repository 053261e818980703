// RegExp objects keep their ids in the shim's side table, not in a private
// field (which would put every exec/replace on V8's slow path): a regexp
// literal and a RegExp built by new get ids, PUTFIELDs and uses as any
// object; the regexp still works, and the shim does not mark it.
// stdout: f<o> b<g>
// stdout: 0 0 lastIndex,tag
// Site table: iid k maps to line 1, columns k..k+1 (synthetic).
const __mt$ = __mt.S("cases/regexp.js", [].concat(...Array.from({length: 40}, (_, k) => [1, k + 1, 1, k + 2])), {}, 1, 2);
try {
__mt$.N(3, "re", re); __mt$.N(4, "r2", r2); __mt$.N(5, "o", o);
var re = __mt$.X(7, __mt$.W(6, "re", __mt$.T(8, /o(\w)/g), re));
var o = __mt$.X(10, __mt$.W(9, "o", __mt$.T(11, {}), o));
__mt$.X(13, __mt$.P(12, re, "tag", o, 0));                           // PUTFIELD on the regexp's id
var r2 = __mt$.X(15, __mt$.W(14, "r2", __mt$.n1(16, RegExp, "a+"), r2));  // id at first use, at the call
__mt$.X(18, __mt$.P(17, r2, "tag", re, 0));
__mt$.X(20, __mt$.c1(19, console.log, __mt$.m2(21, "foo bog", __mt$.M(22, "foo bog", "foo bog".replace), re, "<$1>")));
__mt$.X(24, __mt$.c1(23, console.log, __mt$.G(25, re).lastIndex + " " + Object.getOwnPropertySymbols(re).length + " " + Reflect.ownKeys(re).join()));
__mt$.X(27, __mt$.W(26, "o", null, o));
} finally { __mt$.Sx(); }
