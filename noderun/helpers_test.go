package noderun_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// runDifferential writes prog as NAME (a CommonJS file) into a fresh
// directory, runs it with plain node and under memtrace node, requires the
// same standard output and exit status 0 from both, and a trace that
// passes every rule; it returns the trace and its check report.
func runDifferential(t *testing.T, name, prog string) ([]byte, *trace.Report) {
	t.Helper()
	needNode(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(prog), 0o644))
	plain := exec.Command("node", name)
	plain.Dir = dir
	want, err := plain.Output()
	require.NoError(t, err)

	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{Script: name, OutDir: filepath.Join(dir, "out"),
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	require.Equal(t, string(want), stdout.String())

	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%v", rep.Findings)
	return data, rep
}

// memtraceNode runs script in dir under memtrace node (with node's own
// options nodeArgs and the environment additions env), requires exit
// status 0, and returns its standard output and error and its trace
// directory.
func memtraceNode(t *testing.T, dir, script string, env []string, nodeArgs ...string) (string, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "out")
	code, err := noderun.Run(noderun.Options{Script: script, OutDir: out, NodeArgs: nodeArgs, Env: env,
		Memtrace: memtracebin.Path(t), Shim: runtimeshim.Source(), Dir: dir, Stdout: &stdout, Stderr: &stderr})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	return stdout.String(), stderr.String(), out
}

// plainThenTraced runs script in dir with plain node, then under memtrace
// node, both with node's options nodeArgs: both must succeed, plain
// node's standard output must be want (the behaviour the test is about,
// pinned), and memtrace node's the same. It returns memtrace node's
// standard error and trace directory.
func plainThenTraced(t *testing.T, dir, script, want string, nodeArgs ...string) (string, string) {
	t.Helper()
	plain := exec.Command("node", append(append([]string{}, nodeArgs...), script)...)
	plain.Dir = dir
	var plainErr bytes.Buffer
	plain.Stderr = &plainErr
	got, err := plain.Output()
	require.NoError(t, err, "%s", plainErr.String())
	require.Equal(t, want, string(got), "plain node")
	got2, stderr, out := memtraceNode(t, dir, script, nil, nodeArgs...)
	require.Equal(t, want, got2, "memtrace node: %s", stderr)
	return stderr, out
}

// runAhead instruments the tree dir ahead of time (memtrace instrument
// DIR) and runs script of the copy with plain node, its trace going to the
// copy's mem-trace (env: more variables); it requires success and returns
// the standard output and error and the trace's path.
func runAhead(t *testing.T, dir, script string, env ...string) (string, string, string) {
	t.Helper()
	inst := filepath.Join(t.TempDir(), "inst")
	b, err := exec.Command(memtracebin.Path(t), "instrument", dir, "-o", inst, "--no-cache", "-q").CombinedOutput()
	require.NoError(t, err, "%s", b)
	run := exec.Command("node", script)
	run.Dir = inst
	run.Env = append(append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(inst, "mem-trace")), env...)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	got, err := run.Output()
	require.NoError(t, err, "%s", stderr.String())
	return string(got), stderr.String(), filepath.Join(inst, "mem-trace")
}

// cleanTrace is checkTrace (every rule, the lifetime engine reads it)
// with no warning either (no activation left open).
func cleanTrace(t *testing.T, path string) []byte {
	t.Helper()
	data := checkTrace(t, path)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.Zero(t, rep.Warnings, "%v", rep.Findings)
	return data
}
