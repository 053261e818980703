// Package tracedir is the trace directory: what one recording leaves on
// disk, whoever made it (memtrace node, memtrace demo, and later the
// collector and the proxy). A directory holds
//
//	mem-trace          the trace (MemInsight's binary format)
//	session.json       what ran and how it ended (Session, SchemaVersion)
//	children/<n>-...   the trace directory of each process it started
//	scripts/           the original source of each script (WriteScripts)
//	.memtrace-trace    the mark: memtrace made this directory
//	.memtrace-lock     locked by the run that writes it
//
// Everything is written through internal/safefs: no link planted in the
// directory is followed, and session.json is whole or absent.
package tracedir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/internal/safefs"
)

// The names of a trace directory's files.
const (
	TraceFile   = "mem-trace"
	SessionFile = "session.json"
	ChildrenDir = "children"
	ScriptsDir  = "scripts"
	// MarkFile marks a trace directory that memtrace made (or found
	// empty): a later run may write it again.
	MarkFile = ".memtrace-trace"
	// LockFile is locked by the run writing the directory (flock: it goes
	// with its process, however that ends).
	LockFile = ".memtrace-lock"
	// UninstrumentedFile is where a process's preload and loader hooks
	// record the modules that ran uninstrumented, one JSON line each.
	UninstrumentedFile = "uninstrumented.jsonl"
)

// SchemaVersion is the version of session.json's layout, in its "schema"
// field: a reader refuses a session of a later version (ReadSession). A
// file without the field is of version 1.
const SchemaVersion = 1

// Session is session.json.
type Session struct {
	Schema      int      `json:"schema"`
	Tool        string   `json:"tool"`
	Version     string   `json:"memtraceVersion"`
	ShimVersion string   `json:"shimVersion"`
	Kind        string   `json:"kind"` // "node"
	Script      string   `json:"script"`
	Args        []string `json:"args"`
	// Cwd is the program's working directory, which the trace's relative
	// script names are relative to.
	Cwd      string    `json:"cwd,omitempty"`
	NodeArgs []string  `json:"nodeArgs,omitempty"` // node's own options
	Start    time.Time `json:"start"`
	End      time.Time `json:"end"`
	ExitCode int       `json:"exitCode"`
	Status   string    `json:"status"`           // complete or incomplete
	Reason   string    `json:"reason,omitempty"` // why incomplete
	Bytes    int64     `json:"bytes"`
	Entries  int64     `json:"entries"`
	// The options the trace was recorded with.
	DebugFun     string   `json:"debugFun,omitempty"`
	AllUses      bool     `json:"allUses"`
	AllPutFields bool     `json:"allPutFields"`
	Compact      bool     `json:"compact"`
	Exclude      []string `json:"exclude,omitempty"`
	// Children are the node processes the program started (and their
	// children), each with a trace of its own, in the order they started.
	Children []Child `json:"children,omitempty"`
	// Uninstrumented lists the modules of the main process that ran
	// uninstrumented, and why (then the status is incomplete).
	Uninstrumented []Uninstrumented `json:"uninstrumented,omitempty"`
	// Scripts is the number of original sources kept in scripts/.
	Scripts int `json:"scripts,omitempty"`

	// Collector is the session's name at the collector a run of memtrace
	// node --collector streamed its trace to.
	Collector string `json:"collector,omitempty"`

	// A session the collector received (docs/protocol.md).
	Protocol    string `json:"protocol,omitempty"` // "memtrace" or "meminsight"
	URL         string `json:"url,omitempty"`      // a page's
	UserAgent   string `json:"userAgent,omitempty"`
	NodeVersion string `json:"nodeVersion,omitempty"`
	PID         int    `json:"pid,omitempty"`
	Format      string `json:"format,omitempty"`
	Remote      string `json:"remote,omitempty"` // the client's address
	Origin      string `json:"origin,omitempty"` // a browser's Origin header
	// Parent is, for a frame's page, the session of the page that holds
	// the frame (a same-origin iframe), when the collector has it.
	Parent string `json:"parent,omitempty"`
	// EndReason is what the client said when it ended (exit, pagehide,
	// key, stop); empty when it did not end.
	EndReason string     `json:"endReason,omitempty"`
	Received  *Received  `json:"received,omitempty"`
	Violation *Violation `json:"violation,omitempty"`
	Dropped   *Dropped   `json:"dropped,omitempty"`
	Engine    *Engine    `json:"engine,omitempty"`
}

// Statuses of a session. A collector's session is StatusStreaming (its
// client connected) or StatusWaiting (its client gone, maybe coming
// back) until it ends.
const (
	StatusComplete   = "complete"
	StatusIncomplete = "incomplete"
	StatusStreaming  = "streaming"
	StatusWaiting    = "waiting"
)

// Received is what the collector received of a session's chunks.
type Received struct {
	Chunks  int64 `json:"chunks"`  // sequence numbers 0 .. Chunks-1
	LastSeq int64 `json:"lastSeq"` // Chunks-1; -1 for none
	Resumes int   `json:"resumes"` // reconnections that resumed it
}

// Violation is the first broken rule of the trace format in a session's
// bytes: the trace holds every byte before Offset.
type Violation struct {
	Index   int64  `json:"index"`
	Offset  int64  `json:"offset"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Dropped is what a client could not deliver (docs/protocol.md, End).
type Dropped struct {
	FromSeq  int64  `json:"fromSeq"`
	FromByte int64  `json:"fromByte"`
	Chunks   int64  `json:"chunks"`
	Bytes    int64  `json:"bytes"`
	Why      string `json:"why"`
}

// Engine is what an engine the collector ran on the session did.
type Engine struct {
	Kind   string `json:"kind"`             // "builtin" or the command
	Status string `json:"status"`           // running, done, failed
	Error  string `json:"error,omitempty"`  // why it failed
	Output string `json:"output,omitempty"` // its file in the directory
}

// Child is a node process of the session other than the main one: one
// entry of session.json's children. Each has its own trace (a trace is one
// heap), in DIR/children/<n>-<pid>/mem-trace, n counting the session's
// node processes in the order they started.
type Child struct {
	Pid int `json:"pid"`
	// ThreadID is, for a worker thread of the program (a trace of its own
	// in DIR/children/<n>-<pid>-t<threadId>), its threadId; Pid is then its
	// process's, and ParentPid too.
	ThreadID  int       `json:"threadId,omitempty"`
	ParentPid int       `json:"parentPid"` // the traced process that started it
	Argv      []string  `json:"argv"`      // process.argv
	ExecArgv  []string  `json:"execArgv,omitempty"`
	Cwd       string    `json:"cwd,omitempty"`
	Start     time.Time `json:"start"`
	End       time.Time `json:"end,omitzero"`
	Trace     string    `json:"trace"` // relative to the trace directory
	// ExitCode is the process's exit status; Signal, when a signal ended
	// it (then ExitCode is 128 + its number where known, else -1).
	ExitCode int    `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
	Status   string `json:"status"` // complete or incomplete
	Reason   string `json:"reason,omitempty"`
	Bytes    int64  `json:"bytes"`
	Entries  int64  `json:"entries"`
	// Running: no exit was recorded and the process was still alive when
	// the main process ended (its trace is then unfinished).
	Running bool `json:"running,omitempty"`
	// Uninstrumented lists the modules that ran uninstrumented.
	Uninstrumented []Uninstrumented `json:"uninstrumented,omitempty"`
}

// Uninstrumented is a module that ran uninstrumented, and why: its
// objects are not in the trace.
type Uninstrumented struct {
	Module string `json:"module"`
	Reason string `json:"reason"`
}

// WriteSession writes session.json under d whole or not at all (a fresh
// temporary file renamed into place: a link there is replaced), with the
// schema version.
func WriteSession(d *safefs.Dir, s *Session) error {
	s.Schema = SchemaVersion
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	return d.WriteFile(SessionFile, buf.Bytes(), 0o644)
}

// ErrNoSession: the directory has no session.json.
var ErrNoSession = errors.New("no " + SessionFile)

// ReadSession reads dir's session.json: an error wrapping ErrNoSession
// when it has none, one naming the file when it cannot be read or is of a
// later schema than this memtrace knows.
func ReadSession(dir string) (*Session, error) {
	b, err := os.ReadFile(filepath.Join(dir, SessionFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, ErrNoSession)
	}
	if err != nil {
		return nil, err
	}
	return ParseSession(filepath.Join(dir, SessionFile), b)
}

// ParseSession decodes the text of a session.json (named name in errors).
func ParseSession(name string, b []byte) (*Session, error) {
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if s.Schema == 0 {
		s.Schema = 1
	}
	if s.Schema > SchemaVersion {
		return nil, fmt.Errorf("%s: schema %d, newer than this memtrace reads (%d): use a newer memtrace", name, s.Schema, SchemaVersion)
	}
	return &s, nil
}

// Claim opens the trace directory dir for a run: a directory that does not
// exist or is empty becomes memtrace's (MarkFile), one marked so is taken
// again, and any other is refused, naming a file in the way (an
// *safefs.InTheWayError): memtrace never removes or overwrites files it
// did not write. A directory that an older memtrace node wrote
// (mem-trace, session.json of a memtrace session, children/, nothing
// else) is taken and marked.
func Claim(dir string) (*safefs.Dir, error) {
	const mark = "memtrace trace directory\n"
	d, err := safefs.Claim(dir, MarkFile, mark)
	var w *safefs.InTheWayError
	if !errors.As(err, &w) || !IsOlder(dir) {
		return d, err
	}
	if d, err = safefs.Open(dir); err != nil {
		return nil, err
	}
	if err := d.WriteFile(MarkFile, []byte(mark), 0o644); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// IsOlder reports whether dir holds only what an older memtrace node wrote
// before trace directories were marked.
func IsOlder(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	sess := false
	for _, e := range ents {
		switch e.Name() {
		case TraceFile, ChildrenDir, LockFile:
		case SessionFile:
			b, err := os.ReadFile(filepath.Join(dir, SessionFile))
			var s Session
			sess = err == nil && e.Type().IsRegular() && json.Unmarshal(b, &s) == nil && s.Tool == "memtrace" && s.Kind == "node"
			if !sess {
				return false
			}
		default:
			return false
		}
	}
	return sess
}

// IsTraceDir reports whether dir is a trace directory memtrace made.
func IsTraceDir(dir string) bool {
	if fi, err := os.Lstat(filepath.Join(dir, MarkFile)); err == nil && fi.Mode().IsRegular() {
		return true
	}
	return IsOlder(dir)
}

// Input is an opened TRACE argument.
type Input struct {
	Name string    // the path read, or "<stdin>"
	R    io.Reader // the trace's bytes
	// Dir is the trace directory the argument named ("" for a file or
	// standard input).
	Dir  string
	File bool  // a regular file (Size is its size)
	Size int64 // bytes, for a regular file
	c    io.Closer
}

// Close closes the input (not standard input).
func (in *Input) Close() error {
	if in.c != nil {
		return in.c.Close()
	}
	return nil
}

// sessionsIn lists the subdirectories of dir that are trace directories
// (they hold a mem-trace), in name order.
func sessionsIn(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			if fi, err := os.Stat(filepath.Join(dir, e.Name(), TraceFile)); err == nil && fi.Mode().IsRegular() {
				names = append(names, e.Name())
			}
		}
	}
	return names
}

// Open opens a TRACE argument: "-" is stdin, a directory means its
// mem-trace file, anything else a trace file. A regular file is read with
// direct I/O where the file system takes it (internal/directio): the shim
// writes traces with direct I/O, so a trace is seldom in the page cache,
// and reading it through the cache cost more system time than the reading
// took user time (a 2.6 GB trace just written: trace check 2.3 s user and
// 4.7 s system; 2.9 s and 0.45 s with direct I/O).
func Open(arg string, stdin io.Reader) (*Input, error) {
	if arg == "-" {
		return &Input{Name: "<stdin>", R: stdin}, nil
	}
	path, dir := arg, ""
	if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
		path, dir = filepath.Join(arg, TraceFile), arg
	}
	fi, err := os.Stat(path)
	if err != nil {
		if dir != "" && errors.Is(err, fs.ErrNotExist) {
			if names := sessionsIn(dir); len(names) > 0 {
				return nil, fmt.Errorf("%s holds no %s but %d trace directories (a collector's or proxy's output): name one, such as %s", dir, TraceFile, len(names), filepath.Join(dir, names[0]))
			}
		}
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		return &Input{Name: path, R: f, Dir: dir, c: f}, nil
	}
	f, err := directio.Open(path)
	if err != nil {
		return nil, err
	}
	return &Input{Name: path, R: f, Dir: dir, File: true, Size: fi.Size(), c: f}, nil
}
