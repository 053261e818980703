//go:build unix

package ondemand

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// The shim's channel to an instrument-server for run-time code
// (runtime-shim/src/node/bridge.js, docs/instrumentation.md §6): two FIFOs in a
// private directory, which the program's main thread writes and reads
// with blocking system calls, as Node compiles eval code synchronously.
// LaunchFIFO makes them and starts the server, ServeFIFO is the server.

// FIFO names in the directory: requests (the shim writes) and answers
// (the server writes).
const (
	fifoRequests = "req"
	fifoAnswers  = "ans"
)

// fifoOpenWait is how long the server waits for the shim to open its ends.
const fifoOpenWait = 30 * time.Second

// LaunchFIFO makes the two FIFOs in dir, which must be a directory of this
// user's that no one else can enter (the shim's mkdtemp), and starts
// `self instrument-server --fifo-serve dir` with args in a session of its
// own, which it does not wait for: the shim's execFileSync returns once
// the server runs, and the server ends when the program closes its ends
// (however the program ends) or after idle without a request.
func LaunchFIFO(self, dir string, idle time.Duration, args []string) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() || st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s: not a private directory", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("%s: not this user's", dir)
	}
	var made []string // removed again if the server does not start
	undo := func() {
		for _, n := range made {
			os.Remove(n)
		}
	}
	for _, n := range []string{filepath.Join(dir, fifoRequests), filepath.Join(dir, fifoAnswers)} {
		if err := syscall.Mkfifo(n, 0o600); err != nil {
			undo()
			return fmt.Errorf("mkfifo %s: %w", n, err)
		}
		made = append(made, n)
	}
	cmd := exec.Command(self, append([]string{"instrument-server", "--fifo-serve", dir,
		"--idle-ms", strconv.FormatInt(idle.Milliseconds(), 10)}, args...)...)
	// Standard streams to /dev/null: none of the launcher's pipes stays
	// open in the server (execFileSync waits for them to close).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		undo()
		return err
	}
	return cmd.Process.Release()
}

// ServeFIFO answers requests as Serve does on the FIFOs LaunchFIFO made in
// dir: it opens the request FIFO for reading, then the answer FIFO for
// writing (each open waits for the shim's end, at most fifoOpenWait), and
// serves until the shim closes its end or, with idle > 0, no byte of a
// request has come for idle since the first. Whatever is left of dir is removed (the
// shim unlinks the FIFOs once both ends are open).
func ServeFIFO(dir string, idle time.Duration, opts Options) error {
	defer removeFIFOs(dir)
	r, err := openFIFO(filepath.Join(dir, fifoRequests), os.O_RDONLY)
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := openFIFO(filepath.Join(dir, fifoAnswers), os.O_WRONLY)
	if err != nil {
		return err
	}
	defer w.Close()
	var in io.Reader = r
	if idle > 0 {
		in = &idleReader{f: r, idle: idle}
	}
	err = Serve(in, w, opts)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil // idle: the shim starts another server for its next string
	}
	return err
}

// openFIFO opens a FIFO, which waits for its other end; an end that does
// not come within fifoOpenWait is an error (the goroutine stays blocked
// in open until the process exits).
func openFIFO(path string, flag int) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.OpenFile(path, flag, 0)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-time.After(fifoOpenWait):
		return nil, fmt.Errorf("%s: its other end was not opened within %v", path, fifoOpenWait)
	}
}

// idleReader reads f with a deadline of idle from each read after the
// first byte (FIFOs are pollable: os.ErrDeadlineExceeded when it passes).
// The first request has no deadline: the shim starts a server for the
// string it sends next, and a server that left before it came (a program
// slow to get there on a loaded machine) had the shim start another, which
// could leave the same way, until the shim gave up on servers; a program
// that ends before sending closes its end, and the read ends.
type idleReader struct {
	f       *os.File
	idle    time.Duration
	started bool
}

func (r *idleReader) Read(p []byte) (int, error) {
	if r.started {
		r.f.SetReadDeadline(time.Now().Add(r.idle)) // not pollable: no limit
	}
	n, err := r.f.Read(p)
	if n > 0 {
		r.started = true
	}
	return n, err
}

// removeFIFOs removes the two FIFOs of dir, whatever else is named so
// there stays, and dir if it is then empty.
func removeFIFOs(dir string) {
	for _, n := range []string{fifoRequests, fifoAnswers} {
		p := filepath.Join(dir, n)
		if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeNamedPipe != 0 {
			os.Remove(p)
		}
	}
	os.Remove(dir)
}
