package noderun_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// stacksProgram prints what a program sees of its stack traces, columns
// left out (instrumented code is longer): err.stack of errors thrown
// through calls and constructors, the structured frames a custom
// Error.prepareStackTrace gets (get-caller-file and depd pick one by its
// index), Error.captureStackTrace with a function to omit, and the
// property itself saved, replaced and restored, a setter that throws (the
// shim makes o.name = v through a store function of its own). Not the
// number of frames:
// the engine captures Error.stackTraceLimit frames (10) counting the
// shim's, so a deep stack shows fewer of the program's.
const stacksProgram = `'use strict';
const noCols = (s) => s.replace(/(:\d+):\d+(?=\)|$| \|)/g, '$1');
function structured(fn) {
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, frames) => frames;
  const o = {};
  Error.captureStackTrace(o, fn);
  const frames = o.stack;
  Error.prepareStackTrace = saved;
  return frames;
}
function callerFile() { return structured()[2].getFunctionName(); }
function depdSite() { return structured(depdSite)[0].getFunctionName(); }
class Widget {
  constructor(n) { if (n < 0) throw new RangeError('negative'); this.n = n; }
  render() { return [1, 2].map((x) => inner(x))[0]; }
}
function inner(x) { return noCols(new Error('at ' + x).stack.split('\n').slice(0, 5).join(' | ')); }
function middle() { return callerFile(); }
function outer() { return middle(); }
console.log(new Widget(1).render());
try { new Widget(-1); } catch (e) { console.log(noCols(e.stack.split('\n').slice(0, 3).join(' | '))); }
console.log(outer(), (function named() { return depdSite(); })());
console.log(structured().slice(0, 6).map((f) => f.getFunctionName() + ':' + f.getLineNumber()).join(','));
const p = Error.prepareStackTrace;
console.log(typeof p, p.name, p.length, p === Error.prepareStackTrace);
Error.prepareStackTrace = (e, frames) => 'custom ' + frames.slice(0, 3).map((f) => f.getFunctionName()).join('/');
function custom() { return new Error('c').stack; }
console.log(custom());
Error.prepareStackTrace = p;
console.log(Error.prepareStackTrace === p, noCols(custom().split('\n')[1]));
const guarded = { set level(v) { throw new TypeError('level ' + v); } };
try { guarded.level = 3; } catch (e) { console.log(noCols(e.stack.split('\n').slice(0, 3).join(' | '))); }
`

// TestStackTraces: the shim's frames are not in the program's stack
// traces (stacks.js): the same stacks, frame for frame, as plain node.
func TestStackTraces(t *testing.T) {
	runDifferential(t, "stacks.js", stacksProgram)
}

// callErrorsProgram calls and constructs what is not a function or not a
// constructor in the forms V8 names from the source (callee.js): the
// messages must be V8's for the program's text, not for the call hook's.
const callErrorsProgram = `'use strict';
const o = { m: 1, a: { b: null }, arrow: () => 1, get g() { return 2; } }; const arr = [1]; let foo; const k = 'm';
const a = 1, b = 2, c = 3; let k2 = 'z', n = 0; function foo2() { return 'w'; }
class C { method() {} }
class P {
  #m = 1; static #s = 2; #f() { return 1; }
  cases() {
    const x = this, y = { p: this };
    return [() => this.#m(), () => x.#m(1, 2), () => P.#s(), () => ({}).#m(), () => (0, this).#m(), () => this.#f(),
      () => new P().#m(), () => y.p.#m(), () => y['p'].#m(a), () => this.#f.call(1)(),
      () => x?.#m(), () => y?.p.#m(1), () => x.#m?.(), () => y.p?.#f()(), () => y.q?.#m(), () => y?.p.#f?.(a)(), () => x?.#f.call(x)(),
      () => this.#m` + "`" + `t` + "`" + `, () => x.#f` + "`" + `t${a}` + "`" + `()];
  }
}
const tg = (s) => s;
const tagged = [
  // Tagged templates go through the call hooks (instrument/expr.go taggedCall).
  () => o.m` + "`" + `x` + "`" + `, () => o[k]` + "`" + `y${a}z${b}` + "`" + `, () => foo` + "`" + `z` + "`" + `, () => (a + b)` + "`" + `t` + "`" + `, () => o.a.b` + "`" + `q${` + "`" + `n${a}` + "`" + `}` + "`" + `,
  () => o['m']` + "`" + `w` + "`" + `, () => tg` + "`" + `v` + "`" + `(), () => o /* c */ .m ` + "`" + `s` + "`" + `, () => (o.m)` + "`" + `p` + "`" + `, () => o[(a, k)]` + "`" + `r` + "`" + `,
  // The strings object is the site's, the same on every evaluation, frozen, with raw.
  () => { const s = new Set(); for (let i = 0; i < 3; i++) s.add(tg` + "`" + `x\\n${i}` + "`" + `); const t = [...s][0];
    throw new Error('sites ' + s.size + ' ' + Object.isFrozen(t) + ' ' + t.raw[0] + ' ' + t.length); }];
const cases = [
  // Private methods go through the call hooks (instrument/expr.go methodCall).
  ...new P().cases(), ...tagged,
  () => o.m(), () => foo(), () => o.a.b(), () => arr[0](), () => o[k](), () => o['m'](), () => o . m (),
  () => new o.m(), () => new o.arrow(), () => new o.arrow, () => new foo(), () => new (o.m)(), () => new C().method.x(),
  () => new new C().method(), () => (0, o.m)(), () => (o.m)(), () => o.zz(1, 2), () => foo()(), () => o.m(1)(2),
  () => arr.at(0)(), () => o.a['b'](), () => o.g(), () => o /* c */ .m(), () => Math.max.call.x(),
  // call's receiver not callable: the engine names the program's callee.
  () => Function.prototype.call.call(1), () => Function.prototype.call.call.call(o), () => Math.max.call.call(null),
  () => Function.prototype.apply.call(o.m, null, []), () => Reflect.apply(o.m, null, []),
  function () { return this.x(); }.bind({}),
  // Computed keys and callees with operators, literals and templates (V8
  // prints operators in parentheses and folds arithmetic on numbers).
  () => o['x' + 1](), () => o[a + b * 2](), () => o[-a](), () => o[typeof a](), () => o[` + "`" + `t${a}${b}` + "`" + `](), () => o[` + "`" + `t` + "`" + `](),
  () => o[a ? b : k](), () => o[k2 = 'q'](), () => o[(a, b)](), () => o[n++](), () => o[--n](), () => o[a !== b](), () => o[a != b](),
  () => o[void 0](), () => o[null](), () => o[1.5](), () => o[1e21](), () => o[0x10](), () => o[1_000](), () => o[1 - -1](), () => o[-(1)](),
  () => o[foo2()](), () => o[[1, a, , [b]]](), () => o[{}](), () => o[{ p: 1, get q() { return 1; } }](), () => o[/r\/[/]/g](),
  () => o[function () {}](), () => o[(x) => x](), () => o[async () => 1](), () => o[class {}](), () => o[new Object()](), () => o[10n](),
  () => (a + b)(), () => (a ? o : k)(), () => ` + "`" + `t` + "`" + `(), () => (() => 1)()(), () => (o || k).q(), () => o[a in o && b](),
  () => o['a\nb\u0041\x42'](), () => o[''](), () => o['1'](), () => o[a - b - c](), () => o[(a - b) - c](), () => o[a + b - c](),
  () => o[a ** b ** c](), () => o[a || b && c](), () => o[!!a](), () => o[+'3'](), () => o['x' + ` + "`" + `y` + "`" + `](), () => o[o.zz?.y](),
  () => o[String(a)](), () => o[(0, o.m)](), () => o[[...arr]](), () => o[{ ...o }](), () => [1, a](), () => ({ a: 1 })(), () => 'str'(),
  // Calls in optional chains go through the hooks (instrument/chain.go).
  () => o.m?.(), () => o?.m(), () => o.a?.b(), () => o?.[k](), () => foo?.(), () => o.arrow?.()(), () => o?.a.b?.(1)(),
  () => new o[k + 1](), () => new (a + b)(), () => o[` + "`" + `${a}x${o?.m}` + "`" + `](), () => o[a, (b, c)](), () => o[k2 += 'x'](), () => o[n ||= 2](),
];
for (const c of cases) {
  try { c(); console.log('no error'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
}
`

// TestCallErrors: calling a non-function (or constructing a
// non-constructor) throws V8's TypeError naming the callee as written.
func TestCallErrors(t *testing.T) {
	runDifferential(t, "callerrors.js", callErrorsProgram)
}

// deepProgram recurses 9,000 calls deep, and 8,000 through a method
// (within node's default stack: about 10,800 plain), and prints the node
// options it sees.
const deepProgram = `'use strict';
function rec(n) { return n === 0 ? 0 : 1 + rec(n - 1); }
const obj = { walk(o, d) { return o.next ? this.walk(o.next, d + 1) : d; } };
let chain = null; for (let i = 0; i < 8000; i++) chain = { next: chain };
console.log(rec(9000), obj.walk(chain, 0), JSON.stringify(process.execArgv));
`

// TestDeepRecursion: a program that recurses as deep as node's default
// stack allows runs under memtrace node too (instrumented code needs about
// four times the stack per call: it threw "Maximum call stack size
// exceeded" at about 2,900 calls), and does not see the --stack-size
// memtrace gives node among its process.execArgv.
func TestDeepRecursion(t *testing.T) {
	runDifferential(t, "deep.js", deepProgram)
}

// errorsProgram makes errors through the call hooks in each form (new,
// a call without new, Reflect.construct, a method of a namespace) and
// prints what a program sees of their stacks: the function and line of
// the top frame (a custom Error.prepareStackTrace), and how many frames
// Error.stackTraceLimit lets through.
const errorsProgram = `'use strict';
const frames = (e) => { const saved = Error.prepareStackTrace; Error.prepareStackTrace = (_, s) => s; const s = e.stack; Error.prepareStackTrace = saved; return s; };
const top = (e) => { const s = frames(e); return s.length + ' ' + s[0].getFunctionName() + ':' + s[0].getLineNumber(); };
const ns = { E: RangeError };
function make(kind) {
  switch (kind) {
    case 0: return new TypeError('t');
    case 1: return Error('e');
    case 2: return Reflect.construct(RangeError, ['r']);
    case 3: return new ns.E('m');
    case 4: return new AggregateError([new Error('inner')], 'a');
    case 5: return new (class Mine extends Error {})('mine');
  }
}
function d3(k) { return make(k); } function d2(k) { return d3(k); } function d1(k) { return d2(k); }
Error.stackTraceLimit = 4;
for (let k = 0; k < 5; k++) console.log(top(d1(k)));
// a program's subclass (its stack captured in the native constructor)
console.log(top(d1(5)));
class Deep extends TypeError { constructor(m) { super(m); this.name = 'Deep'; } }
class Deeper extends Deep {}
function e3() { return new Deeper('x'); } function e2() { return e3(); } function e1() { return e2(); }
console.log(top(e1()), frames(e1()).map((c) => c.getFunctionName()).join());
// an error made where no hook recaptures it (a tag), then a native call's result
const tagged = Error` + "`tag`" + `; const arr = [1].concat([2]);
console.log(tagged instanceof Error, Object.getOwnPropertyNames(arr).join());
// a message whose toString sees the limit, an options object with a cause getter
console.log(new Error({ toString() { return 'limit ' + Error.stackTraceLimit; } }).message, new Error('c', { get cause() { return Error.stackTraceLimit; } }).cause);
// a limit the program made read-only (the shim cannot raise it: its frames count)
Object.defineProperty(Error, 'stackTraceLimit', { writable: false });
console.log(top(d1(0)).replace(/^\d+ /, ''), top(d1(1)).replace(/^\d+ /, ''));
`

// TestErrorStacks: an error that an error constructor makes through a
// call hook has the stack the program's own call would have given it: its
// top frame is the program's (it was the hook's, where Node points the
// source line it prints for an uncaught error or an unhandled rejection:
// the shim's minified line), and the frames Error.stackTraceLimit keeps
// are the program's, also for errors of the program's own subclasses of
// the error constructors (made with the limit raised: the engine captures
// their stacks in the native constructor).
func TestErrorStacks(t *testing.T) {
	runDifferential(t, "errors.js", errorsProgram)
}

// TestUncaughtErrorSource: Node names the source line of an unhandled
// rejection (and of an uncaught error thrown elsewhere than where it was
// made) from the error's top frame, which for an error made through a call
// hook was the shim's: the first line Node prints is the program's file
// and line, as in plain node.
func TestUncaughtErrorSource(t *testing.T) {
	needNode(t)
	for name, prog := range map[string]string{
		"rejected.js": "'use strict';\nconst make = (m) => new RangeError(m);\nsetTimeout(() => { Promise.reject(make('nope')); }, 1);\n",
		"rethrown.js": "'use strict';\nconst e = Error('kept');\nsetTimeout(() => { throw e; }, 1);\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"package.json": "{}\n", name: prog})
			want, got := failingRuns(t, dir, name)
			first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
			require.Equal(t, first(want), first(got))
			require.Contains(t, first(got), filepath.Join(dir, name)+":")
		})
	}
}

// failingRuns runs script in dir with plain node and under memtrace node,
// requires both to fail (memtrace node passing on exit status 1), and
// returns their standard errors.
func failingRuns(t *testing.T, dir, script string) (plainErr, tracedErr string) {
	t.Helper()
	plain := exec.Command("node", script)
	plain.Dir = dir
	var want bytes.Buffer
	plain.Stderr = &want
	require.Error(t, plain.Run())
	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: script, OutDir: filepath.Join(t.TempDir(), "out"),
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 1, code)
	return want.String(), stderr.String()
}

// TestUncaughtShimThrown: an uncaught error the shim throws for the program
// (a call hook's "o.f is not a function", the most common uncaught error)
// is located in the shim's one line of code, which Node printed whole
// above the stack (about 80 KB); the line carries Node's
// node-do-not-add-exception-line mark, and the shim prints the program's
// own line there (fatal.js): what plain node prints, byte for byte.
func TestUncaughtShimThrown(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"notfn.js": "'use strict';\nconst o = {};\no.f();\n",
		"inner.js": "'use strict';\nfunction run(cb) { return cb.call(null); }\nrun({});\n",
	})
	for _, name := range []string{"notfn.js", "inner.js"} {
		want, got := failingRuns(t, dir, name)
		assert.NotContains(t, got, "shim.js", name)
		assert.Equal(t, want, got, name)
	}
}

// TestUncaughtFirstLine: above an uncaught error Node prints the source
// line where it was thrown; an error thrown on the original's first line
// (a one-line script, a minified bundle) was thrown on the prologue's,
// and Node printed the site table and the hooks (the instrumented line,
// longer than the program's whole output). The prologue carries Node's
// node-do-not-add-exception-line mark, and the shim prints the original
// line (fatal.js; TestUncaughtLine for other lines): plain node's output.
// A JSON.parse error's line is the text parsed, as in plain node.
func TestUncaughtFirstLine(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": "{}\n",
		"one.js":       "setTimeout(function t() { const o = null; o.x; }, 1);\n",
		"async.js":     "async function f() { await null; throw new TypeError('bad'); } f();\n",
		"bundle.js":    "'use strict';var a=[1,2,3].map(function(x){return x*2});var b={c:a};b.c.d.e=1\n",
		"json.js":      "var a=[2,4,6];JSON.parse('{'+a.join())\n",
	})
	for _, name := range []string{"one.js", "async.js", "bundle.js", "json.js"} {
		want, got := failingRuns(t, dir, name)
		assert.NotContains(t, got, "__mt", name)
		assert.Equal(t, want, got, name)
	}
}

// deepChildrenProgram forks itself and spawns node on itself; each child
// recurses 9,000 calls deep and reports its node options.
const deepChildrenProgram = `'use strict';
const { fork, spawn } = require('child_process');
function rec(n) { return n === 0 ? 0 : 1 + rec(n - 1); }
const role = process.argv[2];
if (role === 'forked') { process.send(rec(9000) + ' ' + JSON.stringify(process.execArgv)); process.disconnect(); }
else if (role === 'spawned') console.log(rec(9000) + ' ' + JSON.stringify(process.execArgv));
else {
  fork(__filename, ['forked']).on('message', (m) => {
    console.log('fork', m);
    const c = spawn(process.execPath, [__filename, 'spawned'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = ''; c.stdout.on('data', (d) => (out += d)); c.on('exit', () => console.log('spawn', out.trim()));
  });
}
`

// TestDeepRecursionChildren: node children that the program forks or
// spawns (node itself, not through a shell) get the stack size too, and do
// not see it in their process.execArgv.
func TestDeepRecursionChildren(t *testing.T) {
	runDifferential(t, "deepchildren.js", deepChildrenProgram)
}

// TestOwnThreadsUnseen: the threads memtrace starts in the program's
// process (the helper that instruments modules and eval code, the ES
// module hooks thread) queue no process.nextTick of their own, so that
// the program's promise reactions run from Node's native checkpoint after
// the main module, as under plain node (before: their stacks ended in
// process.processTicksAndRejections, which node:test's failure reports
// showed), and its process 'worker' listeners see its own workers only.
func TestOwnThreadsUnseen(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js": `const { Worker } = require('node:worker_threads');
const out = []; // printed at the end: a write to a pipe queues a tick
process.on('worker', () => out.push('worker event'));
const dep = require('./dep.js');
function frames(tag) { out.push(tag + ': ' + new Error().stack.split('\n').slice(2).filter((l) => !l.includes('main.js')).map((l) => l.trim()).join(' | ')); }
Promise.resolve().then(() => frames('reaction'));
(async () => { await null; frames('await'); })();
out.push(eval('dep.n + 1'));
import('./esm.mjs').then((m) => {
  frames('import ' + m.v);
  setTimeout(() => { new Worker('0', { eval: true }).unref(); setTimeout(() => console.log(out.join('\n')), 20); }, 0);
});
`,
		"dep.js":  "exports.n = 41;\n",
		"esm.mjs": "export const v = [1, 2].map((x) => x * 2).join();\n",
	})
	const want = "42\nreaction: \nawait: \nimport 2,4: \nworker event\n"
	plainThenTraced(t, dir, "main.js", want)
	got, _, _ := runAhead(t, dir, "main.js", "MEMTRACE_BIN="+memtracebin.Path(t))
	require.Equal(t, want, got, "instrumented ahead of time, eval code through the shim's helper")
}

// timerFramesProgram prints the frames of setTimeout callbacks, which Node
// calls as timer._onTimeout(): V8 names them Timeout._onTimeout (or
// Timeout.named [as _onTimeout]), also when the stack is formatted after
// the callback has returned. The shim wraps each callback (its trace
// records the timer's hold on the function), and the callback's frame was
// Timeout.<anonymous>.
const timerFramesProgram = `const out = [];
const frame = (e) => e.stack.split('\n')[1].trim().replace(/ \(.*/, '').replace(__dirname, '.');
const later = (f, ...a) => new Promise((res) => setTimeout((...b) => res(f(...b)), 1, ...a));
(async () => {
  out.push(await new Promise((res) => setTimeout(() => res(frame(new Error())), 1)));
  out.push(await new Promise((res) => setTimeout(function () { res(frame(new Error())); }, 1)));
  out.push(await new Promise((res) => setTimeout(function named() { res(frame(new Error())); }, 1)));
  out.push(await new Promise((res) => setTimeout((x, y) => res(frame(new Error()) + x + y), 1, 'a', 'b')));
  const e = await new Promise((res) => setTimeout(() => res(new Error('formatted later')), 1));
  out.push(frame(e));
  const o = { m() { return frame(new Error()); } };
  out.push(await new Promise((res) => setTimeout(function () { res(o.m()); }, 1)));
  out.push(await later((v) => frame(new Error()) + v, '!'));
  console.log(out.join('\n'));
})();
`

// TestTimerCallbackFrames: setTimeout callbacks' frames are named as
// without the shim's wrapper.
func TestTimerCallbackFrames(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"timers.js": timerFramesProgram})
	_, out := plainThenTraced(t, dir, "timers.js", "at Timeout._onTimeout\nat Timeout._onTimeout\nat Timeout.named [as _onTimeout]\nat Timeout._onTimeout"+
		"ab\nat Timeout._onTimeout\nat Object.m\nat ./timers.js:13:37!\n")
	cleanTrace(t, filepath.Join(out, "mem-trace"))
}

// TestNodeTestLocations: node:test takes a test's location from the
// engine's stack (its failure reports print "test at file:line:col"),
// where the caller of test() was the call hook: the preload marks
// node:test's functions, and the shim calls them through a trampoline
// compiled at the program's call (before: location '…/shim.js:7:20799').
// Subtests created through the context (t.test) are not reached.
func TestNodeTestLocations(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.test.js": `const { test, describe, it, before } = require('node:test');
const assert = require('node:assert');
before(() => {});
test('fails', () => { assert.strictEqual(1, 2); });
describe('suite', () => {
  it('fails too', () => { assert.ok(false); });
  it.skip('skipped', () => {});
});
test.todo('todo', () => { throw new Error('todo'); });
`,
		"b.test.mjs": `import { test } from 'node:test';
    test('esm fails', () => { throw new Error('esm'); });
`,
	})
	locations := func(out string) []string {
		var ls []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "location:") {
				ls = append(ls, strings.TrimSpace(l))
			}
		}
		return ls
	}
	for _, name := range []string{"a.test.js", "b.test.mjs"} {
		plain := exec.Command("node", "--test-reporter=tap", name)
		plain.Dir = dir
		want, _ := plain.Output()
		require.NotEmpty(t, locations(string(want)), name)
		var stdout, stderr bytes.Buffer
		_, err := noderun.Run(noderun.Options{Script: name, OutDir: filepath.Join(t.TempDir(), "out"), NodeArgs: []string{"--test-reporter=tap"},
			Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
		require.NoError(t, err)
		assert.Equal(t, locations(string(want)), locations(stdout.String()), name)
	}
}

// limitProgram throws errors the engine makes (a property read of
// undefined, an undeclared name, in a function and in eval code) ten and
// more calls deep, and reads and writes Error.stackTraceLimit in each form
// the instrumenter gives hooks (=, +=, ++, ||= on a member; a subclass's
// constructor reading it; 0; Infinity; a non-number), printing the frames'
// function names and, for the program's frames, their lines.
const limitProgram = `'use strict';
const names = (e) => typeof e.stack !== 'string' ? String(e.stack) : e.stack.split('\n').slice(1)
  .map((l) => l.trim().replace(/^at /, '').replace(/ \(.*/, '').replace(/^.*limit\.js:(\d+):\d+$/, 'L$1')).join(',');
function deep(n, f) { if (n === 0) return f(); return deep(n - 1, f) + 1; }
const fails = [
  function read() { return undefined.x; },
  function undeclared() { return notDeclared + 1; },
  function indirect() { return (0, eval)('null.y'); },
  function direct() { return eval('let q = 1; q()'); },
  function native() { return Reflect.apply(Math.max, undefined, 5); },
];
function all(tag) {
  for (const f of fails) {
    try { deep(12, f); } catch (e) { console.log(tag, Error.stackTraceLimit, e.name, names(e)); }
  }
}
all('default');
Error.stackTraceLimit = 3;
all('three');
Error.stackTraceLimit += 2;
Error.stackTraceLimit++;
all('six');
Error.stackTraceLimit ||= 40;
console.log('keyed', Error['stackTraceLimit'], Error?.stackTraceLimit, Error?.['stackTraceLimit']);
Error['stackTraceLimit'] = 5;
Error['stackTraceLimit']++;
const o = {};
Error.captureStackTrace(o);
console.log('capture', names(o).split(',').length);
class Mine extends RangeError { constructor(m) { super(m); this.seen = Error.stackTraceLimit; } }
try { deep(12, () => { throw new Mine('m'); }); } catch (e) { console.log('mine', e.seen, names(e).split(',').length); }
Error.stackTraceLimit = 0;
all('zero');
Error.stackTraceLimit = Infinity;
try { deep(30, fails[0]); } catch (e) { console.log('infinity', Error.stackTraceLimit, names(e).split(',').length); }
Error.stackTraceLimit = 'none';
all('string');
Error.stackTraceLimit = 10;
console.log(typeof Reflect.get(Error, 'stackTraceLimit'));
// saved without Gl (destructuring, Reflect.get) and restored, as fastify's
// JSON body parser does per request: the limit stays the program's
function viaPattern() { const { stackTraceLimit } = Error; Error.stackTraceLimit = 0; try { JSON.parse('{'); } catch {} finally { Error.stackTraceLimit = stackTraceLimit; } }
function viaReflect() { const l = Reflect.get(Error, 'stackTraceLimit'); Error.stackTraceLimit = 0; Reflect.set(Error, 'stackTraceLimit', l); }
for (let k = 0; k < 4; k++) { viaPattern(); viaReflect(); }
try { deep(30, fails[0]); } catch (e) { console.log('restored', Error.stackTraceLimit, names(e).split(',').length); }
// an accessor of the program's: the shim does not run its setter
let own = 7; const set = [];
Object.defineProperty(Error, 'stackTraceLimit', { get() { return own; }, set(x) { set.push(x); own = x; }, configurable: true });
Error.stackTraceLimit = 4;
try { deep(12, fails[0]); } catch (e) { console.log('accessor', Error.stackTraceLimit, String(e.stack), set.join()); }
`

// TestEngineErrorLimit: errors the engine throws (a property read of
// undefined: the most common uncaught error) show Error.stackTraceLimit
// frames of the program's, as in plain node. The engine captures that
// many frames counting the shim's (a call hook's under each of the
// program's calls), and the filter that leaves them out cannot give back
// the rest: ten calls deep, five of the program's frames showed. The shim
// keeps the real limit raised and the program reads and writes its own
// (hooks Gl and Pl); a raised value the program read some other way and
// writes back restores the limit it stood for (else each save and restore
// raised it again). Under memtrace node and ahead of time (the frames'
// names; lines there are the instrumented code's).
func TestEngineErrorLimit(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"limit.js": limitProgram})
	plain := exec.Command("node", "limit.js")
	plain.Dir = dir
	want, err := plain.Output()
	require.NoError(t, err)
	require.Contains(t, string(want), "default 10 TypeError read,deep,deep,deep,deep,deep,deep,deep,deep,deep\n")
	require.Contains(t, string(want), "three 3 ReferenceError undeclared,deep,deep\n")
	require.Contains(t, string(want), "restored 10 10\n")
	plainThenTraced(t, dir, "limit.js", string(want))
	got, _, _ := runAhead(t, dir, "limit.js", "MEMTRACE_BIN="+memtracebin.Path(t))
	lines := regexp.MustCompile(`L\d+`)
	require.Equal(t, lines.ReplaceAllString(string(want), "L"), lines.ReplaceAllString(got, "L"), "instrumented ahead of time")
}

// cloneProgram copies its frames' methods from their prototype, as
// source-map-support's cloneCallSite does, and calls them.
const cloneProgram = `function clone(frame) {
  const object = {};
  Object.getOwnPropertyNames(Object.getPrototypeOf(frame)).forEach((name) => {
    object[name] = /^(?:is|get)/.test(name) ? function () { return frame[name].call(frame); } : frame[name];
  });
  return object;
}
Error.prepareStackTrace = (e, frames) => frames.slice(0, 3).map((f) => { const o = clone(f); return [o.getFunctionName(), o.getLineNumber(), o.getColumnNumber(), o.isToplevel(), typeof o.getFileName()].join(' '); }).join('\n');
function a() { return new Error('x').stack; }
const o = { m() { return a(); } };
console.log(o.m());
console.log([1].map(function cb() { return a(); })[0]);
`

// TestCallSiteClones: a frame given the original's position (one object of
// a class of the shim's per frame) has its methods on its prototype, as a
// CallSite has, for code that copies them from there (source-map-support).
func TestCallSiteClones(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"clone.js": cloneProgram})
	plainThenTraced(t, dir, "clone.js", "a 9 23 true string\nm 10 26 false string\n 11 15 false string\n"+
		"a 9 23 true string\ncb 12 44 true string\nmap   false object\n")
}
