const __mt$30109336 = __mt.S("asi_hazards.js", "ESACAAACCSACAAACCKACAJCECEAMA8BAcAAAWAAAcAfA+BAAA+BAAA+BAAA+BAfA+CAAAcAAA+CCuBAQAdAwBAAAwBAAAwBCgBAmBAAAWAAAmBAdAmCAAAmCAAAmCDSCsCAACsCAACsCLCqBCOSACECAGCCAcAAAWAAAcCCAUAAAUXCqBCYCAGAaAcAAAWAAAcALAmBAAAmBAAAmBAAAmBARA4BAAAOAAA4BCSAGAAAGCCAcAAAWAAAcEGEIDCIEAAIEKaAGAZAgBAAAWAAAgBpBCqBCAAqBCAAqBCAAqBCeCIEfCqBCAAqBCAAqBC", {12:["console"],19:[],25:["console"],37:[],45:["console"],57:["a"]}, 69, 70); var __mt$30109336_1; __mt$30109336.N(63, "a", a); __mt$30109336.N(64, "b", b); __mt$30109336.N(65, "c", c); __mt$30109336.N(66, "s", s); __mt$30109336.N(68, "r", __mt$30109336.F(67, 57, r)); // ASI: statements without semicolons next to spliced text.
var a = __mt$30109336.X(2, __mt$30109336.W(1, "a", 1, a))
var b = __mt$30109336.X(4, __mt$30109336.W(3, "b", a, b))
;__mt$30109336.X(6, a = __mt$30109336.W(5, "a", b, a))
;__mt$30109336.X(17, __mt$30109336.m1(15, __mt$30109336_1 = __mt$30109336.T(7, [a, b]), __mt$30109336.M(16, __mt$30109336_1, "forEach"), __mt$30109336.F(14, 12, function (x) {const H = __mt$30109336, __mt$f = H.Fe(12, void 0, this, new.target); var __mt$1; try { H.N(11, "x", x);  H.X(10, H.m1(8, __mt$1 = console, H.M(9, __mt$1, "log"), x)) } finally { H.Fr(13, __mt$f); } })))
var c = __mt$30109336.X(30, __mt$30109336.W(29, "c", __mt$30109336.c1(28, __mt$30109336.F(21, 19, function () {const H = __mt$30109336, __mt$f = H.Fe(19, void 0, this, new.target); try {  return H.R(__mt$f, H.X(18, 1)) } finally { H.Fr(20, __mt$f); } })
, __mt$30109336.F(27, 25, function () {const H = __mt$30109336, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1; try {  H.X(24, H.m1(22, __mt$1 = console, H.M(23, __mt$1, "log"), "iife")) } finally { H.Fr(26, __mt$f); } })), c))
let d = __mt$30109336.X(32, __mt$30109336.N(31, "d", 2))
d
;__mt$30109336.X(33, ++d)
;__mt$30109336.X(36, __mt$30109336.m1(34, __mt$30109336_1 = console, __mt$30109336.M(35, __mt$30109336_1, "log"), d))
;let K = __mt$30109336.N(39, "K", __mt$30109336.F(38, -37, class K {}));
__mt$30109336.X(50, __mt$30109336.m1(48, __mt$30109336_1 = __mt$30109336.T(40, [1]), __mt$30109336.M(49, __mt$30109336_1, "map"), __mt$30109336.F(47, 45, x => { const H = __mt$30109336, __mt$f = H.Fe(45, void 0); var __mt$1; try { H.N(44, "x", x); return H.R(__mt$f, H.X(43, H.m1(41, __mt$1 = console, H.M(42, __mt$1, "log"), x))) } finally { H.Fr(46, __mt$f); } })))
var s = __mt$30109336.X(52, __mt$30109336.W(51, "s", `t`, s))
;__mt$30109336.X(55, __mt$30109336.m1(53, __mt$30109336_1 = console, __mt$30109336.M(54, __mt$30109336_1, "log"), s))
function r() {const H = __mt$30109336, __mt$f = H.Fe(57, r, this, new.target); try { 
  return H.R(__mt$f, H.X(56, (
    a + 1
  )))
} finally { H.Fr(58, __mt$f); } }
__mt$30109336.X(62, __mt$30109336.m1(60, __mt$30109336_1 = console, __mt$30109336.M(61, __mt$30109336_1, "log"), __mt$30109336.c0(59, r)))

;__mt$30109336.Sx();