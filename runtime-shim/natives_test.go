package runtimeshim

import (
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/memtracebin"
)

// patchedNativesProgram replaces every method of the common builtins'
// prototypes and namespaces (Array, String, typed arrays, DataView, Map,
// Set, WeakMap, WeakSet, Object, Reflect, JSON, Math, Number, RegExp,
// Promise, Symbol) with a wrapper that counts its calls, then runs code
// that makes the shim grow its tables, encode names, define classes and
// evaluate run-time code, and prints the counts. The typed array, DataView
// and ArrayBuffer constructors are replaced by proxies that count their
// constructions; the recursion 1,000 deep grows the shim's frame tables.
const patchedNativesProgram = `// Counts calls of many builtins; the counts must be the same with and without instrumentation.
const counts = {}; const rapply = Reflect.apply; const defProp = Object.defineProperty; const gopd = Object.getOwnPropertyDescriptor;
function wrap(obj, key, label) {
  const d = gopd(obj, key);
  if (!d || typeof d.value !== 'function') return;
  const f = d.value;
  const w = { [key](...a) { counts[label] = (counts[label] || 0) + 1; return rapply(f, this, a); } }[key];
  defProp(obj, key, { ...d, value: w });
}
const TA = Object.getPrototypeOf(Int8Array.prototype);
const targets = [
  [Array.prototype, 'Array#'], [String.prototype, 'String#'], [TA, 'TypedArray#'], [Map.prototype, 'Map#'], [Set.prototype, 'Set#'],
  [WeakMap.prototype, 'WeakMap#'], [WeakSet.prototype, 'WeakSet#'], [Object, 'Object.'], [Reflect, 'Reflect.'], [JSON, 'JSON.'], [Math, 'Math.'],
  [Object.prototype, 'Object#'], [Number.prototype, 'Number#'], [DataView.prototype, 'DataView#'], [RegExp.prototype, 'RegExp#'], [Promise.prototype, 'Promise#'], [Symbol, 'Symbol.'],
];
const skip = new Set(['constructor', 'toString', 'valueOf', 'toLocaleString']);
for (const [o, label] of targets) for (const k of Object.getOwnPropertyNames(o)) if (!skip.has(k)) wrap(o, k, label + k);
for (const C of ['Int32Array', 'Uint8Array', 'Int8Array', 'DataView', 'ArrayBuffer']) {
  const orig = globalThis[C], rconstruct = Reflect.construct;
  globalThis[C] = new Proxy(orig, { construct(t, a, nt) { counts['new ' + C] = (counts['new ' + C] || 0) + 1; return rconstruct(t, a, nt); } });
}
const saved = counts;
class A { static s = { v: 1 }; #p = 2; x = [1, 2]; m(a, b) { var c, d; c = [a, b]; return c.length + this.#p; } get g() { return 3; } }
class B extends A { constructor() { super(); this.y = new Map([[1, {}]]); } }
function* gen(n) { var i; for (i = 0; i < n; i++) yield { i }; }
async function af(x) { var t; t = await x; return t; }
let total = 0;
function deep(n) { var here; here = [n]; return n === 0 ? 0 : here.length + deep(n - 1); }
total += deep(1000);
for (let k = 0; k < 50; k++) {
  const b = new B();
  total += b.m(k, 'q') + b.g;
  for (const o of gen(3)) total += o.i;
  const s = new Set([b]); total += s.size;
  const w = new WeakMap(); w.set(b, 1);
  const arr = [3, 1, 2].map((v) => ({ v })).sort((p, q) => p.v - q.v);
  total += arr[0].v + Object.keys(b).length + JSON.stringify({ a: [1] }).length;
  const { x, ...rest } = { x: 1, y: 2, z: [3] }; total += x + Object.keys(rest).length;
  total += eval('var ev' + k + ' = {q: ' + k + '}; ev' + k + '.q');
  total += new Function('a', 'return a + 1')(k);
  const ta = new Int32Array(4); ta[1] = k; total += ta[1];
}
af(Promise.resolve({})).then(() => {
  const snapshot = Object.assign({}, saved);
  for (const k in snapshot) if (snapshot[k] === 0) delete snapshot[k];
  console.log(total, JSON.stringify(Object.entries(snapshot).sort()));
});
`

// TestPatchedNatives: the shim uses the natives it captured at start-up,
// never the program's replacements: an instrumented program that counts
// the calls of every builtin method counts the same calls as plain (the
// writer read names with the program's String.prototype.charCodeAt, which,
// instrumented, logged and called itself until the stack overflowed; the
// shim grew its frame tables with the program's TypedArray.prototype.set,
// wrote with its DataView methods, and pushed to its own arrays with its
// Array.prototype.push, and made its views with the global constructors).
func TestPatchedNatives(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	plain := plainRun(t, node, dir, patchedNativesProgram)
	prog := filepath.Join(dir, "patched.js")
	instrumentFile(t, prog, patchedNativesProgram, instrument.Options{Goal: js.Script, File: "patched.js"})
	got := run(t, node, shim, prog, []string{"MEMTRACE_BIN=" + memtracebin.Path(t)})
	if got.exit != 0 || got.stdout != plain {
		t.Fatalf("exit %d\ninstrumented: %s\nplain:        %s\n%s", got.exit, got.stdout, plain, got.stderr)
	}
	check(t, "patched.js", got.trace)
}
