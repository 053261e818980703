// Package ondemand is the instrument-on-demand service: code that a
// program makes or loads while it runs (modules memtrace node's preload
// and loader hooks meet, eval and new Function code, code given to Node's
// vm module) is instrumented by one long-lived server instead of a
// memtrace process per text. The protocol (docs/instrument-service.md):
// each request is a JSON header line (Request) followed by Len bytes of
// source; each answer a JSON header line (Response) with the request's id
// followed by Len bytes of instrumented code, or an error (the code then
// runs as it is). Served over a byte stream (standard input and output:
// Serve), over two FIFOs for the shim's synchronous bridge (ServeFIFO),
// and over HTTP, one request per POST (Handler: the proxy mounts it for a
// page's run-time code).
package ondemand

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/glob"
)

// Options configure the instrumenting server: the modes and the
// exclusion globs of the run, common to every request.
type Options struct {
	AllUses, AllPutFields bool
	Exclude               []string
	// SlowAfter is how long a request may take before the server names
	// its module on Stderr ("memtrace: instrumenting app.js (5.8 MB) is
	// taking a while..."), once per name; zero means SlowNotice.
	SlowAfter time.Duration
	// Stderr receives those notices; nil means os.Stderr (the program's
	// standard error: memtrace node's client lets the server inherit it).
	Stderr io.Writer
}

// SlowNotice is how long the instrument server takes over a module before
// it says so: a program whose start seems to hang in a large module
// (dart-sass, one 5.8 MB file) is then seen to be waiting for memtrace.
const SlowNotice = time.Second

// slowNotes names, once per module name, the requests that take long.
type slowNotes struct {
	after time.Duration
	mu    sync.Mutex
	w     io.Writer
	named map[string]bool
}

// watch starts the clock of a request; the function it returns stops it.
func (s *slowNotes) watch(req *Request) (stop func() bool) {
	name, size := req.Name, req.Len
	t := time.AfterFunc(s.after, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.named[name] {
			return
		}
		s.named[name] = true
		what := "instrumenting"
		if req.PosMap {
			what = "mapping the stack positions of"
		}
		fmt.Fprintf(s.w, "memtrace: %s %s (%s) is taking a while...\n", what, name, sizeText(size))
	})
	return t.Stop
}

// sizeText gives a size in bytes for people: "5.8 MB", "340 KB", "12 bytes".
func sizeText(n int) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " MB"
	case n >= 1e3:
		return strconv.Itoa(n/1e3) + " KB"
	}
	return strconv.Itoa(n) + " bytes"
}

// Request is a request's header line; Len bytes of source follow it.
type Request struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`   // the script name recorded in the trace
	Goal   string `json:"goal"`   // script, module or commonjs
	Loader string `json:"loader"` // js (default), ts, tsx or jsx
	Path   string `json:"path"`   // the file (for tsconfig.json), TS/TSX/JSX only
	// Eval: run-time code (`memtrace instrument --eval`, goal script, no
	// exclusions); Strict: a strict direct eval's (--strict-code).
	Eval   bool `json:"eval,omitempty"`
	Strict bool `json:"strict,omitempty"`
	// Global: run-time code that runs as a script of its own (a string
	// timer: --global-code).
	Global bool `json:"global,omitempty"`
	// SitesApart: run-time code whose site table comes back in the
	// response's header, not in the code (instrument.Options.SitesApart).
	SitesApart bool `json:"sitesApart,omitempty"`
	// File: run-time code named by a file (code given to Node's vm
	// module), to which the run's exclusions apply.
	File bool `json:"file,omitempty"`
	// PosMap: answer with the position map of the code this request
	// would give (instrument.Options.PosMap), not the code: a stack trace
	// being formatted needs it (docs/instrumentation.md §4).
	PosMap bool `json:"posmap,omitempty"`
	Len    int  `json:"len"`
}

// Response is a response's header line; Len bytes of instrumented
// code follow it. With Error set, Len is 0 and the module runs as it is.
type Response struct {
	ID    int64  `json:"id"`
	Len   int    `json:"len"`
	Error string `json:"error,omitempty"`
	// Sites is the site table of a SitesApart request.
	Sites string `json:"sites,omitempty"`
}

// Serve answers instrumentation requests from r on w until r ends: the
// long-lived instrumenter of `memtrace node` (the preload and the ES
// module loader start one per thread that needs it, instead of one
// `memtrace instrument` process per module). Each request is a JSON header
// line followed by the source's bytes; the answer is a JSON header line
// with the same id followed by the instrumented code. Requests are
// instrumented in parallel (up to GOMAXPROCS at once) and answered as they
// finish, so answers may come out of order.
func Serve(r io.Reader, w io.Writer, opts Options) error {
	excl, err := glob.Excludes(opts.Exclude)
	if err != nil {
		return err
	}
	slow := newSlowNotes(opts)
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	var mu sync.Mutex // bw
	var wg sync.WaitGroup
	var werr error
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	defer wg.Wait()
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		if err != nil {
			return err
		}
		var req Request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("bad request header: %v", err)
		}
		if req.Len < 0 {
			return fmt.Errorf("bad request length %d", req.Len)
		}
		src := make([]byte, req.Len)
		if _, err := io.ReadFull(br, src); err != nil {
			return err
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			head, out := answerOne(req, src, excl, opts, slow)
			<-sem
			mu.Lock()
			defer mu.Unlock()
			if werr != nil {
				return
			}
			bw.Write(head)
			bw.WriteByte('\n')
			bw.Write(out)
			werr = bw.Flush()
		}()
	}
}

// answerOne instruments one request: the answer's header line (without its
// line feed) and code.
func answerOne(req Request, src []byte, excl *glob.List, opts Options, slow *slowNotes) (head, out []byte) {
	stop := slow.watch(&req)
	out, sites, ierr := serveOne(req, src, excl, opts)
	stop()
	resp := Response{ID: req.ID, Len: len(out), Sites: string(sites)}
	if ierr != nil {
		resp = Response{ID: req.ID, Error: ierr.Error()}
		out = nil
	}
	head, _ = json.Marshal(resp)
	return head, out
}

// newSlowNotes is the notices of opts (SlowAfter, Stderr).
func newSlowNotes(opts Options) *slowNotes {
	slow := &slowNotes{after: opts.SlowAfter, w: opts.Stderr, named: map[string]bool{}}
	if slow.after <= 0 {
		slow.after = SlowNotice
	}
	if slow.w == nil {
		slow.w = os.Stderr
	}
	return slow
}

// serveDelay, if not nil, runs before each request (the tests' slow
// modules).
var serveDelay func(*Request)

// serveOne instruments one module as `memtrace instrument --no-shim` would.
func serveOne(req Request, src []byte, excl *glob.List, opts Options) (out, sites []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, sites, err = nil, nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	if serveDelay != nil {
		serveDelay(&req)
	}
	if req.PosMap {
		// The map of the code, or of none when the code is given back as
		// it is (an exclusion).
		code, _, err := serveCode(req, src, excl, opts)
		if err != nil {
			return nil, nil, err
		}
		if code.PosMap == nil {
			return []byte("[]"), nil, nil
		}
		return code.PosMap, nil, nil
	}
	res, table, err := serveCode(req, src, excl, opts)
	if err != nil {
		return nil, nil, err
	}
	if res.Code == nil {
		return src, nil, nil
	}
	return res.Code, table, nil
}

// serveCode instruments one request; a Result without Code: the source
// is given back as it is.
func serveCode(req Request, src []byte, excl *glob.List, opts Options) (*instrument.Result, []byte, error) {
	if req.Eval {
		if req.File && len(opts.Exclude) > 0 && !excl.Match(req.Name) {
			return &instrument.Result{}, nil, nil
		}
		res, err := instrument.Instrument(src, instrument.Options{Goal: js.Script, File: req.Name, Eval: true,
			Strict: req.Strict, GlobalCode: req.Eval && req.Global, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields,
			SitesApart: req.SitesApart, PosMap: req.PosMap})
		if err != nil {
			return nil, nil, err
		}
		return res, res.SiteTable, nil
	}
	if len(opts.Exclude) > 0 && !excl.Match(req.Name) {
		return &instrument.Result{}, nil, nil
	}
	var goal js.Goal
	switch req.Goal {
	case "script":
		goal = js.Script
	case "module":
		goal = js.Module
	case "commonjs", "":
		goal = js.CommonJS
	default:
		return nil, nil, fmt.Errorf("unknown goal %q", req.Goal)
	}
	loader := instrument.JS
	if req.Loader != "" {
		l, ok := instrument.ParseLoader(req.Loader)
		if !ok {
			return nil, nil, fmt.Errorf("unknown loader %q", req.Loader)
		}
		loader = l
	}
	var tsconfig string
	if loader != instrument.JS && req.Path != "" {
		_, tsconfig = instrument.FindTsconfig(req.Path)
	}
	res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: req.Name, Loader: loader,
		Tsconfig: tsconfig, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, PosMap: req.PosMap})
	if err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}
