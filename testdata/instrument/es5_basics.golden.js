__mt.Sg("__mt$d2f47b8b", 2, 0, "es5_basics.js", "GKAUAAAWCiBAEAZAcAAAeFCGEAAGEAAGEICAWCKASAAAiBAAAcAAAkBCKAYFmBGEAAGEAAGEAAGEAlBGEAAGGIeAMANAaAAAaAAAaCCAQAAAKAiBAMAJAWAbAyBAAAYAAA0BCaAiBAAAcAmBAMAAAaA/BA6CAAAWAAA8CEaACC0BAWAdA2BAAA2BAAA2BAPAmCFCGEAAGEAAGEIYASAAASAAASCCAMAAAOAQAMAAAOCaAMAZAmBAAAWAAAoBCUAQAAAQAAAQCaAsBAAAaAZAmCAAAWAAAoCCCAUAAAWC8BAKA7BAmCAAAWAAAoCCSAKAAAKCaAeAAAaAiBAQAUAIAvCA4CAAAWAAA6CvBCGEDCyBCAAyBCYCGEZCyBCAAyBCAAyBCAAyBCAAyBCAAyBC", {7:[],16:[],41:["c"],46:[]}, 90, 91, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$d2f47b8b.N(83, "O", __mt$d2f47b8b.F(82, 7, O)); __mt$d2f47b8b.N(84, "o", o); __mt$d2f47b8b.N(86, "counter", __mt$d2f47b8b.F(85, 46, counter)); __mt$d2f47b8b.N(87, "next", next); __mt$d2f47b8b.N(88, "re", re); __mt$d2f47b8b.N(89, "s", s); // ES5: literals, property reads and writes, calls, constructors, closures.
function O(p) {const H = __mt$d2f47b8b, __mt$f = H.Fe(7, O, this, new.target); try { H.N(6, "p", p); 
    H.Pt(1, __mt$f, this, "p", p, 2), H.p[0] || H.X(2);
    H.Pt(4, __mt$f, this, "list", H.T(3, []), 2), H.p[0] || H.X(5);
} finally { H.Fr(8, __mt$f); } }
__mt$d2f47b8b.X(20, __mt$d2f47b8b.P21(19, __mt$d2f47b8b.G30(9, O).prototype, "add", __mt$d2f47b8b.F(18, 16, function (x) {const H = __mt$d2f47b8b, __mt$f = H.Fe(16, void 0, this, new.target); var __mt$1; try { H.N(15, "x", x); 
    H.m1(11, __mt$1 = H.Gt(10, __mt$f, this).list, H.M29(12, __mt$1, __mt$1.push), x), H.p[0] || H.X(13);
    return H.Rx(__mt$f, 14, this);
} finally { H.Fr(17, __mt$f); } }), 2));
var o = __mt$d2f47b8b.X(24, __mt$d2f47b8b.W(23, "o", __mt$d2f47b8b.n1(22, O, __mt$d2f47b8b.T(21, {n: 1})), o));
__mt$d2f47b8b.X(31, __mt$d2f47b8b.m1(29, __mt$d2f47b8b_1 = __mt$d2f47b8b.m1(25, o, __mt$d2f47b8b.M30(26, o, o.add), 1), __mt$d2f47b8b.M30(30, __mt$d2f47b8b_1, __mt$d2f47b8b_1.add), __mt$d2f47b8b.T(28, {k: __mt$d2f47b8b.T(27, [2, 3])})));
__mt$d2f47b8b.X(38, __mt$d2f47b8b.m2(36, __mt$d2f47b8b_1 = console, __mt$d2f47b8b.M10(37, __mt$d2f47b8b_1, __mt$d2f47b8b_1.log), __mt$d2f47b8b.m1(32, __mt$d2f47b8b_2 = JSON, __mt$d2f47b8b.M3(33, __mt$d2f47b8b_2, __mt$d2f47b8b_2.stringify), o), __mt$d2f47b8b.G29(35, __mt$d2f47b8b.G30(34, o).list).length));
function counter() {const H = __mt$d2f47b8b, __mt$f = H.Fe(46, counter, this, new.target); try { H.Nu(45, "c"); 
    var c = H.X(39, 0);
    return H.Rx(__mt$f, 44, H.F(43, 41, function () {const __mt$f = H.Fe(41, void 0, this, new.target); try {  return H.Rx(__mt$f, 40, ++c); } finally { H.Fr(42, __mt$f); } }));
} finally { H.Fr(47, __mt$f); } }
var next = __mt$d2f47b8b.X(50, __mt$d2f47b8b.W(49, "next", __mt$d2f47b8b.c0(48, counter), next));
__mt$d2f47b8b.X(52, __mt$d2f47b8b.c0(51, next)); __mt$d2f47b8b.X(54, __mt$d2f47b8b.c0(53, next));
__mt$d2f47b8b.X(58, __mt$d2f47b8b.m1(56, __mt$d2f47b8b_1 = console, __mt$d2f47b8b.M10(57, __mt$d2f47b8b_1, __mt$d2f47b8b_1.log), __mt$d2f47b8b.c0(55, next)));
var re = __mt$d2f47b8b.X(61, __mt$d2f47b8b.W(60, "re", __mt$d2f47b8b.T(59, /a(b)?/g), re));
__mt$d2f47b8b.X(66, __mt$d2f47b8b.m1(64, __mt$d2f47b8b_1 = console, __mt$d2f47b8b.M10(65, __mt$d2f47b8b_1, __mt$d2f47b8b_1.log), __mt$d2f47b8b.m2(62, __mt$d2f47b8b_2 = "xab", __mt$d2f47b8b.M31(63, __mt$d2f47b8b_2, __mt$d2f47b8b_2.replace), re, "-")));
__mt$d2f47b8b.X(68, __mt$d2f47b8b.D(67, o, "p", 0));
__mt$d2f47b8b.X(72, __mt$d2f47b8b.m2(70, __mt$d2f47b8b_1 = console, __mt$d2f47b8b.M10(71, __mt$d2f47b8b_1, __mt$d2f47b8b_1.log), "p" in o, typeof __mt$d2f47b8b.G30(69, o).add));
var s = __mt$d2f47b8b.X(74, __mt$d2f47b8b.W(73, "s", "abc", s));
__mt$d2f47b8b.X(81, __mt$d2f47b8b.m3(79, __mt$d2f47b8b_1 = console, __mt$d2f47b8b.M10(80, __mt$d2f47b8b_1, __mt$d2f47b8b_1.log), __mt$d2f47b8b.m0(75, s, __mt$d2f47b8b.M2(76, s, s.toUpperCase)), __mt$d2f47b8b.G2(77, s).length, __mt$d2f47b8b.G2(78, s)[1]));

;__mt$d2f47b8b.Sx();