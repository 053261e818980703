package noderun

import (
	"io"
	"os"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/trace"
)

// liveCheck checks the main trace while the program runs, following the
// file as the shim writes it (directio.Follow), so that the check's time
// (about a second per GB) overlaps the run's instead of following it:
// handlebars' workload of the bench (a 2.6 GB trace, two cores), four
// alternating runs, wall time 13.1-13.8 s → 11.6-12.2 s, CPU time
// 13.0-13.6 s → 13.3-13.9 s (the two threads share the caches). The
// children's traces are checked after their processes, as before.
type liveCheck struct {
	ended  chan struct{}
	r      io.Closer
	result chan liveResult
}

type liveResult struct {
	rep *trace.Report
	err error
}

// probeBytes: the shim probes direct I/O with one block at the start of
// its file, which it cuts away before any entry (runtime shim, openDirect).
const probeBytes = 4096

func startLiveCheck(path string) *liveCheck {
	l := &liveCheck{ended: make(chan struct{}), result: make(chan liveResult, 1)}
	r := directio.Follow(path, l.ended, probeBytes)
	l.r = r
	go func() {
		rep, err := trace.Check(r, maxFindings)
		r.Close()
		l.result <- liveResult{rep, err}
	}()
	return l
}

// finish tells the check that the program has ended and returns its report
// of the whole trace at path; nil when the trace must be checked again
// from the start: the check failed, or the file is not what it read (the
// shim cut it back after a failed write).
func (l *liveCheck) finish(path string) *trace.Report {
	close(l.ended)
	res := <-l.result
	if res.err != nil {
		return nil
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != res.rep.Bytes {
		return nil
	}
	return res.rep
}

// abandon stops the check (a killed program's trace is repaired first,
// then checked again).
func (l *liveCheck) abandon() {
	close(l.ended)
	l.r.Close()
	<-l.result
}
