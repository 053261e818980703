package noderun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/tracedir"
)

// RepairResult says what Repair found and did.
type RepairResult struct {
	// Finished: the directory had its session.json already (the run
	// ended); nothing was changed.
	Finished bool
	Session  Session
}

// Repair finishes a trace directory whose memtrace node was killed before
// it wrote session.json (its node ended with it, dieWithParent, and may
// have stopped inside an entry): the trace is cut to its last whole entry
// (trace.Repair) and checked, each child's likewise, and session.json is
// written with status incomplete and why. A directory that a live run is
// writing is refused (*safefs.LockedError); one with a session.json is
// left as it is.
func Repair(dir string) (RepairResult, error) {
	d, err := safefs.Open(dir)
	if err != nil {
		return RepairResult{}, err
	}
	defer d.Close()
	if !d.Exists(MarkFile) && !tracedir.IsOlder(dir) {
		return RepairResult{}, fmt.Errorf("%s is not a trace directory of memtrace node (no %s)", dir, MarkFile)
	}
	lock, err := d.TryLock(LockFile)
	if err != nil {
		return RepairResult{}, err
	}
	defer lock.Unlock()
	if s, err := tracedir.ReadSession(dir); err == nil {
		return RepairResult{Finished: true, Session: *s}, nil
	} else if !errors.Is(err, tracedir.ErrNoSession) {
		return RepairResult{}, err
	}
	out := filepath.Join(dir, tracedir.TraceFile)
	sess := Session{Tool: "memtrace", Kind: "node", ExitCode: -1}
	if fi, err := os.Lstat(out); err == nil {
		sess.End = fi.ModTime().UTC()
	} else {
		sess.End = time.Now().UTC()
	}
	ts := traceState(out, "SIGKILL (memtrace node was killed, and node with it)")
	sess.Bytes, sess.Entries = ts.bytes, ts.entries
	sess.Status, sess.Reason = "incomplete", ts.reason+"; session.json written by memtrace trace repair"
	sess.Children = collectChildren(dir)
	if err := tracedir.WriteSession(d, &sess); err != nil {
		return RepairResult{}, err
	}
	return RepairResult{Session: sess}, nil
}
