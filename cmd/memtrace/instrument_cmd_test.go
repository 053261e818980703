package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestInstrumentTSMalformed: a TypeScript syntax error is reported at its
// position in the .ts file with a code frame, exit status 1, and no output
// file.
func TestInstrumentTSMalformed(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ts")
	require.NoError(t, os.WriteFile(bad, []byte("const ok: number = 1;\nfunction f(a: number {\n  return a;\n}\n"), 0o644))
	out := filepath.Join(dir, "bad.js")
	code, stdout, stderr := runCmd(t, "", "instrument", bad, "-o", out)
	assert.Equal(t, ExitFailure, code)
	assert.Empty(t, stdout)
	assert.True(t, strings.HasPrefix(stderr, bad+":2:22: error: expected \")\" but found \"{\"\n"), stderr)
	assert.Contains(t, stderr, "\n    function f(a: number {\n                         ^\n")
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "an output file was written")

	// The same from standard input, with --loader: --name names the file.
	code, _, stderr = runCmd(t, "function f(a: number {}\n", "instrument", "--loader", "ts", "--name", "in.ts", "-")
	assert.Equal(t, ExitFailure, code)
	assert.True(t, strings.HasPrefix(stderr, "in.ts:1:22: error: "), stderr)

	code, _, stderr = runCmd(t, "", "instrument", "--loader", "coffee", bad)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "unknown --loader")
}

// TestInstrumentTS: memtrace instrument on a .ts file writes JavaScript
// that runs under plain node (the shim in front, after the hashbang) and
// names the .ts file in its site table; JSX in a .ts file needs --loader
// tsx.
func TestInstrumentTS(t *testing.T) {
	dir := t.TempDir()
	src := "#!/usr/bin/env node\n\"use strict\";\ninterface P { x: number }\nconst ps: P[] = [{ x: 1 }, { x: 2 }];\nconsole.log(ps.map((p: P): number => p.x * 2).join());\n"
	in := filepath.Join(dir, "prog.ts")
	require.NoError(t, os.WriteFile(in, []byte(src), 0o644))
	out := filepath.Join(dir, "prog.js")
	code, _, stderr := runCmd(t, "", "instrument", "--name", "prog.ts", in, "-o", out)
	require.Equal(t, ExitOK, code, stderr)
	js, err := os.ReadFile(out)
	require.NoError(t, err)
	// The hashbang and the directive stay first, the shim on the directive's line.
	assert.True(t, strings.HasPrefix(string(js), "#!/usr/bin/env node\n\"use strict\";;if(!globalThis.__mt)({}).constructor.constructor(\""), "%.80s", js)
	assert.Regexp(t, `__mt\.S(?:g\("__mt\$[0-9a-f]{8}", \d+, \d+, |\()"prog\.ts", "`, string(js))
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
		return
	}
	cmd := exec.Command("node", out)
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "mem-trace"))
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Equal(t, "2,4\n", string(got))
	code, _, stderr = runCmd(t, "", "trace", "check", filepath.Join(dir, "mem-trace"))
	assert.Equal(t, ExitOK, code, stderr)

	// TSX from standard input.
	code, stdout, stderr := runCmd(t, "const e = <b>{1}</b>;\n", "instrument", "--no-shim", "--loader", "tsx", "--goal", "commonjs", "--name", "v.tsx", "-")
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stdout, `.createElement)`)
}

// TestInstrumentExclude: a file whose name matches --exclude is copied
// unchanged (no shim, no hooks); the others are instrumented; a later
// !GLOB re-includes; a bad glob is a usage error.
func TestInstrumentExclude(t *testing.T) {
	dir := t.TempDir()
	src := "var o = {a: 1};\n"
	p := filepath.Join(dir, "vendor", "lib.min.js")
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(src), 0o644))

	code, out, errOut := runCmd(t, "", "instrument", "--exclude", "*.min.js", p)
	require.Equal(t, ExitOK, code, errOut)
	require.Equal(t, src, out)

	code, out, _ = runCmd(t, src, "instrument", "--exclude", "vendor", "--name", "vendor/x.js", "-")
	require.Equal(t, ExitOK, code)
	require.Equal(t, src, out)

	dst := filepath.Join(dir, "out.js")
	code, _, errOut = runCmd(t, "", "instrument", "--exclude", "vendor", "-o", dst, p)
	require.Equal(t, ExitOK, code, errOut)
	b, err := os.ReadFile(dst)
	require.NoError(t, err)
	require.Equal(t, src, string(b))

	code, out, _ = runCmd(t, "", "instrument", "--no-shim", "--exclude", "*.min.js", "--exclude", "!**/vendor/lib.min.js", "--all-uses", "--all-putfields", p)
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "{allUses: true, allPutFields: true}")

	code, _, errOut = runCmd(t, "", "instrument", "--exclude", "[x", p)
	require.Equal(t, ExitUsage, code)
	require.True(t, strings.Contains(errOut, "unclosed character class"), errOut)
}

// TestInstrumentDir: a directory argument instruments the tree into -o
// OUT, reports a file that does not parse as FILE:LINE:COL and copies it
// (--strict: exit 1), prints a summary, and refuses overlapping or missing
// directories and single-file flags.
func TestInstrumentDir(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "app")
	require.NoError(t, os.MkdirAll(in, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(in, "a.js"), []byte("module.exports = {a: 1};\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "bad.js"), []byte("var x = ;\n"), 0o644))
	out := filepath.Join(dir, "out")
	cache := filepath.Join(dir, "cache")
	code, stdout, stderr := runCmd(t, "", "instrument", in, "-o", out, "--cache", cache)
	assert.Equal(t, ExitOK, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, filepath.Join(in, "bad.js")+":1:9: error: ")
	assert.Contains(t, stderr, "bad.js: copied uninstrumented")
	assert.Contains(t, stderr, "memtrace: 1 files instrumented (0.0 MB), 1 copied (0.0 MB), 1 failed")
	b, err := os.ReadFile(filepath.Join(out, "a.js"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `require("./.memtrace-shim.cjs")`)
	b, err = os.ReadFile(filepath.Join(out, "bad.js"))
	require.NoError(t, err)
	assert.Equal(t, "var x = ;\n", string(b))

	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(dir, "out2"), "--no-cache", "--strict")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "bad.js: not written (--strict)")

	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(in, "sub"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, "never writes into the input tree")
	code, _, stderr = runCmd(t, "", "instrument", in)
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "needs an output directory")
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", out, "--goal", "module")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--goal is for one FILE")
	code, _, stderr = runCmd(t, "", "instrument", filepath.Join(in, "a.js"), "--node-modules")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "--node-modules is for a directory")
}

// TestInstrumentDirOverwrites (issue 54): memtrace instrument DIR refuses
// an OUT it did not make unless it is empty, naming the file in the way;
// stops at a link it did not make where a directory goes, naming it, with
// nothing written through it; removes the outputs of deleted inputs and
// says so; and runs without a cache directory others may write to, saying
// so on standard error.
func TestInstrumentDirOverwrites(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "app")
	require.NoError(t, os.MkdirAll(filepath.Join(in, "lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(in, "a.js"), []byte("module.exports = {a: 1};\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "lib", "b.js"), []byte("module.exports = {b: 1};\n"), 0o644))

	users := filepath.Join(dir, "users")
	require.NoError(t, os.MkdirAll(users, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(users, "notes.txt"), []byte("mine\n"), 0o644))
	code, _, stderr := runCmd(t, "", "instrument", in, "-o", users, "--no-cache")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, users+" holds notes.txt, which memtrace did not write: give a new or empty directory")

	cache := filepath.Join(dir, "cache")
	require.NoError(t, os.Mkdir(cache, 0o700))
	require.NoError(t, os.Chmod(cache, 0o777))
	out := filepath.Join(dir, "out")
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", out, "--cache", cache)
	assert.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "warning: the cache is not used: "+cache+" is writable by others (mode 0777)")
	assert.Contains(t, stderr, "; no cache")
	ents, err := os.ReadDir(cache)
	require.NoError(t, err)
	assert.Empty(t, ents)

	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.MkdirAll(victim, 0o755))
	require.NoError(t, os.RemoveAll(filepath.Join(out, "lib")))
	require.NoError(t, os.Symlink(victim, filepath.Join(out, "lib")))
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", out, "--no-cache")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, stderr, filepath.Join(out, "lib")+" is a symbolic link that memtrace did not make")
	ents, err = os.ReadDir(victim)
	require.NoError(t, err)
	assert.Empty(t, ents)

	require.NoError(t, os.Remove(filepath.Join(out, "lib")))
	require.NoError(t, os.Remove(filepath.Join(in, "a.js")))
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", out, "--no-cache")
	assert.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, stderr, "; 1 outputs of deleted inputs removed")
	_, err = os.Stat(filepath.Join(out, "a.js"))
	assert.True(t, os.IsNotExist(err), "a.js: %v", err)
}

// TestInstrumentStrictFlags: --strict-code parses one FILE as strict code
// (the code of a direct eval in strict code: `with` is a syntax error
// there); --strict is for a directory and refused for one FILE.
func TestInstrumentStrictFlags(t *testing.T) {
	src := "with (o) { x = 1; }\n"
	code, _, stderr := runCmd(t, src, "instrument", "--eval", "--name", "eval", "-")
	require.Equal(t, ExitOK, code, stderr)
	code, _, stderr = runCmd(t, src, "instrument", "--eval", "--strict-code", "--name", "eval", "-")
	require.Equal(t, ExitFailure, code)
	require.Contains(t, stderr, "eval:1:1: error: ")
	code, _, stderr = runCmd(t, src, "instrument", "--strict", "--name", "eval", "-")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "--strict is for a directory")
}

// TestInstrumentEvalHandle: run-time code gets the short handle, a string
// timer's (--global-code) a name unique to it; --global-code without --eval
// is a usage error.
func TestInstrumentEvalHandle(t *testing.T) {
	code, stdout, _ := runCmd(t, "var a = {}; a\n", "instrument", "--eval", "--name", "evalIndirect", "-")
	assert.Equal(t, ExitOK, code)
	assert.True(t, strings.HasPrefix(stdout, `const H = `+instrument.EvalNoCache+`__mt.S("evalIndirect", "`), stdout)
	code, stdout, _ = runCmd(t, "var a = {}; a\n", "instrument", "--eval", "--global-code", "--name", "evalIndirect", "-")
	assert.Equal(t, ExitOK, code)
	assert.Regexp(t, `^__mt\.Sg\("__mt\$[0-9a-f]{8}", \d+, \d+, "evalIndirect", "`, stdout)
	code, stdout, stderr := runCmd(t, "var a = {}; a\n", "instrument", "--global-code", "-")
	assert.Equal(t, ExitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "--global-code is for run-time code: it needs --eval")
}

// TestInstrumentToStdout: -o - writes the instrumented code to standard
// output, as no -o does, and leaves no file named "-"; a directory needs a
// real output directory.
func TestInstrumentToStdout(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.js")
	require.NoError(t, os.WriteFile(in, []byte("var o = { a: 1 };\n"), 0o644))
	t.Chdir(dir)
	code, want, stderr := runCmd(t, "", "instrument", "--no-shim", in)
	require.Equal(t, ExitOK, code, stderr)
	code, got, stderr := runCmd(t, "", "instrument", "--no-shim", in, "-o", "-")
	require.Equal(t, ExitOK, code, stderr)
	assert.Contains(t, got, "__mt.Sg(")
	assert.Equal(t, want, got)
	assert.NoFileExists(t, "-")

	code, _, stderr = runCmd(t, "", "instrument", dir, "-o", "-")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, stderr, "needs an output directory")
	assert.NoFileExists(t, "-")
}

// TestInstrumentKeepsLines: the shim that `memtrace instrument` puts in
// front takes no line (stack traces of the output name the program's own
// lines) and runs as sloppy code after a "use strict" directive, so that
// sloppy run-time code that the shim instruments keeps its semantics (a
// write to a frozen object's property fails silently).
func TestInstrumentKeepsLines(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
		return
	}
	dir := t.TempDir()
	src := "#!/usr/bin/env node\n'use strict';\nfunction where() { return new Error().stack.split('\\n')[1].replace(/.*:(\\d+):\\d+\\)$/, '$1'); }\n" +
		"console.log(where());\nconsole.log((0, eval)('var o = Object.freeze({ a: 1 }); o.a = 2; o.a'));\n"
	in := filepath.Join(dir, "prog.js")
	require.NoError(t, os.WriteFile(in, []byte(src), 0o644))
	out := filepath.Join(dir, "prog.inst.js")
	code, _, stderr := runCmd(t, "", "instrument", in, "-o", out)
	require.Equal(t, ExitOK, code, stderr)

	plain, err := exec.Command("node", in).CombinedOutput()
	require.NoError(t, err, "%s", plain)
	require.Equal(t, "3\n1\n", string(plain))
	cmd := exec.Command("node", out)
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "mem-trace"), "MEMTRACE_BIN="+memtracebin.Path(t))
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", got)
	assert.Equal(t, string(plain), string(got))
}

// TestInstrumentDirColourAlternating (issue 55): runs of memtrace
// instrument DIR -o OUT from a terminal and through a pipe, alternately,
// find the files up to date: colour is decided here, at the CLI, and the
// run's outputs and manifest do not depend on it. A file that cannot be
// instrumented is reported each time, in colour on the terminal only.
func TestInstrumentDirColourAlternating(t *testing.T) {
	in := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(in, "a.js"), []byte("exports.a = [1];\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "bad.js"), []byte("let = = 1;\n"), 0o644))
	out := filepath.Join(t.TempDir(), "out")
	for i, tty := range []bool{true, false, true, false} {
		ios, _, errOut := testIO("")
		ios.errTTY = tty
		code := run([]string{"instrument", in, "-o", out, "--no-cache"}, ios)
		require.Equal(t, ExitOK, code, errOut.String())
		got := errOut.String()
		if i > 0 {
			assert.Contains(t, got, "; 2 files up to date", "run %d (terminal %v): %s", i, tty, got)
		}
		assert.Contains(t, got, filepath.Join(in, "bad.js")+":1:", "run %d", i)
		assert.Equal(t, tty, strings.Contains(got, "\x1b["), "run %d (terminal %v): colour %q", i, tty, got)
	}
}

// TestInstrumentWebAppDir: a directory with HTML pages and no
// package.json is a web app (its pages rewritten, the browser shim
// written, --collector in each page's configuration); one with a
// package.json is a Node program unless --web; bad flag combinations are
// refused.
func TestInstrumentWebAppDir(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "dist")
	require.NoError(t, os.MkdirAll(filepath.Join(in, "app"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(in, "app", "index.html"), []byte("<html><head></head><body><script src=\"a.js\"></script></body></html>"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(in, "app", "a.js"), []byte("var a = {};\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, _, stderr := runCmd(t, "", "instrument", in, "-o", out, "--no-cache", "--collector", "ws://10.0.0.2:8080/?token=abc")
	require.EqualValues(t, 0, code, stderr)
	page, err := os.ReadFile(filepath.Join(out, "app", "index.html"))
	require.NoError(t, err)
	require.Contains(t, string(page), `globalThis.__memtraceConfig={"collector":"ws://10.0.0.2:8080/?token=abc"}`)
	_, err = os.Stat(filepath.Join(out, "__memtrace__", "shim.js"))
	require.NoError(t, err)

	require.NoError(t, os.WriteFile(filepath.Join(in, "package.json"), []byte("{}\n"), 0o644))
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(dir, "out2"), "--no-cache", "--collector", "ws://10.0.0.2:8080/")
	require.EqualValues(t, 2, code)
	require.Contains(t, stderr, "add --web")
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(dir, "out3"), "--no-cache", "--web")
	require.EqualValues(t, 0, code, stderr)
	_, err = os.Stat(filepath.Join(dir, "out3", "__memtrace__", "shim.js"))
	require.NoError(t, err)
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(dir, "out4"), "--web", "--node")
	require.EqualValues(t, 2, code, stderr)
	code, _, stderr = runCmd(t, "", "instrument", in, "-o", filepath.Join(dir, "out5"), "--web", "--collector", "ftp://x/")
	require.EqualValues(t, 2, code, stderr)
	require.Contains(t, stderr, "not a websocket address")
}
