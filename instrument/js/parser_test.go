package js

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument/diag"
	"github.com/memtrace/memtrace/internal/deepjs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseGoal(t *testing.T, goal Goal, src string) (*Program, error) {
	t.Helper()
	return Parse([]byte(src), Options{Goal: goal})
}

func expectParseGoal(t *testing.T, goal Goal, src string) {
	t.Helper()
	t.Run(goal.String()+"/"+src, func(t *testing.T) {
		t.Helper()
		prog, err := parseGoal(t, goal, src)
		require.NoError(t, err)
		checkSpans(t, []byte(src), prog)
	})
}

func expectErrorGoal(t *testing.T, goal Goal, src, want string) {
	t.Helper()
	t.Run(goal.String()+"/"+src, func(t *testing.T) {
		t.Helper()
		_, err := parseGoal(t, goal, src)
		require.Error(t, err)
		assert.Equal(t, want, err.Error())
	})
}

func expectParse(t *testing.T, src string)          { t.Helper(); expectParseGoal(t, Script, src) }
func expectParseModule(t *testing.T, src string)    { t.Helper(); expectParseGoal(t, Module, src) }
func expectError(t *testing.T, src, want string)    { t.Helper(); expectErrorGoal(t, Script, src, want) }
func expectErrorModule(t *testing.T, src, w string) { t.Helper(); expectErrorGoal(t, Module, src, w) }

// checkSpans checks that every node lies within the source and within its
// parent, and that Walk reaches every node exactly once.
func checkSpans(t testing.TB, src []byte, prog *Program) {
	t.Helper()
	var stack []Node
	seen := map[Node]bool{}
	Inspect(prog, func(n Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if seen[n] {
			t.Errorf("node %T at %d visited twice", n, n.Pos())
		}
		seen[n] = true
		if n.Pos() < 0 || n.EndPos() > int32(len(src)) || n.Pos() > n.EndPos() {
			t.Errorf("%T span [%d,%d) outside the source (%d bytes)", n, n.Pos(), n.EndPos(), len(src))
		}
		if len(stack) > 0 {
			parent := stack[len(stack)-1]
			if n.Pos() < parent.Pos() || n.EndPos() > parent.EndPos() {
				t.Errorf("%T [%d,%d) not inside its parent %T [%d,%d)", n, n.Pos(), n.EndPos(), parent, parent.Pos(), parent.EndPos())
			}
		}
		stack = append(stack, n)
		return true
	})
}

func TestParseStatements(t *testing.T) {
	for _, src := range []string{
		"", ";", "a", "a;", "a\nb", "{}", "{ a; b }", "var a", "var a = 1, b", "let a = 1", "const a = 1",
		"let [a, , b = 1, ...c] = d", "let {a, b: c, d = 1, ...e} = f", "var {a: {b: [c]}} = d",
		"if (a) b", "if (a) b; else c", "if (a) {} else if (b) {} else {}",
		"for (;;) {}", "for (var i = 0; i < 1; i++) ;", "for (let i = 0, j; ;) ;", "for (a in b) ;",
		"for (var a in b) ;", "for (let a of b) ;", "for (const [a, b] of c) ;", "for ([a, b] of c) ;",
		"for ({a, b} of c) ;", "for (a.b in c) ;", "for (let in a) ;", "for (let.a in b) ;", "for (let of of []) ;",
		"for (async of => 1;;) ;", "for (x of y) for (z in w) ;", "for (async in o) ;",
		"async function f() { for await (async of []) ; }", "async function f() { for await (async of x => x) ; }",
		"x = async in o", "x = async instanceof C", "async\nin o",
		"while (a) b", "do a; while (b)", "do a\nwhile (b) c", "do ; while (0) 1",
		"a: while (1) break a", "a: b: while (1) continue a", "a: { break a }", "a: if (1) break a",
		"switch (a) {}", "switch (a) { case 1: b; default: c; case 2: }",
		"try {} catch (e) {}", "try {} catch {}", "try {} finally {}", "try {} catch ({a, b}) {} finally {}",
		"throw a", "debugger", "with (a) b", "label: function f() {}", "if (a) function f() {}",
		"if (a) function f() {} else function g() {}", "function f() { return }", "function f() { return a }",
		"function f() { return\na }", "function f(a, b = 1, ...c) {}", "function f({a}, [b]) {}",
		"function* g() { yield; yield a; yield* b }", "async function f() { await a }",
		"async function* f() { for await (const x of y) ; }", "class A {}", "class A extends B {}",
		"x = function () {}", "x = function f() {}", "x = async function () {}",
		"let\nx = 1", "var let = 1", "let.a = 1", "(let[0])", "yield = 1", "var yield", "await = 1", "var await",
		"function f() { var arguments, eval }", "eval = 1", "arguments = 1", "a = { eval, arguments }",
		"var static, implements, interface, package, private, protected, public",
		"<!-- comment\na", "a\n--> comment", "--> comment at start", "/*\n*/ --> comment",
		"#!/usr/bin/env node\na", "\ufeffa", "a\u2028b", "a\u2029b", "a\r\nb", "a\rb", "a\u00a0+b",
		"010", "08", "09.5", "'\\01'", "'\\8'", "a\n++b", "a\n--b", "x = y\n(z)",
		"var \\u0061", "var \\u{61}", "var ä", "var 𐐀", "var a\u200d", "({ \\u0069f: 1 })", "a.\\u0069f",
		"x = a => a", "x = (a, b) => a + b", "x = () => {}", "x = async a => a", "x = async (a) => a",
		"x = async () => {}", "x = (a = 1, {b}, [c], ...d) => 0", "x = ({a = 1}) => a", "async\nfunction f() {}",
		"async(a, b)", "async (a)", "async\n(a)", "x = async", "var async; async = 1",
		"a ? b : c", "a ? b ? c : d : e", "a ? (b, c) : d", "a = b = c", "a += 1", "a **= 2", "a &&= b",
		"a ||= b", "a ??= b", "a ?? b", "(a || b) ?? c", "a ?? (b && c)", "a ** b ** c", "(-a) ** b",
		"a?.b", "a?.[b]", "a?.(b)", "a?.b.c(d)?.[e]", "new a", "new a.b()", "new new a()()", "new (a())",
		"a`b`", "a.b`c${d}e`", "`a${b}c${d}e`", "`${`${a}`}`", "tag`\\unicode and \\u{55}`",
		"`\\``", "/a/g", "/[/]/", "/a\\/b/", "x = /a/dgimsy", "x = /a/v", "a / b / c", "a /= b",
		"(a) / 2", "a++ / 2", "x = {} / 1", "x\n/a/g", "[a, b] = [b, a]", "({a, b} = c)", "[a.b, c[d]] = e",
		"[(a), (b.c)] = d", "({a: (b)} = c)", "({a: (b.c)} = d)", "(a) = 1", "((a)) = 1", "(a.b) = 1",
		"[...a] = b", "({...a} = b)", "({...a.b} = c)", "[a = 1, [b] = [], {c} = {}] = d",
		"x = {a, b: 1, [c]: 2, 'd': 3, 4: 5, get e() {}, set e(v) {}, f() {}, *g() {}, async h() {}, async *i() {}, ...j}",
		"x = {get: 1, set: 2, async: 3, static: 4}", "x = {get() {}, set() {}, async() {}}",
		"x = {__proto__: 1, ['__proto__']: 2, __proto__() {}}", "({__proto__: a, __proto__: b} = c)",
		"x = [, a, , ...b, ]", "f(...a, b, ...c)", "f(a,)", "x = 1n + 0x1fn + 0o7n + 0b1n",
		"x = 1_000_000 + 0xf_f || 1", "x = .5 + 5. + 1e10 + 1E-5 + 0.0", "x = 0xFF + 0o17 + 0b11",
		"typeof a, void a, delete a.b, !a, ~a, -a, +a", "a instanceof b, a in b", "'use strict'.length",
		"class A { constructor() {} m() {} static s() {} get g() {} set g(v) {} *gen() {} async am() {} async *ag() {} }",
		"class A { x; y = 1; static z = 2; #p = 3; static #q; [k] = 4; 'str' = 5; 6 = 7 }",
		"class A { #m() {} get #g() {} set #g(v) {} static #s() {} has(o) { return #m in o } }",
		"class A { static { this.x = 1 } static {} }", "class A { static async *m() {} }",
		"class A { get\na() {} }", "class A { static\na() {} }", "class A { async\na() {} }", "class A { x\ny }",
		"class A { 'constructor'() {} }", "class A { static constructor() {} }", "class A { prototype }",
		"class A extends B { constructor() { super(); super.x } }", "class A { m() { super.m() } }",
		"x = { m() { super.x } }", "class A { x = () => super.y }", "class A { x = new.target }",
		"function f() { new.target }", "function f() { () => new.target }", "class A { static x = () => this }",
		"import('a')", "import('a', { with: { type: 'json' } })", "x = import.defer('a')",
		"function f() { 'use strict'; }", "function f() { 'use\\x20strict'; with (a) {} }",
		"'use strict'; function f() {}", "function f(a, a) {}", "function f() { 'a'; 'b' }",
		"a = b\n++c", "if (a) {} /foo/", "x = y / z / w", "a\n/b/g", "for (var i = 0 in x) ;",
		"using = 1", "using\nx = 1", "{ using x = y }", "async function f() { await using x = y }",
		"@dec class A { @dec m() {} @(a.b) x; @a.b.c(1) static y }", "x = @dec class {}",
		"a: b: c: d", "x = (1, 2, 3)", "((a))", "(a, (b, c))",
	} {
		expectParse(t, src)
	}
	for _, src := range []string{
		"import 'a'", "import a from 'a'", "import * as ns from 'a'", "import {a, b as c, 'd-e' as f} from 'a'",
		"import a, {b} from 'a'", "import a, * as ns from 'a'", "import j from './j.json' with { type: 'json' }",
		"export var a", "export let a = 1", "export const a = 1", "export function f() {}", "export async function f() {}",
		"export class A {}", "export default 1", "export default function () {}", "export default function f() {}",
		"export default class {}", "export default class A {}", "export default async function () {}",
		"export default (a, b)", "export * from 'a'", "export * as ns from 'a'", "export * as 'a-b' from 'a'",
		"export {a, b as c}; var a, b", "export {a as default}; let a", "export {'x' as y, z} from 'a'",
		"export {} from 'a'", "export {}", "await a", "for await (const x of y) ;", "import.meta.url",
		"let a; export {a as 'b'}", "export { a }; function a() {}", "export { a }; class a {}",
		"export { a }; import a from 'b'", "var a; export { a }; export { a as b }",
		"@dec export class A {}", "export @dec class A {}", "export default @dec class {}",
		"await using x = y", "function f() { return this }",
	} {
		expectParseModule(t, src)
	}
	for _, src := range []string{"return", "return 1", "if (a) return", "new.target", "#!/usr/bin/env node\nreturn"} {
		expectParseGoal(t, CommonJS, src)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range [][2]string{
		{"let =", "<stdin>:1:6: error: unexpected end of file"},
		{"let x = 1; let x = 2", `<stdin>:1:16: error: "x" has already been declared`},
		{"var x; let x", `<stdin>:1:12: error: "x" has already been declared`},
		{"let x; var x", `<stdin>:1:12: error: "x" has already been declared`},
		{"{ let a; { var a } }", `<stdin>:1:16: error: "a" has already been declared`},
		{"const a = 1; function a() {}", `<stdin>:1:23: error: "a" has already been declared`},
		{"class A {} class A {}", `<stdin>:1:18: error: "A" has already been declared`},
		{"function f(a, a) { \"use strict\" }", `<stdin>:1:15: error: duplicate parameter name "a"`},
		{"(a, a) => 1", `<stdin>:1:5: error: duplicate parameter name "a"`},
		{"function f(a, [a]) {}", `<stdin>:1:16: error: duplicate parameter name "a"`},
		{"\"use strict\"; var eval", `<stdin>:1:19: error: "eval" cannot be a binding name in strict mode`},
		{"\"use strict\"; arguments = 1", `<stdin>:1:15: error: cannot assign to "arguments" in strict mode`},
		{"\"use strict\"; eval++", `<stdin>:1:15: error: cannot assign to "eval" in strict mode`},
		{"function eval() { \"use strict\" }", `<stdin>:1:10: error: "eval" cannot be a binding name in strict mode`},
		{"\"use strict\"; with (a) {}", "<stdin>:1:15: error: with statements are not allowed in strict mode"},
		{"\"use strict\"; 010", "<stdin>:1:15: error: legacy octal literals are not allowed in strict mode"},
		{"\"use strict\"; 08", "<stdin>:1:15: error: legacy octal literals are not allowed in strict mode"},
		{"\"use strict\"; \"\\01\"", "<stdin>:1:16: error: octal escape sequences are not allowed in strict mode"},
		{"\"\\01\"; \"use strict\"", "<stdin>:1:2: error: octal escape sequences are not allowed in strict mode"},
		{"function f() { \"\\8\"; \"use strict\" }", "<stdin>:1:17: error: octal escape sequences are not allowed in strict mode"},
		{"\"use strict\"; delete x", "<stdin>:1:15: error: deleting an unqualified identifier is not allowed in strict mode"},
		{"\"use strict\"; delete ((x))", "<stdin>:1:15: error: deleting an unqualified identifier is not allowed in strict mode"},
		{"\"use strict\"; implements = 1", `<stdin>:1:15: error: "implements" is a reserved word in strict mode`},
		{"\"use strict\"; yield = 1", `<stdin>:1:15: error: "yield" cannot be used as an identifier here`},
		{"\"use strict\"; if (a) function f(){}", "<stdin>:1:22: error: function declarations are not allowed in a single-statement context"},
		{"\"use strict\"; label: function f() {}", "<stdin>:1:22: error: function declarations cannot be labelled in strict mode"},
		{"function f(a = 1) { \"use strict\" }", `<stdin>:1:21: error: "use strict" is not allowed in a function with non-simple parameters`},
		{"break", "<stdin>:1:1: error: break statement is not inside a loop or switch"},
		{"continue", "<stdin>:1:1: error: continue statement is not inside a loop"},
		{"while (1) { function f() { break } }", "<stdin>:1:28: error: break statement is not inside a loop or switch"},
		{"a: a: ;", `<stdin>:1:4: error: label "a" has already been declared`},
		{"x: while(1) { continue y }", `<stdin>:1:24: error: undefined label "y"`},
		{"x: { continue x }", `<stdin>:1:15: error: cannot continue to label "x": it does not name a loop`},
		{"({__proto__: 1, __proto__: 2})", "<stdin>:1:17: error: duplicate __proto__ fields are not allowed in object literals"},
		{"new.target", "<stdin>:1:1: error: new.target is not allowed here"},
		{"super.x", "<stdin>:1:1: error: super property access is only allowed in methods"},
		{"function f() { super.x }", "<stdin>:1:16: error: super property access is only allowed in methods"},
		{"class A { constructor() { super() } }", "<stdin>:1:27: error: super() is only allowed in a derived class constructor"},
		{"class A extends B { m() { super() } }", "<stdin>:1:27: error: super() is only allowed in a derived class constructor"},
		{"x = { m() { super() } }", "<stdin>:1:13: error: super() is only allowed in a derived class constructor"},
		{"class A { m() { this.#x } }", "<stdin>:1:22: error: private name #x is not defined"},
		{"this.#x", "<stdin>:1:6: error: private name #x is not defined"},
		{"class A { #x; m() { delete this.#x } }", "<stdin>:1:21: error: private fields cannot be deleted"},
		{"class A { #x; m() { #x } }", "<stdin>:1:21: error: unexpected private name"},
		{"({ get a(x) {} })", "<stdin>:1:9: error: a getter must have no parameters"},
		{"({ set a() {} })", "<stdin>:1:9: error: a setter must have exactly one parameter"},
		{"({ set a(...b) {} })", "<stdin>:1:9: error: a setter cannot have a rest parameter"},
		{"function* g(a = yield) {}", "<stdin>:1:17: error: yield expressions are not allowed in formal parameters"},
		{"async function f(a = await 1) {}", "<stdin>:1:22: error: await expressions are not allowed in formal parameters"},
		{"function* g() { (a = yield) => 1 }", "<stdin>:1:22: error: yield expressions are not allowed in arrow parameters"},
		{"async function f() { async (a = await 1) => 1 }", "<stdin>:1:22: error: await is not allowed in async arrow parameters"},
		{"function* g(yield) {}", `<stdin>:1:13: error: "yield" cannot be used as an identifier here`},
		{"async function f(await) {}", `<stdin>:1:18: error: "await" cannot be used as an identifier here`},
		{"async function f() { await }", `<stdin>:1:28: error: unexpected "}"`},
		{"function* g() { yield = 1 }", `<stdin>:1:23: error: expected ";" but found "="`},
		{"/a/gg", "<stdin>:1:5: error: duplicate regular expression flag g"},
		{"/a/uv", "<stdin>:1:4: error: regular expression flags u and v cannot be used together"},
		{"/a/x", "<stdin>:1:4: error: invalid regular expression flag x"},
		{"/a/\\u0067", "<stdin>:1:4: error: invalid regular expression flags"},
		{"/a\n/", "<stdin>:1:1: error: unterminated regular expression"},
		{"1_", "<stdin>:1:2: error: invalid numeric separator"},
		{"1__0", "<stdin>:1:2: error: invalid numeric separator"},
		{"0_1", "<stdin>:1:2: error: invalid numeric separator"},
		{"1._5", "<stdin>:1:3: error: invalid numeric separator"},
		{"0x_1", "<stdin>:1:3: error: invalid numeric separator"},
		{"01n", "<stdin>:1:3: error: invalid number"},
		{"1.5n", "<stdin>:1:4: error: identifier starts immediately after numeric literal"},
		{"3in []", "<stdin>:1:2: error: identifier starts immediately after numeric literal"},
		{"0x", "<stdin>:1:1: error: missing digits after number prefix"},
		{"1e", "<stdin>:1:3: error: missing exponent"},
		{"a?.b = 1", "<stdin>:1:1: error: invalid assignment target"},
		{"a?.b`c`", "<stdin>:1:5: error: tagged template cannot be used in an optional chain"},
		{"new a?.b", "<stdin>:1:6: error: optional chaining is not allowed in a new expression"},
		{"f() = 1", "<stdin>:1:1: error: invalid assignment target"},
		{"a + 1 = 2", "<stdin>:1:1: error: invalid assignment target"},
		{"++a++", "<stdin>:1:3: error: invalid assignment target"},
		{"[a + 1] = b", "<stdin>:1:2: error: invalid destructuring assignment target"},
		{"({a: 1} = b)", "<stdin>:1:6: error: invalid destructuring assignment target"},
		{"({a}) = 1", "<stdin>:1:2: error: invalid assignment target"},
		{"([a.b]) => 1", "<stdin>:1:3: error: invalid binding pattern"},
		{"((a)) => 1", "<stdin>:1:2: error: invalid binding pattern"},
		{"(a.b) => 1", "<stdin>:1:2: error: invalid binding pattern"},
		{"a++ ++", `<stdin>:1:5: error: expected ";" but found "++"`},
		{"return", "<stdin>:1:1: error: return statement is not allowed here"},
		{"for (let x of [], []) ;", `<stdin>:1:17: error: expected ")" but found ","`},
		{"for (let x = 1 of []) ;", "<stdin>:1:10: error: for-of loop variable declaration may not have an initializer"},
		{"for (let x, y of []) ;", "<stdin>:1:15: error: only one variable declaration is allowed in a for-in or for-of loop"},
		{"\"use strict\"; for (var i = 0 in x) ;", "<stdin>:1:24: error: for-in loop variable declaration may not have an initializer"},
		{"for (let of x) ;", `<stdin>:1:13: error: expected ";" but found "x"`},
		{"for (let.a of x) ;", `<stdin>:1:6: error: "let" cannot start a for-of loop target`},
		{"for (async of x) ;", `<stdin>:1:15: error: expected "=>" but found "x"`},
		{"for (async\nof x) ;", `<stdin>:1:6: error: "async" cannot start a for-of loop target`},
		{"async function f() { for await (async of => {} of x) ; }", `<stdin>:1:42: error: unexpected "=>"`},
		{"async in => 1", `<stdin>:1:10: error: unexpected "=>"`},
		{"for await (x of y) ;", `<stdin>:1:5: error: expected "(" but found "await"`},
		{"while (1) function f(){}", "<stdin>:1:11: error: function declarations are not allowed in a single-statement context"},
		{"if (1) let x = 1", "<stdin>:1:8: error: lexical declaration cannot appear in a single-statement context"},
		{"if (1) class A {}", "<stdin>:1:8: error: class declarations are not allowed in a single-statement context"},
		{"if (1) async function f() {}", "<stdin>:1:8: error: async function declarations are not allowed in a single-statement context"},
		{"if (1) function* g() {}", "<stdin>:1:8: error: generator and async function declarations are not allowed here"},
		{"let [a, a] = []", `<stdin>:1:9: error: "a" has already been declared`},
		{"let let = 1", `<stdin>:1:5: error: "let" cannot be a lexically bound name`},
		{"const a", "<stdin>:1:8: error: missing initializer in const declaration"},
		{"let [a]", "<stdin>:1:8: error: missing initializer in destructuring declaration"},
		{"a => {} + 1", `<stdin>:1:9: error: unexpected "+"`},
		{"a + (b) => c", "<stdin>:1:5: error: an arrow function must be parenthesized to be an operand"},
		{"typeof () => {}", "<stdin>:1:8: error: an arrow function must be parenthesized to be an operand"},
		{"class A { constructor() { new super() } }", "<stdin>:1:31: error: cannot use new with super()"},
		{"if (1) a: function f() {}", "<stdin>:1:11: error: a labelled function declaration cannot be the body of a statement"},
		{"try {} catch (e) { for (var e of []) ; }", `<stdin>:1:29: error: "e" has already been declared`},
		{"a => {}()", `<stdin>:1:8: error: expected ";" but found "("`},
		{"(a, b)\n=> 1", `<stdin>:2:1: error: line break is not allowed before "=>"`},
		{"async a\n=> 1", `<stdin>:2:1: error: expected "=>" but found "=>"`},
		{"await 1", `<stdin>:1:7: error: expected ";" but found "1"`},
		{"1 #!x", `<stdin>:1:3: error: unexpected "#"`},
		{" #!x", `<stdin>:1:2: error: unexpected "#"`},
		{"`\\unicode`", "<stdin>:1:2: error: invalid escape sequence in template"},
		{"`\\01`", "<stdin>:1:2: error: invalid escape sequence in template"},
		{"x = {a = 1}", "<stdin>:1:8: error: shorthand property assignments are valid only in destructuring patterns"},
		{"({a = 1})", "<stdin>:1:5: error: shorthand property assignments are valid only in destructuring patterns"},
		{"f({a = 1})", "<stdin>:1:6: error: shorthand property assignments are valid only in destructuring patterns"},
		{"[...a, b] = c", "<stdin>:1:2: error: a rest element must be last in a destructuring pattern"},
		{"[...a,] = c", "<stdin>:1:2: error: a rest element must be last in a destructuring pattern"},
		{"({...a,} = c)", "<stdin>:1:3: error: a rest element must be last in a destructuring pattern"},
		{"[...a = 1] = b", "<stdin>:1:5: error: a rest element cannot have a default value"},
		{"({...{a}} = b)", "<stdin>:1:6: error: invalid rest element"},
		{"(...a, b) => 1", "<stdin>:1:6: error: a rest parameter must be last in a parameter list"},
		{"function f(...a = 1) {}", "<stdin>:1:17: error: a rest parameter cannot have a default value"},
		{"(a,)", `<stdin>:1:3: error: unexpected ","`},
		{"()", `<stdin>:1:2: error: unexpected ")"`},
		{"(...a)", `<stdin>:1:2: error: unexpected "..."`},
		{"`${`", "<stdin>:1:4: error: unterminated template literal"},
		{"`${a`", "<stdin>:1:5: error: unterminated template literal"},
		{"'abc", "<stdin>:1:1: error: unterminated string literal"},
		{"'a\nb'", "<stdin>:1:1: error: unterminated string literal"},
		{"/abc", "<stdin>:1:1: error: unterminated regular expression"},
		{"/* abc", "<stdin>:1:1: error: unterminated comment"},
		{"'\\x4'", "<stdin>:1:2: error: invalid escape sequence"},
		{"'\\u{110000}'", "<stdin>:1:2: error: invalid escape sequence"},
		{"a\\u{10FFFF}", "<stdin>:1:2: error: invalid identifier character in escape"},
		{"\\u0030a", "<stdin>:1:1: error: invalid identifier character in escape"},
		{"a\\x61", "<stdin>:1:2: error: invalid escape in identifier"},
		{"a ?? b || c", `<stdin>:1:1: error: "??" cannot be mixed with "||" or "&&" without parentheses`},
		{"a && b ?? c", `<stdin>:1:1: error: "??" cannot be mixed with "||" or "&&" without parentheses`},
		{"-a ** 2", `<stdin>:1:1: error: unary expressions cannot be the left operand of "**"; add parentheses`},
		{"class A { get constructor() {} }", "<stdin>:1:15: error: class constructor may not be an accessor, generator or async"},
		{"class A { async constructor() {} }", "<stdin>:1:17: error: class constructor may not be an accessor, generator or async"},
		{"class A { constructor(){} constructor(){} }", "<stdin>:1:27: error: a class may only have one constructor"},
		{"class A { static prototype() {} }", `<stdin>:1:18: error: classes may not have a static method named "prototype"`},
		{"class A { constructor }", `<stdin>:1:11: error: classes may not have a field named "constructor"`},
		{"class A { static prototype = 1 }", `<stdin>:1:18: error: classes may not have a field named "prototype"`},
		{"class A { #constructor }", "<stdin>:1:11: error: #constructor is not a valid private name"},
		{"class A { #a; #a }", "<stdin>:1:15: error: private name #a has already been declared"},
		{"class A { get #a() {} get #a() {} }", "<stdin>:1:27: error: private name #a has already been declared"},
		{"class A { static get #a() {} set #a(v) {} }", "<stdin>:1:34: error: private name #a has already been declared"},
		{"class A { static { await } }", `<stdin>:1:20: error: "await" cannot be used as an identifier here`},
		{"class A { static { return } }", "<stdin>:1:20: error: return statement is not allowed here"},
		{"class A { x = arguments }", `<stdin>:1:15: error: "arguments" is not allowed in class field initializers or static blocks`},
		{"class A { static { () => arguments } }", `<stdin>:1:26: error: "arguments" is not allowed in class field initializers or static blocks`},
		{"class let {}", `<stdin>:1:7: error: "let" is a reserved word in strict mode`},
		{"class A { m() { with (a) {} } }", "<stdin>:1:17: error: with statements are not allowed in strict mode"},
		{"class A extends B { x = super() }", "<stdin>:1:25: error: super() is only allowed in a derived class constructor"},
		{"import a from \"x\"", "<stdin>:1:1: error: import declarations may only appear in modules"},
		{"export var a", "<stdin>:1:1: error: export declarations may only appear in modules"},
		{"import.meta", "<stdin>:1:1: error: import.meta is only allowed in modules"},
		{"new import(\"x\")", "<stdin>:1:5: error: cannot use new with import()"},
		{"import()", "<stdin>:1:8: error: import() requires a specifier"},
		{"throw\n1", `<stdin>:2:1: error: line break is not allowed after "throw"`},
		{"var v\\u0061r = 1", "<stdin>:1:5: error: keywords cannot contain escape characters"},
		{"\\u0076ar x = 1", "<stdin>:1:1: error: keywords cannot contain escape characters"},
		{"var if", `<stdin>:1:5: error: unexpected reserved word "if"`},
		{"var enum", `<stdin>:1:5: error: unexpected reserved word "enum"`},
		{"x = { if }", `<stdin>:1:7: error: unexpected reserved word "if"`},
		{"try {} catch ([a, a]) {}", `<stdin>:1:19: error: "a" has already been declared`},
		{"try {} catch (e) { let e }", `<stdin>:1:24: error: "e" has already been declared`},
		{"try {} catch ([e]) { var e }", `<stdin>:1:26: error: "e" has already been declared`},
		{"try {}", `<stdin>:1:7: error: expected "catch" or "finally" but found end of file`},
		{"function f() { let a; var a }", `<stdin>:1:27: error: "a" has already been declared`},
		{"function f(a) { let a }", `<stdin>:1:21: error: "a" has already been declared`},
		{"switch (1) { case 1: let a; case 2: let a }", `<stdin>:1:41: error: "a" has already been declared`},
		{"switch (1) { default: default: }", "<stdin>:1:23: error: multiple default clauses in switch"},
		{"a b", `<stdin>:1:3: error: expected ";" but found "b"`},
		{"a\u00a0\u00a0@", `<stdin>:1:4: error: expected ";" but found "@"`},
		{"x = 1 +", "<stdin>:1:8: error: unexpected end of file"},
		{"({a: 1", `<stdin>:1:7: error: expected "," but found end of file`},
		{"\x00", `<stdin>:1:1: error: unexpected '\x00'`},
		{"a\xff", "<stdin>:1:2: error: invalid UTF-8"},
		{"ä ö", `<stdin>:1:3: error: expected ";" but found "ö"`},
		{"'\U0001F600' @", `<stdin>:1:6: error: expected ";" but found "@"`},
	} {
		expectError(t, c[0], c[1])
	}
	for _, c := range [][2]string{
		{"export { a }", `<stdin>:1:10: error: export "a" is not defined`},
		{"export var a; export { a }", `<stdin>:1:24: error: duplicate export "a"`},
		{"export default 1; export default 2", `<stdin>:1:26: error: duplicate export "default"`},
		{"export function f() {} export { f }", `<stdin>:1:33: error: duplicate export "f"`},
		{"import { a } from \"x\"; let a", `<stdin>:1:28: error: "a" has already been declared`},
		{"import { a, a } from \"x\"", `<stdin>:1:13: error: "a" has already been declared`},
		{"export { \"a\" }", `<stdin>:1:10: error: a string export name needs "from"`},
		{"export { if }", `<stdin>:1:10: error: unexpected reserved word "if"`},
		{"import { if } from 'a'", `<stdin>:1:10: error: unexpected reserved word "if"`},
		{"export * as '\\uD800' from 'a'", "<stdin>:1:13: error: module export names must be valid Unicode"},
		{"import j from 'j' with { type: 'json', type: 'json' }", `<stdin>:1:40: error: duplicate import attribute "type"`},
		{"<!-- x", `<stdin>:1:1: error: unexpected "<"`},
		{"x\n--> y", `<stdin>:2:3: error: unexpected ">"`},
		{"var await", `<stdin>:1:5: error: "await" cannot be used as an identifier here`},
		{"function f() { var await }", `<stdin>:1:20: error: "await" cannot be used as an identifier here`},
		{"with (a) {}", "<stdin>:1:1: error: with statements are not allowed in strict mode"},
		{"010", "<stdin>:1:1: error: legacy octal literals are not allowed in strict mode"},
		{"{ import a from 'a' }", "<stdin>:1:3: error: import declarations may only appear at the top level of a module"},
		{"function f() { export var a }", "<stdin>:1:16: error: export declarations may only appear at the top level of a module"},
		{"return", "<stdin>:1:1: error: return statement is not allowed here"},
		{"function a() {} var a", `<stdin>:1:21: error: "a" has already been declared`},
		{"export default function () {} export default class {}", `<stdin>:1:38: error: duplicate export "default"`},
	} {
		expectErrorModule(t, c[0], c[1])
	}
}

// TestParseValues checks the decoded values that the tree keeps.
func TestParseValues(t *testing.T) {
	first := func(t *testing.T, src string) Expr {
		t.Helper()
		prog, err := Parse([]byte(src), Options{})
		require.NoError(t, err)
		return prog.Body[len(prog.Body)-1].(*ExprStmt).X
	}
	assert.Equal(t, "abc", first(t, `\u0061b\u{63}`).(*Ident).Name)
	assert.Equal(t, "ä", first(t, `\u00e4`).(*Ident).Name)
	s := first(t, `'a\nb\x41\u0042\u{1F600}\
c\0'`).(*StringLit)
	assert.Equal(t, "a\nbAB\U0001F600c\x00", s.Value)
	assert.Equal(t, "\U0001F600", first(t, `'\uD83D\uDE00'`).(*StringLit).Value)
	lone := first(t, `'\uD800x'`).(*StringLit).Value
	assert.Equal(t, []byte{0xED, 0xA0, 0x80, 'x'}, []byte(lone), "lone surrogates are kept as WTF-8")
	assert.Equal(t, "\x01\x08S", first(t, `'\1\10\123'`).(*StringLit).Value)
	assert.Equal(t, "89", first(t, `'\8\9'`).(*StringLit).Value)
	assert.Equal(t, "\u2028", first(t, "'\u2028'").(*StringLit).Value)
	for src, want := range map[string]float64{
		"1": 1, "1.5": 1.5, ".5": .5, "5.": 5, "1e3": 1000, "1_000": 1000, "0x10": 16, "0o17": 15, "0b101": 5,
		"010": 8, "08": 8, "09.5": 9.5, "0": 0, "0xFFFFFFFFFFFFFFFFF": 295147905179352825856, "1e400": math.Inf(1),
	} {
		n := first(t, src).(*NumLit)
		assert.Equal(t, want, n.Value, src)
		assert.Equal(t, src, n.Raw)
	}
	assert.Equal(t, "0x1f", first(t, "0x1_fn").(*BigIntLit).Digits)
	re := first(t, `/[/]\//dgi`).(*RegExpLit)
	assert.Equal(t, `[/]\/`, re.Pattern)
	assert.Equal(t, "dgi", re.Flags)
	tpl := first(t, "`a\\n${b}\r\nc\\u{41}`").(*Template)
	require.Len(t, tpl.Parts, 2)
	assert.Equal(t, "a\n", tpl.Parts[0].Cooked)
	assert.Equal(t, `a\n`, tpl.Parts[0].Raw)
	assert.Equal(t, "\ncA", tpl.Parts[1].Cooked)
	assert.Equal(t, "\nc\\u{41}", tpl.Parts[1].Raw)
	tag := first(t, "f`\\unicode`").(*TaggedTemplate)
	assert.False(t, tag.Quasi.Parts[0].CookedOK)
	assert.Equal(t, `\unicode`, tag.Quasi.Parts[0].Raw)

	prog, err := Parse([]byte("#!/usr/bin/env node\n'use strict'; x"), Options{Goal: CommonJS})
	require.NoError(t, err)
	assert.Equal(t, "/usr/bin/env node", prog.Hashbang)
	assert.True(t, prog.Strict)
	assert.Equal(t, "use strict", prog.Body[0].(*ExprStmt).Directive)
}

// TestSpans pins spans of single nodes, as acorn reports them.
func TestSpans(t *testing.T) {
	for _, c := range []struct {
		src  string
		typ  string // ESTree type, or "Paren"
		want string // the node's text
	}{
		{"a;", "ExpressionStatement", "a;"},
		{"a\nb", "ExpressionStatement", "a"},
		{"var a = 1 ;", "VariableDeclaration", "var a = 1 ;"},
		{"for (var i = 0;;) ;", "VariableDeclaration", "var i = 0"},
		{"(a) + b", "BinaryExpression", "(a) + b"},
		{"(a)", "Identifier", "a"},
		{"(a)", "Paren", "(a)"},
		{"((a, b))", "SequenceExpression", "a, b"},
		{"(a).b()", "CallExpression", "(a).b()"},
		{"a?.b.c", "ChainExpression", "a?.b.c"},
		{"(a?.b).c", "ChainExpression", "a?.b"},
		{"x = { m(a) {} }", "FunctionExpression", "(a) {}"},
		{"class A { get x() {} }", "FunctionExpression", "() {}"},
		{"class A { x = 1; }", "PropertyDefinition", "x = 1;"},
		{"async (a) => a", "ArrowFunctionExpression", "async (a) => a"},
		{"do ; while (a) ;", "DoWhileStatement", "do ; while (a) ;"},
		{"new a", "NewExpression", "new a"},
		{"`a${b}`", "TemplateLiteral", "`a${b}`"},
		{"new.target", "Identifier", "new"},
		{"@d class A {}", "ClassDeclaration", "@d class A {}"},
		{"'use strict'", "Literal", "'use strict'"},
		{"/a/g.test(b)", "Literal", "/a/g"},
	} {
		t.Run(c.src, func(t *testing.T) {
			prog, err := Parse([]byte(c.src), Options{Goal: CommonJS})
			require.NoError(t, err)
			var texts []string
			Inspect(prog, func(n Node) bool {
				if n == nil {
					return false
				}
				typ := estreeType(n)
				if _, ok := n.(*Paren); ok {
					typ = "Paren"
				}
				if typ == c.typ {
					texts = append(texts, c.src[n.Pos():n.EndPos()])
				}
				return true
			})
			assert.Contains(t, texts, c.want)
		})
	}
}

// TestDepthLimit: every form of nesting parses as deep as V8 accepts it
// with memtrace node's stack (four times V8's default; deepjs has the
// figures), and one level past DefaultMaxDepth is a syntax error at the
// token that goes too deep, not a crash; chains of binary operators have
// no limit (V8 flattens them), and Walk takes them in a loop: 300,000
// operators walk within a 4 MiB stack.
func TestDepthLimit(t *testing.T) {
	for _, f := range deepjs.Forms {
		t.Run(f.Name, func(t *testing.T) {
			if f.Chain {
				src := f.Prog(300_000)
				prog, err := Parse([]byte(src), Options{Goal: CommonJS})
				require.NoError(t, err)
				defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
				nodes := 0
				Inspect(prog, func(n Node) bool {
					if n != nil {
						nodes++
					}
					return true
				})
				require.Greater(t, nodes, 300_000)
				return
			}
			_, err := Parse([]byte(f.Prog(f.V8x4)), Options{Goal: CommonJS})
			require.NoError(t, err, "as deep as V8 accepts (%d levels)", f.V8x4)
			src := f.Prog(DefaultMaxDepth + 1)
			_, err = Parse([]byte(src), Options{Goal: CommonJS, File: "deep.js"})
			require.Error(t, err)
			var list *diag.List
			require.True(t, errors.As(err, &list))
			assert.Regexp(t, `^deep\.js:\d+:\d+: error: nesting too deep \(more than 50000 levels\)$`, err.Error())
			d := list.Log.Diags[0]
			assert.Greater(t, int(d.Range.Start), DefaultMaxDepth, "at the token that goes too deep")
		})
	}
	_, err := Parse([]byte("((((a))))"), Options{MaxDepth: 3})
	require.Error(t, err)
	_, err = Parse([]byte("((((a))))"), Options{MaxDepth: 10})
	require.NoError(t, err)
}

// TestNoPanic feeds truncations of valid programs to the parser: each must
// be parsed or rejected, never crash.
func TestNoPanic(t *testing.T) {
	srcs := []string{
		"class A extends B { #x = 1; static { this.y = `a${b}c` } get z() { return this.#x?.[0] ?? /re/g } }",
		"async function* f({a = 1, ...b}, [c, , d] = []) { for await (const x of y) yield* x; }",
		"export default async (a, b = c => d) => { try { await e } catch ({f}) { throw f } finally { g() } }",
	}
	for _, src := range srcs {
		for i := 0; i <= len(src); i++ {
			for _, g := range []Goal{Script, Module, CommonJS} {
				_, err := Parse([]byte(src[:i]), Options{Goal: g})
				if err != nil && strings.Contains(err.Error(), "internal error") {
					t.Errorf("%q: %v", src[:i], err)
				}
			}
		}
	}
}

func ExampleParse() {
	src := []byte("let x = (a + b) * c;\nlet = ;")
	_, err := Parse(src, Options{File: "app.js"})
	fmt.Println(err)
	var list *diag.List
	if errors.As(err, &list) {
		list.Log.Render(os.Stdout, diag.RenderOptions{})
	}
	// Output:
	// app.js:2:7: error: unexpected ";"
	// app.js:2:7: error: unexpected ";"
	//     let = ;
	//           ^
}
