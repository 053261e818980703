package main

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadMarksOtherProcesses: a figure measured while another process
// keeps a core busy is marked as measured under load (the spinner's CPU
// is not the child's, which sleeps).
func TestLoadMarksOtherProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/stat")
	}
	_, _, ok := cpuStat()
	require.True(t, ok, "/proc/stat unreadable")
	// The spinner is no child of this process: measureRuns waits for
	// every child it has (the descendants a command leaves behind).
	out, err := exec.Command("sh", "-c", "(while :; do :; done) >/dev/null 2>&1 & echo $!").Output()
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	require.NoError(t, err)
	defer syscall.Kill(pid, syscall.SIGKILL)
	res, err := measureRuns("sleep", "/proc/self/stat", false, 1, func() *exec.Cmd {
		return exec.Command("sleep", "1")
	})
	require.NoError(t, err)
	assert.Less(t, res.cpu.Seconds(), 0.2, "sleep used CPU")
	assert.GreaterOrEqual(t, res.busy.other, 0.5, "the spinner's core")
	assert.True(t, res.busy.loaded())
	assert.Contains(t, res.busy.String(), "measured under load: other processes")
}
