//go:build unix

package noderun

import (
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

func signalOf(e *exec.ExitError) int {
	if ws, ok := e.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

// signalNumber is the number of the signal Node names name ("SIGTERM").
func signalNumber(name string) int {
	return int(unix.SignalNum(name))
}

// processAlive: a process with this pid exists.
func processAlive(pid int) bool {
	return pid > 0 && unix.Kill(pid, 0) == nil
}

// signalName is the name Node gives signal n ("SIGTERM").
func signalName(n int) string {
	if name := unix.SignalName(syscall.Signal(n)); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", n)
}
