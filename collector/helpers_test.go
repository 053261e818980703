package collector

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/trace/tracegen"
	"github.com/memtrace/memtrace/tracedir"
)

// logBuffer collects the collector's log for assertions.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type testCollector struct {
	*Collector
	srv    *httptest.Server
	URL    string // ws://...
	HTTP   string // http://...
	log    *logBuffer
	panics atomic.Int64
}

// startCollector serves a collector on loopback; a panic in a handler
// fails the test (net/http would recover it).
func startCollector(t testing.TB, cfg Config) *testCollector {
	t.Helper()
	if cfg.Out == "" {
		cfg.Out = filepath.Join(t.TempDir(), "out")
	}
	lb := &logBuffer{}
	cfg.Log = log.New(lb, "", 0)
	if cfg.FreeSpace == nil {
		cfg.FreeSpace = func() (int64, error) { return 1 << 40, nil }
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tc := &testCollector{Collector: c, log: lb}
	tc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				tc.panics.Add(1)
				t.Errorf("handler panicked: %v", v)
				panic(v)
			}
		}()
		c.ServeHTTP(w, r)
	}))
	tc.HTTP = tc.srv.URL
	tc.URL = "ws" + strings.TrimPrefix(tc.srv.URL, "http")
	t.Cleanup(func() {
		tc.srv.CloseClientConnections()
		tc.srv.Close()
		c.Close()
		if t.Failed() {
			t.Logf("collector log:\n%s", lb.String())
		}
	})
	return tc
}

// genTrace is a synthetic trace of about n bytes.
func genTrace(t testing.TB, seed uint64, n int64) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tracegen.Generate(&b, tracegen.Options{Bytes: n, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// send streams data as one session in pieces of odd sizes and ends it.
func send(t testing.TB, url, token string, data []byte, opts client.Options) (*client.Client, *client.Ended) {
	t.Helper()
	opts.URL, opts.Token = url, token
	if opts.Meta == nil {
		opts.Meta = map[string]any{"kind": "node", "script": "/srv/app.js", "format": "meminsight"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := client.Dial(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	for off, step := 0, 1; off < len(data); step = step*7%65521 + 1 {
		n := min(step, len(data)-off)
		if _, err := c.Write(data[off : off+n]); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	end, err := c.End(ctx, "exit")
	if err != nil {
		t.Fatal(err)
	}
	return c, end
}

func readSession(t testing.TB, out, name string) *tracedir.Session {
	t.Helper()
	s, err := tracedir.ReadSession(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func traceBytes(t testing.TB, out, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, name, tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func fileSum(t testing.TB, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	var s [32]byte
	copy(s[:], h.Sum(nil))
	return s
}
