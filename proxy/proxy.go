// Package proxy is memtrace proxy: an HTTP(S) proxy that instruments web
// apps on the fly, so that each page a browser (a desktop's or a phone's)
// loads through it runs traced and delivers its trace to the collector
// the proxy mounts on every origin it serves, under /__memtrace__/.
//
// It is a forward proxy (plain HTTP, and HTTPS through CONNECT with
// memtrace's own CA, proxy/ca) or, with Options.Target, a reverse proxy
// that needs no set-up in the browser. Pages and scripts are rewritten by
// package web, the code memtrace serve uses; everything else streams
// through unchanged (websockets, server-sent events, downloads), never
// held whole. A response memtrace cannot instrument is served as it came,
// with a Warning header, a log line and a line in its page's
// session.json: the page keeps working.
package proxy

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/instrument/htmlpage"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/proxy/body"
	"github.com/memtrace/memtrace/proxy/ca"
	"github.com/memtrace/memtrace/tracedir"
	"github.com/memtrace/memtrace/web"
)

// Options configure a proxy.
type Options struct {
	CA        *ca.CA // for HTTPS interception (and the reverse proxy's HTTPS)
	Collector *collector.Collector
	// DebugFun, AllUses, AllPutFields: the trace's modes.
	DebugFun              string
	AllUses, AllPutFields bool
	// CacheDir keeps instrumented code on disk ("": memory only).
	CacheDir string
	Log      *log.Logger
	// Target makes a reverse proxy of the app at this URL.
	Target *url.URL
	// Hosts limits interception to these hosts ("name", or "*.name" for
	// its subdomains and itself); other hosts' CONNECT tunnels pass
	// through untouched. Empty: every host.
	Hosts []string
	// Allow lists the client addresses served besides loopback and the
	// private ranges (RFC 1918, RFC 4193, link-local).
	Allow []netip.Prefix
	// InsecureUpstream skips the verification of upstream servers'
	// certificates (memtrace proxy --insecure-skip-upstream-verify).
	InsecureUpstream bool
	// UpstreamRoots verifies upstream servers (nil: the system's).
	UpstreamRoots *x509.CertPool
	// ServiceWorkers: "block" (the default: a registration's script is
	// refused, so no worker's cache serves code memtrace did not see) or
	// "instrument" (traced with the worker host).
	ServiceWorkers string
	// MaxRewrite is the largest response body rewritten (default 64 MiB);
	// a larger one is served as it is.
	MaxRewrite int64
	// Self lists the proxy's own addresses (host:port): a request for
	// one of them is the proxy's own, never relayed to itself.
	Self []string
}

// Proxy is an http.Handler for the proxy's listener.
type Proxy struct {
	o  Options
	rw *web.Rewriter
	// Upstream transports: one for loopback clients, one for the others,
	// which never reach this machine's loopback (kept apart so that no
	// pooled connection crosses over).
	local, remote *http.Transport
	rp            *httputil.ReverseProxy
	mitm, plain   *http.Server // for connections taken over from CONNECT
	mitmL, plainL *connListener
	conns         sync.Map // *tls.Conn or net.Conn -> its CONNECT authority

	mu sync.Mutex
	// failed: the responses served as they were, by the page that loads
	// them (its URL), for session.json (bounded).
	failed map[string][]tracedir.Uninstrumented
	nfail  int
	// charsets: a page's encoding by the URL of the scripts it loads (a
	// script without a charset of its own is read in its page's).
	charsets map[string]string
}

type ctxKey int

const (
	keyOrigin ctxKey = iota // *origin
	keyAuthority
)

// origin is where a request goes: scheme and host[:port] upstream, and
// how the browser named the origin (in reverse mode the proxy's own).
type origin struct {
	scheme, host string
	front        string // the browser's scheme://host of it
	reverse      bool
	loopback     bool // the client is on this machine
}

// New makes a proxy.
func New(o Options) (*Proxy, error) {
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	if o.MaxRewrite <= 0 {
		o.MaxRewrite = 64 << 20
	}
	if o.ServiceWorkers == "" {
		o.ServiceWorkers = "block"
	}
	if o.ServiceWorkers != "block" && o.ServiceWorkers != "instrument" {
		return nil, fmt.Errorf("service workers: %q is neither block nor instrument", o.ServiceWorkers)
	}
	p := &Proxy{o: o, failed: map[string][]tracedir.Uninstrumented{}, charsets: map[string]string{}}
	var err error
	p.rw, err = web.New(web.Options{Collector: o.Collector, DebugFun: o.DebugFun, AllUses: o.AllUses, AllPutFields: o.AllPutFields,
		Log: o.Log, CacheDir: o.CacheDir, Resolve: resolve, Integrity: p.integrity, Finish: ascii})
	if err != nil {
		return nil, err
	}
	o.Collector.SetUninstrumented(p.uninstrumented)
	p.local, p.remote = p.transport(true), p.transport(false)
	p.rp = &httputil.ReverseProxy{
		Rewrite: p.outgoing,
		Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
			if r.Context().Value(keyOrigin).(*origin).loopback {
				return p.local.RoundTrip(r)
			}
			return p.remote.RoundTrip(r)
		}),
		ModifyResponse: p.response,
		ErrorHandler:   p.upstreamError,
		ErrorLog:       log.New(o.Log.Writer(), "", 0),
		BufferPool:     bufferPool{},
	}
	p.mitmL, p.plainL = newConnListener(), newConnListener()
	connCtx := func(ctx context.Context, c net.Conn) context.Context {
		if a, ok := p.conns.Load(c); ok {
			return context.WithValue(ctx, keyAuthority, a)
		}
		return ctx
	}
	state := func(c net.Conn, s http.ConnState) {
		if s == http.StateClosed || s == http.StateHijacked {
			p.conns.Delete(c)
		}
	}
	var protos http.Protocols
	protos.SetHTTP1(true)
	protos.SetHTTP2(true)
	p.mitm = &http.Server{Handler: http.HandlerFunc(p.serveTunnelled), ConnContext: connCtx, ConnState: state,
		Protocols: &protos, IdleTimeout: 5 * time.Minute, ReadHeaderTimeout: time.Minute, ErrorLog: log.New(o.Log.Writer(), "", 0),
		TLSConfig: &tls.Config{NextProtos: []string{"h2", "http/1.1"}}}
	p.plain = &http.Server{Handler: http.HandlerFunc(p.serveTunnelled), ConnContext: connCtx, ConnState: state,
		IdleTimeout: 5 * time.Minute, ReadHeaderTimeout: time.Minute, ErrorLog: log.New(o.Log.Writer(), "", 0)}
	go p.mitm.Serve(p.mitmL)
	go p.plain.Serve(p.plainL)
	return p, nil
}

// Close stops the proxy's servers of taken-over connections.
func (p *Proxy) Close() error {
	p.mitm.Close()
	p.plain.Close()
	p.local.CloseIdleConnections()
	p.remote.CloseIdleConnections()
	return p.rw.Close()
}

func (p *Proxy) transport(loopback bool) *http.Transport {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return p.dial(ctx, d, network, addr, loopback)
		},
		TLSClientConfig:       &tls.Config{RootCAs: p.o.UpstreamRoots, InsecureSkipVerify: p.o.InsecureUpstream},
		ForceAttemptHTTP2:     true,
		DisableCompression:    true, // the browser's Accept-Encoding goes upstream as it was
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: 5 * time.Minute,
	}
}

// dial connects upstream. A client that is not on this machine never
// reaches its loopback services (nor the unspecified address, which is
// this machine too): the name is resolved here and each address checked.
func (p *Proxy) dial(ctx context.Context, d *net.Dialer, network, addr string, loopback bool) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	var last error
	for _, ip := range ips {
		ip = ip.Unmap()
		if !loopback && (ip.IsLoopback() || ip.IsUnspecified()) {
			last = fmt.Errorf("%s is this machine's loopback, which a client from elsewhere does not reach through memtrace proxy", host)
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	if last == nil {
		last = fmt.Errorf("%s has no address", host)
	}
	return nil, last
}

// clientOK applies the client policy: loopback and private addresses,
// and Options.Allow.
func (p *Proxy) clientOK(remote string) (ok, loopback bool) {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return false, false
	}
	ip := ap.Addr().Unmap()
	if ip.IsLoopback() {
		return true, true
	}
	if ip.IsPrivate() || ip.IsLinkLocalUnicast() {
		return true, false
	}
	for _, a := range p.o.Allow {
		if a.Contains(ip) {
			return true, false
		}
	}
	return false, false
}

// ServeHTTP serves the proxy's listener: CONNECT, absolute-URI requests
// (a forward proxy's), the reverse proxy's, and the proxy's own pages.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ok, loopback := p.clientOK(r.RemoteAddr)
	if !ok {
		p.o.Log.Printf("refused %s: not a loopback or private address, nor one --allow gives", r.RemoteAddr)
		http.Error(w, "memtrace proxy: your address is not one this proxy serves (memtrace proxy --allow CIDR widens it)", http.StatusForbidden)
		return
	}
	switch {
	case r.Method == http.MethodConnect:
		p.connect(w, r, loopback)
	case r.URL.IsAbs() && !p.self(r):
		if r.URL.Scheme != "http" {
			http.Error(w, "memtrace proxy: only http URLs are relayed as they are; https goes through CONNECT", http.StatusBadRequest)
			return
		}
		p.serveOrigin(w, r, &origin{scheme: "http", host: r.URL.Host, front: "http://" + r.URL.Host, loopback: loopback})
	case p.o.Target != nil:
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		p.serveOrigin(w, r, &origin{scheme: p.o.Target.Scheme, host: p.o.Target.Host, front: scheme + "://" + r.Host, reverse: true, loopback: loopback})
	default:
		p.serveOwn(w, r)
	}
}

// self reports whether an absolute-URI request is for the proxy itself:
// one of Options.Self, or the address the client reached the proxy at.
func (p *Proxy) self(r *http.Request) bool {
	hostport := r.URL.Host
	for _, s := range p.o.Self {
		if strings.EqualFold(s, hostport) {
			return true
		}
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	la, err := netip.ParseAddrPort(local.String())
	if err != nil {
		return false
	}
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		h, port = hostport, "80"
	}
	if port != strconv.Itoa(int(la.Port())) {
		return false
	}
	if strings.EqualFold(h, "localhost") {
		return la.Addr().IsLoopback()
	}
	ip, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && ip.Unmap() == la.Addr().Unmap()
}

// serveOwn serves requests for the proxy itself (not for an origin it
// relays): memtrace's own paths, the CA certificate and the set-up page.
func (p *Proxy) serveOwn(w http.ResponseWriter, r *http.Request) {
	if p.serveCA(w, r) {
		return
	}
	switch r.URL.Path {
	case "/", SetupPath:
		p.serveSetup(w, r, r.Host)
	case CheckPath:
		serveCheck(w, r)
	default:
		if web.Owns(r) {
			p.rw.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
	}
}

// CA paths, on every origin the proxy serves and on the proxy itself.
const (
	CAPEMPath = collector.Prefix + "ca.pem"
	CADERPath = collector.Prefix + "ca.crt"
)

func (p *Proxy) serveCA(w http.ResponseWriter, r *http.Request) bool {
	if p.o.CA == nil {
		return false
	}
	switch r.URL.Path {
	case CAPEMPath:
		w.Header().Set("Content-Type", "application/x-pem-file")
		w.Header().Set("Content-Disposition", `attachment; filename="memtrace-ca.pem"`)
		w.Write(p.o.CA.PEM())
	case CADERPath:
		w.Header().Set("Content-Type", "application/x-x509-ca-cert")
		w.Header().Set("Content-Disposition", `attachment; filename="memtrace-ca.crt"`)
		w.Write(p.o.CA.DER())
	default:
		return false
	}
	return true
}

// serveTunnelled serves a request that came through a CONNECT tunnel
// (TLS taken over with the CA's leaf, or plain HTTP).
func (p *Proxy) serveTunnelled(w http.ResponseWriter, r *http.Request) {
	a, _ := r.Context().Value(keyAuthority).(*tunnel)
	if a == nil {
		http.Error(w, "memtrace proxy: a connection of no tunnel", http.StatusInternalServerError)
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := a.authority
	if (scheme == "https" && strings.HasSuffix(host, ":443")) || (scheme == "http" && strings.HasSuffix(host, ":80")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	p.serveOrigin(w, r, &origin{scheme: scheme, host: a.authority, front: scheme + "://" + host, loopback: a.loopback})
}

// serveOrigin serves a request for an origin: memtrace's own paths
// there, else the origin's response, rewritten where it is a page or a
// script.
func (p *Proxy) serveOrigin(w http.ResponseWriter, r *http.Request, o *origin) {
	if web.Owns(r) {
		switch {
		case p.serveCA(w, r):
		case r.URL.Path == SetupPath:
			// The proxy as this client reaches it.
			host := r.Host
			if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
				host = a.String()
			}
			p.serveSetup(w, r, host)
		case r.URL.Path == CheckPath:
			serveCheck(w, r)
		default:
			p.rw.ServeHTTP(w, r)
		}
		return
	}
	if isServiceWorker(r) && p.o.ServiceWorkers == "block" {
		u := o.front + r.URL.RequestURI()
		p.fail(w.Header(), r.Header.Get("Referer"), u, "a service worker's script, refused so that no worker's cache serves code memtrace did not instrument (--service-workers instrument traces them)")
		http.Error(w, "memtrace proxy: service workers are refused (--service-workers instrument traces them)", http.StatusForbidden)
		return
	}
	p.rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyOrigin, o)))
}

func isServiceWorker(r *http.Request) bool {
	return r.Header.Get("Service-Worker") == "script" || r.Header.Get("Sec-Fetch-Dest") == "serviceworker"
}

// outgoing makes the upstream request.
func (p *Proxy) outgoing(pr *httputil.ProxyRequest) {
	o := pr.In.Context().Value(keyOrigin).(*origin)
	pr.Out.URL.Scheme = o.scheme
	pr.Out.URL.Host = o.host
	if o.reverse {
		pr.Out.Host = o.host
	} else {
		pr.Out.Host = pr.In.Host
		if pr.In.URL.IsAbs() {
			pr.Out.Host = pr.In.URL.Host
		}
	}
	// Proxy-* headers are hop-by-hop (ReverseProxy drops the standard
	// ones); no X-Forwarded-For: the proxy is the user's own.
	pr.Out.Header.Del("Proxy-Connection")
	pr.Out.Header.Del("Proxy-Authorization")
	if mayRewrite(pr.In) {
		// A 304 would let the browser's cache serve what it kept, which
		// may be an uninstrumented copy.
		for _, h := range []string{"If-None-Match", "If-Modified-Since", "If-Range", "If-Unmodified-Since"} {
			pr.Out.Header.Del(h)
		}
		pr.Out.Header.Del("Range")
	}
	if o.reverse {
		if ref := pr.Out.Header.Get("Referer"); ref != "" {
			pr.Out.Header.Set("Referer", p.toTarget(ref, o))
		}
		if org := pr.Out.Header.Get("Origin"); org != "" && org == o.front {
			pr.Out.Header.Set("Origin", o.scheme+"://"+o.host)
		}
	}
}

// toTarget maps a URL of the reverse proxy's front to the target's.
func (p *Proxy) toTarget(s string, o *origin) string {
	if strings.HasPrefix(s, o.front+"/") || s == o.front {
		return o.scheme + "://" + o.host + strings.TrimPrefix(s, o.front)
	}
	return s
}

// mayRewrite reports whether a request's response may be a page or a
// script memtrace rewrites (by what the browser fetches it for).
func mayRewrite(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	switch r.Header.Get("Sec-Fetch-Dest") {
	case "", "document", "iframe", "frame", "script", "worker", "sharedworker", "serviceworker":
		return true
	}
	return false
}

type what int

const (
	asIs what = iota
	aPage
	aScript
)

// classify tells a page, a script, or neither, by what the browser asked
// for and what came back.
func classify(in *http.Request, resp *http.Response) what {
	if in.Method != http.MethodGet || resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusPartialContent ||
		resp.StatusCode == http.StatusNotModified || resp.StatusCode < 200 {
		return asIs
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	ct = strings.ToLower(ct)
	html := ct == "text/html" // XHTML is XML, which htmlpage does not read: left as it is
	switch in.Header.Get("Sec-Fetch-Dest") {
	case "document", "iframe", "frame":
		if html {
			return aPage
		}
	case "script", "worker", "sharedworker", "serviceworker":
		// Browsers run a classic script of nearly any type; a 4xx or 5xx
		// response they do not run.
		if resp.StatusCode < 300 && (isJS(ct) || ct == "" || ct == "text/plain" || ct == "application/octet-stream") {
			return aScript
		}
	case "":
		// A browser that sends no fetch metadata: by type.
		if html && strings.Contains(in.Header.Get("Accept"), "text/html") {
			return aPage
		}
		if resp.StatusCode < 300 && isJS(ct) {
			return aScript
		}
	}
	return asIs
}

func isJS(ct string) bool {
	switch ct {
	case "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
		"application/ecmascript", "text/x-javascript", "text/jscript", "module":
		return true
	}
	return false
}

// response rewrites a page's or a script's response; everything else is
// streamed through (ReverseProxy: websockets, server-sent events and
// downloads are never held whole).
func (p *Proxy) response(resp *http.Response) error {
	in := resp.Request
	o := in.Context().Value(keyOrigin).(*origin)
	resp.Header.Del("Alt-Svc") // HTTP/3 would go around the proxy
	if o.reverse {
		p.reverseHeaders(resp, o)
	}
	kind := classify(in, resp)
	if kind == asIs {
		return nil
	}
	u := o.front + in.URL.RequestURI()
	page := in.Header.Get("Referer")
	if kind == aPage {
		page = u
	}
	raw, err := readBody(resp.Body, resp.ContentLength, p.o.MaxRewrite+1)
	if err != nil {
		return err
	}
	if int64(len(raw)) > p.o.MaxRewrite {
		// Served as it is, the bytes read first.
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(raw), resp.Body), resp.Body}
		p.fail(resp.Header, page, u, fmt.Sprintf("larger than %d bytes, the most memtrace proxy rewrites", p.o.MaxRewrite))
		return nil
	}
	resp.Body.Close()
	serveAsIs := func(reason string) error {
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		p.fail(resp.Header, page, u, reason)
		return nil
	}
	dec := raw
	if ce := strings.TrimSpace(resp.Header.Get("Content-Encoding")); ce != "" && !strings.EqualFold(ce, "identity") {
		if dec, err = body.Decode(ce, bytes.NewReader(raw), p.o.MaxRewrite); err != nil {
			return serveAsIs(err.Error())
		}
	}
	var out []byte
	switch kind {
	case aPage:
		out, err = p.page(resp, u, dec)
	case aScript:
		out, err = p.script(resp, in, u, dec)
	}
	if err != nil {
		return serveAsIs(firstLine(err.Error()))
	}
	h := resp.Header
	for _, k := range []string{"Content-Encoding", "ETag", "Last-Modified", "Content-MD5", "Digest", "Content-Digest", "Repr-Digest", "Accept-Ranges"} {
		h.Del(k)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	resp.ContentLength = int64(len(out))
	resp.Body = io.NopCloser(bytes.NewReader(out))
	return nil
}

// readBody reads at most limit bytes of a body whose length is n (-1:
// unknown) into one buffer of that size where it is known.
func readBody(r io.Reader, n, limit int64) ([]byte, error) {
	if n < 0 || n >= limit {
		return io.ReadAll(io.LimitReader(r, limit))
	}
	b := make([]byte, 0, n+1)
	for {
		if len(b) == cap(b) {
			// Longer than it said: the rest the slow way.
			rest, err := io.ReadAll(io.LimitReader(r, limit-int64(len(b))))
			return append(b, rest...), err
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// page rewrites a page: read in its encoding, rewritten, written back in
// it; its policies' headers adjusted.
func (p *Proxy) page(resp *http.Response, u string, b []byte) ([]byte, error) {
	ct := resp.Header.Get("Content-Type")
	cs, _ := body.HTMLCharset(ct, b)
	text, err := body.ToUTF8(cs, b)
	if err != nil {
		return nil, err
	}
	h := resp.Header
	policies := h.Values("Content-Security-Policy")
	reports := h.Values("Content-Security-Policy-Report-Only")
	nonce := ""
	if len(policies)+len(reports) > 0 {
		nonce = newNonce()
	}
	for _, ref := range htmlpage.Scripts(text) {
		if key, ok := resolve(u, ref.Src); ok {
			p.mu.Lock()
			if len(p.charsets) > 4096 {
				p.charsets = map[string]string{}
			}
			p.charsets[key] = cs
			p.mu.Unlock()
		}
	}
	pg := p.rw.Page(u, text, nonce)
	out := pg.HTML
	if strings.HasPrefix(cs, "utf-16") {
		// Written as UTF-8, said so in the header, which wins over the
		// page's meta (and a meta saying UTF-16 means UTF-8).
		h.Set("Content-Type", setCharset(ct, "utf-8"))
	} else if out, err = body.FromUTF8(cs, out); err != nil {
		return nil, err
	} else if bom := body.BOM(cs); len(bom) > 0 && bytes.HasPrefix(b, bom) {
		// A BOM wins over the header and the page's meta: kept.
		out = append(append([]byte(nil), bom...), out...)
	}
	p.adjustPolicies(h, pg.Hashes, nonce)
	return out, nil
}

// adjustPolicies rewrites a response's Content-Security-Policy headers
// (each may hold several policies, comma-separated) for the rewritten
// response: memtrace's scripts, connections and Trusted Types policy
// allowed, the rewritten scripts' hashes added.
func (p *Proxy) adjustPolicies(h http.Header, hashes map[string]string, nonce string) {
	c := htmlpage.Change{Hashes: hashes, Connect: p.rw.Connect(), Shim: true, Nonce: nonce, TrustedTypes: htmlpage.TrustedTypesPolicy}
	for _, k := range []string{"Content-Security-Policy", "Content-Security-Policy-Report-Only"} {
		vs := h.Values(k)
		if len(vs) == 0 {
			continue
		}
		h.Del(k)
		for _, v := range vs {
			parts := strings.Split(v, ",")
			for i, pol := range parts {
				parts[i] = htmlpage.AdjustPolicy(pol, c)
			}
			h.Add(k, strings.Join(parts, ", "))
		}
	}
}

// script instruments a script: a classic or module script, or a worker's
// (with the shim loaded first), written in ASCII where it can be, else
// in UTF-8, and said so.
func (p *Proxy) script(resp *http.Response, in *http.Request, u string, b []byte) ([]byte, error) {
	p.mu.Lock()
	fallback := p.charsets[stripFragment(u)]
	p.mu.Unlock()
	if fallback == "" {
		fallback = "utf-8"
	}
	ct := resp.Header.Get("Content-Type")
	text, err := body.ToUTF8(body.ScriptCharset(ct, b, fallback), b)
	if err != nil {
		return nil, err
	}
	dest := in.Header.Get("Sec-Fetch-Dest")
	worker := dest == "worker" || dest == "sharedworker" || dest == "serviceworker"
	goal := js.Script
	if strings.EqualFold(path.Ext(in.URL.Path), ".mjs") ||
		dest == "script" && in.Header.Get("Sec-Fetch-Mode") == "cors" && !p.rw.Classic(stripFragment(u)) {
		goal = js.Module
	}
	p.rw.KeepSource(u, text)
	code, err := p.rw.Script(text, goal, u)
	if worker && err != nil && goal == js.Script {
		// A worker's request does not say whether it is a module: its
		// text does.
		if mcode, merr := p.rw.Script(text, js.Module, u); merr == nil {
			code, err, goal = mcode, nil, js.Module
		}
	}
	if err != nil {
		return nil, err
	}
	if worker {
		code = p.rw.Worker(goal, code)
		p.adjustPolicies(resp.Header, nil, "")
	}
	resp.Header.Set("Content-Type", "text/javascript; charset=utf-8")
	return code, nil
}

// integrity is, for a script with an integrity attribute that a page
// loads, the value for the bytes the proxy will serve for it: the script
// fetched here, checked against the page's value (a script that does
// not match it is left to fail as it would), instrumented as it will be
// when the browser asks.
func (p *Proxy) integrity(page, ref string, module bool, old string) (string, error) {
	u, ok := resolve(page, ref)
	if !ok {
		return "", nil
	}
	pu, err := url.Parse(u)
	if err != nil || !p.intercepts(pu.Hostname()) {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.upstreamURL(pu), nil)
	if err != nil {
		return "", nil
	}
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	// Fetched as the browser would: from this machine's loopback only
	// for a page of it (which only a client on this machine gets).
	resp, err := p.transportFor(page).RoundTrip(req)
	if err != nil {
		return "", nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", nil
	}
	dec, err := body.Decode(resp.Header.Get("Content-Encoding"), io.LimitReader(resp.Body, p.o.MaxRewrite+1), p.o.MaxRewrite)
	if err != nil || !htmlpage.IntegrityMatches(old, dec) {
		return "", nil
	}
	goal := js.Script
	if module || strings.EqualFold(path.Ext(pu.Path), ".mjs") {
		goal = js.Module
	}
	cs := body.ScriptCharset(resp.Header.Get("Content-Type"), dec, "utf-8")
	text, err := body.ToUTF8(cs, dec)
	if err != nil {
		return "", nil
	}
	code, err := p.rw.Script(text, goal, u)
	if err != nil {
		return "", nil
	}
	return htmlpage.IntegrityOf(old, code), nil
}

// ascii writes instrumented code in ASCII where that keeps its meaning
// (a page's charset then cannot change it), else leaves it UTF-8, which
// the proxy says in the Content-Type.
func ascii(code []byte) []byte {
	if a, ok := body.JSASCII(code); ok {
		return a
	}
	return code
}

// upstreamURL is where u is fetched from (the target's, in reverse mode).
func (p *Proxy) upstreamURL(u *url.URL) string {
	if p.o.Target != nil {
		v := *u
		v.Scheme, v.Host = p.o.Target.Scheme, p.o.Target.Host
		return v.String()
	}
	return u.String()
}

func (p *Proxy) transportFor(page string) *http.Transport {
	u, err := url.Parse(page)
	if err != nil {
		return p.remote
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && ip.IsLoopback() || u.Hostname() == "localhost" {
		return p.local
	}
	return p.remote
}

// intercepts reports whether the proxy rewrites host's traffic.
func (p *Proxy) intercepts(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if len(p.o.Hosts) == 0 || host == CheckHost {
		return true
	}
	for _, h := range p.o.Hosts {
		h = strings.ToLower(h)
		if rest, ok := strings.CutPrefix(h, "*."); ok {
			if host == rest || strings.HasSuffix(host, "."+rest) {
				return true
			}
		} else if host == h {
			return true
		}
	}
	return false
}

// reverseHeaders maps the target's names in a response to the proxy's:
// redirects' Location, cookies' Domain (host-only cookies of the proxy's
// host; Secure ones need --tls, as the target's did HTTPS).
func (p *Proxy) reverseHeaders(resp *http.Response, o *origin) {
	if loc := resp.Header.Get("Location"); loc != "" {
		target := o.scheme + "://" + o.host
		if strings.HasPrefix(loc, target+"/") || loc == target {
			resp.Header.Set("Location", o.front+strings.TrimPrefix(loc, target))
		} else if strings.HasPrefix(loc, "//"+o.host+"/") {
			resp.Header.Set("Location", o.front+strings.TrimPrefix(loc, "//"+o.host))
		}
	}
	cookies := resp.Header.Values("Set-Cookie")
	if len(cookies) == 0 {
		return
	}
	resp.Header.Del("Set-Cookie")
	for _, c := range cookies {
		parts := strings.Split(c, ";")
		kept := parts[:1]
		for _, a := range parts[1:] {
			k, _, _ := strings.Cut(strings.TrimSpace(a), "=")
			if strings.EqualFold(k, "domain") {
				continue
			}
			kept = append(kept, a)
		}
		resp.Header.Add("Set-Cookie", strings.Join(kept, ";"))
	}
}

// fail records a response served as it came: a Warning header, a log
// line, and a line in the session.json of the page that loads it.
func (p *Proxy) fail(h http.Header, page, u, reason string) {
	p.o.Log.Printf("%s: served as it is: %s", u, reason)
	h.Add("Warning", fmt.Sprintf("199 memtrace %q", "not instrumented: "+reason))
	if page == "" {
		page = u
	}
	page = stripFragment(page)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.nfail > 4096 {
		p.failed, p.nfail = map[string][]tracedir.Uninstrumented{}, 0
	}
	for _, f := range p.failed[page] {
		if f.Module == u {
			return
		}
	}
	p.failed[page] = append(p.failed[page], tracedir.Uninstrumented{Module: u, Reason: reason})
	p.nfail++
}

// uninstrumented lists, for a session that ends, what its page loaded as
// it was (the collector's SetUninstrumented).
func (p *Proxy) uninstrumented(s *tracedir.Session) []tracedir.Uninstrumented {
	if s.URL == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]tracedir.Uninstrumented(nil), p.failed[stripFragment(s.URL)]...)
}

// upstreamError answers a request the origin did not.
func (p *Proxy) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	o := r.Context().Value(keyOrigin).(*origin)
	p.o.Log.Printf("%s%s: %v", o.front, r.URL.RequestURI(), err)
	if errors.Is(err, context.Canceled) {
		return
	}
	http.Error(w, "memtrace proxy: "+o.host+": "+err.Error(), http.StatusBadGateway)
}

// resolve is a page's script reference as an absolute URL (without its
// fragment), the key of how pages load it.
func resolve(page, ref string) (string, bool) {
	b, err := url.Parse(page)
	if err != nil {
		return "", false
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return "", false
	}
	u := b.ResolveReference(r)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func setCharset(ct, cs string) string {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt == "" {
		mt, params = "text/html", map[string]string{}
	}
	params["charset"] = cs
	return mime.FormatMediaType(mt, params)
}

func newNonce() string {
	var b [16]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// bufferPool lends ReverseProxy its copy buffers.
type bufferPool struct{}

var buffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func (bufferPool) Get() []byte  { return *(buffers.Get().(*[]byte)) }
func (bufferPool) Put(b []byte) { buffers.Put(&b) }

// tunnel is a CONNECT tunnel's authority and client.
type tunnel struct {
	authority string
	loopback  bool
}

// connect serves CONNECT: the tunnel's connection taken over, its TLS
// served with the CA's leaf for the host (or plain HTTP served), or, for
// a host not intercepted, relayed untouched.
func (p *Proxy) connect(w http.ResponseWriter, r *http.Request, loopback bool) {
	authority := r.Host
	host, _, err := net.SplitHostPort(authority)
	if err != nil {
		http.Error(w, "memtrace proxy: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "memtrace proxy: CONNECT over HTTP/2 is not served", http.StatusHTTPVersionNotSupported)
		return
	}
	if !p.intercepts(host) || p.o.CA == nil {
		p.relay(w, hj, authority, loopback)
		return
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		return
	}
	if _, err := c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		c.Close()
		return
	}
	conn := net.Conn(c)
	if n := brw.Reader.Buffered(); n > 0 {
		pre, _ := brw.Reader.Peek(n)
		conn = &prefixConn{Conn: c, r: io.MultiReader(bytes.NewReader(append([]byte(nil), pre...)), c)}
	}
	br := bufio.NewReaderSize(conn, 1)
	c.SetReadDeadline(time.Now().Add(time.Minute))
	first, err := br.Peek(1)
	c.SetReadDeadline(time.Time{})
	if err != nil {
		conn.Close()
		return
	}
	conn = &prefixConn{Conn: c, r: br}
	t := &tunnel{authority: authority, loopback: loopback}
	if first[0] != 0x16 {
		// Not TLS: plain HTTP in the tunnel (a ws:// websocket's).
		p.conns.Store(conn, t)
		p.plainL.push(conn)
		return
	}
	cfg := p.o.CA.TLSConfig(host)
	cfg.NextProtos = []string{"h2", "http/1.1"}
	tc := tls.Server(conn, cfg)
	p.conns.Store(net.Conn(tc), t)
	p.mitmL.push(tc)
}

// relay tunnels a CONNECT to a host the proxy does not intercept.
func (p *Proxy) relay(w http.ResponseWriter, hj http.Hijacker, authority string, loopback bool) {
	d := &net.Dialer{Timeout: 30 * time.Second}
	up, err := p.dial(context.Background(), d, "tcp", authority, loopback)
	if err != nil {
		http.Error(w, "memtrace proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		if n := brw.Reader.Buffered(); n > 0 {
			pre, _ := brw.Reader.Peek(n)
			up.Write(pre)
		}
		io.Copy(up, c)
		if tc, ok := up.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
	}()
	io.Copy(c, up)
	c.Close()
	up.Close()
}

// prefixConn reads through r (bytes already read from Conn first).
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// connListener hands connections taken over from CONNECT to a server.
type connListener struct {
	ch     chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newConnListener() *connListener {
	return &connListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *connListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

func (l *connListener) Addr() net.Addr { return &net.TCPAddr{} }
