package noderun_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// How a module was instrumented ahead of time.
const (
	bare    = iota // memtrace instrument --no-shim
	bundled        // memtrace instrument: the runtime shim in front
	prelude        // bare, plus a project-style prelude that loads .memtrace-shim.cjs
)

// instrumentAhead instruments dir/name in place with `memtrace instrument`.
// The prelude form imitates `memtrace instrument DIR`: a statement in
// front of the prologue, on its line, that loads the shim from
// dir/.memtrace-shim.cjs (CommonJS: only when globalThis.__mt is missing).
func instrumentAhead(t *testing.T, bin, dir, name string, how int) {
	t.Helper()
	args := []string{"instrument", "--name", name}
	if strings.HasSuffix(name, ".js") {
		args = append(args, "--goal", "commonjs")
	}
	if how != bundled {
		args = append(args, "--no-shim")
	}
	tmp := filepath.Join(dir, name+".tmp")
	args = append(args, "-o", tmp, filepath.Join(dir, name))
	out, err := exec.Command(bin, args...).CombinedOutput()
	require.NoError(t, err, string(out))
	if how == prelude {
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".memtrace-shim.cjs"), []byte(runtimeshim.Source()), 0o644))
		code, err := os.ReadFile(tmp)
		require.NoError(t, err)
		at := bytes.Index(code, []byte("const H = __mt.S("))
		if strings.HasSuffix(name, ".mjs") {
			at = bytes.Index(code, []byte("var H = __mt$h();"))
		}
		require.Positive(t, at+1)
		pre := `;if(!globalThis.__mt)require("./.memtrace-shim.cjs");`
		if strings.HasSuffix(name, ".mjs") {
			pre = `;import "./.memtrace-shim.cjs";`
		}
		code = append(append(append([]byte{}, code[:at]...), pre...), code[at:]...)
		require.NoError(t, os.WriteFile(tmp, code, 0o644))
	}
	require.NoError(t, os.Rename(tmp, filepath.Join(dir, name)))
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
// time (CommonJS and ES modules; bare, with the runtime shim bundled after
// a hashbang and a comment, or with a project prelude that loads the shim
// file, which ES modules import) runs under memtrace node without starting
// the instrumenter at all (MEMTRACE_BIN fails and logs if run), and its
// trace has every script once (not the shim). The same tree runs under
// plain node.
func TestPreInstrumented(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := newTree(t)
	for name, how := range map[string]int{"main.js": prelude, "a.js": bare, "b.js": bundled,
		"c.mjs": prelude, "d.js": prelude, "e.mjs": bare} {
		instrumentAhead(t, bin, dir, name, how)
	}
	b, err := os.ReadFile(filepath.Join(dir, "b.js"))
	require.NoError(t, err)
	require.Greater(t, bytes.Index(b, []byte("= __mt.S(")), 20000, "b.js has the shim bundled")
	spy := spyBin(t, dir, bin, true)
	runTree(t, dir, spy)
	_, err = os.Stat(filepath.Join(dir, "log"))
	assert.True(t, os.IsNotExist(err), "the instrumenter ran")

	// Plain node: b.js brings the shim (the CommonJS preludes, run before
	// it, load the shim file), the trace goes to MEMTRACE_OUT.
	cmd := exec.Command("node", "main.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "plain-trace"))
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, string(got))
	assert.Equal(t, treeOutput, string(got))
	data := checkTrace(t, filepath.Join(dir, "plain-trace"))
	assert.Equal(t, []string{"a.js", "b.js", "c.mjs", "d.js", "e.mjs", "main.js"}, scriptNames(t, data))
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
			instrumentAhead(t, bin, dir, "a.js", bare)
			instrumentAhead(t, bin, dir, "b.js", bundled)
			instrumentAhead(t, bin, dir, "c.mjs", prelude)
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

// TestWorkerThreads: the program's worker threads run their modules
// instrumented (CommonJS and ES, also modules instrumented ahead of time),
// print as under node, and each writes a trace of its own, listed in
// session.json's children with its threadId: complete when it ran to its
// end, incomplete when terminated; a worker given SHARE_ENV runs untraced;
// the main thread's trace stays intact.
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
  const shared = new Worker(__dirname + '/w.js', { env: require('worker_threads').SHARE_ENV });
  await new Promise((res) => shared.on('exit', res));
  const t = new Worker(__dirname + '/loop.js');
  await new Promise((res) => t.on('message', res));
  console.log('terminated', await t.terminate());
})();
`,
		"loop.js": "const { parentPort } = require('worker_threads');\nconst held = [];\nsetInterval(() => held.push({}), 5);\nparentPort.postMessage('up');\n",
		"w.js":    "const { parentPort } = require('worker_threads');\nconst a = [{ x: 1 }, { x: 2 }];\nparentPort.postMessage(a.length);\n",
		"w.mjs":   "import { parentPort } from 'worker_threads';\nconst a = [{ x: 1 }];\nparentPort.postMessage(a.length);\n",
		"pw.js":   "const { parentPort } = require('worker_threads');\nconst a = [{ x: 1 }, { x: 2 }, { x: 3 }];\nparentPort.postMessage(a.length);\n",
		"pw.mjs":  "import { parentPort } from 'worker_threads';\nconst a = new Map([[1, {}]]);\nparentPort.postMessage(a.size + 10);\n",
	})
	want, wantCode := plainRun(t, dir, "main.js")
	require.Equal(t, 0, wantCode)
	require.Equal(t, "w.js 2\nw.mjs 1\npw.js 3\npw.mjs 11\nkept 4\nterminated 1\n", want)
	instrumentAhead(t, bin, dir, "pw.js", bare)
	instrumentAhead(t, bin, dir, "pw.mjs", prelude)
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, want, out.String())
	assert.Empty(t, stderr.String())
	data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	assert.Equal(t, []string{"main.js"}, scriptNames(t, data))
	s := readSession(t, filepath.Join(dir, "out"))
	require.Len(t, s.Children, 5, "%+v", s.Children)
	for k, file := range []string{"w.js", "w.mjs", "pw.js", "pw.mjs"} {
		c := s.Children[k]
		assert.Positive(t, c.ThreadID)
		assert.Equal(t, "complete", c.Status, c.Reason)
		assert.Equal(t, 0, c.ExitCode)
		assert.Contains(t, scriptNames(t, checkTrace(t, filepath.Join(dir, "out", c.Trace))), file)
	}
	last := s.Children[4]
	assert.Positive(t, last.ThreadID)
	assert.Equal(t, "incomplete", last.Status)
	assert.Contains(t, last.Reason, "termination")
	assert.Equal(t, 1, last.ExitCode)
}

// TestHelperLeaves: memtrace node's helper thread leaves after
// MEMTRACE_HELPER_IDLE_MS without a module (its server ends while the
// program pauses), and the next module, and run-time code, start another:
// every module is still instrumented and the program prints as under node.
// Fails if the helper stays (one server for both modules).
func TestHelperLeaves(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js": `'use strict';
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const a = require('./a.js');
pause(1500);
const b = require('./b.js');
pause(1500);
console.log(a.f(2).v, b.g(3).v, (0, eval)('({ w: 4 }).w'));
`,
		"a.js": "exports.f = function (x) { return { v: x * 10 }; };\n",
		"b.js": "exports.g = (x) => ({ v: x + 1 });\n",
	})
	want, code := plainRun(t, dir, "main.js")
	require.Equal(t, 0, code)
	require.Equal(t, "20 4 4\n", want)
	log := filepath.Join(dir, "log")
	spy := filepath.Join(dir, "memtrace-spy")
	script := "#!/bin/sh\nif [ \"$1\" = instrument-server ]; then echo \"start $$\" >> '" + log + "'; tee -a '" + log + "' | '" + bin + "' \"$@\"; s=$?; echo \"\nexit $$\" >> '" + log + "'; exit $s; fi\nexec '" + bin + "' \"$@\"\n"
	require.NoError(t, os.WriteFile(spy, []byte(script), 0o755))
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: spy, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr, Env: []string{"MEMTRACE_HELPER_IDLE_MS=200"}})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, want, out.String())
	assert.Empty(t, stderr.String())
	data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	assert.Equal(t, []string{"a.js", "b.js", "evalIndirect", "main.js"}, scriptNames(t, data))
	logData, err := os.ReadFile(log)
	require.NoError(t, err)
	// Which server instrumented what, and when each exited.
	lines := strings.Split(string(logData), "\n")
	pos := func(prefix string) (int, string) {
		for i, l := range lines {
			if strings.Contains(l, prefix) {
				// the nearest "start PID" above it
				for j := i; j >= 0; j-- {
					if strings.HasPrefix(lines[j], "start ") {
						return i, strings.TrimPrefix(lines[j], "start ")
					}
				}
			}
		}
		t.Fatalf("no %q in the log:\n%s", prefix, logData)
		return 0, ""
	}
	_, pa := pos(`"name":"a.js"`)
	bi, pb := pos(`"name":"b.js"`)
	ei, pe := pos(`"name":"evalIndirect"`)
	require.NotEqual(t, pa, pb, "a.js and b.js went to the same server: the helper did not leave\n%s", logData)
	require.NotEqual(t, pb, pe, "b.js and the eval'd string went to the same server\n%s", logData)
	exitA := slices.Index(lines, "exit "+pa)
	startB := slices.Index(lines, "start "+pb)
	require.True(t, exitA >= 0 && exitA < startB && startB < bi && bi < ei, "the first server did not exit before the second started\n%s", logData)
}

// TestWorkerStack: a traced worker gets four times the stack it asks for
// (instrumented calls need about four times as much: TestDeepRecursion),
// and sees, as its creator does, the size it asked for in its
// resourceLimits.
func TestWorkerStack(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.js": `'use strict';
const { Worker, isMainThread, parentPort, resourceLimits } = require('worker_threads');
function rec(n) { return n === 0 ? 0 : 1 + rec(n - 1); }
if (isMainThread) {
  (async () => {
    for (const opts of [{}, { resourceLimits: { stackSizeMb: 2 } }]) {
      const w = new Worker(__filename, { ...opts, workerData: opts.resourceLimits ? 5000 : 20000 });
      const m = await new Promise((res) => w.once('message', res));
      console.log(m, w.resourceLimits.stackSizeMb); // read while the worker waits
      w.postMessage('bye');
      await new Promise((res) => w.on('exit', res));
    }
  })();
} else {
  const n = require('worker_threads').workerData;
  parentPort.postMessage(rec(n) + ' ' + resourceLimits.stackSizeMb);
  parentPort.once('message', () => parentPort.close());
}
`})
	_, out := plainThenTraced(t, dir, "main.js", "20000 4 4\n5000 2 2\n")
	s := readSession(t, out)
	require.Len(t, s.Children, 2)
	for _, c := range s.Children {
		assert.Equal(t, "complete", c.Status, c.Reason)
	}
}
