package noderun

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent makes the process cmd starts end (SIGKILL) when the
// thread that starts it ends, so that node does not run on, reparented
// and still growing its trace, when memtrace node is killed (a later
// `memtrace trace repair` finishes the directory). The parent-death signal
// is tied to the starting thread, not the process: the caller runs Start
// and Wait with its goroutine locked to its thread, which Go then never
// ends while memtrace lives. It returns the unlock.
func dieWithParent(cmd *exec.Cmd) (unlock func()) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
