//go:build unix

package noderun

import (
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
