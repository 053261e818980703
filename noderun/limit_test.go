package noderun_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// TestTimeLimit: a run whose trace reaches the logical-time limit (2^31 in
// the format; lowered here through MEMTRACE_TIME_LIMIT) stops tracing with
// a complete final last-use block, runs to its end unchanged, and records
// why in session.json.
func TestTimeLimit(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	prog := `
let keep = [];
let sum = 0;
for (let i = 0; i < 20000; i++) {
  const o = { i, next: null };
  if (i % 100 === 0) keep.push(o);
  sum += o.i;
}
console.log("sum", sum, keep.length);
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "loop.js"), []byte(prog), 0o644))
	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{
		Script: "loop.js", OutDir: filepath.Join(dir, "out"), Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir,
		Stdout: &stdout, Stderr: &stderr, Env: []string{"MEMTRACE_TIME_LIMIT=30000"},
	})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, "sum 199990000 200\n", stdout.String())
	assert.Contains(t, stderr.String(), "logical-time limit")

	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "trace check: %v", rep.Findings)
	// Stopped at the first periodic block at or after the limit.
	assert.GreaterOrEqual(t, rep.Entries, int64(30000))
	assert.Less(t, rep.Entries, int64(60000))
	// The last entry closes the final last-use block.
	assert.Equal(t, byte(trace.EndLastUse), data[len(data)-1])
	err = lifetime.Analyze(bytes.NewReader(data), lifetime.Options{}, nil)
	require.NoError(t, err)

	var sess noderun.Session
	js, err := os.ReadFile(filepath.Join(dir, "out", "session.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &sess))
	assert.Equal(t, "incomplete", sess.Status)
	assert.Contains(t, sess.Reason, "logical-time limit")
}

// TestTimeLimitMemory: after the trace stops at its limit, the program
// runs on with its hooks, and the shim's last-use table must not grow
// with every object used from then on (it once did, 24x the plain
// program's memory on Octane's EarleyBoyer).
func TestTimeLimitMemory(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	prog := `
let sum = 0;
for (let round = 0; round < 20; round++) {
  const objs = [];
  for (let i = 0; i < 50000; i++) objs.push({ i });
  for (const o of objs) sum += o.i;
}
const mu = process.memoryUsage();
console.log(sum, Math.round((mu.arrayBuffers) / 1048576));
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "many.js"), []byte(prog), 0o644))
	var stdout, stderr bytes.Buffer
	code, err := noderun.Run(noderun.Options{
		Script: "many.js", OutDir: filepath.Join(dir, "out"), Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir,
		Stdout: &stdout, Stderr: &stderr, Env: []string{"MEMTRACE_TIME_LIMIT=20000"},
	})
	require.NoError(t, err)
	require.Equal(t, 0, code, stderr.String())
	var sum, abMB int
	_, err = fmt.Sscan(stdout.String(), &sum, &abMB)
	require.NoError(t, err, stdout.String())
	assert.Equal(t, 20*(50000*49999/2), sum)
	// A table of a million ids would be 12 MB of typed arrays; the shim's
	// own buffer is 1 MB.
	assert.Less(t, abMB, 4, "typed-array memory after the stop: %d MB", abMB)
}
