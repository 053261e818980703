package noderun_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
