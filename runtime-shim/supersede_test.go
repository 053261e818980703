package runtimeshim

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// supProgram reads the same objects several times in straight-line code
// (numeric loops over arrays, methods reading this, a linked list, reads
// in branches, a name assigned between two reads, objects that die after
// their last read) over enough time
// for several periodic last-use blocks.
const supProgram = `'use strict';
class Vec {
  constructor(x, y) { this.x = x; this.y = y; }
  len() { return Math.sqrt(this.x * this.x + this.y * this.y); }
  add(o) { const x = this.x + o.x; return new Vec(x, this.y + o.y); }
  scale(k) { this.x = this.x * k; this.y *= k; return this; }
}
function smooth(a, b, n) {
  for (let k = 0; k < n; k++)
    for (let i = 1; i < a.length - 1; i++) a[i] = (b[i] + a[i - 1] + a[i + 1]) / 3;
  return a;
}
function pick(o, c) {
  const v = o.p;
  if (o.q) return c ? o.r : v;
  return o.s + (c && o.t ? 1 : 0) + (o.u || o.s);
}
function swap(p, q) { let s = p.v; p = q; return s + p.v; }
function walk(list) {
  let n = 0;
  for (let e = list; e !== null; e = e.next) n += e.v + e.w * e.v;
  return n;
}
// An Emscripten-like module: views and a state object that the module's
// own code sets and its inner functions read (vars of an enclosing plain
// function, which the rule follows).
function module(n) {
  var heap = new Int32Array(n), st = { a: 1, b: 0 };
  function step(i) {
    heap[i & 7] = heap[(i + 1) & 7] + st.a + (st.b | 0);
    var t = st.a;
    st.b = heap[(i + 3) & 7] & 255;
    return heap[i & 7] + t;
  }
  st = { a: 2, b: 3 };
  return step;
}
// A getter that reassigns, through a direct eval in a nested function,
// the name the read after it reads.
function evalSwap(x, y) {
  function swap(s) { eval(s); }
  Object.defineProperty(x, 'p', { get() { swap('x = y'); return 1; }, configurable: true });
  return x.p + x.q;
}
const outs = [], step = module(8);
for (let r = 0; r < 600; r++) {
  const v = new Vec(r, r + 1).add(new Vec(1, 2)).scale(2);
  outs.push(v.len() | 0, v.x + v.y);
  const a = [0, 1, 2, 3, 4, 5, 6], b = [6, 5, 4, 3, 2, 1, 0];
  outs.push(smooth(a, b, 2)[3] | 0);
  outs.push(pick({ p: 1, q: r % 2, r: 3, s: 4, t: {}, u: r % 5 }, r % 3));
  let list = null;
  for (let i = 0; i < 4; i++) list = { v: i, w: i * 2, next: list };
  outs.push(walk(list), swap({ v: r }, { v: 1 }), step(r) & 1023, evalSwap({ q: 1 }, { q: r }));
}
console.log(outs.length, outs.reduce((s, x) => s + x, 0));
`

// TestSupersededReadsTrace: without G at the reads a later use of the same
// object supersedes (testswitch KeepUses, instrument/supersede.go),
// a program writes the same trace as with every G, entry for entry, last
// uses included, once iids are read as the source ranges they map to; and
// it calls fewer hooks.
func TestSupersededReadsTrace(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	var traces [2][]string
	var gs [2]int
	var lastUses int
	for k, keep := range []bool{false, true} {
		prog := filepath.Join(dir, fmt.Sprintf("sup%d.js", k))
		code := instrumentSwitched(t, prog, supProgram, instrument.Options{Goal: js.CommonJS, File: "sup.js"}, testswitch.Switches{KeepUses: keep})
		gs[k] = len(gHook.FindAllIndex(code, -1)) + strings.Count(string(code), ".Gt(")
		got := run(t, node, shim, prog, nil)
		if got.exit != 0 || got.stdout != "4800 1907977\n" {
			t.Fatalf("keep=%v: exit %d, output %q\n%s", keep, got.exit, got.stdout, got.stderr)
		}
		check(t, "sup", got.trace)
		text := dump(t, got.trace)
		traces[k] = bySource(t, text)
		if !keep {
			lastUses = strings.Count(text, "\n[24]") // END_LAST_USE: one per block
		}
	}
	if gs[1]-gs[0] < 15 {
		t.Errorf("G hooks: %d without the superseded reads, %d with them; want at least 15 fewer", gs[0], gs[1])
	}
	if lastUses < 4 {
		t.Errorf("%d last-use blocks; want several (periodic blocks)", lastUses)
	}
	sameBySource(t, traces[0], traces[1], "superseded reads")
}
