package noderun_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// scriptNames lists the SCRIPT_ENTER names of a trace, sorted.
func scriptNames(t *testing.T, data []byte) []string {
	t.Helper()
	var names []string
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if e.Kind == trace.ScriptEnter {
			names = append(names, e.Name)
		}
	}
	sort.Strings(names)
	return names
}

// checkTrace: the trace file passes trace check and the lifetime engine
// reads it; it returns the trace.
func checkTrace(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%s: trace check: %v", file, rep.Findings)
	var sum bytes.Buffer
	require.NoError(t, lifetime.Report(opener(data), lifetime.ReportOptions{Summary: &sum, TempDir: t.TempDir()}), file)
	var s lifetime.Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s))
	return data
}

// plainRun runs node script in dir and returns its standard output and
// exit code.
func plainRun(t *testing.T, dir, script string) (string, int) {
	t.Helper()
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee)
		code = ee.ExitCode()
	}
	return out.String(), code
}

func readSession(t *testing.T, dir string) noderun.Session {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "session.json"))
	require.NoError(t, err)
	var s noderun.Session
	require.NoError(t, json.Unmarshal(data, &s))
	return s
}

const childrenMain = `'use strict';
const cp = require('child_process');
const path = require('path');
function done(name, p) {
  return new Promise((res) => p.on('exit', (code, sig) => { console.log(name, 'exit', code, sig); res(); }));
}
(async () => {
  // fork with IPC and an execArgv of its own.
  const f = cp.fork(path.join(__dirname, 'child.js'), ['forked'], { execArgv: ['--no-warnings'] });
  f.on('message', (m) => { console.log('parent got', JSON.stringify(m)); f.send({ bye: 1 }); });
  await done('fork', f);
  // An ES module child, by process.execPath.
  const s = cp.spawn(process.execPath, [path.join(__dirname, 'child.mjs'), 'spawned'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let sout = '';
  s.stdout.on('data', (d) => { sout += d; });
  await done('spawn', s);
  console.log('spawn out:', sout.trim());
  // Through a shell.
  await new Promise((res) => cp.exec('node child.js exec', (err, out) => { console.log('exec out:', out.trim(), err && err.code); res(); }));
  // An environment of the program's own, without NODE_OPTIONS.
  const e = cp.spawn('node', ['child.js', 'envless'], { env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'inherit'] });
  e.stdout.on('data', (d) => process.stdout.write(d));
  await done('envless', e);
  console.log('sync:', cp.execFileSync('node', ['child.js', 'sync'], { env: { PATH: process.env.PATH } }).toString().trim());
  // Killed by a signal once it is running.
  const k = cp.spawn(process.execPath, ['child.js', 'hang'], { stdio: ['ignore', 'pipe', 'inherit'] });
  k.stdout.once('data', (d) => { process.stdout.write(d); k.kill('SIGTERM'); });
  await done('killed', k);
  process.exitCode = 3;
})();
`

const childrenChild = `'use strict';
const objs = [];
for (let i = 0; i < 10; i++) objs.push({ i, name: 'o' + i });
console.log('child', process.argv[2], objs.length);
if (process.send) {
  process.send({ hello: process.argv[2] });
  process.on('message', () => process.disconnect());
}
if (process.argv[2] === 'hang') setInterval(() => objs.push({}), 20);
`

const childrenChildESM = `import { helper } from './helper.mjs';
console.log('esm child', process.argv[2], helper({ a: 1 }).a);
process.exitCode = 5;
`

// TestChildren: a program that starts node children every way
// child_process can (fork with IPC, spawn of process.execPath, exec through
// a shell, spawn and execFileSync with an environment of its own, a child
// killed by SIGTERM; CommonJS and ES module children) prints and exits
// under memtrace node as under node; each child leaves its own trace, which
// passes trace check and the lifetime engine reads, and session.json lists
// them with their argv and how they ended.
func TestChildren(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js":    childrenMain,
		"child.js":   childrenChild,
		"child.mjs":  childrenChildESM,
		"helper.mjs": "export function helper(o) { return { ...o, b: 2 }; }\n",
	})
	want, wantCode := plainRun(t, dir, "main.js")
	require.Equal(t, 3, wantCode)

	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr,
		Env: []string{"NODE_OPTIONS=--no-deprecation"}})
	require.NoError(t, err)
	assert.Equal(t, wantCode, code, stderr.String())
	assert.Equal(t, want, out.String(), "the program's output changes")
	assert.Empty(t, stderr.String())

	main := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	assert.Equal(t, []string{"main.js"}, scriptNames(t, main))
	s := readSession(t, filepath.Join(dir, "out"))
	assert.Equal(t, "complete", s.Status)
	assert.Equal(t, 3, s.ExitCode)
	require.Len(t, s.Children, 6, "%+v", s.Children)
	byArg := map[string]noderun.Child{}
	for i, c := range s.Children {
		require.GreaterOrEqual(t, len(c.Argv), 3, "%+v", c)
		byArg[c.Argv[2]] = c
		if i > 0 {
			assert.False(t, c.Start.Before(s.Children[i-1].Start), "children in the order they started")
		}
		if c.Argv[2] == "hang" {
			// Killed by SIGTERM: it dies at once, as without memtrace,
			// leaving what its shim had written (here, within its first
			// second, nothing).
			assert.Equal(t, "incomplete", c.Status, "%+v", c)
			assert.True(t, strings.HasPrefix(c.Reason, "killed by SIGTERM"), c.Reason)
			continue
		}
		assert.Equal(t, "complete", c.Status, "%+v", c)
		assert.True(t, strings.HasPrefix(c.Trace, "children/"), c.Trace)
		assert.Contains(t, c.Trace, "-"+itoa(c.Pid)+"/")
		assert.NotEqual(t, c.Pid, c.ParentPid)
		assert.Positive(t, c.Entries)
		data := checkTrace(t, filepath.Join(dir, "out", filepath.FromSlash(c.Trace)))
		if c.Argv[2] == "spawned" {
			assert.Equal(t, []string{"child.mjs", "helper.mjs"}, scriptNames(t, data))
		} else {
			assert.Equal(t, []string{"child.js"}, scriptNames(t, data))
		}
	}
	for arg, code := range map[string]int{"forked": 0, "spawned": 5, "exec": 0, "envless": 0, "sync": 0, "hang": 143} {
		c, ok := byArg[arg]
		if assert.True(t, ok, "no child %s", arg) {
			assert.Equal(t, code, c.ExitCode, arg)
		}
	}
	assert.Equal(t, "SIGTERM", byArg["hang"].Signal)
	assert.Equal(t, []string{"--no-warnings"}, byArg["forked"].ExecArgv)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestChildOfESMMain: an ES module main that spawns an ES module child
// which spawns a CommonJS grandchild: three traces, the grandchild's
// parent is the child.
func TestChildOfESMMain(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.mjs": `import { spawnSync } from 'node:child_process';
const r = spawnSync(process.execPath, ['kid.mjs'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
console.log('main:', r.stdout.trim(), r.status);
`,
		"kid.mjs": `import { execFileSync } from 'node:child_process';
const got = execFileSync('node', ['grand.cjs'], { encoding: 'utf8' });
console.log('kid[' + got.trim() + ']');
`,
		"grand.cjs": "const m = new Map([[1, { v: 1 }]]);\nconsole.log('grand', m.size);\n",
	})
	want, wantCode := plainRun(t, dir, "main.mjs")
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.mjs", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, wantCode, code, stderr.String())
	require.Equal(t, "main: kid[grand 1] 0\n", want)
	assert.Equal(t, want, out.String())
	checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	s := readSession(t, filepath.Join(dir, "out"))
	require.Len(t, s.Children, 2, "%+v", s.Children)
	kid, grand := s.Children[0], s.Children[1]
	assert.Equal(t, "kid.mjs", filepath.Base(kid.Argv[1]))
	assert.Equal(t, "grand.cjs", filepath.Base(grand.Argv[1]))
	assert.Equal(t, kid.Pid, grand.ParentPid)
	for _, c := range s.Children {
		assert.Equal(t, "complete", c.Status, "%+v", c)
		assert.Equal(t, 0, c.ExitCode)
		data := checkTrace(t, filepath.Join(dir, "out", filepath.FromSlash(c.Trace)))
		assert.Equal(t, []string{filepath.Base(c.Argv[1])}, scriptNames(t, data))
	}
}

// TestDetachedChild: a detached child that outlives the main process is
// listed as running (a child that has not started yet when the main
// process ends is not listed, but traced all the same), and still starts traced node children of its own
// afterwards (the preload stays); its trace is finished when it exits.
func TestDetachedChild(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.js": `const cp = require('child_process');
const c = cp.spawn(process.execPath, ['late.js'], { detached: true, stdio: 'ignore' });
c.unref();
// Wait until the child runs (then its preload has registered it).
const fs = require('fs');
const t = setInterval(() => { if (fs.existsSync('ready.txt')) { clearInterval(t); console.log('main done'); } }, 20);
`,
		"late.js": `const cp = require('child_process');
require('fs').writeFileSync('ready.txt', 'yes');
setTimeout(() => {
  const out = cp.execFileSync(process.execPath, ['-e', 'console.log([1, 2].map((x) => ({ x })).length)'], { encoding: 'utf8' });
  require('fs').writeFileSync('late.txt', out);
}, 1500);
`,
	})
	var out, stderr bytes.Buffer
	bin := memtracebin.Path(t)
	// The run leaves nothing in the temporary directory, though the child
	// goes on loading the preload: that comes from the support directory.
	tmp, sup := filepath.Join(dir, "tmp"), filepath.Join(dir, "cache")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	t.Setenv("TMPDIR", tmp)
	code, err := noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr, SupportRoot: sup})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	s := readSession(t, filepath.Join(dir, "out"))
	require.Len(t, s.Children, 1)
	assert.True(t, s.Children[0].Running, "%+v", s.Children[0])
	// Its trace has no end yet: not complete (issue 54, case 17).
	assert.Equal(t, "incomplete", s.Children[0].Status)
	assert.Contains(t, s.Children[0].Reason, "still running")
	left, _ := filepath.Glob(filepath.Join(tmp, "memtrace-node-*"))
	assert.Empty(t, left, "the run's temporary directory outlived it")
	held, _ := filepath.Glob(filepath.Join(sup, "node-*", "preload.cjs"))
	assert.Len(t, held, 1)
	late := filepath.Join(dir, "late.txt")
	deadline := time.Now().Add(30 * time.Second)
	for {
		if data, err := os.ReadFile(late); err == nil && len(data) > 0 {
			assert.Equal(t, "2\n", string(data))
			break
		}
		require.True(t, time.Now().Before(deadline), "late.js did not finish")
		time.Sleep(100 * time.Millisecond)
	}
	// The grandchild and the child exit: their exit records appear.
	for _, n := range []string{"1-", "2-"} {
		for {
			m, _ := filepath.Glob(filepath.Join(dir, "out", "children", n+"*", "exit.json"))
			if len(m) == 1 {
				checkTrace(t, filepath.Join(filepath.Dir(m[0]), "mem-trace"))
				break
			}
			require.True(t, time.Now().Before(deadline), "no exit.json for child %s", n)
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// TestNoSupportDir: without a support directory (SupportRoot "-", as when
// there is no cache directory) the files node loads go to the run's
// temporary directory, and a TypeScript module (loaded through the empty
// --import module kept there too) and its child process are traced; the
// directory is gone when the run ends.
func TestNoSupportDir(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json": `{"type": "module"}`,
		"main.ts":      "import { execFileSync } from 'node:child_process';\nconst n: number = [1, 2].map((x) => ({ x })).length;\nconsole.log(n, execFileSync(process.execPath, ['kid.cjs'], { encoding: 'utf8' }).trim());\n",
		"kid.cjs":      "console.log([3].map((x) => ({ x }))[0].x);\n",
	})
	bin := memtracebin.Path(t) // built before TMPDIR changes
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o700))
	t.Setenv("TMPDIR", tmp)
	var out, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: "main.ts", OutDir: filepath.Join(dir, "out"), Dir: dir,
		Memtrace: bin, Shim: runtimeshim.Source(), Stdout: &out, Stderr: &stderr, SupportRoot: "-"})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, "2 3\n", out.String())
	s := readSession(t, filepath.Join(dir, "out"))
	assert.Equal(t, "complete", s.Status, s.Reason)
	assert.Equal(t, []string{"main.ts"}, scriptNames(t, checkTrace(t, filepath.Join(dir, "out", "mem-trace"))))
	require.Len(t, s.Children, 1)
	assert.Equal(t, []string{"kid.cjs"}, scriptNames(t, checkTrace(t, filepath.Join(dir, "out", filepath.FromSlash(s.Children[0].Trace)))))
	left, _ := filepath.Glob(filepath.Join(tmp, "*"))
	assert.Empty(t, left)
}
