package instrument

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
)

const tsGoldenDir = "testdata/ts"

// tsGoal: .mts cases are modules, the others CommonJS.
func tsGoal(file string) js.Goal {
	if strings.HasSuffix(file, ".mts") {
		return js.Module
	}
	return js.CommonJS
}

// TestTSGolden instruments every TypeScript, TSX and JSX case under
// testdata/ts and compares the output with <case>.golden.js. The output
// must parse with our parser, and instrumenting it again (as JavaScript,
// or with the case's loader) must change nothing.
func TestTSGolden(t *testing.T) {
	all, _ := filepath.Glob(filepath.Join(tsGoldenDir, "*"))
	n := 0
	for _, f := range all {
		if strings.HasSuffix(f, ".golden.js") {
			if _, err := os.Stat(strings.TrimSuffix(f, ".golden.js")); err != nil {
				t.Errorf("%s has no case", f)
			}
			continue
		}
		n++
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Goal: tsGoal(f), File: filepath.Base(f), Loader: LoaderOf(f)}
			if opts.Loader == JS {
				t.Fatalf("%s: not a TS, TSX or JSX file", f)
			}
			res, err := Instrument(src, opts)
			if err != nil {
				t.Fatal(err)
			}
			golden := f + ".golden.js"
			if *update {
				if err := os.WriteFile(golden, res.Code, 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(golden); err != nil {
				t.Fatalf("%v (run go test ./instrument -run TestTSGolden -update)", err)
			} else if !bytes.Equal(res.Code, want) {
				t.Errorf("output differs from %s (run go test ./instrument -run TestTSGolden -update and review the diff)", golden)
			}
			if _, err := js.Parse(res.Code, js.Options{Goal: opts.Goal}); err != nil {
				t.Errorf("output does not parse: %v", err)
			}
			if !bytes.Contains(res.Code, []byte(`__mt.S(`+strconv.Quote(filepath.Base(f))+`, "`)) {
				t.Errorf("the script is not named %s", filepath.Base(f))
			}
			for _, l := range []Loader{JS, opts.Loader} {
				o := opts
				o.Loader = l
				again, err := Instrument(res.Code, o)
				if err != nil || !again.Unchanged || !bytes.Equal(again.Code, res.Code) {
					t.Errorf("loader %v: not idempotent (%v)", l, err)
				}
			}
			checkSitesInside(t, src, res.Sites)
		})
	}
	if n < 4 {
		t.Errorf("%d cases under %s, want at least 4", n, tsGoldenDir)
	}
}

// checkSitesInside: every mapped site is a non-empty range of the
// original text.
func checkSitesInside(t *testing.T, src []byte, sites []Site) {
	t.Helper()
	tab := diag.NewLineTable(src)
	for i, s := range sites {
		if s.StartLine < 1 || int(s.EndLine) > tab.Lines() || s.StartLine > s.EndLine {
			t.Errorf("site %d: %v outside the file's %d lines", i+1, s, tab.Lines())
			continue
		}
		a, b := offset(tab, int(s.StartLine), int(s.StartCol-1)), offset(tab, int(s.EndLine), int(s.EndCol-1))
		if b <= a {
			t.Errorf("site %d: %v is empty", i+1, s)
		}
	}
}

// siteTexts instruments src and returns, per hook name, the original
// text of the site of each of its calls in the output (the first
// argument of H.n, H.c, H.m, H.T, H.P, … is its local iid).
func siteTexts(t *testing.T, src string, opts Options) map[string][]string {
	t.Helper()
	res, err := Instrument([]byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	tab := diag.NewLineTable([]byte(src))
	out := map[string][]string{}
	// Call hooks c0..c6 (and m, n) count as c (docs/instrumentation.md §4).
	re := regexp.MustCompile(regexp.QuoteMeta(res.Handle) + `\.([A-Za-z]+)[0-9]{0,2}\((\d+),`)
	for _, m := range re.FindAllStringSubmatch(string(res.Code), -1) {
		iid, _ := strconv.Atoi(m[2])
		s := res.Sites[iid-1]
		a, b := offset(tab, int(s.StartLine), int(s.StartCol-1)), offset(tab, int(s.EndLine), int(s.EndCol-1))
		out[m[1]] = append(out[m[1]], src[a:b])
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestTSSiteMapping: the site of each allocation, call and field write in
// a TypeScript file covers exactly that construct's text in the .ts file,
// type syntax inside it included.
func TestTSSiteMapping(t *testing.T) {
	src := `interface Opts<T> { seed?: T }
type Maybe<T> = T | undefined;
enum Color { Red, Green = "g" }
abstract class Base<T> {
  protected items: T[] = [];
  abstract size(): number;
}
class Box<T extends object> extends Base<T> {
  constructor(public label: string, private readonly opts: Opts<T> = {}) { super(); }
  size(): number { return this.items.length; }
  put(x: T): this { this.items.push(x as T); return this; }
}
declare const x: string;
const b = new Box<{ n: number }>("b", { seed: { n: 0 } } satisfies Opts<{ n: number }>);
b.put({ n: 1 }).put(<{ n: number }>{ n: 2 });
const m = new Map<string, Box<object>>();
m.set("k", b as unknown as Box<object>);
let v: Maybe<number> = parseInt("42", 10)!;
const arr: number[] = [1, 2, v!];
(b as any).extra = { color: Color.Green } as const;
function id<T>(t: T): T { return t; }
const r = id<number[]>(arr);
`
	got := siteTexts(t, src, Options{Goal: js.CommonJS, File: "map.ts", Loader: TS})
	want := map[string][]string{
		"n": {`new Box<{ n: number }>("b", { seed: { n: 0 } } satisfies Opts<{ n: number }>)`, `new Map<string, Box<object>>()`},
		"T": {`{ seed: { n: 0 } }`, `{ n: 0 }`, `{ n: 1 }`, `{ n: 2 }`, `[1, 2, v!]`, `{ color: Color.Green }`, `[]`, `{}`},
		"c": {`id<number[]>(arr)`, `parseInt("42", 10)`},
		"m": {`b.put({ n: 1 })`, `m.set("k", b as unknown as Box<object>)`, `this.items.push(x as T)`},
		"P": {`(b as any).extra = { color: Color.Green }`, `label`, `opts`},
	}
	for hook, texts := range want {
		for _, w := range texts {
			if !contains(got[hook], w) {
				t.Errorf("no %s site covers %q; %s sites: %q", hook, w, hook, got[hook])
			}
		}
	}
	// (The parameter properties' assignments, code esbuild writes, map to
	// the parameters' names.)
}

// TestTSColumnsUTF16: columns count UTF-16 units in the original, past
// non-ASCII text and type syntax esbuild removed.
func TestTSColumnsUTF16(t *testing.T) {
	src := "const s: string = \"é😀\"; const o = f<any>(s as string, {k: 1});\n"
	res, err := Instrument([]byte(src), Options{Goal: js.CommonJS, File: "u.ts", Loader: TS})
	if err != nil {
		t.Fatal(err)
	}
	// f starts after 35 UTF-16 units ("é" is 1, "😀" 2), {k: 1} after 55.
	for _, want := range []Site{{1, 36, 1, 63}, {1, 56, 1, 62}} {
		found := false
		for _, s := range res.Sites {
			found = found || s == want
		}
		if !found {
			t.Errorf("no site %v in %v", want, res.Sites)
		}
	}
}

func TestTSErrors(t *testing.T) {
	src := []byte("const a = 1;\nlet x: = {\n")
	_, err := Instrument(src, Options{Goal: js.CommonJS, File: "bad.ts", Loader: TS})
	var list *diag.List
	if !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "bad.ts:2:8: error: ") {
		t.Fatalf("got %v", err)
	}
	var b bytes.Buffer
	list.Log.Render(&b, diag.RenderOptions{})
	if !strings.Contains(b.String(), "\n    let x: = {\n           ^") {
		t.Errorf("no code frame:\n%s", b.String())
	}
	// JSX in a .ts file is an error; in .tsx it is not.
	if _, err := Instrument([]byte("const e = <b>x</b>;\n"), Options{File: "j.ts", Loader: TS}); err == nil {
		t.Error("JSX accepted by the ts loader")
	}
	// A reserved name is reported at its position in the original.
	_, err = Instrument([]byte("let a: number = 1;\nlet __mt$z: string = \"\";\n"), Options{Goal: js.CommonJS, File: "r.ts", Loader: TS})
	if err == nil || !strings.HasPrefix(err.Error(), "r.ts:2:5: error: the name __mt$z is reserved") {
		t.Errorf("reserved name: %v", err)
	}
}

// TestTSTsconfig: the jsx option of tsconfig.json selects the automatic
// runtime; without it esbuild's default, React.createElement.
func TestTSTsconfig(t *testing.T) {
	src := []byte("export const e = <b>x</b>;\n")
	res, err := Instrument(src, Options{Goal: js.Module, File: "a.tsx", Loader: TSX})
	if err != nil || !bytes.Contains(res.Code, []byte(`= React, `)) || !bytes.Contains(res.Code, []byte(`.createElement)`)) {
		t.Errorf("default JSX: %v\n%s", err, res.Code)
	}
	res, err = Instrument(src, Options{Goal: js.Module, File: "a.tsx", Loader: TSX,
		Tsconfig: "{\n  // comments are allowed\n  \"compilerOptions\": {\"jsx\": \"react-jsx\",},\n}"})
	if err != nil || !bytes.Contains(res.Code, []byte(`from "react/jsx-runtime"`)) {
		t.Errorf("react-jsx: %v\n%s", err, res.Code)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "src", "x"), 0o755)
	os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(`{"compilerOptions": {}}`), 0o644)
	if f, text := FindTsconfig(filepath.Join(dir, "src", "x", "a.ts")); f != filepath.Join(dir, "tsconfig.json") || text == "" {
		t.Errorf("FindTsconfig: %q", f)
	}
}

func TestLoaderOf(t *testing.T) {
	for path, want := range map[string]Loader{"a.ts": TS, "b.MTS": TS, "c.cts": TS, "d.tsx": TSX, "e.jsx": JSX, "f.js": JS, "g.mjs": JS, "h": JS} {
		if got := LoaderOf(path); got != want {
			t.Errorf("LoaderOf(%q) = %v, want %v", path, got, want)
		}
		if l, ok := ParseLoader(want.String()); !ok || l != want {
			t.Errorf("ParseLoader(%q)", want.String())
		}
	}
}

func TestDecodeMappings(t *testing.T) {
	// Segments: line 0: col 0 → 0:0, col 4 → 0:6; line 1 empty; line 2:
	// col 2 → 1:5 (fields relative to the previous segment's).
	lines, err := decodeMappings("AAAA,IAAM;;EACD")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]mapping{{{0, 0, 0}, {4, 0, 6}}, nil, {{2, 1, 5}}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %v", len(lines), lines)
	}
	for i := range want {
		if len(lines[i]) != len(want[i]) {
			t.Fatalf("line %d: %v", i, lines[i])
		}
		for j := range want[i] {
			if lines[i][j] != want[i][j] {
				t.Errorf("line %d segment %d: %v, want %v", i, j, lines[i][j], want[i][j])
			}
		}
	}
	// Multi-digit numbers: "2H" is 123 (VLQ 246), "3H" is -123.
	if v, _, err := decodeVLQ("2H", 0); err != nil || v != 123 {
		t.Errorf("2H = %d, %v", v, err)
	}
	if v, _, err := decodeVLQ("3H", 0); err != nil || v != -123 {
		t.Errorf("3H = %d, %v", v, err)
	}
	for _, bad := range []string{"A!AA", "AAg", "AA", "AAAAAA", "gggggggggA"} {
		if _, err := decodeMappings(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	sm := &sourceMap{lines: want}
	if s, same, ok := sm.lookup(0, 5); !ok || !same || s != (mapping{4, 0, 6}) {
		t.Errorf("lookup(0,5) = %v %v %v", s, same, ok)
	}
	if s, same, ok := sm.lookup(1, 0); !ok || same || s != (mapping{4, 0, 6}) {
		t.Errorf("lookup(1,0) = %v %v %v", s, same, ok)
	}
}

// TestAlignLines: esbuild's output moved to the original's lines keeps
// every token and every template literal's text (newlines only turned
// into spaces or added between lines), a line comment does not take a
// joined line, and each line that starts with a mapped token and is not
// behind starts on the original line of that token.
func TestAlignLines(t *testing.T) {
	// A line comment (a legal comment esbuild keeps) takes no joined line,
	// even when the next line comes from an earlier original line.
	code := []byte("a();\n//! kept\nb();\n`x\n`;\n")
	sm := &sourceMap{lines: [][]mapping{{{0, 0, 0}}, nil, {{0, 0, 5}}, {{0, 0, 10}}, {{0, 0, 12}}, nil}}
	got, _ := alignLines(code, sm, js.Script)
	if want := "a(); //! kept\nb(); `x\n`; "; string(got) != want {
		t.Fatalf("alignLines(%q) = %q, want %q", code, got, want)
	}
	src := `//! legal comment kept by esbuild
import { x } from "./x";
const early = x;

// dropped comment
type T = { a: number };

export enum E {
  A,
  B = "b",
}

const s = ` + "`" + `first
  ${x}
` + "`" + `, u = "http://example.com"; // trailing

export function f(a: T): number {

  return a.a + E.A;
  //! legal comment at the end of a block
}
`
	for _, goal := range []js.Goal{js.Module, js.CommonJS} {
		format := api.FormatDefault
		if goal == js.CommonJS {
			format = api.FormatCommonJS
		}
		tr := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext, Format: format,
			Sourcemap: api.SourceMapExternal, Sourcefile: "a.ts"})
		if len(tr.Errors) > 0 {
			t.Fatal(tr.Errors)
		}
		sm, err := parseSourceMap(tr.Map)
		if err != nil {
			t.Fatal(err)
		}
		code, sm2 := alignLines(tr.Code, sm, goal)
		if bytes.Equal(code, tr.Code) {
			t.Fatalf("goal %v: nothing moved\n%s", goal, code)
		}
		if !bytes.Equal(bytes.Join(bytes.Fields(code), nil), bytes.Join(bytes.Fields(tr.Code), nil)) {
			t.Fatalf("goal %v: more than whitespace changed:\n%s\n----\n%s", goal, tr.Code, code)
		}
		templates := func(b []byte) (raws []string) {
			p, err := js.Parse(b, js.Options{Goal: goal})
			if err != nil {
				t.Fatalf("goal %v: %v\n%s", goal, err, b)
			}
			js.Inspect(p, func(n js.Node) bool {
				if tl, ok := n.(*js.Template); ok {
					for _, part := range tl.Parts {
						raws = append(raws, part.Raw)
					}
				}
				return true
			})
			return raws
		}
		if a, b := templates(tr.Code), templates(code); strings.Join(a, "|") != strings.Join(b, "|") {
			t.Fatalf("goal %v: template text changed: %q -> %q", goal, a, b)
		}
		lines := strings.Split(string(code), "\n")
		if len(sm2.lines) != len(lines) {
			t.Fatalf("goal %v: %d lines of mappings for %d lines", goal, len(sm2.lines), len(lines))
		}
		for i, l := range lines {
			if strings.Contains(l, "//") && strings.Contains(l[strings.Index(l, "//"):], ";") && !strings.Contains(l, "http://") {
				t.Fatalf("goal %v: line %d: code after a line comment: %q", goal, i+1, l)
			}
			// Each mapping points at the token it did before.
			for _, m := range sm2.lines[i] {
				if int(m.genCol) > len(l) {
					t.Fatalf("goal %v: line %d: mapping at column %d of %q", goal, i+1, m.genCol, l)
				}
			}
		}
		for _, tok := range []struct{ orig, gen string }{{"function f", "function f("}, {"return a.a", "return a.a"}, {"const s", "const s"}, {"  A,", `"A"`}} {
			want, got := 0, 0
			for i, l := range strings.Split(src, "\n") {
				if strings.Contains(l, tok.orig) && want == 0 {
					want = i + 1
				}
			}
			for i, l := range lines {
				if strings.Contains(l, tok.gen) && got == 0 {
					got = i + 1
				}
			}
			if got != want {
				t.Errorf("goal %v: %q on line %d, want %d\n%s", goal, tok.gen, got, want, code)
			}
		}
	}
}
