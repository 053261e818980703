package instrument

import (
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

// TestLogicalMembers: logical assignments to private fields, super
// properties and fields in initializers write (Q, Ps, P) only when the
// operator assigns, with the base evaluated once
// (docs/instrumentation.md §4, Q, Ps, Qt).
func TestLogicalMembers(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		// A private field's lazily cached value: Q only when ??= assigns.
		{`class C { #c; get c() { return this.#c ??= new Map(); } }`, "try { let C = H.N(8, \"C\", H.F(7, -6, class C { #c; get c() {const __mt$f = H.Fe(4, void 0, this, new.target); try {  return H.Rx(__mt$f, 3, (this.#c ?? (this.#c = H.Q(2, this, \"#c\", H.n0(1, Map), 0)))); } finally { H.Fr(5, __mt$f); } } }, void 0, \"c\", 1, 4));\n} finally { H.Sx(); }"},
		// A base that is not a variable is evaluated once, into a temporary.
		{`class C { #c; static f(g) { g().#c ||= {}; } }`, "try { let C = H.N(10, \"C\", H.F(9, -8, class C { #c; static f(g) {const __mt$f = H.Fe(6, void 0, this, new.target); var __mt$1; try { H.N(5, \"g\", g);  ((__mt$1 = H.c0(1, g)).#c || (__mt$1.#c = H.Q(3, __mt$1, \"#c\", H.T(2, {}), 0))), H.p[0] || H.X(4); } finally { H.Fr(7, __mt$f); } } }, void 0, \"f\", 4, 6));\n} finally { H.Sx(); }"},
		{`class C { #c; static f(o) { o.#c &&= {}; } }`, "try { let C = H.N(9, \"C\", H.F(8, -7, class C { #c; static f(o) {const __mt$f = H.Fe(5, void 0, this, new.target); try { H.N(4, \"o\", o);  (o.#c && (o.#c = H.Q(2, o, \"#c\", H.T(1, {}), 0))), H.p[0] || H.X(3); } finally { H.Fr(6, __mt$f); } } }, void 0, \"f\", 4, 5));\n} finally { H.Sx(); }"},
		// super properties: Ps after the write; a computed key stays.
		{`class C extends B { m() { super.x ??= {}; super.y = {}; super[k] ||= 1; } }`, "try { let C = H.N(12, \"C\", H.F(11, -10, class C extends B { m() {const __mt$f = H.Fe(8, void 0, this, new.target); try {  (super.x ?? H.Ps(2, this, \"x\", super.x = H.T(1, {}))), H.p[0] || H.X(3); H.Ps(5, this, \"y\", super.y = H.T(4, {})), H.p[0] || H.X(6); super[k] ||= 1, H.p[0] || H.X(7); } finally { H.Fr(9, __mt$f); } } }, void 0, \"m\", 16, 8));\n} finally { H.Sx(); }"},
		// Field initializers: no temporaries (a stable base read twice), no X, this given its id (Qt, Q with inst 1).
		{`class C { a = (this.b ??= {}, 1); #c; d = this.#c ||= {}; e = this.f = {}; static g = this.h ||= {}; }`, "try { let C = H.N(17, \"C\", H.F(16, -15, class C { a = H.Q(4, this, \"a\", ((H.G2(2, this).b ?? H.P1(1, H.Qt(1, this), \"b\", H.T(3, {}), 3)), 1), 1); #c; d = H.Q(7, this, \"d\", (this.#c || (this.#c = H.Q(6, this, \"#c\", H.T(5, {}), 1))), 1); e = H.Q(10, this, \"e\", H.P9(9, H.Qt(9, this), \"f\", H.T(8, {}), 3), 1); static g = H.Q(14, this, \"g\", (H.G12(12, this).h || H.P11(11, this, \"h\", H.T(13, {}), 3)), 0); }));\n} finally { H.Sx(); }"},
	} {
		expectGoal(t, js.CommonJS, c.src, c.want)
	}
}
