package scope

import (
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

// FuzzAnalyze: whatever the parser accepts, scope analysis handles without
// panicking, every resolved binding lies in a scope around its reference,
// and every free name of a function is free in its parent too unless the
// parent declares it.
//
//	go test -run '^$' -fuzz '^FuzzAnalyze$' -fuzztime 60s ./instrument/scope
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"function o(a) { var b; return () => a + b + this.x + g; }",
		"with (o) { function f() { return x } }",
		"function e(x) { let c; return eval(x) }",
		"class A { #x = 1; static { var y = this; } m() { return super.m(arguments) } }",
		"try {} catch ({a, b: [c = d]}) { let e = a + c }",
		"for (let i = 0, j; i < 1; i++) setTimeout(() => i + j)",
		"label: { if (a) function f() {} } f()",
		"var f = function g() { return g }; switch (x) { case 1: let y; default: y }",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(2))
	}
	f.Fuzz(func(t *testing.T, src []byte, goal uint8) {
		p, err := js.Parse(src, js.Options{Goal: js.Goal(goal % 3)})
		if err != nil {
			return
		}
		in := Analyze(p)
		for _, r := range in.Refs {
			if r.Binding == nil {
				continue
			}
			found := false
			for s := r.Scope; s != nil; s = s.Parent {
				if s == r.Binding.Scope {
					found = true
					break
				}
			}
			if !found {
				t.Fatalf("%q resolved to a binding outside its scope chain", r.Ident.Name)
			}
		}
		for _, fn := range in.Funcs {
			if fn.Parent == nil {
				continue
			}
			for _, name := range fn.Free {
				declared := false
				for s := fn.Scope.Parent; s != nil && s.Func == fn.Parent; s = s.Parent {
					declared = declared || s.Lookup(name) != nil
				}
				if declared {
					continue
				}
				ok := false
				for _, n := range fn.Parent.Free {
					ok = ok || n == name
				}
				if !ok {
					t.Fatalf("%q is free in a function but neither declared nor free in its parent", name)
				}
			}
		}
	})
}
