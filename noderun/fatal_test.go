package noderun_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// uncaughtFiles end in an uncaught exception (or handle one) on lines the
// instrumenter fills with hooks: Node prints the line the exception was
// thrown at above the error, which was the instrumented line (hooks, tens
// of columns wider, the caret under a hook). Each is run with plain node
// and under memtrace node, and the two standard errors must be the same
// byte for byte, exit status too.
var uncaughtFiles = map[string]string{
	// V8 throws, in a function.
	"v8.js": "const o = { a: 1 };\nfunction f(x) { return x.y.z + o.a; }\nf({});\n",
	// A rethrow: the line of the throw statement, not where the error was made.
	"rethrow.js": "function g(o) { const e = new Error('made here'); if (o.bad) { throw e; } return o; }\n" +
		"function h() { try { g({ bad: true }); } catch (e) { throw e; } }\nh();\n",
	// An error without frames (libuv's), thrown from a callback on a line of calls.
	"frameless.js": "const fs = require('fs');\nfs.readFile('/nonexistent/x', (err, d) => { if (err) throw err; console.log(String(d)); });\n",
	// A native throws: the program's frame below it.
	"native.js": "const a = [];\nconst r = a.reduce((x, y) => x + y);\nconsole.log(r);\n",
	// A rejected promise nobody handles.
	"reject.js": "async function f(o) { await null; return o.x.y + String(o); }\nf({});\n",
	// An ES module.
	"esm.mjs": "const o = { a: 1 };\nexport function f(x) { return x.y.z + o.a; }\nf({});\n",
	// Tabs before the caret stay tabs.
	"tabs.js": "function f(o) {\n\tif (o) \tthrow new RangeError('tabbed ' + String(o));\n}\nf(1);\n",
	// Code given to vm under a file name of its own.
	"vm.js": "const vm = require('vm');\n" +
		"vm.runInThisContext('function q(o) { return o.a.b + String(o); }\\nq({});', { filename: 'code.vm.js' });\n",
	// A timer's callback, an exit listener that writes: the line comes after it, as Node's does.
	"timer.js": "process.on('exit', (c) => { console.error('exit listener', c); });\nconst list = [1, 2];\n" +
		"setTimeout(function tick() { list.forEach((x) => { if (x > 1) throw new TypeError('x=' + x); }); }, 0);\n",
	// Handled by a listener: no line at all, and an emit of the program's own.
	"handled.js": "process.on('uncaughtException', (e) => { console.error('handled', e.message); });\n" +
		"function f(o) { return o.x.y + String(o); }\nsetTimeout(() => f({}), 0);\n",
	"emitted.js": "const e = new Error('not thrown');\nconsole.error(process.emit('uncaughtException', e, 'uncaughtException'));\n",
}

func TestUncaughtLine(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, uncaughtFiles)
	for name := range uncaughtFiles {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			plain := exec.Command("node", name)
			plain.Dir = dir
			var want bytes.Buffer
			plain.Stderr = &want
			err := plain.Run()
			wantCode := 0
			if ee, ok := err.(*exec.ExitError); ok {
				wantCode = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			var stdout, stderr bytes.Buffer
			code, err := noderun.Run(noderun.Options{Script: name, OutDir: filepath.Join(t.TempDir(), "out"),
				Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
			require.NoError(t, err)
			require.Equal(t, wantCode, code)
			require.Equal(t, want.String(), stderr.String())
		})
	}
}

// TestUncaughtLineTypeScript: a TypeScript module's line is the .ts
// file's own (plain node cannot run it: the line is pinned).
func TestUncaughtLineTypeScript(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.ts": "interface P { x: number }\n" +
			"function f(p: P): number { if (p.x > 0) throw new Error('ts ' + String(p.x)); return p.x; }\nf({ x: 1 });\n",
	})
	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.ts", OutDir: filepath.Join(t.TempDir(), "out"),
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 1, code)
	require.Contains(t, stderr.String(), filepath.Join(dir, "main.ts")+":2\n"+
		"function f(p: P): number { if (p.x > 0) throw new Error('ts ' + String(p.x)); return p.x; }\n"+
		"                                        ^\n\nError: ts 1\n")
}
