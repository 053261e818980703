//go:build linux

package noderun_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
)

// TestHelperRace: memtrace node's helpers leave 1 ms after each answer
// while modules are required 0-3 ms apart, so modules keep arriving as
// helpers leave; every module is still instrumented (in the trace) and the
// program prints as under node. Fails (the run hangs until the deadline)
// when the preload posts without claiming the helper.
func TestHelperRace(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	files := map[string]string{"main.js": `'use strict';
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let s = 0;
for (let i = 0; i < 30; i++) { s += require('./m' + i + '.js').v; pause(i % 4); }
console.log(s);
`}
	var names []string
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("m%d.js", i)
		files[name] = fmt.Sprintf("exports.v = [%d].length * %d;\n", i, i)
		names = append(names, name)
	}
	writeFiles(t, dir, files)
	want, code := plainRun(t, dir, "main.js")
	require.Equal(t, 0, code)
	require.Equal(t, "435\n", want)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "node", "-q", "--out", filepath.Join(dir, "out"), "main.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MEMTRACE_HELPER_IDLE_MS=1")
	// At the deadline the whole process group goes (node holds the pipes).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	require.NoError(t, cmd.Run(), "deadline: %v\n%s", ctx.Err(), stderr.String())
	assert.Equal(t, want, out.String())
	assert.Empty(t, stderr.String())
	data := checkTrace(t, filepath.Join(dir, "out", "mem-trace"))
	slices.Sort(names)
	assert.Equal(t, append(names, "main.js"), scriptNames(t, data))
}
