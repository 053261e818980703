package scope

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"

	js "github.com/memtrace/memtrace/instrument/js"
)

// TestPrimitiveBindings: the names of a function scope that only ever hold
// primitives, and those that may hold an object, each for its reason.
func TestPrimitiveBindings(t *testing.T) {
	cases := []struct {
		name, src string
		goal      js.Goal
		want      []string // the Primitive bindings, sorted
	}{
		{"literals and operators", `function f(a) {
  var n = 0, s = "x", b = true, z = null, u, big = 1n, t = ` + "`t${a}`" + `;
  var sum = a + 1, neg = -a, cmp = a < 2, ty = typeof a, no = !a, inn = "k" in a, io = a instanceof Object;
  n += a; s += a; n++; --n; sum = n * 2; sum ||= 3; b &&= false;
  var c = a ? 1 : "2", l = (a, 3), q = n ?? 4, w = (u = 5);
}`, js.Script, []string{"b", "big", "c", "cmp", "inn", "io", "l", "n", "neg", "no", "q", "s", "sum", "t", "ty", "u", "w", "z"}},
		{"objects and unknowns", `function f(a) {
  var o = {}, r = /x/, p = a.p, c = g(), n = new Date(), th = this, ar = [], fn = function () {};
  var m = a || 1, k = 1 ? a : 2, cp = a, us = undefined, nan = NaN, inf = Infinity;
  var later = 1; later = a.q;
  var log = 0; log ||= {};
}`, js.Script, []string{"inf", "nan", "us"}},
		{"copies reach a fixed point", `function f(a) {
  var x = 1, y = x, z = y + 1, w = v, v = 2;
  var p = 1, q = p; p = q; q = a;
}`, js.Script, []string{"v", "w", "x", "y", "z"}},
		{"patterns, loops, functions", `function f(a) {
  var [d] = a, {e} = a, i, k, j = 0, g = 1, h = 0;
  for (var key in a) {}
  for (k in a) {}
  for (var val of a) {}
  for (i of a) {}
  for (;;) { j++; }
  function g() {}
  { function h() {} }
  ({ x: j } = a);
}`, js.Script, []string{"k", "key"}},
		{"closures write too", `function f() {
  var n = 0, o = 0;
  return [() => { n += 1; }, () => { o = {}; }];
}`, js.Script, []string{"n"}},
		{"eval and with reach everything", `function f(a) {
  var n = 0;
  function g() { eval(a); }
}
function h(o) {
  var m = 0;
  with (o) { m = 1; }
}
function k() { var ok = 1; }`, js.Script, []string{"ok"}},
		{"parameters, catch, classes, imports", `import d from "m";
let top = 1;
const c = 2;
class K {}
export function f(p) { try { p = 1; } catch (e) { e = 1; } }`, js.Module, []string{"c", "top"}},
		{"parameters coerced by the first statements", `function f(a, b, c, d) { "use asm"; a = a | 0; b = +b; c |= 0; var x = a, y = b; d = d | 0; }
function g(ga) { ga = ga | 0; return arguments.length; }
function h(ha, hb) { var z = 0; ha = ha | 0; hb = hb | 0; }
function k(ka, kb = 1) { ka = ka | 0; }
function m(ma) { ma = ma | 0; ma = q(); }
function n(na) { na = na | 0; return () => { na = {}; }; }
function p(pa, pb) { pa = pa || 0; pb = pb | 0; }
function r(ra) { ra = ra | 0; return () => ra + 1; }
function s(sa) { var before = sa; sa = sa | 0; var after = sa; }`, js.Script, []string{"a", "b", "c", "ra", "x", "y", "z"}}, // d, sa: the run of coercions ended before them
		{"a script's top level is the global object's", `var g = 1; let l = 2;
function f() { var inner = 3; }`, js.Script, []string{"inner"}},
		{"CommonJS top level", `var n = 1; var req = require("x"); n = n + 1;`, js.CommonJS, []string{"n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := analyze(t, c.src, c.goal)
			var got []string
			for _, s := range in.Scopes {
				for _, b := range s.Bindings {
					if b.Primitive {
						got = append(got, b.Name)
					}
				}
			}
			sort.Strings(got)
			assert.Equal(t, c.want, got)
		})
	}
}
