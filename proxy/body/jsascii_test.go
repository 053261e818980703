package body

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// jsPrograms are run in node as they are and escaped: the two must print
// the same. Each prints what its escapes could change.
var jsPrograms = []struct {
	name   string
	src    string
	module bool
}{
	{name: "strings", src: `
const s = ['é', "日本語", '😀', 'a\u00e9', '\é', '\😀', 'x\` + "\u2028" + `y', '` + "\u2028\u2029" + `', "tab\té", '\\é', "\"é\"", '\'😀\''];
console.log(JSON.stringify(s), s.map(x => x.length));`},
	{name: "identifiers", src: `
const café = 1; let 日本 = 2; var 𝑥 = 3; const ｱ = 4; var a‌b = 5, ℮ = 6, ǅ = 7;
console.log(café + 日本 + 𝑥 + ｱ + a‌b + ℮ + ǅ, Object.keys({café, 日本, 𝑥, a‌b}), typeof caf\u00e9);
function ƒ(é, ...ü) { return é + ü.length } console.log(ƒ(1, 2, 3), ƒ.name, ƒ.length);`},
	{name: "properties and private names", src: `
class K { #é = 1; é() { return this.#é } static 𝑥 = 2; get ü() { return 3 } }
const k = new K(); console.log(k.é(), K.𝑥, k.ü, ({é: 1}).é, ({'é': 2})['é'], k?.é(), Object.getOwnPropertyNames(K.prototype));`},
	{name: "regular expressions", src: `
console.log(/é+/.test('éé'), /é+/.exec('xééy')[0], /😀/u.test('😀'), /[😀]/u.exec('a😀')[0]);
console.log(/^[😀]$/.test('😀'), /^.$/u.test('😀'), /^..$/.test('😀'), /😀+/.exec('😀\uDE00\uDE00')[0].length);
console.log(/[é-ü]/.test('ñ'), /\é/.test('é'), /(?<café>.)\k<café>/.exec('aa').groups.café, /(?<𝑥>.)/.exec('z').groups.𝑥);
console.log(/[😀-😂]/u.test('😁'), /é/i.test('É'), /[\q{é}]/v.test('é'), /[^é]/.test('e'), /é{2}/.test('éé'), /\😀/.test('😀'));
console.log(/["'` + "`" + `é]/.test('` + "`" + `'), /[/]é/.test('/é'), /\/é/.test('/é'), 'aéb'.replace(/é/g, '-'), 'x😀y'.split(/😀/u));`},
	{name: "division", src: `
let a = 10, b = 2, é = 5, g = 1; var 𝑥 = 2;
console.log((a)/b/1, a / b, é / b, [a][0] / b, a++ / 2, a-- /2, 'é'.length / 2, 1/2/3, é/b/g, 𝑥/𝑥/1);
let q = a
/é/g
console.log(q);
const o = {return: 8, typeof: 2}; console.log(o.return / 𝑥 / 1, o.typeof/2, o?.return/ 𝑥 /1);
let i = 4; let j = i++ / 2; console.log(j, i, i-- / 𝑥 / 1);`},
	{name: "regex after keywords and operators", src: `
function f(x) { return /é/.test(x) }
console.log(f('é'), typeof /é/, [/é/][0].test('é'), (0, /é/).test('é'), !/é/.test('x'), void /é/, 1 && /é/.test('é'));
if (true) /é/.test('é') && console.log('if then regex');
while (false) /😀/.test('😀');
console.log(/é/ instanceof RegExp, 'é' in {é: 1}, [1, /😀/][1].test('😀'));
const f2 = () => /é/; console.log(f2().test('é'), ...[/é/].map(r => r.test('é')));
switch ('é') { case /é/.test('é') ? 'é' : 'x': console.log('case') }
console.log((true ? /😀/ : /é/).test('😀'));`},
	{name: "regex or division after a brace", src: `
function g() {} /é/.test('é') && console.log('after a block');
let o = {} / 1; console.log(o);
let x = function () {} / 2; console.log(x);
let q = 1
{ q = 2 }
/😀/.test('😀') && console.log('block then regex', q);
const h = { a: 1 }
/2/1; console.log(h);`},
	{name: "comments", src: `
// é 日本 😀
/* é
   😀 */ console.log(1 /* é */ + 2) // 😀
function r() { return /*` + "\u2028" + `*/ 1 } console.log(r());
function r2() { return /* é */ 1 } console.log(r2());
// comment` + "\u2028" + `console.log('after a line separator');
/** @param {string} é — a JSDoc ☃ */ console.log('jsdoc');`},
	{name: "whitespace", src: "var\u00a0nb\u3000=\ufeff1;\u2028console.log(nb,\u2029'é')"},
	{name: "templates with code only", src: "console.log(`a${'é'}b${`c${'😀'}d`}`, String.raw`x${'é'}y`, `${ {a: 'é'}.a }`, `${ (() => { return '😀' })() }`, `${ /é/.test('é') }`, `${`${'日本'}`}`)"},
	{name: "hashbang", src: "#!/usr/bin/env node é\nconsole.log('é')"},
	{name: "html-like comments", src: "x = 1 <!-- é\nconsole.log(x, 'é')\n--> é comment\n /* é */ --> more\nconsole.log('ok')"},
	{name: "generators and for-of", src: `
function* gen() { yield /é/; yield /😀/u } const it = gen(); console.log(it.next().value.test('é'), it.next().value.test('😀'));
var yield_ = 4, é = 2; console.log(yield_/é/1);
for (const m of /é/.exec('é')) console.log(m);
var of = 6; console.log(of / 2 / 1, of / é / 1);`},
	{name: "sloppy yield and await names", src: `var yield = 4, await = 8, é = 2; console.log(yield/é/1, await / é / 2, yield / 2);`},
	{name: "numbers", src: `console.log(1.5.toFixed(1), .5/2, 0x1F/1, 1_000/10, 2n ** 3n, 1..toString(), 'é', 1e3/10, 5/.5)`},
	{name: "module with await", module: true, src: `
const r = await /é/.exec('é'); console.log(r[0]);
const s = await /😀/u.exec('😀'); console.log(s[0], import.meta.url.length > 0, 'é');
export const é = 1; console.log(é / 1);`},
	{name: "json and unicode escapes", src: `
const data = {"naïve": "café", "emoji": "😀", "\u00e9": "é"}; console.log(JSON.stringify(data), '\u{1F600}' === '😀', '\x41é');`},
	{name: "directives", src: `"é"; "use strict"; try { undeclared = 1; console.log('sloppy') } catch (e) { console.log('strict', 'é') }`},
}

func TestJSASCIIInNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	for _, p := range jsPrograms {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			out, ok := JSASCII([]byte(p.src))
			require.True(t, ok, "JSASCII refused")
			requireASCII(t, out)
			require.NotEqual(t, p.src, string(out), "nothing was escaped")
			want := runNode(t, node, p.src, p.module)
			got := runNode(t, node, string(out), p.module)
			require.Equal(t, want, got, "escaped:\n%s", out)
			again, ok := JSASCII(out)
			require.True(t, ok)
			require.Equal(t, out, again, "ASCII stays as it is")
		})
	}
}

func runNode(t *testing.T, node, src string, module bool) string {
	t.Helper()
	name := "prog.js"
	if module {
		name = "prog.mjs"
	}
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o600))
	cmd := exec.Command(node, path)
	cmd.Env = append(os.Environ(), "NODE_OPTIONS=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s\n%s", out, src)
	return string(out)
}

func requireASCII(t *testing.T, b []byte) {
	t.Helper()
	for i, c := range b {
		require.Less(t, c, byte(0x80), "non-ASCII at %d: %q", i, b[max(0, i-20):min(len(b), i+20)])
	}
}

func TestJSASCIIRefuses(t *testing.T) {
	for _, src := range []string{
		"`é`",
		"String.raw`é`",
		"`${1}é`",
		"`a${`é`}`",
		"`\\é`",
		"tag`😀`",
		"x = {} / `é` / 2",           // a template in one reading
		"'unterminated é",            // not JavaScript
		"/* é",                       // an unclosed comment
		"var é = 'a\nb'",             // a newline in a string
		"var s = ( 'é'",              // an unclosed bracket
		"var s = 'é' )",              // a stray one
		"var 😀 = 1",                  // not a name
		"a ☃ b",                      // not a name either
		"x = /é\n/",                  // a newline in a regular expression
		"/\\é/u",                     // no identity escape in Unicode mode
		"/é/\\u0067",                 // an escape in the flags
		"a = function () {} / 𝑥 / 2", // ambiguous: the readings disagree
		"\xff'é'",                    // not UTF-8
		"'\xe9'",                     // not UTF-8
	} {
		out, ok := JSASCII([]byte(src))
		require.False(t, ok, "%q gave %q", src, out)
		require.Nil(t, out)
	}
}

func TestJSASCIIOutput(t *testing.T) {
	for src, want := range map[string]string{
		"plain ascii /é/":                  "plain ascii /\\u00E9/",
		"'😀'":                              `'\uD83D\uDE00'`,
		"var 𝑥":                            `var \u{1D465}`,
		"/😀/":                              `/\uD83D\uDE00/`,
		"/😀/u":                             `/\u{1F600}/u`,
		"/[😀]/v":                           `/[\u{1F600}]/v`,
		"/(?<𝑥>😀)/":                        `/(?<\u{1D465}>\uD83D\uDE00)/`,
		"/(?<=é)/":                         `/(?<=\u00E9)/`,
		"// é 😀":                           `// \u00E9 \uD83D\uDE00`,
		"/* a\u2028b */":                   "/* a\nb */",
		"'\\\u2028'":                       "''",
		"'\\é'":                            `'\u00E9'`,
		"'\u2028'":                         `'\u2028'`,
		"a\u00a0b":                         "a b",
		"a\u2029b":                         "a\nb",
		"#priv\u00e9":                      `#priv\u00E9`,
		"//# sourceMappingURL=café.js.map": "//# sourceMappingURL=caf%C3%A9.js.map",
		"/*# sourceURL=日本.js */":           "/*# sourceURL=%E6%97%A5%E6%9C%AC.js */",
		"#!/bin/é\nx":                      "#!/bin/\\u00E9\nx",
		"ascii only `template` /re/ // c":  "ascii only `template` /re/ // c",
		"`${'é'}`":                         "`${'\\u00E9'}`",
		"x = a\n/é/g":                      "x = a\n/\\u00E9/g",
		"if (x) /😀/.test(s)":               `if (x) /\uD83D\uDE00/.test(s)`,
		"function f(){} /😀/.test(s)":       `function f(){} /\uD83D\uDE00/.test(s)`,
		"({} / 𝑥 / 2)":                     `({} / \u{1D465} / 2)`,
		"i++ / 𝑥 / 2":                      `i++ / \u{1D465} / 2`,
	} {
		got, ok := JSASCII([]byte(src))
		require.True(t, ok, "%q", src)
		require.Equal(t, want, string(got), "%q", src)
	}
	in := []byte("pure ascii")
	got, ok := JSASCII(in)
	require.True(t, ok)
	require.Same(t, &in[0], &got[0])
}

// TestJSASCIIRealCode runs JSASCII over the project's own JavaScript that
// holds characters beyond ASCII (the shim's sources and bundle, the test
// programs), and checks with node that the escaped copies are still
// JavaScript of the same shape.
func TestJSASCIIRealCode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	root := filepath.Join("..", "..")
	var files []string
	for _, dir := range []string{"runtime-shim", "testdata"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mjs") || strings.HasSuffix(p, ".cjs") {
				files = append(files, p)
			}
			return nil
		})
	}
	escaped := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		if !utf8.Valid(src) || isASCII(src) {
			continue
		}
		out, ok := JSASCII(src)
		if !ok {
			continue // refused: allowed, and counted below
		}
		requireASCII(t, out)
		escaped++
		// Both must parse alike: node --check on each (as a module for
		// .mjs, as the CommonJS it is for the rest).
		dir := t.TempDir()
		ext := filepath.Ext(p)
		orig := filepath.Join(dir, "orig"+ext)
		esc := filepath.Join(dir, "esc"+ext)
		require.NoError(t, os.WriteFile(orig, src, 0o600))
		require.NoError(t, os.WriteFile(esc, out, 0o600))
		origErr := exec.Command(node, "--check", orig).Run()
		escErr := exec.Command(node, "--check", esc).Run()
		require.Equal(t, origErr == nil, escErr == nil, "%s: node --check differs", p)
	}
	t.Logf("%d of %d files escaped", escaped, len(files))
	require.Positive(t, escaped)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// FuzzJSASCII: never a panic; an accepted result is ASCII, and escaping
// it again changes nothing.
func FuzzJSASCII(f *testing.F) {
	for _, p := range jsPrograms {
		f.Add([]byte(p.src))
	}
	for _, s := range []string{"`é${'😀'}`", "x = {} / `é` / 2", "a<!--é\n-->é", "/[/]é/", "'\\\u2028'", "#!é", "/(?<é>.)\\k<é>/"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, ok := JSASCII(src)
		if !ok {
			require.Nil(t, out)
			return
		}
		requireASCII(t, out)
		again, ok := JSASCII(out)
		require.True(t, ok)
		require.Equal(t, out, again)
	})
}

func BenchmarkJSASCII(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(b, "node", "lodash"), "lodash.js"))
	require.NoError(b, err)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, ok := JSASCII(src); !ok {
			b.Fatal("refused")
		}
	}
}
