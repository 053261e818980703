package main

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtrace/memtrace/internal/gctune"
	"github.com/memtrace/memtrace/project"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// looksLikeWebApp reports whether dir holds HTML pages (at most three
// directories down, node_modules aside) and no package.json at its root:
// a built web app, not a Node program.
func looksLikeWebApp(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return false
	}
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if d.Name() == "node_modules" || strings.Count(rel, string(filepath.Separator)) >= 3 {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(d.Name())); ext == ".html" || ext == ".htm" {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// instrumentDirRun instruments a whole directory (package project).
func instrumentDirRun(opts *instrumentOptions) error {
	gctune.Instrumenter()
	ios := opts.IO
	cache := ""
	if !opts.NoCache {
		cache = opts.Cache
		if cache == "" {
			cache = project.DefaultCacheDir()
		}
	}
	exe, _ := os.Executable()
	web := opts.Web || (!opts.Node && looksLikeWebApp(opts.Input))
	if opts.Collector != "" && !web {
		return flagErrorf("--collector is for a web app's pages, and %s looks like a Node program (it has a package.json or no HTML page at its root): add --web if it is a web app", opts.Input)
	}
	var pageConfig []byte
	if web {
		cfg := runtimeshim.Config{DebugFun: opts.DebugFun, AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Collector: opts.Collector}
		if opts.Collector != "" {
			u, err := url.Parse(opts.Collector)
			if err != nil || (u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return flagErrorf("--collector %q is not a websocket address (ws://HOST:PORT/?token=T, as memtrace collect prints it)", opts.Collector)
			}
		}
		pageConfig = []byte(cfg.JSON())
	}
	popts := project.Options{
		Web: web, PageConfig: pageConfig,
		In: opts.Input, Out: opts.Output, Rules: opts.Rules, NodeModules: opts.NodeModules,
		Cache: cache, Strict: opts.Strict, DebugFun: opts.DebugFun,
		AllUses: opts.AllUses, AllPutFields: opts.AllPutFields, Jobs: opts.Jobs,
		ToolID: project.ToolID(buildInfo().String() + " " + filepath.Base(exe)),
	}
	drawn := false
	if ios.ErrIsTTY() && !opts.Quiet {
		popts.Progress = func(p project.Progress) {
			drawBar(ios.ErrOut, "instrumenting", p.Bytes, p.TotalBytes, time.Since(p.Start), fmt.Sprintf(" %d/%d files ", p.Files, p.TotalFiles))
			drawn = true
		}
	}
	sum, err := project.Run(popts)
	if drawn {
		fmt.Fprint(ios.ErrOut, "\r\x1b[K")
	}
	if err != nil {
		return err
	}
	// Colour is the terminal's business, decided here: the run's outputs
	// and manifest do not depend on it.
	for _, f := range sum.Failures {
		if err := f.Render(ios.ErrOut, ios.ColorErr()); err != nil {
			return err
		}
		if opts.Strict {
			fmt.Fprintf(ios.ErrOut, "%s %s: not written (--strict)\n", ios.paint(ansiRed, "error:"), f.Path)
		} else {
			fmt.Fprintf(ios.ErrOut, "%s %s: copied uninstrumented\n", ios.paint(ansiYellow, "warning:"), f.Path)
		}
	}
	for _, w := range sum.Warnings {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.paint(ansiYellow, "warning:"), w)
	}
	if !opts.Quiet {
		fmt.Fprintln(ios.ErrOut, summaryLine(sum, cache != "" && sum.CacheRefused == ""))
	}
	if opts.Strict && sum.Failed > 0 {
		return errSilent
	}
	return nil
}

func summaryLine(s *project.Summary, cached bool) string {
	line := fmt.Sprintf("memtrace: %d files instrumented (%s), %d copied (%s), %d failed",
		s.Instrumented, mbString(s.InstrumentedBytes), s.Copied, mbString(s.CopiedBytes), s.Failed)
	if s.Links > 0 {
		line += fmt.Sprintf(", %d links", s.Links)
	}
	line += fmt.Sprintf("; %s in %.2fs (%.1f MB/s), %s written", mbString(s.InBytes()), s.Elapsed.Seconds(), s.MBps(), mbString(s.OutBytes))
	if cached {
		line += fmt.Sprintf("; cache hits %d of %d", s.CacheHits, s.CacheHits+s.Misses)
	} else {
		line += "; no cache"
	}
	if s.UpToDate > 0 {
		line += fmt.Sprintf("; %d files up to date", s.UpToDate)
	}
	if s.Removed > 0 {
		line += fmt.Sprintf("; %d outputs of deleted inputs removed", s.Removed)
	}
	return line
}

func mbString(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
