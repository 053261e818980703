//go:build !unix

package noderun

import (
	"fmt"
	"os/exec"
)

func signalOf(e *exec.ExitError) int { return 0 }

// signalNumber: signal names have no numbers here.
func signalNumber(name string) int { return 0 }

// processAlive: not known here; a child without an exit record counts as
// ended.
func processAlive(pid int) bool { return false }

func signalName(n int) string { return fmt.Sprintf("signal %d", n) }
