package scope

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	js "github.com/memtrace/memtrace/instrument/js"
)

func analyze(t *testing.T, src string, goal js.Goal) *Info {
	t.Helper()
	p, err := js.Parse([]byte(src), js.Options{Goal: goal})
	require.NoError(t, err, src)
	return Analyze(p)
}

// funcNamed finds the function whose name (or, for anonymous ones, the
// variable it initialises) is name.
func funcNamed(t *testing.T, in *Info, src, name string) *Func {
	t.Helper()
	for _, f := range in.Funcs {
		var fn *js.Func
		switch n := f.Node.(type) {
		case *js.FuncDecl:
			fn = &n.Func
		case *js.FuncExpr:
			fn = &n.Func
		}
		if fn != nil && fn.Name != nil && fn.Name.Name == name {
			return f
		}
	}
	// Fall back to "name = <function at>".
	i := strings.Index(src, name+" = ")
	require.GreaterOrEqual(t, i, 0, "no function %s", name)
	at := int32(i + len(name) + 3)
	for _, f := range in.Funcs {
		if f.Node.Pos() == at {
			return f
		}
	}
	t.Fatalf("no function at %d", at)
	return nil
}

func sorted(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func TestFreeAndCaptured(t *testing.T) {
	cases := []struct {
		src      string
		goal     js.Goal
		fn       string
		free     []string
		captured []string
	}{
		{"var g; function f(a) { var b; return a + b + g + h; }", js.Script, "f", []string{"g", "h"}, nil},
		{"function o() { var x, y; function f() { return x; } }", js.Script, "f", []string{"x"}, []string{"x"}},
		{"function o() { var x; function f() { function g() { x = 1; } } }", js.Script, "f", []string{"x"}, []string{"x"}},
		{"function o() { let x; { let x; function f() { x } } }", js.Script, "f", []string{"x"}, []string{"x"}},
		{"function o() { var x; function f() { var x; return () => x; } }", js.Script, "f", nil, nil},
		{"function o(p = 1) { return function f() { return p + arguments.length; } }", js.Script, "f", []string{"p"}, []string{"p"}},
		{"function o() { return function f() { return () => arguments; } }", js.Script, "f", nil, nil},
		{"function o() { var e; try {} catch (e) { var f = function () { return e; }; } }", js.Script, "f", []string{"e"}, []string{"e"}},
		{"let top = 1; function f() { return top; }", js.Script, "f", []string{"top"}, nil},
		{"let top = 1; export function f() { return top; }", js.Module, "f", []string{"top"}, []string{"top"}},
		{"import d, {x as y} from 'm'; function f() { return d + y; }", js.Module, "f", []string{"d", "y"}, []string{"d", "y"}},
		{"var m = 1; function f() { return m + require('x') + module.exports; }", js.CommonJS, "f", []string{"m", "require", "module"}, []string{"m"}},
		{"function o() { var x; class C { m() { return x; } static { x; } y = x; } }", js.Script, "o", nil, nil},
		{"function o() { var k; var f = function () { return { [k]: 1, k }; }; }", js.Script, "f", []string{"k"}, []string{"k"}},
		{"function o() { var a, b; var f = function () { [a, {b}] = [1, {}]; }; }", js.Script, "f", []string{"a", "b"}, []string{"a", "b"}},
		{"function o() { var i; var f = function () { for (i of []) {} for (let j in {}) j; }; }", js.Script, "f", []string{"i"}, []string{"i"}},
		{"function o() { var s; var f = function () { s++; s += 1; }; }", js.Script, "f", []string{"s"}, []string{"s"}},
		{"function o() { var g = function h() { return h; }; }", js.Script, "h", []string{"h"}, []string{"h"}},
		{"function o() { if (1) function q() {} var f = function () { return q; }; }", js.Script, "f", []string{"q"}, []string{"q"}},
		{"function o() { var x; var f = function () { return `${x}` + t`${x}`; }; }", js.Script, "f", []string{"x", "t"}, []string{"x"}},
		{"function o() { var c; var f = function () { switch (c) { case 1: let c; } }; }", js.Script, "f", []string{"c"}, []string{"c"}},
	}
	for _, c := range cases {
		t.Run(c.src, func(t *testing.T) {
			in := analyze(t, c.src, c.goal)
			f := funcNamed(t, in, c.src, c.fn)
			assert.Equal(t, c.free, nilIfEmpty(f.Free), "free")
			assert.Equal(t, sorted(c.captured), nilIfEmpty(sorted(f.Captured)), "captured")
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestUses(t *testing.T) {
	src := `function a() { return () => this; }
function b() { return () => arguments[0]; }
function c(arguments) { return arguments; }
class K extends Object { m() { return super.m() } constructor() { super(); new.target } }
function e(x) { return eval(x) }
function w(o) { with (o) { return p } }
function outer() { function inner() { eval("1") } }
function ind(x) { return (0, eval)(x) }`
	in := analyze(t, src, js.Script)
	get := func(name string) *Func { return funcNamed(t, in, src, name) }
	assert.True(t, get("a").UsesThis)
	assert.True(t, get("b").UsesArguments)
	assert.False(t, get("c").UsesArguments, "a parameter named arguments shadows the object")
	var m, ctor *Func
	for _, f := range in.Funcs {
		if f.Kind == ExprFunc {
			if m == nil {
				m = f
			} else {
				ctor = f
			}
		}
	}
	assert.True(t, m.UsesSuper)
	assert.True(t, ctor.UsesSuper)
	assert.True(t, ctor.UsesNewTarget)
	assert.True(t, get("e").DirectEval)
	assert.True(t, get("e").HasEval)
	assert.True(t, get("w").HasWith)
	assert.True(t, get("outer").HasEval)
	assert.False(t, get("outer").DirectEval)
	assert.False(t, get("ind").HasEval, "(0, eval)(x) is indirect")

	// Visible: the sound replacement for Free in eval/with functions.
	src2 := "function o(a) { var b; function e(x) { let c; return eval(x); } }"
	in2 := analyze(t, src2, js.Script)
	e := funcNamed(t, in2, src2, "e")
	assert.Equal(t, []string{"x", "c", "a", "b", "e"}, in2.Visible(e.Scope))
}

func TestRefsResolution(t *testing.T) {
	src := "var g = 1; function f(p) { let l = p; return l + g + u; }"
	in := analyze(t, src, js.Script)
	got := map[string]string{}
	for _, r := range in.Refs {
		k := "global"
		if r.Binding != nil {
			k = r.Binding.Kind.String() + "@" + r.Binding.Scope.Kind.String()
		}
		got[r.Ident.Name] = k
	}
	assert.Equal(t, map[string]string{"p": "param@function", "l": "let@function", "g": "var@global", "u": "global"}, got)
	for _, r := range in.Refs {
		if r.Binding != nil {
			assert.Same(t, r.Binding, in.BindingOf(r.Ident))
			assert.Same(t, r.Binding, in.BindingOf(r.Binding.Decl))
		}
	}
}
