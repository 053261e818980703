package proxy

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/proxy/ca"
	"github.com/memtrace/memtrace/tracedir"
)

// netns is a network namespace the test made, joined to this machine by
// a veth pair: this machine is net.1 on its side, the namespace net.2.
type netns struct {
	name      string
	host, dev string // this machine's address, and the namespace's
}

func newNetns(t *testing.T, tag, prefix string) *netns {
	t.Helper()
	if os.Geteuid() != 0 {
		testcorpus.Missing(t, "network namespaces need root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		testcorpus.Missing(t, "ip (iproute2) not found")
	}
	n := &netns{name: fmt.Sprintf("mt%s%d", tag, os.Getpid()%100000), host: prefix + ".1", dev: prefix + ".2"}
	outer, inner := "mtv"+tag+"0", "mtv"+tag+"1"
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	exec.Command("ip", "link", "del", outer).Run() // an earlier run's
	exec.Command("ip", "netns", "del", n.name).Run()
	run("netns", "add", n.name)
	t.Cleanup(func() {
		exec.Command("ip", "link", "del", outer).Run()
		exec.Command("ip", "netns", "del", n.name).Run()
	})
	run("link", "add", outer, "type", "veth", "peer", "name", inner)
	run("link", "set", inner, "netns", n.name)
	run("addr", "add", n.host+"/24", "dev", outer)
	run("link", "set", outer, "up")
	run("-n", n.name, "addr", "add", n.dev+"/24", "dev", inner)
	run("-n", n.name, "link", "set", inner, "up")
	run("-n", n.name, "link", "set", "lo", "up")
	run("-n", n.name, "route", "add", "default", "via", n.host)
	return n
}

// dial connects from inside the namespace: a thread of its own joins it
// (a socket stays in the namespace it was made in) and is then dropped.
func (n *netns) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	type res struct {
		c   net.Conn
		err error
	}
	ch := make(chan res, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		fd, err := unix.Open("/var/run/netns/"+n.name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			ch <- res{nil, err}
			return
		}
		defer unix.Close(fd)
		if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
			ch <- res{nil, err}
			return
		}
		c, err := (&net.Dialer{Timeout: 10 * time.Second}).DialContext(ctx, network, addr)
		ch <- res{c, err}
	}()
	r := <-ch
	return r.c, r.err
}

// client is an HTTP client in the namespace, through the proxy at
// proxyAddr, that trusts roots.
func (n *netns) client(proxyAddr string, roots *x509.CertPool) *http.Client {
	pu, _ := url.Parse("http://" + proxyAddr)
	return &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(pu), DialContext: n.dial,
		TLSClientConfig: &tls.Config{RootCAs: roots}}}
}

// chromium starts headless Chromium inside the namespace with opts (a
// wrapper that joins it: chromedp's pipes pass through), and returns its
// chromedp context.
func (n *netns) chromium(t *testing.T, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	wrapper := filepath.Join(t.TempDir(), "chromium-in-"+n.name)
	script := "#!/bin/sh\nexec ip netns exec " + n.name + " " + testcorpus.Chromium(t) + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return pagetest.Browser(t, append([]chromedp.ExecAllocatorOption{chromedp.ExecPath(wrapper)}, opts...)...)
}

// TestPhoneOnTheLAN: a phone on the LAN, simulated by Chromium in a
// network namespace of its own with a private address, reaches the
// proxy's LAN address, takes the CA from the set-up page (whose check
// fails until the CA is trusted, then passes), loads an HTTPS site
// through the proxy, and its trace arrives complete. A client from an
// address outside the private ranges is refused, and a client on the LAN
// does not reach this machine's loopback services through the proxy.
func TestPhoneOnTheLAN(t *testing.T) {
	phone := newNetns(t, "p", "10.213.7")
	outside := newNetns(t, "o", "198.51.100")

	// An HTTPS site on this machine's LAN side, a service on its loopback.
	sl, err := net.Listen("tcp", phone.host+":0")
	if err != nil {
		t.Fatal(err)
	}
	siteCA, err := ca.Create(filepath.Join(t.TempDir(), "site-ca"))
	if err != nil {
		t.Fatal(err)
	}
	siteCert, err := siteCA.Leaf(phone.host)
	if err != nil {
		t.Fatal(err)
	}
	site := newHardSiteOn(t, sl, siteCert)
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "loopback secret") }))
	defer secret.Close()

	pr := startProxyOn(t, "0.0.0.0:0", Options{}, site.Server)
	_, port, _ := net.SplitHostPort(pr.addr)
	lanProxy := net.JoinHostPort(phone.host, port)

	// The set-up page: the CA, and a check that fails while it is not
	// trusted.
	ctx := phone.chromium(t, chromedp.ProxyServer("http://"+lanProxy))
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	setup := "http://" + lanProxy + "/"
	if err := chromedp.Do(tctx, chromedp.Navigate(setup)); err != nil {
		t.Fatal(err)
	}
	waitState(t, tctx, "fail")
	pemText, err := chromedp.Run(tctx, chromedp.Evaluate[string](`fetch(document.getElementById('ca-pem').href).then(r => r.text())`,
		func(p *cdpruntime.EvaluateParams) { yes := true; p.AwaitPromise = &yes }))
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode([]byte(pemText))
	if blk == nil {
		t.Fatalf("the set-up page's certificate: %q", pemText)
	}
	cert, err := x509.ParseCertificate(blk.Bytes)
	if err != nil || !cert.Equal(pr.ca.Cert) {
		t.Fatalf("the set-up page gives another certificate (%v)", err)
	}
	platform, _ := chromedp.Run(tctx, chromedp.Evaluate[string](`document.getElementById('platform').dataset.platform`))
	if platform != "linux" {
		t.Errorf("the set-up page takes headless Chromium on Linux for %q", platform)
	}
	cancel()

	// The phone trusts the CA it took (its public key, for its profile).
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	ctx = phone.chromium(t, chromedp.ProxyServer("http://"+lanProxy),
		chromedp.Flag("ignore-certificate-errors-spki-list", base64.StdEncoding.EncodeToString(sum[:])))
	tctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(setup)); err != nil {
		t.Fatal(err)
	}
	waitState(t, tctx, "ok")
	page := site.URL + "/encoded-gzip/"
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	pagetest.WaitDone(t, tctx)
	res, _ := chromedp.Run(tctx, chromedp.Evaluate[string]("JSON.stringify(window.results)"))
	if !strings.Contains(res, `"last":"item 49"`) {
		t.Errorf("the page through the proxy: %s", res)
	}
	time.Sleep(200 * time.Millisecond)
	pagetest.Leave(t, tctx)
	sessions := pagetest.WaitSessions(t, pr.c, 1)
	if s := sessions[0]; s.Status != tracedir.StatusComplete || s.URL != page || !strings.HasPrefix(s.Remote, phone.dev+":") {
		t.Fatalf("the phone's session: %s (%s), page %s, from %s", s.Status, s.Reason, s.URL, s.Remote)
	}
	pagetest.CheckedTrace(t, pr.c, pr.c.Sessions()[0])

	// A client outside the private ranges is refused.
	resp, err := outside.client(net.JoinHostPort(outside.host, port), nil).Get(page)
	if err == nil {
		resp.Body.Close()
	}
	if err == nil && resp.StatusCode != http.StatusForbidden {
		t.Errorf("a client from %s: %s", outside.dev, resp.Status)
	}
	if err != nil && !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("a client from %s: %v", outside.dev, err)
	}

	// A LAN client does not reach this machine's loopback, by any name.
	roots := x509.NewCertPool()
	roots.AddCert(pr.ca.Cert)
	lan := phone.client(lanProxy, roots)
	_, sport, _ := net.SplitHostPort(strings.TrimPrefix(secret.URL, "http://"))
	for _, u := range []string{secret.URL, "http://localhost:" + sport, "https://127.0.0.1:" + sport, "http://[::1]:" + sport} {
		resp, err := lan.Get(u)
		if err != nil {
			t.Errorf("%s from the LAN: %v (want the proxy's refusal)", u, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(b), "loopback, which a client from elsewhere does not reach") {
			t.Errorf("%s from the LAN: %s %q", u, resp.Status, b)
		}
	}
	// This machine itself, by its loopback address, still is.
	resp, err = pr.client().Get(secret.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a loopback client: %s", resp.Status)
	}
}

// waitState waits until the set-up page's check reads state.
func waitState(t *testing.T, ctx context.Context, state string) {
	t.Helper()
	for {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('check').dataset.state`))
		if s == state {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the set-up page's check reads %q (%v), not %q", s, err, state)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
