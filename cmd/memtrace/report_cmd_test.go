package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/report"
)

// reportPage opens a report in headless Chromium and fails the test on
// any console error or warning, page exception or log entry of level
// error (a CSP violation, a failed load); it waits for the first render.
func reportPage(t *testing.T, file string, dark bool) context.Context {
	t.Helper()
	ctx := pagetest.Browser(t, chromedp.WindowSize(1280, 900))
	var mu sync.Mutex
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *cdpruntime.EventExceptionThrown:
			t.Errorf("page exception: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception.Description)
		case *cdpruntime.EventConsoleAPICalled:
			if e.Type == cdpruntime.ConsoleAPICalledTypeError || e.Type == cdpruntime.ConsoleAPICalledTypeWarning || e.Type == cdpruntime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				t.Errorf("console %s: %s", e.Type, strings.Join(args, " "))
			}
		case *network.EventRequestWillBeSent:
			if u := e.Request.URL; !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				t.Errorf("the page asked the network for %s", u)
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				t.Errorf("browser log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL)
			}
		}
	}))
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	abs, err := filepath.Abs(file)
	require.NoError(t, err)
	_, err = chromedp.Call(tctx, cdplog.Enable, cdp.Empty{})
	require.NoError(t, err)
	_, err = chromedp.Call(tctx, network.Enable, network.EnableParams{})
	require.NoError(t, err)
	if dark {
		_, err = chromedp.Call(tctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		require.NoError(t, err)
	}
	require.NoError(t, chromedp.Do(tctx, chromedp.Navigate("file://"+abs), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"]`))))
	return tctx
}

func evalJSON[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	var out T
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
	require.NoError(t, err, expr)
	require.NoError(t, json.Unmarshal([]byte(s), &out), s)
	return out
}

func route(t *testing.T, ctx context.Context, hash, want string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[any](fmt.Sprintf("location.hash = %q", hash)))
	require.NoError(t, err)
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := evalJSON[string](t, ctx, "document.documentElement.dataset.route || ''")
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("route %s: the page says %q, want %q", hash, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestReportOfTheDemo: the report of the demo's trace, read in Chromium:
// no console error; the leaking site first, with its code frame; its
// retaining path names the render cache, at the end and at a moment
// picked through the run; every number of the sites table and of the
// totals equals memtrace lifetime --format json's on the same trace; the
// baseline (demo --fixed) shows the leaking site as the one that grew;
// the table filters and the keys work; dark colours apply.
func TestReportOfTheDemo(t *testing.T) {
	leaky, fixed := demoPair(t)
	out := filepath.Join(t.TempDir(), "demo.html")
	code, _, errOut := runCmd(t, "", "report", "-o", out, "--baseline", fixed, leaky)
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, errOut, "1 leaking site")
	code, sumJSON, errOut := runCmd(t, "", "lifetime", "--format", "json", leaky)
	require.Equal(t, ExitOK, code, errOut)
	var sum lifetime.Summary
	require.NoError(t, json.Unmarshal([]byte(sumJSON), &sum))
	ranked := report.Rank(sum.Sites)
	line, col := positionOf(t, demoServer, demoLeakText)
	mline, mcol := positionOf(t, demoServer, "new Map();\n  return function")

	ctx := reportPage(t, out, false)

	// The overview's totals and table, cell by cell.
	totals := evalJSON[map[string]int64](t, ctx, `Object.fromEntries([...document.querySelectorAll('[data-total]')].map(e => [e.dataset.total, +e.dataset.value]))`)
	want := map[string]int64{"allocated": sum.Totals.Allocated, "maxLive": sum.Totals.MaxLive, "maxStale": sum.Totals.MaxStale,
		"sites": int64(sum.Totals.Sites), "leakingSites": int64(sum.Totals.LeakingSites), "idlePoints": sum.Totals.IdlePoints}
	for k, v := range want {
		if assert.Contains(t, totals, k, "the overview shows no total %s", k) {
			assert.Equal(t, v, totals[k], "total %s", k)
		}
	}
	type row struct {
		ID     int               `json:"id"`
		Fields map[string]string `json:"fields"`
		Leak   bool              `json:"leak"`
	}
	rows := evalJSON[[]row](t, ctx, `[...document.querySelectorAll('tr[data-site-id]')].map(tr => ({id: +tr.dataset.siteId,
		leak: /LEAKING/i.test(tr.textContent),
		fields: Object.fromEntries([...tr.querySelectorAll('[data-field]')].map(td => [td.dataset.field, td.dataset.value ?? td.textContent.trim()]))}))`)
	require.Len(t, rows, len(ranked), "the table shows every site")
	for i, r := range rows {
		s := ranked[i]
		file, rg, ok := report.ParseSite(s.Site)
		if ok {
			assert.True(t, strings.HasSuffix(r.Fields["where"], fmt.Sprintf("%s:%d:%d", filepath.Base(file), rg[0], rg[1])), "row %d: %q for %s", i, r.Fields["where"], s.Site)
		}
		for field, v := range map[string]int64{"allocated": s.Allocated, "maxLive": s.MaxLive, "maxStale": s.MaxStale, "unused": s.Unused} {
			assert.Equal(t, fmt.Sprint(v), r.Fields[field], "row %d (%s): %s", i, s.Site, field)
		}
		assert.Equal(t, s.Leaking, r.Leak, "row %d (%s): leaking", i, s.Site)
	}
	require.NotEmpty(t, rows)
	assert.True(t, strings.HasSuffix(rows[0].Fields["where"], fmt.Sprintf("server.js:%d:%d", line, col)), "the first row: %v", rows[0])
	assert.True(t, rows[0].Leak)

	// The leaking site's page: its code frame marks the site; what holds
	// its objects is the render cache's Map.
	route(t, ctx, fmt.Sprintf("#site/%d", rows[0].ID), fmt.Sprintf("site/%d", rows[0].ID))
	frame := evalJSON[string](t, ctx, `document.querySelector('#site-frame')?.textContent ?? ''`)
	assert.Contains(t, frame, strings.TrimSpace(strings.Split(string(demoServer), "\n")[line-1]))
	marked := evalJSON[string](t, ctx, `document.querySelector('#site-frame mark')?.textContent ?? ''`)
	assert.True(t, strings.HasPrefix(marked, "{ status: 200"), "marked %q", marked)
	// (Backquotes left out: the page may show the words' `code` as code.)
	retainers := `[...document.querySelectorAll('.retainer .retainer-text')].map(e => e.textContent.replaceAll('\x60', ''))`
	texts := evalJSON[[]string](t, ctx, retainers)
	require.NotEmpty(t, texts, "no retainer on the leaking site's page")
	assert.Contains(t, texts[0], "held by cache (a Map made at ")
	assert.Contains(t, texts[0], fmt.Sprintf("server.js:%d:%d)", mline, mcol))

	// A moment through the run: the retainers then are the cache's too.
	moments := evalJSON[[]string](t, ctx, `[...document.querySelectorAll('#moment option')].map(o => o.value)`)
	require.Greater(t, len(moments), 2, "the moments to pick: %v", moments)
	pick := moments[len(moments)/2]
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#moment"), pick)))
	_, err := chromedp.Run(ctx, chromedp.Evaluate[any](`document.querySelector('#moment').dispatchEvent(new Event('change', {bubbles: true}))`))
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond)
	texts = evalJSON[[]string](t, ctx, retainers)
	require.NotEmpty(t, texts, "no retainer at moment %s", pick)
	assert.Contains(t, texts[0], "held by cache (a Map made at ")

	// The baseline: the leaking site grew most, leaking now.
	route(t, ctx, "#baseline", "baseline")
	grew := evalJSON[[]string](t, ctx, `[...document.querySelectorAll('#grew-table tbody tr')].map(tr => tr.textContent)`)
	require.NotEmpty(t, grew, "the baseline page shows no site that grew")
	assert.Contains(t, grew[0], fmt.Sprintf("server.js:%d:%d", line, col), "the first site that grew: %q", grew)
	assert.Contains(t, strings.ToLower(grew[0]), "leaking now", grew[0])
	assert.Contains(t, grew[0], "500", grew[0])

	// The keys: / filters, Escape goes back to the overview.
	route(t, ctx, "#overview", "overview")
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("/")))
	active := evalJSON[string](t, ctx, `document.activeElement?.tagName + ':' + (document.activeElement?.type ?? '')`)
	assert.True(t, strings.HasPrefix(active, "INPUT"), "/ focused %s", active)
	// (DevTools' key events type the "/" the page's keydown cancels.)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[any](`document.activeElement.value = ''`))
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(fmt.Sprintf("%d:%d", line, col))))
	time.Sleep(300 * time.Millisecond)
	shown := evalJSON[int](t, ctx, `[...document.querySelectorAll('tr[data-site-id]')].filter(tr => tr.offsetParent !== null).length`)
	assert.Equal(t, 1, shown, "the filter %d:%d leaves one row (the filter says %q; %d rows)", line, col,
		evalJSON[string](t, ctx, `document.activeElement?.value ?? ''`), evalJSON[int](t, ctx, `document.querySelectorAll('tr[data-site-id]').length`))
}

// TestReportDarkAndLight: the page follows the colour scheme.
func TestReportDarkAndLight(t *testing.T) {
	leaky, _ := demoPair(t)
	out := filepath.Join(t.TempDir(), "demo.html")
	code, _, errOut := runCmd(t, "", "report", "-o", out, leaky)
	require.Equal(t, ExitOK, code, errOut)
	bg := func(dark bool) string {
		ctx := reportPage(t, out, dark)
		return evalJSON[string](t, ctx, `getComputedStyle(document.body).backgroundColor`)
	}
	light, dark := bg(false), bg(true)
	assert.NotEqual(t, light, dark, "the same background in both schemes")
}

// TestReportRefusesForeignFiles: the report replaces only a report of its
// own, never a link planted at its name.
func TestReportRefusesForeignFiles(t *testing.T) {
	leaky, _ := demoPair(t)
	dir := t.TempDir()
	mine := filepath.Join(dir, "r.html")
	code, _, errOut := runCmd(t, "", "report", "-o", mine, leaky)
	require.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCmd(t, "", "report", "-o", mine, leaky)
	require.Equal(t, ExitOK, code, "a report of memtrace's is replaced: %s", errOut)

	theirs := filepath.Join(dir, "notes.html")
	require.NoError(t, os.WriteFile(theirs, []byte("<p>mine</p>"), 0o644))
	code, _, errOut = runCmd(t, "", "report", "-o", theirs, leaky)
	require.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "not a report memtrace wrote")
	b, _ := os.ReadFile(theirs)
	assert.Equal(t, "<p>mine</p>", string(b))

	target := filepath.Join(dir, "target")
	require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(dir, "link.html")
	require.NoError(t, os.Symlink(target, link))
	code, _, _ = runCmd(t, "", "report", "-o", link, leaky)
	require.Equal(t, ExitFailure, code)
	b, _ = os.ReadFile(target)
	assert.Equal(t, "keep", string(b))

	// The default: report.html in the trace directory.
	code, _, errOut = runCmd(t, "", "report", leaky)
	require.Equal(t, ExitOK, code, errOut)
	assert.FileExists(t, filepath.Join(leaky, "report.html"))
}

// TestReportOpen: --open hands the page's file:// URL to --browser.
func TestReportOpen(t *testing.T) {
	leaky, _ := demoPair(t)
	dir := t.TempDir()
	got := filepath.Join(dir, "opened")
	script := filepath.Join(dir, "browser.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > \""+got+".tmp\" && mv \""+got+".tmp\" \""+got+"\"\n"), 0o755))
	out := filepath.Join(dir, "r.html")
	code, _, errOut := runCmd(t, "", "report", "-o", out, "--open", "--browser", script, leaky)
	require.Equal(t, ExitOK, code, errOut)
	var b []byte
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, _ = os.ReadFile(got); len(b) > 0 {
			break
		}
	}
	assert.Equal(t, "file://"+out, string(b))
}
