package runtimeshim

import "testing"

// ctorThisProgram constructs objects whose this Fe reads apart from the
// shim's other lookups (selfIdOfNew): made by [[Construct]] without an id
// (a function's, a base class's, Reflect.construct with another
// newTarget), or given one before the body runs: by a class field
// initializer that writes an object, by a parameter default that stores
// this, by a base constructor for its derived class.
const ctorThisProgram = `var saved;
function P(x) { this.x = x; }
function Q(a = (saved = this)) { this.a = {}; }
class A { f = {}; constructor(v) { this.v = v; } }
class B extends A { g = []; constructor() { super(3); this.h = this.g; } }
class C { static made = 0; constructor() { C.made++; } }
var p = new P(1), q = new Q(), a = new A(2), b = new B(), r = Reflect.construct(P, [4], C);
console.log(p.x, a.v, b.v, saved === q, r instanceof C, r.x);
`

// TestConstructorThis: the trace of those constructions, against
// testdata/ctorthis.trace (go test -update writes it; its bytes were the
// same with the shim before this's read apart, 5c93a22).
func TestConstructorThis(t *testing.T) {
	got := runCJS(t, ctorThisProgram, "ctor.js", "1 2 3 true true 4\n", nil)
	matchGolden(t, "testdata/ctorthis.trace", dump(t, got.trace))
}
