const __mt$ = __mt.S("esm.mts", "I4CASHCWCG4CASE4BAcARAwBDQIECoBAwBCGAoBAAAWAAAqBCGASHQIEAAIEAAIEKCAiBAAAkBCiBAcAAAYAJAmBAAA0BAAAwBAZAuCAAAWAAAwCVCWCIQIEJCWCAAWCAAWC", {13:["basename@","entries@"]}, 28, 29); var __mt$1, __mt$2; try { __mt$.N(25, "basename@", basename); } catch (__mt$e) {} __mt$.N(27, "add@", __mt$.F(26, 13, add)); import { basename } from "node:path";
export const entries = /* @__PURE__ */ __mt$.X(3, __mt$.N(2, "entries@", __mt$.n0(1, Map)));
export function add(path) {const __mt$f = __mt$.Fe(13, add, this, new.target); try { __mt$.N(12, "path", path); 
  const e = __mt$.X(7, __mt$.N(6, "e", __mt$.T(5, { name: __mt$.c1(4, basename, path) })));
  __mt$.X(10, __mt$.m2(8, entries, __mt$.M(9, entries, "set"), path, e));
  return __mt$.R(__mt$f, __mt$.X(11, e));
} finally { __mt$.Fr(14, __mt$f); } }
__mt$.X(16, __mt$.c1(15, add, "/tmp/a.txt"));
__mt$.X(24, __mt$.m1(22, __mt$1 = console, __mt$.M(23, __mt$1, "log"), __mt$.m0(20, __mt$2 = __mt$.T(19, [...__mt$.m0(17, entries, __mt$.M(18, entries, "keys"))]), __mt$.M(21, __mt$2, "join"))));

;__mt$.Sx();