// Package serve is memtrace serve: a static web app (a built dist/
// directory, MemInsight's browser tests) served with its pages and
// scripts instrumented as they are served, the browser shim and the
// collector on the same origin under /__memtrace__/. A page's trace goes
// to the collector as a session of its own. Files are opened under the
// app's directory without following a link (a request never reaches
// outside it), and nothing of memtrace's own traffic is traced.
package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"mime"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/htmlpage"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/ondemand"
	"github.com/memtrace/memtrace/internal/safefs"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// ShimPath is where pages load the browser shim from.
const ShimPath = collector.Prefix + "shim.js"

// ConfigPath is a module worker's configuration (a module setting
// self.__memtraceConfig), imported before the shim.
const ConfigPath = collector.Prefix + "config.js"

// InstrumentPath is the instrument service of run-time code (eval, new
// Function, string timers: docs/instrument-service.md, HTTP), which a
// page's shim calls with a synchronous request and the collector's token.
const InstrumentPath = collector.Prefix + "instrument"

// Options configure a server.
type Options struct {
	Dir       string // the app
	Collector *collector.Collector
	// DebugFun, AllUses, AllPutFields: the trace's modes.
	DebugFun              string
	AllUses, AllPutFields bool
	Log                   *log.Logger
	// CollectURL is the websocket address pages deliver their traces to
	// (default: their own origin's /__memtrace__/collect, this server's
	// collector).
	CollectURL string
}

// Server is an http.Handler.
type Server struct {
	o    Options
	inst http.Handler // the instrument service
	dir  *safefs.Dir
	mu   sync.Mutex
	memo map[[32]byte][]byte // instrumented scripts by content, goal and name
	size int
	// classic: the scripts pages load with a classic script element (a
	// crossorigin one's request is a CORS request, as a module's is).
	classic map[string]bool
	// inline: the original text of the pages' inline scripts, handlers
	// and javascript: URLs, by their names in the trace (the sessions'
	// scripts/), inlineSize their bytes (bounded).
	inline     map[string][]byte
	inlineSize int
}

// New opens the app's directory.
func New(o Options) (*Server, error) {
	d, err := safefs.Open(o.Dir)
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	inst, err := ondemand.Handler(ondemand.Options{AllUses: o.AllUses, AllPutFields: o.AllPutFields, Stderr: o.Log.Writer()}, 0)
	if err != nil {
		d.Close()
		return nil, err
	}
	s := &Server{o: o, dir: d, inst: inst, memo: map[[32]byte][]byte{}, classic: map[string]bool{}, inline: map[string][]byte{}}
	o.Collector.SetSources(s.source)
	return s, nil
}

// Close releases the directory.
func (s *Server) Close() error { return s.dir.Close() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == ShimPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, runtimeshim.BrowserSource())
		return
	case p == ConfigPath:
		// A module worker's configuration, imported before the shim.
		if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.o.Collector.Token())) != 1 {
			http.Error(w, "memtrace serve: the configuration needs the token", http.StatusUnauthorized)
			return
		}
		cj, _ := json.Marshal(s.config())
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, "self.__memtraceConfig="+string(cj)+";\n")
		return
	case p == InstrumentPath:
		// The pages' own: with the token their configuration carries.
		if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.o.Collector.Token())) != 1 {
			http.Error(w, "memtrace serve: the instrument service needs the token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Query().Get("kind") == "html" {
			s.fragment(w, r)
			return
		}
		s.inst.ServeHTTP(w, r)
		return
	case strings.HasPrefix(p, collector.Prefix), p == "/" && strings.EqualFold(r.Header.Get("Upgrade"), "websocket"):
		s.o.Collector.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "memtrace serve: GET only", http.StatusMethodNotAllowed)
		return
	}
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	if rel == "" {
		rel = "index.html"
	} else if st, err := s.dir.Lstat(rel); err == nil && st.Mode&0o170000 == 0o040000 {
		if !strings.HasSuffix(p, "/") {
			http.Redirect(w, r, p+"/", http.StatusMovedPermanently)
			return
		}
		rel = path.Join(rel, "index.html")
	}
	b, err := s.dir.ReadFile(rel)
	if err != nil {
		var le *safefs.LinkError
		switch {
		case errors.As(err, &le):
			http.Error(w, "memtrace serve: "+p+" runs through a symbolic link, which memtrace serve does not follow", http.StatusForbidden)
		case errors.Is(err, fs.ErrNotExist):
			http.NotFound(w, r)
		default:
			http.Error(w, "memtrace serve: "+err.Error(), http.StatusInternalServerError)
		}
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	name := "/" + rel
	switch ext := strings.ToLower(filepath.Ext(rel)); ext {
	case ".html", ".htm":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.page(name, b))
	case ".js", ".mjs", ".cjs":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		goal := js.Script
		// A module script's request is a CORS one (Sec-Fetch-Mode: cors);
		// a classic script's is not.
		s.mu.Lock()
		classic := s.classic[rel]
		s.mu.Unlock()
		if ext == ".mjs" || r.Header.Get("Sec-Fetch-Mode") == "cors" && r.Header.Get("Sec-Fetch-Dest") == "script" && !classic {
			goal = js.Module
		}
		dest := r.Header.Get("Sec-Fetch-Dest")
		worker := dest == "worker" || dest == "sharedworker"
		code, err := s.script(b, goal, name)
		if worker && err != nil && goal == js.Script {
			// A worker's request does not say whether it is a module:
			// its text does.
			if mcode, merr := s.script(b, js.Module, name); merr == nil {
				code, err, goal = mcode, nil, js.Module
			}
		}
		if worker && err == nil {
			code = s.workerPrelude(goal, code)
		}
		if err != nil {
			s.o.Log.Printf("%s: served as it is: %v", name, err)
			w.Header().Set("Warning", fmt.Sprintf("199 memtrace %q", "not instrumented: "+firstLine(err.Error())))
			w.Write(b)
			return
		}
		w.Write(code)
	default:
		if t := mime.TypeByExtension(ext); t != "" {
			w.Header().Set("Content-Type", t)
		}
		http.ServeContent(w, r, rel, time.Time{}, strings.NewReader(string(b)))
	}
}

// page rewrites a page: the configuration and the shim first in <head>,
// its inline scripts instrumented.
func (s *Server) page(name string, b []byte) []byte {
	cj, _ := json.Marshal(s.config())
	return s.rewrite(name, b, htmlpage.Head(cj, ShimPath))
}

// rewrite rewrites HTML b (a page named name, with head; or, head nil,
// what a page of its writes with document.write): its scripts, handlers
// and javascript: URLs instrumented, integrity and CSP adjusted.
func (s *Server) rewrite(name string, b, head []byte) []byte {
	base := name
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	for _, ref := range htmlpage.Scripts(b) {
		if rel, ok := localPath(base, ref.Src); ok && !ref.Module {
			s.mu.Lock()
			s.classic[rel] = true
			s.mu.Unlock()
		}
	}
	connect := []string{"'self'"}
	if u, err := url.Parse(s.o.CollectURL); err == nil && u.Host != "" {
		connect = append(connect, u.Scheme+"://"+u.Host)
	}
	res := htmlpage.Rewrite(b, htmlpage.Options{Head: head, Name: name, Connect: connect,
		Instrument: func(src []byte, goal js.Goal, name string, line, col int) ([]byte, error) {
			s.keepInline(name, src)
			return s.scriptAt(src, goal, name, line, col)
		},
		Handler: func(src []byte, name string, line, col int) ([]byte, error) {
			s.keepInline(name, src)
			return s.scriptAt(src, js.CommonJS, name, line, col)
		},
		URLCode: func(src []byte, name string, line, col int) ([]byte, error) {
			s.keepInline(name, src)
			return s.code(src, instrument.Options{Goal: js.Script, Eval: true, GlobalCode: true, File: name, Line: line, Col: col})
		},
		// A script of this server's, with an integrity attribute: its
		// value for the bytes served.
		Integrity: func(ref string, module bool, old string) (string, error) {
			rel, ok := localPath(base, ref)
			if !ok {
				return "", nil
			}
			b, err := s.dir.ReadFile(rel)
			if err != nil {
				return "", nil // not served from here: left as it is
			}
			goal := js.Script
			if module || strings.EqualFold(path.Ext(rel), ".mjs") {
				goal = js.Module
			}
			code, err := s.script(b, goal, "/"+rel)
			if err != nil {
				return "", nil // served as it is
			}
			return htmlpage.IntegrityOf(old, code), nil
		}})
	for _, f := range res.Failures {
		s.o.Log.Printf("%v: left as it is", f)
	}
	return res.HTML
}

// fragment answers a page's document.write: the HTML it writes (the
// body, UTF-8), named by the query's name (PAGEPATH#write-N), rewritten
// as a page's is, without the head.
func (s *Server) fragment(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	name := r.URL.Query().Get("name")
	if !strings.HasPrefix(name, "/") || !strings.Contains(name, "#") {
		http.Error(w, "memtrace serve: a fragment is named PAGEPATH#write-N", http.StatusBadRequest)
		return
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<20))
	if err != nil {
		http.Error(w, "memtrace serve: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(s.rewrite(name, b, nil))
}

// source is the original text of a script a session enters, for its
// scripts/: a file of the app by its path, or a page's inline script,
// handler or javascript: URL by its name; nil when unknown.
func (s *Server) source(name string) []byte {
	if strings.Contains(name, "#") {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.inline[name]
	}
	if !strings.HasPrefix(name, "/") {
		return nil // eval code, another origin's
	}
	b, err := s.dir.ReadFile(strings.TrimPrefix(path.Clean(name), "/"))
	if err != nil {
		return nil
	}
	return b
}

// keepInline remembers an inline text's original (source).
func (s *Server) keepInline(name string, src []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inlineSize+len(src) > 64<<20 {
		s.inline, s.inlineSize = map[string][]byte{}, 0
	}
	if old, ok := s.inline[name]; ok {
		s.inlineSize -= len(old)
	}
	s.inline[name] = append([]byte(nil), src...)
	s.inlineSize += len(src)
}

// workerPrelude puts in front of a worker's instrumented script what
// loads the browser shim into the worker first (a worker has no page to
// do it), with the worker's configuration, on the first line so that the
// script keeps its line numbers: importScripts for a classic worker,
// imports of the configuration and the shim for a module worker.
func (s *Server) workerPrelude(goal js.Goal, code []byte) []byte {
	var pre string
	if goal == js.Module {
		pre = `import "` + ConfigPath + `?token=` + url.QueryEscape(s.o.Collector.Token()) + `";import "` + ShimPath + `";`
	} else {
		cj, _ := json.Marshal(s.config())
		pre = `if(!self.__mt){self.__memtraceConfig=` + string(cj) + `;importScripts("` + ShimPath + `");}`
	}
	return append([]byte(pre), code...)
}

// config is a page's (or worker's) configuration.
func (s *Server) config() map[string]any {
	cfg := map[string]any{"token": s.o.Collector.Token(), "instrument": InstrumentPath + "?token=" + url.QueryEscape(s.o.Collector.Token())}
	if s.o.CollectURL != "" {
		cfg["collector"] = s.o.CollectURL
	}
	if s.o.DebugFun != "" {
		cfg["debugFun"] = s.o.DebugFun
	}
	if s.o.AllUses {
		cfg["allUses"] = true
	}
	if s.o.AllPutFields {
		cfg["allPutFields"] = true
	}
	return cfg
}

// script instruments a script (memoised by content, goal and name).
func (s *Server) script(src []byte, goal js.Goal, name string) ([]byte, error) {
	return s.scriptAt(src, goal, name, 1, 1)
}

// scriptAt is script for a text that starts at line:col of its file (a
// CommonJS goal: an event handler attribute's function body).
func (s *Server) scriptAt(src []byte, goal js.Goal, name string, line, col int) ([]byte, error) {
	return s.code(src, instrument.Options{Goal: goal, File: name, Line: line, Col: col})
}

// code instruments src with o and the server's modes, memoised.
func (s *Server) code(src []byte, o instrument.Options) ([]byte, error) {
	o.DebugFun, o.AllUses, o.AllPutFields = s.o.DebugFun, s.o.AllUses, s.o.AllPutFields
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%d:%d\x00%v%v\x00", o.Goal, o.File, o.Line, o.Col, o.Eval, o.GlobalCode)
	h.Write(src)
	var key [32]byte
	copy(key[:], h.Sum(nil))
	s.mu.Lock()
	if c, ok := s.memo[key]; ok {
		s.mu.Unlock()
		return c, nil
	}
	s.mu.Unlock()
	res, err := instrument.Instrument(src, o)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.size > 256<<20 {
		s.memo, s.size = map[[32]byte][]byte{}, 0
	}
	s.memo[key] = res.Code
	s.size += len(res.Code)
	s.mu.Unlock()
	return res.Code, nil
}

// localPath resolves a page's (name: its path) reference ref to a path
// relative to the app's root, when it names one of this origin's.
func localPath(name, ref string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if !strings.HasPrefix(p, "/") {
		p = path.Join(path.Dir(name), p)
	}
	rel := strings.TrimPrefix(path.Clean("/"+p), "/")
	return rel, rel != "" && rel != "."
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
