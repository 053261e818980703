__mt.Sg("__mt$acd21059", 4, 0, "asi_hazards.js", "ESACAAACCSACAAACCKACAJCECEAMA8BAcAAAWAAAcAfA+BAAA+BAAA+BAAA+BAfA+CAAAcAAA+CCuBAQAdAwBAAAwBAAAwBCgBAmBAAAWAAAmBAdAmCAAAmCAAAmCDSCsCAACsCAACsCLC4BCOSACECAGCCAcAAAWAAAcCCAUAAAUXC4BCYCAGAaAcAAAWAAAcALAmBAAAmBAAAmBAAAmBARA4BAAAOAAA4BCSAGAAAGCCAcAAAWAAAcEGEIDCIEAAIEKaAGAZAgBAAAWAAAgBEWAEtBC4BCsBWAECCAQAAAQCCAUAAAUAQAEARAUCSAcAAAcAAAcAAAcAAAcCCAKAAAKAAAKCaAIAMAGAlBAsBAAAWAAAsB3BC4BCAA4BCAA4BCAA4BCeCIEfC4BCAA4BCAA4BCAA4BC", {12:["console"],19:[],25:["console"],37:[],45:["console"],57:["a"],72:[]}, 92, 93, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$acd21059.N(85, "a", a); __mt$acd21059.N(86, "b", b); __mt$acd21059.N(87, "c", c); __mt$acd21059.N(88, "s", s); __mt$acd21059.N(90, "r", __mt$acd21059.F(89, 57, r)); __mt$acd21059.N(91, "f", f); // ASI: statements without semicolons next to spliced text.
var a = __mt$acd21059.X(2, __mt$acd21059.W(1, "a", 1, a))
var b = __mt$acd21059.X(4, __mt$acd21059.W(3, "b", a, b))
;__mt$acd21059.X(6, a = __mt$acd21059.W(5, "a", b, a))
;__mt$acd21059.X(17, __mt$acd21059.m1(15, __mt$acd21059_1 = __mt$acd21059.T(7, [a, b]), __mt$acd21059.M16(16, __mt$acd21059_1, "forEach"), __mt$acd21059.F(14, 12, function (x) {const H = __mt$acd21059, __mt$f = H.Fe(12, void 0, this, new.target); var __mt$1; try { H.N(11, "x", x);  H.m1(8, __mt$1 = console, H.M10(9, __mt$1, "log"), x), H.p[0] || H.X(10) } finally { H.Fr(13, __mt$f); } })))
var c = __mt$acd21059.X(30, __mt$acd21059.W(29, "c", __mt$acd21059.c1(28, __mt$acd21059.F(21, 19, function () {const H = __mt$acd21059, __mt$f = H.Fe(19, void 0, this, new.target); try {  return H.Rx(__mt$f, 18, 1) } finally { H.Fr(20, __mt$f); } })
, __mt$acd21059.F(27, 25, function () {const H = __mt$acd21059, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1; try {  H.m1(22, __mt$1 = console, H.M10(23, __mt$1, "log"), "iife"), H.p[0] || H.X(24) } finally { H.Fr(26, __mt$f); } })), c))
let d = __mt$acd21059.X(32, __mt$acd21059.N(31, "d", 2))
d
;__mt$acd21059.X(33, ++d)
;__mt$acd21059.X(36, __mt$acd21059.m1(34, __mt$acd21059_1 = console, __mt$acd21059.M10(35, __mt$acd21059_1, "log"), d))
;let K = __mt$acd21059.N(39, "K", __mt$acd21059.F(38, -37, class K {}));
__mt$acd21059.X(50, __mt$acd21059.m1(48, __mt$acd21059_1 = __mt$acd21059.T(40, [1]), __mt$acd21059.M17(49, __mt$acd21059_1, "map"), __mt$acd21059.F(47, 45, x => { const H = __mt$acd21059, __mt$f = H.Fe(45, void 0); var __mt$1; try { H.N(44, "x", x); return H.Rx(__mt$f, 43, H.m1(41, __mt$1 = console, H.M10(42, __mt$1, "log"), x)) } finally { H.Fr(46, __mt$f); } })))
var s = __mt$acd21059.X(52, __mt$acd21059.W(51, "s", `t`, s))
;__mt$acd21059.X(55, __mt$acd21059.m1(53, __mt$acd21059_1 = console, __mt$acd21059.M10(54, __mt$acd21059_1, "log"), s))
function r() {const H = __mt$acd21059, __mt$f = H.Fe(57, r, this, new.target); try { 
  return H.Rx(__mt$f, 56, (
    a + 1
  ))
} finally { H.Fr(58, __mt$f); } }
__mt$acd21059.X(62, __mt$acd21059.m1(60, __mt$acd21059_1 = console, __mt$acd21059.M10(61, __mt$acd21059_1, "log"), __mt$acd21059.c0(59, r)))
// statements ending in "}" that hooks wrap: the next one may begin with "("
const o = __mt$acd21059.X(65, __mt$acd21059.N(64, "o", __mt$acd21059.T(63, {})))
;__mt$acd21059.X(67, ((__mt$acd21059_4 = __mt$acd21059.Pq30(66, __mt$acd21059_1 = o, __mt$acd21059_2 = 0, __mt$acd21059_3 = 1)) !== 0 ? (__mt$acd21059_1[__mt$acd21059_2] = __mt$acd21059_3, __mt$acd21059.Pu(66, __mt$acd21059_4), __mt$acd21059_3) : __mt$acd21059.Pm(66, __mt$acd21059_1, __mt$acd21059_2, __mt$acd21059_3, 0)))
;__mt$acd21059.X(71, (__mt$acd21059.G30(69, __mt$acd21059_1 = o).p ?? __mt$acd21059.P30(68, __mt$acd21059_1, "p", __mt$acd21059.T(70, {}), 2)))
var f = __mt$acd21059.X(76, __mt$acd21059.W(75, "f", __mt$acd21059.F(74, 72, {"f": function () {const H = __mt$acd21059, __mt$f = H.Fe(72, void 0, this, new.target); try { } finally { H.Fr(73, __mt$f); } }}["f"]), f))
;__mt$acd21059.X(79, (__mt$acd21059_2 = __mt$acd21059.G30(78, __mt$acd21059_1 = o).p, __mt$acd21059_3 = __mt$acd21059_2++, __mt$acd21059.P30(77, __mt$acd21059_1, "p", __mt$acd21059_2, 2), __mt$acd21059_3))
;__mt$acd21059.X(84, __mt$acd21059.m2(82, __mt$acd21059_1 = console, __mt$acd21059.M10(83, __mt$acd21059_1, "log"), __mt$acd21059.G30(80, o)[0], __mt$acd21059.G30(81, o).p))

;__mt$acd21059.Sx();