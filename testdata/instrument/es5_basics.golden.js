const __mt$3006054a = __mt.S("es5_basics.js", "GKAUAAAWCiBAEAZAcAAAeFCGEAAGEAAGEICAWCKASAAAiBAAAcAAAkBCKAYFmBGEAAGEAAGEAAGEAlBGEAAGGIeAMANAaAAAaAAAaCCAQAAAKAiBAMAJAWAbAyBAAAYAAA0BCaAiBAAAcAmBAMAAAaA/BA6CAAAWAAA8CEaACC0BAWAdA2BAAA2BAAA2BAPAmCFCGEAAGEAAGEIYASAAASAAASCCAMAAAOAQAMAAAOCaAMAZAmBAAAWAAAoBCUAQAAAQAAAQCaAsBAAAaAZAmCAAAWAAAoCCCAUAAAWC8BAKA7BAmCAAAWAAAoCCSAKAAAKCaAeAAAaAiBAQAUAIAvCA4CAAAWAAA6CvBCGEDCyBCAAyBCYCGEZCyBCAAyBCAAyBCAAyBCAAyBCAAyBC", {7:[],16:[],41:["c"],46:[]}, 90, 91); var __mt$3006054a_1, __mt$3006054a_2; __mt$3006054a.N(83, "O", __mt$3006054a.F(82, 7, O)); __mt$3006054a.N(84, "o", o); __mt$3006054a.N(86, "counter", __mt$3006054a.F(85, 46, counter)); __mt$3006054a.N(87, "next", next); __mt$3006054a.N(88, "re", re); __mt$3006054a.N(89, "s", s); // ES5: literals, property reads and writes, calls, constructors, closures.
function O(p) {const H = __mt$3006054a, __mt$f = H.Fe(7, O, this, new.target); try { H.N(6, "p", p); 
    H.X(2, H.Pt(1, __mt$f, this, "p", p, 2));
    H.X(5, H.Pt(4, __mt$f, this, "list", H.T(3, []), 2));
} finally { H.Fr(8, __mt$f); } }
__mt$3006054a.X(20, __mt$3006054a.P19(19, __mt$3006054a.G9(9, O).prototype, "add", __mt$3006054a.F(18, 16, function (x) {const H = __mt$3006054a, __mt$f = H.Fe(16, void 0, this, new.target); var __mt$1; try { H.N(15, "x", x); 
    H.X(13, H.m1(11, __mt$1 = H.Gt(10, __mt$f, this).list, H.M(12, __mt$1, "push"), x));
    return H.R(__mt$f, H.X(14, this));
} finally { H.Fr(17, __mt$f); } }), 2));
var o = __mt$3006054a.X(24, __mt$3006054a.W(23, "o", __mt$3006054a.n1(22, O, __mt$3006054a.T(21, {n: 1})), o));
__mt$3006054a.X(31, __mt$3006054a.m1(29, __mt$3006054a_1 = __mt$3006054a.m1(25, o, __mt$3006054a.M(26, o, "add"), 1), __mt$3006054a.M(30, __mt$3006054a_1, "add"), __mt$3006054a.T(28, {k: __mt$3006054a.T(27, [2, 3])})));
__mt$3006054a.X(38, __mt$3006054a.m2(36, __mt$3006054a_1 = console, __mt$3006054a.M(37, __mt$3006054a_1, "log"), __mt$3006054a.m1(32, __mt$3006054a_2 = JSON, __mt$3006054a.M(33, __mt$3006054a_2, "stringify"), o), __mt$3006054a.G3(35, __mt$3006054a.G2(34, o).list).length));
function counter() {const H = __mt$3006054a, __mt$f = H.Fe(46, counter, this, new.target); try { H.N(45, "c", c); 
    var c = H.X(39, 0);
    return H.R(__mt$f, H.X(44, H.F(43, 41, function () {const __mt$f = H.Fe(41, void 0, this, new.target); try {  return H.R(__mt$f, H.X(40, ++c)); } finally { H.Fr(42, __mt$f); } })));
} finally { H.Fr(47, __mt$f); } }
var next = __mt$3006054a.X(50, __mt$3006054a.W(49, "next", __mt$3006054a.c0(48, counter), next));
__mt$3006054a.X(52, __mt$3006054a.c0(51, next)); __mt$3006054a.X(54, __mt$3006054a.c0(53, next));
__mt$3006054a.X(58, __mt$3006054a.m1(56, __mt$3006054a_1 = console, __mt$3006054a.M(57, __mt$3006054a_1, "log"), __mt$3006054a.c0(55, next)));
var re = __mt$3006054a.X(61, __mt$3006054a.W(60, "re", __mt$3006054a.T(59, /a(b)?/g), re));
__mt$3006054a.X(66, __mt$3006054a.m1(64, __mt$3006054a_1 = console, __mt$3006054a.M(65, __mt$3006054a_1, "log"), __mt$3006054a.m2(62, __mt$3006054a_2 = "xab", __mt$3006054a.M(63, __mt$3006054a_2, "replace"), re, "-")));
__mt$3006054a.X(68, __mt$3006054a.D(67, o, "p", 0));
__mt$3006054a.X(72, __mt$3006054a.m2(70, __mt$3006054a_1 = console, __mt$3006054a.M(71, __mt$3006054a_1, "log"), "p" in o, typeof __mt$3006054a.G5(69, o).add));
var s = __mt$3006054a.X(74, __mt$3006054a.W(73, "s", "abc", s));
__mt$3006054a.X(81, __mt$3006054a.m3(79, __mt$3006054a_1 = console, __mt$3006054a.M(80, __mt$3006054a_1, "log"), __mt$3006054a.m0(75, s, __mt$3006054a.M(76, s, "toUpperCase")), __mt$3006054a.G13(77, s).length, __mt$3006054a.G14(78, s)[1]));

;__mt$3006054a.Sx();