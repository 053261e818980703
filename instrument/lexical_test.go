package instrument

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/trace"
)

var freeVarsRE = regexp.MustCompile(`__mt\.S\("t\.js", "[^"]*", (\{[^}]*\})`)

// freeVarsOf instruments src (CommonJS) and returns its code without the
// prologue (strip) and its FREE_VARS, by Fe iid.
func freeVarsOf(t *testing.T, src string) (string, map[string][]string) {
	t.Helper()
	res, err := Instrument([]byte(src), Options{Goal: js.CommonJS, File: "t.js"})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	m := freeVarsRE.FindSubmatch(res.Code)
	if m == nil {
		t.Fatalf("%s: no FREE_VARS in\n%s", src, res.Code)
	}
	obj := regexp.MustCompile(`(\d+):`).ReplaceAll(m[1], []byte(`"$1":`))
	var fv map[string][]string
	if err := json.Unmarshal(obj, &fv); err != nil {
		t.Fatalf("%s: FREE_VARS %s: %v", src, m[1], err)
	}
	code, err := strip(src, js.CommonJS)
	if err != nil {
		t.Fatal(err)
	}
	reparse(t, js.CommonJS, src)
	return code, fv
}

// TestLexicalBindings: a function whose this, arguments, new.target or
// super an arrow nested in it uses declares them at its entry, and every
// closure created in its activation names them in its FREE_VARS (V8 keeps
// them in the function's context); a closure made in a field initializer
// or a static block whose this an arrow there uses gets an edge to it
// (Ft); a method that uses super gets its home object (kind +16, Tm).
func TestLexicalBindings(t *testing.T) {
	for _, c := range []struct {
		src   string
		hooks []string          // substrings of the instrumented code
		not   []string          // substrings it must not hold
		free  map[string]string // Fe iid -> its FREE_VARS, joined by spaces
	}{
		{
			// Every closure of the activation keeps this, the function
			// expression and the arrow that does not use it included.
			src:   `class C { m() { return [() => this, function () {}, () => 1]; } }`,
			hooks: []string{`H.Nt(14, __mt$f, this);`},
			free:  map[string]string{"2": "~noproto~ this", "5": "this", "9": "~noproto~ this", "14": "~noproto~"},
		},
		{
			// Nested arrows: both name this; an arrow in a function called
			// without this keeps that function's (Nt declares it 0).
			src:   `function f() { return () => () => this; }`,
			hooks: []string{`H.Nt(10, __mt$f, this);`},
			free:  map[string]string{"2": "~noproto~ this", "6": "~noproto~ this", "10": ""},
		},
		{
			// No arrow uses this: nothing changes.
			src:  `function f() { return () => 1; }`,
			not:  []string{"H.Nt(", "H.Na("},
			free: map[string]string{"2": "~noproto~", "7": ""},
		},
		{
			// Strict arguments: the object and every element.
			src:   `function f(a) { "use strict"; return () => arguments[0]; }`,
			hooks: []string{`H.Na(8, arguments, 0);`},
			free:  map[string]string{"3": "~noproto~ ~arguments~", "8": ""},
		},
		{
			// Sloppy arguments with simple parameters are mapped: the
			// closures keep the parameters, the object its other elements.
			src:   `function f(a, b) { return () => arguments; }`,
			hooks: []string{`H.Na(8, arguments, 2);`},
			free:  map[string]string{"2": "~noproto~ ~arguments~ a b", "8": ""},
		},
		{
			src:   `function F() { return () => new.target; }`,
			hooks: []string{`H.N(6, "new.target", new.target);`},
			free:  map[string]string{"2": "~noproto~ new.target", "6": ""},
		},
		{
			// super: this and the method (whose ~home~ F logs: kind +16).
			src:   `class D extends B { m() { return () => super.m(); } }`,
			hooks: []string{`H.Nt(6, __mt$f, this); H.Nm(6);`, `"m", 16, 6`},
			free:  map[string]string{"2": "~noproto~ this ~method~", "6": "~noproto~"},
		},
		{
			// A derived constructor's this is declared 0 until super().
			src:   `class E extends B { constructor(r) { const f = () => this; super(); r.push(f); } }`,
			hooks: []string{`H.Nt(13, __mt$f); `},
			free:  map[string]string{"2": "~noproto~ this"},
		},
		{
			// Field initializers: one function in V8, so the arrow that
			// does not use this keeps it too.
			src: `class S { a = () => 1; b = () => this; static s = () => 2; }`,
			hooks: []string{`H.Ft(4, this, H.F(4, 2, {"a": () =>`, `}["a"]), 1)`,
				`H.Ft(9, this, H.F(9, 7, {"b": () =>`, `H.Q(15, this, "s", H.F(14, 12, {"s": () =>`},
			not:  []string{`H.Ft(14,`},
			free: map[string]string{"2": "~noproto~", "7": "~noproto~"},
		},
		{
			src:   `class T { static { r.push(() => this); } }`,
			hooks: []string{`H.Ft(`, `}), 0))`},
		},
		{
			// An object literal's method that uses super: Tm.
			src:   `const o = { m() { return super.x; }, n() {} };`,
			hooks: []string{`H.Tm(`, `"m", 16, `, `"n", 0, `},
		},
		{
			// A generator: the resume function keeps arguments and
			// new.target in the first context.
			src:   `function* g() { yield 1; yield () => [arguments, new.target]; }`,
			hooks: []string{`H.Na(`, `H.N(`},
		},
	} {
		code, fv := freeVarsOf(t, c.src)
		for _, h := range c.hooks {
			if !strings.Contains(code, h) {
				t.Errorf("%s: no %q in\n%s", c.src, h, code)
			}
		}
		for _, h := range c.not {
			if strings.Contains(code, h) {
				t.Errorf("%s: %q in\n%s", c.src, h, code)
			}
		}
		for fe, want := range c.free {
			if got := strings.Join(fv[fe], " "); got != want {
				t.Errorf("%s: FREE_VARS of %s: %q, want %q (%v)\n%s", c.src, fe, got, want, fv, code)
			}
		}
		if strings.HasPrefix(c.src, "function* g") {
			resume := false
			for _, names := range fv {
				if len(names) > 0 && names[0] == trace.ResumeMarker {
					resume = strings.Join(names, " ") == trace.ResumeMarker+" "+NewTargetName+" "+ArgumentsName
				}
			}
			if !resume {
				t.Errorf("%s: no resume function keeping new.target and arguments: %v", c.src, fv)
			}
		}
	}
}
