package main

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/report"
)

type reportOptions struct {
	IO       *IOStreams
	Trace    string
	Out      string
	Open     bool
	Browser  string
	Baseline string
	// MemInsightReturns, MemInsightPrototypes: as memtrace lifetime's.
	MemInsightReturns    bool
	MemInsightPrototypes bool
}

func newCmdReport(ios *IOStreams, runF func(*reportOptions) error) *cobra.Command {
	opts := &reportOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "report [-o FILE.html] [--open] [--baseline OTHER] TRACE",
		Short: "Write a trace's report: one HTML file that shows where memory goes",
		Long: heredoc.Doc(`
			Write one self-contained HTML file (no network: it opens from disk and can be
			attached to a bug report) that shows where a trace's memory goes:

			  the overview   what ran and how it ended, entries, objects, the peak of live
			                 objects, a plot of live and stale objects over the run, and the
			                 sites ranked as memtrace lifetime ranks them (leaking first),
			                 with a code frame and a small timeline for the first ones
			  a site's page  its live and stale objects over time, the source around it,
			                 the calling contexts that allocate there, where its objects
			                 were last used, and what retains them: the shortest paths
			                 from the roots (globals, closures, the DOM), grouped by
			                 shape, at the end of the run or at a moment picked on the
			                 timeline
			  DOM            nodes off the document but still reachable, by site
			  --baseline     the sites that grew against another run

			The numbers are memtrace lifetime --format json's on the same trace. The
			sources come from the trace directory's scripts/, else from the files where
			the program ran. The tables sort and filter; the page works by keyboard
			(? lists the keys) and in light and dark colour schemes.

			TRACE is a trace directory or file. The report goes to -o FILE, else
			report.html in the trace directory (TRACE.html beside a trace file); memtrace
			replaces only a report it wrote. --open opens it in a browser.
		`),
		Example: examples(`
			$ memtrace report memtrace-out
			$ memtrace report -o leak.html --open memtrace-out
			$ memtrace report --baseline fixed-out memtrace-out
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Trace = args[0]
			if opts.Trace == "-" {
				return flagErrorf("the report reads its trace twice: give a trace file or directory, not standard input")
			}
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Out, "output", "o", "", "write the report to `FILE` (default: report.html in the trace directory)")
	f.BoolVar(&opts.Open, "open", false, "open the report in a browser")
	f.StringVar(&opts.Browser, "browser", "", "the browser --open starts: a `COMMAND` and its arguments, split at spaces (default: xdg-open, else chromium)")
	f.StringVar(&opts.Baseline, "baseline", "", "compare with the trace `OTHER` (an earlier run): the sites that grew")
	f.BoolVar(&opts.MemInsightReturns, "meminsight-returns", false, "reclaim a fresh returned object at its return statement, as MemInsight's engine does (not V8)")
	f.BoolVar(&opts.MemInsightPrototypes, "meminsight-prototypes", false, "make a prototype object for every function, as MemInsight's engine does")
	return cmd
}

func reportRun(opts *reportOptions) error {
	in, err := openTrace(opts.IO, opts.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	out := opts.Out
	if out == "" {
		if in.Dir != "" {
			out = filepath.Join(in.Dir, "report.html")
		} else {
			out = in.Name + ".html"
		}
	}
	ro := report.Options{Trace: opts.Trace, Input: in, Baseline: opts.Baseline}
	ro.Engine.MemInsightReturns = opts.MemInsightReturns
	ro.Engine.MemInsightPrototypes = opts.MemInsightPrototypes
	var pr *progressReader
	ro.Open = func(pass int) (io.ReadCloser, error) {
		if pr != nil {
			pr.done()
		}
		rc, err := openTraceFile(in.Name)
		if err != nil {
			return nil, err
		}
		label := "report"
		if pass > 1 {
			label = "report (second pass)"
		}
		pr = newProgressReader(opts.IO, rc, label, in.Size)
		return struct {
			io.Reader
			io.Closer
		}{pr, rc}, nil
	}
	d, err := report.Build(ro)
	if pr != nil {
		pr.done()
	}
	if err != nil {
		return err
	}
	if err := report.WriteFile(out, d); err != nil {
		var w *report.InTheWayError
		if errors.As(err, &w) {
			return err
		}
		return fmt.Errorf("%s: %w", out, err)
	}
	leaking := ""
	if n := d.Totals.LeakingSites; n > 0 {
		leaking = ", " + plural(int64(n), "leaking site")
	}
	fmt.Fprintf(opts.IO.ErrOut, "memtrace report: %s (%s objects from %d sites%s)\n", out, thousands(d.Totals.Allocated), d.Totals.Sites, leaking)
	if opts.Open {
		return openInBrowser(opts, out)
	}
	return nil
}

// openInBrowser opens the report with --browser, else the desktop's
// opener, else Chromium; it does not wait for the browser to close.
func openInBrowser(opts *reportOptions, file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	var argv []string
	if opts.Browser != "" {
		argv = strings.Fields(opts.Browser)
	} else {
		for _, name := range []string{"xdg-open", "open", "chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				argv = []string{p}
				break
			}
		}
	}
	if len(argv) == 0 {
		return fmt.Errorf("--open: no browser found (open %s yourself, or name one with --browser)", abs)
	}
	cmd := exec.Command(argv[0], append(argv[1:], "file://"+filepath.ToSlash(abs))...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("--open: %w", err)
	}
	go cmd.Wait()
	fmt.Fprintf(opts.IO.ErrOut, "memtrace report: opened it with %s\n", filepath.Base(argv[0]))
	return nil
}
