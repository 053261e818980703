package runtimeshim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

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
	node := nodeOrSkip(t)
	shim := shimFile(t)
	prog := filepath.Join(t.TempDir(), "ctor.js")
	instrumentFile(t, prog, ctorThisProgram, instrument.Options{Goal: js.CommonJS, File: "ctor.js"})
	got := run(t, node, shim, prog, nil)
	if got.exit != 0 || got.stdout != "1 2 3 true true 4\n" {
		t.Fatalf("exit %d, output %q\n%s", got.exit, got.stdout, got.stderr)
	}
	check(t, "ctor.js", got.trace)
	text := dump(t, got.trace)
	const golden = "testdata/ctorthis.trace"
	if *update {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if text != string(want) {
		t.Fatalf("trace differs from %s:\n%s", golden, lineDiff(string(want), text))
	}
}
