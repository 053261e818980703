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
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

var mixedTree = map[string]string{
	"main.js": `'use strict';
const a = require('./a.js');
const b = require('./b.js');
const d = require('./d.js');
import('./c.mjs').then((c) => import('./e.mjs').then((e) => {
  console.log(a.f(1).v, b.g(2).v, d.h(3).v, c.k(4).v, e.m(5).v);
}));
`,
	"a.js":  "'use strict';\nexports.f = function f(x) { return { v: x * 10 }; };\n",
	"b.js":  "#!/usr/bin/env node\n/* a licence */\n'use strict';\nexports.g = (x) => ({ v: [x, x].length });\n",
	"d.js":  "exports.h = function (x) { const o = {}; o.v = x + 1; return o; };\n",
	"c.mjs": "export function k(x) { return { v: `c${x}` }; }\n",
	"e.mjs": "export const m = (x) => new Map([['v', x]]).get('v') && { v: x * x };\n",
}

// instrumentAhead instruments dir/name in place with `memtrace instrument`
// (withShim: the runtime shim bundled in front, as for plain node).
func instrumentAhead(t *testing.T, bin, dir, name string, withShim bool) {
	t.Helper()
	args := []string{"instrument", "--name", name}
	if strings.HasSuffix(name, ".js") {
		args = append(args, "--goal", "commonjs")
	}
	if !withShim {
		args = append(args, "--no-shim")
	}
	args = append(args, "-o", filepath.Join(dir, name+".tmp"), filepath.Join(dir, name))
	out, err := exec.Command(bin, args...).CombinedOutput()
	require.NoError(t, err, string(out))
	require.NoError(t, os.Rename(filepath.Join(dir, name+".tmp"), filepath.Join(dir, name)))
}

// spyBin writes a stand-in for memtrace that logs its arguments (and, for
// the instrument-server, its requests) to dir/log and then runs memtrace,
// or fails without running it.
func spyBin(t *testing.T, dir, real string, fail bool) string {
	t.Helper()
	log := filepath.Join(dir, "log")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\n"
	if fail {
		script += "exit 1\n"
	} else {
		script += "if [ \"$1\" = instrument-server ]; then tee -a '" + log + "' | '" + real + "' \"$@\"; exit $?; fi\nexec '" + real + "' \"$@\"\n"
	}
	p := filepath.Join(dir, "memtrace-spy")
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

// newTree writes mixedTree into a new directory and checks what node
// prints for it.
func newTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, mixedTree)
	want, wantCode := plainRun(t, dir, "main.js")
	require.Equal(t, 0, wantCode)
	require.Equal(t, treeOutput, want)
	return dir
}

const treeOutput = "10 2 4 c4 25\n"

// runTree runs mixedTree, some of it instrumented, under memtrace node:
// it prints what node printed for the original, and every script is in
// the trace once.
func runTree(t *testing.T, dir, bin string, env ...string) []byte {
	t.Helper()
	want := treeOutput
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr, Env: env})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, want, out.String())
	assert.Empty(t, stderr.String())
	data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	assert.Equal(t, []string{"a.js", "b.js", "c.mjs", "d.js", "e.mjs", "main.js"}, scriptNames(t, data))
	return data
}

// TestPreInstrumented: a tree whose every module was instrumented ahead of
// time (CommonJS and ES modules, one with the runtime shim bundled and a
// hashbang and comment before it) runs under memtrace node without
// starting the instrumenter at all (MEMTRACE_BIN fails and logs if run),
// and its trace has every script once.
func TestPreInstrumented(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := newTree(t)
	for name := range mixedTree {
		instrumentAhead(t, bin, dir, name, name == "b.js")
	}
	b, err := os.ReadFile(filepath.Join(dir, "b.js"))
	require.NoError(t, err)
	require.Greater(t, bytes.Index(b, []byte("= __mt.S(")), 20000, "b.js has the shim bundled")
	spy := spyBin(t, dir, bin, true)
	runTree(t, dir, spy)
	_, err = os.Stat(filepath.Join(dir, "log"))
	assert.True(t, os.IsNotExist(err), "the instrumenter ran")
}

// TestMixedTree: some modules instrumented ahead of time, the others on
// the fly: only the others reach the instrumenter, through the
// instrument-server (one process) or, with MEMTRACE_INSTRUMENTER=spawn,
// one `memtrace instrument` per CommonJS module.
func TestMixedTree(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	for _, mode := range []string{"server", "spawn"} {
		t.Run(mode, func(t *testing.T) {
			dir := newTree(t)
			instrumentAhead(t, bin, dir, "a.js", false)
			instrumentAhead(t, bin, dir, "b.js", true)
			instrumentAhead(t, bin, dir, "c.mjs", false)
			spy := spyBin(t, dir, bin, false)
			runTree(t, dir, spy, "MEMTRACE_INSTRUMENTER="+mode)
			logData, err := os.ReadFile(filepath.Join(dir, "log"))
			require.NoError(t, err)
			log := string(logData)
			if mode == "server" {
				// The preload's and the loader's server: CommonJS and ESM.
				assert.Equal(t, 2, strings.Count(log, "instrument-server"), log)
				assert.False(t, strings.Contains(log, "instrument --no-shim"), "a module was instrumented by a process of its own")
				for _, name := range []string{"main.js", "d.js", "e.mjs"} {
					assert.Contains(t, log, `"name":"`+name+`"`)
				}
				for _, name := range []string{"a.js", "b.js", "c.mjs"} {
					assert.False(t, strings.Contains(log, `"name":"`+name+`"`), "%s was sent to the instrumenter", name)
				}
			} else {
				assert.Equal(t, 2, strings.Count(log, "instrument --no-shim"), log)
				assert.Contains(t, log, "--name main.js")
				assert.Contains(t, log, "--name d.js")
				assert.Contains(t, log, `"name":"e.mjs"`)
				for _, name := range []string{"a.js", "b.js", "c.mjs"} {
					assert.False(t, strings.Contains(log, "--name "+name+" ") || strings.Contains(log, `"name":"`+name+`"`),
						"%s was sent to the instrumenter", name)
				}
			}
		})
	}
}

// TestWorkerThreads: the program's worker threads run uninstrumented
// modules and modules instrumented ahead of time (CommonJS and ES), print
// as under node, and leave the main thread's trace intact.
func TestWorkerThreads(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js": `'use strict';
const { Worker } = require('worker_threads');
const kept = [];
function run(file) {
  return new Promise((res, rej) => {
    const w = new Worker(__dirname + '/' + file);
    w.on('message', (m) => { kept.push({ m }); console.log(file, m); });
    w.on('error', rej);
    w.on('exit', res);
  });
}
(async () => {
  for (const f of ['w.js', 'w.mjs', 'pw.js', 'pw.mjs']) await run(f);
  console.log('kept', kept.length);
})();
`,
		"w.js":   "const { parentPort } = require('worker_threads');\nconst a = [{ x: 1 }, { x: 2 }];\nparentPort.postMessage(a.length);\n",
		"w.mjs":  "import { parentPort } from 'worker_threads';\nconst a = [{ x: 1 }];\nparentPort.postMessage(a.length);\n",
		"pw.js":  "const { parentPort } = require('worker_threads');\nconst a = [{ x: 1 }, { x: 2 }, { x: 3 }];\nparentPort.postMessage(a.length);\n",
		"pw.mjs": "import { parentPort } from 'worker_threads';\nconst a = new Map([[1, {}]]);\nparentPort.postMessage(a.size + 10);\n",
	})
	want, wantCode := plainRun(t, dir, "main.js")
	require.Equal(t, 0, wantCode)
	require.Equal(t, "w.js 2\nw.mjs 1\npw.js 3\npw.mjs 11\nkept 4\n", want)
	instrumentAhead(t, bin, dir, "pw.js", false)
	instrumentAhead(t, bin, dir, "pw.mjs", false)
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, want, out.String())
	assert.Empty(t, stderr.String())
	data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	assert.Equal(t, []string{"main.js"}, scriptNames(t, data))
}
