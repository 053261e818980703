const H = __mt.S("view.tsx", "EmFAWAAAWAnDA+DAAA+DA8BAIA9BA+DAAA+DAAA+DAAA+DAjBAkFDCQCCeAkFGWAQA4CAUADAeAAACAAAeAfA8BAAA8BAAA8BAAA8BAVA8CAAASAnBAkEAAACAPA+EDCEEAAEEAAEEAAEEGqCAUAlBA6BALAmCAAACNCQCMcAmCCiCAMALAqBAfAqCAAAcAZAkDAAAWAAAmDJCEEHCQCAAQCAAQC", {7:[],19:["React@"],29:["React@"]}, 46, 47); var __mt$1, __mt$2; try { H.N(45, "List@", H.F(44, 29, List)); 
const React = H.X(12, H.N(11, "React@", H.T(10, { createElement: H.F(9, 7, {"createElement": (t, p, ...c) => { const __mt$f = H.Fe(7, void 0); try { H.N(3, "t", t); H.N(4, "p", p); H.N(6, "c", H.T(5, c)); return H.R(__mt$f, H.X(2, (H.T(1, { t, p, c })))) } finally { H.Fr(8, __mt$f); } }}["createElement"]) })));

function List({ title, items }) {const __mt$f = H.Fe(29, List, this, new.target); try { H.N(27, "title", title); H.N(28, "items", items); 
  return /* @__PURE__ */ H.R(__mt$f, H.X(26, H.m3(24, React, H.M(25, React, "createElement"), "ul", H.T(13, { title }), H.m1(22, items, H.M(23, items, "map"), H.F(21, 19, (x) => /* @__PURE__ */ { const __mt$f = H.Fe(19, void 0); try { H.N(18, "x", x); return H.R(__mt$f, H.X(17, H.m3(15, React, H.M(16, React, "createElement"), "li", H.T(14, { key: x }), x))) } finally { H.Fr(20, __mt$f); } })))));
} finally { H.Fr(30, __mt$f); } }
const tree = /* @__PURE__ */ H.X(36, H.N(35, "tree@", H.m2(33, React, H.M(34, React, "createElement"), List, H.T(32, { title: "t", items: H.T(31, ["a", "b"]) }))));
H.X(43, H.m1(41, __mt$1 = console, H.M(42, __mt$1, "log"), H.m1(39, __mt$2 = JSON, H.M(40, __mt$2, "stringify"), H.c1(38, List, H.G5(37, tree).p)))); 
} finally { H.Sx(); }