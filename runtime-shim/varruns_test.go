package runtimeshim

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// varRunsProgram declares runs of vars of several lengths at function
// entries, in loops long enough that last-use blocks (every 10,000
// entries) fall inside the runs at many offsets.
const varRunsProgram = `
function one(o) { var a; a = o; return a; }
function three(x) { var p, q, r; p = [x]; return p.length; }
function many(n) {
  var v00, v01, v02, v03, v04, v05, v06, v07, v08, v09, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19;
  var w00, w01, w02, w03, w04, w05, w06, w07, w08, w09, w10, w11, w12, w13, w14, w15, w16, w17, w18, w19;
  var aVeryLongVariableNameThatTakesManyBytesInTheTrace_éè;
  v00 = { n: n };
  return v00.n;
}
function shadowParam(x) { var x; var y; return x; }
function withFn() { var before; function inner() { return 1; } var after; return inner(); }
function annexB() { var g; { function g() { return 2; } } return typeof g; }
var named = function self() { var self; return self; };
function* gen() { var s, t; yield 1; s = {}; yield 2; }
class K { static { var st1, st2; st1 = 1; } m() { var km; km = this; return km; } }
let total = 0;
for (let k = 0; k < 3000; k++) {
  total += one({}) ? 1 : 0;
  total += three(k);
  total += many(k);
  total += shadowParam(k);
  total += withFn();
  total += annexB().length;
  total += named() === undefined ? 1 : 0;
  for (const v of gen()) total += v;
  total += new K().m() ? 1 : 0;
}
console.log(total);
`

var nuCall = regexp.MustCompile(`([\w$]+)\.Nu\((\d+), "([^"]*)"\);`)

// TestVarRuns: Nu writes a run of vars' DECLAREs from bytes it encodes
// once per site; the trace must be the one the same program writes with a
// separate N for each var (the instrumented code with every Nu spelled out
// as Ns), byte for byte, full and compact, with last-use blocks falling
// inside runs.
func TestVarRuns(t *testing.T) {
	varRuns(t, varRunsProgram, 10, 41, 10)
}

// TestVarRunsHuge: a run of fewer vars than a last-use period but more
// bytes than the writer's buffer (9,000 names of 64 characters, 1.2 MB of
// DECLAREs) is written entry by entry, as N would, not copied whole past
// the buffer's end (a RangeError in the hook).
func TestVarRunsHuge(t *testing.T) {
	var b strings.Builder
	b.WriteString("function huge(x) {\n  var ")
	for k := 0; k < 9000; k++ {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "h%063d", k)
	}
	fmt.Fprintf(&b, ";\n  h%063d = x;\n  return h%063d;\n}\nconsole.log(huge(1) + huge(2));\n", 8999, 8999)
	varRuns(t, b.String(), 1, 9000, 0)
}

// varRuns instruments program, checks that it has at least nus Nu calls
// and one of at least longest names, and compares its traces with those
// of the same code with every Nu spelled out as Ns, which must have at
// least lastUses LAST_USE entries (blocks falling inside runs).
func varRuns(t *testing.T, program string, nus, longest, lastUses int) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.js")
	code := instrumentFile(t, runs, program, instrument.Options{Goal: js.Script, File: "runs.js"})
	if n := len(nuCall.FindAll(code, -1)); n < nus {
		t.Fatalf("%d Nu calls in the instrumented program, want at least %d", n, nus)
	}
	most := 0
	spelled := nuCall.ReplaceAllFunc(code, func(m []byte) []byte {
		sub := nuCall.FindSubmatch(m)
		i, _ := strconv.Atoi(string(sub[2]))
		names := strings.Split(string(sub[3]), ",")
		most = max(most, len(names))
		var b bytes.Buffer
		for k, n := range names {
			fmt.Fprintf(&b, "%s.N(%d, \"%s\", void 0); ", sub[1], i+k, n)
		}
		return b.Bytes()
	})
	if most < longest {
		t.Fatalf("longest run %d vars, want %d", most, longest)
	}
	ns := filepath.Join(dir, "ns.js")
	if err := os.WriteFile(ns, spelled, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"0", "1"} {
		env := []string{"MEMTRACE_COMPACT=" + mode}
		a := run(t, node, shim, runs, env)
		b := run(t, node, shim, ns, env)
		if a.exit != 0 || b.exit != 0 || a.stdout != b.stdout || a.stdout == "" {
			t.Fatalf("compact=%s: exit %d/%d, output %q/%q\n%s\n%s", mode, a.exit, b.exit, a.stdout, b.stdout, a.stderr, b.stderr)
		}
		check(t, "runs.js", a.trace)
		if !bytes.Equal(a.trace, b.trace) {
			da, db := strings.Split(dump(t, a.trace), "\n"), strings.Split(dump(t, b.trace), "\n")
			for k := 0; k < len(da) && k < len(db); k++ {
				if da[k] != db[k] {
					t.Fatalf("compact=%s: traces differ at entry %d: %s with Nu, %s with N", mode, k, da[k], db[k])
				}
			}
			t.Fatalf("compact=%s: traces differ in length: %d and %d entries", mode, len(da), len(db))
		}
		if n := bytes.Count([]byte(dump(t, a.trace)), []byte("[5,")); n < lastUses {
			t.Errorf("compact=%s: %d LAST_USE entries, want at least %d: the runs to span many last-use blocks", mode, n, lastUses)
		}
	}
}

// TestVarRunsEvicted: compact mode holds a run's bytes (holdRun), not its
// slot in the writer's run cache, which is direct-mapped by iid (8,192
// slots): here f's run is held, f calls g, whose run takes the same slot,
// and f's run is written after g returns (a = o needs its names). The
// padding puts g's run exactly 8,192 iids after f's; the trace must still
// be the one the program spelled with Ns writes.
func TestVarRunsEvicted(t *testing.T) {
	const slots = 8192
	nuAt := regexp.MustCompile(`\.Nu\((\d+), "(a,b|x,y,z)"\)`)
	for params := 0; params < 4; params++ {
		var b strings.Builder
		b.WriteString("function f(o) { var a, b; g(); a = o; return a; }\nfunction pad(q")
		for k := 0; k < params; k++ {
			fmt.Fprintf(&b, ", q%d", k)
		}
		b.WriteString(") {\n")
		for k := 0; k < (slots-8)/2; k++ {
			b.WriteString("  q();\n")
		}
		b.WriteString("}\nfunction g() { var x, y, z; return 1; }\nlet n = 0;\nfor (let k = 0; k < 50; k++) n += f({ k }).k;\nconsole.log(n);\n")
		code := instrumentFile(t, filepath.Join(t.TempDir(), "runs.js"), b.String(), instrument.Options{Goal: js.Script, File: "runs.js"})
		at := map[string]int{}
		for _, m := range nuAt.FindAllSubmatch(code, -1) {
			at[string(m[2])], _ = strconv.Atoi(string(m[1]))
		}
		if len(at) != 2 {
			t.Fatalf("Nu calls of f and g not found: %v", at)
		}
		if d := at["x,y,z"] - at["a,b"]; d <= 0 || d%slots != 0 {
			continue
		}
		varRuns(t, b.String(), 2, 3, 0)
		return
	}
	t.Fatal("no padding put g's run a multiple of 8,192 iids after f's: the padding no longer gives the iids it did")
}
