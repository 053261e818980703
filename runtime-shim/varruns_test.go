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
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs.js")
	code := instrumentFile(t, runs, varRunsProgram, instrument.Options{Goal: js.Script, File: "runs.js"})
	nus := nuCall.FindAll(code, -1)
	if len(nus) < 10 {
		t.Fatalf("%d Nu calls in the instrumented program, want at least 10:\n%s", len(nus), code)
	}
	longest := 0
	spelled := nuCall.ReplaceAllFunc(code, func(m []byte) []byte {
		sub := nuCall.FindSubmatch(m)
		i, _ := strconv.Atoi(string(sub[2]))
		names := strings.Split(string(sub[3]), ",")
		longest = max(longest, len(names))
		var b bytes.Buffer
		for k, n := range names {
			fmt.Fprintf(&b, "%s.N(%d, \"%s\", void 0); ", sub[1], i+k, n)
		}
		return b.Bytes()
	})
	if longest < 41 {
		t.Fatalf("longest run %d vars, want 41", longest)
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
		if n := bytes.Count([]byte(dump(t, a.trace)), []byte("[5,")); n < 10 {
			t.Errorf("compact=%s: %d LAST_USE entries, want the run to span many last-use blocks", mode, n)
		}
	}
}
