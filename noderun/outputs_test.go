package noderun_test

import (
	"bytes"
	"encoding/json"
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

// outputPrograms are the programs of TestLifetimeOutputs besides the
// ground-truth programs and the demo's: each prints the same under plain
// node and memtrace node (runDifferential), whatever the timers' order.
var outputPrograms = map[string]string{
	// A promise settled by a timer after the script ended, whose
	// reaction then runs: the engine reclaims the promise when the timer
	// callback returns and the reaction's writes re-add it (issue 53).
	"promise-timer.js": `function later(v) { return new Promise((resolve) => setTimeout(() => resolve({ v }), 1)); }
later(1).then((x) => console.log(x.v));
`,
	"promises.js": `'use strict';
const out = [];
function later(v, ms) { return new Promise((resolve) => setTimeout(() => resolve({ v }), ms)); }
const p = Promise.resolve({ a: 1 }).then((o) => ({ b: o.a })).catch((e) => ({ e })).finally(() => ({ f: 1 }));
const r = Promise.reject(new Error('x')).catch((e) => ({ m: e.message })).then((o) => o.m);
new Promise((res, rej) => rej({ z: 1 })).then(null, (e) => e.z).then((v) => out.push({ v }));
const settled = Promise.resolve({ early: 1 });
setTimeout(() => settled.then((v) => out.push(v)), 2);
let q = Promise.resolve(0);
for (let i = 0; i < 10; i++) q = q.then((n) => { out.push({ n }); return n + 1; });
async function f(i) { const o = { i }; await null; await later(i, i % 3); return o; }
async function g() {
  try { await Promise.reject({ bad: 1 }); } catch (e) { return { caught: e }; } finally { out.push({ fin: 1 }); }
}
async function main() {
  const rs = await Promise.all([f(1), f(2), p, r, later(3, 1), g(), q]);
  const s = await Promise.allSettled([Promise.reject({}), later(4, 2)]);
  const a = await Promise.any([later(5, 1), Promise.reject({})]);
  const w = await Promise.race([later(6, 1), later(7, 5)]);
  return [rs.length, s.length, a.v, w.v];
}
main().then((v) => { out.push(v); });
process.on('exit', () => console.log(out.length));
`,
	"timers.js": `'use strict';
let n = 0;
const keep = [];
const h = setInterval(() => { keep.push({ n: n++ }); if (n === 3) clearInterval(h); }, 1);
const t = setTimeout(() => { keep.push({ never: true }); }, 50);
clearTimeout(t);
setTimeout((a, b) => { keep.push({ a, b }); }, 10, { x: 1 }, { y: 2 });
setImmediate(() => keep.push({ imm: 1 }));
process.nextTick(() => keep.push({ tick: 1 }));
queueMicrotask(() => keep.push({ micro: 1 }));
const ih = setInterval(() => { const o = { tmp: n }; if (o.tmp >= 0) clearInterval(ih); }, 2);
function poll(k) { if (k > 0) setTimeout(() => poll(k - 1), 0); else keep.push({ polled: k }); }
poll(4);
const dropped = setTimeout(() => {}, 1000);
clearTimeout(dropped);
process.on('exit', () => console.log(keep.length));
`,
	"classes.js": `'use strict';
class A {
  x = { a: 1 };
  #p = { p: 1 };
  static reg = [];
  static #sp = { sp: 1 };
  static { A.reg.push({ s: 1 }); }
  constructor(v) { this.v = v; A.reg.push(this.#p); }
  get p() { return this.#p; }
  set p(v) { this.#p = v; }
  #m() { return { m: 1 }; }
  call() { return this.#m(); }
  static make() { return new A({}); }
  static get sp() { return A.#sp; }
}
class B extends A {
  y = { b: 1 };
  constructor() { super({ sup: 1 }); this.z = { z: 1 }; }
  get q() { return super.p; }
  call() { return [super.call(), { own: 1 }]; }
}
class C extends B {}
const objs = [];
for (let i = 0; i < 5; i++) {
  const b = new B();
  b.p = { np: i };
  objs.push(b.call(), b.q, A.make());
  new C();
}
const E = class { #h = {}; static s = {}; has(o) { return #h in o; } };
const e = new E();
class Err extends Error { constructor(m) { super(m); this.extra = { e: 1 }; } }
try { throw new Err('boom'); } catch (x) { objs.push(x.extra); }
function Old() { this.o = {}; }
Old.prototype.m = function () { return { r: this.o }; };
objs.push(new Old().m(), Reflect.construct(B, []), A.sp);
console.log(objs.length, A.reg.length, e.has(e));
`,
	"generators.js": `'use strict';
function* g(n) { const o = { n }; for (let i = 0; i < n; i++) { const x = yield { i }; o.x = x; } return o; }
const it = g(3);
it.next(); it.next({ a: 1 }); it.next({ b: 2 }); it.next();
function* d() { yield* g(2); yield { d: 1 }; }
const all = [...d()];
const k = g(5); k.next(); k.return({ r: 1 });
const t = g(5); t.next();
try { t.throw(new Error('e')); } catch (e) { all.push({ e }); }
const obj = { *[Symbol.iterator]() { yield { s: 1 }; yield { s: 2 }; } };
for (const v of obj) all.push(v);
class Tree { constructor() { this.kids = [{ k: 1 }, { k: 2 }]; } *walk() { for (const c of this.kids) yield c; } }
for (const c of new Tree().walk()) all.push(c);
const lazy = (function* () { let i = 0; while (true) yield { i: i++ }; })();
for (const v of lazy) { if (v.i > 3) break; }
async function* ag() { for (let i = 0; i < 3; i++) { await null; yield { i }; } }
async function sleep(ms) { await new Promise((res) => setTimeout(res, ms)); return { ms }; }
(async () => {
  const out = [];
  for await (const v of ag()) out.push(v);
  out.push(await sleep(1));
  console.log(all.length, out.length);
})();
`,
	"misc.js": `'use strict';
const { EventEmitter } = require('events');
const em = new EventEmitter();
const got = [];
em.on('x', (o) => got.push({ o }));
em.once('y', () => got.push({ y: 1 }));
for (let i = 0; i < 3; i++) em.emit('x', { i });
em.emit('y');
const m = new Map(), s = new Set(), wm = new WeakMap();
for (let i = 0; i < 5; i++) { const k = { k: i }; m.set(k, { v: i }); s.add(k); wm.set(k, { w: i }); }
m.clear(); s.clear();
const { a, ...rest } = { a: {}, b: {}, c: {} };
got.push(a, rest);
const fib = (n) => (n < 2 ? { n } : { n, l: fib(n - 1), r: fib(n - 2) });
got.push(fib(6));
function memo(fn) { const cache = new Map(); return (x) => { if (!cache.has(x)) cache.set(x, fn(x)); return cache.get(x); }; }
const sq = memo((x) => ({ sq: x * x }));
for (let i = 0; i < 6; i++) got.push(sq(i % 3));
function make() { return { f() { return { made: 1 }; } }; }
got.push(make().f());
try { null.x; } catch (e) { got.push({ e }); } finally { got.push({ f: 1 }); }
const bound = function () { return { b: this }; }.bind({});
got.push(bound());
setTimeout(() => { got.length = 0; console.log('done'); }, 3);
`,
}

// TestLifetimeOutputs (issue 53): on the traces of programs with promises,
// timers, classes, generators and async functions, the ground-truth
// programs and the demo's, every output of memtrace lifetime (each
// --format, under both engine models, and the side files of --out) is
// produced: a trace that trace check passes must not make an output fail.
func TestLifetimeOutputs(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	for name, prog := range outputPrograms {
		t.Run(strings.TrimSuffix(name, ".js"), func(t *testing.T) {
			data, _ := runDifferential(t, name, prog)
			path := filepath.Join(t.TempDir(), "mem-trace")
			require.NoError(t, os.WriteFile(path, data, 0o644))
			checkLifetimeOutputs(t, bin, path)
		})
	}

	progs, err := filepath.Glob(filepath.Join(testcorpus.Root(), "testdata", "groundtruth", "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, progs)
	for _, p := range progs {
		name := strings.TrimSuffix(filepath.Base(p), ".js")
		t.Run("groundtruth/"+name, func(t *testing.T) {
			dir := t.TempDir()
			gtWriteProgram(t, p, dir)
			// The ground-truth programs force collections (gc()).
			var stdout, stderr bytes.Buffer
			code, err := noderun.Run(noderun.Options{
				Script: name + ".js", NodeArgs: []string{"--expose-gc"}, OutDir: filepath.Join(dir, "out"),
				Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr,
			})
			require.NoError(t, err)
			require.Equal(t, 0, code, stderr.String())
			checkLifetimeOutputs(t, bin, filepath.Join(dir, "out", "mem-trace"))
		})
	}

	// The demo's program, run by memtrace demo itself (which reads its
	// trace with the JSON summary), with its bug and fixed.
	for _, fixed := range []bool{false, true} {
		name := "demo"
		if fixed {
			name = "demo-fixed"
		}
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "demo")
			args := []string{"demo", "--out", out}
			if fixed {
				args = append(args, "--fixed")
			}
			b, err := exec.Command(bin, args...).CombinedOutput()
			require.NoError(t, err, "%s", b)
			checkLifetimeOutputs(t, bin, filepath.Join(out, "mem-trace"))
		})
	}
}

// checkLifetimeOutputs requires that the trace at path passes trace check
// and that memtrace lifetime writes each of its formats, under both engine
// models, and the side files of --out DIR.
func checkLifetimeOutputs(t *testing.T, bin, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "trace check: %v", rep.Findings)
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		require.NoError(t, cmd.Run(), "memtrace %s: %s", strings.Join(args, " "), stderr.String())
		return stdout.Bytes()
	}
	run("trace", "check", path)

	for _, model := range [][]string{nil, {"--meminsight-returns"}} {
		lt := append([]string{"lifetime"}, model...)
		rc := run(append(lt, "--format", "meminsight", path)...)
		require.Contains(t, string(rc), "Id: ", "memtrace lifetime %v: no row", model)

		st := string(run(append(lt, "--format", "meminsight-staleness", path)...))
		require.True(t, strings.HasPrefix(st, "[") || strings.Contains(st, "\n["), "memtrace lifetime %v: no staleness record", model)
		require.Contains(t, st, "\nlast use\n[", model)
		require.Contains(t, st, "\nunreachable\n[", model)

		var sum lifetime.Summary
		js := run(append(lt, "--format", "json", path)...)
		require.NoError(t, json.Unmarshal(js, &sum), "%s", js)
		require.NotEmpty(t, sum.Sites)
		require.Positive(t, sum.Totals.Allocated)

		dir := filepath.Join(t.TempDir(), "side")
		js = run(append(lt, "--format", "json", "--out", dir, path)...)
		var sum2 lifetime.Summary
		require.NoError(t, json.Unmarshal(js, &sum2), "%s", js)
		require.Equal(t, sum, sum2, "--out changes the summary")
		for _, f := range []struct {
			name string
			rec  int
		}{
			{lifetime.StalenessTraceFile, 0}, {lifetime.LastUseTraceFile, 20},
			{lifetime.UnreachableTraceFile, 20}, {lifetime.UpdIIDTraceFile, 12}, {lifetime.SiteStatsFile, 0},
		} {
			b, err := os.ReadFile(filepath.Join(dir, f.name))
			require.NoError(t, err, "side file %s", f.name)
			if f.rec > 0 {
				require.Zero(t, len(b)%f.rec, "%s: not whole records", f.name)
			}
			if f.name != lifetime.UpdIIDTraceFile { // no UPDATE_IID without new
				require.NotEmpty(t, b, "side file %s is empty", f.name)
			}
		}
		var stats map[string]any
		b, err := os.ReadFile(filepath.Join(dir, lifetime.SiteStatsFile))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &stats), "%s", b)
	}
}
