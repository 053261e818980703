package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// TestTraceStopLeavesFigureOut: an instrumented run whose trace file
// refuses bytes (/dev/full) runs on untraced after the shim ends its
// trace; the overhead group reads the shim's reason from MEMTRACE_STATUS
// and leaves that run's figure out, where a trace stopped at the format's
// logical-time limit keeps its (understated, marked) figure.
func TestTraceStopLeavesFigureOut(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testcorpus.Missing(t, "node not found")
	}
	dir := t.TempDir()
	shim := filepath.Join(dir, "shim.js")
	require.NoError(t, os.WriteFile(shim, []byte(runtimeshim.Source()), 0o644))
	src := "var a = [];\nfor (var i = 0; i < 100000; i++) a.push({ i: i });\nconsole.log('made ' + a.length);\n"
	res, err := instrument.Instrument([]byte(src), instrument.Options{Goal: js.Script, File: "prog.js"})
	require.NoError(t, err)
	prog := filepath.Join(dir, "prog.js")
	require.NoError(t, os.WriteFile(prog, res.Code, 0o644))

	status := filepath.Join(dir, "status.json")
	session := filepath.Join(dir, "session.json")
	runTo := func(out string) string {
		os.Remove(status)
		cmd := exec.Command(node, "-r", shim, prog)
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out, "MEMTRACE_STATUS="+status)
		stdout, err := cmd.Output()
		require.NoError(t, err)
		require.Equal(t, "made 100000\n", string(stdout))
		return traceStop(status, session)
	}

	stop := runTo("/dev/full")
	assert.Contains(t, stop, "ENOSPC")
	assert.Equal(t, stop, cutShort(stop, 1000), "a write failure leaves the figure out")

	stop = runTo(filepath.Join(dir, "mem-trace"))
	assert.Equal(t, "", stop, "a whole trace")
	assert.Equal(t, "", cutShort(stop, 1000))

	// The time limit, as the shim words it: the figure stays.
	limit := "the trace reached the format's logical-time limit (2146435072 entries); the rest of the run was not traced"
	assert.Equal(t, "", cutShort(limit, 2146435072))
	assert.Equal(t, limit, cutShort(limit, 1000), "a stop short of the limit is no time limit")

	// Under memtrace node the reason is in session.json.
	os.Remove(status)
	b, err := json.Marshal(map[string]any{"status": "incomplete", "reason": "writing the trace failed (EFBIG: file too large, write)"})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(session, b, 0o644))
	assert.True(t, strings.HasPrefix(traceStop(status, session), "writing the trace failed"))
	require.NoError(t, os.WriteFile(session, []byte(`{"status": "complete"}`), 0o644))
	assert.Equal(t, "", traceStop(status, session))
}
