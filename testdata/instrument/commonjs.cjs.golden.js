// goal: commonjs
"use strict";const __mt$ = __mt.S("commonjs.cjs.js", "GcAeFCOCEcAeC6BAgBAAAaAPAuBArBA8CAAA8CAAA8CCkBAUAjBA2BAAA4BCaAoBA6BAcAAAqBAzCA+DAAAWAAAgECKAYAJAiDA6BAmBAAAWAAAoBHCA8CHCOCAAOCAAOC", {8:["path@"]}, 26, 27); var __mt$1; try { __mt$.N(25, "helper@", __mt$.F(24, 8, helper)); 
const path = __mt$.X(3, __mt$.N(2, "path@", __mt$.c1(1, require, "path")));
function helper(x) {const __mt$f = __mt$.Fe(8, helper, this, new.target); try { __mt$.N(7, "x", x);  return __mt$.R(__mt$f, __mt$.X(6, __mt$.m1(4, path, __mt$.M(5, path, "basename"), x))) } finally { __mt$.Fr(9, __mt$f); } }
__mt$.X(12, __mt$.P11(11, module, "exports", __mt$.T(10, { helper }), 3));
__mt$.X(18, __mt$.m2(16, __mt$1 = console, __mt$.M(17, __mt$1, "log"), __mt$.c1(13, helper, "/a/b/c.txt"), typeof __mt$.G15(15, __mt$.G14(14, module).exports).helper));
if (__mt$.X(20, __mt$.G19(19, require).main === module)) __mt$.X(23, __mt$.m1(21, __mt$1 = console, __mt$.M(22, __mt$1, "log"), "main"));

} finally { __mt$.Sx(); }