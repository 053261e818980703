package instrument

import (
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// TestFlushesElided: which statement ends keep their X (flushelide.go).
// runtime-shim's TestFlushesElided checks that the traces are the same.
func TestFlushesElided(t *testing.T) {
	cases := []struct {
		name, src string
		goal      js.Goal
		x         int // X calls left (with KeepFlushes: every statement's)
	}{
		{name: "after an X", src: `function f(a) { a = a | 0; var b = a + 1 | 0, c = b; b = b * 2 | 0; c++; return b + c }`, x: 1},
		{name: "if chain", src: `function f(a) { a = a | 0; if (a > 1) a = a - 1 | 0; else if (a < 0) a = -a; return a }`, x: 1},
		{name: "while body after its test", src: `function f(a) { a = a | 0; while (a > 1) { a = a >> 1; a = a | 0; } a = a + 1 | 0; return a }`, x: 3}, // the test's inline form has two
		{name: "while left by a break", src: `function f(a) { a = a | 0; while (a > 1) { a = a >> 1; if (a == 5) { let z; break; } } a = a + 1 | 0; return a }`, x: 4},
		{name: "while left by a break after an X", src: `function f(a) { a = a | 0; while (a > 1) { a = a >> 1; if (a == 5) break; } a = a + 1 | 0; return a }`, x: 3},
		{name: "break through a finally", src: `function f(a) { a = a | 0; while (a > 1) { try { a = a >> 1; if (a == 5) break; } finally { a = a | 0; } } a = a + 1 | 0; return a }`, x: 6},
		{name: "do while once", src: `function f(a) { a = a | 0; do { if (a > 1) { a = a - 1 | 0; break; } a = a + 2 | 0; } while (0); a = a * 3 | 0; return a }`, x: 1},
		{name: "labelled do while once", src: `function f(a) { a = a | 0; L: do { do { if (a > 1) break L; a = a + 2 | 0; } while (0); a = a - 1 | 0; } while (0); a = a * 3 | 0; return a }`, x: 1},
		{name: "switch break", src: `function f(a) { a = a | 0; do { switch (a) { case 1: a = 2; break; } a = a + 1 | 0; } while (0); return a }`, x: 3},
		{name: "do while", src: `function f(a) { a = a | 0; do { a = a >> 1; } while (a > 1); a = a + 1 | 0; return a }`, x: 3},
		{name: "loop without test", src: `function f(a) { a = a | 0; for (;;) { a = a >> 1; if (a < 2) break; } return a }`, x: 2},
		{name: "let without initialiser", src: `function f(a) { a = a | 0; let b; a = a + 1 | 0; return a }`, x: 2},
		{name: "not pure: object operand", src: `function f(a, o) { a = a | 0; a = a + o | 0; a = a + 1 | 0; return a }`, x: 2},
		{name: "not pure: property read", src: `function f(a, o) { a = a | 0; a = a + o.p | 0; a = a + 1 | 0; return a }`, x: 2},
		{name: "not pure: call", src: `function f(a) { a = a | 0; a = a + g() | 0; a = a + 1 | 0; return a }`, x: 2},
		{name: "generator", src: `function* f(a) { a = a | 0; a = a + 1 | 0; yield a }`, x: 3},
		{name: "async", src: `async function f(a) { a = a | 0; a = a + 1 | 0; return a }`, x: 2},
		{name: "with", src: `function f(a, w) { a = a | 0; with (w) { a = a + 1 | 0; a = a + 2 | 0; } }`, x: 3},
		{name: "script top level", src: `var a = 1; a = a + 1; a = a * 2;`, x: 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			goal := js.Script
			if c.goal != 0 {
				goal = c.goal
			}
			got, err := stripWith(c.src, Options{Goal: goal, File: "t.js"})
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(got, ".X("); n != c.x {
				t.Errorf("%d X calls; want %d:\n%s", n, c.x, got)
			}
			all, err := stripSwitched(c.src, Options{Goal: goal, File: "t.js"}, testswitch.Switches{KeepFlushes: true})
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(all, ".X("); n < c.x {
				t.Errorf("KeepFlushes: %d X calls, fewer than %d", n, c.x)
			}
			if _, err := js.Parse([]byte(got), js.Options{Goal: goal}); err != nil {
				t.Errorf("re-parse: %v\n%s", err, got)
			}
		})
	}
}
