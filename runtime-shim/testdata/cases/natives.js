// Native models (spec 3.6): array natives, Object.defineProperty, timers.
// Site table: iid k maps to line 1, columns k..k+1 (synthetic).
const __mt$ = __mt.S("cases/natives.js", [].concat(...Array.from({length: 80}, (_, k) => [1, k + 1, 1, k + 2])), {50: [], 60: []}, 1, 2);
try {
__mt$.N(3, "a", a); __mt$.N(4, "o", o); __mt$.N(5, "p", p); __mt$.N(6, "r", r);
var o = __mt$.X(8, __mt$.W(7, "o", __mt$.T(9, {}), o));
var p = __mt$.X(11, __mt$.W(10, "p", __mt$.T(12, {}), p));
var a = __mt$.X(14, __mt$.W(13, "a", __mt$.T(15, [o]), a));
__mt$.X(17, __mt$.m(16, a, __mt$.M(17, a, a.push), 1, p));          // [3,..,"2",p]
__mt$.X(19, __mt$.m(18, a, __mt$.M(19, a, a.unshift), p));           // rewrite 0..3
__mt$.X(21, __mt$.m(20, a, __mt$.M(21, a, a.shift)));                // rewrite 0..2, "3" -> 0
__mt$.X(23, __mt$.m(22, a, __mt$.M(23, a, a.pop)));                  // "2" -> 0
var r = __mt$.X(25, __mt$.W(24, "r", __mt$.m(26, a, __mt$.M(27, a, a.concat), [p]), r));   // id(result) at the call
__mt$.X(28, __mt$.m(27, a, __mt$.M(28, a, a.splice), 0, 1));         // removed [o]
__mt$.X(30, __mt$.m(29, Object, __mt$.M(30, Object, Object.defineProperty), o, "q", { value: p, enumerable: false }));
__mt$.X(32, __mt$.m(31, Object, __mt$.M(32, Object, Object.defineProperty), o, "g", { get: function () { return 1; } }));
var t = __mt$.X(34, __mt$.W(33, "t", __mt$.c(35, setTimeout, __mt$.F(36, 50, function () { const __mt$f = __mt$.Fe(50, void 0, this, new.target); try {
  __mt$.X(38, __mt$.W(37, "o", null, o));
} finally { __mt$.Fr(51, __mt$f); } }), 1), t));
var u = __mt$.X(40, __mt$.W(39, "u", __mt$.c(41, setTimeout, __mt$.F(42, 60, function () { const __mt$f = __mt$.Fe(60, void 0, this, new.target); try {} finally { __mt$.Fr(61, __mt$f); } }), 1000), u));
__mt$.X(44, __mt$.c(43, clearTimeout, u));
var i = __mt$.X(46, __mt$.W(45, "i", __mt$.c(47, setInterval, __mt$.F(48, 60, function () { const __mt$f = __mt$.Fe(60, void 0, this, new.target); try {} finally { __mt$.Fr(61, __mt$f); } }), 1000), i));
__mt$.X(53, __mt$.c(52, clearInterval, i));
} finally { __mt$.Sx(); }
