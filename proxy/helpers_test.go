package proxy

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/proxy/ca"
)

// proxied is a proxy on loopback for a test, with its collector and CA.
type proxied struct {
	*Proxy
	c    *collector.Collector
	ca   *ca.CA
	srv  *httptest.Server
	addr string // host:port
	URL  string // http://host:port
}

// startProxy serves a proxy (o completed with a CA, a collector and the
// upstream roots given) on loopback.
func startProxy(t testing.TB, o Options, roots ...*httptest.Server) *proxied {
	t.Helper()
	return startProxyOn(t, "127.0.0.1:0", o, roots...)
}

// startProxyOn is startProxy listening on addr.
func startProxyOn(t testing.TB, addr string, o Options, roots ...*httptest.Server) *proxied {
	t.Helper()
	c, err := collector.New(collector.Config{Out: filepath.Join(t.TempDir(), "traces"), Log: pagetest.Log(t, "collector: ")})
	if err != nil {
		t.Fatal(err)
	}
	if o.CA == nil {
		if o.CA, err = ca.Create(filepath.Join(t.TempDir(), "ca")); err != nil {
			t.Fatal(err)
		}
	}
	if len(roots) > 0 {
		pool := x509.NewCertPool()
		for _, s := range roots {
			pool.AddCert(s.Certificate())
		}
		o.UpstreamRoots = pool
	}
	o.Collector = c
	if o.Log == nil {
		o.Log = pagetest.Log(t, "proxy: ")
	}
	pr := &proxied{c: c, ca: o.CA}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	pr.addr = l.Addr().String()
	o.Self = []string{pr.addr}
	if _, port, _ := net.SplitHostPort(pr.addr); strings.HasPrefix(addr, "0.0.0.0:") {
		pr.addr = net.JoinHostPort("127.0.0.1", port)
		o.Self = append(o.Self, pr.addr)
	}
	if pr.Proxy, err = New(o); err != nil {
		t.Fatal(err)
	}
	pr.srv = &httptest.Server{Listener: l, Config: &http.Server{Handler: pr.Proxy}}
	pr.srv.Start()
	pr.URL = pr.srv.URL
	t.Cleanup(func() {
		pr.srv.CloseClientConnections()
		pr.srv.Close()
		pr.Proxy.Close()
		c.Close()
	})
	return pr
}

// browser is the Chromium options that use the proxy for every address
// (loopback too) and trust its CA in the test's profile only.
func (pr *proxied) browser() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ProxyServer("http://" + pr.addr),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("ignore-certificate-errors-spki-list", pr.ca.SPKIHash()),
	}
}

// client is a Go HTTP client through the proxy that trusts its CA.
func (pr *proxied) client() *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(pr.ca.Cert)
	u, _ := url.Parse(pr.URL)
	return &http.Client{
		Transport: &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: &tls.Config{RootCAs: pool},
			ForceAttemptHTTP2: true, DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// get fetches u through the proxy with the headers given ("Name: value").
func (pr *proxied) get(t testing.TB, u string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := pr.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// watchHeap samples the heap in use every 20 ms until the function it
// returns is called, which returns the most it grew by.
func watchHeap() func() uint64 {
	// What earlier tests left is collected first: the figure is what
	// the heap grows by from here.
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load() - min(peak.Load(), base.HeapInuse)
	}
}
