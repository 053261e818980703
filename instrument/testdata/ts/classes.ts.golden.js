const __mt$ = __mt.S("classes.ts", "IaAUAAAMAAAMAYAMAAAMAAAMAnBAIALAKAAAKAAAKAAAKAUAsBAVAUAAAUAAAUGsBACAAACAmBAGAAAGA3BA2CAAA2CAAA2CAAA2CDYAyBE2BAOAUAMAjBA6BAbA4CAAA4CHCIEJCgBCSsDAMAPAcA9CA8DAAA8DAAA8DAAA8DCyBAEVCgBCUyBAECaAaAZAmCAAAWAAAoCCWA4BZCgBCYWA4BZCgBCaaACbCgBCcCA0CAiCAQAAAMATAkBCaAgBAAAaAkBAIAMAOApCA4CAAAWAAA6CfCgBCSCA8DTCgBCAAgBCAAgBC", {9:[],22:[],28:["Math"],36:[]}, 65, 66); var __mt$1; try { __mt$.N(62, "Kind@", Kind); __mt$.N(64, "pair@", __mt$.F(63, 36, pair)); var Kind = /* @__PURE__ */ __mt$.X(15, __mt$.W(14, "Kind@", __mt$.c1(13, (__mt$.F(11, 9, (Kind2) => {const __mt$f = __mt$.Fe(9, void 0); try { __mt$.N(8, "Kind2", Kind2); 
  __mt$.X(3, __mt$.P2(2, Kind2, __mt$.P1(1, Kind2, "Circle", 1, 0), "Circle", 0));
  __mt$.X(6, __mt$.P5(5, Kind2, __mt$.P4(4, Kind2, "Square", 2, 0), "Square", 0));
  return __mt$.R(__mt$f, __mt$.X(7, Kind2));
} finally { __mt$.Fr(10, __mt$f); } })), Kind || __mt$.T(12, {})), Kind));
let Circle = __mt$.N(31, "Circle", __mt$.F(30, 22, class Circle {
  constructor(r, tag) {const __mt$f = __mt$.Fe(22, void 0, this, new.target); try { __mt$.N(20, "r", r); __mt$.N(21, "tag", tag); 
    __mt$.X(17, __mt$.Pt(16, __mt$f, this, "r", r, 3));
    __mt$.X(19, __mt$.Pt(18, __mt$f, this, "tag", tag, 3));
  } finally { __mt$.Fr(23, __mt$f); } }
  r;
  tag;
  kind = __mt$.Q(24, this, "kind", 1, 1) /* Circle */;
  area() {const __mt$f = __mt$.Fe(28, void 0, this, new.target); try { 
    return __mt$.R(__mt$f, __mt$.X(27, __mt$.G25(25, Math).PI * __mt$.Gt(26, __mt$f, this).r ** 2));
  } finally { __mt$.Fr(29, __mt$f); } }
}, void 0, "area", 0, 28));
function pair(a, b) {const __mt$f = __mt$.Fe(36, pair, this, new.target); try { __mt$.N(34, "a", a); __mt$.N(35, "b", b); 
  return __mt$.R(__mt$f, __mt$.X(33, __mt$.T(32, [a, b])));
} finally { __mt$.Fr(37, __mt$f); } }
const shapes = __mt$.X(40, __mt$.N(39, "shapes@", __mt$.T(38, [])));
__mt$.X(44, __mt$.m1(42, shapes, __mt$.M(43, shapes, "push"), __mt$.n1(41, Circle, 2)));
const p = __mt$.X(47, __mt$.N(46, "p@", __mt$.c2(45, pair, "x", 1)));
let total = __mt$.X(49, __mt$.N(48, "total@", 0));
for (const s of shapes) { __mt$.N(50, "s", s); __mt$.X(51); __mt$.X(54, total += __mt$.m0(52, s, __mt$.M(53, s, "area"))); }
__mt$.X(61, __mt$.m3(59, __mt$1 = console, __mt$.M(60, __mt$1, "log"), __mt$.m1(55, total, __mt$.M(56, total, "toFixed"), 2), __mt$.G25(57, p)[0], __mt$.G26(58, Kind)[2]));

} finally { __mt$.Sx(); }