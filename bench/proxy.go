package main

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/proxy"
	"github.com/memtrace/memtrace/proxy/ca"
)

// The proxy group (issue 58), on loopback, each figure beside its
// baseline in the same run: the latency a cached instrumented script adds
// to a direct fetch of it (lodash, 540 KB), the first instrumentation of
// Octane's TypeScript compiler through the proxy beside memtrace
// instrument on the same file (CPU time), 100 page loads at once (a page
// and its three scripts each), and the throughput of a download passed
// through beside a direct one.

func benchProxy() error {
	root := repoRoot()
	lodash, err := os.ReadFile(filepath.Join(root, "..", "shared", "corpora", "node", "lodash", "lodash.js"))
	if err != nil {
		return err
	}
	tsFile := filepath.Join(root, "..", "shared", "corpora", "octane", "typescript-compiler.js")
	ts, err := os.ReadFile(tsFile)
	if err != nil {
		return err
	}
	const download = 1 << 30
	page := []byte(`<!doctype html><html><head><title>p</title></head><body><script src="/s1.js"></script><script src="/s2.js"></script><script src="/s3.js"></script><script>var inline = {a: 1};</script></body></html>`)
	mux := http.NewServeMux()
	js := func(b []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(b)
		}
	}
	mux.HandleFunc("/lodash.js", js(lodash))
	mux.HandleFunc("/ts.js", js(ts))
	for i := 1; i <= 3; i++ {
		mux.HandleFunc(fmt.Sprintf("/s%d.js", i), js([]byte(fmt.Sprintf("var s%d = [];\nfor (var i = 0; i < 10; i++) s%d.push({i: i});\n", i, i))))
	}
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", fmt.Sprint(download))
		buf := make([]byte, 1<<20)
		for n := 0; n < download; n += len(buf) {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	})
	up := httptest.NewServer(mux)
	defer up.Close()
	work, err := benchWorkDir("memtrace-bench-proxy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	authority, err := ca.Create(filepath.Join(work, "ca"))
	if err != nil {
		return err
	}
	start := func(name string) (*http.Client, func(), error) {
		c, err := collector.New(collector.Config{Out: filepath.Join(work, name), Log: log.New(io.Discard, "", 0)})
		if err != nil {
			return nil, nil, err
		}
		p, err := proxy.New(proxy.Options{CA: authority, Collector: c})
		if err != nil {
			c.Close()
			return nil, nil, err
		}
		srv := httptest.NewServer(p)
		pu, _ := url.Parse(srv.URL)
		client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu), DisableCompression: true, MaxIdleConnsPerHost: 200}}
		return client, func() { srv.Close(); p.Close(); c.Close() }, nil
	}
	direct := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 200}}
	fetch := func(c *http.Client, u, dest string) (int64, error) {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if dest != "" {
			req.Header.Set("Sec-Fetch-Dest", dest)
		}
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s: %s", u, resp.Status)
		}
		if err == nil && resp.Header.Get("Warning") != "" {
			err = fmt.Errorf("%s: %s", u, resp.Header.Get("Warning"))
		}
		return n, err
	}
	t := &table{title: "proxy: memtrace proxy on loopback (forward, HTTP), medians; each figure beside its baseline in the same run"}
	t.add("figure", "direct", "through the proxy", "ratio", "target")

	// 1. A cached instrumented script's latency.
	client, stop, err := start("latency")
	if err != nil {
		return err
	}
	if _, err := fetch(client, up.URL+"/lodash.js", "script"); err != nil {
		stop()
		return err
	}
	var dl, pl []time.Duration
	for i := 0; i < 101; i++ {
		t0 := time.Now()
		if _, err := fetch(direct, up.URL+"/lodash.js", "script"); err != nil {
			stop()
			return err
		}
		dl = append(dl, time.Since(t0))
		t0 = time.Now()
		if _, err := fetch(client, up.URL+"/lodash.js", "script"); err != nil {
			stop()
			return err
		}
		pl = append(pl, time.Since(t0))
	}
	stop()
	slices.Sort(dl)
	slices.Sort(pl)
	added := pl[len(pl)/2] - dl[len(dl)/2]
	t.add(fmt.Sprintf("cached instrumented script (lodash, %d KB), latency", len(lodash)>>10), ms(dl[len(dl)/2]), ms(pl[len(pl)/2]),
		"+"+ms(added), fmt.Sprintf("<= 2 ms added: %s", verdict(added <= 2*time.Millisecond)))

	// 2. The first instrumentation of a large file, beside memtrace
	// instrument on it.
	bin, err := buildMemtrace(work)
	if err != nil {
		return err
	}
	inst, err := measureCmd("memtrace instrument", tsFile, false, func() *exec.Cmd {
		cmd := exec.Command(bin, "instrument", "--no-shim", tsFile)
		cmd.Stdout = io.Discard
		return cmd
	})
	if err != nil {
		return err
	}
	var first []time.Duration
	for run := 0; run < *flagRuns; run++ {
		client, stop, err := start(fmt.Sprintf("first-%d", run))
		if err != nil {
			return err
		}
		c0 := processCPU()
		_, err = fetch(client, up.URL+"/ts.js", "script")
		first = append(first, processCPU()-c0)
		stop()
		if err != nil {
			return err
		}
	}
	slices.Sort(first)
	f := first[len(first)/2]
	t.add(fmt.Sprintf("first instrumentation, Octane's TypeScript compiler (%.1f MB), CPU", float64(len(ts))/1e6),
		ms(inst.cpu)+" (memtrace instrument)", ms(f), fmt.Sprintf("%.2fx", f.Seconds()/inst.cpu.Seconds()), "")

	// 3. 100 page loads at once.
	client, stop, err = start("concurrent")
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	t0 := time.Now()
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := fetch(client, up.URL+"/page.html", "document")
			for s := 1; s <= 3 && err == nil; s++ {
				_, err = fetch(client, fmt.Sprintf("%s/s%d.js", up.URL, s), "script")
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	wall := time.Since(t0)
	stop()
	t.add("100 page loads at once (a page and 3 scripts each)", "", fmt.Sprintf("%d errors in %s", len(errs), ms(wall)), "",
		fmt.Sprintf("no error: %s", verdict(len(errs) == 0)))
	if len(errs) > 0 {
		fmt.Println("  first error:", errs[0])
	}

	// 4. A download passed through.
	client, stop, err = start("download")
	if err != nil {
		return err
	}
	defer stop()
	var dr, pr []float64
	for run := 0; run < *flagRuns; run++ {
		for _, c := range []*http.Client{direct, client} {
			t0 := time.Now()
			n, err := fetch(c, up.URL+"/big", "")
			if err == nil && n != download {
				err = errors.New("a download cut short")
			}
			if err != nil {
				return err
			}
			rate := float64(n) / time.Since(t0).Seconds() / 1e6
			if c == direct {
				dr = append(dr, rate)
			} else {
				pr = append(pr, rate)
			}
		}
	}
	slices.Sort(dr)
	slices.Sort(pr)
	t.add("download passed through (1 GiB)", fmt.Sprintf("%.0f MB/s", dr[len(dr)/2]), fmt.Sprintf("%.0f MB/s", pr[len(pr)/2]),
		fmt.Sprintf("%.2f", pr[len(pr)/2]/dr[len(dr)/2]), "")
	t.print()
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", d.Seconds()*1e3) }
