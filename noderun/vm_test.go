package noderun_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/trace"
)

// vmProgram uses Node's vm module as test runners and REPLs do: scripts
// in this realm and in other contexts (completion values, top-level
// declarations that later scripts see, an exception that leaves a
// script), a Script run twice, and a module loader that compiles each
// module's body with compileFunction in a context, as Jest does.
const vmProgram = `'use strict';
const vm = require('vm');
const out = [];
out.push(vm.runInThisContext('var a1 = {k: 1}; function f1(x) { return {x, k: a1.k}; } f1(2).x + a1.k', { filename: __dirname + '/one.js' }));
vm.runInThisContext('function* gen1() { yield 1; } async function af1() { return 2; } let lex1 = {v: 3}; class K1 { m() { return lex1.v; } }', 'two.js');
out.push(typeof gen1, typeof af1, vm.runInThisContext('[...gen1()].length + new K1().m() + lex1.v'));
try { vm.runInThisContext('let lex1 = 1;'); } catch (e) { out.push(e.name); }
try { vm.runInThisContext('class Thrower {} throw new RangeError("r" + 1)', 'three.js'); } catch (e) { out.push(e.name, e.message); }
out.push(vm.runInThisContext('typeof Thrower'));
try { new vm.Script('var = ;', { filename: 'bad.js' }); } catch (e) { out.push(e.name, e.message, e.stack.split('\n').slice(0, 3)); }
try { vm.compileFunction('return )', [], { filename: 'badfn.js' }); } catch (e) { out.push(e.name, e.message, e.stack.split('\n').slice(0, 3)); }
const s = new vm.Script('(function (n) { const a = []; for (let i = 0; i < n; i++) a.push({i}); return a.length; })', { filename: 'four.js' });
out.push(s.runInThisContext()(5), s.runInThisContext()(2), s instanceof vm.Script, vm.Script.name, vm.Script.length);
const ctx = vm.createContext({ log: (x) => out.push(x) });
vm.runInContext('var q = {z: 3}; log(q.z); function* g() { yield 1; yield 2; } log([...g()].length); let L = [1, 2].concat([3]); class C2 { get n() { return L.length; } }', ctx, { filename: 'five.js' });
out.push(vm.runInContext('new C2().n + typeof g', ctx), Object.keys(ctx).join());
const s2 = new vm.Script('L.push({}); L.length');
out.push(s2.runInContext(ctx), s2.runInNewContext({ L: [9] }), vm.runInNewContext('x * 2', { x: 21 }, 'six.js'));
const modules = {
  'm1.js': 'const m2 = require("m2.js");\nexports.total = () => m2.items.map(i => i.v).reduce((a, b) => a + b, 0);',
  'm2.js': 'exports.items = [{v: 1}, {v: 2}, {v: 3}];\nmodule.exports.make = function make() {\n  return new TypeError("from m2");\n};',
};
const cache = {};
function req(name) {
  if (cache[name]) return cache[name].exports;
  const module = cache[name] = { exports: {} };
  const fn = vm.compileFunction(modules[name], ['module', 'exports', 'require'], { filename: __dirname + '/' + name, parsingContext: ctx });
  fn.call(module.exports, module, module.exports, req);
  return module.exports;
}
out.push(req('m1.js').total(), String(vm.compileFunction('return a + 1', ['a'])));
const err = req('m2.js').make();
out.push(err instanceof TypeError, err instanceof vm.runInContext('TypeError', ctx), err.stack.split('\n').slice(0, 3).map(l => l.replace(/\(.*[\\/]/, '(')));
vm.runInContext('Error.prepareStackTrace = (e, s) => s.map(c => (c.getFileName() || "?").replace(/.*[\\/]/, "") + ":" + c.getLineNumber()).join(" ")', ctx);
out.push(vm.runInContext('function t3() { return new Error("e3").stack; }\nfunction t4() { return t3(); }\nt4()', ctx, { filename: 'seven.js' }));
out.push(vm.runInContext('typeof Error.prepareStackTrace', ctx), String(vm.runInThisContext('(function named(a) { return a * 2; })')), vm.runInContext('String(g)', ctx));
console.log(JSON.stringify(out, null, 1));
`

// TestVMModule: code given to Node's vm module runs instrumented (its
// scripts are in the trace, named by their filename option) and behaves as
// in plain node, under memtrace node and instrumented ahead of time (with
// MEMTRACE_BIN): completion values, top-level declarations of generators,
// async functions, let and class that later scripts see, stack traces
// without the shim's frames in another context, at the original's
// positions, function text, and a trace that keeps every rule (an
// exception leaving a script closes it). With MEMTRACE_VM=0 the vm module
// is left alone: its code runs uninstrumented.
func TestVMModule(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.js": vmProgram})
	want, code := plainRun(t, dir, "main.js")
	require.Equal(t, 0, code)
	for _, w := range []string{`"function",`, `"SyntaxError"`, `"bad.js:1"`, `"var = ;"`, `"Unexpected token ')'"`, `"RangeError",`, `"log,g,q"`, `"seven.js:1 seven.js:2 seven.js:3 node:vm:`,
		`"function named(a) { return a * 2; }"`, `"function (a) {\nreturn a + 1\n}"`, `"function* g() { yield 1; yield 2; }"`, `"    at Object.make (m2.js:3:10)"`} {
		require.Contains(t, want, w)
	}
	// four.js runs twice: a script entered each time.
	wantScripts := []string{"five.js", "four.js", "four.js", "m1.js", "m2.js", "main.js", "one.js", "seven.js", "six.js", "three.js", "two.js"}
	check := func(t *testing.T, path string) {
		data := cleanTrace(t, path)
		var named []string
		for _, n := range scriptNames(t, data) {
			if !strings.HasPrefix(n, "evalmachine") {
				named = append(named, n)
			}
		}
		assert.Equal(t, wantScripts, named)
		enters, exits := scriptBalance(data)
		assert.Equal(t, enters, exits, "every script is left")
	}

	t.Run("node", func(t *testing.T) {
		got, _, out := memtraceNode(t, dir, "main.js", nil)
		require.Equal(t, want, got)
		check(t, filepath.Join(out, "mem-trace"))
	})

	t.Run("ahead", func(t *testing.T) {
		got, _, tr := runAhead(t, dir, "main.js", "MEMTRACE_BIN="+memtracebin.Path(t))
		// The same but main.js's columns: files instrumented ahead of time
		// have no position maps under plain node (their vm code has).
		cols := regexp.MustCompile(`main\.js:(\d+):\d+`)
		require.Equal(t, cols.ReplaceAllString(want, "main.js:$1"), cols.ReplaceAllString(got, "main.js:$1"))
		check(t, tr)
	})

	t.Run("off", func(t *testing.T) {
		got, _, out := memtraceNode(t, dir, "main.js", []string{"MEMTRACE_VM=0"})
		// The same but the frames the context's own prepareStackTrace is
		// given: no context is got ready, so the shim's frames are there.
		custom := regexp.MustCompile(`(?m)^ "seven.js:1 .*\n`)
		require.Equal(t, custom.ReplaceAllString(want, ""), custom.ReplaceAllString(got, ""))
		assert.Equal(t, []string{"main.js"}, scriptNames(t, checkTrace(t, filepath.Join(out, "mem-trace"))))
	})
}

// scriptBalance counts a trace's SCRIPT_ENTER and SCRIPT_EXIT entries.
func scriptBalance(data []byte) (enters, exits int) {
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if err != nil {
			return
		}
		switch e.Kind {
		case trace.ScriptEnter:
			enters++
		case trace.ScriptExit:
			exits++
		}
	}
}

// TestEvalTopLevelDeclarations: generator and async function declarations
// at the top level of eval code bind in the eval's variable scope, as in
// plain node (a try statement around the code made them block-scoped, and
// they were gone when the eval returned); such code that throws still
// leaves its script.
func TestEvalTopLevelDeclarations(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.js": `(0, eval)('function* gg() {} async function aa() {} class KK {} let LL = 1;');
console.log(typeof gg, typeof aa, typeof KK, typeof LL);
function f() { eval('function* g2() { yield 5; } async function a2() {}'); return [typeof g2, typeof a2, [...g2()][0]]; }
console.log(f());
try { (0, eval)('function* g3() { yield {}; } throw new Error("x")'); } catch (e) { console.log(e.message, typeof g3); }
function k() { 'use strict'; return eval('function* g4() { yield 1; } [...g4()].length'); }
console.log(k(), typeof g4);
console.log((0, eval)('1; async function* ag() {} var zz;'), typeof ag);
`})
	_, out := plainThenTraced(t, dir, "main.js", "function function undefined undefined\n[ 'function', 'function', 5 ]\nx function\n1 undefined\n1 function\n")
	data := checkTrace(t, filepath.Join(out, "mem-trace"))
	enters, exits := scriptBalance(data)
	assert.Equal(t, 6, enters)
	assert.Equal(t, enters, exits, "every script is left")
}

// TestVMContextsLeftAlone: where no code is instrumented (a file
// instrumented ahead of time, run by plain node without MEMTRACE_BIN, whose
// vm code runs as it is), the shim leaves the program's contexts as they
// are: no __mt on their global objects, their Error.prepareStackTrace
// untouched.
func TestVMContextsLeftAlone(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.js": `const vm = require('vm');
const sandbox = { n: 2 };
console.log(vm.runInNewContext('typeof __mt + " " + typeof Error.prepareStackTrace + " " + Object.getOwnPropertyNames(Error).includes("prepareStackTrace") + " " + n * 21', sandbox), Object.getOwnPropertyNames(sandbox).join());
const ctx = vm.createContext({});
console.log(new vm.Script('typeof __mt').runInContext(ctx), vm.compileFunction('return typeof __mt', [], { parsingContext: ctx })());
`})
	want, code := plainRun(t, dir, "main.js")
	require.Equal(t, 0, code)
	require.Equal(t, "undefined undefined false 42 n\nundefined undefined\n", want)
	got, _, _ := runAhead(t, dir, "main.js")
	require.Equal(t, want, got)
}

// TestVMSourceTextModule: a vm.SourceTextModule's text (node
// --experimental-vm-modules: Jest's ES module mode) runs instrumented as an
// ES module named by its identifier, in its context, with its stack frames
// at the original's positions, as under plain node.
func TestVMSourceTextModule(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.mjs": `import vm from 'node:vm';
const ctx = vm.createContext({ out: [] });
const dep = new vm.SourceTextModule('export const items = [{ v: 1 }, { v: 2 }];\nexport function sum(a) { return a.reduce((s, x) => s + x.v, 0); }', { identifier: 'dep.mjs', context: ctx });
const main = new vm.SourceTextModule('import { items, sum } from "dep";\nout.push(sum(items));\nexport function* gen() { yield new Error("in module").stack.split("\\n")[1]; }\nout.push([...gen()][0]);', { identifier: 'main-mod.mjs', context: ctx });
await main.link(async () => dep);
await main.evaluate();
console.log(ctx.out.join('\n'), main.namespace.gen.name);
`})
	_, out := plainThenTraced(t, dir, "main.mjs", "3\n    at gen (main-mod.mjs:3:32) gen\n", "--experimental-vm-modules", "--no-warnings")
	data := checkTrace(t, filepath.Join(out, "mem-trace"))
	assert.Equal(t, []string{"dep.mjs", "main-mod.mjs", "main.mjs"}, scriptNames(t, data))
}

// TestOtherLoaderHooks: a program's own ES module loader hooks (registered
// by an --import module after memtrace's, as tsx registers its own) are
// imported by the hooks thread through memtrace's hooks, instrumented, and
// run there: the thread gets a shim writing nowhere before it instruments
// its first module (before, the hooks module threw "__mt is not defined").
func TestOtherLoaderHooks(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"register.mjs": "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n",
		"hooks.mjs": `const seen = new Map();
export async function load(url, context, nextLoad) {
  if (url.endsWith('.txt')) {
    seen.set(url, (seen.get(url) || 0) + 1);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL(url), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify({ text: text.trim(), loads: seen.get(url) }) + ';', shortCircuit: true };
  }
  return nextLoad(url, context);
}
`,
		"main.mjs": "import data from './data.txt';\nconsole.log(data.text, data.loads, [1, 2].map((x) => x * 2).join());\n",
		"data.txt": "hello from a loader\n",
	})
	_, out := plainThenTraced(t, dir, "main.mjs", "hello from a loader 1 2,4\n", "--import", "./register.mjs")
	data := checkTrace(t, filepath.Join(out, "mem-trace"))
	assert.Contains(t, scriptNames(t, data), "main.mjs")
}
