// Classes: methods, accessors, statics, private members, fields, static
// blocks, derived classes with super calls, implicit constructors, class
// expressions and computed keys (docs/instrumentation.md §7).
"use strict";__mt.Sg("__mt$8a50c731", 2, 0, "classes.js", "KaAEJCoDCIaAECaAaLCoDCKaAaEGAiBCsBAEAnBAsBEGAeCkBAEARAYAPAoBEKAgBAAAiBCgBAaAAAaAXAwBAAAyBCKAeAAA0BAAAoBAAA2BHcIIAAIIAAIIKqBAQAPAgBALAuBAAAuBCkBAaAAAcANAsBAAAsBAAAsBCYASALAgBAAAgBC4BAQAbAsBALA6BAAA6BCqBAYAAAcAPAsBALA6BAAA6BC8BAeAAAsBAPA8BALAqCAAAqCCuBAaANAqBAAAqBAAAqBC6BAaAAAgBAPAwBANAgCAAAgCAAAgCCaAaALAoBAAAoBCwBAYALAmBAAAmBCuCASA3BAqCAAAQAAAsCrBCsBENCoDC8BGAMEKAeAAAgBCKAUAAAWFcGIAAGIAAGIIiDAMA9BAqCAAAUAPA6CALAoDAAAoDC4CAWAAASA5BAwCALA+CAAA+CC2BAWAPAmBANA2BAAA2BAAA2BRCSE7BCoDCuCCA6BAAA6BvCCoDCwCsBASAuBAMAPAuBALA8BAAA8BAnBAmDAAAmDxCCoDCwCcAmDC4CAUAPAkBALAyBAAAyBAjBA4CAAA4CzCCoDCyCeA4CEWAcAAAW3CCoDC2CWAcCWAgB5CCoDC4CWAgBCCAkBAAAmBCUAQAAAMAUAYAAAUAcAIAMAIAMAMAQAMAQAUAAAQAYAUAYAgBAAAYArFAsGAAAQAAAuGCUAQAAAMAUAaAAAWAeAUAAAcAAAYAgBAWAAAiBAAAeAmBASAWAUAYAWA5FAwGAAAQAAAyGC8BA6BAAAqBAyCAcAAAWAAAwBAAAmBAtEA+FAAAQAAAgGCiBAeAAAoBAiDAeA3BA2CAAA0BAAAqDAAAgDAtCA4FAAAQAAA6FCOAeAAAsBA4BAEA5BA+BAAA2BAAAgCAwDAaAAAkBATA4BAAAQAAA6BCaAcAAAQAZA2BAAAWAAA4BnDCoDCAAoDC", {25:["Shape"],29:["~noproto~"],34:["~noproto~"],37:["~noproto~"],41:["~noproto~"],46:["~noproto~"],51:["~noproto~","Shape"],55:["~noproto~"],61:["~noproto~","Shape"],64:["~noproto~"],67:["~noproto~"],81:[],87:["~noproto~","Math"],92:["~noproto~"],97:["~noproto~"],101:[],107:["~noproto~"],109:[],115:["~noproto~","Inner"],117:[]}, 197, 198, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ 
const log = __mt$8a50c731.X(3, __mt$8a50c731.N(2, "log", __mt$8a50c731.T(1, [])));
const sym = __mt$8a50c731.X(6, __mt$8a50c731.N(5, "sym", __mt$8a50c731.c1(4, Symbol, "tag")));
let Shape = __mt$8a50c731.N(74, "Shape", __mt$8a50c731.F(73, 25, class Shape {
  static count = __mt$8a50c731.Q(7, this, "count", 0, 0);
  static #registry = __mt$8a50c731.Q(9, this, "#registry", __mt$8a50c731.T(8, []), 0);
  #id;
  kind = __mt$8a50c731.Q(10, this, "kind", "shape", 1);
  tags = __mt$8a50c731.Q(13, this, "tags", __mt$8a50c731.T(12, { list: __mt$8a50c731.T(11, []) }), 1);
  constructor(name) {const H = __mt$8a50c731, __mt$f = H.Fe(25, void 0, this, new.target); var __mt$1, __mt$2; try { H.N(24, "name", name); 
    H.Pt(14, __mt$f, this, "name", name, 3), H.p[0] || H.X(15);
    this.#id = H.Q(18, this, "#id", H.P18(16, __mt$1 = Shape, "count", (__mt$2 = H.G18(17, __mt$1).count, ++__mt$2), 3), 0), H.p[0] || H.X(19);
    H.m1(21, __mt$1 = H.G18(20, Shape).#registry, H.M22(22, __mt$1, __mt$1.push), this), H.p[0] || H.X(23);
  } finally { H.Fr(26, __mt$f); } }
  get id() {const H = __mt$8a50c731, __mt$f = H.Fe(29, void 0, this, new.target); try {  return H.Rx(__mt$f, 28, H.Gt(27, __mt$f, this).#id); } finally { H.Fr(30, __mt$f); } }
  set label(v) {const H = __mt$8a50c731, __mt$f = H.Fe(34, void 0, this, new.target); try { H.N(33, "v", v);  H.Pt(31, __mt$f, this, "name", v, 3), H.p[0] || H.X(32); } finally { H.Fr(35, __mt$f); } }
  area() {const H = __mt$8a50c731, __mt$f = H.Fe(37, void 0, this, new.target); try {  return H.Rx(__mt$f, 36, 0); } finally { H.Fr(38, __mt$f); } }
  #secret() {const H = __mt$8a50c731, __mt$f = H.Fe(41, void 0, this, new.target); try {  return H.Rx(__mt$f, 40, "s" + H.Gt(39, __mt$f, this).#id); } finally { H.Fr(42, __mt$f); } }
  reveal() {const H = __mt$8a50c731, __mt$f = H.Fe(46, void 0, this, new.target); try {  return H.Rx(__mt$f, 45, H.m0(44, H.Gt(43, __mt$f, this), this.#secret)); } finally { H.Fr(47, __mt$f); } }
  static get size() {const H = __mt$8a50c731, __mt$f = H.Fe(51, void 0, this, new.target); try {  return H.Rx(__mt$f, 50, H.G17(49, H.G18(48, Shape).#registry).length); } finally { H.Fr(52, __mt$f); } }
  static #helper(x) {const H = __mt$8a50c731, __mt$f = H.Fe(55, void 0, this, new.target); try { H.N(54, "x", x);  return H.Rx(__mt$f, 53, x * 2); } finally { H.Fr(56, __mt$f); } }
  static double(x) {const H = __mt$8a50c731, __mt$f = H.Fe(61, void 0, this, new.target); try { H.N(60, "x", x);  return H.Rx(__mt$f, 59, H.m1(58, H.G18(57, Shape), Shape.#helper, x)); } finally { H.Fr(62, __mt$f); } }
  [sym]() {const H = __mt$8a50c731, __mt$f = H.Fe(64, void 0, this, new.target); try {  return H.Rx(__mt$f, 63, "sym"); } finally { H.Fr(65, __mt$f); } }
  ["computed" + 1]() {const H = __mt$8a50c731, __mt$f = H.Fe(67, void 0, this, new.target); try {  return H.Rx(__mt$f, 66, "c1"); } finally { H.Fr(68, __mt$f); } }
  static { __mt$8a50c731.m1(70, log, __mt$8a50c731.M3(71, log, log.push), "static block " + __mt$8a50c731.G5(69, this).name), __mt$8a50c731.p[0] || __mt$8a50c731.X(72); }
}, void 0, "id", 1, 29, "label", 2, 34, "area", 0, 37, "#secret", 8, 41, "reveal", 0, 46, "size", 5, 51, "#helper", 12, 55, "double", 4, 61));
let Circle = __mt$8a50c731.N(100, "Circle", __mt$8a50c731.F(99, 81, class Circle extends Shape {
  r = __mt$8a50c731.Q(75, this, "r", 1, 1);
  constructor(r) {const H = __mt$8a50c731, __mt$f = H.Fe(81, void 0, void 0, new.target); try { H.N(80, "r", r); 
    H.Sp(76, __mt$f, super("circle")), H.p[0] || H.X(77);
    H.P14(78, this, "r", r, 3), H.p[0] || H.X(79);
  } finally { H.Fr(82, __mt$f); } }
  area() {const H = __mt$8a50c731, __mt$f = H.Fe(87, void 0, this, new.target); var __mt$1; try {  return H.Rx(__mt$f, 86, H.m1(84, __mt$1 = Math, H.M15(85, __mt$1, __mt$1.round), 3.14159 * this.r * H.Gt(83, __mt$f, this).r)); } finally { H.Fr(88, __mt$f); } }
  describe() {const H = __mt$8a50c731, __mt$f = H.Fe(92, void 0, this, new.target); try {  return H.Rx(__mt$f, 91, super.area() + "/" + H.m0(89, this, H.Mt(90, __mt$f, this, this.area))); } finally { H.Fr(93, __mt$f); } }
  static make(r) {const H = __mt$8a50c731, __mt$f = H.Fe(97, void 0, this, new.target); try { H.N(96, "r", r);  return H.Rx(__mt$f, 95, H.n1(94, this, r)); } finally { H.Fr(98, __mt$f); } }
}, void 0, "area", 0, 87, "describe", 16, 92, "make", 4, 97));
let Square = __mt$8a50c731.N(103, "Square", __mt$8a50c731.F(102, -101, class Square extends Shape {}));
const Anon = __mt$8a50c731.X(112, __mt$8a50c731.N(111, "Anon", __mt$8a50c731.F(110, -109, {"Anon": class { v = __mt$8a50c731.Q(104, this, "v", this, 1); m() {const H = __mt$8a50c731, __mt$f = H.Fe(107, void 0, this, new.target); try {  return H.Rx(__mt$f, 106, H.Gt(105, __mt$f, this).v === this); } finally { H.Fr(108, __mt$f); } } }}["Anon"], void 0, "m", 0, 107)));
const Named = __mt$8a50c731.X(120, __mt$8a50c731.N(119, "Named", __mt$8a50c731.F(118, -117, class Inner { who() {const H = __mt$8a50c731, __mt$f = H.Fe(115, void 0, this, new.target); try {  return H.Rx(__mt$f, 114, H.G5(113, Inner).name); } finally { H.Fr(116, __mt$f); } } }, void 0, "who", 0, 115)));

const c = __mt$8a50c731.X(124, __mt$8a50c731.N(123, "c", __mt$8a50c731.m1(121, Circle, __mt$8a50c731.M9(122, Circle, Circle.make), 2)));
const s = __mt$8a50c731.X(127, __mt$8a50c731.N(126, "s", __mt$8a50c731.n1(125, Square, "sq")));
__mt$8a50c731.X(129, __mt$8a50c731.P2(128, s, "label", "square", 3));
__mt$8a50c731.X(145, __mt$8a50c731.m(143, log, __mt$8a50c731.M17(144, log, log.push), __mt$8a50c731.m0(130, c, __mt$8a50c731.M18(131, c, c.area)), __mt$8a50c731.m0(132, c, __mt$8a50c731.M18(133, c, c.describe)), __mt$8a50c731.G18(134, c).id, __mt$8a50c731.G2(135, s).id, __mt$8a50c731.G2(136, s).name, __mt$8a50c731.G2(137, s).kind, __mt$8a50c731.m0(138, c, __mt$8a50c731.M18(139, c, c.reveal)), __mt$8a50c731.G6(140, Shape).size, __mt$8a50c731.m1(141, Shape, __mt$8a50c731.M6(142, Shape, Shape.double), 21)));
__mt$8a50c731.X(161, __mt$8a50c731.m(159, log, __mt$8a50c731.M17(160, log, log.push), __mt$8a50c731.m0(146, c, __mt$8a50c731.M18(147, c, c[sym])), __mt$8a50c731.m0(148, c, __mt$8a50c731.M18(149, c, c.computed1)), __mt$8a50c731.m0(151, __mt$8a50c731_1 = __mt$8a50c731.n0(150, Anon), __mt$8a50c731.M24(152, __mt$8a50c731_1, __mt$8a50c731_1.m)), __mt$8a50c731.m0(154, __mt$8a50c731_1 = __mt$8a50c731.n0(153, Named), __mt$8a50c731.M27(155, __mt$8a50c731_1, __mt$8a50c731_1.who)), __mt$8a50c731.G31(156, Anon).name, __mt$8a50c731.G6(157, Named).name, __mt$8a50c731.G9(158, Circle).name));
__mt$8a50c731.X(170, __mt$8a50c731.m3(168, log, __mt$8a50c731.M17(169, log, log.push), c instanceof Shape, __mt$8a50c731.m1(162, __mt$8a50c731_1 = Object, __mt$8a50c731.M26(163, __mt$8a50c731_1, __mt$8a50c731_1.getPrototypeOf), Square) === Shape, __mt$8a50c731.m1(166, __mt$8a50c731_1 = __mt$8a50c731.m1(164, __mt$8a50c731_2 = Object, __mt$8a50c731.M26(165, __mt$8a50c731_2, __mt$8a50c731_2.keys), c), __mt$8a50c731.M7(167, __mt$8a50c731_1, __mt$8a50c731_1.join), ",")));
__mt$8a50c731.X(180, __mt$8a50c731.m2(178, log, __mt$8a50c731.M17(179, log, log.push), typeof __mt$8a50c731.G21(172, __mt$8a50c731.G6(171, Shape).prototype).area, __mt$8a50c731.m1(176, __mt$8a50c731_1 = __mt$8a50c731.m1(174, __mt$8a50c731_2 = Object, __mt$8a50c731.M26(175, __mt$8a50c731_2, __mt$8a50c731_2.getOwnPropertyNames), __mt$8a50c731.G6(173, Shape).prototype), __mt$8a50c731.M17(177, __mt$8a50c731_1, __mt$8a50c731_1.join), ",")));
try { __mt$8a50c731.X(186, __mt$8a50c731.m1(184, __mt$8a50c731_1 = __mt$8a50c731.G21(182, __mt$8a50c731.G6(181, Shape).prototype).reveal, __mt$8a50c731.M12(185, __mt$8a50c731_1, __mt$8a50c731_1.call), __mt$8a50c731.T(183, {}))); } catch (e) { __mt$8a50c731.X(191, __mt$8a50c731.m1(189, log, __mt$8a50c731.M17(190, log, log.push), __mt$8a50c731.G19(188, __mt$8a50c731.G0(187, e).constructor).name)); }
__mt$8a50c731.X(196, __mt$8a50c731.m1(194, __mt$8a50c731_1 = console, __mt$8a50c731.M10(195, __mt$8a50c731_1, __mt$8a50c731_1.log), __mt$8a50c731.m1(192, log, __mt$8a50c731.M17(193, log, log.join), "\n")));

;__mt$8a50c731.Sx();