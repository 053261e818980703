package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/internal/todomvc"
	"github.com/memtrace/memtrace/proxy/ca"
	"github.com/memtrace/memtrace/tracedir"
)

// TestProxyOpen: memtrace proxy --open starts the browser with a profile
// that uses the proxy, opens the URL, and ends when the browser closes:
// each TodoMVC app, driven through the scripted session in the browser it
// opened, shows what it shows untraced, and each page load is a complete
// session in --out.
func TestProxyOpen(t *testing.T) {
	for _, app := range []string{"javascript-es6", "jquery", "react"} {
		t.Run(app, func(t *testing.T) { proxyOpen(t, app) })
	}
}

func proxyOpen(t *testing.T, name string) {
	dir := testcorpus.Dir(t, "todomvc", name, "dist")
	app := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer app.Close()
	page := app.URL + "/" // http.FileServer answers /index.html with a redirect here
	want := pagetest.RunTodo(t, page)

	// The browser --open starts: headless Chromium with DevTools on a port
	// of the test's, so that the test drives the page it opened.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	devtools := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(devtools)
	wrapper := filepath.Join(t.TempDir(), "browser")
	require.NoError(t, os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+testcorpus.Chromium(t)+
		" --headless=new --no-sandbox --disable-gpu --remote-debugging-port="+port+" \"$@\"\n"), 0o755))

	out := filepath.Join(t.TempDir(), "traces")
	errOut := &syncBuffer{}
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: errOut}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	cmd := newCmdProxy(ios, func(o *proxyOptions) error {
		o.Ready, o.ctx = ready, context.Background()
		err := proxyRun(o)
		done <- err
		return err
	})
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--out", out, "--ca-dir", filepath.Join(t.TempDir(), "ca"), "--cache", "none",
		"--open", page, "--browser", wrapper})
	go cmd.Execute()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("memtrace proxy: %v\n%s", err, errOut.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get("http://" + devtools + "/json/version")
		if err == nil {
			resp.Body.Close()
			break
		}
		require.True(t, time.Now().Before(deadline), "the browser's DevTools: %v", err)
	}
	actx, cancelA := remote.NewAllocator(ctx, "http://"+devtools)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	// The tab --open opened, on the app.
	var tab *target.Info
	for deadline := time.Now().Add(20 * time.Second); tab == nil; time.Sleep(100 * time.Millisecond) {
		targets, err := chromedp.Targets(bctx)
		require.NoError(t, err)
		for _, tg := range targets {
			if tg.Type == "page" && strings.HasPrefix(tg.URL, app.URL) {
				tab = tg
			}
		}
		require.True(t, time.Now().Before(deadline), "no tab opened %s: %v", page, targets)
	}
	tctx, cancelT := chromedp.NewContext(bctx, chromedp.WithTargetID(tab.TargetID))
	defer cancelT()
	// The page --open loaded runs traced (then the scripted session loads
	// it again).
	for {
		ok, _ := chromedp.Run(tctx, chromedp.Evaluate[bool](`document.readyState === 'complete' && typeof window.__mt === 'object'`))
		if ok {
			break
		}
		require.NoError(t, tctx.Err(), "the page --open opened does not run traced")
		time.Sleep(100 * time.Millisecond)
	}
	settle(t, errOut.String())
	got, _, err := todomvc.RunLike(tctx, page, 100*time.Millisecond, want)
	require.NoError(t, err)
	for i := range todomvc.Steps {
		require.Equal(t, want[i], got[i], "after %q", todomvc.Steps[i].Name)
	}
	settle(t, errOut.String())
	require.NoError(t, chromedp.Do(tctx, chromedp.Navigate("about:blank")))
	time.Sleep(300 * time.Millisecond)
	closeBrowser(t, devtools) // as the user does

	select {
	case err := <-done:
		require.NoError(t, err, errOut.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("memtrace proxy did not end when the browser closed:\n%s", errOut.String())
	}
	require.Contains(t, errOut.String(), "the browser closed")
	ents, err := os.ReadDir(out)
	require.NoError(t, err)
	var sessions []*tracedir.Session
	for _, e := range ents {
		if e.IsDir() {
			s, err := tracedir.ReadSession(filepath.Join(out, e.Name()))
			require.NoError(t, err)
			sessions = append(sessions, s)
		}
	}
	// The page --open loaded, and the scripted session's load.
	require.Len(t, sessions, 2, errOut.String())
	for _, s := range sessions {
		require.Equal(t, tracedir.StatusComplete, s.Status, "%s: %s", s.URL, s.Reason)
		require.Equal(t, page, s.URL)
	}
}

// closeBrowser sends Browser.close to the browser whose DevTools listen
// at addr (chromedp closes only the browsers it started).
func closeBrowser(t *testing.T, addr string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/json/version")
	require.NoError(t, err)
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&v))
	resp.Body.Close()
	c, _, err := websocket.DefaultDialer.Dial(v.WS, nil)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.WriteJSON(map[string]any{"id": 1, "method": "Browser.close"}))
	c.ReadMessage()
}

// TestProxyFlags: flags that contradict each other, or name what is not
// an address, stop memtrace proxy before it listens, saying why.
func TestProxyFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--open", "http://a/", "--target", "http://b/"}, "--open and --target"},
		{[]string{"--tls"}, "--tls serves a reverse proxy"},
		{[]string{"--target", "ftp://x/"}, "an http:// or https:// URL"},
		{[]string{"--allow", "not-a-range"}, "a CIDR range"},
		{[]string{"--service-workers", "cache"}, "neither block nor instrument"},
	} {
		ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
		cmd := newCmdProxy(ios, nil)
		cmd.SetArgs(append([]string{"--listen", "127.0.0.1:0", "--out", filepath.Join(t.TempDir(), "o"), "--ca-dir", filepath.Join(t.TempDir(), "ca"), "--cache", "none"}, c.args...))
		cmd.SilenceUsage, cmd.SilenceErrors = true, true
		err := cmd.Execute()
		require.Error(t, err, c.args)
		require.Contains(t, err.Error(), c.want, c.args)
	}
}

// settle waits, as a person pauses before leaving a page, until the
// collector of the memtrace proxy whose output is out has had no new
// bytes for 700 ms: what the page's shim holds has gone out (a page left
// at once with more than its last request carries ends incomplete:
// docs/protocol.md).
func settle(t *testing.T, out string) {
	t.Helper()
	m := regexp.MustCompile(`status: (http://\S+/__memtrace__/)\?token=(\w+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	last, still := int64(-1), time.Now()
	for deadline := time.Now().Add(60 * time.Second); time.Since(still) < 700*time.Millisecond; time.Sleep(50 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the trace did not settle")
		resp, err := http.Get(m[1] + "status.json?token=" + m[2])
		require.NoError(t, err)
		var st collector.Status
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
		resp.Body.Close()
		var b int64
		for _, s := range st.Sessions {
			b += s.Bytes
		}
		if b != last || b == 0 {
			last, still = b, time.Now()
		}
	}
}

// TestProxyReverseTLS: memtrace proxy --target URL --tls serves the app
// over HTTPS with a leaf of memtrace's CA, so that a Secure cookie keeps
// working; redirects come back to the proxy's https address.
func TestProxyReverseTLS(t *testing.T) {
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" {
			http.SetCookie(w, &http.Cookie{Name: "sid", Value: "1", Secure: true, Path: "/"})
			http.Redirect(w, r, "http://"+r.Host+"/home", http.StatusFound)
			return
		}
		io.WriteString(w, "home "+r.Header.Get("Cookie"))
	}))
	defer app.Close()
	caDir := filepath.Join(t.TempDir(), "ca")
	errOut := &syncBuffer{}
	ios := &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: errOut}
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cmd := newCmdProxy(ios, func(o *proxyOptions) error {
		o.Ready, o.ctx = ready, ctx
		err := proxyRun(o)
		done <- err
		return err
	})
	cmd.SetArgs([]string{"--listen", "127.0.0.1:0", "--out", filepath.Join(t.TempDir(), "traces"), "--ca-dir", caDir, "--cache", "none",
		"--target", app.URL, "--tls"})
	go cmd.Execute()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("memtrace proxy: %v\n%s", err, errOut.String())
	}
	authority, err := ca.Load(caDir)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(authority.Cert)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := client.Get("https://" + addr + "/login")
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, "home sid=1", string(b), "the Secure cookie did not come back over the proxy's HTTPS")
	require.Equal(t, "https://"+addr+"/home", resp.Request.URL.String())
	require.Contains(t, errOut.String(), "instrumented at https://"+addr+"/")
	cancel()
	require.NoError(t, <-done)
}

// TestPrintLAN: --lan prints each address to configure, the set-up page
// at it, and a QR code of the first; a loopback address says why phones
// cannot reach it.
func TestPrintLAN(t *testing.T) {
	var b bytes.Buffer
	printLAN(&b, "10.1.2.3:8080", "http")
	out := b.String()
	require.Contains(t, out, "port 8080")
	require.Contains(t, out, "10.1.2.3   set-up: http://10.1.2.3:8080/")
	require.Contains(t, out, "█", "no QR code")
	require.GreaterOrEqual(t, strings.Count(out, "\n"), 15, out)
	b.Reset()
	printLAN(&b, "127.0.0.1:8080", "http")
	require.Contains(t, b.String(), "is loopback: devices on the LAN cannot reach it")
}
