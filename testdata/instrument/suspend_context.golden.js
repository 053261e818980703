// The function's own context in generators and async functions: bindings
// that nested functions capture stay in the first context (a resume
// function, Fg's last argument); those declared after the first
// suspension are declared at entry and written by Nw where their
// declarations run (let, const, destructuring, class, block functions).
"use strict";const __mt$d652f624 = __mt.S("suspend_context.js", "OqBAkBAAAeAAAkBAPAyBAAAyBAAAyBAAAyBNC+ECMcAyBGWAQDCOECWAQCsBAGAAAOANAaAAAaAAAaFCOEEgBAaCkBAMHCOEGkBAMCSAMANAYAAAaCOAQAAAQAJAaCyBAMAtBA6BNCOEAAOEAAOEAAOEUSAMANAYAAAaCaAQFCYEEaAQFCYEI0BAcJCYEAAYEIcAOC8BAGAUAMAjBAwBALA+BAAA+BAfAgDAAAgDLCYEOwBASAnBA8BAAA8BCKAQCWAMANAYAAAaCYAOAAASAYAOAnBA2BHKA8BPCYEAAYEAAYEAAYEAAYEAAYEAAYEAAYEkBeAEDecECeAEDecEEcAICqBAIANAUAAAUAAAUHecEGeAUC2BASAAAUAWASAAAUAnCA+CAAA+CJecEKGOIAsBAKAAAKAtBOIAAOICoBAKANAWAAAWAAAWATAqBAAAQAAAsBNecEOKIMAgBAMCiBAKRecEQiBAKCaAMANAYAAAaCcACAPASLGOIQyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAsCAKAAAOA7CAqDbecEIGA+CJecEAAcEAAcEAAcEAAcElCC+ECkCecEiBCSECWACCsBACANAOAAAOAAAOFCSEEgBAOCGGICKAUAAAWCKAILCSEOeAMCeASANAeAAAeAAAeANAqBAAAsBRCSEAASEAASEAASEYCKECWACCSAMANAYAAAaFCKEGaACCeAOAZAqBJCKEAAKEAAKEAAKEQqBAWANAiBAZA8BAAAWAAA+BCqBAMANAYAZAyBAAAWAAA0BCqBAUANAgBAZA6BAAAWAAA8BCkBASAJAcJCOEIcAcC6BAGAAAGAPAUAAAUAAAUAAAUAPAkBAAAMAAA4BAAAuBAZAyCAAAWAAA0CCqBAOANAaAZA0BAAAWAAA2BNCOEAAOEQCAMAyCASArBA+BAAAWAAA+BAPAsCAAAsCAAAsCAAAsCAbAoDAAAYAAAqDtECOERC+ECiBCYEjBC+ECmDCSEnDC+EC+DCKE/DC+ECsECOEtEC+ECAA+ECAA+EC", {5:["Promise"],15:["x","p"],34:["~resume~","p","x"],32:["tick"],49:["a","c","rest"],51:[],55:["b"],73:["~resume~","a","b","c","rest"],67:["tick"],80:["last"],89:[],98:["s","q"],119:[],134:["~resume~","q","last"],132:["tick"],141:["n"],153:["after","n"],161:["~resume~","n","after"],158:[],174:["~resume~","v","w"],171:["tick","eval","v","w"],197:[],212:["console","rewrite","late","arrow","counter","evals"],220:["console"]}, 236, 237); var __mt$d652f624_1; __mt$d652f624.N(227, "rewrite", __mt$d652f624.F(226, 32, rewrite)); __mt$d652f624.N(229, "late", __mt$d652f624.F(228, 67, late)); __mt$d652f624.N(231, "counter", __mt$d652f624.F(230, 158, counter)); __mt$d652f624.N(233, "evals", __mt$d652f624.F(232, 171, evals)); __mt$d652f624.N(235, "main", __mt$d652f624.F(234, 212, main)); 
const tick = __mt$d652f624.X(9, __mt$d652f624.N(8, "tick", __mt$d652f624.F(7, 5, {"tick": (v) => { const __mt$f = __mt$d652f624.Fe(5, void 0); var __mt$1; try { __mt$d652f624.N(4, "v", v); return __mt$d652f624.R(__mt$f, __mt$d652f624.X(3, __mt$d652f624.m1(1, __mt$1 = Promise, __mt$d652f624.M(2, __mt$1, "resolve"), v))) } finally { __mt$d652f624.Fr(6, __mt$f); } }}["tick"])));

async function rewrite(p) {const __mt$f = __mt$d652f624.Fg(32, rewrite, this, new.target, 34); try { __mt$d652f624.N(31, "p", p); 
  let x = __mt$d652f624.X(12, __mt$d652f624.N(11, "x", __mt$d652f624.T(10, { v: 1 })));
  const peek = __mt$d652f624.X(19, __mt$d652f624.N(18, "peek", __mt$d652f624.F(17, 15, {"peek": () => { const __mt$f = __mt$d652f624.Fe(15, void 0); try { return __mt$d652f624.R(__mt$f, __mt$d652f624.X(14, __mt$d652f624.G13(13, x).v + p)) } finally { __mt$d652f624.Fr(16, __mt$f); } }}["peek"])));
  const before = __mt$d652f624.X(22, __mt$d652f624.N(21, "before", __mt$d652f624.c0(20, peek)));
  __mt$d652f624.X(25, __mt$d652f624.Y(24, __mt$f, await __mt$d652f624.Ys(24, __mt$f, __mt$d652f624.c0(23, tick), "peek", peek, "before", before), "peek", peek, "before", before));
  __mt$d652f624.X(28, x = __mt$d652f624.W(27, "x", __mt$d652f624.T(26, { v: 2 }), x));
  return __mt$d652f624.R(__mt$f, __mt$d652f624.X(30, before + ":" + __mt$d652f624.c0(29, peek)));
} finally { __mt$d652f624.Fx(33, __mt$f); } }

async function late() {const __mt$f = __mt$d652f624.Fg(67, late, this, new.target, 73); try { __mt$d652f624.N(69, "a", void 0); __mt$d652f624.N(70, "b", void 0); __mt$d652f624.N(71, "c", void 0); __mt$d652f624.N(72, "rest", void 0); 
  __mt$d652f624.X(37, __mt$d652f624.Y(36, __mt$f, await __mt$d652f624.Ys(36, __mt$f, __mt$d652f624.c0(35, tick))));
  const a = __mt$d652f624.X(40, __mt$d652f624.Nw(39, "a", __mt$d652f624.T(38, { n: 1 })));
  let b = __mt$d652f624.Nw(41, "b", void 0);
  const { c, ...rest } = __mt$d652f624.T(42, { c: 3, d: 4 }), __mt$d652f624_d1 = (__mt$d652f624.Nw(43, "c", c), __mt$d652f624.Nw(44, "rest", __mt$d652f624.T(45, rest)), 0);
  let K = __mt$d652f624.N(53, "K", __mt$d652f624.F(52, -51, class K { get n() {const __mt$f = __mt$d652f624.Fe(49, void 0, this, new.target); try {  return __mt$d652f624.R(__mt$f, __mt$d652f624.X(48, __mt$d652f624.G14(46, a).n + c + __mt$d652f624.G15(47, rest).d)); } finally { __mt$d652f624.Fr(50, __mt$f); } } }, void 0, "n", 1, 49));
  {__mt$d652f624.N(66, "inner", __mt$d652f624.F(65, 55, inner)); 
    function inner() {const __mt$f = __mt$d652f624.Fe(55, inner, this, new.target); try {  return __mt$d652f624.R(__mt$f, __mt$d652f624.X(54, b)); } finally { __mt$d652f624.Fr(56, __mt$f); } }
    __mt$d652f624.X(57, b = "b");
    __mt$d652f624.X(60, __mt$d652f624.Y(59, __mt$f, await __mt$d652f624.Ys(59, __mt$f, __mt$d652f624.c0(58, tick), "inner", inner), "inner", inner));
    return __mt$d652f624.R(__mt$f, __mt$d652f624.X(64, __mt$d652f624.G30(62, __mt$d652f624.n0(61, K)).n + __mt$d652f624.c0(63, inner)));
  }
} finally { __mt$d652f624.Fx(68, __mt$f); } }

// An async arrow with a captured parameter, a for await loop whose
// binding a closure captures (copied per iteration, not in the first
// context) and a captured binding written inside a suspending loop.
const arrow = __mt$d652f624.X(137, __mt$d652f624.N(136, "arrow", __mt$d652f624.F(135, 132, {"arrow": async (q) => {const __mt$f = __mt$d652f624.Fg(132, void 0, void 0, void 0, 134); var __mt$1; try { __mt$d652f624.N(129, "q", q); __mt$d652f624.N(131, "src", __mt$d652f624.F(130, 89, src)); 
  const fns = __mt$d652f624.X(76, __mt$d652f624.N(75, "fns", __mt$d652f624.T(74, [])));
  let last = __mt$d652f624.X(78, __mt$d652f624.N(77, "last", null));
  const get = __mt$d652f624.X(84, __mt$d652f624.N(83, "get", __mt$d652f624.F(82, 80, {"get": () => { const __mt$f = __mt$d652f624.Fe(80, void 0); try { return __mt$d652f624.R(__mt$f, __mt$d652f624.X(79, last)) } finally { __mt$d652f624.Fr(81, __mt$f); } }}["get"])));
  async function* src() {const __mt$f = __mt$d652f624.Fg(89, src, this, new.target); try {  __mt$d652f624.X(86, __mt$d652f624.Y(85, __mt$f, yield __mt$d652f624.Yv(85, __mt$f, "x"))); __mt$d652f624.X(88, __mt$d652f624.Y(87, __mt$f, yield __mt$d652f624.Yv(87, __mt$f, "y"))); } finally { __mt$d652f624.Fx(90, __mt$f); } }
  { for await (const s of __mt$d652f624.Ys(94, __mt$f, __mt$d652f624.c0(93, src), "fns", fns, "get", get, "src", src)) { __mt$d652f624.Y(95, __mt$f, void 0, "s", s, "fns", fns, "get", get, "src", src); try { { __mt$d652f624.N(91, "s", s); __mt$d652f624.X(92); {
    __mt$d652f624.X(103, __mt$d652f624.m1(101, fns, __mt$d652f624.M(102, fns, "push"), __mt$d652f624.F(100, 98, () => { const __mt$f = __mt$d652f624.Fe(98, void 0); try { return __mt$d652f624.R(__mt$f, __mt$d652f624.X(97, s + q)) } finally { __mt$d652f624.Fr(99, __mt$f); } })));
    for (const k of __mt$d652f624.T(106, [1, 2])) { __mt$d652f624.N(104, "k", k); __mt$d652f624.X(105); {
      const o = __mt$d652f624.X(109, __mt$d652f624.N(108, "o", __mt$d652f624.T(107, { k })));
      __mt$d652f624.X(112, __mt$d652f624.Y(111, __mt$f, await __mt$d652f624.Ys(111, __mt$f, __mt$d652f624.c0(110, tick), "o", o, "k", k, "s", s, "fns", fns, "get", get, "src", src), "o", o, "k", k, "s", s, "fns", fns, "get", get, "src", src));
      __mt$d652f624.X(114, last = __mt$d652f624.W(113, "last", o, last));
    } }
  } } } finally { __mt$d652f624.Ys(96, __mt$f, void 0, "s", s, "fns", fns, "get", get, "src", src); } } __mt$d652f624.Y(115, __mt$f, void 0, "fns", fns, "get", get, "src", src); }
  return __mt$d652f624.R(__mt$f, __mt$d652f624.X(128, __mt$d652f624.m1(124, __mt$1 = __mt$d652f624.m1(122, fns, __mt$d652f624.M(123, fns, "map"), __mt$d652f624.F(121, 119, (f) => { const __mt$f = __mt$d652f624.Fe(119, void 0); try { __mt$d652f624.N(118, "f", f); return __mt$d652f624.R(__mt$f, __mt$d652f624.X(117, __mt$d652f624.c0(116, f))) } finally { __mt$d652f624.Fr(120, __mt$f); } })), __mt$d652f624.M(125, __mt$1, "join"), ",") + " " + __mt$d652f624.G31(127, __mt$d652f624.c0(126, get)).k));
} finally { __mt$d652f624.Fx(133, __mt$f); } }}["arrow"])));

// A generator whose closure, made before a yield, sees a later write.
function* counter() {const __mt$f = __mt$d652f624.Fg(158, counter, this, new.target, 161); try { __mt$d652f624.N(160, "after", void 0); 
  let n = __mt$d652f624.X(139, __mt$d652f624.N(138, "n", 0));
  const read = __mt$d652f624.X(145, __mt$d652f624.N(144, "read", __mt$d652f624.F(143, 141, {"read": () => { const __mt$f = __mt$d652f624.Fe(141, void 0); try { return __mt$d652f624.R(__mt$f, __mt$d652f624.X(140, n)) } finally { __mt$d652f624.Fr(142, __mt$f); } }}["read"])));
  while (__mt$d652f624.X(146, n < 3)) {
    __mt$d652f624.X(148, __mt$d652f624.Y(147, __mt$f, yield __mt$d652f624.Yv(147, __mt$f, read, "read", read), "read", read));
    __mt$d652f624.X(149, n++);
  }
  let after = __mt$d652f624.X(151, __mt$d652f624.Nw(150, "after", "done"));
  __mt$d652f624.X(157, __mt$d652f624.Y(156, __mt$f, yield __mt$d652f624.Yv(156, __mt$f, __mt$d652f624.F(155, 153, () => { const __mt$f = __mt$d652f624.Fe(153, void 0); try { return __mt$d652f624.R(__mt$f, __mt$d652f624.X(152, after + n)) } finally { __mt$d652f624.Fr(154, __mt$f); } }), "read", read), "read", read));
} finally { __mt$d652f624.Fx(159, __mt$f); } }

// Direct eval: every binding of the function stays in its first context.
async function evals() {const __mt$f = __mt$d652f624.Fg(171, evals, this, new.target, 174); try { __mt$d652f624.N(173, "w", void 0); 
  let v = __mt$d652f624.X(163, __mt$d652f624.N(162, "v", 1));
  __mt$d652f624.X(166, __mt$d652f624.Y(165, __mt$f, await __mt$d652f624.Ys(165, __mt$f, __mt$d652f624.c0(164, tick))));
  const w = __mt$d652f624.X(168, __mt$d652f624.Nw(167, "w", 2));
  return __mt$d652f624.R(__mt$f, __mt$d652f624.X(170, eval(__mt$d652f624.E(169, "v + w", 1))));
} finally { __mt$d652f624.Fx(172, __mt$f); } }

async function main() {const __mt$f = __mt$d652f624.Fg(212, main, this, new.target); var __mt$1, __mt$2; try { 
  __mt$d652f624.X(179, __mt$d652f624.m1(177, __mt$1 = console, __mt$d652f624.M(178, __mt$1, "log"), __mt$d652f624.Y(176, __mt$f, await __mt$d652f624.Ys(176, __mt$f, __mt$d652f624.c1(175, rewrite, 10)))));
  __mt$d652f624.X(184, __mt$d652f624.m1(182, __mt$1 = console, __mt$d652f624.M(183, __mt$1, "log"), __mt$d652f624.Y(181, __mt$f, await __mt$d652f624.Ys(181, __mt$f, __mt$d652f624.c0(180, late)))));
  __mt$d652f624.X(189, __mt$d652f624.m1(187, __mt$1 = console, __mt$d652f624.M(188, __mt$1, "log"), __mt$d652f624.Y(186, __mt$f, await __mt$d652f624.Ys(186, __mt$f, __mt$d652f624.c1(185, arrow, "!")))));
  const fs = __mt$d652f624.X(193, __mt$d652f624.N(192, "fs", __mt$d652f624.T(191, [...__mt$d652f624.c0(190, counter)])));
  __mt$d652f624.X(206, __mt$d652f624.m1(204, __mt$1 = console, __mt$d652f624.M(205, __mt$1, "log"), __mt$d652f624.m1(202, __mt$2 = __mt$d652f624.m1(200, fs, __mt$d652f624.M(201, fs, "map"), __mt$d652f624.F(199, 197, (f) => { const __mt$f = __mt$d652f624.Fe(197, void 0); try { __mt$d652f624.N(196, "f", f); return __mt$d652f624.R(__mt$f, __mt$d652f624.X(195, __mt$d652f624.c0(194, f))) } finally { __mt$d652f624.Fr(198, __mt$f); } })), __mt$d652f624.M(203, __mt$2, "join"), ",")));
  __mt$d652f624.X(211, __mt$d652f624.m1(209, __mt$1 = console, __mt$d652f624.M(210, __mt$1, "log"), __mt$d652f624.Y(208, __mt$f, await __mt$d652f624.Ys(208, __mt$f, __mt$d652f624.c0(207, evals), "fs", fs), "fs", fs)));
} finally { __mt$d652f624.Fx(213, __mt$f); } }
__mt$d652f624.X(225, __mt$d652f624.m1(223, __mt$d652f624_1 = __mt$d652f624.c0(214, main), __mt$d652f624.M(224, __mt$d652f624_1, "catch"), __mt$d652f624.F(222, 220, (e) => { const __mt$f = __mt$d652f624.Fe(220, void 0); var __mt$1; try { __mt$d652f624.N(219, "e", e); return __mt$d652f624.R(__mt$f, __mt$d652f624.X(218, __mt$d652f624.m2(216, __mt$1 = console, __mt$d652f624.M(217, __mt$1, "log"), "error", __mt$d652f624.G23(215, e).message))) } finally { __mt$d652f624.Fr(221, __mt$f); } })));

;__mt$d652f624.Sx();