// Classes: methods, accessors, statics, private members, fields, static
// blocks, derived classes with super calls, implicit constructors, class
// expressions and computed keys (docs/instrumentation.md §7).
"use strict";const __mt$8a50c731 = __mt.S("classes.js", "KaAEJCoDCIaAECaAaLCoDCKaAaEGAiBCsBAEAnBAsBEGAeCkBAEARAYAPAoBEKAgBAAAiBCgBAaAAAaAXAwBAAAyBCKAeAAA0BAAAoBAAA2BHcIIAAIIAAIIKqBAQAPAgBALAuBAAAuBCkBAaAAAcANAsBAAAsBAAAsBCYASALAgBAAAgBC4BAQAbAsBALA6BAAA6BCqBAYAPAsBALA6BAAA6BC8BAeAAAsBAPA8BALAqCAAAqCCuBAaANAqBAAAqBAAAqBC6BAaAPAwBANAgCAAAgCAAAgCCaAaALAoBAAAoBCwBAYALAmBAAAmBCuCASA3BAqCAAAQAAAsCrBCsBENCoDC8BGAMEKAeAAAgBCKAUAAAWFcGIAAGIAAGIIwCAMASAMA9BAqCAAAUAPA6CALAoDAAAoDC4CAWAAASA5BAwCALA+CAAA+CC2BAWAPAmBANA2BAAA2BAAA2BRCSE7BCoDCuCCA6BAAA6BvCCoDCwCsBASAuBAMAPAuBALA8BAAA8BAnBAmDAAAmDxCCoDCwCcAmDC4CAUAPAkBALAyBAAAyBAjBA4CAAA4CzCCoDCyCeA4CEWAcAAAW3CCoDC2CWAcCWAgB5CCoDC4CWAgBCCAkBAAAmBCUAQAAAMAUAYAAAUAcAIAMAIAMAMAQAMAQAUAAAQAYAUAYAgBAAAYArFAsGAAAQAAAuGCUAQAAAMAUAaAAAWAeAUAAAcAAAYAgBAWAAAiBAAAeAmBASAWAUAYAWA5FAwGAAAQAAAyGC8BA6BAAAqBAyCAcAAAWAAAwBAAAmBAtEA+FAAAQAAAgGCiBAeAAAoBAiDAeA3BA2CAAA0BAAAqDAAAgDAtCA4FAAAQAAA6FCOAeAAAsBA4BAEA5BA+BAAA2BAAAgCAwDAaAAAkBATA4BAAAQAAA6BCaAcAAAQAZA2BAAAWAAA4BnDCoDCAAoDC", {25:["Shape"],29:[],34:[],37:[],41:[],45:[],50:["Shape"],54:[],59:["Shape"],62:[],65:[],79:[],86:["Math"],91:[],96:[],100:[],106:[],108:[],114:["Inner"],116:[]}, 196, 197); var __mt$8a50c731_1, __mt$8a50c731_2; 
const log = __mt$8a50c731.X(3, __mt$8a50c731.N(2, "log", __mt$8a50c731.T(1, [])));
const sym = __mt$8a50c731.X(6, __mt$8a50c731.N(5, "sym", __mt$8a50c731.c1(4, Symbol, "tag")));
let Shape = __mt$8a50c731.N(72, "Shape", __mt$8a50c731.F(71, 25, class Shape {
  static count = __mt$8a50c731.Q(7, this, "count", 0, 0);
  static #registry = __mt$8a50c731.Q(9, this, "#registry", __mt$8a50c731.T(8, []), 0);
  #id;
  kind = __mt$8a50c731.Q(10, this, "kind", "shape", 1);
  tags = __mt$8a50c731.Q(13, this, "tags", __mt$8a50c731.T(12, { list: __mt$8a50c731.T(11, []) }), 1);
  constructor(name) {const H = __mt$8a50c731, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1, __mt$2; try { H.N(24, "name", name); 
    H.X(15, H.Pt(14, __mt$f, this, "name", name, 3));
    H.X(19, this.#id = H.Q(18, this, "#id", H.P16(16, __mt$1 = Shape, "count", (__mt$2 = H.G17(17, __mt$1).count, ++__mt$2), 3), 0));
    H.X(23, H.m1(21, __mt$1 = H.G20(20, Shape).#registry, H.M(22, __mt$1, "push"), this));
  } finally { H.Fr(26, __mt$f); } }
  get id() {const H = __mt$8a50c731, __mt$f = H.Fe(29, void 0, this, new.target); try {  return H.R(__mt$f, H.X(28, H.Gt(27, __mt$f, this).#id)); } finally { H.Fr(30, __mt$f); } }
  set label(v) {const H = __mt$8a50c731, __mt$f = H.Fe(34, void 0, this, new.target); try { H.N(33, "v", v);  H.X(32, H.Pt(31, __mt$f, this, "name", v, 3)); } finally { H.Fr(35, __mt$f); } }
  area() {const H = __mt$8a50c731, __mt$f = H.Fe(37, void 0, this, new.target); try {  return H.R(__mt$f, H.X(36, 0)); } finally { H.Fr(38, __mt$f); } }
  #secret() {const H = __mt$8a50c731, __mt$f = H.Fe(41, void 0, this, new.target); try {  return H.R(__mt$f, H.X(40, "s" + H.Gt(39, __mt$f, this).#id)); } finally { H.Fr(42, __mt$f); } }
  reveal() {const H = __mt$8a50c731, __mt$f = H.Fe(45, void 0, this, new.target); try {  return H.R(__mt$f, H.X(44, H.Gt(43, __mt$f, this).#secret())); } finally { H.Fr(46, __mt$f); } }
  static get size() {const H = __mt$8a50c731, __mt$f = H.Fe(50, void 0, this, new.target); try {  return H.R(__mt$f, H.X(49, H.G16(48, H.G15(47, Shape).#registry).length)); } finally { H.Fr(51, __mt$f); } }
  static #helper(x) {const H = __mt$8a50c731, __mt$f = H.Fe(54, void 0, this, new.target); try { H.N(53, "x", x);  return H.R(__mt$f, H.X(52, x * 2)); } finally { H.Fr(55, __mt$f); } }
  static double(x) {const H = __mt$8a50c731, __mt$f = H.Fe(59, void 0, this, new.target); try { H.N(58, "x", x);  return H.R(__mt$f, H.X(57, H.G24(56, Shape).#helper(x))); } finally { H.Fr(60, __mt$f); } }
  [sym]() {const H = __mt$8a50c731, __mt$f = H.Fe(62, void 0, this, new.target); try {  return H.R(__mt$f, H.X(61, "sym")); } finally { H.Fr(63, __mt$f); } }
  ["computed" + 1]() {const H = __mt$8a50c731, __mt$f = H.Fe(65, void 0, this, new.target); try {  return H.R(__mt$f, H.X(64, "c1")); } finally { H.Fr(66, __mt$f); } }
  static { __mt$8a50c731.X(70, __mt$8a50c731.m1(68, log, __mt$8a50c731.M(69, log, "push"), "static block " + __mt$8a50c731.G3(67, this).name)); }
}, void 0, "id", 1, 29, "label", 2, 34, "area", 0, 37, "#secret", 8, 41, "reveal", 0, 45, "size", 5, 50, "#helper", 12, 54, "double", 4, 59));
let Circle = __mt$8a50c731.N(99, "Circle", __mt$8a50c731.F(98, 79, class Circle extends Shape {
  r = __mt$8a50c731.Q(73, this, "r", 1, 1);
  constructor(r) {const H = __mt$8a50c731, __mt$f = H.Fe(79, void 0, void 0, new.target); try { H.N(78, "r", r); 
    H.X(75, H.Sp(74, __mt$f, super("circle")));
    H.X(77, H.P12(76, this, "r", r, 3));
  } finally { H.Fr(80, __mt$f); } }
  area() {const H = __mt$8a50c731, __mt$f = H.Fe(86, void 0, this, new.target); var __mt$1; try {  return H.R(__mt$f, H.X(85, H.m1(83, __mt$1 = Math, H.M(84, __mt$1, "round"), 3.14159 * H.Gt(81, __mt$f, this).r * H.Gt(82, __mt$f, this).r))); } finally { H.Fr(87, __mt$f); } }
  describe() {const H = __mt$8a50c731, __mt$f = H.Fe(91, void 0, this, new.target); try {  return H.R(__mt$f, H.X(90, super.area() + "/" + H.m0(88, this, H.Mt(89, __mt$f, this, "area")))); } finally { H.Fr(92, __mt$f); } }
  static make(r) {const H = __mt$8a50c731, __mt$f = H.Fe(96, void 0, this, new.target); try { H.N(95, "r", r);  return H.R(__mt$f, H.X(94, H.n1(93, this, r))); } finally { H.Fr(97, __mt$f); } }
}, void 0, "area", 0, 86, "describe", 0, 91, "make", 4, 96));
let Square = __mt$8a50c731.N(102, "Square", __mt$8a50c731.F(101, -100, class Square extends Shape {}));
const Anon = __mt$8a50c731.X(111, __mt$8a50c731.N(110, "Anon", __mt$8a50c731.F(109, -108, {"Anon": class { v = __mt$8a50c731.Q(103, this, "v", this, 1); m() {const H = __mt$8a50c731, __mt$f = H.Fe(106, void 0, this, new.target); try {  return H.R(__mt$f, H.X(105, H.Gt(104, __mt$f, this).v === this)); } finally { H.Fr(107, __mt$f); } } }}["Anon"], void 0, "m", 0, 106)));
const Named = __mt$8a50c731.X(119, __mt$8a50c731.N(118, "Named", __mt$8a50c731.F(117, -116, class Inner { who() {const H = __mt$8a50c731, __mt$f = H.Fe(114, void 0, this, new.target); try {  return H.R(__mt$f, H.X(113, H.G16(112, Inner).name)); } finally { H.Fr(115, __mt$f); } } }, void 0, "who", 0, 114)));

const c = __mt$8a50c731.X(123, __mt$8a50c731.N(122, "c", __mt$8a50c731.m1(120, Circle, __mt$8a50c731.M(121, Circle, "make"), 2)));
const s = __mt$8a50c731.X(126, __mt$8a50c731.N(125, "s", __mt$8a50c731.n1(124, Square, "sq")));
__mt$8a50c731.X(128, __mt$8a50c731.P31(127, s, "label", "square", 3));
__mt$8a50c731.X(144, __mt$8a50c731.m(142, log, __mt$8a50c731.M(143, log, "push"), __mt$8a50c731.m0(129, c, __mt$8a50c731.M(130, c, "area")), __mt$8a50c731.m0(131, c, __mt$8a50c731.M(132, c, "describe")), __mt$8a50c731.G5(133, c).id, __mt$8a50c731.G6(134, s).id, __mt$8a50c731.G7(135, s).name, __mt$8a50c731.G8(136, s).kind, __mt$8a50c731.m0(137, c, __mt$8a50c731.M(138, c, "reveal")), __mt$8a50c731.G11(139, Shape).size, __mt$8a50c731.m1(140, Shape, __mt$8a50c731.M(141, Shape, "double"), 21)));
__mt$8a50c731.X(160, __mt$8a50c731.m(158, log, __mt$8a50c731.M(159, log, "push"), __mt$8a50c731.m0(145, c, __mt$8a50c731.M(146, c, sym)), __mt$8a50c731.m0(147, c, __mt$8a50c731.M(148, c, "computed1")), __mt$8a50c731.m0(150, __mt$8a50c731_1 = __mt$8a50c731.n0(149, Anon), __mt$8a50c731.M(151, __mt$8a50c731_1, "m")), __mt$8a50c731.m0(153, __mt$8a50c731_1 = __mt$8a50c731.n0(152, Named), __mt$8a50c731.M(154, __mt$8a50c731_1, "who")), __mt$8a50c731.G27(155, Anon).name, __mt$8a50c731.G28(156, Named).name, __mt$8a50c731.G29(157, Circle).name));
__mt$8a50c731.X(169, __mt$8a50c731.m3(167, log, __mt$8a50c731.M(168, log, "push"), c instanceof Shape, __mt$8a50c731.m1(161, __mt$8a50c731_1 = Object, __mt$8a50c731.M(162, __mt$8a50c731_1, "getPrototypeOf"), Square) === Shape, __mt$8a50c731.m1(165, __mt$8a50c731_1 = __mt$8a50c731.m1(163, __mt$8a50c731_2 = Object, __mt$8a50c731.M(164, __mt$8a50c731_2, "keys"), c), __mt$8a50c731.M(166, __mt$8a50c731_1, "join"), ",")));
__mt$8a50c731.X(179, __mt$8a50c731.m2(177, log, __mt$8a50c731.M(178, log, "push"), typeof __mt$8a50c731.G11(171, __mt$8a50c731.G10(170, Shape).prototype).area, __mt$8a50c731.m1(175, __mt$8a50c731_1 = __mt$8a50c731.m1(173, __mt$8a50c731_2 = Object, __mt$8a50c731.M(174, __mt$8a50c731_2, "getOwnPropertyNames"), __mt$8a50c731.G12(172, Shape).prototype), __mt$8a50c731.M(176, __mt$8a50c731_1, "join"), ",")));
try { __mt$8a50c731.X(185, __mt$8a50c731.m1(183, __mt$8a50c731_1 = __mt$8a50c731.G21(181, __mt$8a50c731.G20(180, Shape).prototype).reveal, __mt$8a50c731.M(184, __mt$8a50c731_1, "call"), __mt$8a50c731.T(182, {}))); } catch (e) { __mt$8a50c731.X(190, __mt$8a50c731.m1(188, log, __mt$8a50c731.M(189, log, "push"), __mt$8a50c731.G27(187, __mt$8a50c731.G26(186, e).constructor).name)); }
__mt$8a50c731.X(195, __mt$8a50c731.m1(193, __mt$8a50c731_1 = console, __mt$8a50c731.M(194, __mt$8a50c731_1, "log"), __mt$8a50c731.m1(191, log, __mt$8a50c731.M(192, log, "join"), "\n")));

;__mt$8a50c731.Sx();