const H = __mt.S("classes.ts", "IaAUAAAMAAAMAYAMAAAMAAAMAnBAIALAKAAAKAAAKAAAKAUAsBAVAUAAAUAAAUGsBACAAACAmBAGAAAGA3BA2CAAA2CAAA2CAAA2CDYAyBE2BAOAUAMAjBA6BAbA4CAAA4CHCIEJCgBCSsDAMAPAcA9CA8DAAA8DAAA8DAAA8DCyBAEVCgBCUyBAECaAaAZAmCAAAWAAAoCCWA4BZCgBCYWA4BZCgBCaaACbCgBCcCA0CAiCAQAAAMATAkBCaAgBAAAaAkBAIAMAOApCA4CAAAWAAA6CfCgBCSCA8DTCgBCAAgBCAAgBC", {9:["~noproto~"],22:[],28:["~noproto~","Math"],36:[]}, 65, 66, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ var __mt$1; try { H.N(62, "Kind@", Kind); H.N(64, "pair@", H.F(63, 36, pair)); 


var Kind = /* @__PURE__ */ H.X(15, H.W(14, "Kind@", H.c1(13, (H.F(11, 9, (Kind2) => {const __mt$f = H.Fe(9, void 0); var __mt$1, __mt$2, __mt$3, __mt$4, __mt$5, __mt$6, __mt$7, __mt$8; try { H.N(8, "Kind2", Kind2);    ((__mt$4 = H.Pq3(2, __mt$1 = Kind2, __mt$2 = ((__mt$8 = H.Pq3(1, __mt$5 = Kind2, __mt$6 = "Circle", __mt$7 = 1)) !== 0 ? (__mt$5[__mt$6] = __mt$7, H.Pu(1, __mt$8), __mt$7) : H.Pm(1, __mt$5, __mt$6, __mt$7, 0)), __mt$3 = "Circle")) !== 0 ? (__mt$1[__mt$2] = __mt$3, H.Pu(2, __mt$4), __mt$3) : H.Pm(2, __mt$1, __mt$2, __mt$3, 0)), H.p[0] || H.X(3);   ((__mt$4 = H.Pq3(5, __mt$1 = Kind2, __mt$2 = ((__mt$8 = H.Pq3(4, __mt$5 = Kind2, __mt$6 = "Square", __mt$7 = 2)) !== 0 ? (__mt$5[__mt$6] = __mt$7, H.Pu(4, __mt$8), __mt$7) : H.Pm(4, __mt$5, __mt$6, __mt$7, 0)), __mt$3 = "Square")) !== 0 ? (__mt$1[__mt$2] = __mt$3, H.Pu(5, __mt$4), __mt$3) : H.Pm(5, __mt$1, __mt$2, __mt$3, 0)), H.p[0] || H.X(6);   return H.Rx(__mt$f, 7, Kind2); } finally { H.Fr(10, __mt$f); } })), Kind || H.T(12, {})), Kind));
let Circle = H.N(31, "Circle", H.F(30, 22, class Circle {   constructor(r, tag) {const __mt$f = H.Fe(22, void 0, this, new.target); try { H.N(20, "r", r); H.N(21, "tag", tag); 

    H.Pt(16, __mt$f, this, "r", r, 3), H.p[0] || H.X(17);     H.Pt(18, __mt$f, this, "tag", tag, 3), H.p[0] || H.X(19);   } finally { H.Fr(23, __mt$f); } }   r;   tag;   kind = H.Q(24, this, "kind", 1, 1) /* Circle */;   area() {const __mt$f = H.Fe(28, void 0, this, new.target); try { 
    return H.Rx(__mt$f, 27, H.G15(25, Math).PI * H.Gt(26, __mt$f, this).r ** 2);   } finally { H.Fr(29, __mt$f); } }
}, void 0, "area", 0, 28));
function pair(a, b) {const __mt$f = H.Fe(36, pair, this, new.target); try { H.N(34, "a", a); H.N(35, "b", b);    return H.Rx(__mt$f, 33, H.T(32, [a, b])); } finally { H.Fr(37, __mt$f); } }
const shapes = H.X(40, H.N(39, "shapes@", H.T(38, [])));
H.m1(42, shapes, H.M15(43, shapes, shapes.push), H.n1(41, Circle, 2)), H.p[0] || H.X(44);
const p = H.X(47, H.N(46, "p@", H.c2(45, pair, "x", 1)));
let total = H.X(49, H.N(48, "total@", 0));
for (const s of shapes) { H.N(50, "s", s); H.X(51); total += H.m0(52, s, H.M2(53, s, s.area)), H.p[0] || H.X(54); }
H.m3(59, __mt$1 = console, H.M10(60, __mt$1, __mt$1.log), H.m1(55, total, H.M29(56, total, total.toFixed), 2), H.G15(57, p)[0], H.G3(58, Kind)[2]), H.p[0] || H.X(61); 
} finally { H.Sx(); }