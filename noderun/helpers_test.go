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
