package noderun_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// lifetimes records the engine's results with times passed through a
// mapping.
type lifetimes struct {
	lifetime.NopListener
	at    func(int64) int64
	lines []string
}

func (l *lifetimes) Unreachable(u lifetime.Unreachability) {
	l.lines = append(l.lines, fmt.Sprintf("unreachable %d t=%d %v alloc=%v", u.ID, l.at(u.Time), u.Loc, u.AllocSite))
}
func (l *lifetimes) Debug(d lifetime.DebugEvent) {
	l.lines = append(l.lines, fmt.Sprintf("debug t=%d %v %d rc=%d", l.at(d.Time), d.CallSite, d.ID, d.RefCount))
}
func (l *lifetimes) LastUse(id int32, t int64, site lifetime.Loc) {
	l.lines = append(l.lines, fmt.Sprintf("lastuse %d t=%d %v", id, l.at(t), site))
}

// checkCompact: the shim's compact trace is exactly the offline
// compaction of its full trace (the same flushes left out, the same
// last-use blocks in the same places), and the engine finds the same
// lifetimes in both, at renumbered times.
func checkCompact(t *testing.T, name string, full, compact []byte) {
	t.Helper()
	var want bytes.Buffer
	st, err := trace.Compact(bytes.NewReader(full), &want)
	require.NoError(t, err)
	if !bytes.Equal(want.Bytes(), compact) {
		a, b := dumpText(t, want.Bytes()), dumpText(t, compact)
		require.Equal(t, a, b, "%s: the shim's compact trace is not the compaction of its full trace", name)
	}
	at, err := trace.CompactTimeMap(bytes.NewReader(full))
	require.NoError(t, err)
	lf := &lifetimes{at: at}
	require.NoError(t, lifetime.Analyze(bytes.NewReader(full), lifetime.Options{}, lf))
	lc := &lifetimes{at: func(v int64) int64 { return v }}
	require.NoError(t, lifetime.Analyze(bytes.NewReader(compact), lifetime.Options{}, lc))
	require.Equal(t, lf.lines, lc.lines, "%s: lifetimes differ", name)
	rep, err := trace.Check(bytes.NewReader(compact), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%s: %v", name, rep.Findings)
	t.Logf("%s: %d flushes left out, %d declarations held back (%d never written), %d -> %d bytes", name, st.Elided, st.Deferred, st.Unused, len(full), len(compact))
}

func dumpText(t *testing.T, data []byte) string {
	var sb strings.Builder
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		sb.Write(trace.AppendText(nil, e))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// TestCompactMemInsightPrograms: every MemInsight test program, run in both
// modes.
func TestCompactMemInsightPrograms(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	names, err := filepath.Glob(filepath.Join(testcorpus.Dir(t, "meminsight", "programs"), "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	for _, p := range names {
		name := strings.TrimSuffix(filepath.Base(p), ".js")
		t.Run(name, func(t *testing.T) {
			full := runProgram(t, bin, name)
			compact := runProgram(t, bin, name, func(o *noderun.Options) {
				o.Compact = true
				checkSession(t, o, func(sess noderun.Session) { require.True(t, sess.Compact) })
			})
			checkCompact(t, name, full, compact)
		})
	}
}

// compactProgram exercises what MemInsight's ES5 programs do not: block
// bindings re-declared on every iteration with objects and primitives in
// turn (a DECLARE that replaces a binding mid-function), closures per
// iteration, classes, generators, async functions, destructuring, Map and
// Set, exceptions, and more than one last-use block.
const compactProgram = `'use strict';
class Node { constructor(v) { this.v = v; this.next = null; } get twice() { return [this.v, this.v]; } }
const kept = [];
function churn(n) {
  let head = null;
  for (let i = 0; i < n; i++) {
    const v = i % 3 === 0 ? { i } : i;
    const node = new Node(v);
    node.next = head;
    if (i % 5 === 0) head = node;
    if (i % 7 === 0) kept.push(() => node);
  }
  return head;
}
function* gen(o) { for (let i = 0; i < 3; i++) { const x = { i, o }; yield x; } }
async function later(o) { await null; const r = { o }; await r; return r; }
function swap({ a, b }) { return { a: b, b: a }; }
function risky(i) { const t = { i }; if (i % 4 === 0) throw new Error('e' + i); return t; }
// Held declarations released one name at a time: a run of vars (one
// record) written to in part, a property of the global object named as a
// held parameter, one named with an "@" (as the trace names module
// bindings: it releases all), a closure that then needs every name, and a
// run too long to be held as one record.
function perName(a, b, o, shadow) {
  var x, y, z, w;
  y = { a };
  var q = b + 1;
  x = [y, o];
  globalThis.shadow = { q };
  if (a % 2) globalThis['tag@' + (a % 5)] = { b };
  if (a % 3 === 0) { const f = () => z + w; f(); }
  return x;
}
function wide(n) {
  var v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19,
    v20, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30, v31, v32;
  v31 = { n };
  if (n % 2) v5 = [v31];
  return v5 || v31;
}
// Sloppy run-time code with a repeated parameter (one binding, declared once).
const dup = new Function('a', 'a', 'b', 'var t = { a: a }; a = [t, b]; return a;');
const m = new Map(), s = new Set();
let total = 0;
for (let round = 0; round < 30; round++) {
  const h = churn(50);
  for (const x of gen(h)) { m.set(round % 7, x); s.add(x.o); }
  later({ round }).then((r) => { total += r.o.round; });
  const sw = swap({ a: h, b: { round } });
  try { risky(round); } catch (e) { s.add(e); }
  total += sw.a.round + (h ? h.twice.length : 0);
  total += perName(round, round * 2, h, 0).length + (wide(round).n || 0) + dup(1, round, h).length;
}
Promise.resolve().then(() => console.log(total, m.size, s.size, kept.length));
`

// TestCompactModernProgram: the same check on compactProgram.
func TestCompactModernProgram(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prog.js"), []byte(compactProgram), 0o644))
	plain := exec.Command("node", "prog.js")
	plain.Dir = dir
	want, err := plain.Output()
	require.NoError(t, err)
	run := func(compact bool) []byte {
		out := filepath.Join(dir, fmt.Sprintf("out-%v", compact))
		var stdout, stderr bytes.Buffer
		code, err := noderun.Run(noderun.Options{Script: "prog.js", OutDir: out, Compact: compact,
			Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
		require.NoError(t, err)
		require.Equal(t, 0, code, stderr.String())
		require.Equal(t, string(want), stdout.String())
		data, err := os.ReadFile(filepath.Join(out, "mem-trace"))
		require.NoError(t, err)
		return data
	}
	full, compact := run(false), run(true)
	blocks := bytes.Count([]byte(dumpText(t, full)), []byte("[24]"))
	require.Greater(t, blocks, 2, "the program should span several last-use blocks")
	checkCompact(t, "prog.js", full, compact)
}

// TestThisAfterExit: a function that cannot be wrapped in try (a var that
// repeats a function declaration) exits at its return; a finally of the
// program's then still runs in it and calls another method, whose frame
// takes the same slot. Its this.y = {} must name this, not the other
// method's this (the frame's id of this is cleared at the exit).
func TestThisAfterExit(t *testing.T) {
	data, _ := runDifferential(t, "after.js", `function C() { this.a = {}; }
C.prototype.m = function () { var g = 1; try { return 1; } finally { other.n(); this.y = {}; } function g() {} };
var other = { n: function () { this.z = {}; return 1; } };
var c = new C();
console.log(c.m(), Object.keys(c));
`)
	bases := map[string]int32{}
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.PutField {
			bases[e.Name] = e.Base
		}
	}
	require.NotZero(t, bases["a"])
	require.Equal(t, bases["a"], bases["y"], "this.y = {} after the exit names another object: %v", bases)
	require.NotEqual(t, bases["z"], bases["y"])
}
