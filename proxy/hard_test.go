package proxy

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/klauspost/compress/zstd"
	"golang.org/x/text/encoding/japanese"

	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/tracedir"
)

// hardSite serves testdata/hard over HTTPS (HTTP/2): each directory a
// page that exercises one hard case, with what the case needs of the
// server (policies in headers, encodings, a Shift_JIS page, a websocket,
// events, a 200 MiB download).
type hardSite struct {
	*httptest.Server
	encoded atomic.Int64 // responses sent with a content encoding
}

const metaInline = "window.results = {inline: {a: 1}.a};"

func newHardSite(t *testing.T) *hardSite {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return newHardSiteOn(t, l, nil)
}

// newHardSiteOn is newHardSite on the listener l, with the certificate
// given (nil: httptest's, for loopback).
func newHardSiteOn(t *testing.T, l net.Listener, cert *tls.Certificate) *hardSite {
	root := filepath.Join("testdata", "hard")
	hs := &hardSite{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch p {
		case "/ws/echo":
			echo(w, r)
		case "/sse/events":
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 1; i <= 3; i++ {
				fmt.Fprintf(w, "data: event %d\n\n", i)
				w.(http.Flusher).Flush()
				time.Sleep(30 * time.Millisecond)
			}
			<-r.Context().Done()
			return
		case "/download/big":
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", fmt.Sprint(200<<20))
			buf := make([]byte, 1<<20)
			for i := 0; i < 200; i++ {
				if _, err := w.Write(buf); err != nil {
					return
				}
			}
			return
		}
		dir, file := path.Split(strings.TrimPrefix(p, "/"))
		if file == "" {
			file = "index.html"
		}
		enc := ""
		if d, e, ok := strings.Cut(strings.TrimSuffix(dir, "/"), "-"); ok && d == "encoded" {
			dir, enc = "encoded/", e
		}
		b, err := os.ReadFile(filepath.Join(root, dir, file))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		// The page's integrity values and hashes, for the bytes of its files.
		for {
			i := bytes.Index(b, []byte("{{"))
			if i < 0 {
				break
			}
			j := bytes.Index(b[i:], []byte("}}"))
			what, arg, _ := strings.Cut(string(b[i+2:i+j]), " ")
			var v string
			switch what {
			case "SRI":
				f, _ := os.ReadFile(filepath.Join(root, dir, arg))
				s := sha512.Sum384(f)
				v = "sha384-" + base64.StdEncoding.EncodeToString(s[:])
			case "HASH":
				s := sha256.Sum256([]byte(metaInline))
				v = "sha256-" + base64.StdEncoding.EncodeToString(s[:])
			}
			b = append(b[:i:i], append([]byte(v), b[i+j+2:]...)...)
		}
		ct := mime.TypeByExtension(path.Ext(file))
		if path.Ext(file) == ".mjs" {
			ct = "text/javascript"
		}
		switch dir {
		case "cspnonce/":
			w.Header().Set("Content-Security-Policy", "script-src 'nonce-r4nd0m' 'strict-dynamic'; object-src 'none'; base-uri 'none'")
		case "trustedtypes/":
			w.Header().Set("Content-Security-Policy", "require-trusted-types-for 'script'; trusted-types app")
		case "sjis/":
			// Shift_JIS, said only by the page's meta: its script is read in
			// the page's encoding.
			b, _ = japanese.ShiftJIS.NewEncoder().Bytes(b)
			ct, _, _ = strings.Cut(ct, ";")
		}
		w.Header().Set("Content-Type", ct)
		if enc != "" && strings.Contains(r.Header.Get("Accept-Encoding"), enc) {
			var out bytes.Buffer
			var zw io.WriteCloser
			switch enc {
			case "gzip":
				zw = gzip.NewWriter(&out)
			case "br":
				zw = brotli.NewWriter(&out)
			case "zstd":
				zw, _ = zstd.NewWriter(&out)
			}
			zw.Write(b)
			zw.Close()
			b = out.Bytes()
			w.Header().Set("Content-Encoding", enc)
			hs.encoded.Add(1)
		}
		w.Write(b)
	})
	hs.Server = &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	if cert != nil {
		hs.TLS = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	hs.EnableHTTP2 = true
	hs.Config.ErrorLog = pagetest.Log(t, "site: ")
	hs.StartTLS()
	t.Cleanup(hs.Close)
	return hs
}

// runHard opens page, waits for it to finish, and returns its results
// and the exceptions it threw, as JSON and text; then leaves it.
func runHard(t *testing.T, page string, opts ...chromedp.ExecAllocatorOption) string {
	t.Helper()
	ctx := pagetest.Browser(t, opts...)
	var mu sync.Mutex
	var errs []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			d := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				d += " " + firstLine(e.ExceptionDetails.Exception.Description)
			}
			mu.Lock()
			errs = append(errs, d)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	pagetest.WaitDone(t, tctx)
	res, err := chromedp.Run(tctx, chromedp.Evaluate[string]("JSON.stringify(window.results)"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	pagetest.Leave(t, tctx)
	mu.Lock()
	defer mu.Unlock()
	return res + " errors " + strings.Join(errs, " | ")
}

// TestHardCases: pages that each exercise one hard case of a rewriting
// proxy, served over HTTPS, behave through the proxy as they do without
// it (the same results, the same exceptions), and each page load is a
// complete session (a frame's and a worker's of their own); a script
// with a syntax error runs as it came and its page's session lists it;
// a service worker's registration is refused.
func TestHardCases(t *testing.T) {
	site := newHardSite(t)
	direct := []chromedp.ExecAllocatorOption{chromedp.Flag("ignore-certificate-errors", true)}
	for _, c := range []struct {
		dir      string
		opts     Options // the proxy's
		sessions int
		want     string // a part of the results, through the proxy
		uninst   string // a script the page's session lists
		enters   string // a script a session's trace enters, instrumented
	}{
		{dir: "syntax", sessions: 1, want: `"after":3`, uninst: "/syntax/bad.js", enters: "/syntax/good.js"},
		{dir: "integrity", sessions: 1, want: `{"lib":3,"other":"undefined","dyn":2}`, enters: "/integrity/dyn.js"},
		{dir: "cspnonce", sessions: 1, want: `"dyn":"loaded by strict-dynamic"`, enters: "/cspnonce/dyn.js"},
		{dir: "cspmeta", sessions: 1, want: `{"inline":1,"app":2}`, enters: "/cspmeta/app.js"},
		{dir: "trustedtypes", sessions: 1, want: `"raw":"TypeError"`, enters: "/trustedtypes/app.js"},
		{dir: "encoded-gzip", sessions: 1, want: `"last":"item 49"`, enters: "/encoded-gzip/app.js"},
		{dir: "encoded-br", sessions: 1, want: `"last":"item 49"`, enters: "/encoded-br/app.js"},
		{dir: "encoded-zstd", sessions: 1, want: `"last":"item 49"`, enters: "/encoded-zstd/app.js"},
		{dir: "sjis", sessions: 1, want: `"external":"富士山は高い"`, enters: "/sjis/app.js"},
		{dir: "importmap", sessions: 1, want: `{"f":42,"meta":"string"}`, enters: "/importmap/lib.mjs"},
		{dir: "frame", sessions: 2, want: `{"frame":7,"page":1}`, enters: "/frame/frame.html#inline-1"},
		{dir: "worker", sessions: 2, want: `{"made":10}`, enters: "/worker/w.js"},
		{dir: "sw", sessions: 1, want: `"sw":"refused: TypeError"`, uninst: "/sw/sw.js", enters: "/sw/#inline-1"},
		// --service-workers instrument: registered, and traced as a worker
		// of its own (a session that outlives the page).
		{dir: "sw", opts: Options{ServiceWorkers: "instrument"}, sessions: 2, want: `"sw":"registered"`, enters: "/sw/sw.js"},
		{dir: "ws", sessions: 1, want: `{"got":["echo one","echo two"]}`, enters: "/ws/#inline-1"},
		{dir: "sse", sessions: 1, want: `{"got":["event 1","event 2","event 3"]}`, enters: "/sse/#inline-1"},
		{dir: "download", sessions: 1, want: `{"bytes":209715200,"type":"application/octet-stream"}`, enters: "/download/#inline-1"},
	} {
		name := c.dir
		if c.opts.ServiceWorkers != "" {
			name += "-" + c.opts.ServiceWorkers
		}
		t.Run(name, func(t *testing.T) {
			page := site.URL + "/" + c.dir + "/"
			pr := startProxy(t, c.opts, site.Server)
			before := site.encoded.Load()
			peak := watchHeap()
			got := runHard(t, page, pr.browser()...)
			heap := peak()
			t.Logf("through the proxy: %s", got)
			if !strings.Contains(got, c.want) {
				t.Errorf("through the proxy: %s\nwant a part %s", got, c.want)
			}
			if c.dir != "sw" {
				if want := runHard(t, page, direct...); got != want {
					t.Errorf("through the proxy the page gives\n%s\nwithout it\n%s", got, want)
				}
			}
			if strings.HasPrefix(c.dir, "encoded-") && site.encoded.Load() == before {
				t.Errorf("the site sent nothing encoded through the proxy")
			}
			if c.dir == "download" && heap > 64<<20 {
				t.Errorf("the heap grew to %d MiB while the page downloaded 200 MiB", heap>>20)
			}
			if c.opts.ServiceWorkers == "instrument" {
				// The service worker's session does not end with the page.
				waitStarted(t, pr, c.sessions)
				pr.c.Shutdown(context.Background())
			}
			sessions := pagetest.WaitSessions(t, pr.c, c.sessions)
			entered := map[string]int{}
			if len(sessions) != c.sessions {
				t.Fatalf("%d sessions, want %d", len(sessions), c.sessions)
			}
			for i, s := range sessions {
				name := pr.c.Sessions()[i]
				if c.dir == "frame" && s.URL == site.URL+"/frame/frame.html" && s.Parent != pr.c.Sessions()[0] {
					t.Errorf("the frame's session %s has parent %q, not the page's %s", name, s.Parent, pr.c.Sessions()[0])
				}
				switch {
				case c.opts.ServiceWorkers == "instrument" && s.Kind == "worker":
					// Ended by the collector's shutdown, however it went.
				case c.uninst != "":
					if s.Status != tracedir.StatusIncomplete || len(s.Uninstrumented) != 1 || s.Uninstrumented[0].Module != site.URL+c.uninst {
						t.Errorf("%s: %s (%s), uninstrumented %+v; want incomplete, listing %s", name, s.Status, s.Reason, s.Uninstrumented, c.uninst)
					}
				case s.Status != tracedir.StatusComplete:
					t.Errorf("%s (%s): %s: %s", name, s.URL, s.Status, s.Reason)
					continue
				}
				for n, k := range pagetest.ScriptNames(pagetest.CheckedTrace(t, pr.c, name)) {
					entered[n] += k
				}
			}
			if c.dir == "trustedtypes" && entered["eval"] == 0 {
				t.Errorf("the eval of a TrustedScript ran uninstrumented: %v", entered)
			}
			if entered[site.URL+c.enters] == 0 {
				t.Errorf("no trace enters %s: %v", c.enters, entered)
			}
		})
	}
}

// waitStarted waits until the proxy's collector has n sessions.
func waitStarted(t *testing.T, pr *proxied, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); len(pr.c.Sessions()) < n; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions began, want %d", len(pr.c.Sessions()), n)
		}
	}
}
