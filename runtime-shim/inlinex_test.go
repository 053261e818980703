package runtimeshim

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// inlineXProgram has statements that write entries and statements that do
// not, next to each other and in every position the inline test of the
// pending-flush slot takes: expression statements, for initialisers and
// updates, sequences, loops, a generator, an async function, a class's
// static block and methods, exceptions, and a module's top level.
const inlineXProgram = `
let sink = [];
function keep(o) { sink.push(o); return o; }
function numeric(n) {
  var s = 0, t = 0, k;
  for (k = 0, s = 1; k < n; k++, t += k) { s = (s * 31 + k) | 0; t ^= s; }
  s++; t--; keep({ s }); s += 2; t = s, keep([t]), s--;
  return s + t;
}
function* gen(n) { let o = { n }; yield o; o.n++; yield keep(o); o = null; n++; }
async function later(x) { const box = { x }; await null; box.x++; x++; keep(box); return box.x; }
class K {
  static { this.made = 0; K.made++; }
  constructor(v) { this.v = v; K.made++; }
  bump() { this.v++; this.v += 1; this.w = { v: this.v }; return this; }
}
function conds(a) {
  let n = 0, o = null;
  if (a) n++; else n--;
  if (keep({ a })) n += 2;
  if (o) n = 0;
  while (n < 6 && keep([n]).length) n++;
  do { n--; } while (n > 4 ? keep({ n }) : 0);
  for (let i = 0; a && i < 3; i++) n += i ? 1 : keep({ i }).i;
  if (keep({}).none) n++;
  while (keep({ n }).n > 100) n--;
  return (n > 3 ? keep({ n }) : { n }).n + (n < -100 ? 1 : n !== n ? 2 : 3);
}
function throws(o) { o.x = 1; if (o.x) throw new Error("stop"); o.y = 2; }
let total = 0;
for (let i = 0; i < 3; i++) { total += numeric(50 + i); total ^= i; }
for (const v of gen(2)) { total += v.n; }
const k = new K(1); k.bump().bump();
try { throws({}); } catch (e) { total++; keep(e.message); }
total += conds(0) + conds(1) + conds({});
if (total > 1) total++; else keep(total);
total = total, sink.length, keep({ total });
later(3).then(v => { total += v; console.log(total, K.made, k.v, sink.length); });
`

// TestInlineX: the instrumented code that tests the pending-flush slot
// before calling X (e, H.p[0] || H.X(k); the tests of if, loops and ?:
// as (e) ? H.p[0] || H.X(k, 1) : !H.p[0] && H.X(k, 0)) writes the trace the code that
// always calls X writes, byte for byte, in full and compact mode, as a
// CommonJS module and as an ES module (classic scripts keep the call at
// their top level, where completion values are observable).
func TestInlineX(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	for _, goal := range []struct {
		g    js.Goal
		file string
	}{{js.CommonJS, "x.js"}, {js.Module, "x.mjs"}} {
		for _, compact := range []string{"0", "1"} {
			var traces [2][]byte
			var out [2]string
			for k, callX := range []bool{false, true} {
				prog := filepath.Join(dir, fmt.Sprintf("%d%s", k, goal.file))
				code := instrumentSwitched(t, prog, inlineXProgram, instrument.Options{Goal: goal.g, File: goal.file}, testswitch.Switches{CallX: callX})
				inline := strings.Count(string(code), ".p[0] || ")
				if callX && inline != 0 || !callX && inline < 20 {
					t.Fatalf("%s CallX=%v: %d inline tests", goal.file, callX, inline)
				}
				got := run(t, node, shim, prog, []string{"MEMTRACE_COMPACT=" + compact})
				if got.exit != 0 {
					t.Fatalf("%s: exit %d\n%s", goal.file, got.exit, got.stderr)
				}
				check(t, goal.file, got.trace)
				traces[k], out[k] = got.trace, got.stdout
			}
			if out[0] != out[1] || out[0] == "" {
				t.Fatalf("%s: output %q inline, %q with calls", goal.file, out[0], out[1])
			}
			sameTrace(t, traces[0], traces[1], goal.file+" compact="+compact+": ", "inline", "with calls")
		}
	}
}

// sameTrace fails the test unless traces a and b (of variants named an
// and bn) are the same bytes, naming the first entry that differs.
func sameTrace(t *testing.T, a, b []byte, what, an, bn string) {
	t.Helper()
	if bytes.Equal(a, b) {
		return
	}
	da, db := strings.Split(dump(t, a), "\n"), strings.Split(dump(t, b), "\n")
	for i := 0; i < len(da) && i < len(db); i++ {
		if da[i] != db[i] {
			lo := max(0, i-6)
			t.Fatalf("%sentry %d: %s %s, %s %s\n%s:\n%s\n%s:\n%s", what, i, da[i], an, db[i], bn, an, strings.Join(da[lo:min(len(da), i+6)], "\n"), bn, strings.Join(db[lo:min(len(db), i+6)], "\n"))
		}
	}
	t.Fatalf("%s%d entries %s, %d %s", what, len(da), an, len(db), bn)
}
