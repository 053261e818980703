package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/MakeNowJust/heredoc"
	qrcode "github.com/skip2/go-qrcode"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/proxy"
	"github.com/memtrace/memtrace/proxy/ca"
)

type proxyOptions struct {
	IO                    *IOStreams
	Listen, Out           string
	Target                string
	TLS, LAN              bool
	Open, Browser         string
	Hosts, Allow          []string
	CADir, Cache          string
	ServiceWorkers        string
	InsecureUpstream      bool
	DebugFun              string
	AllUses, AllPutFields bool
	Ready                 chan<- string // tests
	ctx                   context.Context
}

func newCmdProxy(ios *IOStreams, runF func(*proxyOptions) error) *cobra.Command {
	opts := &proxyOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "proxy [--listen ADDR] [--out DIR] [--open URL | --target URL] [flags]",
		Short: "Instrument web apps on the fly through an HTTP(S) proxy, and collect each page's trace",
		Long: heredoc.Doc(`
			Run an HTTP and HTTPS proxy that instruments the pages and scripts it
			relays, so that each page a browser loads through it runs traced: each
			page load is a session, written to a trace directory of its own under
			DIR (default ./memtrace-traces) when the page goes away.

			As a forward proxy (the default) it relays plain HTTP and intercepts
			HTTPS through CONNECT with memtrace's own certificate authority (memtrace
			ca), which the browser must trust. --open URL does all of it for a
			desktop: it starts Chromium (or --browser) with a profile of its own
			that uses the proxy and trusts the CA for that profile only, opens URL,
			and ends the sessions when the browser closes.

			As a reverse proxy (--target URL) it serves the app at its own address:
			no set-up in the browser; redirects and cookies are mapped to the
			proxy's address, and --tls serves it over HTTPS (for Secure cookies).

			Whatever memtrace cannot instrument is served as it came, with a Warning
			header, a log line, and a line in the page's session.json. Service
			workers are refused unless --service-workers instrument. Clients are
			served from loopback and private addresses only (--allow widens it), and
			a client from the LAN never reaches this machine's loopback through it.
			Upstream certificates are always verified unless
			--insecure-skip-upstream-verify is given.

			memtrace's own requests live under /__memtrace__/ on every origin: the
			shim, the collector (its status page: /__memtrace__/?token=...), the
			instrument service, and the CA certificate (ca.pem, ca.crt).
		`),
		Example: examples(`
			$ memtrace proxy --open https://todomvc.com/examples/react/dist/
			$ memtrace proxy --listen 127.0.0.1:8080
			$ memtrace proxy --lan
			$ memtrace proxy --target http://localhost:3000 --listen 127.0.0.1:8000
		`),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.LAN && !cmd.Flags().Changed("listen") {
				opts.Listen = "0.0.0.0:8080"
			}
			if runF != nil {
				return runF(opts)
			}
			return proxyRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Listen, "listen", "127.0.0.1:8080", "the `ADDR` to listen on (host:port; with --lan, 0.0.0.0:8080 unless given)")
	f.BoolVar(&opts.LAN, "lan", false, "listen on the LAN for phones and other devices: print each LAN address and a QR code of the set-up page")
	f.StringVar(&opts.Out, "out", "memtrace-traces", "the `DIR` of the sessions (new, empty, or an earlier memtrace collect's, serve's or proxy's)")
	f.StringVar(&opts.Target, "target", "", "be a reverse proxy of the app at `URL`")
	f.BoolVar(&opts.TLS, "tls", false, "serve the reverse proxy over HTTPS, with a certificate of memtrace's CA")
	f.StringVar(&opts.Open, "open", "", "start a browser that uses the proxy and trusts its CA, open `URL`, and stop when the browser closes")
	f.StringVar(&opts.Browser, "browser", "", "the browser --open starts: a `COMMAND` and its arguments, split at spaces (default: chromium)")
	f.StringSliceVar(&opts.Hosts, "hosts", nil, "intercept only these `HOSTS` (name, or *.name for its subdomains); others are tunnelled untouched")
	f.StringSliceVar(&opts.Allow, "allow", nil, "serve clients from these `CIDR` ranges besides loopback and private addresses")
	f.StringVar(&opts.CADir, "ca-dir", "", "the CA's `DIR` (default: memtrace/ca in the user's config directory)")
	f.StringVar(&opts.Cache, "cache", "", "keep instrumented code in `DIR` (default: memtrace/proxy in the user's cache directory; \"none\": memory only)")
	f.StringVar(&opts.ServiceWorkers, "service-workers", "block", "`block` service workers' registrations, or instrument them")
	f.BoolVar(&opts.InsecureUpstream, "insecure-skip-upstream-verify", false, "do not verify upstream servers' certificates (dangerous: anyone on the way can read and change the traffic)")
	f.StringVar(&opts.DebugFun, "debug-fun", "", "mark each call to the function `NAME` in the trace (MemInsight's tests call jalangiRC)")
	f.BoolVar(&opts.AllUses, "all-uses", false, "record every use of an object, not only its last (MemInsight's all-uses mode)")
	f.BoolVar(&opts.AllPutFields, "all-putfields", false, "record every property write, also of primitive values")
	return cmd
}

func proxyRun(opts *proxyOptions) error {
	if opts.Open != "" && opts.Target != "" {
		return errors.New("--open and --target: --open starts a browser for the forward proxy; a reverse proxy is opened at its own address")
	}
	var target *url.URL
	if opts.Target != "" {
		u, err := url.Parse(opts.Target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("--target %q: an http:// or https:// URL of the app", opts.Target)
		}
		target = u
	} else if opts.TLS {
		return errors.New("--tls serves a reverse proxy (--target) over HTTPS; a forward proxy's HTTPS is the browser's, through CONNECT")
	}
	var allow []netip.Prefix
	for _, a := range opts.Allow {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			if ip, ierr := netip.ParseAddr(a); ierr == nil {
				p = netip.PrefixFrom(ip, ip.BitLen())
			} else {
				return fmt.Errorf("--allow %q: a CIDR range (192.0.2.0/24) or an address", a)
			}
		}
		allow = append(allow, p)
	}
	dir := opts.CADir
	if dir == "" {
		var err error
		if dir, err = ca.DefaultDir(); err != nil {
			return err
		}
	}
	authority, err := ca.LoadOrCreate(dir)
	if err != nil {
		return err
	}
	cache := opts.Cache
	switch cache {
	case "":
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "memtrace", "proxy")
		}
	case "none":
		cache = ""
	}
	logger := log.New(opts.IO.ErrOut, "memtrace proxy: ", log.LstdFlags)
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	gctune.Collector()
	c, err := collector.New(collector.Config{Out: opts.Out, Version: buildInfo().Version, Log: logger})
	if err != nil {
		ln.Close()
		return err
	}
	p, err := proxy.New(proxy.Options{CA: authority, Collector: c, DebugFun: opts.DebugFun, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields,
		CacheDir: cache, Log: logger, Target: target, Hosts: opts.Hosts, Allow: allow, InsecureUpstream: opts.InsecureUpstream,
		ServiceWorkers: opts.ServiceWorkers, Self: selfAddrs(addr)})
	if err != nil {
		ln.Close()
		c.Close()
		return err
	}
	defer p.Close()
	host := addr
	if hh, port, err := net.SplitHostPort(addr); err == nil && (hh == "0.0.0.0" || hh == "::") {
		host = net.JoinHostPort("127.0.0.1", port)
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, ErrorLog: log.New(opts.IO.ErrOut, "memtrace proxy: ", 0)}
	scheme := "http"
	if opts.TLS {
		cfg := authority.TLSConfig(strings.Split(host, ":")[0])
		cfg.NextProtos = []string{"h2", "http/1.1"}
		srv.TLSConfig = cfg
		scheme = "https"
	}
	served := make(chan error, 1)
	go func() {
		if opts.TLS {
			served <- srv.ServeTLS(ln, "", "")
		} else {
			served <- srv.Serve(ln)
		}
	}()
	w := opts.IO.ErrOut
	if warn := opts.InsecureUpstream; warn {
		fmt.Fprintf(w, "memtrace proxy: WARNING: upstream certificates are not verified (--insecure-skip-upstream-verify)\n")
	}
	if target != nil {
		fmt.Fprintf(w, "memtrace proxy: %s instrumented at %s://%s/ (each page's trace goes to %s)\n", target, scheme, host, opts.Out)
	} else {
		fmt.Fprintf(w, "memtrace proxy: listening on %s: set it as the browser's HTTP and HTTPS proxy (each page's trace goes to %s)\n", host, opts.Out)
		fmt.Fprintf(w, "  the CA to trust: %s (memtrace ca export), fingerprint SHA-256 %s\n", filepath.Join(authority.Dir, ca.CertFile), authority.Fingerprint())
	}
	fmt.Fprintf(w, "  status: %s://%s%s?token=%s\n", scheme, host, collector.Prefix, c.Token())
	if opts.LAN {
		printLAN(w, addr, scheme)
	}
	ctx := opts.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	var browserDone chan error
	if opts.Open != "" {
		var cleanup func()
		browserDone, cleanup, err = openBrowser(opts, host, authority)
		if err != nil {
			srv.Close()
			c.Close()
			return err
		}
		defer cleanup()
	}
	if opts.Ready != nil {
		opts.Ready <- addr
	}
	var runErr error
	select {
	case <-ctx.Done():
	case err := <-served:
		c.Close()
		return err
	case err := <-browserDone:
		if err != nil {
			runErr = fmt.Errorf("the browser: %w", err)
		}
		fmt.Fprintf(w, "memtrace proxy: the browser closed\n")
	}
	fmt.Fprintf(w, "memtrace proxy: stopping: asking pages to end their sessions\n")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = c.Shutdown(sctx)
	srv.Close()
	c.Close()
	for _, name := range c.Sessions() {
		fmt.Fprintf(w, "  %s\n", filepath.Join(opts.Out, name))
	}
	if runErr != nil {
		return runErr
	}
	return err
}

// printLAN prints the addresses devices on the LAN reach the proxy at,
// and a QR code of the set-up page at the first (a phone's camera opens
// it).
func printLAN(w io.Writer, addr, scheme string) {
	h, port, _ := net.SplitHostPort(addr)
	var lan []string
	if ip, err := netip.ParseAddr(h); err == nil && !ip.IsUnspecified() {
		if ip.IsLoopback() {
			fmt.Fprintf(w, "memtrace proxy: --lan, but %s is loopback: devices on the LAN cannot reach it (--listen 0.0.0.0:%s)\n", h, port)
			return
		}
		lan = append(lan, ip.String())
	} else if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			ip, ok := netip.AddrFromSlice(n.IP)
			if ok && ip.Unmap().Is4() && (ip.IsPrivate() || ip.IsLinkLocalUnicast()) {
				lan = append(lan, ip.Unmap().String())
			}
		}
	}
	if len(lan) == 0 {
		fmt.Fprintf(w, "memtrace proxy: --lan, but this machine has no private LAN address\n")
		return
	}
	fmt.Fprintf(w, "  on the LAN: set the device's Wi-Fi proxy to one of these, port %s, then open the set-up page:\n", port)
	for _, ip := range lan {
		fmt.Fprintf(w, "    %s   set-up: %s://%s/\n", ip, scheme, net.JoinHostPort(ip, port))
	}
	if q, err := qrcode.New(scheme+"://"+net.JoinHostPort(lan[0], port)+"/", qrcode.Medium); err == nil {
		fmt.Fprint(w, q.ToSmallString(false))
	}
	fmt.Fprintf(w, "  clients are served from loopback and private addresses only (--allow CIDR widens it)\n")
}

// selfAddrs are the proxy's own addresses for its listening address.
func selfAddrs(addr string) []string {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return []string{addr}
	}
	out := []string{addr, net.JoinHostPort("localhost", port)}
	if ip := net.ParseIP(h); ip != nil && ip.IsUnspecified() {
		out = append(out, net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port))
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					out = append(out, net.JoinHostPort(n.IP.String(), port))
				}
			}
		}
	}
	return out
}

// openBrowser starts the browser of --open with a throw-away profile that
// uses the proxy (loopback included) and trusts memtrace's CA by its
// public key's hash, for that profile only.
func openBrowser(opts *proxyOptions, host string, authority *ca.CA) (chan error, func(), error) {
	argv := strings.Fields(opts.Browser)
	if len(argv) == 0 {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
			if p, err := exec.LookPath(name); err == nil {
				argv = []string{p}
				break
			}
		}
		if len(argv) == 0 {
			return nil, nil, errors.New("--open: no Chromium found (install chromium, or name a browser with --browser)")
		}
	}
	profile, err := os.MkdirTemp("", "memtrace-browser-")
	if err != nil {
		return nil, nil, err
	}
	args := append(argv[1:],
		"--user-data-dir="+profile,
		"--proxy-server=http://"+host,
		"--proxy-bypass-list=<-loopback>",
		"--ignore-certificate-errors-spki-list="+authority.SPKIHash(),
		"--no-first-run", "--no-default-browser-check", "--disable-quic",
		// The browser's own traffic (updates, sync, suggestions) is not the
		// app's: kept out of the proxy's way.
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
		"--no-pings", "--disable-domain-reliability", "--disable-features=OptimizationHints,AutofillServerCommunication,Translate,MediaRouter",
		opts.Open)
	cmd := exec.Command(argv[0], args...)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		os.RemoveAll(profile)
		return nil, nil, fmt.Errorf("--open: %w", err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "memtrace proxy: opened %s in %s (a profile of its own); close the browser to end\n", opts.Open, filepath.Base(argv[0]))
	done := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		done <- cmd.Wait()
		close(exited)
	}()
	cleanup := func() {
		select {
		case <-exited:
		default:
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				<-exited
			}
		}
		os.RemoveAll(profile)
	}
	return done, cleanup, nil
}
