// goal: commonjs
"use strict";const H = __mt.S("commonjs.cjs.js", "GcAeFCOCEcAeC6BAgBAAAaAPAuBArBA8CAAA8CAAA8CCkBAUAjBA2BAAA4BCaAoBA6BAcAAAqBAzCA+DAAAWAAAgECKAYAJAiDA6BAmBAAAWAAAoBHCA8CHCOCAAOCAAOC", {8:["path@"]}, 26, 27, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ var __mt$1; try { H.N(25, "helper@", H.F(24, 8, helper)); 
const path = H.X(3, H.N(2, "path@", H.c1(1, require, "path")));
function helper(x) {const __mt$f = H.Fe(8, helper, this, new.target); try { H.N(7, "x", x);  return H.Rx(__mt$f, 6, H.m1(4, path, H.M2(5, path, path.basename), x)) } finally { H.Fr(9, __mt$f); } }
H.P29(11, module, "exports", H.T(10, { helper }), 3), H.p[0] || H.X(12);
H.m2(16, __mt$1 = console, H.M10(17, __mt$1, __mt$1.log), H.c1(13, helper, "/a/b/c.txt"), typeof H.G28(15, H.G29(14, module).exports).helper), H.p[0] || H.X(18);
if (((H.G4(19, require).main === module) ? H.p[0] || H.X(20, 1) : !H.p[0] && H.X(20, 0))) H.m1(21, __mt$1 = console, H.M10(22, __mt$1, __mt$1.log), "main"), H.p[0] || H.X(23);

} finally { H.Sx(); }