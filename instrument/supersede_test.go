package instrument

import (
	"regexp"
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// TestSupersededReads: which property reads keep their G (supersede.go).
// Each source marks the reads that must lose it with a property named
// gone and the reads that must keep it with kept.
func TestSupersededReads(t *testing.T) {
	cases := []struct {
		name, src string
		goal      js.Goal
		opts      func(*Options)
		sw        testswitch.Switches
	}{
		{name: "same expression", src: `function f(x) { return x.gone + x.kept }`},
		{name: "later statement", src: `function f(x) { var a = x.gone; var b = x.gone2; return a + b + x.kept }`},
		{name: "write supersedes", src: `function f(x) { var v = x.gone; x.p = v }`},
		{name: "lookup supersedes", src: `function f(x) { return x.gone + x.m(x.kept) }`},
		{name: "this", src: `function f() { return this.gone + this.kept }`},
		{name: "arrow this", src: `function f() { return () => this.gone + this.kept }`},
		{name: "conditional later use", src: `function f(x, c) { return x.kept + (c && x.kept2) }`},
		{name: "conditional read", src: `function f(x, c) { return (c ? x.gone : 0) + (c || x.gone2) + x.kept }`},
		{name: "sibling branches", src: `function f(x, c) { return c ? x.kept : x.kept2 }`},
		{name: "call between", src: `function f(x) { return x.kept + g() + x.kept2 }`},
		{name: "new between", src: `function f(x) { return x.kept + new G() + x.kept2 }`},
		{name: "spread between", src: `function f(x, a) { return [x.kept, ...a, x.kept2] }`},
		{name: "chain between", src: `function f(x) { return x.kept + x?.kept2 }`},
		{name: "tagged template between", src: "function f(x) { return x.kept + g`a` + x.kept2 }"},
		{name: "write between", src: `function f(x, y) { var s = x.kept; x = y; return s + x.kept2 }`},
		{name: "update between", src: `function f(x) { var s = x.kept; x++; return s + x.kept2 }`},
		{name: "declaration between", src: `function f(y) { let x = y; var s = x.kept; { } let z = x.kept2; return s + z }`},
		{name: "write in the value of a write", src: `function f(x, y) { x.k = (x = y, x.kept) }`},
		{name: "closure writes", src: `function f(x) { var g = () => { x = 1 }; return x.kept + x.kept2 }`},
		{name: "enclosing function's var", src: `function f(x) { var y = {}; return () => x.gone + x.kept + y.gone2 + y.kept2 }`},
		{name: "enclosing function's var written by another function", src: `function f(x) { var g = () => { x = {} }; return () => x.kept + x.kept2 }`},
		{name: "enclosing function's parameter aliased by arguments", src: `function f(x) { var a = arguments; return () => x.kept + (a[0] = 1) + x.kept2 }`},
		{name: "eval in a nested function", src: `function f(x) { function g(s) { eval(s) } return x.kept + x.kept2 }`},
		{name: "enclosing function's var and eval", src: `function f(x) { function g(s) { eval(s) } return () => x.kept + x.kept2 }`},
		{name: "eval elsewhere", src: `function e(s) { eval(s) } function f(x) { return x.gone + x.kept }`},
		{name: "enclosing generator's var", src: `function* f(x) { yield () => x.kept + x.kept2 }`},
		{name: "enclosing async function's var", src: `async function f(x) { return () => x.kept + x.kept2 }`},
		{name: "enclosing async arrow's var", src: `var f = async (x) => () => x.kept + x.kept2;`},
		{name: "enclosing module's let", src: `let o = {}; export function f() { return o.kept + o.kept2 }`, goal: js.Module},
		{name: "enclosing module's const", src: `const o = {}; export function f() { return o.gone + o.kept }`, goal: js.Module},
		{name: "enclosing CommonJS module's var", src: `var o = {}; function f() { return o.gone + o.kept }`, goal: js.CommonJS},
		{name: "enclosing script's var", src: `var o = {}; function f() { return o.kept + o.kept2 }`},
		{name: "enclosing function's const", src: `function f() { const x = {}; return () => x.gone + x.kept }`},
		{name: "sloppy arguments", src: `function f(x) { arguments; return x.kept + x.kept2 }`},
		{name: "strict arguments", src: `function f(x) { "use strict"; arguments; return x.gone + x.kept }`},
		{name: "generator", src: `function* f(x) { yield x.kept + x.kept2 }`},
		{name: "async", src: `async function f(x) { return x.kept + x.kept2 }`},
		{name: "global", src: `var o = {}; o.kept + o.kept2;`},
		{name: "module top level", src: `let o = {}; o.gone + o.kept;`, goal: js.Module},
		{name: "with", src: `function f(x, w) { with (w) { x.kept + x.kept2 } }`},
		{name: "if test", src: `function f(x) { var a = x.gone; if (x.kept) return a; return x.kept2 }`},
		{name: "for head", src: `function f(x) { var n = x.gone; for (var i = 0; i < x.kept; i++) n++; return n }`},
		{name: "loop body", src: `function f(x) { for (var i = 0; i < 3; i++) x[i] = x.gone[i + 1]; while (x.kept) x.q = x.gone2; }`},
		{name: "loop body does not reach the next iteration", src: `function f(x) { for (;;) { if (x.kept) break; g(); } }`},
		{name: "arrow body", src: `var f = (x) => x.gone + x.kept;`},
		{name: "compound write", src: `function f(x) { var a = x.kept; x.p += 1 }`},
		{name: "delete", src: `function f(x) { var a = x.kept; delete x.p }`},
		{name: "destructuring", src: `function f(x) { var a = x.kept; var {p} = x; return x.kept2 }`},
		{name: "primitive name", src: `function f() { var s = "ab"; return s.length + s.length }`},
		{name: "all uses", src: `function f(x) { return x.kept + x.kept2 }`, opts: func(o *Options) { o.AllUses = true }},
		{name: "keep uses", src: `function f(x) { return x.kept + x.kept2 }`, sw: testswitch.Switches{KeepUses: true}},
	}
	hooked := regexp.MustCompile(`\.G[0-9]*\(\d+, (?:[a-z]+|this)\)\.(\w+)|\.Gt\(\d+, __mt\$f, this\)\.(\w+)`)
	bare := regexp.MustCompile(`\b(?:[a-z]|this)\.(\w+)`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			goal := js.Script
			if c.goal != 0 {
				goal = c.goal
			}
			opts := Options{Goal: goal, File: "t.js"}
			if c.opts != nil {
				c.opts(&opts)
			}
			got, err := stripSwitched(c.src, opts, c.sw)
			if err != nil {
				t.Fatal(err)
			}
			keptG := map[string]bool{}
			for _, m := range hooked.FindAllStringSubmatch(got, -1) {
				keptG[m[1]+m[2]] = true
			}
			// A read without G stays as written (o.gone): checked too, so
			// that a hook form the pattern above misses cannot pass.
			bareG := map[string]bool{}
			for _, m := range bare.FindAllStringSubmatch(got, -1) {
				bareG[m[1]] = true
			}
			for _, m := range bare.FindAllStringSubmatch(c.src, -1) {
				p := m[1]
				switch {
				case strings.HasPrefix(p, "kept") && (!keptG[p] || bareG[p]):
					t.Errorf("the read of %s lost its G:\n%s", p, got)
				case strings.HasPrefix(p, "gone") && (keptG[p] || !bareG[p]):
					t.Errorf("the read of %s kept its G:\n%s", p, got)
				}
			}
			if _, err := js.Parse([]byte(got), js.Options{Goal: goal}); err != nil {
				t.Errorf("re-parse: %v\n%s", err, got)
			}
		})
	}
}
