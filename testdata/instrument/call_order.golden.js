__mt.Sg("__mt$7f0bd29e", 2, 0, "call_order.js", "GWAEAAAEAAAECuBAWAAAQAAAYAaASAnCA8CAAA8CAAA8CAAA8CEaAaAAAcAwCA4CAAA6CA8CAYAhEA8EAAA8EAAA8EAAA8EAAA8EAPAsFApBA4GAAA4GCiCAgBAbA8BAdA8CAAA8CAAA8CFSGEAAGEAAGEIgBAeAiBAeArBAqCAAAGAXAiDAAAkDCYAeAgBAgBAkBAcAlCAoDAAAiCAXAgEAAAiEE4BAaAdA6BAAA6BAAA6BALAoCAAAoCAAAoCC8BAaAdA6BAAA6BAAA6BANAmCAJAwCAAAGALA8CAAA+CCMAKAAAGALAWAAAYE8CAQAPAgBAdAgCAAAgCAAAgCAhBAkDAAAkDAAAkDC4CAaAdA6BAAA6BAAA6BAhBA+CAAA+CARAwDAAAGALA8DAAA+DGOA+BAAAiCAJAyCAAAGAAA0CEGA0CAAA2CIaAyBAVAoCAAASAAAqCEGA0CAAA2CIYAIAAAICQAgBALAsBAAAIAAAuBEGA+CAAAgDGSAUAAAUAkBASAAAGAWAMAcAGAdAkBAAAaAAA4BAAAuBAhCA6DAAAoBALAmEAAAoECiBAUAAAWAhBA6BAAA6BAAA6BCWAiBAmBAkBAxBA2CAAA6CALAmDAAAoDCMAqBAAAiCALAuCAAAwCEgBAkBAAAuBAAAoBA2BASA1CAqDAAAqDAAAqDCMAGALASAAAUCeAgBAAA2BAAAkBAJAgCA8CAMAPAcALAqBAAAqBA5CAmEAAAmE5CC+CC6CMAOAAAWAAASALAiBAAAkBCaAcAAAQAZA2BAAAWAAA4B9CC+CCGCA8CHC+CCAA+CCAA+CCAA+CCAA+CCsCCA6BtCC+CC0CCAqD1CC+CCAA+CCAA+CC", {10:["log"],19:["note","o"],23:["~noproto~","note","o"],27:[],47:[],54:[],68:[],75:[],122:[],139:["note","o"],150:["~noproto~"],152:[]}, 176, 177, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$7f0bd29e.N(165, "log", log); __mt$7f0bd29e.N(167, "note", __mt$7f0bd29e.F(166, 10, note)); __mt$7f0bd29e.N(168, "o", o); __mt$7f0bd29e.N(169, "p", p); __mt$7f0bd29e.N(170, "q", q); __mt$7f0bd29e.N(171, "nb", nb); __mt$7f0bd29e.N(173, "F", __mt$7f0bd29e.F(172, 122, F)); __mt$7f0bd29e.N(175, "d", __mt$7f0bd29e.F(174, 139, d)); // Evaluation order of calls: the base, the key, the method lookup, then the
// arguments and the call, with this = the base (getters log the order).
var log = __mt$7f0bd29e.X(3, __mt$7f0bd29e.W(2, "log", __mt$7f0bd29e.T(1, []), log));
function note(s, v) {const H = __mt$7f0bd29e, __mt$f = H.Fe(10, note, this, new.target); try { H.N(8, "s", s); H.N(9, "v", v);  H.m1(4, log, H.M3(5, log, log.push), s), H.p[0] || H.X(6); return H.Rx(__mt$f, 7, v); } finally { H.Fr(11, __mt$f); } }
var o = __mt$7f0bd29e.X(32, __mt$7f0bd29e.W(31, "o", __mt$7f0bd29e.T(30, {
  get m() {const H = __mt$7f0bd29e, __mt$f = H.Fe(23, void 0, this, new.target); try {  H.c1(12, note, "get m"), H.p[0] || H.X(13); return H.Rx(__mt$f, 22, H.F(21, 19, function (a, b) {const __mt$f = H.Fe(19, void 0, this, new.target); try { H.N(17, "a", a); H.N(18, "b", b);  H.c1(14, note, "call m " + (this === o) + " " + a + b), H.p[0] || H.X(15); return H.Rx(__mt$f, 16, this); } finally { H.Fr(20, __mt$f); } })); } finally { H.Fr(24, __mt$f); } },
  n: __mt$7f0bd29e.F(29, 27, {"n": function () {const H = __mt$7f0bd29e, __mt$f = H.Fe(27, void 0, this, new.target); try {  return H.Rx(__mt$f, 26, "n" + H.G31(25, arguments).length); } finally { H.Fr(28, __mt$f); } }}["n"])
}, "m", 1, 23), o));
__mt$7f0bd29e.X(38, __mt$7f0bd29e.c2(37, note, "r1", __mt$7f0bd29e.m2(35, o, __mt$7f0bd29e.M30(36, o, o.m), __mt$7f0bd29e.c2(33, note, "arg1", 1), __mt$7f0bd29e.c2(34, note, "arg2", 2))));
__mt$7f0bd29e.X(45, __mt$7f0bd29e.c2(44, note, "r2", __mt$7f0bd29e.m2(42, __mt$7f0bd29e_1 = __mt$7f0bd29e.c2(39, note, "base", o), __mt$7f0bd29e.M11(43, __mt$7f0bd29e_1, __mt$7f0bd29e_1[__mt$7f0bd29e.c2(40, note, "key", "m")]), __mt$7f0bd29e.c2(41, note, "arg", 3), 4)));
// an argument that reassigns the method: the old one is called
var p = __mt$7f0bd29e.X(52, __mt$7f0bd29e.W(51, "p", __mt$7f0bd29e.T(50, { m: __mt$7f0bd29e.F(49, 47, {"m": function () {const H = __mt$7f0bd29e, __mt$f = H.Fe(47, void 0, this, new.target); try {  return H.Rx(__mt$f, 46, "old"); } finally { H.Fr(48, __mt$f); } }}["m"]) }), p));
__mt$7f0bd29e.X(61, __mt$7f0bd29e.c1(60, note, __mt$7f0bd29e.m1(58, p, __mt$7f0bd29e.M15(59, p, p.m), __mt$7f0bd29e.P15(57, p, "m", __mt$7f0bd29e.F(56, 54, function () {const H = __mt$7f0bd29e, __mt$f = H.Fe(54, void 0, this, new.target); try {  return H.Rx(__mt$f, 53, "new"); } finally { H.Fr(55, __mt$f); } }), 2))));
__mt$7f0bd29e.X(65, __mt$7f0bd29e.c1(64, note, __mt$7f0bd29e.m0(62, p, __mt$7f0bd29e.M15(63, p, p.m))));
// an argument that reassigns the base: this is the old base
var q = __mt$7f0bd29e.X(73, __mt$7f0bd29e.W(72, "q", __mt$7f0bd29e.T(71, { who: "q1", m: __mt$7f0bd29e.F(70, 68, {"m": function () {const H = __mt$7f0bd29e, __mt$f = H.Fe(68, void 0, this, new.target); try {  return H.Rx(__mt$f, 67, H.Gt(66, __mt$f, this).who); } finally { H.Fr(69, __mt$f); } }}["m"]) }), q));
__mt$7f0bd29e.X(83, __mt$7f0bd29e.c1(82, note, __mt$7f0bd29e.m1(80, q, __mt$7f0bd29e.M28(81, q, q.m), q = __mt$7f0bd29e.W(79, "q", __mt$7f0bd29e.T(78, { who: "q2", m: __mt$7f0bd29e.F(77, 75, {"m": function () {const H = __mt$7f0bd29e, __mt$f = H.Fe(75, void 0, this, new.target); try {  return H.Rx(__mt$f, 74, "q2!"); } finally { H.Fr(76, __mt$f); } }}["m"]) }), q))));
// a throwing argument: the lookup (a getter) has run, the call has not
try {
  __mt$7f0bd29e.X(88, __mt$7f0bd29e.m2(86, o, __mt$7f0bd29e.M30(87, o, o.m), __mt$7f0bd29e.G21(85, __mt$7f0bd29e.c2(84, note, "throwing arg", undefined)).x, 0));
} catch (e) {
  __mt$7f0bd29e.X(90, __mt$7f0bd29e.c1(89, note, "caught " + (e instanceof TypeError)));
}
// a missing method: the TypeError comes after the arguments
try {
  __mt$7f0bd29e.X(94, __mt$7f0bd29e.m1(92, o, __mt$7f0bd29e.M30(93, o, o.missing), __mt$7f0bd29e.c2(91, note, "arg of missing", 1)));
} catch (e) {
  __mt$7f0bd29e.X(96, __mt$7f0bd29e.c1(95, note, "caught " + (e instanceof TypeError)));
}
// a null base throws before the arguments
try {
  var nb = __mt$7f0bd29e.X(98, __mt$7f0bd29e.W(97, "nb", null, nb));
  __mt$7f0bd29e.X(102, __mt$7f0bd29e.m1(100, nb, __mt$7f0bd29e.M9(101, nb, nb.m), __mt$7f0bd29e.c2(99, note, "never", 1)));
} catch (e) {
  __mt$7f0bd29e.X(104, __mt$7f0bd29e.c1(103, note, "caught null " + (e instanceof TypeError)));
}
// computed keys with a comma, nested calls, new and plain calls
__mt$7f0bd29e.X(118, __mt$7f0bd29e.c1(117, note, __mt$7f0bd29e.m2(115, o, __mt$7f0bd29e.M30(116, o, o[(__mt$7f0bd29e.X(106, __mt$7f0bd29e.c1(105, note, "k1")), "n")]), __mt$7f0bd29e.m2(107, o, __mt$7f0bd29e.M30(108, o, o.n), 1, 2), __mt$7f0bd29e.m1(113, __mt$7f0bd29e_1 = __mt$7f0bd29e.m1(111, __mt$7f0bd29e_2 = __mt$7f0bd29e.T(109, [1, 2]), __mt$7f0bd29e.M16(112, __mt$7f0bd29e_2, __mt$7f0bd29e_2.concat), __mt$7f0bd29e.T(110, [3])), __mt$7f0bd29e.M18(114, __mt$7f0bd29e_1, __mt$7f0bd29e_1.join), "-"))));
function F(a) {const H = __mt$7f0bd29e, __mt$f = H.Fe(122, F, this, new.target); try { H.N(121, "a", a);  H.Pt(119, __mt$f, this, "a", a, 2), H.p[0] || H.X(120); } finally { H.Fr(123, __mt$f); } }
__mt$7f0bd29e.X(129, __mt$7f0bd29e.c1(128, note, __mt$7f0bd29e.G31(127, __mt$7f0bd29e.n1(126, (__mt$7f0bd29e.c2(124, note, "callee", F)), __mt$7f0bd29e.c2(125, note, "new arg", 5))).a));
__mt$7f0bd29e.X(133, __mt$7f0bd29e.c1(132, note, __mt$7f0bd29e.c2(131, __mt$7f0bd29e.c2(130, note, "callee2", note), "plain", 6)));
// default parameters and class fields: no var for a temporary there
function d(x = ((__mt$b) => __mt$7f0bd29e.m1(135, __mt$b = __mt$7f0bd29e.c2(134, note, "default", o), __mt$7f0bd29e.M8(136, __mt$b, __mt$b.n), 1))()) {const H = __mt$7f0bd29e, __mt$f = H.Fe(139, d, this, new.target); try { H.N(138, "x", x);  return H.Rx(__mt$f, 137, x); } finally { H.Fr(140, __mt$f); } }
__mt$7f0bd29e.X(143, __mt$7f0bd29e.c1(142, note, __mt$7f0bd29e.c0(141, d)));
let C = __mt$7f0bd29e.N(154, "C", __mt$7f0bd29e.F(153, -152, class C { f = __mt$7f0bd29e.Q(147, this, "f", ((__mt$b) => __mt$7f0bd29e.m3(145, __mt$b = __mt$7f0bd29e.c2(144, note, "field", o), __mt$7f0bd29e.M18(146, __mt$b, __mt$b.n), 1, 2, 3))(), 1); g() {const H = __mt$7f0bd29e, __mt$f = H.Fe(150, void 0, this, new.target); try {  return H.Rx(__mt$f, 149, H.Gt(148, __mt$f, this).f); } finally { H.Fr(151, __mt$f); } } }, void 0, "g", 0, 150));
__mt$7f0bd29e.X(159, __mt$7f0bd29e.c1(158, note, __mt$7f0bd29e.m0(156, __mt$7f0bd29e_1 = __mt$7f0bd29e.n0(155, C), __mt$7f0bd29e.M29(157, __mt$7f0bd29e_1, __mt$7f0bd29e_1.g))));
__mt$7f0bd29e.X(164, __mt$7f0bd29e.m1(162, __mt$7f0bd29e_1 = console, __mt$7f0bd29e.M10(163, __mt$7f0bd29e_1, __mt$7f0bd29e_1.log), __mt$7f0bd29e.m1(160, log, __mt$7f0bd29e.M17(161, log, log.join), "\n")));

;__mt$7f0bd29e.Sx();