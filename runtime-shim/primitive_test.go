package runtimeshim

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// primProgram stores primitives in locals of every kind the rule knows
// (counters, accumulators, copies, closures' variables, for-in keys,
// bigints, logical assignment, parameters coerced by their function's
// first statements, given objects here), next to locals that also hold
// objects.
const primProgram = `'use strict';
function sum(a) { var s = 0, i; for (i = 0; i < a.length; i++) { s += a[i]; } var avg = s / a.length; return avg; }
function counter() { var n = 0; return { inc() { n++; return n; }, add(k) { n += k; return n; } }; }
function mix(o) {
  var x = 1, y = x, label = "p" + x, z;
  z = y * 2; z ||= 5;
  var holder = null; holder = o; holder = 3;
  let flag = !o; flag = typeof o === 'object';
  const big = 10n; let b2 = big + 1n;
  for (var k in o) { label += k; }
  var last = 0; last = [x]; last = 0;
  var len = label.length, first = label[0];
  return [x, y, z, label, holder, flag, b2, len + first];
}
function asm(p, q, r) { p = p | 0; q = +q; r = r | 0; var t = 0; t = p + 1 | 0; var u = q; p = p << 1; return (t + u + p + r) | 0; }
function args(p) { p = p | 0; arguments[0] = {}; return typeof p; }
function late(p) { var x = 0; p = p | 0; return p + x; }
const c = counter();
console.log(sum([1, 2, 3]), c.inc(), c.add(4), JSON.stringify(mix({ a: 1, b: { c: 2 } }), (k, v) => typeof v === 'bigint' ? String(v) : v));
console.log(asm(3, 2.5, { valueOf() { return 4; } }), asm({ valueOf() { return 1; } }, 0, 0), args(5), late({ valueOf() { return 7; } }));
`

// TestPrimitiveWritesElided: instrumented without W at the writes of names
// that can only hold primitives (scope.Binding.Primitive), nor G at their
// property reads, a program
// writes the same trace as with W everywhere, entry for entry, once iids
// are read as the source ranges they map to (the elided W sites shift the
// numbering) and SOURCE_MAPPINGs are set aside; and fewer hooks run.
func TestPrimitiveWritesElided(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	var traces [2][]string
	var ws, gs [2]int
	for k, keep := range []bool{false, true} {
		prog := filepath.Join(dir, fmt.Sprintf("prim%d.js", k))
		code := instrumentSwitched(t, prog, primProgram, instrument.Options{Goal: js.CommonJS, File: "prim.js"}, testswitch.Switches{KeepPrimitiveHooks: keep, KeepUses: true})
		ws[k] = strings.Count(string(code), ".W(")
		gs[k] = len(gHook.FindAllIndex(code, -1))
		got := run(t, node, shim, prog, nil)
		if got.exit != 0 || got.stdout != "2 1 5 [1,1,2,\"p1ab\",3,true,\"11\",\"4p\"]\n16 4 number 7\n" {
			t.Fatalf("keep=%v: exit %d, output %q\n%s", keep, got.exit, got.stdout, got.stderr)
		}
		check(t, "prim", got.trace)
		traces[k] = bySource(t, dump(t, got.trace))
	}
	if ws[0] >= ws[1] || ws[0] != 13 {
		t.Fatalf("W hooks: %d elided, %d kept; want the 8 of holder, last (they also hold objects), len and first (property reads), and the 5 coercions of parameters (p, q, r of asm, args's p, late's p)", ws[0], ws[1])
	}
	if gs[1]-gs[0] != 2 {
		t.Fatalf("G hooks: %d elided, %d kept; want the reads of label (length, [0]) without G", gs[0], gs[1])
	}
	sameBySource(t, traces[0], traces[1], "elided W")
}

// sameBySource fails t unless two traces read by bySource are the same,
// entry for entry: without the elided hooks named by what, and with them.
func sameBySource(t *testing.T, without, with []string, what string) {
	t.Helper()
	if len(without) != len(with) {
		t.Fatalf("%d entries without the %s, %d with them", len(without), what, len(with))
	}
	for i := range without {
		if without[i] != with[i] {
			t.Fatalf("entry %d differs: %s without the %s, %s with them", i, without[i], what, with[i])
		}
	}
}

// bySource rewrites a dumped trace of one script: iid fields become the
// source range their SOURCE_MAPPING gives, SOURCE_MAPPINGs are left out.
// gHook matches the opening of a G hook or of one of its copies (G0..).
var gHook = regexp.MustCompile(`\.G[0-9]*\(`)

func bySource(t *testing.T, text string) []string {
	t.Helper()
	var entries [][]any
	span := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var e []any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if e[0].(float64) == 22 {
			span[fmt.Sprint(e[1])] = fmt.Sprintf("%v:%v-%v:%v", e[2], e[3], e[4], e[5])
			continue
		}
		entries = append(entries, e)
	}
	at := func(v any) string {
		if s, ok := span[fmt.Sprint(v)]; ok {
			return "@" + s
		}
		return fmt.Sprintf("@?%v", v)
	}
	var out []string
	for _, e := range entries {
		var fields []int // the iid fields of each entry type
		switch int(e[0].(float64)) {
		case 0, 1, 3, 4, 6, 7, 10, 19, 20, 21:
			fields = []int{1}
		case 2:
			fields = []int{1, 2}
		case 9:
			fields = []int{2}
		case 18:
			fields = []int{1, 3}
		case 5, 8: // a "sid:iid" site string, last
			s := e[len(e)-1].(string)
			e[len(e)-1] = at(s[strings.IndexByte(s, ':')+1:])
		}
		for _, f := range fields {
			e[f] = at(e[f])
		}
		b, _ := json.Marshal(e)
		out = append(out, string(b))
	}
	return out
}
