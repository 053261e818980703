package main

import (
	"bufio"
	"errors"
	"fmt"
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
)

// TestMain runs holdWorkDir when the test binary is re-executed as the
// helper of TestSignalRemovesWorkDirs.
func TestMain(m *testing.M) {
	if base := os.Getenv("MEMTRACE_BENCH_HOLD"); base != "" {
		holdWorkDir(base)
		return
	}
	code := m.Run()
	memtracebin.Cleanup()
	os.Exit(code)
}

// holdWorkDir does what the overhead group does, with a long-running
// measured command: a work directory with a file in it, and a command run
// as every command of the bench runs (runTracked). It prints the
// directory and the command's pid, then waits for the command.
func holdWorkDir(base string) {
	handleSignals()
	dir, err := makeWorkDir(base, "octane-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := os.WriteFile(filepath.Join(dir, "mem-trace"), make([]byte, 1<<20), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// The measured command prints its own pid and sleeps: runTracked, as
	// every command of the bench runs.
	cmd := exec.Command("sh", "-c", "echo $$; exec sleep 60")
	cmd.Stdout = &pidLine{dir: dir}
	runTracked(cmd)
	os.Exit(0)
}

// startHolder starts holdWorkDir in a process of its own and returns it,
// its work directory and its measured command's pid.
func startHolder(t *testing.T, base string) (*exec.Cmd, string, int) {
	self, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEMTRACE_BENCH_HOLD="+base)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	f := strings.Fields(line)
	require.Len(t, f, 2, "helper said %q", line)
	dir := f[0]
	pid, err := strconv.Atoi(f[1])
	require.NoError(t, err)
	require.DirExists(t, dir)
	require.True(t, alive(pid), "the measured command runs")
	return cmd, dir, pid
}

// pidLine prints "dir pid" once the measured command has said its pid and
// the owner record names its process group: the command may say its pid
// before startMeasured has written the record, and a test that killed the
// holder then would find no group to kill.
type pidLine struct{ dir string }

func (p *pidLine) Write(b []byte) (int, error) {
	for i := 0; i < 1000; i++ {
		rec, err := os.ReadFile(filepath.Join(p.dir, ownerFile))
		if err == nil && strings.Count(string(rec), "\n") >= 2 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Printf("%s %s\n", p.dir, strings.TrimSpace(string(b)))
	return len(b), nil
}

// TestSignalRemovesWorkDirs: a bench stopped by SIGTERM kills the command
// it measures and removes its work directory, exiting with 143.
func TestSignalRemovesWorkDirs(t *testing.T) {
	cmd, dir, pid := startHolder(t, t.TempDir())
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "exit status: %v", err)
	assert.Equal(t, 128+int(syscall.SIGTERM), ee.ExitCode())
	assert.NoDirExists(t, dir, "the work directory is removed")
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.False(t, alive(pid), "the measured command is killed")
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	s := string(b)
	k := strings.LastIndexByte(s, ')')
	return k >= 0 && len(s) > k+2 && s[k+2] != 'Z'
}

// TestSweepRemovesStaleWorkDirs: a run removes the work directories whose
// owner has exited (its pid gone, or reused by a process that started at
// another time), and leaves its own, those of a running owner, those
// without an owner record and directories that are not the bench's.
func TestSweepRemovesStaleWorkDirs(t *testing.T) {
	base := t.TempDir()
	own, err := makeWorkDir(base, "octane-")
	require.NoError(t, err)
	t.Cleanup(func() { dropWorkDir(own) })

	done := exec.Command("true")
	require.NoError(t, done.Run())
	deadPid := done.Process.Pid
	mine := ownerID(os.Getpid())
	require.NotEmpty(t, mine)
	parent := ownerID(os.Getppid())
	require.NotEmpty(t, parent)

	mk := func(name, owner string) string {
		d := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Join(d, "sub"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "sub", "mem-trace"), []byte("x"), 0o644))
		if owner != "" {
			require.NoError(t, os.WriteFile(filepath.Join(d, ownerFile), []byte(owner), 0o644))
		}
		return d
	}
	gone := mk("octane-gone", fmt.Sprintf("%d 12345", deadPid))
	reused := mk("memtrace-project-reused", fmt.Sprintf("%d 1", os.Getpid())) // this pid, another start
	staleness := mk("memtrace-bench-staleness-1", fmt.Sprintf("%d 12345", deadPid))
	running := mk("octane-running", parent)
	noOwner := mk("octane-old", "")
	other := mk("something-else", fmt.Sprintf("%d 12345", deadPid))
	garbled := mk("octane-garbled", "not a record")

	sweepWorkDirs(base)

	assert.NoDirExists(t, gone)
	assert.NoDirExists(t, reused)
	assert.NoDirExists(t, staleness)
	assert.DirExists(t, own)
	assert.DirExists(t, running)
	assert.DirExists(t, noOwner)
	assert.DirExists(t, other)
	assert.DirExists(t, garbled)
	assert.FileExists(t, filepath.Join(own, ownerFile))
	b, err := os.ReadFile(filepath.Join(own, ownerFile))
	require.NoError(t, err)
	assert.Equal(t, mine, string(b))
}

// TestSweepKillsOrphanedCommand: a bench killed outright (SIGKILL) leaves
// its work directory and its measured command running; the next run's
// sweep kills the command's process group and removes the directory.
func TestSweepKillsOrphanedCommand(t *testing.T) {
	base := t.TempDir()
	cmd, dir, pid := startHolder(t, base)
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	require.DirExists(t, dir)
	require.True(t, alive(pid), "the measured command outlives its bench")

	sweepWorkDirs(base)
	assert.NoDirExists(t, dir)
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	assert.False(t, alive(pid), "the sweep kills it")
}
