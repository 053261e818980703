// Per-iteration scopes in generators and async functions: loops that
// suspend (Iy/Iz, and Y naming the open iterations), loops that do not
// (Il/Ie/Ix), a yielded fresh closure (Yv), nested loops left by a
// rejected await, a suspension in a loop's test only.
"use strict";const __mt$5ce4c4bc = __mt.S("loops_suspend.js", "MqBAkBAAAeAAAkBAPAyBAAAyBAAAyBAAAyBLC+ECKcAyBGeAEDCQECeAEDCQEEGIIAgBASAWIICeAKHCQEGeAKCWAMANAYAAAaCoBAGAAAGANASAAASAAASATAmBAAAQAAAoBEyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCPCQEAAQEWeAEDCcECeAEDCcEGYOMAgBAMAQOMCgBAKJCcEIgBAKJCcEKoBACAbIQAAIQA4BIQCwBAIAAAaANAmBAAAmBAAAmBATA6BAAAQAAA8BCSA4BCgBAyDAyBAsBAfAsCAAAcAyCAMA1DAiEAAAkERCcEWKEIC2BAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAsCASA7CAuDZCcEAAcEiBeAEDCOECeAEDCOEEgBACASAWANAiBAhBGIAAGIAwCGICeAKHCOEGeAKCoBAGAAAGANASAAASAAASATAmBAAAQAAAoBJCOEMyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCNCOEAAOEUSAMANAYAAAaCeAEFCKEEeAEFCKEGGA8CAgBAUAYAkBAeACANAOAAAOAAAOATAiBAAAQAAAkBCyBAGAAAGAPAUAAAUAAAUAAAUARAmBAAAOAAA6BAAAwBAPAqCJCKEAAKEOCMECGIIAgBAMAQIICeAKFCMEEeAKC6BAGAAAGANASAAASAAASANAeHCMEGiBAeCcAWJCMEAAMEQCMECWACCGGIAcGICiBAUHCMEGiBAUC4BAKAAAKANAWAAAWAAAWALAiBANAuBANA6BAAA8BJCMEAAMESqBAcANAoBAZAiCAAAWAAAkCCqBAQANAcAZA2BAAAWAAA4BCqBAUANAgBAZA6BAAAWAAA8BCqBAcANAoBAZAiCAAAWAAAkCCmBASAJAcA0BAGAAAGAPAUAAAUAAAUAAAUAnBA8BAAAkBAAAwCAAAmCAZAqDAAAWAAAsDCaASNCYEMaASCGAQAAAMAAASCeAeAAAMAAAqBAuBAQAAAMAAAaAnCAiDAAAWAAAkDCcAETCYEScAETCYEUGAiDAsBAcAAAcAtBAiDAAAiDAsCAUAAAOAAAWAtCAiDC6BAGAAAGAPAUAAAUAAAUAAAUAPAkBAAAMAAA4BAAAuBAZAyCAAAWAAA0CXCYEAAYEaCAMAAAOvECQEPC+ECiBCcEjBC+ECiCCOEjCC+EC0CCKE1CC+ECiDCMEjDC+ECyDCMEzDC+ECiECYEjEC+ECAA+ECAA+EC", {5:["Promise"],25:["o"],16:["~iteration~"],34:[],42:["tick"],61:["oa","b"],58:["~iteration~","oa"],50:["~iteration~"],80:[],89:["Promise","Error","tick"],106:["o"],100:["~iteration~"],116:[],124:["tick"],137:["k"],135:["~iteration~"],146:[],154:["tick"],165:["o"],159:["~iteration~"],172:[],183:["box"],177:["~iteration~"],190:["tick"],217:[],258:[],268:["console","perIteration","nested","testOnly","noSuspension","yielded","asyncYielded"]}, 286, 287); __mt$5ce4c4bc.N(273, "perIteration", __mt$5ce4c4bc.F(272, 42, perIteration)); __mt$5ce4c4bc.N(275, "nested", __mt$5ce4c4bc.F(274, 89, nested)); __mt$5ce4c4bc.N(277, "testOnly", __mt$5ce4c4bc.F(276, 124, testOnly)); __mt$5ce4c4bc.N(279, "noSuspension", __mt$5ce4c4bc.F(278, 154, noSuspension)); __mt$5ce4c4bc.N(281, "yielded", __mt$5ce4c4bc.F(280, 172, yielded)); __mt$5ce4c4bc.N(283, "asyncYielded", __mt$5ce4c4bc.F(282, 190, asyncYielded)); __mt$5ce4c4bc.N(285, "main", __mt$5ce4c4bc.F(284, 268, main)); 
const tick = __mt$5ce4c4bc.X(9, __mt$5ce4c4bc.N(8, "tick", __mt$5ce4c4bc.F(7, 5, {"tick": (v) => { const __mt$f = __mt$5ce4c4bc.Fe(5, void 0); var __mt$1; try { __mt$5ce4c4bc.N(4, "v", v); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(3, __mt$5ce4c4bc.m1(1, __mt$1 = Promise, __mt$5ce4c4bc.M(2, __mt$1, "resolve"), v))) } finally { __mt$5ce4c4bc.Fr(6, __mt$f); } }}["tick"])));

async function perIteration() {const __mt$f = __mt$5ce4c4bc.Fg(42, perIteration, this, new.target); var __mt$1; try { 
  const fns = __mt$5ce4c4bc.X(12, __mt$5ce4c4bc.N(11, "fns", __mt$5ce4c4bc.T(10, [])));
  { for (const k of __mt$5ce4c4bc.T(15, [1, 2, 3])) { __mt$5ce4c4bc.Iy(16, __mt$f); try { { __mt$5ce4c4bc.N(13, "k", k); __mt$5ce4c4bc.X(14); {
    const o = __mt$5ce4c4bc.X(19, __mt$5ce4c4bc.N(18, "o", __mt$5ce4c4bc.T(17, { k })));
    __mt$5ce4c4bc.X(22, __mt$5ce4c4bc.Y(21, __mt$f, await __mt$5ce4c4bc.Ys(21, __mt$f, __mt$5ce4c4bc.c0(20, tick), "fns", fns, 16, "o", o, "k", k), "fns", fns, 16, "o", o, "k", k));
    __mt$5ce4c4bc.X(30, __mt$5ce4c4bc.m1(28, fns, __mt$5ce4c4bc.M(29, fns, "push"), __mt$5ce4c4bc.F(27, 25, () => { const __mt$f = __mt$5ce4c4bc.Fe(25, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(24, __mt$5ce4c4bc.G23(23, o).k)) } finally { __mt$5ce4c4bc.Fr(26, __mt$f); } })));
  } } } finally { __mt$5ce4c4bc.Iz(16, __mt$f); } } }
  return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(41, __mt$5ce4c4bc.m1(39, __mt$1 = __mt$5ce4c4bc.m1(37, fns, __mt$5ce4c4bc.M(38, fns, "map"), __mt$5ce4c4bc.F(36, 34, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(34, void 0); try { __mt$5ce4c4bc.N(33, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(32, __mt$5ce4c4bc.c0(31, f))) } finally { __mt$5ce4c4bc.Fr(35, __mt$f); } })), __mt$5ce4c4bc.M(40, __mt$1, "join"), ",")));
} finally { __mt$5ce4c4bc.Fx(43, __mt$f); } }

async function nested() {const __mt$f = __mt$5ce4c4bc.Fg(89, nested, this, new.target); var __mt$1; try { 
  const fns = __mt$5ce4c4bc.X(46, __mt$5ce4c4bc.N(45, "fns", __mt$5ce4c4bc.T(44, [])));
  try {
    { outer: for (const a of __mt$5ce4c4bc.T(49, [1, 2])) { __mt$5ce4c4bc.Iy(50, __mt$f); try { { __mt$5ce4c4bc.N(47, "a", a); __mt$5ce4c4bc.X(48); {
      let oa = __mt$5ce4c4bc.X(53, __mt$5ce4c4bc.N(52, "oa", __mt$5ce4c4bc.T(51, { a })));
      { for (let b = __mt$5ce4c4bc.X(55, __mt$5ce4c4bc.N(54, "b", 0)); __mt$5ce4c4bc.X(56, b < 3); __mt$5ce4c4bc.X(57, b++)) { __mt$5ce4c4bc.Iy(58, __mt$f); __mt$5ce4c4bc.N(75, "b", b); try { {
        __mt$5ce4c4bc.X(66, __mt$5ce4c4bc.m1(64, fns, __mt$5ce4c4bc.M(65, fns, "push"), __mt$5ce4c4bc.F(63, 61, () => { const __mt$f = __mt$5ce4c4bc.Fe(61, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(60, __mt$5ce4c4bc.G27(59, oa).a * 10 + b)) } finally { __mt$5ce4c4bc.Fr(62, __mt$f); } })));
        if (__mt$5ce4c4bc.X(67, b === 1)) continue outer;
        __mt$5ce4c4bc.X(74, __mt$5ce4c4bc.Y(73, __mt$f, await __mt$5ce4c4bc.Ys(73, __mt$f, (__mt$5ce4c4bc.X(68, a === 2) ? __mt$5ce4c4bc.m1(70, __mt$1 = Promise, __mt$5ce4c4bc.M(71, __mt$1, "reject"), __mt$5ce4c4bc.n1(69, Error, "stop " + b)) : __mt$5ce4c4bc.c0(72, tick)), "fns", fns, 50, "oa", oa, "a", a, 58, "b", b), "fns", fns, 50, "oa", oa, "a", a, 58, "b", b));
      } } finally { __mt$5ce4c4bc.Iz(58, __mt$f); } } }
    } } } finally { __mt$5ce4c4bc.Iz(50, __mt$f); } } }
  } catch (e) {__mt$5ce4c4bc.Y(76, __mt$f, void 0, "e", e, "fns", fns); 
    return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(88, __mt$5ce4c4bc.m1(85, __mt$1 = __mt$5ce4c4bc.m1(83, fns, __mt$5ce4c4bc.M(84, fns, "map"), __mt$5ce4c4bc.F(82, 80, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(80, void 0); try { __mt$5ce4c4bc.N(79, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(78, __mt$5ce4c4bc.c0(77, f))) } finally { __mt$5ce4c4bc.Fr(81, __mt$f); } })), __mt$5ce4c4bc.M(86, __mt$1, "join"), ",") + " " + __mt$5ce4c4bc.G23(87, e).message));
  }
} finally { __mt$5ce4c4bc.Fx(90, __mt$f); } }

async function testOnly() {const __mt$f = __mt$5ce4c4bc.Fg(124, testOnly, this, new.target); var __mt$1; try { 
  const fns = __mt$5ce4c4bc.X(93, __mt$5ce4c4bc.N(92, "fns", __mt$5ce4c4bc.T(91, [])));
  { for (let i = __mt$5ce4c4bc.X(95, __mt$5ce4c4bc.N(94, "i", 0)); __mt$5ce4c4bc.X(98, __mt$5ce4c4bc.Y(97, __mt$f, await __mt$5ce4c4bc.Ys(97, __mt$f, __mt$5ce4c4bc.c1(96, tick, i < 3), "i", i, "fns", fns), "i", i, "fns", fns)); __mt$5ce4c4bc.X(99, i++)) { __mt$5ce4c4bc.Iy(100, __mt$f); __mt$5ce4c4bc.N(112, "i", i); try { {
    const o = __mt$5ce4c4bc.X(103, __mt$5ce4c4bc.N(102, "o", __mt$5ce4c4bc.T(101, { i })));
    __mt$5ce4c4bc.X(111, __mt$5ce4c4bc.m1(109, fns, __mt$5ce4c4bc.M(110, fns, "push"), __mt$5ce4c4bc.F(108, 106, () => { const __mt$f = __mt$5ce4c4bc.Fe(106, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(105, __mt$5ce4c4bc.G8(104, o).i)) } finally { __mt$5ce4c4bc.Fr(107, __mt$f); } })));
  } } finally { __mt$5ce4c4bc.Iz(100, __mt$f); } } }
  return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(123, __mt$5ce4c4bc.m1(121, __mt$1 = __mt$5ce4c4bc.m1(119, fns, __mt$5ce4c4bc.M(120, fns, "map"), __mt$5ce4c4bc.F(118, 116, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(116, void 0); try { __mt$5ce4c4bc.N(115, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(114, __mt$5ce4c4bc.c0(113, f))) } finally { __mt$5ce4c4bc.Fr(117, __mt$f); } })), __mt$5ce4c4bc.M(122, __mt$1, "join"), ",")));
} finally { __mt$5ce4c4bc.Fx(125, __mt$f); } }

async function noSuspension() {const __mt$f = __mt$5ce4c4bc.Fg(154, noSuspension, this, new.target); var __mt$1; try { 
  __mt$5ce4c4bc.X(128, __mt$5ce4c4bc.Y(127, __mt$f, await __mt$5ce4c4bc.Ys(127, __mt$f, __mt$5ce4c4bc.c0(126, tick))));
  const fns = __mt$5ce4c4bc.X(131, __mt$5ce4c4bc.N(130, "fns", __mt$5ce4c4bc.T(129, [])));
  { const __mt$l = __mt$5ce4c4bc.Il(135); for (const k of __mt$5ce4c4bc.T(134, ["x", "y"])) { __mt$5ce4c4bc.Ie(135, __mt$l); try { { __mt$5ce4c4bc.N(132, "k", k); __mt$5ce4c4bc.X(133); __mt$5ce4c4bc.X(142, __mt$5ce4c4bc.m1(140, fns, __mt$5ce4c4bc.M(141, fns, "push"), __mt$5ce4c4bc.F(139, 137, () => { const __mt$f = __mt$5ce4c4bc.Fe(137, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(136, k)) } finally { __mt$5ce4c4bc.Fr(138, __mt$f); } }))); } } finally { __mt$5ce4c4bc.Ix(135, __mt$l, __mt$f); } } }
  return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(153, __mt$5ce4c4bc.m1(151, __mt$1 = __mt$5ce4c4bc.m1(149, fns, __mt$5ce4c4bc.M(150, fns, "map"), __mt$5ce4c4bc.F(148, 146, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(146, void 0); try { __mt$5ce4c4bc.N(145, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(144, __mt$5ce4c4bc.c0(143, f))) } finally { __mt$5ce4c4bc.Fr(147, __mt$f); } })), __mt$5ce4c4bc.M(152, __mt$1, "join"), ",")));
} finally { __mt$5ce4c4bc.Fx(155, __mt$f); } }

function* yielded() {const __mt$f = __mt$5ce4c4bc.Fg(172, yielded, this, new.target); try { 
  { for (const k of __mt$5ce4c4bc.T(158, [4, 5])) { __mt$5ce4c4bc.Iy(159, __mt$f); try { { __mt$5ce4c4bc.N(156, "k", k); __mt$5ce4c4bc.X(157); {
    const o = __mt$5ce4c4bc.X(162, __mt$5ce4c4bc.N(161, "o", __mt$5ce4c4bc.T(160, { k })));
    const got = __mt$5ce4c4bc.X(170, __mt$5ce4c4bc.N(169, "got", __mt$5ce4c4bc.Y(168, __mt$f, yield __mt$5ce4c4bc.Yv(168, __mt$f, __mt$5ce4c4bc.F(167, 165, () => { const __mt$f = __mt$5ce4c4bc.Fe(165, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(164, __mt$5ce4c4bc.G3(163, o).k)) } finally { __mt$5ce4c4bc.Fr(166, __mt$f); } }), 159, "o", o, "k", k), 159, "o", o, "k", k)));
    if (got) return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(171, got));
  } } } finally { __mt$5ce4c4bc.Iz(159, __mt$f); } } }
} finally { __mt$5ce4c4bc.Fx(173, __mt$f); } }

async function* asyncYielded() {const __mt$f = __mt$5ce4c4bc.Fg(190, asyncYielded, this, new.target); try { 
  let n = __mt$5ce4c4bc.X(175, __mt$5ce4c4bc.N(174, "n", 0));
  { while (__mt$5ce4c4bc.X(176, n < 2)) { __mt$5ce4c4bc.Iy(177, __mt$f); try { {
    const box = __mt$5ce4c4bc.X(180, __mt$5ce4c4bc.N(179, "box", __mt$5ce4c4bc.T(178, { n: n++ })));
    __mt$5ce4c4bc.X(189, __mt$5ce4c4bc.Y(188, __mt$f, yield __mt$5ce4c4bc.Yv(188, __mt$f, __mt$5ce4c4bc.Y(187, __mt$f, await __mt$5ce4c4bc.Ys(187, __mt$f, __mt$5ce4c4bc.c1(186, tick, __mt$5ce4c4bc.F(185, 183, () => { const __mt$f = __mt$5ce4c4bc.Fe(183, void 0); try { return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(182, __mt$5ce4c4bc.G21(181, box).n)) } finally { __mt$5ce4c4bc.Fr(184, __mt$f); } })), "n", n, 177, "box", box), "n", n, 177, "box", box), "n", n, 177, "box", box), "n", n, 177, "box", box));
  } } finally { __mt$5ce4c4bc.Iz(177, __mt$f); } } }
} finally { __mt$5ce4c4bc.Fx(191, __mt$f); } }

async function main() {const __mt$f = __mt$5ce4c4bc.Fg(268, main, this, new.target); var __mt$1, __mt$2, __mt$3; try { 
  __mt$5ce4c4bc.X(196, __mt$5ce4c4bc.m1(194, __mt$1 = console, __mt$5ce4c4bc.M(195, __mt$1, "log"), __mt$5ce4c4bc.Y(193, __mt$f, await __mt$5ce4c4bc.Ys(193, __mt$f, __mt$5ce4c4bc.c0(192, perIteration)))));
  __mt$5ce4c4bc.X(201, __mt$5ce4c4bc.m1(199, __mt$1 = console, __mt$5ce4c4bc.M(200, __mt$1, "log"), __mt$5ce4c4bc.Y(198, __mt$f, await __mt$5ce4c4bc.Ys(198, __mt$f, __mt$5ce4c4bc.c0(197, nested)))));
  __mt$5ce4c4bc.X(206, __mt$5ce4c4bc.m1(204, __mt$1 = console, __mt$5ce4c4bc.M(205, __mt$1, "log"), __mt$5ce4c4bc.Y(203, __mt$f, await __mt$5ce4c4bc.Ys(203, __mt$f, __mt$5ce4c4bc.c0(202, testOnly)))));
  __mt$5ce4c4bc.X(211, __mt$5ce4c4bc.m1(209, __mt$1 = console, __mt$5ce4c4bc.M(210, __mt$1, "log"), __mt$5ce4c4bc.Y(208, __mt$f, await __mt$5ce4c4bc.Ys(208, __mt$f, __mt$5ce4c4bc.c0(207, noSuspension)))));
  __mt$5ce4c4bc.X(226, __mt$5ce4c4bc.m1(224, __mt$1 = console, __mt$5ce4c4bc.M(225, __mt$1, "log"), __mt$5ce4c4bc.m1(222, __mt$2 = __mt$5ce4c4bc.m1(220, __mt$3 = __mt$5ce4c4bc.T(213, [...__mt$5ce4c4bc.c0(212, yielded)]), __mt$5ce4c4bc.M(221, __mt$3, "map"), __mt$5ce4c4bc.F(219, 217, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(217, void 0); try { __mt$5ce4c4bc.N(216, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(215, __mt$5ce4c4bc.c0(214, f))) } finally { __mt$5ce4c4bc.Fr(218, __mt$f); } })), __mt$5ce4c4bc.M(223, __mt$2, "join"), ",")));
  const g = __mt$5ce4c4bc.X(229, __mt$5ce4c4bc.N(228, "g", __mt$5ce4c4bc.c0(227, yielded)));
  __mt$5ce4c4bc.X(232, __mt$5ce4c4bc.m0(230, g, __mt$5ce4c4bc.M(231, g, "next")));
  __mt$5ce4c4bc.X(241, __mt$5ce4c4bc.m2(239, __mt$1 = console, __mt$5ce4c4bc.M(240, __mt$1, "log"), __mt$5ce4c4bc.G11(235, __mt$5ce4c4bc.m1(233, g, __mt$5ce4c4bc.M(234, g, "next"), "early")).value, __mt$5ce4c4bc.G14(238, __mt$5ce4c4bc.m0(236, g, __mt$5ce4c4bc.M(237, g, "next"))).done));
  const fs = __mt$5ce4c4bc.X(244, __mt$5ce4c4bc.N(243, "fs", __mt$5ce4c4bc.T(242, [])));
  { for await (const f of __mt$5ce4c4bc.Ys(248, __mt$f, __mt$5ce4c4bc.c0(247, asyncYielded), "g", g, "fs", fs)) { __mt$5ce4c4bc.Y(249, __mt$f, void 0, "f", f, "g", g, "fs", fs); try { { __mt$5ce4c4bc.N(245, "f", f); __mt$5ce4c4bc.X(246); __mt$5ce4c4bc.X(253, __mt$5ce4c4bc.m1(251, fs, __mt$5ce4c4bc.M(252, fs, "push"), f)); } } finally { __mt$5ce4c4bc.Ys(250, __mt$f, void 0, "f", f, "g", g, "fs", fs); } } __mt$5ce4c4bc.Y(254, __mt$f, void 0, "g", g, "fs", fs); }
  __mt$5ce4c4bc.X(267, __mt$5ce4c4bc.m1(265, __mt$1 = console, __mt$5ce4c4bc.M(266, __mt$1, "log"), __mt$5ce4c4bc.m1(263, __mt$2 = __mt$5ce4c4bc.m1(261, fs, __mt$5ce4c4bc.M(262, fs, "map"), __mt$5ce4c4bc.F(260, 258, (f) => { const __mt$f = __mt$5ce4c4bc.Fe(258, void 0); try { __mt$5ce4c4bc.N(257, "f", f); return __mt$5ce4c4bc.R(__mt$f, __mt$5ce4c4bc.X(256, __mt$5ce4c4bc.c0(255, f))) } finally { __mt$5ce4c4bc.Fr(259, __mt$f); } })), __mt$5ce4c4bc.M(264, __mt$2, "join"), ",")));
} finally { __mt$5ce4c4bc.Fx(269, __mt$f); } }
__mt$5ce4c4bc.X(271, __mt$5ce4c4bc.c0(270, main));

;__mt$5ce4c4bc.Sx();