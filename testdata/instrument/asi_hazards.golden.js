__mt.Sg("__mt$b5e06b09", 1, 0, "asi_hazards.js", "ESACAAACCSACAAACCKACAJCECEAMA8BAcAAAWAAAcAfA+BAAA+BAAA+BAAA+BAfA+CAAAcAAA+CCuBAQAdAwBAAAwBAAAwBCgBAmBAAAWAAAmBAdAmCAAAmCAAAmCDSCsCAACsCAACsCLCqBCOSACECAGCCAcAAAWAAAcCCAUAAAUXCqBCYCAGAaAcAAAWAAAcALAmBAAAmBAAAmBAAAmBARA4BAAAOAAA4BCSAGAAAGCCAcAAAWAAAcEGEIDCIEAAIEKaAGAZAgBAAAWAAAgBpBCqBCAAqBCAAqBCAAqBCeCIEfCqBCAAqBCAAqBC", {12:["console"],19:[],25:["console"],37:[],45:["console"],57:["a"]}, 69, 70, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$b5e06b09.N(63, "a", a); __mt$b5e06b09.N(64, "b", b); __mt$b5e06b09.N(65, "c", c); __mt$b5e06b09.N(66, "s", s); __mt$b5e06b09.N(68, "r", __mt$b5e06b09.F(67, 57, r)); // ASI: statements without semicolons next to spliced text.
var a = __mt$b5e06b09.X(2, __mt$b5e06b09.W(1, "a", 1, a))
var b = __mt$b5e06b09.X(4, __mt$b5e06b09.W(3, "b", a, b))
;__mt$b5e06b09.X(6, a = __mt$b5e06b09.W(5, "a", b, a))
;__mt$b5e06b09.X(17, __mt$b5e06b09.m1(15, __mt$b5e06b09_1 = __mt$b5e06b09.T(7, [a, b]), __mt$b5e06b09.M16(16, __mt$b5e06b09_1, "forEach"), __mt$b5e06b09.F(14, 12, function (x) {const H = __mt$b5e06b09, __mt$f = H.Fe(12, void 0, this, new.target); var __mt$1; try { H.N(11, "x", x);  H.m1(8, __mt$1 = console, H.M10(9, __mt$1, "log"), x), H.p[0] || H.X(10) } finally { H.Fr(13, __mt$f); } })))
var c = __mt$b5e06b09.X(30, __mt$b5e06b09.W(29, "c", __mt$b5e06b09.c1(28, __mt$b5e06b09.F(21, 19, function () {const H = __mt$b5e06b09, __mt$f = H.Fe(19, void 0, this, new.target); try {  return H.Rx(__mt$f, 18, 1) } finally { H.Fr(20, __mt$f); } })
, __mt$b5e06b09.F(27, 25, function () {const H = __mt$b5e06b09, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1; try {  H.m1(22, __mt$1 = console, H.M10(23, __mt$1, "log"), "iife"), H.p[0] || H.X(24) } finally { H.Fr(26, __mt$f); } })), c))
let d = __mt$b5e06b09.X(32, __mt$b5e06b09.N(31, "d", 2))
d
;__mt$b5e06b09.X(33, ++d)
;__mt$b5e06b09.X(36, __mt$b5e06b09.m1(34, __mt$b5e06b09_1 = console, __mt$b5e06b09.M10(35, __mt$b5e06b09_1, "log"), d))
;let K = __mt$b5e06b09.N(39, "K", __mt$b5e06b09.F(38, -37, class K {}));
__mt$b5e06b09.X(50, __mt$b5e06b09.m1(48, __mt$b5e06b09_1 = __mt$b5e06b09.T(40, [1]), __mt$b5e06b09.M17(49, __mt$b5e06b09_1, "map"), __mt$b5e06b09.F(47, 45, x => { const H = __mt$b5e06b09, __mt$f = H.Fe(45, void 0); var __mt$1; try { H.N(44, "x", x); return H.Rx(__mt$f, 43, H.m1(41, __mt$1 = console, H.M10(42, __mt$1, "log"), x)) } finally { H.Fr(46, __mt$f); } })))
var s = __mt$b5e06b09.X(52, __mt$b5e06b09.W(51, "s", `t`, s))
;__mt$b5e06b09.X(55, __mt$b5e06b09.m1(53, __mt$b5e06b09_1 = console, __mt$b5e06b09.M10(54, __mt$b5e06b09_1, "log"), s))
function r() {const H = __mt$b5e06b09, __mt$f = H.Fe(57, r, this, new.target); try { 
  return H.Rx(__mt$f, 56, (
    a + 1
  ))
} finally { H.Fr(58, __mt$f); } }
__mt$b5e06b09.X(62, __mt$b5e06b09.m1(60, __mt$b5e06b09_1 = console, __mt$b5e06b09.M10(61, __mt$b5e06b09_1, "log"), __mt$b5e06b09.c0(59, r)))

;__mt$b5e06b09.Sx();