// Package web is what memtrace gives a browser, whoever serves the app:
// memtrace serve from a directory, the proxy from the app's own server.
// A Rewriter rewrites pages (instrument/htmlpage: the configuration and
// the shim first in <head>, inline scripts, handlers and javascript:
// URLs instrumented, integrity and CSP adjusted) and scripts (classic,
// module, worker), keeps the originals for the sessions' scripts/, and
// serves what pages fetch under /__memtrace__/: the browser shim, a
// module worker's configuration, the instrument service of run-time code,
// and the collector. Each page's configuration carries a fresh page token
// (collector.PageToken), which opens sessions and the instrument service
// and nothing else.
package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

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
// page's shim calls with a synchronous request and its page token.
const InstrumentPath = collector.Prefix + "instrument"

// Options configure a Rewriter.
type Options struct {
	Collector *collector.Collector
	// DebugFun, AllUses, AllPutFields: the trace's modes.
	DebugFun              string
	AllUses, AllPutFields bool
	Log                   *log.Logger
	// CollectURL is the websocket address pages deliver their traces to
	// (default: their own origin's /__memtrace__/collect).
	CollectURL string
	// Source gives the original text of a script by its name in the
	// trace when the Rewriter has not kept it (KeepSource): memtrace
	// serve's files. Nil: none.
	Source func(name string) []byte
	// Resolve maps a script reference of a page (named page) to the key
	// under which the Rewriter remembers how pages load it (Classic):
	// false when the script is not one of the server's.
	Resolve func(page, ref string) (key string, ok bool)
	// Integrity gives the integrity value of a script a page loads for
	// the bytes served for it ("": left as it is): htmlpage's.
	Integrity func(page, ref string, module bool, old string) (string, error)
	// CacheDir keeps instrumented code on disk by a digest of the
	// source, the options and memtrace's build (made private; "": in
	// memory only).
	CacheDir string
	// Finish, when set, is a last pass over instrumented code, memoised
	// and cached with it (the proxy's: the code written in ASCII).
	Finish func(code []byte) []byte
}

// Rewriter is safe for concurrent use.
type Rewriter struct {
	o     Options
	inst  http.Handler // the instrument service
	cache *safefs.Dir  // nil: none
	build string       // memtrace's build, in the cache's keys
	// endKey is what a page posts its workers as it goes away, so that
	// their traces end (the same in every page and worker it serves).
	endKey string
	mu     sync.Mutex
	memo   map[[32]byte][]byte // instrumented code by content, goal and name
	size   int
	// flight: the instrumentations under way, which a request for the
	// same code waits for rather than doing again.
	flight map[[32]byte]*flight
	// classic: the scripts pages load with a classic script element (a
	// crossorigin one's request is a CORS request, as a module's is).
	classic map[string]bool
	// kept: original texts by their names in the trace (the sessions'
	// scripts/): inline scripts, handlers, javascript: URLs, and what
	// KeepSource keeps; keptSize their bytes (bounded).
	kept     map[string][]byte
	keptSize int
}

// New makes a Rewriter and gives the collector its sources.
func New(o Options) (*Rewriter, error) {
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	inst, err := ondemand.Handler(ondemand.Options{AllUses: o.AllUses, AllPutFields: o.AllPutFields, Stderr: o.Log.Writer()}, 0)
	if err != nil {
		return nil, err
	}
	rw := &Rewriter{o: o, inst: inst, memo: map[[32]byte][]byte{}, classic: map[string]bool{}, kept: map[string][]byte{}, flight: map[[32]byte]*flight{}, build: buildID(), endKey: o.Collector.PageToken()}
	if o.CacheDir != "" {
		// Others who could write here could put code in every page.
		if rw.cache, err = safefs.MkdirAll(o.CacheDir, 0o700); err != nil {
			return nil, err
		}
		if err := rw.cache.CheckPrivate(); err != nil {
			rw.cache.Close()
			return nil, fmt.Errorf("the cache of instrumented code: %w", err)
		}
	}
	o.Collector.SetSources(rw.source)
	return rw, nil
}

// Close releases the cache's directory.
func (rw *Rewriter) Close() error {
	if rw.cache != nil {
		return rw.cache.Close()
	}
	return nil
}

// Owns reports whether a request is one of memtrace's own (under
// /__memtrace__/, or MemInsight's websocket at /, by its subprotocol),
// which ServeHTTP answers: never an app's, never traced.
func Owns(r *http.Request) bool {
	p := r.URL.Path
	if strings.HasPrefix(p, collector.Prefix) {
		return true
	}
	if p != "/" || !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return false
	}
	for _, v := range r.Header.Values("Sec-WebSocket-Protocol") {
		for _, proto := range strings.Split(v, ",") {
			if strings.TrimSpace(proto) == collector.MemInsightSubprotocol {
				return true
			}
		}
	}
	return false
}

// ServeHTTP serves memtrace's own requests (Owns).
func (rw *Rewriter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case ShimPath:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, runtimeshim.BrowserSource())
	case ConfigPath:
		// A module worker's configuration, imported before the shim.
		t := r.URL.Query().Get("token")
		if !rw.o.Collector.SessionTokenOK(t) {
			http.Error(w, "memtrace: the configuration needs a page's token", http.StatusUnauthorized)
			return
		}
		cj, _ := json.Marshal(rw.configWith(t))
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, "self.__memtraceConfig="+string(cj)+";\n")
	case InstrumentPath:
		if !rw.o.Collector.SessionTokenOK(r.URL.Query().Get("token")) {
			http.Error(w, "memtrace: the instrument service needs a page's token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Query().Get("kind") {
		case "html":
			rw.fragment(w, r)
			return
		case "integrity":
			rw.integrity(w, r)
			return
		}
		rw.inst.ServeHTTP(w, r)
	default:
		rw.o.Collector.ServeHTTP(w, r)
	}
}

// Page is a page's rewriting: its configuration (a fresh page token) and
// the shim first in <head>, both with nonce when it is not "".
type Page struct {
	HTML   []byte
	Hashes map[string]string // the rewritten scripts' hash sources, old to new (htmlpage.Change)
	Nonce  string
}

// Page rewrites page b, named name (its path or URL, the names of its
// inline scripts), giving memtrace's script elements nonce ("": none).
func (rw *Rewriter) Page(name string, b []byte, nonce string) Page {
	cj, _ := json.Marshal(rw.Config())
	html, hashes := rw.rewrite(name, b, htmlpage.Head(cj, ShimPath, nonce))
	return Page{HTML: html, Hashes: hashes, Nonce: nonce}
}

// Connect is what the shim connects to, for a policy's connect-src.
func (rw *Rewriter) Connect() []string {
	connect := []string{"'self'"}
	if u, err := url.Parse(rw.o.CollectURL); err == nil && u.Host != "" {
		connect = append(connect, u.Scheme+"://"+u.Host)
	}
	return connect
}

// rewrite rewrites HTML b (a page named name, with head; or, head nil,
// what a page of its writes with document.write): its scripts, handlers
// and javascript: URLs instrumented, integrity and CSP adjusted.
func (rw *Rewriter) rewrite(name string, b, head []byte) ([]byte, map[string]string) {
	base := name
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	if rw.o.Resolve != nil {
		for _, ref := range htmlpage.Scripts(b) {
			if key, ok := rw.o.Resolve(base, ref.Src); ok && !ref.Module {
				rw.mu.Lock()
				rw.classic[key] = true
				rw.mu.Unlock()
			}
		}
	}
	var integrity func(ref string, module bool, old string) (string, error)
	if rw.o.Integrity != nil {
		integrity = func(ref string, module bool, old string) (string, error) {
			return rw.o.Integrity(base, ref, module, old)
		}
	}
	res := htmlpage.Rewrite(b, htmlpage.Options{Head: head, Name: name,
		Policy: htmlpage.Change{Connect: rw.Connect(), TrustedTypes: htmlpage.TrustedTypesPolicy},
		Instrument: func(src []byte, goal js.Goal, name string, line, col int) ([]byte, error) {
			rw.KeepSource(name, src)
			return rw.code(src, instrument.Options{Goal: goal, File: name, Line: line, Col: col})
		},
		Handler: func(src []byte, name string, line, col int) ([]byte, error) {
			rw.KeepSource(name, src)
			return rw.code(src, instrument.Options{Goal: js.CommonJS, File: name, Line: line, Col: col})
		},
		URLCode: func(src []byte, name string, line, col int) ([]byte, error) {
			rw.KeepSource(name, src)
			return rw.code(src, instrument.Options{Goal: js.Script, Eval: true, GlobalCode: true, File: name, Line: line, Col: col})
		},
		Integrity: integrity})
	for _, f := range res.Failures {
		rw.o.Log.Printf("%v: left as it is", f)
	}
	return res.HTML, res.Hashes
}

// fragment answers a page's document.write: the HTML it writes (the
// body, UTF-8), named by the query's name (PAGE#write-N), rewritten as a
// page's is, without the head.
func (rw *Rewriter) fragment(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	name := r.URL.Query().Get("name")
	if !strings.Contains(name, "#") {
		http.Error(w, "memtrace: a fragment is named PAGE#write-N", http.StatusBadRequest)
		return
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<20))
	if err != nil {
		http.Error(w, "memtrace: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	html, _ := rw.rewrite(name, b, nil)
	w.Write(html)
}

// integrity answers a page that inserts a script with an integrity
// value: the value for the bytes served for it ("": the page's stays).
func (rw *Rewriter) integrity(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if rw.o.Integrity == nil {
		return
	}
	module := q.Get("module") == "1"
	if rw.o.Resolve != nil && !module {
		if key, ok := rw.o.Resolve(q.Get("page"), q.Get("src")); ok {
			// A classic script (its request may be a CORS one, as a
			// module's is): served as the value was computed.
			rw.mu.Lock()
			rw.classic[key] = true
			rw.mu.Unlock()
		}
	}
	v, err := rw.o.Integrity(q.Get("page"), q.Get("src"), module, q.Get("old"))
	if err == nil {
		io.WriteString(w, v)
	}
}

// Classic reports whether a page loads the script of key (Resolve's)
// with a classic script element.
func (rw *Rewriter) Classic(key string) bool {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.classic[key]
}

// source is the original text of a script a session enters, for its
// scripts/: one kept by its name, else Options.Source's; nil when
// unknown.
func (rw *Rewriter) source(name string) []byte {
	rw.mu.Lock()
	b, ok := rw.kept[name]
	rw.mu.Unlock()
	if ok || rw.o.Source == nil {
		return b
	}
	return rw.o.Source(name)
}

// KeepSource remembers the original text of the script named name, for
// the sessions' scripts/ (bounded: past 64 MiB the oldest go).
func (rw *Rewriter) KeepSource(name string, src []byte) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.keptSize+len(src) > 64<<20 {
		rw.kept, rw.keptSize = map[string][]byte{}, 0
	}
	if old, ok := rw.kept[name]; ok {
		if bytes.Equal(old, src) {
			return // a script served again
		}
		rw.keptSize -= len(old)
	}
	rw.kept[name] = append([]byte(nil), src...)
	rw.keptSize += len(src)
}

// Worker puts in front of a worker's instrumented script what loads the
// browser shim into the worker first (a worker has no page to do it),
// with the worker's configuration, on the first line so that the script
// keeps its line numbers: importScripts for a classic worker, imports of
// the configuration and the shim for a module worker.
func (rw *Rewriter) Worker(goal js.Goal, code []byte) []byte {
	var pre string
	if goal == js.Module {
		pre = `import "` + ConfigPath + `?token=` + url.QueryEscape(rw.o.Collector.PageToken()) + `";import "` + ShimPath + `";`
	} else {
		cj, _ := json.Marshal(rw.Config())
		pre = `if(!self.__mt){self.__memtraceConfig=` + string(cj) + `;importScripts("` + ShimPath + `");}`
	}
	return append([]byte(pre), code...)
}

// Config is a page's (or worker's) configuration, with a fresh page
// token.
func (rw *Rewriter) Config() map[string]any { return rw.configWith(rw.o.Collector.PageToken()) }

func (rw *Rewriter) configWith(token string) map[string]any {
	cfg := map[string]any{"token": token, "instrument": InstrumentPath + "?token=" + url.QueryEscape(token), "endKey": rw.endKey}
	if rw.o.CollectURL != "" {
		cfg["collector"] = rw.o.CollectURL
	}
	if rw.o.DebugFun != "" {
		cfg["debugFun"] = rw.o.DebugFun
	}
	if rw.o.AllUses {
		cfg["allUses"] = true
	}
	if rw.o.AllPutFields {
		cfg["allPutFields"] = true
	}
	return cfg
}

// Script instruments a script file (goal Script or Module) named name.
func (rw *Rewriter) Script(src []byte, goal js.Goal, name string) ([]byte, error) {
	return rw.code(src, instrument.Options{Goal: goal, File: name, Line: 1, Col: 1})
}

// code instruments src with o and the trace's modes, memoised in memory
// and, with a cache directory, on disk.
func (rw *Rewriter) code(src []byte, o instrument.Options) ([]byte, error) {
	o.DebugFun, o.AllUses, o.AllPutFields = rw.o.DebugFun, rw.o.AllUses, rw.o.AllPutFields
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%v\x00%d\x00%s\x00%d:%d\x00%v%v\x00%s\x00%v%v\x00", rw.build, rw.o.Finish != nil, o.Goal, o.File, o.Line, o.Col, o.Eval, o.GlobalCode, o.DebugFun, o.AllUses, o.AllPutFields)
	h.Write(src)
	var key [32]byte
	copy(key[:], h.Sum(nil))
	rw.mu.Lock()
	if c, ok := rw.memo[key]; ok {
		rw.mu.Unlock()
		return c, nil
	}
	if f, ok := rw.flight[key]; ok {
		rw.mu.Unlock()
		<-f.done
		return f.code, f.err
	}
	f := &flight{done: make(chan struct{})}
	rw.flight[key] = f
	rw.mu.Unlock()
	f.code, f.err = rw.make(key, src, o)
	rw.mu.Lock()
	delete(rw.flight, key)
	if f.err == nil {
		if rw.size > 256<<20 {
			rw.memo, rw.size = map[[32]byte][]byte{}, 0
		}
		rw.memo[key] = f.code
		rw.size += len(f.code)
	}
	rw.mu.Unlock()
	close(f.done)
	return f.code, f.err
}

type flight struct {
	done chan struct{}
	code []byte
	err  error
}

// make instruments src (key: code's), through the disk cache.
func (rw *Rewriter) make(key [32]byte, src []byte, o instrument.Options) ([]byte, error) {
	file := hex.EncodeToString(key[:]) + ".js"
	var code []byte
	if rw.cache != nil {
		if b, err := rw.cache.ReadFile(file); err == nil && len(b) >= 32 {
			// The file ends with the digest of what precedes it: a
			// torn or altered entry is made again.
			sum := sha256.Sum256(b[:len(b)-32])
			if string(sum[:]) == string(b[len(b)-32:]) {
				code = b[:len(b)-32]
			}
		}
	}
	if code == nil {
		res, err := instrument.Instrument(src, o)
		if err != nil {
			return nil, err
		}
		code = res.Code
		if rw.o.Finish != nil {
			code = rw.o.Finish(code)
		}
		if rw.cache != nil {
			sum := sha256.Sum256(code)
			if err := rw.cache.WriteFile(file, append(append([]byte(nil), code...), sum[:]...), 0o600); err != nil {
				rw.o.Log.Printf("the instrumented code's cache: %v", err)
			}
		}
	}
	return code, nil
}

// buildID names memtrace's build: its module's version and VCS state and
// its executable's size and time, so that a rebuilt memtrace never reads
// another build's instrumented code.
func buildID() string {
	var b strings.Builder
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.WriteString(bi.Main.Version)
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				b.WriteString(" " + s.Key + "=" + s.Value)
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(filepath.Clean(exe)); err == nil {
			fmt.Fprintf(&b, " %d %d", st.Size(), st.ModTime().UnixNano())
		}
	}
	b.WriteString(" shim " + runtimeshim.Version)
	return b.String()
}
