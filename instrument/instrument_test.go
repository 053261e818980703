package instrument

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// expectInstrumented checks the instrumented form of a classic script,
// without the prologue's S call and the final Sx, the handle renamed H.
func expectInstrumented(t *testing.T, src, want string) {
	t.Helper()
	expectGoal(t, js.Script, src, want)
}

func expectGoal(t *testing.T, goal js.Goal, src, want string) {
	t.Helper()
	got, err := strip(src, goal)
	if err != nil {
		t.Errorf("%s: %v", src, err)
		return
	}
	// Program-level temporaries of scripts carry the handle's hash.
	got = tempRE(got)
	if got != want {
		t.Errorf("%s\n got: %s\nwant: %s", src, got, want)
	}
	reparse(t, goal, src)
}

// tempRE renames the per-script temporaries __mt$<hash>_N to T_N.
func tempRE(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "__mt$")
		if i < 0 {
			return b.String() + s
		}
		if i+14 <= len(s) && s[i+13] == '_' && strings.Trim(s[i+5:i+13], "0123456789abcdef") == "" {
			b.WriteString(s[:i] + "T")
			s = s[i+13:]
			continue
		}
		b.WriteString(s[:i+5])
		s = s[i+5:]
	}
}

// reparse instruments src and checks that the output parses (same goal)
// and that instrumenting it again changes nothing.
func reparse(t *testing.T, goal js.Goal, src string) []byte {
	t.Helper()
	res, err := Instrument([]byte(src), Options{Goal: goal, File: "t.js"})
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	if _, err := js.Parse(res.Code, js.Options{Goal: goal}); err != nil {
		t.Errorf("output does not parse: %v\n%s", err, res.Code)
		return nil
	}
	again, err := Instrument(res.Code, Options{Goal: goal, File: "t.js"})
	if err != nil || !again.Unchanged || !bytes.Equal(again.Code, res.Code) {
		t.Errorf("not idempotent: %v", err)
	}
	return res.Code
}

func TestES5Constructs(t *testing.T) {
	for _, c := range [][2]string{
		// literals
		{`x = {}`, `H.X(3, x = H.W(2, "x", H.T(1, {}), (typeof x === "undefined" ? void 0 : x)))`},
		{`var a = [1, {b: /re/g}]`, `H.N(6, "a", a); var a = H.X(5, H.W(4, "a", H.T(3, [1, H.T(2, {b: H.T(1, /re/g)})]), a))`},
		{`var f = function () {}`, `H.N(6, "f", f); var f = H.X(5, H.W(4, "f", H.F(3, 1, {"f": function () {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } }}["f"]), f))`},
		// property reads, writes, delete
		{`a.b.c`, `H.X(3, H.G9(2, H.G12(1, a).b).c)`},
		{`a[b]`, `H.X(2, H.G12(1, a)[b])`},
		{`o.p = f(x)`, `H.X(3, H.P30(2, o, "p", H.c1(1, f, x), 2))`},
		{`o[k] = v`, `var T_1, T_2, T_3, T_4; H.X(2, ((T_4 = H.Pq30(1, T_1 = o, T_2 = k, T_3 = v)) !== 0 ? (T_1[T_2] = T_3, H.Pu(1, T_4), T_3) : H.Pm(1, T_1, T_2, T_3, 0)))`},
		{`(o.p) = 1`, `H.X(2, H.P30(1, o, "p", 1, 2))`},
		{`o[a, b] = 1`, `var T_1, T_2, T_3, T_4; H.X(2, ((T_4 = H.Pq30(1, T_1 = o, T_2 = (a, b), T_3 = 1)) !== 0 ? (T_1[T_2] = T_3, H.Pu(1, T_4), T_3) : H.Pm(1, T_1, T_2, T_3, 0)))`},
		{`o[f(), b] = 1`, `var T_1, T_2, T_3, T_4; H.X(4, ((T_4 = H.Pq30(3, T_1 = o, T_2 = (H.X(2, H.c0(1, f)), b), T_3 = 1)) !== 0 ? (T_1[T_2] = T_3, H.Pu(3, T_4), T_3) : H.Pm(3, T_1, T_2, T_3, 0)))`},
		{`"use strict"; o.p = 1`, `"use strict"; H.X(2, H.P30(1, o, "p", 1, 3))`},
		{`delete o.p`, `H.X(2, H.D(1, o, "p", 0))`},
		{`delete o[k]`, `H.X(2, H.D(1, o, k, 0))`},
		{`delete x`, `H.X(1, delete x)`},
		// calls
		{`f()`, `H.X(2, H.c0(1, f))`},
		{`f(a, ...b)`, `H.X(2, H.c(1, f, a, ...b))`},
		{`o.m(1, 2)`, `var T_1; H.X(3, H.m2(1, T_1 = o, H.M30(2, T_1, T_1.m), 1, 2))`},
		{`o[k]()`, `var T_1; H.X(3, H.m0(1, T_1 = o, H.M30(2, T_1, T_1[k])))`},
		{`o[a, b](c)`, `var T_1; H.X(3, H.m1(1, T_1 = o, H.M30(2, T_1, T_1[a, b]), c))`},
		// method calls: base, key, lookup (M), arguments, call; a base that
		// reads the same twice needs no temporary
		{`var o; o.m(a)`, `H.N(4, "o", o); var o; H.X(3, H.m1(1, o, H.M30(2, o, o.m), a))`},
		{`function f() { return this.m(a.b) }`, `H.N(8, "f", H.F(7, 5, f)); function f() {const __mt$f = H.Fe(5, f, this, new.target); try {  return H.Rx(__mt$f, 4, H.m1(2, this, H.Mt(3, __mt$f, this, this.m), H.G12(1, a).b)) } finally { H.Fr(6, __mt$f); } }`},
		{`function f(x = o.m()) {}`, `H.N(7, "f", H.F(6, 4, f)); function f(x = ((__mt$b) => H.m0(1, __mt$b = o, H.M30(2, __mt$b, __mt$b.m)))()) {const __mt$f = H.Fe(4, f, this, new.target); try { H.N(3, "x", x); } finally { H.Fr(5, __mt$f); } }`},
		{`(o.m)()`, `var T_1; H.X(3, H.m0(1, T_1 = o, H.M30(2, T_1, T_1.m)))`},
		{"o\n  .m()\n  .n()", "var T_1, T_2; H.X(5, H.m0(3, T_1 = H.m0(1, T_2 = o, H.M30(2, T_2, T_2.m)\n), H.M4(4, T_1, T_1.n)\n))"},
		{`(0, o.m)()`, `H.X(3, H.c0(2, (0, H.G30(1, o).m)))`},
		{`new F`, `H.X(2, H.n0(1, F))`},
		{`new F(a, b)`, `H.X(2, H.n2(1, F, a, b))`},
		{`new a.B()`, `H.X(3, H.n0(2, H.G12(1, a).B))`},
		{`eval(s)`, `H.X(2, eval(H.E(1, s, 0, eval)))`},
		// direct eval in strict code: the shim instruments its code as strict
		{`function f() { "use strict"; eval(s, t) }`, `H.N(6, "f", H.F(5, 3, f)); function f() { "use strict";const __mt$f = H.Fe(3, f, this, new.target); try {  eval(H.E(1, s, 1, eval), t), H.p[0] || H.X(2) } finally { H.Fr(4, __mt$f); } }`},
		{`function f(eval) { eval(s) }`, `H.N(7, "f", H.F(6, 4, f)); function f(eval) {const __mt$f = H.Fe(4, f, this, new.target); try { H.N(3, "eval", eval);  H.c1(1, eval, s), H.p[0] || H.X(2) } finally { H.Fr(5, __mt$f); } }`},
		// variables
		{`var x = 1, y`, `H.N(3, "x", x); H.N(4, "y", y); var x = H.X(2, H.W(1, "x", 1, x)), y`},
		{`x += 1`, `H.X(2, x = H.W(1, "x", x + (1), x))`},
		{`x *= a + b`, `H.X(2, x = H.W(1, "x", x * (a + b), x))`},
		{`x++`, `H.X(1, x++)`},
		{`a = b = c`, `H.X(3, a = H.W(2, "a", b = H.W(1, "b", c, (typeof b === "undefined" ? void 0 : b)), (typeof a === "undefined" ? void 0 : a)))`},
		{`var x; x = 1`, `H.N(3, "x", x); var x; H.X(2, x = H.W(1, "x", 1, x))`},
		// compound property operations
		{`o.p += 1`, `var T_1; H.X(3, H.P30(1, T_1 = o, "p", H.G30(2, T_1).p + (1), 2))`},
		{`o[k] *= 2`, `var T_1, T_2; H.X(3, H.P30(1, T_1 = o, T_2 = (k), H.G30(2, T_1)[T_2] * (2), 0))`},
		{`o.p++`, `var T_1, T_2, T_3; H.X(3, (T_2 = H.G30(2, T_1 = o).p, T_3 = T_2++, H.P30(1, T_1, "p", T_2, 2), T_3))`},
		{`++o[k]`, `var T_1, T_2, T_3; H.X(3, H.P30(1, T_1 = o, T_2 = (k), (T_3 = H.G30(2, T_1)[T_2], ++T_3), 0))`},
		{`x ||= {}`, `H.X(3, (x || (x = H.W(2, "x", H.T(1, {}), x))))`},
		{`o.p ??= []`, `var T_1; H.X(4, (H.G30(2, T_1 = o).p ?? H.P30(1, T_1, "p", H.T(3, []), 2)))`},
		// flushes
		{`a, b(), c`, `H.X(3, (a, H.X(2, H.c0(1, b)), c))`},
		{`x; 1; "s"; (y)`, `x; 1; "s"; (y)`},
		{`if (a.b) c()`, `if (((H.G12(1, a).b) ? H.p[0] || H.X(2, 1) : !H.p[0] && H.X(2, 0))) H.X(4, H.c0(3, c))`},
		{`while (x < f()) {}`, `while (((x < H.c0(1, f)) ? H.p[0] || H.X(2, 1) : !H.p[0] && H.X(2, 0))) {}`},
		{`do ; while (f())`, `do ; while (((H.c0(1, f)) ? H.p[0] || H.X(2, 1) : !H.p[0] && H.X(2, 0)))`},
		{`for (var i = 0; i < n; i++) g(i)`, `H.N(7, "i", i); for (var i = H.X(2, H.W(1, "i", 0, i)); ((i < n) ? H.p[0] || H.X(3, 1) : !H.p[0] && H.X(3, 0)); H.X(4, i++)) H.X(6, H.c1(5, g, i))`},
		{`t ? a : b`, `H.X(1, t ? a : b)`},
		{`x = t() ? a : b`, `H.X(4, x = H.W(3, "x", ((H.c0(1, t)) ? H.p[0] || H.X(2, 1) : !H.p[0] && H.X(2, 0)) ? a : b, (typeof x === "undefined" ? void 0 : x)))`},
		{`switch (f()) { case g(): break }`, `switch (H.X(2, H.c0(1, f))) { case H.X(4, H.c0(3, g)): break }`},
		{`throw e`, `throw H.Tw(e)`},
		{`throw new Error(m)`, `throw H.Tw(H.X(2, H.n1(1, Error, m)))`},
		// for-in
		{`for (k in o) f(k)`, `var T_1; for (T_1 in o) { k = H.X(2, H.W(1, "k", T_1, (typeof k === "undefined" ? void 0 : k))); H.X(4, H.c1(3, f, k)) }`},
		{`for (var k in o) f(k)`, `var T_1; H.N(5, "k", k); for (T_1 in o) { var k = H.X(2, H.W(1, "k", T_1, k)); H.X(4, H.c1(3, f, k)) }`},
		{`for (o.p in q) ;`, `for (o.p in q) ;`},
		// functions
		{`function f(a) { var b = a; return b }`, `H.N(9, "f", H.F(8, 6, f)); function f(a) {const __mt$f = H.Fe(6, f, this, new.target); try { H.N(4, "a", a); H.Nu(5, "b");  var b = H.X(2, H.W(1, "b", a, b)); return H.Rx(__mt$f, 3, b) } finally { H.Fr(7, __mt$f); } }`},
		{`var g = function h() { return h }`, `H.N(8, "g", g); var g = H.X(7, H.W(6, "g", H.F(5, 3, function h() {const __mt$f = H.Fe(3, h, this, new.target); try { H.N(2, "h", h);  return H.Rx(__mt$f, 1, h) } finally { H.Fr(4, __mt$f); } }), g))`},
		{`function f() { "use strict"; return }`, `H.N(4, "f", H.F(3, 1, f)); function f() { "use strict";const __mt$f = H.Fe(1, f, this, new.target); try {  return } finally { H.Fr(2, __mt$f); } }`},
		{`function f() { f = 1 }`, `H.N(6, "f", H.F(5, 3, f)); function f() {const __mt$f = H.Fe(3, void 0, this, new.target); try {  f = H.W(1, "f", 1, f), H.p[0] || H.X(2) } finally { H.Fr(4, __mt$f); } }`},
		{`function f() { g(); function g() {} }`, `H.N(10, "f", H.F(9, 7, f)); function f() {const __mt$f = H.Fe(7, f, this, new.target); try { H.N(6, "g", H.F(5, 3, g));  H.c0(1, g), H.p[0] || H.X(2); function g() {const __mt$f = H.Fe(3, g, this, new.target); try { } finally { H.Fr(4, __mt$f); } } } finally { H.Fr(8, __mt$f); } }`},
		// a var repeating a function declaration: no try wrapper, Fr on each exit
		{`function f() { var g = 1; return g; function g() {} }`, `H.N(11, "f", H.F(10, 9, f)); function f() {const __mt$f = H.Fe(9, f, this, new.target); H.N(8, "g", H.F(7, 5, g));  var g = H.X(3, H.W(2, "g", 1, g)); return H.Fr(1, __mt$f, H.Rx(__mt$f, 4, g)); function g() {const __mt$f = H.Fe(5, void 0, this, new.target); try { } finally { H.Fr(6, __mt$f); } } ;H.Fr(1, __mt$f); }`},
		{`with (o) { f(); x = 1 }`, `with (o) { H.X(1, f()); H.X(3, x = H.W(2, "x", 1, (typeof x === "undefined" ? void 0 : x))) }`},
		// no temporaries under with: their names would be looked up in o
		{`with (o) { a[k] = 1 }`, `with (o) { H.X(2, H.P12(1, a, k, 1, 0)) }`},
	} {
		expectInstrumented(t, c[0], c[1])
	}
}

func TestModernConstructs(t *testing.T) {
	for _, c := range [][2]string{
		{`let f = (a, b) => a + b`, `let f = H.X(8, H.N(7, "f", H.F(6, 4, {"f": (a, b) => { const __mt$f = H.Fe(4, void 0); try { H.N(2, "a", a); H.N(3, "b", b); return H.Rx(__mt$f, 1, a + b) } finally { H.Fr(5, __mt$f); } }}["f"])))`},
		{`f(() => ({}))`, `H.X(7, H.c1(6, f, H.F(5, 3, () => { const __mt$f = H.Fe(3, void 0); try { return H.Rx(__mt$f, 2, (H.T(1, {}))) } finally { H.Fr(4, __mt$f); } })))`},
		{`let x`, `let x = H.N(1, "x", void 0)`},
		{`const {a, b: [c]} = o`, `const {a, b: [c]} = o, {} = (H.N(1, "a", a), H.N(2, "c", c), 0)`},
		{`for (const [k, v] of m) use(k, v)`, `for (const [k, v] of m) { H.N(1, "k", k); H.N(2, "v", v); H.X(3); H.X(5, H.c2(4, use, k, v)) }`},
		{`[a, b] = [b, a]`, `var T_1; H.X(4, (T_1 = ([a, b] = H.T(1, [b, a])), H.W(2, "a", a, void 0), H.W(3, "b", b, void 0), T_1))`},
		{`x = class {}`, `H.X(4, x = H.W(3, "x", H.F(2, -1, {"x": class {}}["x"]), (typeof x === "undefined" ? void 0 : x)))`},
		{`class A extends B { constructor(x) { super(x) } m() { return super.m() } static s() {} }`, `let A = H.N(12, "A", H.F(11, 4, class A extends B { constructor(x) {const __mt$f = H.Fe(4, void 0, void 0, new.target); try { H.N(3, "x", x);  H.Sp(1, __mt$f, super(x)), H.p[0] || H.X(2) } finally { H.Fr(5, __mt$f); } } m() {const __mt$f = H.Fe(7, void 0, this, new.target); try {  return H.Rx(__mt$f, 6, super.m()) } finally { H.Fr(8, __mt$f); } } static s() {const __mt$f = H.Fe(9, void 0, this, new.target); try { } finally { H.Fr(10, __mt$f); } } }, void 0, "m", 16, 7, "s", 4, 9));`},
		{`class C { #x = 1; y = o.p; static { f() } m() { return this.#x } }`, `let C = H.N(12, "C", H.F(11, -10, class C { #x = H.Q(1, this, "#x", 1, 1); y = H.Q(3, this, "y", H.G30(2, o).p, 1); static { H.c0(4, f), H.p[0] || H.X(5) } m() {const __mt$f = H.Fe(8, void 0, this, new.target); try {  return H.Rx(__mt$f, 7, H.Gt(6, __mt$f, this).#x) } finally { H.Fr(9, __mt$f); } } }, void 0, "m", 0, 8));`},
		// this from the frame (Gt, Pt, Mt) only where the frame's this is the function's own for the whole body: not in parameters, arrows, generators
		{`function f(x = this.p) { this.q = () => this.r; }`, `H.N(13, "f", H.F(12, 10, f)); function f(x = H.G1(1, this).p) {const __mt$f = H.Fe(10, f, this, new.target); try { H.Nt(10, __mt$f, this); H.N(9, "x", x);  H.Pt(7, __mt$f, this, "q", H.F(6, 4, () => { const __mt$f = H.Fe(4, void 0); try { return H.Rx(__mt$f, 3, H.G2(2, this).r) } finally { H.Fr(5, __mt$f); } }), 2), H.p[0] || H.X(8); } finally { H.Fr(11, __mt$f); } }`},
		{`function* g() { yield this.p }`, `H.N(7, "g", H.F(6, 4, g)); function* g() {const __mt$f = H.Fg(4, g, this, new.target); try {  H.Y(2, __mt$f, yield H.Yv(2, __mt$f, H.G1(1, this).p)), H.p[0] || H.X(3) } finally { H.Fx(5, __mt$f); } }`},
		{`o = {m() {}, get p() { return 1 }, [k]: 1, ...s}`, `H.X(8, o = H.W(7, "o", H.Ts(6, {m() {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } }, get p() {const __mt$f = H.Fe(4, void 0, this, new.target); try {  return H.Rx(__mt$f, 3, 1) } finally { H.Fr(5, __mt$f); } }, [k]: 1, ...s}, "m", 0, 1, "p", 1, 4), (typeof o === "undefined" ? void 0 : o)))`},
		{`async function* g() { yield* await h() }`, `H.N(8, "g", H.F(7, 5, g)); async function* g() {const __mt$f = H.Fg(5, g, this, new.target); try {  H.Y(3, __mt$f, yield* H.Ys(3, __mt$f, H.Y(2, __mt$f, await H.Ys(2, __mt$f, H.c0(1, h))))), H.p[0] || H.X(4) } finally { H.Fx(6, __mt$f); } }`},
		{`a?.b.c`, `H.X(2, H.G12(1, a)?.b.c)`},
		{`a?.b?.(c.d)`, `var T_1, T_2; H.X(4, ((T_1 = a) === null || T_1 === void 0 ? void 0 : (T_2 = H.Mk(3, T_1, "b")) === null || T_2 === void 0 ? void 0 : H.m1(2, T_1, T_2, H.G18(1, c).d)))`},
		{`o.p?.m()`, `var T_1; H.X(4, ((T_1 = H.G30(1, o).p) === null || T_1 === void 0 ? void 0 : H.m0(2, T_1, H.Mk(3, T_1, "m"))))`},
		// tagged templates: through the call hooks, the template's arguments from H.q (one site per template: the strings object is the program's)
		{"t`x${a.b}`", "H.X(3, H.ct(2, t, H.q`x${H.G12(1, a).b}`))"},
		{"o.f `a${1}`; o[k]`b`; (a.b)`c`", "var T_1; H.X(3, H.mt(1, T_1 = o, H.M30(2, T_1, T_1.f), H.q`a${1}`)); H.X(6, H.mt(4, T_1 = o, H.M30(5, T_1, T_1[k]), H.q`b`)); H.X(9, H.mt(7, T_1 = a, H.M12(8, T_1, T_1.b), H.q`c`))"},
		{"class C { #t() {} m() { return this.#t`x` } }", "let C = H.N(10, \"C\", H.F(9, -8, class C { #t() {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } } m() {const __mt$f = H.Fe(6, void 0, this, new.target); try {  return H.Rx(__mt$f, 5, H.mt(4, H.Gt(3, __mt$f, this), this.#t, H.q`x`)) } finally { H.Fr(7, __mt$f); } } }, void 0, \"#t\", 8, 1, \"m\", 0, 6));"},
		{`label: for (;;) break label`, `label: for (;;) break label`},
		{`function h(x = o.p) {}`, `H.N(6, "h", H.F(5, 3, h)); function h(x = H.G30(1, o).p) {const __mt$f = H.Fe(3, h, this, new.target); try { H.N(2, "x", x); } finally { H.Fr(4, __mt$f); } }`},
		// names from named evaluation: numeric keys, a string key with a line continuation (requoted: lines stay), __proto__ (a computed key)
		{"x = {1: function* () {}, \"a\\\nb\": () => 1}; var __proto__ = () => 2", "H.N(17, \"__proto__\", __proto__); H.X(10, x = H.W(9, \"x\", H.T(8, {1: H.F(3, 1, {1: function* () {const __mt$f = H.Fg(1, void 0, this, new.target); try { } finally { H.Fx(2, __mt$f); } }}[1]), \"a\\\nb\": H.F(7, 5, {\"ab\": () => { const __mt$f = H.Fe(5, void 0); try { return H.Rx(__mt$f, 4, 1) } finally { H.Fr(6, __mt$f); } }}[\"ab\"])}), (typeof x === \"undefined\" ? void 0 : x))); var __proto__ = H.X(16, H.W(15, \"__proto__\", H.F(14, 12, {[\"__proto__\"]: () => { const __mt$f = H.Fe(12, void 0); try { return H.Rx(__mt$f, 11, 2) } finally { H.Fr(13, __mt$f); } }}[\"__proto__\"]), __proto__))"},
		// names from computed keys: the object literal's property is spread from an object of its own (Fo); a class field's key is kept in a temporary (K) for its Q and name
		{`o = {[k]: () => 1, [j]: 2}; class C { [k] = function () {}; static [j] = 2 }`, `var T_k1, T_k2; H.X(7, o = H.W(6, "o", H.Ts(5, {...H.Fo(4, 2, {[k]: () => { const __mt$f = H.Fe(2, void 0); try { return H.Rx(__mt$f, 1, 1) } finally { H.Fr(3, __mt$f); } }}), [j]: 2}), (typeof o === "undefined" ? void 0 : o))); let C = H.N(15, "C", H.F(14, -13, class C { [T_k1 = H.K(k)] = H.Q(11, this, T_k1, H.F(10, 8, {[T_k1]: function () {const __mt$f = H.Fe(8, void 0, this, new.target); try { } finally { H.Fr(9, __mt$f); } }}[T_k1]), 1); static [T_k2 = H.K(j)] = H.Q(12, this, T_k2, 2, 0) }));`},
		{`x = {f: function () {}, "g": () => 1}`, `H.X(10, x = H.W(9, "x", H.T(8, {f: H.F(3, 1, {"f": function () {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } }}["f"]), "g": H.F(7, 5, {"g": () => { const __mt$f = H.Fe(5, void 0); try { return H.Rx(__mt$f, 4, 1) } finally { H.Fr(6, __mt$f); } }}["g"])}), (typeof x === "undefined" ? void 0 : x)))`},
	} {
		expectInstrumented(t, c[0], c[1])
	}
}

func TestGoals(t *testing.T) {
	expectGoal(t, js.Module, `import x from "m"; export let y = x.p; export default () => 1`,
		`try { H.N(8, "x@", x); } catch (__mt$e) {} import x from "m"; export let y = H.X(3, H.N(2, "y@", H.G7(1, x).p)); export default H.F(7, 5, {"default": () => { const __mt$f = H.Fe(5, void 0); try { return H.Rx(__mt$f, 4, 1) } finally { H.Fr(6, __mt$f); } }}["default"])`)
	got, err := strip("'use strict'\nvar a = f(); return a", js.CommonJS)
	if err != nil {
		t.Fatal(err)
	}
	want := "'use strict';try { H.N(4, \"a@\", a); \nvar a = H.X(3, H.W(2, \"a@\", H.c0(1, f), a)); return a\n} finally { H.Sx(); }"
	if got != want {
		t.Errorf("commonjs:\n got: %q\nwant: %q", got, want)
	}
}

func TestOptionalChains(t *testing.T) {
	for _, c := range [][2]string{
		{`a?.b.c?.d`, `H.X(2, H.G12(1, a)?.b.c?.d)`},
		{`a.b()?.c`, `var T_1; H.X(4, H.G3(3, H.m0(1, T_1 = a, H.M12(2, T_1, T_1.b)))?.c)`},
		{`f?.()?.()`, `var T_1, T_2; H.X(3, ((T_1 = f) === null || T_1 === void 0 ? void 0 : (T_2 = H.c0(1, T_1)) === null || T_2 === void 0 ? void 0 : H.c0(2, T_2)))`},
		{`a?.[k.p](x.y)`, `var T_1; H.X(5, ((T_1 = a) === null || T_1 === void 0 ? void 0 : H.m1(3, T_1, H.Mk(4, T_1, H.G10(1, k).p), H.G7(2, x).y)))`},
		// An optional call of a method keeps its base for this.
		{`o.f?.(x)`, `var T_1, T_2; H.X(3, ((T_2 = H.Mk(2, T_1 = o, "f")) === null || T_2 === void 0 ? void 0 : H.m1(1, T_1, T_2, x)))`},
		{`a?.b.c(d).e`, `var T_1, T_2; H.X(5, ((T_1 = a) === null || T_1 === void 0 ? void 0 : H.G4(4, H.m1(2, T_2 = H.G12(1, T_1).b, H.Mk(3, T_2, "c"), d)).e))`},
		// Where this or the reference comes from the chain itself, and where
		// no temporary can be declared, the chain keeps its form.
		{`(a?.b)()`, `H.X(2, (H.G12(1, a)?.b)())`},
		{`(a?.f)` + "`t`", `H.X(2, (H.G12(1, a)?.f)` + "`t`" + `)`},
		{`delete a?.f().x`, `H.X(2, delete H.G12(1, a)?.f().x)`},
	} {
		expectInstrumented(t, c[0], c[1])
	}
}

// TestClasses: a class is F of its constructor (Fe negated for the implicit
// one) plus (key, kind, fe) triples for its methods, getters and setters
// (kind +4 static, +8 private); field initializers and private field
// writes go through Q; super() in a derived constructor through Sp.
func TestClasses(t *testing.T) {
	for _, c := range [][2]string{
		{`class C { m() { return 1; } }`, `let C = H.N(6, "C", H.F(5, -4, class C { m() {const __mt$f = H.Fe(2, void 0, this, new.target); try {  return H.Rx(__mt$f, 1, 1); } finally { H.Fr(3, __mt$f); } } }, void 0, "m", 0, 2));`},
		{`class C { get g() {} set g(v) {} static s() {} #p() {} static get #q() {} }`, `let C = H.N(14, "C", H.F(13, -12, class C { get g() {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } } set g(v) {const __mt$f = H.Fe(4, void 0, this, new.target); try { H.N(3, "v", v); } finally { H.Fr(5, __mt$f); } } static s() {const __mt$f = H.Fe(6, void 0, this, new.target); try { } finally { H.Fr(7, __mt$f); } } #p() {const __mt$f = H.Fe(8, void 0, this, new.target); try { } finally { H.Fr(9, __mt$f); } } static get #q() {const __mt$f = H.Fe(10, void 0, this, new.target); try { } finally { H.Fr(11, __mt$f); } } }, void 0, "g", 1, 1, "g", 2, 4, "s", 4, 6, "#p", 8, 8, "#q", 13, 10));`},
		{`class D extends B { x = {}; static y = 1; constructor() { super(); this.#z = o; } #z; }`, `let D = H.N(11, "D", H.F(10, 8, class D extends B { x = H.Q(2, this, "x", H.T(1, {}), 1); static y = H.Q(3, this, "y", 1, 0); constructor() {const __mt$f = H.Fe(8, void 0, void 0, new.target); try {  H.Sp(4, __mt$f, super()), H.p[0] || H.X(5); this.#z = H.Q(6, this, "#z", o, 0), H.p[0] || H.X(7); } finally { H.Fr(9, __mt$f); } } #z; }));`},
		{`(class { [k]() {} "s"() {} 1() {} })`, `H.X(9, (H.F(8, -7, class { [k]() {const __mt$f = H.Fe(1, void 0, this, new.target); try { } finally { H.Fr(2, __mt$f); } } "s"() {const __mt$f = H.Fe(3, void 0, this, new.target); try { } finally { H.Fr(4, __mt$f); } } 1() {const __mt$f = H.Fe(5, void 0, this, new.target); try { } finally { H.Fr(6, __mt$f); } } }, void 0, "s", 0, 3, 1, 0, 5)))`},
	} {
		expectInstrumented(t, c[0], c[1])
	}
}

// A sloppy generator named yield cannot name itself inside its body, where
// yield is an operator: its self-reference falls back to the shim's lookup.
func TestSelfReferenceKeywordNames(t *testing.T) {
	for _, src := range []string{"function* yield() { yield 1; }", "async function await() {}"} {
		res, err := Instrument([]byte(src), Options{Goal: js.Script})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		code := string(res.Code)
		if !strings.Contains(code, ".Fg(") || strings.Contains(code, ", yield, this") || strings.Contains(code, ", await, this") {
			t.Errorf("%s: self-reference not dropped:\n%s", src, code)
		}
		if _, err := js.Parse(res.Code, js.Options{Goal: js.Script}); err != nil {
			t.Errorf("re-parse: %v\n%s", err, code)
		}
	}
}

// TestHookCopyByName: a property read's or write's hook copy follows the
// name of its object (a variable, or a named property), so that every
// site reading one kind of object shares a reader (copyOf); other objects
// take the copy of their local iid.
func TestHookCopyByName(t *testing.T) {
	src := `function f(c, d) { c[0] = d.x + c[1]; return c[2] + this.pos.x + d.pos.y + g().a + g().b + (c || d).z }
function h(c) { return c[3] + c[4] + c?.[5] + c?.pos.x + d?.x.y + g()?.c }`
	// Every read keeps its G (KeepUses): c[3] is superseded by c[4].
	got, err := stripSwitched(src, Options{Goal: js.Script, File: "t.js"}, testswitch.Switches{KeepUses: true})
	if err != nil {
		t.Fatal(err)
	}
	byObj := map[string]map[string]bool{}
	n := 0
	for _, loc := range regexp.MustCompile(`\.(G|P|Pq)(\d+)\((\d+), (?:[\w$]+ = )?`).FindAllStringSubmatchIndex(got, -1) {
		m := []string{got[loc[0]:loc[1]], got[loc[2]:loc[3]], got[loc[4]:loc[5]], got[loc[6]:loc[7]]}
		copyNum, _ := strconv.Atoi(m[2])
		iid, _ := strconv.Atoi(m[3])
		// The object: the hook's second argument, up to a comma or the
		// closing parenthesis at its own depth.
		end, depth := loc[1], 0
		for ; end < len(got); end++ {
			if c := got[end]; c == '(' {
				depth++
			} else if c == ')' && depth > 0 {
				depth--
			} else if (c == ',' || c == ')') && depth == 0 {
				break
			}
		}
		obj := got[loc[1]:end]
		if copyNum < 0 || copyNum >= HookCopies {
			t.Errorf("%s%d: no such copy", m[1], copyNum)
		}
		switch {
		case obj == "c" || obj == "d" || strings.HasSuffix(obj, ".pos"):
			key := obj
			if strings.HasSuffix(obj, ".pos") {
				key = ".pos"
			}
			if byObj[key] == nil {
				byObj[key] = map[string]bool{}
			}
			byObj[key][m[2]] = true
			n++
		case strings.HasPrefix(obj, "H.c0("), strings.HasPrefix(obj, "("), strings.Contains(obj, "H.c0("):
			if copyNum != iid%HookCopies {
				t.Errorf("%s at iid %d on %s: copy %d, want the iid's, %d", m[1], iid, obj, copyNum, iid%HookCopies)
			}
		}
	}
	if n < 12 || len(byObj) != 3 {
		t.Fatalf("found %d hooks on c, d and .pos (%v) in\n%s", n, byObj, got)
	}
	for k, copies := range byObj {
		if len(copies) != 1 {
			t.Errorf("the sites on %s call copies %v, want one", k, copies)
		}
	}
	// An optional call of a private method reads its base through G
	// (chain.go): the copy of c's name, as c[0]'s.
	got, err = strip(`class K { #p() {} k(c) { return c[0] + c?.#p() } }`, js.Script)
	if err != nil {
		t.Fatal(err)
	}
	gs := regexp.MustCompile(`\.G(\d+)\(`).FindAllStringSubmatch(got, -1)
	if len(gs) != 2 || gs[0][1] != gs[1][1] {
		t.Errorf("c[0] and c?.#p() read c through copies %v, want one copy:\n%s", gs, got)
	}
}

// TestHookCopyCaptured: a variable read from an enclosing function takes
// a copy apart from the locals of its name (an Emscripten module's heap
// view c against each function's own c), the same for every function that
// reads it, and for every captured binding of that name.
func TestHookCopyCaptured(t *testing.T) {
	src := `function mod() {
  var c = new Int32Array(8);
  function load(i) { return c[i >> 2]; }
  function store(i, v) { c[i >> 2] = v; }
  function own(c) { c[0] = 1; return c[1]; }
  c[2] = 3;
  return [load, store, own, () => c[3]];
}
function other() { var c = [1]; return function () { return c[0]; }; }
var t = [2];
t[0] = 4;
function top() { return t[1]; }`
	got, err := strip(src, js.Script)
	if err != nil {
		t.Fatal(err)
	}
	// Each hook on c, in source order, with its copy.
	var copies []string
	for _, m := range regexp.MustCompile(`\.(G|P|Pq)(\d+)\(\d+, (?:[\w$]+ = )?c[,)]`).FindAllStringSubmatch(got, -1) {
		copies = append(copies, m[1]+m[2])
	}
	// load, store (captured); own's write and read, mod's own write
	// (local); the arrow's read, other's closure's read (captured).
	want := []string{"G22", "Pq22", "Pq18", "G18", "Pq18", "G22", "G22"}
	if strings.Join(copies, " ") != strings.Join(want, " ") {
		t.Errorf("hooks on c: %v, want %v (captured: c@, local: c)\n%s", copies, want, got)
	}
	// A script's top-level name read by a function is captured too; the
	// top level's own write is not.
	copies = nil
	for _, m := range regexp.MustCompile(`\.(G|P|Pq)(\d+)\(\d+, (?:[\w$]+ = )?t[,)]`).FindAllStringSubmatch(got, -1) {
		copies = append(copies, m[1]+m[2])
	}
	if want := "Pq3 G25"; strings.Join(copies, " ") != want {
		t.Errorf("hooks on t: %v, want %s (top level: t, in top: t@)\n%s", copies, want, got)
	}
}

// TestInlineXSizeLimit: statements test the pending-flush slot inline in
// functions of up to inlineXMax characters; longer functions keep X's
// calls (their graphs in TurboFan), and so does a classic script's top
// level, where completion values are observable.
func TestInlineXSizeLimit(t *testing.T) {
	body := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString("o.x = 1; ")
		}
		return b.String()
	}
	for _, c := range []struct {
		n      int
		inline bool
	}{{inlineXMax - 100, true}, {inlineXMax + 100, false}} {
		got, err := strip("function f(o) { if (o.y) o.y = 0; "+body(c.n)+"} o.y = 2;", js.Script)
		if err != nil {
			t.Fatal(err)
		}
		ifs := len(inlineTestRE.FindAllString(got, -1))
		tests, calls := strings.Count(got, "H.p[0] || H.X("), strings.Count(got, "H.X(")
		if c.inline && (tests == 0 || ifs != 1 || tests+ifs != calls-1) || !c.inline && tests != 0 {
			t.Errorf("function of about %d characters: %d inline tests (%d of an if's test), %d X calls in all", c.n, tests, ifs, calls)
		}
	}
}

// TestInlineXGoals: the inline test applies where no completion value can
// be observed: in function bodies whatever the goal (eval code's too), at
// a module's or CommonJS module's top level, not at the top level of a
// classic script or of eval code (eval("o.x = 1") gives 1: the value must
// reach X's return), nor with CallX. The tests of if, loops and ?: have
// no completion value: their inline form applies at every top level.
//
// inlineTestRE matches a test's inline form (tested), whatever the handle.
var inlineTestRE = regexp.MustCompile(`\) \? (\S+)\.p\[0\] \|\| (\S+)\.X\(\d+, 1\) : !(\S+)\.p\[0\] && (\S+)\.X\(\d+, 0\)\)`)

func TestInlineXGoals(t *testing.T) {
	const src = "o.x = 1; function f(o) { o.y = 2; }"
	for _, c := range []struct {
		name string
		opts Options
		sw   testswitch.Switches
		want int // statements with the inline test: the function's, and the top level's where allowed
	}{
		{name: "script", opts: Options{Goal: js.Script}, want: 1},
		{name: "module", opts: Options{Goal: js.Module}, want: 2},
		{name: "commonjs", opts: Options{Goal: js.CommonJS}, want: 2},
		{name: "eval", opts: Options{Goal: js.Script, Eval: true}, want: 1},
		{name: "global eval", opts: Options{Goal: js.Script, Eval: true, GlobalCode: true}, want: 1},
		{name: "eval as CommonJS", opts: Options{Goal: js.CommonJS, Eval: true}, want: 1},
		{name: "CallX", opts: Options{Goal: js.Module}, sw: testswitch.Switches{CallX: true}, want: 0},
	} {
		c.opts.File = "t.js"
		res, err := InstrumentWith([]byte(src), c.opts, c.sw)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := strings.Count(string(res.Code), ".p[0] || "); n != c.want {
			t.Errorf("%s: %d inline tests, want %d\n%s", c.name, n, c.want, res.Code)
		}
		// A test has no completion value: inline at every top level (not
		// with CallX).
		res, err = InstrumentWith([]byte("if (o.x) o.y = 2;"), c.opts, c.sw)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := 1
		if c.sw.CallX {
			want = 0
		}
		if n := len(inlineTestRE.FindAllIndex(res.Code, -1)); n != want {
			t.Errorf("%s: %d inline tests of the if's test, want %d\n%s", c.name, n, want, res.Code)
		}
	}
}
