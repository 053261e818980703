package noderun_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// runIn runs p.js (written to dir by writeProg) under noderun.Run with
// the trace directory out and the options changed by mods; it returns the
// exit code, standard output and error, and Run's error.
func runIn(t *testing.T, dir, out string, mods ...func(*noderun.Options)) (int, string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	opts := noderun.Options{Script: "p.js", OutDir: out, Memtrace: memtracebin.Path(t),
		Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr}
	for _, m := range mods {
		m(&opts)
	}
	code, err := noderun.Run(opts)
	return code, stdout.String(), stderr.String(), err
}

// brokenInstrumenter runs with an instrumenter that fails.
func brokenInstrumenter(o *noderun.Options) { o.Memtrace = "/bin/false" }

func writeProg(t *testing.T, dir, src string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.js"), []byte(src), 0o644))
}

// Issue 54, case 2: --out names a directory of the user's (here the
// working directory, as --out . does): it is refused, naming a file in
// the way, and nothing in it is removed or overwritten (its children/,
// mem-trace and session.json are the user's). An empty directory, a new
// one, and one an earlier run marked are taken; so is one an older
// memtrace node wrote (mem-trace, session.json of a memtrace session,
// children/), which gets the mark.
func TestOutDirOfTheUsers(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeProg(t, dir, "console.log('hi');\n")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "children", "keep"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "children", "keep", "notes"), []byte("mine"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mem-trace"), []byte("my own file"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "session.json"), []byte(`{"mine":true}`), 0o644))

	code, _, _, err := runIn(t, dir, dir)
	var w *safefs.InTheWayError
	require.ErrorAs(t, err, &w)
	assert.Equal(t, -1, code)
	assert.Contains(t, err.Error(), "which memtrace did not write")
	b, err := os.ReadFile(filepath.Join(dir, "children", "keep", "notes"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))
	b, _ = os.ReadFile(filepath.Join(dir, "mem-trace"))
	assert.Equal(t, "my own file", string(b))
	b, _ = os.ReadFile(filepath.Join(dir, "session.json"))
	assert.Equal(t, `{"mine":true}`, string(b))

	// New, then the same again (marked), then an empty one.
	out := filepath.Join(t.TempDir(), "a", "out")
	for i := 0; i < 2; i++ {
		code, _, stderr, err := runIn(t, dir, out)
		require.NoError(t, err)
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, "complete", readSession(t, out).Status)
	}
	empty := t.TempDir()
	code, _, stderr, err := runIn(t, dir, empty)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)

	// An older memtrace node's directory: no mark, only its files.
	older := t.TempDir()
	for _, f := range []string{"mem-trace", "session.json"} {
		b, err := os.ReadFile(filepath.Join(out, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(older, f), b, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(older, "children"), 0o755))
	code, _, stderr, err = runIn(t, dir, older)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)
	_, err = os.Stat(filepath.Join(older, noderun.MarkFile))
	assert.NoError(t, err)
}

// Issue 54, case 6: links planted in the trace directory where
// session.json and mem-trace go, and as children/, are replaced or
// removed, never written through: their targets keep their content.
func TestOutDirLinksPlanted(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeProg(t, dir, "require('child_process').execFileSync(process.execPath, ['-e', '1']);\n")
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr, err := runIn(t, dir, out)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)

	victim := t.TempDir()
	for _, f := range []string{"session.json", "mem-trace", "lastuse-trace"} {
		v := filepath.Join(victim, f)
		require.NoError(t, os.WriteFile(v, []byte("victim"), 0o644))
	}
	for _, f := range []string{"session.json", "mem-trace", "lastuse-trace"} {
		os.Remove(filepath.Join(out, f))
		require.NoError(t, os.Symlink(filepath.Join(victim, f), filepath.Join(out, f)))
	}
	require.NoError(t, os.RemoveAll(filepath.Join(out, "children")))
	require.NoError(t, os.Mkdir(filepath.Join(victim, "kids"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(victim, "kids", "keep"), []byte("victim"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(victim, "kids"), filepath.Join(out, "children")))

	code, _, stderr, err = runIn(t, dir, out)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)
	for _, f := range []string{"session.json", "mem-trace", "lastuse-trace", "kids/keep"} {
		b, err := os.ReadFile(filepath.Join(victim, f))
		require.NoError(t, err, f)
		assert.Equal(t, "victim", string(b), f)
	}
	for _, f := range []string{"session.json", "mem-trace", "children"} {
		fi, err := os.Lstat(filepath.Join(out, f))
		require.NoError(t, err, f)
		assert.Zero(t, fi.Mode()&os.ModeSymlink, "%s is still a link", f)
	}
	s := readSession(t, out)
	assert.Equal(t, "complete", s.Status)
	require.Len(t, s.Children, 1)
}

// Issue 54, case 7: a second run on a trace directory another run is
// writing is refused, with the first run's pid, and the first run's
// trace and session.json are its own.
func TestOutDirLocked(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	writeProg(t, dir, "require('fs').writeFileSync("+jsString(marker)+", '');\nsetTimeout(() => console.log('done'), 1500);\n")
	out := filepath.Join(t.TempDir(), "out")
	first := make(chan error, 1)
	go func() {
		code, _, stderr, err := runIn(t, dir, out)
		if err == nil && code != 0 {
			err = errors.New(stderr)
		}
		first <- err
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		require.True(t, time.Now().Before(deadline), "the first run did not start")
		time.Sleep(20 * time.Millisecond)
	}
	_, _, _, err := runIn(t, dir, out)
	var le *safefs.LockedError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, os.Getpid(), le.PID)
	assert.Contains(t, err.Error(), "being written by another memtrace")
	require.NoError(t, <-first)
	s := readSession(t, out)
	assert.Equal(t, "complete", s.Status)
	data, err := os.ReadFile(filepath.Join(out, "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 5)
	require.NoError(t, err)
	assert.True(t, rep.OK())
	assert.Equal(t, rep.Entries, s.Entries)
}

// Issue 54, case 15: a script that does not exist, or whose entry has a
// syntax error, gives an incomplete session that says why, and node's
// exit status (1), not a complete 3-entry trace.
func TestNoScriptRan(t *testing.T) {
	needNode(t)
	for name, src := range map[string]string{"missing": "", "syntax": "let x = ;\n"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if src != "" {
				writeProg(t, dir, src)
			}
			out := filepath.Join(dir, "out")
			code, _, _, err := runIn(t, dir, out)
			require.NoError(t, err)
			assert.Equal(t, 1, code)
			s := readSession(t, out)
			assert.Equal(t, "incomplete", s.Status)
			assert.Contains(t, s.Reason, "no script ran instrumented")
		})
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Issue 54, case 9: kill -9 of memtrace node ends node too (the
// parent-death signal), and `memtrace trace repair` then cuts the trace
// to its last whole entry and writes session.json, status incomplete,
// with why; the trace then passes trace check. A second repair changes
// nothing.
func TestKilledMemtraceNode(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	writeProg(t, dir, "require('fs').writeFileSync("+jsString(pidFile)+", String(process.pid));\n"+
		"const a = [];\nsetInterval(() => { for (let i = 0; i < 2000; i++) a.push({ i }); if (a.length > 50000) a.length = 0; }, 1);\n")
	out := filepath.Join(dir, "out")
	cmd := exec.Command(bin, "node", "--out", out, "p.js")
	cmd.Dir = dir
	require.NoError(t, cmd.Start())
	var pid int
	deadline := time.Now().Add(60 * time.Second)
	for pid == 0 {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
			var err error
			pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
			require.NoError(t, err)
			break
		}
		require.True(t, time.Now().Before(deadline), "node did not start")
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // some trace
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	deadline = time.Now().Add(30 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		require.True(t, time.Now().Before(deadline), "node %d still runs after memtrace node was killed", pid)
		time.Sleep(20 * time.Millisecond)
	}
	_, err := os.Stat(filepath.Join(out, "session.json"))
	require.ErrorIs(t, err, os.ErrNotExist)

	rep := exec.Command(bin, "trace", "repair", out)
	msg, err := rep.CombinedOutput()
	require.NoError(t, err, string(msg))
	s := readSession(t, out)
	assert.Equal(t, "incomplete", s.Status)
	assert.Contains(t, s.Reason, "memtrace node was killed")
	f, err := os.Open(filepath.Join(out, "mem-trace"))
	require.NoError(t, err)
	defer f.Close()
	r, err := trace.Check(f, 5)
	require.NoError(t, err)
	assert.True(t, r.OK(), "%v", r.Findings)
	assert.Equal(t, r.Entries, s.Entries)

	again, err := exec.Command(bin, "trace", "repair", out).CombinedOutput()
	require.NoError(t, err)
	assert.True(t, strings.Contains(string(again), "nothing to repair"), string(again))

	// A directory that is not memtrace node's is refused, and nothing in
	// it is written.
	other := t.TempDir()
	msg, err = exec.Command(bin, "trace", "repair", other).CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(msg), "is not a trace directory of memtrace node")
	ents, err := os.ReadDir(other)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// Issue 54, case 10: on a full disk (a file size limit of 512 bytes:
// neither the trace nor session.json fits), memtrace node says that it
// could not write session.json, leaves none (not an empty one) and no
// temporary file, and exits with the program's status, 0.
func TestSessionOnFullDisk(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	writeProg(t, dir, "console.log('ran');\n")
	out := filepath.Join(dir, "out")
	script := `trap "" XFSZ; ulimit -f 1; exec "$0" "$@"`
	// A long argument: session.json (which lists it) is over the limit.
	cmd := exec.Command("sh", "-c", script, bin, "node", "--out", out, "p.js", strings.Repeat("x", 600))
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	assert.Equal(t, "ran\n", stdout.String())
	assert.Contains(t, stderr.String(), "session.json could not be written")
	ents, err := os.ReadDir(out)
	require.NoError(t, err)
	for _, e := range ents {
		assert.NotContains(t, e.Name(), "session.json", "nothing of session.json is left")
	}
}

// Issue 54, case 4: a support root that another user owns (mode 0755) is
// refused with a message on standard error, and the run goes on with
// files of its own: the files planted there never run.
func TestSupportRootOfAnotherUser(t *testing.T) {
	needNode(t)
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: this case must run")
		}
		t.Skip("needs root (to give a directory to another user); CI runs it")
	}
	dir := t.TempDir()
	writeProg(t, dir, "console.log('ran');\n")
	root := filepath.Join(t.TempDir(), "cache")
	// A first run makes the support directory; then it is given away and
	// its preload rewritten.
	var stdout, stderr bytes.Buffer
	opts := noderun.Options{Script: "p.js", OutDir: filepath.Join(dir, "out"), Memtrace: memtracebin.Path(t),
		Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr, SupportRoot: root}
	code, err := noderun.Run(opts)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	ents, err := os.ReadDir(root)
	require.NoError(t, err)
	var sup string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "node-") {
			sup = filepath.Join(root, e.Name())
		}
	}
	require.NotEmpty(t, sup)
	require.NoError(t, os.WriteFile(filepath.Join(sup, "preload.cjs"), []byte("console.log('PWNED');\n"), 0o644))
	for _, p := range []string{root, sup, filepath.Join(sup, "preload.cjs")} {
		require.NoError(t, os.Chmod(p, 0o755))
		require.NoError(t, os.Chown(p, 65534, 65534))
	}
	stdout.Reset()
	stderr.Reset()
	code, err = noderun.Run(opts)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, "ran\n", stdout.String())
	assert.Contains(t, stderr.String(), "not using the support directory")
	assert.Contains(t, stderr.String(), "belongs to another user (uid 65534)")
	assert.Equal(t, "complete", readSession(t, filepath.Join(dir, "out")).Status)
}

// Issue 54, case 11: a module that runs uninstrumented (here every one:
// the instrumenter memtrace node is given fails) is listed in
// session.json with why, and the session is incomplete: a trace of part
// of the program is not a complete one.
func TestUninstrumentedModulesRecorded(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeProg(t, dir, "console.log(require('./m.js'));\n")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.js"), []byte("module.exports = 42;\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr, err := runIn(t, dir, out, brokenInstrumenter)
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "42\n", stdout)
	s := readSession(t, out)
	assert.Equal(t, "incomplete", s.Status)
	assert.Contains(t, s.Reason, "modules ran uninstrumented")
	var mods []string
	for _, u := range s.Uninstrumented {
		mods = append(mods, filepath.Base(u.Module))
		assert.NotEmpty(t, u.Reason)
	}
	assert.ElementsMatch(t, []string{"p.js", "m.js"}, mods)
}

// Issue 54, case 12: when the instrumenter for run-time code is broken
// (here /bin/false), eval and new Function code do not run uninstrumented
// in silence: memtrace says so on standard error, naming the
// instrumenter, and session.json records it (status incomplete). The
// program is instrumented ahead of time, so that only its run-time code
// needs the instrumenter.
func TestBrokenRunTimeInstrumenter(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	writeProg(t, dir, "const o = eval('({ a: 1 })');\nconst f = new Function('return { b: 2 }');\nconsole.log(o.a, f().b);\n")
	inst := exec.Command(bin, "instrument", "p.js", "-o", "p.inst.js")
	inst.Dir = dir
	msg, err := inst.CombinedOutput()
	require.NoError(t, err, string(msg))
	out := filepath.Join(dir, "out")
	code, stdout, stderr, err := runIn(t, dir, out, brokenInstrumenter, func(o *noderun.Options) { o.Script = "p.inst.js" })
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "1 2\n", stdout)
	assert.Contains(t, stderr, "the instrumenter /bin/false failed")
	assert.Equal(t, 1, strings.Count(stderr, "the instrumenter /bin/false failed"), "said once")
	s := readSession(t, out)
	assert.Equal(t, "incomplete", s.Status)
	require.Len(t, s.Uninstrumented, 1)
	assert.Contains(t, s.Uninstrumented[0].Module, "run-time code")
}

// Issue 54, case 11: V8 nests only as deep as its stack lets it, and the
// instrumented text of a member chain adds a hook call to every level.
// Near V8's own limit (6,946 links under plain node) the instrumented
// module does not compile where the original does: the module runs as it
// is, with a warning, listed in session.json, and the program's output is
// plain node's. The main module stays instrumented. A CommonJS module and
// an ES module (whose compile fails in Node's loader, so memtrace's hooks
// compile it first).
func TestTooDeepInstrumentedRunsOriginal(t *testing.T) {
	needNode(t)
	for _, c := range []struct{ main, dep, export string }{
		{"main.js", "dep.js", "module.exports = "},
		{"main.mjs", "dep.mjs", "export default "},
	} {
		t.Run(c.dep, func(t *testing.T) {
			dir := t.TempDir()
			// (6,200 links: plain node's ES module loader runs 6,400 here,
			// memtrace node's instrumented text fails from about 5,800.)
			dep := "const a = {}; a.b = a;\n" + c.export + "typeof a" + strings.Repeat(".b", 6200) + ";\n"
			main := "console.log('dep', require('./dep.js'), [1, 2].map((x) => x * 2));\n"
			if c.main == "main.mjs" {
				main = "import d from './dep.mjs';\nconsole.log('dep', d, [1, 2].map((x) => x * 2));\n"
			}
			writeFiles(t, dir, map[string]string{c.main: main, c.dep: dep})
			plain := exec.Command("node", c.main)
			plain.Dir = dir
			want, err := plain.CombinedOutput()
			require.NoError(t, err, "%.300s", want)
			require.Equal(t, "dep object [ 2, 4 ]\n", string(want))

			var stdout, stderr bytes.Buffer
			out := filepath.Join(dir, "out")
			code, err := noderun.Run(noderun.Options{Script: c.main, OutDir: out,
				Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
			require.NoError(t, err)
			require.Equal(t, 0, code, "%.500s", stderr.String())
			assert.Equal(t, string(want), stdout.String())
			assert.Contains(t, stderr.String(), "memtrace: "+filepath.Join(dir, c.dep)+" runs uninstrumented: V8 cannot compile its instrumented text")
			s := readSession(t, out)
			assert.Equal(t, "incomplete", s.Status)
			require.Len(t, s.Uninstrumented, 1)
			assert.Equal(t, filepath.Join(dir, c.dep), s.Uninstrumented[0].Module)
			assert.Contains(t, s.Uninstrumented[0].Reason, "nested too deep")
			// The main module is in the trace (its name in UTF-16, as
			// the trace writes strings).
			data, err := os.ReadFile(filepath.Join(out, "mem-trace"))
			require.NoError(t, err)
			assert.Contains(t, string(data), utf16LE(c.main))
		})
	}
}
