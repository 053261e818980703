package runtimeshim

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
)

// TestRegExpIdsOffTheObject: a regexp keeps its id in the shim's fallback
// map, not as a private field, which would give it a hidden class of its
// own and send every exec, test, replace and split on it down V8's slow
// generic path (about 8X): regexp literals, and regexps that the RegExp
// constructor makes (new RegExp, RegExp(...)) once they get an id. V8's
// own %HaveSameMap, from an uninstrumented helper, compares each with a
// regexp the shim never saw; the trace must still name them (their
// CREATE_OBJ at the call site, the PUTFIELDs that store them).
func TestRegExpIdsOffTheObject(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	src := `const r1 = new RegExp('a+', 'g');
const o = {};
o.r = r1;
o.s = RegExp('b');
var t = new RegExp('c');
let lit = /d/;
const sub = new (class extends RegExp {})('e');
console.log(sameMap(r1, freshRe()), sameMap(o.s, freshRe()), sameMap(t, freshRe()), sameMap(lit, freshRe()), r1.test('caa'), o.s.source, sub.test('e'));
`
	res, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.CommonJS, File: "re.js"})
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "re.js")
	helper := filepath.Join(dir, "helper.js")
	for name, b := range map[string]string{prog: string(res.Code), helper: `globalThis.sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)');
globalThis.freshRe = function () { return new RegExp('z'); };
`} {
		if err := os.WriteFile(name, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, b := runWithNatives(t, node, helper, shim, prog)
	if s := strings.TrimSpace(got); s != "true true true true true b true" {
		t.Fatalf("got %q, want every regexp with a fresh regexp's hidden class: true true true true true b true", s)
	}
	check(t, "regexps", b)
	d := dump(t, b)
	// Four regexps of the program's own get ids: r1 (CREATE_OBJ at the
	// new, PUTFIELD r), RegExp('b') (PUTFIELD s), t (WRITE), lit (DECLARE).
	for _, want := range []string{`"r",`, `"s",`} {
		if !strings.Contains(d, want) {
			t.Fatalf("no PUTFIELD %s in the trace:\n%s", want, d)
		}
	}
	if n := strings.Count(d, "[1,"); n < 5 {
		t.Fatalf("%d CREATE_OBJ entries, want at least 5 (o and four regexps):\n%s", n, d)
	}
}

// TestNamedWritesKeepObjectsFast: P makes a write the program wrote as
// o.name = v as a named store. V8 turns an object into a dictionary once
// keyed stores (o[k] = v, the shim's generic write) have added more than
// a dozen properties out of its object, named stores only past 128: an
// object the program fills with o.p0 = …, o.p1 = … (a namespace, a module's
// exports, a constructor's many fields) stayed fast uninstrumented and
// became a dictionary instrumented. V8's own %HasFastProperties, from an
// uninstrumented helper, checks objects filled by sloppy and strict code,
// a function, this in a constructor and compound writes; o[k] writes make
// a dictionary as without instrumentation. The trace still has every
// object-valued write. Functions and classes named by named evaluation
// (var g = function () {}) keep their fast properties too: the
// instrumenter lets the engine name them ({g: function () {}}["g"]) where
// the shim used to define the name, which made a dictionary of each.
func TestNamedWritesKeepObjectsFast(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	var fill, fillThis, fillStrict, fillKeyed strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&fill, "o.p%d = {};\nf.p%d = 1;\ng.p%d = 1;\n", i, i, i)
		fmt.Fprintf(&fillThis, "  this.p%d = %d;\n", i, i)
		fmt.Fprintf(&fillStrict, "  s.p%d = 1; s.p%d += 1;\n", i, i)
	}
	fillKeyed.WriteString("for (let i = 0; i < 40; i++) k['q' + i] = 1;\n")
	src := "const o = {}, k = {};\nfunction f() {}\nvar g = function () {}, a = () => {}, b = { m: function () {} }, D = class {};\n" + fill.String() + fillKeyed.String() +
		"function C() {\n" + fillThis.String() + "}\nconst c = new C();\n" +
		"const s = (() => { 'use strict'; const s = {};\n" + fillStrict.String() + "  return s; })();\n" +
		"console.log(fast(o), fast(f), fast(c), fast(s), fast(k), o.p39 !== o.p0, c.p39, s.p39);\n" +
		"console.log(fast(g), fast(a), fast(b.m), fast(D), g.name, a.name, b.m.name, D.name);\n"
	res, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.CommonJS, File: "fill.js"})
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "fill.js")
	plainProg := filepath.Join(dir, "plain.js")
	helper := filepath.Join(dir, "helper.js")
	for name, b := range map[string]string{prog: string(res.Code), plainProg: src, helper: `globalThis.fast = new Function('o', 'return %HasFastProperties(o)');
`} {
		if err := os.WriteFile(name, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const want = "true true true true false true 39 2\ntrue true true true g a m D"
	plain, err := exec.Command(node, "--allow-natives-syntax", "-r", helper, plainProg).CombinedOutput()
	if err != nil || strings.TrimSpace(string(plain)) != want {
		t.Fatalf("plain node: %v, %q, want %q", err, plain, want)
	}
	got, b := runWithNatives(t, node, helper, shim, prog)
	if s := strings.TrimSpace(got); s != want {
		t.Fatalf("instrumented: got %q, want %q (objects fast as without instrumentation)", s, want)
	}
	check(t, "fill", b)
	d := dump(t, b)
	for i := 0; i < 40; i++ {
		if !strings.Contains(d, fmt.Sprintf(`"p%d",`, i)) {
			t.Fatalf("no PUTFIELD p%d in the trace", i)
		}
	}
}

// runWithNatives runs the instrumented prog under node with V8's natives
// syntax allowed, the uninstrumented helper (which makes V8's % functions
// callable) and the shim preloaded; it returns the output and the trace.
func runWithNatives(t *testing.T, node, helper, shim, prog string) (string, []byte) {
	t.Helper()
	out := filepath.Join(filepath.Dir(prog), "mem-trace")
	cmd := exec.Command(node, "--allow-natives-syntax", "-r", helper, "-r", shim, prog)
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out)
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(got), b
}
