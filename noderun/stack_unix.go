//go:build unix

package noderun

import "syscall"

// stackLimitKB is the soft limit of this process's stack in KiB, which
// node inherits (0: none, or unknown).
func stackLimitKB() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_STACK, &rl); err != nil || rl.Cur >= 1<<62 {
		return 0
	}
	return int(rl.Cur / 1024)
}
