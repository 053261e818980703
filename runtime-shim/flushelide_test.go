package runtimeshim

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// flushProgram has pure statements (numeric code over names that only
// hold primitives) after statements that end with an X, where the
// pending-flush slot is full, and after everything that leaves the slot
// empty: a function's entry, a let without initialiser, a destructuring
// declaration, a branch ending in one, a label a break leaves, a loop's
// back edge or a break, a catch after a callee threw, switch cases,
// iteration scopes, an if whose test has no X, a do-while that runs once
// left by break and continue (also through a finally block, a for-of's
// iterator and an iteration scope); and an object's valueOf called by
// arithmetic, which is not pure.
const flushProgram = `'use strict';
const fns = [];
const vo = { valueOf() { return 3; } };
function num(a, b) {
  a = a | 0; b = b | 0;
  var s = 0, i = 0, t = a + b | 0;
  s = s + t | 0;
  for (i = 0; i < b; i = i + 1 | 0) {
    s = s + i | 0;
    if ((s & 3) == 0) s = s ^ 5; else if (s > 100) s = s - 7 | 0; else { t = t + 1 | 0; }
    t = t * 3 + 1 | 0;
  }
  while (s > 50) { s = s - 9 | 0; t = t ^ s; }
  return s ^ t;
}
function* gen() { try { yield 1; yield 2; yield 3; } finally { fns.push({}); } }
function thrower(n) { if (n & 4) throw new Error('x' + n); return n; }
function entries(o, n) {
  var k = 0;
  o.v = { n: n };
  k = k + 1 | 0;
  let y;
  k = k + 2 | 0;
  var { p } = o;
  k = k + 3 | 0;
  if (n & 1) { let q; } else { k = k + 4 | 0; }
  k = k + 5 | 0;
  L: { k = k + 1 | 0; if (n & 2) { let r; break L; } k = k * 2 | 0; }
  k = k ^ 1;
  do { k = k + 1 | 0; let z; } while ((k & 7) != 0);
  while (1) { k = k + 1 | 0; if ((k & 3) == 0) break; let w; }
  while ((k & 15) != 0) { k = k + 1 | 0; let w2; }
  try { k = k + thrower(n) | 0; k = k + 1 | 0; } catch (e) { k = k + 6 | 0; }
  switch (n & 3) { case 0: k = k + 1 | 0; case 1: k = k + 2 | 0; break; default: k = k - 1 | 0; }
  k = k + 7 | 0;
  for (let j = 0; j < 2; j++) { k = k + j | 0; fns.push(() => j); }
  k = (k & 1) ? k + 1 | 0 : k - 1 | 0;
  for (;;) { if (n & 8) { let w3; break; } k = k + 1 | 0; break; }
  k = k + 2 | 0;
  while ((k & 3) != 0) { k = k + 1 | 0; if (n & 16) { let w4; break; } }
  k = k + 1 | 0;
  do { k = k + 3 | 0; } while ((k & 7) != 1);
  k = k + 1 | 0;
  do { k = k + 1 | 0; if ((k & 3) == 0) break; let z2; } while (true);
  k = k + 1 | 0;
  for (let m = 0; m < (n & 3); m++) { k = k + m | 0; fns.push(() => m); }
  do { if (n & 1) { let e1; break; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  do { if (n & 8) { let e4; continue; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  L2: do { do { if (n & 2) { let e2; continue L2; } if (n & 4) break L2; k = k + 1 | 0; } while (0); k = k + 2 | 0; } while (0);
  k = k ^ 3;
  do { try { k = k + 1 | 0; if (n & 1) break; k = k + 1 | 0; } finally { o.f = {}; let e5; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  L4: do { for (const x of gen()) { k = k + x | 0; if (x == 2 && (n & 1)) break L4; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  do { switch (n & 3) { case 1: k = k + 1 | 0; let e3; break; default: k = k + 2 | 0; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  L3: do { for (let q2 = 0; q2 < 3; q2++) { k = k + 1 | 0; fns.push(() => q2); if (q2 == (n & 1)) break L3; } k = k + 1 | 0; } while (0);
  k = k + 1 | 0;
  k = k + 2 | 0;
  k = k + vo | 0;
  k = k ^ 2;
  let v;
  if (p) { k = k + 1 | 0; }
  k = k + 3 | 0;
  return k + (y === undefined ? 1 : 0) + (p ? 1 : 0);
}
let total = 0;
for (let r = 0; r < 300; r++) {
  total = (total + num(r, r & 15) + entries({ p: r & 1 ? {} : 0 }, r)) | 0;
  if (fns.length > 100) fns.length = 0;
}
console.log(total);
`

// TestFlushesElided: without X at the statement ends reached with the
// pending-flush slot certainly full (instrument/flushelide.go), a
// program writes the same trace as with every X, entry for entry, last
// uses included, once iids are read as the source ranges they map to;
// and it has fewer X.
func TestFlushesElided(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	xHook := regexp.MustCompile(`\.X\(`)
	var traces [2][]string
	var xs [2]int
	var out string
	for k, keep := range []bool{false, true} {
		prog := filepath.Join(dir, fmt.Sprintf("flush%d.js", k))
		code := instrumentSwitched(t, prog, flushProgram, instrument.Options{Goal: js.CommonJS, File: "flush.js"}, testswitch.Switches{KeepFlushes: keep})
		xs[k] = len(xHook.FindAllIndex(code, -1))
		got := run(t, node, shim, prog, nil)
		if got.exit != 0 {
			t.Fatalf("keep=%v: exit %d\n%s", keep, got.exit, got.stderr)
		}
		if k == 0 {
			out = got.stdout
		} else if got.stdout != out {
			t.Fatalf("output %q without the elided X, %q with them", out, got.stdout)
		}
		check(t, "flush", got.trace)
		traces[k] = bySource(t, dump(t, got.trace))
	}
	if xs[1]-xs[0] < 12 {
		t.Errorf("X: %d with the rule, %d without; want at least 12 fewer", xs[0], xs[1])
	}
	sameBySource(t, traces[0], traces[1], "elided X")
}
