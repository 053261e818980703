// The function's own context in generators and async functions: bindings
// that nested functions capture stay in the first context (a resume
// function, Fg's last argument); those declared after the first
// suspension are declared at entry and written by Nw where their
// declarations run (let, const, destructuring, class, block functions).
"use strict";__mt.Sg("__mt$37545756", 1, 0, "suspend_context.js", "OqBAkBAAAeAAAkBAPAyBAAAyBAAAyBAAAyBNC+ECMcAyBGWAQDCOECWAQCsBAGAAAOANAaAAAaAAAaFCOEEgBAaCkBAMHCOEGkBAMCSAMANAYAAAaCOAQAAAQAJAaCyBAMAtBA6BNCOEAAOEAAOEAAOEUSAMANAYAAAaCaAQFCYEEaAQFCYEI0BAcJCYEAAYEIcAOC8BAGAUAMAjBAwBALA+BAAA+BAfAgDAAAgDLCYEOwBASAnBA8BAAA8BCKAQCWAMANAYAAAaCYAOAAASAYAOAnBA2BHKA8BPCYEAAYEAAYEAAYEAAYEAAYEAAYEAAYEkBeAEDecECeAEDecEEcAICqBAIANAUAAAUAAAUHecEGeAUC2BASAAAUAWASAAAUAnCA+CAAA+CJecEKGOIAsBAKAAAKAtBOIAAOICoBAKANAWAAAWAAAWATAqBAAAQAAAsBNecEOKIMAgBAMCiBAKRecEQiBAKCaAMANAYAAAaCcACAPASLGOIQyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAsCAKAAAOA7CAqDbecEIGA+CJecEAAcEAAcEAAcEAAcElCC+ECkCecEiBCSECWACCsBACANAOAAAOAAAOFCSEEgBAOCGGICKAUAAAWCKAILCSEOeAMCeASANAeAAAeAAAeANAqBAAAsBRCSEAASEAASEAASEYCKECWACCSAMANAYAAAaFCKEGaACCeAOAZAqBJCKEAAKEAAKEAAKEQqBAWANAiBAZA8BAAAWAAA+BCqBAMANAYAZAyBAAAWAAA0BCqBAUANAgBAZA6BAAAWAAA8BCkBASAJAcJCOEIcAcC6BAGAAAGAPAUAAAUAAAUAAAUAPAkBAAAMAAA4BAAAuBAZAyCAAAWAAA0CCqBAOANAaAZA0BAAAWAAA2BNCOEAAOEQCAMAyCASArBA+BAAAWAAA+BAPAsCAAAsCAAAsCAAAsCAbAoDAAAYAAAqDtECOERC+ECiBCYEjBC+ECmDCSEnDC+EC+DCKE/DC+ECsECOEtEC+ECAA+ECAA+EC", {5:["~noproto~","Promise"],15:["~noproto~","x","p"],34:["~resume~","p","x"],32:["~noproto~","tick"],49:["~noproto~","a","c","rest"],51:[],55:["b"],73:["~resume~","a","b","c","rest"],67:["~noproto~","tick"],80:["~noproto~","last"],89:[],98:["~noproto~","s","q"],119:["~noproto~"],134:["~resume~","q","last"],132:["~noproto~","tick"],141:["~noproto~","n"],153:["~noproto~","after","n"],161:["~resume~","n","after"],158:[],174:["~resume~","v","w"],171:["~noproto~","tick","eval","v","w"],197:["~noproto~"],212:["~noproto~","console","rewrite","late","arrow","counter","evals"],220:["~noproto~","console"]}, 236, 237, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$37545756.N(227, "rewrite", __mt$37545756.F(226, 32, rewrite)); __mt$37545756.N(229, "late", __mt$37545756.F(228, 67, late)); __mt$37545756.N(231, "counter", __mt$37545756.F(230, 158, counter)); __mt$37545756.N(233, "evals", __mt$37545756.F(232, 171, evals)); __mt$37545756.N(235, "main", __mt$37545756.F(234, 212, main)); 
const tick = __mt$37545756.X(9, __mt$37545756.N(8, "tick", __mt$37545756.F(7, 5, {"tick": (v) => { const H = __mt$37545756, __mt$f = H.Fe(5, void 0); var __mt$1; try { H.N(4, "v", v); return H.Rx(__mt$f, 3, H.m1(1, __mt$1 = Promise, H.M2(2, __mt$1, __mt$1.resolve), v)) } finally { H.Fr(6, __mt$f); } }}["tick"])));

async function rewrite(p) {const H = __mt$37545756, __mt$f = H.Fg(32, rewrite, this, new.target, 34); try { H.N(31, "p", p); 
  let x = H.X(12, H.N(11, "x", H.T(10, { v: 1 })));
  const peek = H.X(19, H.N(18, "peek", H.F(17, 15, {"peek": () => { const __mt$f = H.Fe(15, void 0); try { return H.Rx(__mt$f, 14, H.G5(13, x).v + p) } finally { H.Fr(16, __mt$f); } }}["peek"])));
  const before = H.X(22, H.N(21, "before", H.c0(20, peek)));
  H.Y(24, __mt$f, await H.Ys(24, __mt$f, H.c0(23, tick), "peek", peek, "before", before), "peek", peek, "before", before), H.p[0] || H.X(25);
  x = H.W(27, "x", H.T(26, { v: 2 }), x), H.p[0] || H.X(28);
  return H.Rx(__mt$f, 30, before + ":" + H.c0(29, peek));
} finally { H.Fx(33, __mt$f); } }

async function late() {const H = __mt$37545756, __mt$f = H.Fg(67, late, this, new.target, 73); try { H.N(69, "a", void 0); H.N(70, "b", void 0); H.N(71, "c", void 0); H.N(72, "rest", void 0); 
  H.Y(36, __mt$f, await H.Ys(36, __mt$f, H.c0(35, tick))), H.p[0] || H.X(37);
  const a = H.X(40, H.Nw(39, "a", H.T(38, { n: 1 })));
  let b = H.Nw(41, "b", void 0);
  const { c, ...rest } = H.T(42, { c: 3, d: 4 }), __mt$37545756_d1 = (H.Nw(43, "c", c), H.Nw(44, "rest", H.T(45, rest)), 0);
  let K = H.N(53, "K", H.F(52, -51, class K { get n() {const __mt$f = H.Fe(49, void 0, this, new.target); try {  return H.Rx(__mt$f, 48, H.G4(46, a).n + c + H.G21(47, rest).d); } finally { H.Fr(50, __mt$f); } } }, void 0, "n", 1, 49));
  {H.N(66, "inner", H.F(65, 55, inner)); 
    function inner() {const __mt$f = H.Fe(55, inner, this, new.target); try {  return H.Rx(__mt$f, 54, b); } finally { H.Fr(56, __mt$f); } }
    b = "b", H.p[0] || H.X(57);
    H.Y(59, __mt$f, await H.Ys(59, __mt$f, H.c0(58, tick), "inner", inner), "inner", inner), H.p[0] || H.X(60);
    return H.Rx(__mt$f, 64, H.G30(62, H.n0(61, K)).n + H.c0(63, inner));
  }
} finally { H.Fx(68, __mt$f); } }

// An async arrow with a captured parameter, a for await loop whose
// binding a closure captures (copied per iteration, not in the first
// context) and a captured binding written inside a suspending loop.
const arrow = __mt$37545756.X(137, __mt$37545756.N(136, "arrow", __mt$37545756.F(135, 132, {"arrow": async (q) => {const H = __mt$37545756, __mt$f = H.Fg(132, void 0, void 0, void 0, 134); var __mt$1; try { H.N(129, "q", q); H.N(131, "src", H.F(130, 89, src)); 
  const fns = H.X(76, H.N(75, "fns", H.T(74, [])));
  let last = H.X(78, H.N(77, "last", null));
  const get = H.X(84, H.N(83, "get", H.F(82, 80, {"get": () => { const __mt$f = H.Fe(80, void 0); try { return H.Rx(__mt$f, 79, last) } finally { H.Fr(81, __mt$f); } }}["get"])));
  async function* src() {const __mt$f = H.Fg(89, src, this, new.target); try {  H.Y(85, __mt$f, yield H.Yv(85, __mt$f, "x")), H.p[0] || H.X(86); H.Y(87, __mt$f, yield H.Yv(87, __mt$f, "y")), H.p[0] || H.X(88); } finally { H.Fx(90, __mt$f); } }
  { for await (const s of H.Ys(94, __mt$f, H.c0(93, src), "fns", fns, "get", get, "src", src)) { H.Y(95, __mt$f, void 0, "s", s, "fns", fns, "get", get, "src", src); try { { H.N(91, "s", s); H.X(92); {
    H.m1(101, fns, H.M18(102, fns, fns.push), H.F(100, 98, () => { const __mt$f = H.Fe(98, void 0); try { return H.Rx(__mt$f, 97, s + q) } finally { H.Fr(99, __mt$f); } })), H.p[0] || H.X(103);
    for (const k of H.T(106, [1, 2])) { H.N(104, "k", k); H.X(105); {
      const o = H.X(109, H.N(108, "o", H.T(107, { k })));
      H.Y(111, __mt$f, await H.Ys(111, __mt$f, H.c0(110, tick), "o", o, "k", k, "s", s, "fns", fns, "get", get, "src", src), "o", o, "k", k, "s", s, "fns", fns, "get", get, "src", src), H.p[0] || H.X(112);
      last = H.W(113, "last", o, last), H.p[0] || H.X(114);
    } }
  } } } finally { H.Ys(96, __mt$f, void 0, "s", s, "fns", fns, "get", get, "src", src); } } H.Y(115, __mt$f, void 0, "fns", fns, "get", get, "src", src); }
  return H.Rx(__mt$f, 128, H.m1(124, __mt$1 = H.m1(122, fns, H.M18(123, fns, fns.map), H.F(121, 119, (f) => { const __mt$f = H.Fe(119, void 0); try { H.N(118, "f", f); return H.Rx(__mt$f, 117, H.c0(116, f)) } finally { H.Fr(120, __mt$f); } })), H.M29(125, __mt$1, __mt$1.join), ",") + " " + H.G31(127, H.c0(126, get)).k);
} finally { H.Fx(133, __mt$f); } }}["arrow"])));

// A generator whose closure, made before a yield, sees a later write.
function* counter() {const H = __mt$37545756, __mt$f = H.Fg(158, counter, this, new.target, 161); try { H.N(160, "after", void 0); 
  let n = H.X(139, H.N(138, "n", 0));
  const read = H.X(145, H.N(144, "read", H.F(143, 141, {"read": () => { const __mt$f = H.Fe(141, void 0); try { return H.Rx(__mt$f, 140, n) } finally { H.Fr(142, __mt$f); } }}["read"])));
  while (((n < 3) ? H.p[0] || H.X(146, 1) : !H.p[0] && H.X(146, 0))) {
    H.Y(147, __mt$f, yield H.Yv(147, __mt$f, read, "read", read), "read", read), H.p[0] || H.X(148);
    n++, H.p[0] || H.X(149);
  }
  let after = H.X(151, H.Nw(150, "after", "done"));
  H.Y(156, __mt$f, yield H.Yv(156, __mt$f, H.F(155, 153, () => { const __mt$f = H.Fe(153, void 0); try { return H.Rx(__mt$f, 152, after + n) } finally { H.Fr(154, __mt$f); } }), "read", read), "read", read), H.p[0] || H.X(157);
} finally { H.Fx(159, __mt$f); } }

// Direct eval: every binding of the function stays in its first context.
async function evals() {const __mt$f = __mt$37545756.Fg(171, evals, this, new.target, 174); try { __mt$37545756.N(173, "w", void 0); 
  let v = __mt$37545756.X(163, __mt$37545756.N(162, "v", 1));
  __mt$37545756.Y(165, __mt$f, await __mt$37545756.Ys(165, __mt$f, __mt$37545756.c0(164, tick))), __mt$37545756.p[0] || __mt$37545756.X(166);
  const w = __mt$37545756.X(168, __mt$37545756.Nw(167, "w", 2));
  return __mt$37545756.Rx(__mt$f, 170, eval(__mt$37545756.E(169, "v + w", 1, eval)));
} finally { __mt$37545756.Fx(172, __mt$f); } }

async function main() {const H = __mt$37545756, __mt$f = H.Fg(212, main, this, new.target); var __mt$1, __mt$2; try { 
  H.m1(177, __mt$1 = console, H.M10(178, __mt$1, __mt$1.log), H.Y(176, __mt$f, await H.Ys(176, __mt$f, H.c1(175, rewrite, 10)))), H.p[0] || H.X(179);
  H.m1(182, __mt$1 = console, H.M10(183, __mt$1, __mt$1.log), H.Y(181, __mt$f, await H.Ys(181, __mt$f, H.c0(180, late)))), H.p[0] || H.X(184);
  H.m1(187, __mt$1 = console, H.M10(188, __mt$1, __mt$1.log), H.Y(186, __mt$f, await H.Ys(186, __mt$f, H.c1(185, arrow, "!")))), H.p[0] || H.X(189);
  const fs = H.X(193, H.N(192, "fs", H.T(191, [...H.c0(190, counter)])));
  H.m1(204, __mt$1 = console, H.M10(205, __mt$1, __mt$1.log), H.m1(202, __mt$2 = H.m1(200, fs, H.M30(201, fs, fs.map), H.F(199, 197, (f) => { const __mt$f = H.Fe(197, void 0); try { H.N(196, "f", f); return H.Rx(__mt$f, 195, H.c0(194, f)) } finally { H.Fr(198, __mt$f); } })), H.M11(203, __mt$2, __mt$2.join), ",")), H.p[0] || H.X(206);
  H.m1(209, __mt$1 = console, H.M10(210, __mt$1, __mt$1.log), H.Y(208, __mt$f, await H.Ys(208, __mt$f, H.c0(207, evals), "fs", fs), "fs", fs)), H.p[0] || H.X(211);
} finally { H.Fx(213, __mt$f); } }
__mt$37545756.X(225, __mt$37545756.m1(223, __mt$37545756_1 = __mt$37545756.c0(214, main), __mt$37545756.M0(224, __mt$37545756_1, __mt$37545756_1.catch), __mt$37545756.F(222, 220, (e) => { const H = __mt$37545756, __mt$f = H.Fe(220, void 0); var __mt$1; try { H.N(219, "e", e); return H.Rx(__mt$f, 218, H.m2(216, __mt$1 = console, H.M10(217, __mt$1, __mt$1.log), "error", H.G0(215, e).message)) } finally { H.Fr(221, __mt$f); } })));

;__mt$37545756.Sx();