// Package serve is memtrace serve: a static web app (a built dist/
// directory, MemInsight's browser tests) served with its pages and
// scripts instrumented as they are served, the browser shim and the
// collector on the same origin under /__memtrace__/. A page's trace goes
// to the collector as a session of its own. Files are opened under the
// app's directory without following a link (a request never reaches
// outside it), and nothing of memtrace's own traffic is traced.
package serve

import (
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
	"time"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/instrument/htmlpage"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/web"
)

// Where pages fetch memtrace's own (package web).
const (
	ShimPath       = web.ShimPath
	ConfigPath     = web.ConfigPath
	InstrumentPath = web.InstrumentPath
)

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
	o   Options
	rw  *web.Rewriter
	dir *safefs.Dir
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
	s := &Server{o: o, dir: d}
	s.rw, err = web.New(web.Options{Collector: o.Collector, DebugFun: o.DebugFun, AllUses: o.AllUses, AllPutFields: o.AllPutFields,
		Log: o.Log, CollectURL: o.CollectURL, Source: s.source, Resolve: localPath, Integrity: s.integrity})
	if err != nil {
		d.Close()
		return nil, err
	}
	return s, nil
}

// Close releases the directory.
func (s *Server) Close() error { return s.dir.Close() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	if web.Owns(r) {
		s.rw.ServeHTTP(w, r)
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
		w.Write(s.rw.Page(name, b, "").HTML)
	case ".js", ".mjs", ".cjs":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		goal := js.Script
		// A module script's request is a CORS one (Sec-Fetch-Mode: cors);
		// a classic script's is not.
		if ext == ".mjs" || r.Header.Get("Sec-Fetch-Mode") == "cors" && r.Header.Get("Sec-Fetch-Dest") == "script" && !s.rw.Classic(rel) {
			goal = js.Module
		}
		dest := r.Header.Get("Sec-Fetch-Dest")
		worker := dest == "worker" || dest == "sharedworker"
		code, err := s.rw.Script(b, goal, name)
		if worker && err != nil && goal == js.Script {
			// A worker's request does not say whether it is a module:
			// its text does.
			if mcode, merr := s.rw.Script(b, js.Module, name); merr == nil {
				code, err, goal = mcode, nil, js.Module
			}
		}
		if worker && err == nil {
			code = s.rw.Worker(goal, code)
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

// integrity is the integrity value of a script of the app that a page
// (named page) loads, for the bytes served for it.
func (s *Server) integrity(page, ref string, module bool, old string) (string, error) {
	rel, ok := localPath(page, ref)
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
	code, err := s.rw.Script(b, goal, "/"+rel)
	if err != nil {
		return "", nil // served as it is
	}
	return htmlpage.IntegrityOf(old, code), nil
}

// source is the original text of a file of the app a session enters,
// by its path; nil when unknown.
func (s *Server) source(name string) []byte {
	if !strings.HasPrefix(name, "/") || strings.Contains(name, "#") {
		return nil // eval code, another origin's, an inline one not kept
	}
	b, err := s.dir.ReadFile(strings.TrimPrefix(path.Clean(name), "/"))
	if err != nil {
		return nil
	}
	return b
}

// localPath resolves a page's (name: its path) reference ref to a path
// relative to the app's root, when it names one of this origin's.
func localPath(name, ref string) (string, bool) {
	if pu, err := url.Parse(name); err == nil && pu.IsAbs() {
		name = pu.Path // a page's location, as its shim gives it
	}
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
