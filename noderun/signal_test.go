//go:build linux

package noderun_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// TestSignalKillsBusyProgram: SIGINT ends an instrumented program that is
// busy in JavaScript at once, as it ends the original (the shim listens to
// no signal, which would defer it until the loop yields and let the
// program run on); the trace is cut to its last whole entry, passes every
// rule, and session.json says why it is incomplete.
func TestSignalKillsBusyProgram(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	dir := t.TempDir()
	prog := `
const objs = [];
console.log("started");
const end = Date.now() + 20000;
while (Date.now() < end) { objs.push({ n: objs.length }); if (objs.length > 1000) objs.length = 0; }
console.log("ran to the end");
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "busy.js"), []byte(prog), 0o644))
	var stdout, stderr bytes.Buffer
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	done := make(chan int)
	go func() {
		code, err := noderun.Run(noderun.Options{
			Script: "busy.js", OutDir: filepath.Join(dir, "out"), Memtrace: bin, Shim: runtimeshim.Source(), Dir: dir,
			Stdout: pw, Stderr: &stderr,
		})
		assert.NoError(t, err)
		pw.Close()
		done <- code
	}()
	// Wait for the program to start its loop, then interrupt it.
	buf := make([]byte, 64)
	n, _ := pr.Read(buf)
	stdout.Write(buf[:n])
	require.Equal(t, "started\n", stdout.String())
	time.Sleep(500 * time.Millisecond)
	pids := nodePids(t, "busy.js")
	require.NotEmpty(t, pids)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGINT)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not end the program (deferred until its loop ends?)")
	}
	rest := make([]byte, 4096)
	for {
		n, err := pr.Read(rest)
		stdout.Write(rest[:n])
		if err != nil {
			break
		}
	}
	assert.Equal(t, 130, code)
	assert.NotContains(t, stdout.String(), "ran to the end")

	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 5)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%v", rep.Findings)
	var sess noderun.Session
	js, err := os.ReadFile(filepath.Join(dir, "out", "session.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &sess))
	assert.Equal(t, "incomplete", sess.Status)
	assert.True(t, strings.HasPrefix(sess.Reason, "killed by SIGINT"), sess.Reason)
	assert.Equal(t, rep.Bytes, sess.Bytes)
}

// nodePids lists the node processes whose command line mentions name.
func nodePids(t *testing.T, name string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var pids []int
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(cmd), "\x00")
		if len(args) > 1 && strings.HasSuffix(args[0], "node") && strings.Contains(string(cmd), name) {
			pids = append(pids, pid)
		}
	}
	return pids
}
