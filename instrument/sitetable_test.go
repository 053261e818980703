package instrument

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument/diag"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// The prologue's site table is a string of VLQ numbers, four per site,
// delta-coded (docs/instrumentation.md §2).

func TestSiteVLQRoundTrip(t *testing.T) {
	cases := [][]Site{
		nil,
		{{0, 0, 0, 0}},
		{{1, 1, 1, 2}},
		{{3, 40, 3, 41}, {3, 2, 3, 90}, {1, 1, 9, 2}, {0, 0, 0, 0}, {7, 15, 7, 1}, {7, 15, 8, 1}},
		{{1 << 30, 1<<31 - 1, 1 << 30, 1}, {1, 1 << 20, 2, 1 << 25}},
	}
	r := rand.New(rand.NewSource(1))
	var big []Site
	l := 1
	for i := 0; i < 5000; i++ {
		l += r.Intn(3) - 1
		if l < 1 {
			l = 1
		}
		c := r.Intn(200000) + 1
		e := l + r.Intn(4)
		big = append(big, Site{int32(l), int32(c), int32(e), int32(r.Intn(300) + 1)})
		if r.Intn(50) == 0 {
			big = append(big, Site{})
		}
	}
	cases = append(cases, big)
	for i, sites := range cases {
		enc := AppendSiteVLQ(nil, sites)
		if strings.Trim(string(enc), vlqDigits) != "" {
			t.Fatalf("case %d: %q has characters outside the digits", i, enc)
		}
		got, err := DecodeSiteVLQ(string(enc))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if len(got) != len(sites) {
			t.Fatalf("case %d: %d sites, want %d", i, len(got), len(sites))
		}
		for k := range sites {
			if got[k] != sites[k] {
				t.Fatalf("case %d: site %d is %v, want %v", i, k+1, got[k], sites[k])
			}
		}
	}
	for _, bad := range []string{"A", "AAA", "g", "AAA!", "gggggggggggggA"} {
		if _, err := DecodeSiteVLQ(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

var prologueTable = regexp.MustCompile(`__mt\.S(?:g\("__mt\$[0-9a-f]{8}", \d+, \d+, |\()"[^"]*", "([A-Za-z0-9+/]*)"`)

// TestSiteTableInPrologue: the table in the code is Result.Sites, both as
// Go decodes it and as the shim does (its decodeSites, run by node on the
// tables of real programs).
func TestSiteTableInPrologue(t *testing.T) {
	root := testcorpus.Dir(t)
	files := []string{"octane/richards.js", "octane/earley-boyer.js", "node/lodash/lodash.js"}
	var tables []string
	var want [][]Site
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Instrument(src, Options{Goal: js.Script, File: f})
		if err != nil {
			t.Fatal(err)
		}
		m := prologueTable.FindSubmatch(res.Code)
		if m == nil {
			t.Fatalf("%s: no site table string in the prologue", f)
		}
		got, err := DecodeSiteVLQ(string(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(res.Sites) {
			t.Fatalf("%s: %d sites in the prologue, %d in the result", f, len(got), len(res.Sites))
		}
		for k := range got {
			if got[k] != res.Sites[k] {
				t.Fatalf("%s: site %d is %v in the prologue, %v in the result", f, k+1, got[k], res.Sites[k])
			}
		}
		tables = append(tables, string(m[1]))
		want = append(want, res.Sites)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testcorpus.Missing(t, "node")
		return
	}
	// The shim's decoder, cut from its source.
	shim, err := os.ReadFile(filepath.Join("..", "runtime-shim", "src", "core.js"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(shim, []byte("  var vlqValue ="))
	j := bytes.Index(shim, []byte("  // S registers a script"))
	if i < 0 || j < i {
		t.Fatal("decodeSites not found in runtime-shim/src/core.js")
	}
	prog := "const callWith = Function.prototype.call.bind(Function.prototype.call), strCharCodeAt = String.prototype.charCodeAt;\n" + string(shim[i:j]) +
		"const tables = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n" +
		"console.log(JSON.stringify(tables.map(t => Array.from(decodeSites(t)))));\n"
	cmd := exec.Command(node, "-e", prog)
	cmd.Stdin = strings.NewReader(`["` + strings.Join(tables, `","`) + `"]`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var b strings.Builder
	b.WriteString("[")
	for i, sites := range want {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[")
		for k, s := range sites {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "%d,%d,%d,%d", s.StartLine, s.StartCol, s.EndLine, s.EndCol)
		}
		b.WriteString("]")
	}
	b.WriteString("]\n")
	if string(out) != b.String() {
		t.Errorf("the shim decodes other sites than the instrumenter wrote (%d bytes against %d)", len(out), b.Len())
	}
}

// TestEvalHandle: eval code keeps its handle in the eval's own lexical
// scope, under the short name; code that runs as a script of its own (a
// string timer) needs a global name unique to it.
func TestEvalHandle(t *testing.T) {
	src := []byte("var a = {b: 1}; a.b++")
	ev, err := Instrument(src, Options{Goal: js.Script, File: "evalIndirect", Eval: true})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Handle != "H" || !bytes.HasPrefix(ev.Code, []byte("const H = "+EvalNoCache+"__mt.S(")) {
		t.Errorf("eval code's handle is %q (and its initializer opens with %q):\n%s", ev.Handle, EvalNoCache, ev.Code)
	}
	// The marker parses as a conditional that never evaluates its tagged
	// template; the code with the marker blanked out (as the shim evaluates
	// a string the second time) is instrumented code too, and both are left
	// as they are when instrumented again.
	blank := bytes.Replace(ev.Code, []byte(EvalNoCache), []byte(strings.Repeat(" ", len(EvalNoCache))), 1)
	for _, code := range [][]byte{ev.Code, blank} {
		again, err := Instrument(code, Options{Goal: js.Script, File: "evalIndirect", Eval: true})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again.Code, code) {
			t.Errorf("instrumented eval code changed when instrumented again:\n%s\n---\n%s", code, again.Code)
		}
	}
	gl, err := Instrument(src, Options{Goal: js.Script, File: "evalIndirect", Eval: true, GlobalCode: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(gl.Handle) != len(Prefix)+8 || !bytes.HasPrefix(gl.Code, []byte("__mt.Sg(\""+gl.Handle+"\", 3, 0, ")) {
		t.Errorf("global code's handle is %q:\n%s", gl.Handle, gl.Code)
	}
	// Global code's temporaries are global names the shim makes (Sg), an
	// eval's are its own lexical declarations (a var would be a property
	// of the global object in an indirect eval); both unique to the code.
	if bytes.Contains(gl.Code, []byte("var "+gl.Handle+"_1")) || !bytes.Contains(gl.Code, []byte(gl.Handle+"_1 = ")) {
		t.Errorf("global code's temporaries are not global names:\n%s", gl.Code)
	}
	if !bytes.Contains(ev.Code, []byte("let "+gl.Handle+"_1")) {
		t.Errorf("eval code's temporaries are not lexical, named after the code's hash:\n%s", ev.Code)
	}
}

// TestShortHandle: the handle of a module, a CommonJS module and eval code
// is the first short name no identifier of the code spells, declared or
// referenced, in any scope; the reserved prefix where direct eval or with
// may bring names the instrumenter cannot see.
func TestShortHandle(t *testing.T) {
	for _, c := range []struct {
		src  string
		goal js.Goal
		eval bool
		want string
	}{
		{"var a = {}", js.CommonJS, false, "H"},
		{"export const a = {}", js.Module, false, "H"},
		{"var a = {}", js.Script, true, "H"},
		{"var H = {}; function f() { return A.x }", js.CommonJS, false, "B"},
		{"function f(H) { var A; return () => { let B = C } }", js.Module, false, "D"},
		{"\\u0048.x = {}", js.CommonJS, false, "A"},                        // H, escaped
		{"o.H = {H: 1}; lbl: for (;;) break lbl", js.CommonJS, false, "H"}, // properties, labels
		{"var x = {}; function f() { eval(s) }", js.CommonJS, false, Prefix},
		{"var x = {}; with (o) { y = 1 }", js.Script, true, Prefix},
	} {
		res, err := Instrument([]byte(c.src), Options{Goal: c.goal, File: "t.js", Eval: c.eval})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		decl := "const " + res.Handle + " = "
		if c.goal == js.Module {
			decl = "var " + res.Handle + " = " + ModuleInit + "(); "
		}
		if res.Handle != c.want || !bytes.Contains(res.Code, []byte(decl)) {
			t.Errorf("%s: handle %q, want %q\n%s", c.src, res.Handle, c.want, res.Code)
		}
	}
	// Every one- and two-character name taken: the prefix.
	var b strings.Builder
	const first = "HABCDEFGIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz$_"
	for _, x := range first {
		b.WriteString("var " + string(x) + ";")
		for _, y := range first + "0123456789" {
			if n := string(x) + string(y); n != "do" && n != "if" && n != "in" {
				b.WriteString("var " + n + ";")
			}
		}
	}
	res, err := Instrument([]byte(b.String()), Options{Goal: js.CommonJS, File: "t.js"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Handle != Prefix {
		t.Errorf("every short name declared: handle %q, want %q", res.Handle, Prefix)
	}
}

// TestHandleAlias: in a classic script, each function at the top level
// binds a short alias of the hashed handle first in its body, which its
// hooks and its nested functions' use; the top level keeps the long name;
// a function with direct eval or with in it keeps the long name inside.
func TestHandleAlias(t *testing.T) {
	src := []byte("var o = {};\nfunction f(a = o.p) { var x = a.q; return function g() { return x.r; }; }\nfunction e(s) { eval(s); return o.z; }\n")
	res, err := Instrument(src, Options{Goal: js.Script, File: "t.js"})
	if err != nil {
		t.Fatal(err)
	}
	code := string(res.Code)
	h := res.Handle
	if res.Alias != "H" || strings.Count(code, "const H = "+h+", __mt$f = H.Fe(") != 1 {
		t.Fatalf("alias %q; f binds it once (g uses f's):\n%s", res.Alias, code)
	}
	lines := strings.Split(code, "\n")
	if !strings.Contains(lines[1], "function f(a = "+h+".G") || !strings.Contains(lines[1], "return H.Rx(__mt$f, ") ||
		!strings.Contains(lines[1], "function g() {const __mt$f = H.Fe(") {
		t.Errorf("f's parameters keep the long name, its body and g use the alias:\n%s", lines[1])
	}
	if strings.Contains(lines[2], "const H") || !strings.Contains(lines[2], h+".G") {
		t.Errorf("a function with direct eval keeps the long name:\n%s", lines[2])
	}
	if !strings.HasPrefix(lines[0], "__mt.Sg(\""+h+"\", ") || !strings.Contains(lines[0], "var o = "+h+".X(") {
		t.Errorf("the top level keeps the long name:\n%s", lines[0])
	}
}

// TestSitesApart: with SitesApart, eval code's prologue passes 0 for its
// site table, which comes back in Result.SiteTable; the code is otherwise
// the code with the table inline, and files (not Eval) keep it inline.
func TestSitesApart(t *testing.T) {
	src := []byte("var a = {b: 1}; a.b++; function f(x) { return x.y; }")
	inline, err := Instrument(src, Options{Goal: js.Script, File: "eval", Eval: true})
	if err != nil {
		t.Fatal(err)
	}
	apart, err := Instrument(src, Options{Goal: js.Script, File: "eval", Eval: true, SitesApart: true})
	if err != nil {
		t.Fatal(err)
	}
	table := string(AppendSiteVLQ(nil, inline.Sites))
	if string(apart.SiteTable) != table || inline.SiteTable != nil {
		t.Fatalf("SiteTable %q (inline: %q), want %q", apart.SiteTable, inline.SiteTable, table)
	}
	if want := strings.Replace(string(inline.Code), `__mt.S("eval", "`+table+`", `, `__mt.S("eval", 0, `, 1); string(apart.Code) != want {
		t.Fatalf("code with the table apart:\n%s\nwant:\n%s", apart.Code, want)
	}
	file, err := Instrument(src, Options{Goal: js.Script, File: "f.js", SitesApart: true})
	if err != nil {
		t.Fatal(err)
	}
	if file.SiteTable != nil || !bytes.Contains(file.Code, []byte(`, "f.js", "`)) {
		t.Fatalf("a file's table must stay inline:\n%s", file.Code)
	}
}

// TestSitePositions: the site list's lines and columns (found from cursors
// that follow the sites, with a search when they jump) equal the line
// table's own Position of each site's byte range, for sources with
// non-ASCII lines, CR LF, lone CR, U+2028, long lines and sites that span
// many lines, and for a large real program.
func TestSitePositions(t *testing.T) {
	srcs := map[string]string{
		"mixed": "var é = { a: 1 };\r\nfunction f(x) {\r  return x + '😀' + é.a;\u2028}\nvar s = `a\nb${f(2)}\nc`;\n" +
			strings.Repeat("o = { k: [1, 2, { z: f(3) }] }; ", 40) + "\n/* ü */ (function () {\n\n  return f(é);\n})();\n",
		"nested": "function a() {\n function b() {\n  function c() { return { x: 1 }; }\n  return c();\n }\n return b();\n}\na();\n",
	}
	if dir := testcorpus.Dir(t, "octane"); dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, "box2d.js"))
		if err != nil {
			t.Fatal(err)
		}
		srcs["box2d"] = string(b)
	}
	for name, s := range srcs {
		src := []byte(s)
		prog, err := js.Parse(src, js.Options{Goal: js.Script})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		info := scope.Analyze(prog)
		r := newRewriter(src, prog, info, config{Options: Options{Goal: js.Script, File: name}}, &scratchBufs{})
		r.program(prog)
		got := r.siteList()
		lt := diag.NewLineTable(src)
		if len(got) != len(r.sites) || len(got) < 10 {
			t.Fatalf("%s: %d sites for %d ranges", name, len(got), len(r.sites))
		}
		for i, sp := range r.sites {
			l1, c1 := lt.Position(sp.Start)
			l2, c2 := lt.Position(sp.End)
			want := Site{int32(l1), int32(c1 + 1), int32(l2), int32(c2 + 1)}
			if got[i] != want {
				t.Fatalf("%s: site %d (bytes %d-%d) at %v, want %v", name, i+1, sp.Start, sp.End, got[i], want)
			}
		}
	}
}
