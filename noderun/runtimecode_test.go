package noderun_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// TestRunTimeCode: under `memtrace node` (which sets MEMTRACE_BIN), code
// made by new Function and indirect eval runs instrumented as nested
// evalIndirect scripts, and toString shows the original text of functions
// in the program's files (read from disk) and of Function's functions.
func TestRunTimeCode(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	src := "const f = new Function('a', 'return {a}');\n" +
		"console.log(JSON.stringify(f(1)), String(f), String(x => x * 2), String(class Q { m() { return [1] } }));\n" +
		"console.log((0, eval)('[{}].length'));\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.js"), []byte(src), 0o644))
	plain := exec.Command("node", "main.js")
	plain.Dir = dir
	want, err := plain.Output()
	require.NoError(t, err)
	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Memtrace: bin,
		Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, string(want), stdout.String())
	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	r := trace.NewReader(bytes.NewReader(data))
	var names []string
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter {
			names = append(names, e.Name)
		}
	}
	assert.Equal(t, []string{"main.js", "evalIndirect", "evalIndirect"}, names)
}

// TestRunTimeCodeServer: run-time code (indirect eval, new Function, a
// strict direct eval) is instrumented by the long-lived instrumenter, not
// by a process per string, unless MEMTRACE_INSTRUMENTER=spawn; the output
// and the nested scripts are the same either way.
func TestRunTimeCodeServer(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	src := "'use strict';\nlet s = 0;\n" +
		"for (let i = 0; i < 5; i++) s += (0, eval)('[{ v: ' + i + ' }][0].v');\n" +
		"const f = new Function('a', 'return { a };');\n" +
		"const g = () => eval('var local = { w: 7 }; local.w');\n" +
		"console.log(s, f(3).a, g(), typeof local);\n"
	traces := map[string][]byte{}
	logs := map[string]string{}
	for _, mode := range []string{"server", "spawn"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.js": src})
			want, wantCode := plainRun(t, dir, "main.js")
			require.Equal(t, 0, wantCode)
			require.Equal(t, "10 3 7 undefined\n", want)
			spy := spyBin(t, dir, bin, false)
			var out, stderr bytes.Buffer
			code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
				Memtrace: spy, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr, Env: []string{"MEMTRACE_INSTRUMENTER=" + mode}})
			require.NoError(t, err)
			require.Equal(t, 0, code, stderr.String())
			assert.Equal(t, want, out.String())
			data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
			traces[mode] = data
			assert.Equal(t, []string{"eval", "evalIndirect", "evalIndirect", "evalIndirect", "evalIndirect", "evalIndirect",
				"evalIndirect", "main.js"}, scriptNames(t, data))
			logData, err := os.ReadFile(filepath.Join(dir, "log"))
			require.NoError(t, err)
			log := string(logData)
			logs[mode] = log
			if mode == "server" {
				assert.Equal(t, 0, strings.Count(log, "instrument --eval"), log)
				assert.Equal(t, 6, strings.Count(log, `"eval":true,"strict":false`), log)
				assert.Equal(t, 1, strings.Count(log, `"name":"eval","goal":"script","loader":"js","path":"","eval":true,"strict":true`), log)
			} else {
				assert.Equal(t, 6, strings.Count(log, "instrument --eval --name evalIndirect"), log)
				assert.Equal(t, 1, strings.Count(log, "instrument --eval --strict-code --name eval"), log)
			}
		})
	}
	// The server gives each string's site table apart from its code, a
	// spawned process inline: the shim writes the same trace.
	assert.Equal(t, 7, strings.Count(logs["server"], `"sitesApart":true`), logs["server"])
	require.NotNil(t, traces["server"])
	assert.True(t, bytes.Equal(traces["server"], traces["spawn"]), "the traces differ between the server and a process per string")
}

// TestRunTimeCodeImport: import() in code made by eval or a function
// constructor resolves against the script that made the code, as under
// plain node, for relative and bare specifiers and with import attributes
// (the idiom `new Function('m', 'return import(m)')` keeps a dynamic
// import through TypeScript's CommonJS output: prettier's CLI starts so).
// Before, the shim compiled that code, and the engine resolved its
// import() against the shim's file (ERR_MODULE_NOT_FOUND under memtrace
// node; the project root's target ahead of time).
func TestRunTimeCodeImport(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js": `const lib = require('./sub/lib.cjs');
const out = [];
const all = [
  lib.viaFunction('./target.mjs'),
  lib.nested('./target.mjs'),
  lib.direct(),
  lib.bare(),
  lib.json(),
  (0, eval)('import("./sub/target.mjs")'),
  eval('import("./sub/target.mjs")'),
];
Promise.all(all).then((ms) => console.log(ms.map((m) => m.where || m.default.where).join(' ')));
`,
		"sub/lib.cjs": `const dynamicImport = new Function('m', 'return import(m)');
exports.viaFunction = (m) => dynamicImport(m);
exports.nested = (m) => new Function('return new Function("m", "return import(m)")')()(m);
exports.direct = () => eval('import("./target.mjs")');
exports.bare = () => new Function('return import("pkg")')();
exports.json = () => (0, eval)('import("./data.json", { with: { type: "json" } })');
`,
		"sub/target.mjs":                    "export const where = 'sub';\n",
		"target.mjs":                        "export const where = 'root';\n",
		"sub/data.json":                     `{"where": "json"}` + "\n",
		"sub/node_modules/pkg/package.json": `{"name": "pkg", "exports": {"import": "./esm.mjs", "require": "./cjs.js"}}` + "\n",
		"sub/node_modules/pkg/esm.mjs":      "export const where = 'pkg-esm';\n",
		"sub/node_modules/pkg/cjs.js":       "exports.where = 'pkg-cjs';\n",
	})
	const want = "sub sub sub pkg-esm json sub sub\n"
	_, out := plainThenTraced(t, dir, "main.js", want)
	cleanTrace(t, filepath.Join(out, "mem-trace"))
	got, stderr, _ := runAhead(t, dir, "main.js", "MEMTRACE_BIN="+memtracebin.Path(t))
	require.Equal(t, want, got, stderr)
}

// TestFunctionConstructorPatchedNatives: the shim converts a function
// constructor's arguments with the String.prototype.concat it captured at
// start-up (ToString, as the constructor: a symbol throws), not the one the
// program may have replaced (the bundle has no template literals, which
// esbuild would lower to calls of the current concat).
func TestFunctionConstructorPatchedNatives(t *testing.T) {
	runDifferential(t, "patched.js", `const orig = String.prototype.concat;
String.prototype.concat = function () { throw new Error('patched concat'); };
const f = new Function('a', { toString() { return 'b'; }, valueOf() { return 'c'; } }, 'return a * b');
console.log(f(6, 7), f.length);
try { new Function(Symbol('s')); } catch (e) { console.log(e.constructor.name); }
String.prototype.concat = orig;
`)
}
