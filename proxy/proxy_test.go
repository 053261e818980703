package proxy

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/gorilla/websocket"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/tracedir"
	"github.com/memtrace/memtrace/web"
)

const script = "var cache = []; function add(x) { cache.push({x: x}); return cache.length; }\nadd(1);\n"

// upstream is an origin server for a test: a handler per path, and the
// request headers it saw.
type upstream struct {
	*httptest.Server
	mu   sync.Mutex
	seen map[string]http.Header
}

func newUpstream(t testing.TB, tls bool, routes map[string]http.HandlerFunc) *upstream {
	u := &upstream{seen: map[string]http.Header{}}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.seen[r.URL.Path] = r.Header.Clone()
		u.mu.Unlock()
		if f, ok := routes[r.URL.Path]; ok {
			f(w, r)
			return
		}
		http.NotFound(w, r)
	})
	if tls {
		u.Server = httptest.NewUnstartedServer(h)
		u.EnableHTTP2 = true
		u.StartTLS()
	} else {
		u.Server = httptest.NewServer(h)
	}
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) headers(path string) http.Header {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.seen[path]
}

func serveBytes(ct string, b []byte, extra ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		for i := 0; i+1 < len(extra); i += 2 {
			w.Header().Add(extra[i], extra[i+1])
		}
		w.Write(b)
	}
}

func read(t testing.TB, resp *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// TestRewrites: a script (as a script element fetches it) and a page (as
// a navigation does) come back instrumented, not cacheable, with the
// conditional headers kept from the origin; an image and a fetch() of the
// same script pass byte for byte with their validators.
func TestRewrites(t *testing.T) {
	page := []byte(`<!doctype html><html><head><title>t</title></head><body><script>var inline = {a: 1};</script><script src="/a.js"></script></body></html>`)
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 100)
	up := newUpstream(t, false, map[string]http.HandlerFunc{
		"/a.js":    serveBytes("text/javascript", []byte(script), "ETag", `"v1"`, "Alt-Svc", `h3=":443"`),
		"/p.html":  serveBytes("text/html; charset=utf-8", page, "ETag", `"p1"`),
		"/img.png": serveBytes("image/png", png, "ETag", `"i1"`),
	})
	pr := startProxy(t, Options{})

	resp := pr.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: script", "Sec-Fetch-Mode: no-cors", "If-None-Match: \"v1\"")
	b := read(t, resp)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NotEqual(t, script, string(b))
	require.Contains(t, string(b), "cache.push")
	require.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	require.Empty(t, resp.Header.Get("ETag"))
	require.Empty(t, resp.Header.Get("Alt-Svc"))
	require.Empty(t, resp.Header.Get("Warning"))
	require.Empty(t, up.headers("/a.js").Get("If-None-Match"), "a conditional request reached the origin")
	for _, c := range b {
		require.Less(t, c, byte(0x80), "the instrumented code is not ASCII")
	}

	resp = pr.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: empty", "Sec-Fetch-Mode: cors")
	require.Equal(t, script, string(read(t, resp)), "a fetch() of a script is rewritten")
	require.Equal(t, `"v1"`, resp.Header.Get("ETag"))

	resp = pr.get(t, up.URL+"/p.html", "Sec-Fetch-Dest: document", "Accept: text/html")
	b = read(t, resp)
	require.Contains(t, string(b), web.ShimPath)
	require.Contains(t, string(b), "__memtraceConfig")
	require.NotContains(t, string(b), "var inline = {a: 1};")
	require.Equal(t, "no-store", resp.Header.Get("Cache-Control"))

	resp = pr.get(t, up.URL+"/img.png", "Sec-Fetch-Dest: image", "If-None-Match: \"i1\"")
	require.Equal(t, `"i1"`, up.headers("/img.png").Get("If-None-Match"), "an image's validators were not passed on")
	require.Equal(t, png, read(t, resp))
	require.Equal(t, `"i1"`, resp.Header.Get("ETag"))

	// memtrace's own paths on the origin are the proxy's, never relayed.
	resp = pr.get(t, up.URL+web.ShimPath)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, string(read(t, resp)), "memtrace")
	require.Nil(t, up.headers(web.ShimPath), "memtrace's own request reached the origin")
	resp = pr.get(t, up.URL+CAPEMPath)
	require.Equal(t, pr.ca.PEM(), read(t, resp))
}

// TestFailOpen: a script with a syntax error, one in an unknown encoding
// and one too large are served as they came, each with a Warning header,
// and the page's session lists them.
func TestFailOpen(t *testing.T) {
	bad := []byte("var x = ;\n")
	big := bytes.Repeat([]byte("var a = 1;\n"), 20000)
	up := newUpstream(t, false, map[string]http.HandlerFunc{
		"/bad.js":      serveBytes("text/javascript", bad),
		"/compress.js": serveBytes("text/javascript", []byte("\x1f\x9d junk"), "Content-Encoding", "compress"),
		"/big.js":      serveBytes("text/javascript", big),
	})
	pr := startProxy(t, Options{MaxRewrite: 100 << 10})
	page := up.URL + "/index.html"
	for path, want := range map[string][]byte{"/bad.js": bad, "/compress.js": []byte("\x1f\x9d junk"), "/big.js": big} {
		resp := pr.get(t, up.URL+path, "Sec-Fetch-Dest: script", "Referer: "+page)
		require.Equal(t, want, read(t, resp), path)
		require.Contains(t, resp.Header.Get("Warning"), "199 memtrace", path)
	}
	u := pr.uninstrumented(&tracedir.Session{URL: page})
	require.Len(t, u, 3)
	reasons := map[string]string{}
	for _, x := range u {
		reasons[strings.TrimPrefix(x.Module, up.URL)] = x.Reason
	}
	require.Contains(t, reasons["/bad.js"], "bad.js:1:9: error: unexpected")
	require.Contains(t, reasons["/compress.js"], "compress")
	require.Contains(t, reasons["/big.js"], "larger than")
}

// TestEncodings: gzip, deflate, brotli and zstd bodies (and two stacked)
// are read, instrumented and sent without an encoding.
func TestEncodings(t *testing.T) {
	enc := map[string]func(io.Writer) io.WriteCloser{
		"gzip":    func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		"deflate": func(w io.Writer) io.WriteCloser { z, _ := flate.NewWriter(w, 5); return z },
		"br":      func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) },
		"zstd":    func(w io.Writer) io.WriteCloser { z, _ := zstd.NewWriter(w); return z },
	}
	encode := func(b []byte, names ...string) []byte {
		for _, n := range names {
			var out bytes.Buffer
			w := enc[n](&out)
			w.Write(b)
			w.Close()
			b = out.Bytes()
		}
		return b
	}
	routes := map[string]http.HandlerFunc{
		"/plain.js": serveBytes("text/javascript", []byte(script)),
	}
	cases := [][]string{{"gzip"}, {"deflate"}, {"br"}, {"zstd"}, {"gzip", "br"}}
	for _, c := range cases {
		routes["/"+strings.Join(c, "-")+".js"] = serveBytes("text/javascript", encode([]byte(script), c...), "Content-Encoding", strings.Join(c, ", "))
	}
	up := newUpstream(t, false, routes)
	pr := startProxy(t, Options{})
	resp := pr.get(t, up.URL+"/plain.js", "Sec-Fetch-Dest: script")
	want := read(t, resp)
	for _, c := range cases {
		name := strings.Join(c, "-")
		resp := pr.get(t, up.URL+"/"+name+".js", "Sec-Fetch-Dest: script", "Accept-Encoding: gzip, deflate, br, zstd")
		require.Empty(t, resp.Header.Get("Warning"), name)
		require.Empty(t, resp.Header.Get("Content-Encoding"), name)
		require.Equal(t, string(want), strings.ReplaceAll(string(read(t, resp)), "/"+name+".js", "/plain.js"), name)
	}
}

// TestServiceWorkersRefused: a service worker's script is refused by
// default, so that the registration fails and no worker's cache serves
// code memtrace did not see.
func TestServiceWorkersRefused(t *testing.T) {
	up := newUpstream(t, false, map[string]http.HandlerFunc{"/sw.js": serveBytes("text/javascript", []byte(script))})
	pr := startProxy(t, Options{})
	resp := pr.get(t, up.URL+"/sw.js", "Service-Worker: script", "Sec-Fetch-Dest: serviceworker", "Referer: "+up.URL+"/")
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	require.Nil(t, up.headers("/sw.js"))
	require.Len(t, pr.uninstrumented(&tracedir.Session{URL: up.URL + "/"}), 1)
}

// TestClientPolicy: loopback and private clients are served, others only
// by --allow; a client from the LAN never reaches this machine's
// loopback through the proxy.
func TestClientPolicy(t *testing.T) {
	up := newUpstream(t, false, map[string]http.HandlerFunc{"/": serveBytes("text/plain", []byte("secret"))})
	pr := startProxy(t, Options{Allow: []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24")}})
	do := func(remote string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, up.URL+"/", nil)
		req.RemoteAddr = remote
		w := httptest.NewRecorder()
		pr.ServeHTTP(w, req)
		return w
	}
	require.Equal(t, http.StatusOK, do("127.0.0.1:5000").Code)
	require.Equal(t, "secret", do("[::1]:5000").Body.String())
	for _, remote := range []string{"8.8.8.8:5000", "[2001:4860::1]:5000"} {
		w := do(remote)
		require.Equal(t, http.StatusForbidden, w.Code, remote)
		require.Contains(t, w.Body.String(), "--allow")
	}
	for _, remote := range []string{"192.168.1.7:5000", "10.1.2.3:5000", "203.0.113.9:5000"} {
		w := do(remote)
		require.Equal(t, http.StatusBadGateway, w.Code, remote)
		require.Contains(t, w.Body.String(), "loopback")
	}
	require.Nil(t, up.headers("/x"))
}

// TestPolicyHeaders: a page's Content-Security-Policy headers are
// rewritten, not stripped: memtrace's script elements carry a nonce the
// policy allows (strict-dynamic), connections to memtrace are allowed,
// Report-Only likewise.
func TestPolicyHeaders(t *testing.T) {
	page := []byte(`<!doctype html><head></head><script nonce="abc">var a = {};</script>`)
	up := newUpstream(t, false, map[string]http.HandlerFunc{"/": serveBytes("text/html", page,
		"Content-Security-Policy", "script-src 'nonce-abc' 'strict-dynamic'; connect-src 'none'",
		"Content-Security-Policy-Report-Only", "default-src 'self'")})
	pr := startProxy(t, Options{})
	resp := pr.get(t, up.URL+"/", "Sec-Fetch-Dest: document")
	b := string(read(t, resp))
	csp := resp.Header.Get("Content-Security-Policy")
	i := strings.Index(csp, "'nonce-")
	require.Greater(t, i, 0, csp)
	var nonce string
	for _, tok := range strings.Fields(csp) {
		if strings.HasPrefix(tok, "'nonce-") && tok != "'nonce-abc'" {
			nonce = strings.TrimRight(strings.TrimPrefix(tok, "'nonce-"), "';")
		}
	}
	require.NotEmpty(t, nonce, csp)
	require.Contains(t, b, `<script nonce="`+nonce+`">globalThis.__memtraceConfig`)
	require.Contains(t, b, `<script nonce="`+nonce+`" src="`+web.ShimPath+`">`)
	require.Contains(t, csp, "connect-src 'self'")
	require.Contains(t, resp.Header.Get("Content-Security-Policy-Report-Only"), "script-src 'self' 'nonce-"+nonce+"'")
}

// TestHTTPS: HTTPS through CONNECT, with the CA's leaf for the host and
// HTTP/2 to the client when it offers it; the origin's certificate is
// verified (an origin the proxy cannot verify is an error, not a page).
func TestHTTPS(t *testing.T) {
	up := newUpstream(t, true, map[string]http.HandlerFunc{"/a.js": serveBytes("text/javascript", []byte(script), "Alt-Svc", `h3=":443"`)})
	pr := startProxy(t, Options{}, up.Server)
	resp := pr.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: script")
	b := read(t, resp)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	require.Equal(t, 2, resp.ProtoMajor, "HTTP/2 was not offered to the client")
	require.Contains(t, string(b), "cache.push")
	require.Empty(t, resp.Header.Get("Alt-Svc"))
	require.Equal(t, "127.0.0.1", resp.TLS.PeerCertificates[0].IPAddresses[0].String())

	unverified := startProxy(t, Options{}) // the origin's CA is not its
	resp = unverified.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: script")
	require.Equal(t, http.StatusBadGateway, resp.StatusCode)
	require.Contains(t, string(read(t, resp)), "certificate")
}

// TestStreamsThrough: server-sent events arrive as they are sent, a
// websocket works both ways (plain and through CONNECT), and a 200 MB
// download passes with the proxy's memory bounded.
func TestStreamsThrough(t *testing.T) {
	release := make(chan struct{})
	up := newUpstream(t, false, map[string]http.HandlerFunc{
		"/events": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: one\n\n")
			w.(http.Flusher).Flush()
			<-release
			io.WriteString(w, "data: two\n\n")
		},
		"/ws": echo,
		"/big": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Length", "209715200")
			buf := make([]byte, 1<<20)
			for i := 0; i < 200; i++ {
				w.Write(buf)
			}
		},
		"/": serveBytes("text/plain", []byte("root")),
	})
	pr := startProxy(t, Options{})

	resp := pr.get(t, up.URL+"/events", "Accept: text/event-stream")
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "data: one\n", line, "the first event did not arrive before the stream ended")
	close(release)

	pu, _ := url.Parse(pr.URL)
	d := websocket.Dialer{Proxy: http.ProxyURL(pu)}
	// ws:// through a proxy is tunnelled with CONNECT, as browsers do.
	for _, path := range []string{"/ws"} {
		ws, _, err := d.Dial("ws"+strings.TrimPrefix(up.URL, "http")+path, nil)
		require.NoError(t, err)
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte("hi")))
		_, m, err := ws.ReadMessage()
		require.NoError(t, err)
		require.Equal(t, "echo hi", string(m))
		ws.Close()
	}

	peak := watchHeap()
	resp = pr.get(t, up.URL+"/big")
	n, err := io.Copy(io.Discard, resp.Body)
	heap := peak()
	require.NoError(t, err)
	require.Equal(t, int64(200<<20), n)
	require.Less(t, heap, uint64(64<<20), "the heap grew to %d MiB during a 200 MiB download", heap>>20)
	t.Logf("200 MiB through the proxy, heap in use at most %d MiB", heap>>20)
}

// TestReverse: the reverse proxy maps the target's redirects and cookies
// to its own origin.
func TestReverse(t *testing.T) {
	var target *url.URL
	up := newUpstream(t, false, map[string]http.HandlerFunc{
		"/login": func(w http.ResponseWriter, r *http.Request) {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "1", Domain: target.Hostname(), Path: "/"})
			http.Redirect(w, r, target.String()+"/home?x=1", http.StatusFound)
		},
		"/home": serveBytes("text/plain", []byte("home")),
	})
	target, _ = url.Parse(up.URL)
	pr := startProxy(t, Options{Target: target})
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Get(pr.URL + "/login")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, pr.URL+"/home?x=1", resp.Header.Get("Location"))
	require.Equal(t, "sid=1; Path=/", resp.Header.Get("Set-Cookie"))
	resp, err = http.Get(pr.URL + "/home")
	require.NoError(t, err)
	require.Equal(t, "home", string(read(t, resp)))
}

// TestHostsAndUpstream: --hosts intercepts only the hosts named (another
// host's tunnel passes untouched: the client sees the origin's own
// certificate); the origin is spoken to over HTTP/2 when it offers it;
// --insecure-skip-upstream-verify reaches an origin whose certificate
// the proxy cannot verify.
func TestHostsAndUpstream(t *testing.T) {
	var proto atomic.Int32
	up := newUpstream(t, true, map[string]http.HandlerFunc{"/a.js": func(w http.ResponseWriter, r *http.Request) {
		proto.Store(int32(r.ProtoMajor))
		serveBytes("text/javascript", []byte(script))(w, r)
	}})
	pr := startProxy(t, Options{Hosts: []string{"*.example.test"}}, up.Server)
	c := pr.client()
	c.Transport.(*http.Transport).TLSClientConfig.RootCAs.AddCert(up.Certificate())
	resp, err := c.Get(up.URL + "/a.js")
	require.NoError(t, err)
	b := read(t, resp)
	require.Equal(t, script, string(b), "a host not named was rewritten")
	require.True(t, resp.TLS.PeerCertificates[0].Equal(up.Certificate()), "a host not named was intercepted")

	pr = startProxy(t, Options{Hosts: []string{"127.0.0.1"}}, up.Server)
	resp = pr.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: script")
	require.Contains(t, string(read(t, resp)), "cache.push")
	require.Equal(t, int32(2), proto.Load(), "the origin was not spoken to over HTTP/2")

	insecure := startProxy(t, Options{InsecureUpstream: true}) // no roots for the origin
	resp = insecure.get(t, up.URL+"/a.js", "Sec-Fetch-Dest: script")
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

// echo is a websocket that answers each message with "echo " and it.
func echo(w http.ResponseWriter, r *http.Request) {
	c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	for {
		mt, m, err := c.ReadMessage()
		if err != nil {
			return
		}
		c.WriteMessage(mt, append([]byte("echo "), m...))
	}
}

// TestSetupPage: the set-up page tells the platform from the user agent
// and marks its section, with the certificate in the form it takes (DER
// for Android and iOS, PEM and DER for desktops) and the proxy's address
// to configure; its own policy lets its check reach only the check host.
func TestSetupPage(t *testing.T) {
	pr := startProxy(t, Options{})
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36":                       "android",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Version/18.1 Mobile/15E148 Safari/604.1": "ios",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1":        "ios",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 Chrome/131.0 Safari/537.36":                          "macos",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36":                             "windows",
		"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0":                                              "linux",
	} {
		req, _ := http.NewRequest(http.MethodGet, pr.URL+"/", nil)
		req.Header.Set("User-Agent", ua)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		b := string(read(t, resp))
		resp.Body.Close()
		require.Contains(t, b, `data-platform="`+want+`"`, ua)
		section := want
		if want == "macos" || want == "windows" || want == "linux" {
			section = "desktop"
		}
		require.Contains(t, b, `<section id="`+section+`" class="here">`, ua)
		require.Equal(t, 1, strings.Count(b, `class="here"`), ua)
		_, port, _ := strings.Cut(strings.TrimPrefix(pr.URL, "http://"), ":")
		require.Contains(t, b, "port <code>"+port+"</code>", ua)
		require.Contains(t, b, pr.ca.Fingerprint())
		require.Contains(t, resp.Header.Get("Content-Security-Policy"), "connect-src 'self' https://"+CheckHost)
	}
	resp, err := http.Get(pr.URL + CADERPath)
	require.NoError(t, err)
	require.Equal(t, pr.ca.DER(), read(t, resp))
	require.Equal(t, "application/x-x509-ca-cert", resp.Header.Get("Content-Type"))
	// The check answers over HTTPS through the proxy only.
	resp = pr.get(t, "https://"+CheckHost+CheckPath)
	require.Equal(t, `{"ok":true}`, string(read(t, resp)))
	require.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
}
