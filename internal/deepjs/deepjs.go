// Package deepjs writes JavaScript programs nested as deep as asked, in
// each form whose nesting V8 limits (or does not), with the depths V8
// accepts: the tests of the parser's nesting limit and of the walkers
// that recurse over its trees (scope analysis, the rewriter) use them.
//
// V8 has no nesting limit of its own: its parser and bytecode generator
// recurse, and check the stack, so a program nested deeper than the
// stack allows throws "RangeError: Maximum call stack size exceeded"
// before it runs. Each form's depths here were measured with Node 20.20
// on x86-64 Linux (a program of each depth run by node, the largest one
// that ran), with V8's default stack (984 KiB) and with the four times
// larger one memtrace node gives node (--stack-size=3936). A chain of one
// binary operator (a + a + a ...) is flattened by V8's parser: no depth
// at all (two million ran); a chain that alternates operators is not.
package deepjs

import (
	"strconv"
	"strings"
)

// Form is a way to nest a program.
type Form struct {
	Name string
	// V8 and V8x4 are the deepest programs of the form that ran under
	// node with V8's default stack and with --stack-size=3936; 0: no
	// limit (two million levels ran).
	V8, V8x4 int
	// Chain: a chain of binary operators, which memtrace's parser builds
	// in a loop and its walkers walk in one: no limit in memtrace either.
	Chain bool
	// Prog returns a program of n levels that prints one line.
	Prog func(n int) string
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// Forms are the forms of nesting, the ones that issue 54 names first.
var Forms = []Form{
	{"arrays", 2011, 8105, false, func(n int) string {
		return "const x = " + rep("[", n) + "1" + rep("]", n) + ";\nlet d = 0, y = x;\nwhile (Array.isArray(y)) { y = y[0]; d++; }\nconsole.log(d);\n"
	}},
	{"objects", 1385, 5583, false, func(n int) string {
		return "const x = " + rep("{a:", n) + "1" + rep("}", n) + ";\nlet d = 0, y = x;\nwhile (typeof y === 'object') { y = y.a; d++; }\nconsole.log(d);\n"
	}},
	{"parens", 1640, 6612, false, func(n int) string {
		return "const x = " + rep("(", n) + "1" + rep(")", n) + ";\nconsole.log(x);\n"
	}},
	{"calls", 1384, 5583, false, func(n int) string {
		return "function f(v) { return v + 1; }\nconsole.log(" + rep("f(", n) + "0" + rep(")", n) + ");\n"
	}},
	{"else-ifs", 3686, 14800, false, func(n int) string {
		var b strings.Builder
		b.WriteString("function g(x) {\n  if (x === 0) return 0;\n")
		for i := 1; i < n; i++ {
			b.WriteString("  else if (x === " + strconv.Itoa(i) + ") return " + strconv.Itoa(i) + ";\n")
		}
		b.WriteString("  else return -1;\n}\nconsole.log(g(" + strconv.Itoa(n-1) + "), g(-5));\n")
		return b.String()
	}},
	{"blocks", 2842, 11430, false, func(n int) string {
		return "let c = 0;\n" + rep("{", n) + " c++; " + rep("}", n) + "\nconsole.log(c);\n"
	}},
	{"functions", 903, 3641, false, func(n int) string {
		return rep("function f() { return 1 + ", n) + "0" + rep(" }", n) + "\nconsole.log(typeof f);\n"
	}},
	{"functions called", 1640, 6612, false, func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString("function f" + strconv.Itoa(i) + "() { return ")
			if i < n-1 {
				b.WriteString("1 + f" + strconv.Itoa(i+1) + "(); ")
			} else {
				b.WriteString("0; ")
			}
		}
		b.WriteString(rep("}", n))
		b.WriteString("\nconsole.log(f0());\n")
		return b.String()
	}},
	{"arrows", 1075, 4332, false, func(n int) string {
		// Calling every level costs V8 a lazy compilation of each, of
		// the text nested in it: quadratic (plain node, 0.6 s).
		return "const f = " + rep("() => ", n) + "1;\nconsole.log(typeof f, typeof f(), typeof f()());\n"
	}},
	{"templates", 1833, 7390, false, func(n int) string {
		return "const x = " + rep("`a${", n) + "1" + rep("}b`", n) + ";\nconsole.log(x.length);\n"
	}},
	{"ternaries", 2597, 10469, false, func(n int) string {
		var b strings.Builder
		b.WriteString("const v = 3;\nconst x = ")
		for i := 0; i < n; i++ {
			b.WriteString("v === " + strconv.Itoa(i) + " ? " + strconv.Itoa(i) + " : ")
		}
		b.WriteString("-1;\nconsole.log(x);\n")
		return b.String()
	}},
	{"ternaries in the consequent", 2597, 10469, false, func(n int) string {
		return "const v = true;\nconst x = " + rep("v ? ", n) + "1" + rep(" : 0", n) + ";\nconsole.log(x);\n"
	}},
	{"a + a + ...", 0, 0, true, func(n int) string {
		return "const a = 1;\nconsole.log(a" + rep("+a", n) + ");\n"
	}},
	{"a && a && ...", 0, 0, true, func(n int) string {
		return "const a = 1;\nconsole.log(a" + rep(" && a", n) + ");\n"
	}},
	{"string concatenation", 0, 0, true, func(n int) string {
		var b strings.Builder
		b.WriteString("console.log((")
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(" + ")
			}
			b.WriteString("\"s" + strconv.Itoa(i%10) + "\"")
		}
		b.WriteString(").length);\n")
		return b.String()
	}},
	// V8 nests a chain of alternating operators; memtrace's walkers take
	// every chain in a loop: no limit.
	{"a + a - a + ...", 6252, 25144, true, func(n int) string {
		return "const a = 1;\nconsole.log(a" + rep("+a-a", n/2) + rep("+a", n%2) + ");\n"
	}},
	{"a ** a ** ...", 6252, 25145, false, func(n int) string {
		return "const a = 1;\nconsole.log(" + rep("a ** ", n) + "a);\n"
	}},
	{"member chains", 6946, 27938, false, func(n int) string {
		return "const a = {}; a.b = a;\nconsole.log(typeof a" + rep(".b", n) + ");\n"
	}},
	{"call chains", 4808, 19341, false, func(n int) string {
		return "function f() { return f; }\nconsole.log(typeof f" + rep("()", n) + ");\n"
	}},
	{"tagged templates", 4808, 19341, false, func(n int) string {
		return "function t() { return t; }\nconsole.log(typeof t" + rep("`x`", n) + ");\n"
	}},
	{"assignments", 5196, 20940, false, func(n int) string {
		return "let a;\n" + rep("a = ", n) + "1;\nconsole.log(a);\n"
	}},
	{"logical assignments", 4467, 17962, false, func(n int) string {
		return "let a = 0;\n" + rep("a ||= ", n) + "1;\nconsole.log(a);\n"
	}},
	{"unary operators", 10420, 41908, false, func(n int) string {
		return "const a = 1;\nconsole.log(" + rep("!", n) + "a);\n"
	}},
	{"news", 5683, 22858, false, func(n int) string {
		return "function F() { return F; }\nconsole.log(typeof " + rep("new ", n) + "F);\n"
	}},
	{"labels", 5196, 20940, false, func(n int) string {
		var b strings.Builder
		b.WriteString("let c = 0;\n")
		for i := 0; i < n; i++ {
			b.WriteString("l" + strconv.Itoa(i) + ": ")
		}
		b.WriteString("c++;\nconsole.log(c);\n")
		return b.String()
	}},
}
