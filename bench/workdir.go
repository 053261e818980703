package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Work directories. The overhead group's traces take tens of GB
// (EarleyBoyer's about 42 GB), and a run that was stopped used to leave
// them behind: the next run then failed with a full disk. Every directory
// the bench makes records its owner (ownerFile: the process id and its
// start time, so that a reused pid is not mistaken for the owner); a run
// stopped by SIGINT, SIGTERM or SIGHUP kills the command it measures and
// removes its directories before it exits, and each run first removes the
// directories of owners that are gone (killed outright, a crash, a
// restart).

const ownerFile = ".memtrace-bench-owner"

// workPrefixes are the names (MkdirTemp patterns, up to the random part)
// of the directories the bench makes, and so the ones it may sweep.
var workPrefixes = []string{"octane-", "memtrace-project-", "memtrace-bench-staleness-"}

var work struct {
	sync.Mutex
	dirs    map[string]bool
	cmd     *exec.Cmd // the command being measured, if any
	stopped bool
}

// makeWorkDir is os.MkdirTemp(base, pattern) for a directory that carries
// its owner and that a signal removes.
func makeWorkDir(base, pattern string) (string, error) {
	dir, err := os.MkdirTemp(base, pattern)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(ownerID(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	work.Lock()
	defer work.Unlock()
	if work.dirs == nil {
		work.dirs = map[string]bool{}
	}
	work.dirs[dir] = true
	return dir, nil
}

// dropWorkDir removes a directory made by makeWorkDir.
func dropWorkDir(dir string) {
	work.Lock()
	delete(work.dirs, dir)
	work.Unlock()
	os.RemoveAll(dir)
}

// ownerID is "pid start" for process pid: its start time in clock ticks
// since boot (/proc/pid/stat, field 22), "" when the process is gone.
func ownerID(pid int) string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(b)
	k := strings.LastIndexByte(s, ')')
	if k < 0 {
		return ""
	}
	f := strings.Fields(s[k+1:])
	if len(f) < 20 {
		return ""
	}
	return strconv.Itoa(pid) + " " + f[19]
}

// ownerGone reports whether the owner recorded in dir (its first line) has
// exited: its pid runs no process, or a process that started at another
// time. group is the process group of the command it was measuring when
// it last started one (its second line, 0 if none), when that group's
// leader still runs: the command of a bench killed outright runs on.
func ownerGone(dir string) (gone, known bool, group int) {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		return false, false, 0
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	pid := recordPid(lines[0])
	if pid == 0 {
		return false, false, 0
	}
	if ownerID(pid) == lines[0] {
		return false, true, 0
	}
	if len(lines) > 1 {
		if g := recordPid(lines[1]); g != 0 && ownerID(g) == lines[1] {
			group = g
		}
	}
	return true, true, group
}

// recordPid is the pid of an ownerID record, 0 if it is not one.
func recordPid(rec string) int {
	f := strings.Fields(rec)
	if len(f) != 2 {
		return 0
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return 0
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		return 0
	}
	return pid
}

// sweepAll sweeps every directory the bench makes its work directories in.
func sweepAll() {
	bases := []string{os.TempDir(), projectBase()}
	if *flagDir != "" {
		bases = append(bases, *flagDir)
	} else {
		bases = append(bases, filepath.Join(os.TempDir(), "memtrace-bench"))
	}
	seen := map[string]bool{}
	for _, b := range bases {
		if !seen[b] {
			seen[b] = true
			sweepWorkDirs(b)
		}
	}
}

// sweepWorkDirs removes the bench's directories under base whose owner is
// gone, saying so; directories without an owner record (made by a bench
// from before the record) are left, and reported with their size.
func sweepWorkDirs(base string) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !hasWorkPrefix(e.Name()) {
			continue
		}
		dir := filepath.Join(base, e.Name())
		gone, known, group := ownerGone(dir)
		switch {
		case known && gone:
			if group != 0 {
				syscall.Kill(-group, syscall.SIGKILL)
				fmt.Fprintf(os.Stderr, "bench: killed process group %d, still running for a run that was stopped\n", group)
				for i := 0; i < 100 && syscall.Kill(-group, 0) == nil; i++ {
					time.Sleep(50 * time.Millisecond)
				}
			}
			size := dirSize(dir)
			if err := os.RemoveAll(dir); err != nil {
				fmt.Fprintf(os.Stderr, "bench: cannot remove %s, left by a run that was stopped: %v\n", dir, err)
				continue
			}
			fmt.Fprintf(os.Stderr, "bench: removed %s (%.1f MB), left by a run that was stopped\n", dir, float64(size)/1e6)
		case !known:
			if size := dirSize(dir); size > 1<<30 {
				fmt.Fprintf(os.Stderr, "bench: %s (%.1f GB) has no owner record (a bench from before the record, or not the bench's): left as it is; remove it if no bench is running\n", dir, float64(size)/1e9)
			}
		}
	}
}

func hasWorkPrefix(name string) bool {
	for _, p := range workPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	return n
}

// runTracked runs cmd as cmd.Run does, as the command a signal kills. Every
// command the bench runs goes through it: one left running after the bench
// exits would write into directories already removed (a project job
// recreates its output directory, without an owner record). When a signal
// stops the bench meanwhile, it does not return (see doneMeasured).
func runTracked(cmd *exec.Cmd) error {
	started, err := startMeasured(cmd)
	if !started {
		select {} // stopping: the signal handler exits
	}
	if err != nil {
		return err
	}
	err = cmd.Wait()
	doneMeasured(cmd)
	return err
}

// trackedOutput is cmd.Output through runTracked (standard error goes
// where cmd.Stderr says).
func trackedOutput(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	err := runTracked(cmd)
	return out.Bytes(), err
}

// trackedCombinedOutput is cmd.CombinedOutput through runTracked.
func trackedCombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := runTracked(cmd)
	return out.Bytes(), err
}

// startMeasured starts cmd in a process group of its own, as the command
// a signal kills (with everything it started) before the bench exits.
// It returns false when the bench is stopping: cmd was not started.
func startMeasured(cmd *exec.Cmd) (bool, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	work.Lock()
	defer work.Unlock()
	if work.stopped {
		return false, nil
	}
	if err := cmd.Start(); err != nil {
		return true, err
	}
	work.cmd = cmd
	// The owner records rewritten with the command's process group, which
	// a later run kills if this one dies without a signal it can handle.
	rec := ownerID(os.Getpid()) + "\n" + ownerID(cmd.Process.Pid) + "\n"
	for d := range work.dirs {
		os.WriteFile(filepath.Join(d, ownerFile), []byte(rec), 0o644)
	}
	return true, nil
}

// doneMeasured forgets the measured command once it has been waited for.
// When a signal is stopping the bench (which is why the command ended), it
// does not return: the handler removes the directories and exits.
func doneMeasured(cmd *exec.Cmd) {
	work.Lock()
	if work.cmd == cmd {
		work.cmd = nil
	}
	stopping := work.stopped
	work.Unlock()
	if stopping {
		select {}
	}
}

// handleSignals makes SIGINT, SIGTERM and SIGHUP stop the bench: the
// measured command's process group is killed, the work directories are
// removed, and the bench exits with 128 + the signal's number.
func handleSignals() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-ch
		stopWork(sig.(syscall.Signal))
	}()
}

func stopWork(sig syscall.Signal) {
	work.Lock()
	work.stopped = true
	cmd := work.cmd
	dirs := make([]string, 0, len(work.dirs))
	for d := range work.dirs {
		dirs = append(dirs, d)
	}
	work.Unlock()
	if cmd != nil && cmd.Process != nil {
		// The group's files close as its processes exit: wait for that (a
		// few seconds at most), so that removing them frees their space.
		pg := -cmd.Process.Pid
		syscall.Kill(pg, syscall.SIGKILL)
		for i := 0; i < 100 && syscall.Kill(pg, 0) == nil; i++ {
			time.Sleep(50 * time.Millisecond)
		}
	}
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	fmt.Fprintf(os.Stderr, "bench: stopped by %v; removed %d work directories\n", sig, len(dirs))
	os.Exit(128 + int(sig))
}
