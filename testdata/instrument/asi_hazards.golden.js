__mt.Sg("__mt$0fa06e90", 1, 0, "asi_hazards.js", "ESACAAACCSACAAACCKACAJCECEAMA8BAcAAAWAAAcAfA+BAAA+BAAA+BAAA+BAfA+CAAAcAAA+CCuBAQAdAwBAAAwBAAAwBCgBAmBAAAWAAAmBAdAmCAAAmCAAAmCDSCsCAACsCAACsCLCkCCOSACECAGCCAcAAAWAAAcCCAUAAAUXCkCCYCAGAaAcAAAWAAAcALAmBAAAmBAAAmBAAAmBARA4BAAAOAAA4BCSAGAAAGCCAcAAAWAAAcEGEIDCIEAAIEKaAGAZAgBAAAWAAAgBIaAEDCSECaAECGAQAAAQCGAUAAAUAQAEARAUCWAcAAAcAAAcAAAcAAAcCGAKAAAKAAAKCgBAEANAQAAAQCGAQAAAQCsBAIAZAiBAPAwBRCSEAASEAASEUaASAZAsBAAAWAAAsBjCCkCCAAkCCAAkCCAAkCCeCIEfCkCCuBCSEvBCkCCAAkCCAAkCC", {12:["console"],19:[],25:["console"],37:[],45:["~noproto~","console"],57:["a"],72:[],89:[]}, 103, 104, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$0fa06e90.N(95, "a", a); __mt$0fa06e90.N(96, "b", b); __mt$0fa06e90.N(97, "c", c); __mt$0fa06e90.N(98, "s", s); __mt$0fa06e90.N(100, "r", __mt$0fa06e90.F(99, 57, r)); __mt$0fa06e90.N(102, "wrapped", __mt$0fa06e90.F(101, 89, wrapped)); // ASI: statements without semicolons next to spliced text.
var a = __mt$0fa06e90.X(2, __mt$0fa06e90.W(1, "a", 1, a))
var b = __mt$0fa06e90.X(4, __mt$0fa06e90.W(3, "b", a, b))
;__mt$0fa06e90.X(6, a = __mt$0fa06e90.W(5, "a", b, a))
;__mt$0fa06e90.X(17, __mt$0fa06e90.m1(15, __mt$0fa06e90_1 = __mt$0fa06e90.T(7, [a, b]), __mt$0fa06e90.M16(16, __mt$0fa06e90_1, __mt$0fa06e90_1.forEach), __mt$0fa06e90.F(14, 12, function (x) {const H = __mt$0fa06e90, __mt$f = H.Fe(12, void 0, this, new.target); var __mt$1; try { H.N(11, "x", x);  H.m1(8, __mt$1 = console, H.M10(9, __mt$1, __mt$1.log), x), H.p[0] || H.X(10) } finally { H.Fr(13, __mt$f); } })))
var c = __mt$0fa06e90.X(30, __mt$0fa06e90.W(29, "c", __mt$0fa06e90.c1(28, __mt$0fa06e90.F(21, 19, function () {const H = __mt$0fa06e90, __mt$f = H.Fe(19, void 0, this, new.target); try {  return H.Rx(__mt$f, 18, 1) } finally { H.Fr(20, __mt$f); } })
, __mt$0fa06e90.F(27, 25, function () {const H = __mt$0fa06e90, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1; try {  H.m1(22, __mt$1 = console, H.M10(23, __mt$1, __mt$1.log), "iife"), H.p[0] || H.X(24) } finally { H.Fr(26, __mt$f); } })), c))
let d = __mt$0fa06e90.X(32, __mt$0fa06e90.N(31, "d", 2))
d
;__mt$0fa06e90.X(33, ++d)
;__mt$0fa06e90.X(36, __mt$0fa06e90.m1(34, __mt$0fa06e90_1 = console, __mt$0fa06e90.M10(35, __mt$0fa06e90_1, __mt$0fa06e90_1.log), d))
;let K = __mt$0fa06e90.N(39, "K", __mt$0fa06e90.F(38, -37, class K {}));
__mt$0fa06e90.X(50, __mt$0fa06e90.m1(48, __mt$0fa06e90_1 = __mt$0fa06e90.T(40, [1]), __mt$0fa06e90.M17(49, __mt$0fa06e90_1, __mt$0fa06e90_1.map), __mt$0fa06e90.F(47, 45, x => { const H = __mt$0fa06e90, __mt$f = H.Fe(45, void 0); var __mt$1; try { H.N(44, "x", x); return H.Rx(__mt$f, 43, H.m1(41, __mt$1 = console, H.M10(42, __mt$1, __mt$1.log), x)) } finally { H.Fr(46, __mt$f); } })))
var s = __mt$0fa06e90.X(52, __mt$0fa06e90.W(51, "s", `t`, s))
;__mt$0fa06e90.X(55, __mt$0fa06e90.m1(53, __mt$0fa06e90_1 = console, __mt$0fa06e90.M10(54, __mt$0fa06e90_1, __mt$0fa06e90_1.log), s))
function r() {const H = __mt$0fa06e90, __mt$f = H.Fe(57, r, this, new.target); try { 
  return H.Rx(__mt$f, 56, (
    a + 1
  ))
} finally { H.Fr(58, __mt$f); } }
__mt$0fa06e90.X(62, __mt$0fa06e90.m1(60, __mt$0fa06e90_1 = console, __mt$0fa06e90.M10(61, __mt$0fa06e90_1, __mt$0fa06e90_1.log), __mt$0fa06e90.c0(59, r)))
// statements ending in "}" that hooks wrap: the next one may begin with
// "(" (in a function, where a statement ends with the inline slot test)
function wrapped() {const H = __mt$0fa06e90, __mt$f = H.Fe(89, wrapped, this, new.target); var __mt$1, __mt$2, __mt$3, __mt$4; try { H.Nu(88, "f"); 
  const o = H.X(65, H.N(64, "o", H.T(63, {})))
  ;((__mt$4 = H.Pq30(66, __mt$1 = o, __mt$2 = 0, __mt$3 = 1)) !== 0 ? (__mt$1[__mt$2] = __mt$3, H.Pu(66, __mt$4), __mt$3) : H.Pm(66, __mt$1, __mt$2, __mt$3, 0)), H.p[0] || H.X(67)
  ;(H.G30(69, __mt$1 = o).p ?? H.P30(68, __mt$1, "p", H.T(70, {}), 2)), H.p[0] || H.X(71)
  var f = H.X(76, H.W(75, "f", H.F(74, 72, {"f": function () {const __mt$f = H.Fe(72, void 0, this, new.target); try { } finally { H.Fr(73, __mt$f); } }}["f"]), f))
  ;(__mt$2 = H.G30(78, __mt$1 = o).p, __mt$3 = __mt$2++, H.P30(77, __mt$1, "p", __mt$2, 2), __mt$3), H.p[0] || H.X(79)
  if (f) H.P30(81, o, "q", H.T(80, {}), 2), H.p[0] || H.X(82)
  ;((__mt$4 = H.Pq30(83, __mt$1 = o, __mt$2 = 1, __mt$3 = 2)) !== 0 ? (__mt$1[__mt$2] = __mt$3, H.Pu(83, __mt$4), __mt$3) : H.Pm(83, __mt$1, __mt$2, __mt$3, 0)), H.p[0] || H.X(84)
  return H.Rx(__mt$f, 87, H.T(86, [o[0], o.p, H.G30(85, o)[1]]))
} finally { H.Fr(90, __mt$f); } }
__mt$0fa06e90.X(94, __mt$0fa06e90.m1(92, __mt$0fa06e90_1 = console, __mt$0fa06e90.M10(93, __mt$0fa06e90_1, __mt$0fa06e90_1.log), __mt$0fa06e90.c0(91, wrapped)))

;__mt$0fa06e90.Sx();