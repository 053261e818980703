package noderun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// Child, Uninstrumented and UninstrumentedFile: package tracedir.
type (
	Child          = tracedir.Child
	Uninstrumented = tracedir.Uninstrumented
)

const UninstrumentedFile = tracedir.UninstrumentedFile

// readUninstrumented reads such a file (none: nothing ran uninstrumented),
// each module once.
func readUninstrumented(path string) []Uninstrumented {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []Uninstrumented
	seen := map[string]bool{}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var u Uninstrumented
		if json.Unmarshal(line, &u) != nil || u.Module == "" || seen[u.Module] {
			continue
		}
		seen[u.Module] = true
		out = append(out, u)
	}
	return out
}

// withUninstrumented is a process's status and reason given the modules
// that ran uninstrumented: a trace without them is a trace of part of
// the program, not a complete one.
func withUninstrumented(status, reason string, us []Uninstrumented) (string, string) {
	if len(us) == 0 {
		return status, reason
	}
	what := fmt.Sprintf("%d modules ran uninstrumented (their objects are not in the trace), the first %s: %s", len(us), us[0].Module, us[0].Reason)
	if len(us) == 1 {
		what = fmt.Sprintf("a module ran uninstrumented (its objects are not in the trace): %s: %s", us[0].Module, us[0].Reason)
	}
	if status == "complete" {
		return "incomplete", what
	}
	return status, reason + "; " + what
}

const reasonNoExit = "no exit was recorded (still running, or killed)"

// collectChildren reads DIR/children: what each child's preload recorded
// (process.json when it started, exit.json when it exited), how its parent
// saw it end (children/.exits/<pid>.json, for children started with the
// asynchronous child_process functions), and checks each trace.
func collectChildren(dir string) []Child {
	base := filepath.Join(dir, tracedir.ChildrenDir)
	ents, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	type numbered struct {
		n int
		c Child
	}
	var all []numbered
	for _, e := range ents {
		nStr, _, ok := strings.Cut(e.Name(), "-")
		n, err := strconv.Atoi(nStr)
		if !e.IsDir() || !ok || err != nil {
			continue
		}
		cdir := filepath.Join(base, e.Name())
		var c Child
		c.Trace = filepath.ToSlash(filepath.Join(tracedir.ChildrenDir, e.Name(), tracedir.TraceFile))
		c.ExitCode = -1
		if data, err := os.ReadFile(filepath.Join(cdir, "process.json")); err == nil {
			var p struct {
				Pid       int      `json:"pid"`
				ThreadID  int      `json:"threadId"`
				ParentPid int      `json:"parentPid"`
				Argv      []string `json:"argv"`
				ExecArgv  []string `json:"execArgv"`
				Cwd       string   `json:"cwd"`
				Start     string   `json:"start"`
			}
			if json.Unmarshal(data, &p) == nil {
				c.Pid, c.ThreadID, c.ParentPid, c.Argv, c.ExecArgv, c.Cwd = p.Pid, p.ThreadID, p.ParentPid, p.Argv, p.ExecArgv, p.Cwd
				c.Start, _ = time.Parse(time.RFC3339Nano, p.Start)
			}
		}
		exited := false
		if data, err := os.ReadFile(filepath.Join(cdir, "exit.json")); err == nil {
			var x struct {
				Code int    `json:"code"`
				End  string `json:"end"`
			}
			if json.Unmarshal(data, &x) == nil {
				exited = true
				c.ExitCode = x.Code
				c.End, _ = time.Parse(time.RFC3339Nano, x.End)
			}
		}
		exitRecord := strconv.Itoa(c.Pid) + ".json"
		if c.ThreadID > 0 {
			exitRecord = strconv.Itoa(c.Pid) + "-t" + strconv.Itoa(c.ThreadID) + ".json"
		}
		if data, err := os.ReadFile(filepath.Join(base, ".exits", exitRecord)); err == nil && c.Pid > 0 {
			var x struct {
				Code   *int    `json:"code"`
				Signal *string `json:"signal"`
			}
			if json.Unmarshal(data, &x) == nil {
				exited = true
				switch {
				case x.Signal != nil:
					c.Signal = *x.Signal
					c.ExitCode = -1
					if n := signalNumber(c.Signal); n > 0 {
						c.ExitCode = 128 + n
					}
				case x.Code != nil:
					c.ExitCode = *x.Code
				}
			}
		}
		killed := c.Signal
		if c.ThreadID > 0 && !workerExited(cdir) && exited {
			// Ended without its own exit (worker.terminate(), or its
			// process's exit while it ran): its trace stops where it was
			// last written.
			killed = "termination"
		}
		ts := traceState(filepath.Join(cdir, tracedir.TraceFile), killed)
		c.Status, c.Reason, c.Bytes, c.Entries = ts.status, ts.reason, ts.bytes, ts.entries
		if st, err := os.ReadFile(filepath.Join(cdir, "status.json")); err == nil && c.Status == "complete" {
			var v struct {
				Stopped string `json:"stopped"`
			}
			if json.Unmarshal(st, &v) == nil && v.Stopped != "" {
				c.Status, c.Reason = "incomplete", v.Stopped
			}
		}
		if !exited && c.ThreadID > 0 {
			// A worker without its own exit nor its thread's record: ended
			// with its process.
			ts := traceState(filepath.Join(cdir, tracedir.TraceFile), "the end of its process")
			c.Status, c.Reason, c.Bytes, c.Entries = ts.status, ts.reason, ts.bytes, ts.entries
		}
		if !exited {
			// Still running (a detached child) or killed: its trace has
			// no end yet, whatever it holds so far.
			c.Running = c.ThreadID == 0 && processAlive(c.Pid)
			c.Status = "incomplete"
			switch {
			case c.Running:
				// (What the trace holds so far may break rules: it stops
				// mid-way.)
				c.Reason = "still running when the program ended: its trace has no end yet"
			case c.Reason == "":
				c.Reason = reasonNoExit
			}
		}
		c.Uninstrumented = readUninstrumented(filepath.Join(cdir, UninstrumentedFile))
		c.Status, c.Reason = withUninstrumented(c.Status, c.Reason, c.Uninstrumented)
		all = append(all, numbered{n, c})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n < all[j].n })
	out := make([]Child, len(all))
	for i, a := range all {
		out[i] = a.c
	}
	return out
}

// traceState checks the trace a process left at path. killed names the
// signal that ended the process ("" if none): such a process wrote no final
// last-use block and may have stopped inside an entry, so its trace is
// first cut to its last whole entry (trace.Repair). It returns the status
// (complete or incomplete), the reason, and the trace's size.
func traceState(path, killed string) traceResult {
	return traceStateLive(path, killed, nil)
}

// traceResult is what traceState finds.
type traceResult struct {
	status, reason          string // complete or incomplete, and why
	bytes, entries, scripts int64  // scripts: SCRIPT_ENTERs (0: no instrumented code ran)
}

// maxFindings is the number of findings a trace's check keeps.
const maxFindings = 5

// traceStateLive is traceState with the check that followed the trace
// while it was written (nil: none), whose report it takes for a process
// that was not killed.
func traceStateLive(path, killed string, live *liveCheck) traceResult {
	status, reason := "complete", ""
	var rep *trace.Report
	if live != nil {
		if killed == "" {
			rep = live.finish(path)
		} else {
			live.abandon()
		}
	}
	var repaired trace.Repaired
	if killed != "" {
		r, err := trace.Repair(path)
		if err != nil && !os.IsNotExist(err) {
			return traceResult{status: "incomplete", reason: fmt.Sprintf("killed by %s; the trace could not be repaired: %v", killed, err)}
		}
		repaired = r
	}
	var err error
	if rep == nil {
		// The trace was written with direct I/O a moment ago: read it
		// the same way, not through the page cache (internal/directio).
		f, oerr := directio.Open(path)
		if oerr != nil {
			if killed != "" {
				return traceResult{status: "incomplete", reason: "killed by " + killed + " before any trace was written"}
			}
			return traceResult{status: "incomplete", reason: "no trace was written: " + oerr.Error()}
		}
		rep, err = trace.Check(f, maxFindings)
		f.Close()
	}
	switch {
	case err != nil:
		return traceResult{status: "incomplete", reason: err.Error()}
	case killed != "" && rep.Time < 0:
		return traceResult{status: "incomplete", reason: "killed by " + killed + " before the shim wrote its buffer (the trace holds no entry)", bytes: rep.Bytes, entries: rep.Entries}
	case !rep.OK():
		status, reason = "incomplete", fmt.Sprintf("the trace breaks %d rules; first: %s", rep.Errors, rep.Findings[0])
	case killed != "":
		status = "incomplete"
		reason = "killed by " + killed + ": the trace ends where the process last wrote it (the last second of buffered entries and the final last-use block are missing)"
		if repaired.Changed() {
			reason += "; memtrace " + repaired.String()
		}
	}
	return traceResult{status: status, reason: reason, bytes: rep.Bytes, entries: rep.Entries, scripts: rep.Scripts}
}

// workerExited reports whether the worker thread whose directory is cdir
// ran to its own exit (its preload wrote exit.json).
func workerExited(cdir string) bool {
	_, err := os.Stat(filepath.Join(cdir, "exit.json"))
	return err == nil
}
