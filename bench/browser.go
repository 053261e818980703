package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/todomvc"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/serve"
	"github.com/memtrace/memtrace/tracedir"
)

// The browser group (issue 57), in Debian's headless Chromium: the
// browser bundle's bytes and gzipped bytes; the TodoMVC session (React's
// app, package todomvc's script) and a compute-heavy page
// (bench/pages/compute), each plain (a static server) and instrumented
// (memtrace serve) in the same run, a fresh browser per run, as ratios of
// wall time (medians); and the bytes of trace per second of the
// instrumented session beside what a phone's Wi-Fi carries.

// phoneWiFi is a phone's Wi-Fi throughput in practice (802.11n/ac in a
// room: about 20 Mbit/s of payload), bytes per second.
const phoneWiFi = 2.5e6

func benchBrowser() error {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		fmt.Println("browser group: chromium not found (apt-get install chromium): skipped")
		return nil
	}
	src := []byte(runtimeshim.BrowserSource())
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	zw.Write(src)
	zw.Close()
	t := &table{title: "browser runtime: headless Chromium, wall time, median of the runs (a fresh browser each)"}
	t.add("figure", "plain", "instrumented", "ratio", "target")
	t.add("browser bundle", "", fmt.Sprintf("%d B, %d B gzipped", len(src), z.Len()), "", fmt.Sprintf("<= 60 KB gzipped: %s", verdict(z.Len() <= 60_000)))

	root := repoRoot()
	todo := filepath.Join(root, "..", "shared", "corpora", "todomvc", "react", "dist")
	compute := filepath.Join(root, "bench", "pages", "compute")
	evals := filepath.Join(root, "bench", "pages", "evals")
	var plainTodo, instTodo, plainComp, instComp, plainEval, instEval []time.Duration
	var traceRates []float64
	for run := 0; run < *flagRuns; run++ {
		w, err := browserRun(chromium, todo, false, true)
		if err != nil {
			return err
		}
		plainTodo = append(plainTodo, w.wall)
		w, err = browserRun(chromium, todo, true, true)
		if err != nil {
			return err
		}
		instTodo = append(instTodo, w.wall)
		traceRates = append(traceRates, float64(w.bytes)/w.wall.Seconds())
		w, err = browserRun(chromium, compute, false, false)
		if err != nil {
			return err
		}
		plainComp = append(plainComp, w.wall)
		w, err = browserRun(chromium, compute, true, false)
		if err != nil {
			return err
		}
		instComp = append(instComp, w.wall)
		w, err = browserRun(chromium, evals, false, false)
		if err != nil {
			return err
		}
		plainEval = append(plainEval, w.wall)
		w, err = browserRun(chromium, evals, true, false)
		if err != nil {
			return err
		}
		instEval = append(instEval, w.wall)
	}
	med := func(d []time.Duration) time.Duration {
		s := append([]time.Duration(nil), d...)
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
		return s[len(s)/2]
	}
	rt := med(instTodo).Seconds() / med(plainTodo).Seconds()
	t.add("TodoMVC session (React)", med(plainTodo).Round(time.Millisecond).String(), med(instTodo).Round(time.Millisecond).String(),
		fmt.Sprintf("%.2fx", rt), fmt.Sprintf("<= 3x: %s", verdict(rt <= 3)))
	rc := med(instComp).Seconds() / med(plainComp).Seconds()
	t.add("compute-heavy page", med(plainComp).Round(time.Millisecond).String(), med(instComp).Round(time.Millisecond).String(),
		fmt.Sprintf("%.1fx", rc), "")
	pe, ie := med(plainEval), med(instEval)
	t.add("eval of a new string (200)", fmt.Sprintf("%.3f ms each", pe.Seconds()*1e3/200), fmt.Sprintf("%.2f ms each", ie.Seconds()*1e3/200),
		fmt.Sprintf("%.0fx", ie.Seconds()/pe.Seconds()), "(instrument service, synchronous request)")
	sort.Float64s(traceRates)
	rate := traceRates[len(traceRates)/2]
	t.add("trace of the TodoMVC session", "", fmt.Sprintf("%.2f MB/s", rate/1e6), fmt.Sprintf("%.0f%% of a phone's Wi-Fi", 100*rate/phoneWiFi), "(Wi-Fi: 2.5 MB/s)")
	t.print()
	return nil
}

type browserFigure struct {
	wall  time.Duration
	bytes int64
}

// browserRun serves dir (instrumented through memtrace serve, or plain)
// and runs its page in a fresh headless Chromium: the TodoMVC session
// (todo), or the page until window.__memTestDone, its time the page's own
// window.__elapsed. It returns the wall time and, instrumented, the
// trace's bytes.
func browserRun(chromium, dir string, instrumented, todo bool) (browserFigure, error) {
	var f browserFigure
	var c *collector.Collector
	var h http.Handler = http.FileServer(http.Dir(dir))
	out, err := os.MkdirTemp("", "memtrace-bench-browser-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(out)
	if instrumented {
		c, err = collector.New(collector.Config{Out: filepath.Join(out, "traces"), Log: log.New(io.Discard, "", 0)})
		if err != nil {
			return f, err
		}
		defer c.Close()
		s, err := serve.New(serve.Options{Dir: dir, Collector: c})
		if err != nil {
			return f, err
		}
		defer s.Close()
		h = s
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.Flag("headless", "new"), chromedp.UserDataDir(filepath.Join(out, "profile")))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		return f, err
	}
	tctx, tcancel := context.WithTimeout(ctx, 120*time.Second)
	defer tcancel()
	if todo {
		if _, f.wall, err = todomvc.Run(tctx, srv.URL+"/index.html", 0); err != nil {
			return f, err
		}
	} else {
		if err := chromedp.Do(tctx, chromedp.Navigate(srv.URL+"/index.html")); err != nil {
			return f, err
		}
		for {
			done, err := chromedp.Run(tctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
			if err != nil {
				return f, err
			}
			if done {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		ms, err := chromedp.Run(tctx, chromedp.Evaluate[float64]("window.__elapsed"))
		if err != nil {
			return f, err
		}
		f.wall = time.Duration(ms * float64(time.Millisecond))
	}
	// A person's pause before leaving (not timed): what the shim holds
	// goes out meanwhile (a page left at once ends incomplete when more
	// than its last request takes is unacknowledged: docs/protocol.md),
	// until the collector has had nothing new for half a second.
	time.Sleep(500 * time.Millisecond)
	if instrumented {
		last, still := int64(-1), time.Now()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && time.Since(still) < 500*time.Millisecond; time.Sleep(50 * time.Millisecond) {
			var b int64
			for _, ss := range c.Status().Sessions {
				b += ss.Bytes
			}
			if b != last {
				last, still = b, time.Now()
			}
		}
	}
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		return f, err
	}
	if instrumented {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			names := c.Sessions()
			if len(names) == 0 {
				continue
			}
			s, err := tracedir.ReadSession(filepath.Join(c.Out(), names[0]))
			if err == nil && (s.Status == tracedir.StatusComplete || s.Status == tracedir.StatusIncomplete) {
				if s.Status != tracedir.StatusComplete {
					return f, fmt.Errorf("%s: the session ended %s: %s", dir, s.Status, s.Reason)
				}
				f.bytes = s.Bytes
				return f, nil
			}
		}
		return f, fmt.Errorf("%s: the session did not end", strings.TrimPrefix(dir, repoRoot()))
	}
	return f, nil
}
