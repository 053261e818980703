var H = __mt$h(); function __mt$h() { return H || (H = __mt.S("esm.mts", "I4CASHCWCG4CASE4BAcARAwBDQIECoBAwBCGAoBAAAWAAAqBCGASHQIEAAIEAAIEKCAiBAAAkBCiBAcAAAYAJAmBAAA0BAAAwBAZAuCAAAWAAAwCVCWCIQIEJCWCAAWCAAWC", {13:["basename@","entries@"]}, 28, 29, 0, (s, o) => import(s, o))); } /* node-do-not-add-exception-line */ var __mt$1, __mt$2; try { H.N(25, "basename@", basename); } catch (__mt$e) {} H.N(27, "add@", H.F(26, 13, add)); 
import { basename } from "node:path";

export const entries = /* @__PURE__ */ H.X(3, H.N(2, "entries@", H.n0(1, Map)));
export function add(path) {const __mt$f = (H || __mt$h()).Fe(13, add, this, new.target); try { H.N(12, "path", path); 
  const e = H.X(7, H.N(6, "e", H.T(5, { name: H.c1(4, basename, path) })));
  H.m2(8, entries, H.M9(9, entries, entries.set), path, e), H.p[0] || H.X(10);
  return H.Rx(__mt$f, 11, e);
} finally { H.Fr(14, __mt$f); } }
H.c1(15, add, "/tmp/a.txt"), H.p[0] || H.X(16);
H.m1(22, __mt$1 = console, H.M10(23, __mt$1, __mt$1.log), H.m0(20, __mt$2 = H.T(19, [...H.m0(17, entries, H.M19(18, entries, entries.keys))]), H.M21(21, __mt$2, __mt$2.join))), H.p[0] || H.X(24); 
;H.Sx();