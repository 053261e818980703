// Per-iteration scopes in generators and async functions: loops that
// suspend (Iy/Iz, and Y naming the open iterations), loops that do not
// (Il/Ie/Ix), a yielded fresh closure (Yv), nested loops left by a
// rejected await, a suspension in a loop's test only.
"use strict";__mt.Sg("__mt$95a94897", 0, 0, "loops_suspend.js", "MqBAkBAAAeAAAkBAPAyBAAAyBAAAyBAAAyBLC+ECKcAyBGeAEDCQECeAEDCQEEGIIAgBASAWIICeAKHCQEGeAKCWAMANAYAAAaCoBAGAAAGANASAAASAAASATAmBAAAQAAAoBEyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCPCQEAAQEWeAEDCcECeAEDCcEGYOMAgBAMAQOMCgBAKJCcEIgBAKJCcEKoBACAbIQAAIQA4BIQCwBAIAAAaANAmBAAAmBAAAmBATA6BAAAQAAA8BCSA4BCgBAyDAyBAsBAfAsCAAAcAyCAMA1DAiEAAAkERCcEWKEIC2BAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAsCASA7CAuDZCcEAAcEiBeAEDCOECeAEDCOEEgBACASAWANAiBAhBGIAAGIAwCGICeAKHCOEGeAKCoBAGAAAGANASAAASAAASATAmBAAAQAAAoBJCOEMyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCNCOEAAOEUSAMANAYAAAaCeAEFCKEEeAEFCKEGGA8CAgBAUAYAkBAeACANAOAAAOAAAOATAiBAAAQAAAkBCyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCJCKEAAKEOCMECGIIAgBAMAQIICeAKFCMEEeAKC6BAGAAAGANASAAASAAASANAeHCMEGiBAeCcAWJCMEAAMEQCMECWACCGGIAcGICiBAUHCMEGiBAUC4BAKAAAKANAWAAAWAAAWALAiBANAuBANA6BAAA8BJCMEAAMESqBAcANAoBAZAiCAAAWAAAkCCqBAQANAcAZA2BAAAWAAA4BCqBAUANAgBAZA6BAAAWAAA8BCqBAcANAoBAZAiCAAAWAAAkCCmBASAJAcA0BAGAAAGAPAUAAAUAAAUAAAUAnBA8BAAAkBAAAwCAAAmCAZAqDAAAWAAAsDCaASNCYEMaASCGAQAAAMAAASCeAeAAAMAAAqBAuBAQAAAMAAAaAnCAiDAAAWAAAkDCcAETCYEScAETCYEUGAiDAsBAcAAAcAtBAiDAAAiDAsCAUAAAOAAAWAtCAiDC6BAGAAAGAPAUAAAUAAAUAAAUAPAkBAAAMAAA4BAAAuBAZAyCAAAWAAA0CXCYEAAYEaCAMAAAOvECQEPC+ECiBCcEjBC+ECiCCOEjCC+EC0CCKE1CC+ECiDCMEjDC+ECyDCMEzDC+ECiECYEjEC+ECAA+ECAA+EC", {5:["~noproto~","Promise"],25:["~noproto~","o"],16:["~iteration~"],34:["~noproto~"],42:["~noproto~","tick"],61:["~noproto~","oa","b"],58:["~iteration~","oa"],50:["~iteration~"],80:["~noproto~"],89:["~noproto~","Promise","Error","tick"],106:["~noproto~","o"],100:["~iteration~"],116:["~noproto~"],124:["~noproto~","tick"],137:["~noproto~","k"],135:["~iteration~"],146:["~noproto~"],154:["~noproto~","tick"],165:["~noproto~","o"],159:["~iteration~"],172:[],183:["~noproto~","box"],177:["~iteration~"],190:["tick"],217:["~noproto~"],258:["~noproto~"],268:["~noproto~","console","perIteration","nested","testOnly","noSuspension","yielded","asyncYielded"]}, 286, 287, 0, (s, o) => import(s, o)); /* node-do-not-add-exception-line */ __mt$95a94897.N(273, "perIteration", __mt$95a94897.F(272, 42, perIteration)); __mt$95a94897.N(275, "nested", __mt$95a94897.F(274, 89, nested)); __mt$95a94897.N(277, "testOnly", __mt$95a94897.F(276, 124, testOnly)); __mt$95a94897.N(279, "noSuspension", __mt$95a94897.F(278, 154, noSuspension)); __mt$95a94897.N(281, "yielded", __mt$95a94897.F(280, 172, yielded)); __mt$95a94897.N(283, "asyncYielded", __mt$95a94897.F(282, 190, asyncYielded)); __mt$95a94897.N(285, "main", __mt$95a94897.F(284, 268, main)); 
const tick = __mt$95a94897.X(9, __mt$95a94897.N(8, "tick", __mt$95a94897.F(7, 5, {"tick": (v) => { const H = __mt$95a94897, __mt$f = H.Fe(5, void 0); var __mt$1; try { H.N(4, "v", v); return H.Rx(__mt$f, 3, H.m1(1, __mt$1 = Promise, H.M2(2, __mt$1, __mt$1.resolve), v)) } finally { H.Fr(6, __mt$f); } }}["tick"])));

async function perIteration() {const H = __mt$95a94897, __mt$f = H.Fg(42, perIteration, this, new.target); var __mt$1; try { 
  const fns = H.X(12, H.N(11, "fns", H.T(10, [])));
  { for (const k of H.T(15, [1, 2, 3])) { H.Iy(16, __mt$f); try { { H.N(13, "k", k); H.X(14); {
    const o = H.X(19, H.N(18, "o", H.T(17, { k })));
    H.Y(21, __mt$f, await H.Ys(21, __mt$f, H.c0(20, tick), "fns", fns, 16, "o", o, "k", k), "fns", fns, 16, "o", o, "k", k), H.p[0] || H.X(22);
    H.m1(28, fns, H.M18(29, fns, fns.push), H.F(27, 25, () => { const __mt$f = H.Fe(25, void 0); try { return H.Rx(__mt$f, 24, H.G26(23, o).k) } finally { H.Fr(26, __mt$f); } })), H.p[0] || H.X(30);
  } } } finally { H.Iz(16, __mt$f); } } }
  return H.Rx(__mt$f, 41, H.m1(39, __mt$1 = H.m1(37, fns, H.M18(38, fns, fns.map), H.F(36, 34, (f) => { const __mt$f = H.Fe(34, void 0); try { H.N(33, "f", f); return H.Rx(__mt$f, 32, H.c0(31, f)) } finally { H.Fr(35, __mt$f); } })), H.M8(40, __mt$1, __mt$1.join), ","));
} finally { H.Fx(43, __mt$f); } }

async function nested() {const H = __mt$95a94897, __mt$f = H.Fg(89, nested, this, new.target); var __mt$1; try { 
  const fns = H.X(46, H.N(45, "fns", H.T(44, [])));
  try {
    { outer: for (const a of H.T(49, [1, 2])) { H.Iy(50, __mt$f); try { { H.N(47, "a", a); H.X(48); {
      let oa = H.X(53, H.N(52, "oa", H.T(51, { a })));
      { for (let b = H.X(55, H.N(54, "b", 0)); ((b < 3) ? H.p[0] || H.X(56, 1) : !H.p[0] && H.X(56, 0)); b++, H.p[0] || H.X(57)) { H.Iy(58, __mt$f); H.N(75, "b", b); try { {
        H.m1(64, fns, H.M18(65, fns, fns.push), H.F(63, 61, () => { const __mt$f = H.Fe(61, void 0); try { return H.Rx(__mt$f, 60, H.G23(59, oa).a * 10 + b) } finally { H.Fr(62, __mt$f); } })), H.p[0] || H.X(66);
        if (((b === 1) ? H.p[0] || H.X(67, 1) : !H.p[0] && H.X(67, 0))) continue outer;
        H.Y(73, __mt$f, await H.Ys(73, __mt$f, (((a === 2) ? H.p[0] || H.X(68, 1) : !H.p[0] && H.X(68, 0)) ? H.m1(70, __mt$1 = Promise, H.M2(71, __mt$1, __mt$1.reject), H.n1(69, Error, "stop " + b)) : H.c0(72, tick)), "fns", fns, 50, "oa", oa, "a", a, 58, "b", b), "fns", fns, 50, "oa", oa, "a", a, 58, "b", b), H.p[0] || H.X(74);
      } } finally { H.Iz(58, __mt$f); } } }
    } } } finally { H.Iz(50, __mt$f); } } }
  } catch (e) {H.Y(76, __mt$f, void 0, "e", e, "fns", fns); 
    return H.Rx(__mt$f, 88, H.m1(85, __mt$1 = H.m1(83, fns, H.M18(84, fns, fns.map), H.F(82, 80, (f) => { const __mt$f = H.Fe(80, void 0); try { H.N(79, "f", f); return H.Rx(__mt$f, 78, H.c0(77, f)) } finally { H.Fr(81, __mt$f); } })), H.M22(86, __mt$1, __mt$1.join), ",") + " " + H.G0(87, e).message);
  }
} finally { H.Fx(90, __mt$f); } }

async function testOnly() {const H = __mt$95a94897, __mt$f = H.Fg(124, testOnly, this, new.target); var __mt$1; try { 
  const fns = H.X(93, H.N(92, "fns", H.T(91, [])));
  { for (let i = H.X(95, H.N(94, "i", 0)); ((H.Y(97, __mt$f, await H.Ys(97, __mt$f, H.c1(96, tick, i < 3), "i", i, "fns", fns), "i", i, "fns", fns)) ? H.p[0] || H.X(98, 1) : !H.p[0] && H.X(98, 0)); i++, H.p[0] || H.X(99)) { H.Iy(100, __mt$f); H.N(112, "i", i); try { {
    const o = H.X(103, H.N(102, "o", H.T(101, { i })));
    H.m1(109, fns, H.M18(110, fns, fns.push), H.F(108, 106, () => { const __mt$f = H.Fe(106, void 0); try { return H.Rx(__mt$f, 105, H.G26(104, o).i) } finally { H.Fr(107, __mt$f); } })), H.p[0] || H.X(111);
  } } finally { H.Iz(100, __mt$f); } } }
  return H.Rx(__mt$f, 123, H.m1(121, __mt$1 = H.m1(119, fns, H.M18(120, fns, fns.map), H.F(118, 116, (f) => { const __mt$f = H.Fe(116, void 0); try { H.N(115, "f", f); return H.Rx(__mt$f, 114, H.c0(113, f)) } finally { H.Fr(117, __mt$f); } })), H.M26(122, __mt$1, __mt$1.join), ","));
} finally { H.Fx(125, __mt$f); } }

async function noSuspension() {const H = __mt$95a94897, __mt$f = H.Fg(154, noSuspension, this, new.target); var __mt$1; try { 
  H.Y(127, __mt$f, await H.Ys(127, __mt$f, H.c0(126, tick))), H.p[0] || H.X(128);
  const fns = H.X(131, H.N(130, "fns", H.T(129, [])));
  { const __mt$l = H.Il(135); for (const k of H.T(134, ["x", "y"])) { H.Ie(135, __mt$l); try { { H.N(132, "k", k); H.X(133); H.m1(140, fns, H.M18(141, fns, fns.push), H.F(139, 137, () => { const __mt$f = H.Fe(137, void 0); try { return H.Rx(__mt$f, 136, k) } finally { H.Fr(138, __mt$f); } })), H.p[0] || H.X(142); } } finally { H.Ix(135, __mt$l, __mt$f); } } }
  return H.Rx(__mt$f, 153, H.m1(151, __mt$1 = H.m1(149, fns, H.M18(150, fns, fns.map), H.F(148, 146, (f) => { const __mt$f = H.Fe(146, void 0); try { H.N(145, "f", f); return H.Rx(__mt$f, 144, H.c0(143, f)) } finally { H.Fr(147, __mt$f); } })), H.M24(152, __mt$1, __mt$1.join), ","));
} finally { H.Fx(155, __mt$f); } }

function* yielded() {const H = __mt$95a94897, __mt$f = H.Fg(172, yielded, this, new.target); try { 
  { for (const k of H.T(158, [4, 5])) { H.Iy(159, __mt$f); try { { H.N(156, "k", k); H.X(157); {
    const o = H.X(162, H.N(161, "o", H.T(160, { k })));
    const got = H.X(170, H.N(169, "got", H.Y(168, __mt$f, yield H.Yv(168, __mt$f, H.F(167, 165, () => { const __mt$f = H.Fe(165, void 0); try { return H.Rx(__mt$f, 164, H.G26(163, o).k) } finally { H.Fr(166, __mt$f); } }), 159, "o", o, "k", k), 159, "o", o, "k", k)));
    if (got) return H.Rx(__mt$f, 171, got);
  } } } finally { H.Iz(159, __mt$f); } } }
} finally { H.Fx(173, __mt$f); } }

async function* asyncYielded() {const H = __mt$95a94897, __mt$f = H.Fg(190, asyncYielded, this, new.target); try { 
  let n = H.X(175, H.N(174, "n", 0));
  { while (((n < 2) ? H.p[0] || H.X(176, 1) : !H.p[0] && H.X(176, 0))) { H.Iy(177, __mt$f); try { {
    const box = H.X(180, H.N(179, "box", H.T(178, { n: n++ })));
    H.Y(188, __mt$f, yield H.Yv(188, __mt$f, H.Y(187, __mt$f, await H.Ys(187, __mt$f, H.c1(186, tick, H.F(185, 183, () => { const __mt$f = H.Fe(183, void 0); try { return H.Rx(__mt$f, 182, H.G22(181, box).n) } finally { H.Fr(184, __mt$f); } })), "n", n, 177, "box", box), "n", n, 177, "box", box), "n", n, 177, "box", box), "n", n, 177, "box", box), H.p[0] || H.X(189);
  } } finally { H.Iz(177, __mt$f); } } }
} finally { H.Fx(191, __mt$f); } }

async function main() {const H = __mt$95a94897, __mt$f = H.Fg(268, main, this, new.target); var __mt$1, __mt$2, __mt$3; try { 
  H.m1(194, __mt$1 = console, H.M10(195, __mt$1, __mt$1.log), H.Y(193, __mt$f, await H.Ys(193, __mt$f, H.c0(192, perIteration)))), H.p[0] || H.X(196);
  H.m1(199, __mt$1 = console, H.M10(200, __mt$1, __mt$1.log), H.Y(198, __mt$f, await H.Ys(198, __mt$f, H.c0(197, nested)))), H.p[0] || H.X(201);
  H.m1(204, __mt$1 = console, H.M10(205, __mt$1, __mt$1.log), H.Y(203, __mt$f, await H.Ys(203, __mt$f, H.c0(202, testOnly)))), H.p[0] || H.X(206);
  H.m1(209, __mt$1 = console, H.M10(210, __mt$1, __mt$1.log), H.Y(208, __mt$f, await H.Ys(208, __mt$f, H.c0(207, noSuspension)))), H.p[0] || H.X(211);
  H.m1(224, __mt$1 = console, H.M10(225, __mt$1, __mt$1.log), H.m1(222, __mt$2 = H.m1(220, __mt$3 = H.T(213, [...H.c0(212, yielded)]), H.M29(221, __mt$3, __mt$3.map), H.F(219, 217, (f) => { const __mt$f = H.Fe(217, void 0); try { H.N(216, "f", f); return H.Rx(__mt$f, 215, H.c0(214, f)) } finally { H.Fr(218, __mt$f); } })), H.M31(223, __mt$2, __mt$2.join), ",")), H.p[0] || H.X(226);
  const g = H.X(229, H.N(228, "g", H.c0(227, yielded)));
  H.m0(230, g, H.M6(231, g, g.next)), H.p[0] || H.X(232);
  H.m2(239, __mt$1 = console, H.M10(240, __mt$1, __mt$1.log), H.G11(235, H.m1(233, g, H.M6(234, g, g.next), "early")).value, H.G14(238, H.m0(236, g, H.M6(237, g, g.next))).done), H.p[0] || H.X(241);
  const fs = H.X(244, H.N(243, "fs", H.T(242, [])));
  { for await (const f of H.Ys(248, __mt$f, H.c0(247, asyncYielded), "g", g, "fs", fs)) { H.Y(249, __mt$f, void 0, "f", f, "g", g, "fs", fs); try { { H.N(245, "f", f); H.X(246); H.m1(251, fs, H.M30(252, fs, fs.push), f), H.p[0] || H.X(253); } } finally { H.Ys(250, __mt$f, void 0, "f", f, "g", g, "fs", fs); } } H.Y(254, __mt$f, void 0, "g", g, "fs", fs); }
  H.m1(265, __mt$1 = console, H.M10(266, __mt$1, __mt$1.log), H.m1(263, __mt$2 = H.m1(261, fs, H.M30(262, fs, fs.map), H.F(260, 258, (f) => { const __mt$f = H.Fe(258, void 0); try { H.N(257, "f", f); return H.Rx(__mt$f, 256, H.c0(255, f)) } finally { H.Fr(259, __mt$f); } })), H.M8(264, __mt$2, __mt$2.join), ",")), H.p[0] || H.X(267);
} finally { H.Fx(269, __mt$f); } }
__mt$95a94897.X(271, __mt$95a94897.c0(270, main));

;__mt$95a94897.Sx();