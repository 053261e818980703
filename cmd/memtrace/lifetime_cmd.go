package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/report"
	"github.com/memtrace/memtrace/tracedir"
)

type lifetimeOptions struct {
	IO     *IOStreams
	Trace  string
	Format string
	Out    string
	// MemInsightReturns: lifetime.Options.MemInsightReturns.
	MemInsightReturns bool
	// MemInsightPrototypes: lifetime.Options.MemInsightPrototypes.
	MemInsightPrototypes bool
	protectReturns       bool // the deprecated --protect-returns
	// FailOn: "leaking" fails (exit 1) when a site is leaking, naming
	// the sites ("": never).
	FailOn string
	Top    int // the text format's sites
	// Baseline is another trace (an earlier run) the text format compares
	// with: the sites that grew.
	Baseline string
}

var lifetimeFormats = []string{"text", "meminsight", "meminsight-staleness", "json"}

func newCmdLifetime(ios *IOStreams, runF func(*lifetimeOptions) error) *cobra.Command {
	opts := &lifetimeOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "lifetime [--format FORMAT] [--out DIR] TRACE",
		Short: "Read a trace: when each object became unreachable, and (--format json) which sites leak",
		Long: heredoc.Docf(`
			Run the lifetime engine over a trace: it replays the program's heap
			(reference counts, closure contexts sealed at function exit, DOM child
			sets, and garbage cycles, collected lazily but each dated to the moment
			its last path from a live object was cut) and decides, for every object,
			the logical time (the count of trace entries so far) and the source
			location at which it became unreachable. To see which allocation sites
			keep objects the program never uses again, use --format json.

			Formats:
			  text                  (the default) for a person, what memtrace demo prints:
			                        the sites ranked (leaking first, then by stale
			                        objects), each with its verdict in words, what holds
			                        a leaking site's objects at the end (its most common
			                        shortest retaining path), and a code frame (sources
			                        found where the program ran, from session.json)
			  meminsight            MemInsight's reference-counting output, as its engine
			                        prints it in testing mode: "<call site> : RC(<site>) =
			                        <count>" at each debug call, then one row per object
			                        (id, allocation site, unreachability time and location)
			  meminsight-staleness  MemInsight's streaming staleness output: one JSON line
			                        per object (id, type, allocation site, creation time
			                        and call stack, last use, unreachability), written as
			                        the trace ends each last-use block; then the "last use"
			                        and "unreachable" tables and the "leaking site" lines
			  json                  a summary per allocation site: objects allocated,
			                        maximum live and stale at once, leaking, unused,
			                        one alive at a time, non-escaping; then totals
			                        (see docs/lifetime-json.md)

			--out DIR also writes MemInsight's enhanced-trace side files into DIR
			(created if missing): staleness-trace, lastuse-trace, unreachable-trace,
			updiid-trace and siteStats.json. Nothing is written outside DIR; temporary
			files then live in DIR and are removed.

			The staleness formats, json and --out read the trace twice (the second
			pass replays it with the last-use and unreachability tables); standard
			input is then copied to a temporary file.

			A returned object is protected until its function has returned, so a
			returned closure keeps its context, as in V8. --meminsight-returns
			follows MemInsight's engine instead, which reclaims a fresh returned
			object at the end of its return statement (a returned closure loses its
			context, a returned literal its children): its goldens encode that.
			A function without a prototype object (an arrow, a method, an
			accessor, an async function) has none in the model either;
			--meminsight-prototypes makes one for every function, as MemInsight's
			engine does.

			--fail-on leaking is a verdict for CI: after its output, memtrace
			lifetime exits 1 when a site is leaking (its stale objects still
			growing at the end of the run), naming the sites on standard error.

			TRACE is a trace file, a trace directory (its mem-trace), or - for
			standard input. A malformed trace is reported with its entry index and
			byte offset (exit status 1). On a terminal, large traces show progress.
		`),
		Example: examples(`
			$ memtrace lifetime --format json memtrace-out
			$ memtrace lifetime --format meminsight traces/testRefCount1.mem-trace
			$ memtrace lifetime --format json --out out/enhanced out/mem-trace
			$ memtrace lifetime --format json --fail-on leaking memtrace-out > summary.json
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Trace = args[0]
			ok := false
			for _, f := range lifetimeFormats {
				ok = ok || f == opts.Format
			}
			if !ok {
				return flagErrorf("unknown --format %q (choose from %s)", opts.Format, strings.Join(lifetimeFormats, ", "))
			}
			if !opts.protectReturns {
				opts.MemInsightReturns = true
			}
			if cmd.Flags().Changed("out") && opts.Out == "" {
				return flagErrorf("--out needs a directory")
			}
			if opts.Baseline != "" && opts.Format != "text" {
				return flagErrorf("--baseline compares in the text format (--format json prints one run's summary)")
			}
			if opts.FailOn != "" && opts.FailOn != "leaking" {
				return flagErrorf("unknown --fail-on %q (leaking is the verdict a build can fail on)", opts.FailOn)
			}
			if runF != nil {
				return runF(opts)
			}
			return lifetimeRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "output `FORMAT`: "+strings.Join(lifetimeFormats, ", "))
	cmd.Flags().IntVar(&opts.Top, "top", 10, "the text format's `N` sites")
	cmd.Flags().StringVar(&opts.Baseline, "baseline", "", "compare with the trace `OTHER` (an earlier run): the sites that grew (text format)")
	cmd.Flags().StringVar(&opts.Out, "out", "", "also write MemInsight's side files into `DIR`")
	cmd.Flags().StringVar(&opts.FailOn, "fail-on", "", "exit 1 when a site has the `VERDICT` leaking, naming the sites on standard error (for CI)")
	cmd.Flags().BoolVar(&opts.MemInsightReturns, "meminsight-returns", false, "reclaim a fresh returned object at its return statement, as MemInsight's engine does (not V8)")
	cmd.Flags().BoolVar(&opts.MemInsightPrototypes, "meminsight-prototypes", false, "make a prototype object for every function, as MemInsight's engine does (arrows and methods have none)")
	// The default since the model agrees with V8 there; kept so that
	// scripts written for it still run (=false asks for MemInsight's).
	cmd.Flags().BoolVar(&opts.protectReturns, "protect-returns", true, "")
	cmd.Flags().SetOutput(ios.ErrOut) // where pflag says it is deprecated
	_ = cmd.Flags().MarkDeprecated("protect-returns", "it is the default now (--meminsight-returns for MemInsight's model)")
	return cmd
}

func lifetimeRun(opts *lifetimeOptions) (err error) {
	in, err := openTrace(opts.IO, opts.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	ro := lifetime.ReportOptions{Dir: opts.Out, TempDir: opts.Out}
	ro.Engine.MemInsightReturns = opts.MemInsightReturns
	ro.Engine.MemInsightPrototypes = opts.MemInsightPrototypes
	out := bufio.NewWriterSize(opts.IO.Out, 64<<10)
	var sum bytes.Buffer // the summary, for the text format and --fail-on
	switch opts.Format {
	case "text":
		ro.Summary = &sum
	case "meminsight":
		ro.Out = out
		ro.RC = lifetime.RCOptions{Testing: true, Verbose: true}
	case "meminsight-staleness":
		ro.Out = out
		ro.RC = lifetime.RCOptions{Testing: true}
		ro.Staleness = true
		ro.SiteStats = true
	case "json":
		ro.Summary = out
	}
	// --fail-on reads the summary too (the engine computes it in the same
	// passes).
	if opts.FailOn != "" && ro.Summary != &sum {
		if ro.Summary != nil {
			ro.Summary = io.MultiWriter(out, &sum)
		} else {
			ro.Summary = &sum
		}
	}
	if opts.Out != "" {
		d, err := claimSideDir(opts.Out)
		if err != nil {
			return err
		}
		d.Close()
	}
	twoPasses := ro.SiteStats || ro.Dir != "" || ro.Summary != nil

	size, isFile := in.Size, in.File
	// Standard input (or a pipe) is copied aside during the first pass
	// when a second pass will need it again.
	var spool *os.File
	if !isFile && twoPasses {
		spool, err = os.CreateTemp(opts.Out, "memtrace-trace-*")
		if err != nil {
			return err
		}
		defer func() {
			spool.Close()
			os.Remove(spool.Name())
		}()
	}
	pass := 0
	var pr *progressReader
	open := func() (io.ReadCloser, error) {
		pass++
		if pr != nil {
			pr.done()
		}
		if pass == 1 {
			var r io.Reader = in.R
			if spool != nil {
				r = io.TeeReader(r, spool)
			}
			pr = newProgressReader(opts.IO, r, "lifetime", size)
			return io.NopCloser(pr), nil
		}
		var rc io.ReadCloser
		switch {
		case spool != nil:
			if _, err := spool.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
			rc = io.NopCloser(spool)
		default:
			g, err := openTraceFile(in.Name)
			if err != nil {
				return nil, err
			}
			rc = g
		}
		pr = newProgressReader(opts.IO, rc, "lifetime (second pass)", size)
		return struct {
			io.Reader
			io.Closer
		}{pr, rc}, nil
	}
	err = lifetime.Report(open, ro)
	if pr != nil {
		pr.done()
	}
	if err == nil && opts.Format == "text" {
		err = writeLifetimeText(opts, in, sum.Bytes(), out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", in.Name, err)
	}
	if opts.FailOn != "" {
		return failOn(opts.IO, in.Name, sum.Bytes())
	}
	return nil
}

// writeLifetimeText prints the summary for a person, as memtrace demo
// does: the sources of the sites are looked up where the program ran
// (session.json's cwd, for a trace directory; else the working
// directory), and named from the working directory.
func writeLifetimeText(opts *lifetimeOptions, in *tracedir.Input, summary []byte, w io.Writer) error {
	var doc lifetime.Summary
	if err := json.Unmarshal(summary, &doc); err != nil {
		return fmt.Errorf("the summary: %w", err)
	}
	base := "."
	if in.Dir != "" {
		if s, err := tracedir.ReadSession(in.Dir); err == nil && s.Cwd != "" {
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, s.Cwd); err == nil {
					base = rel
				}
			}
		}
	}
	ios := opts.IO
	paint := func(color, text string) string {
		if !ios.colorOut() {
			return text
		}
		return color + text + ansiReset
	}
	var b strings.Builder
	t := doc.Totals
	fmt.Fprintf(&b, "%s\n", paint(ansiBold, "memtrace lifetime "+in.Name))
	fmt.Fprintf(&b, "  %s objects from %d allocation sites, %d idle points, %s\n",
		thousands(t.Allocated), t.Sites, t.IdlePoints, plural(int64(t.LeakingSites), "leaking site"))
	writeSites(&b, rankDemoSites(doc.Sites, base, max(opts.Top, 1)), base, paint)
	if opts.Baseline != "" {
		old, err := summarize(opts, opts.Baseline)
		if err != nil {
			return err
		}
		writeGrowth(&b, doc, old, opts.Baseline, base, max(opts.Top, 1), paint)
	}
	fmt.Fprintf(&b, "\nEvery site: %s lifetime --format json %s (MemInsight's output: --format meminsight)\n", selfName(), opts.Trace)
	_, err := io.WriteString(w, b.String())
	return err
}

// summarize is the summary of the trace at path (a TRACE argument), with
// opts's engine options.
func summarize(opts *lifetimeOptions, path string) (lifetime.Summary, error) {
	eng := lifetime.Options{MemInsightReturns: opts.MemInsightReturns, MemInsightPrototypes: opts.MemInsightPrototypes}
	return report.Summarize(path, eng, "")
}

// writeGrowth prints the sites that grew against the baseline old: more
// stale objects at once, or leaking now and not then; the most grown
// first.
func writeGrowth(b *strings.Builder, doc, old lifetime.Summary, name, base string, n int, paint func(string, string) string) {
	grew := report.Grew(doc, old)
	fmt.Fprintf(b, "\n%s\n\n", paint(ansiBold, fmt.Sprintf("Against %s: %s that grew", name, plural(int64(len(grew)), "site"))))
	if len(grew) == 0 {
		b.WriteString("  none: no site has more stale objects at once than in the baseline\n")
		return
	}
	fmt.Fprintf(b, "  %13s %15s  %s\n", "stale", "alloc", "site")
	for _, g := range grew[:min(n, len(grew))] {
		mark := ""
		switch {
		case g.Leaking1 && !g.Leaking0:
			mark = "  " + paint(ansiRed, "LEAKING now")
		case g.IsNew:
			mark = "  (new)"
		}
		where := g.SiteName
		if file, r, ok := parseSiteRange(g.SiteName); ok {
			if !filepath.IsAbs(file) {
				file = filepath.Join(base, file)
			}
			where = fmt.Sprintf("%s:%d:%d", file, r[0], r[1])
		}
		fmt.Fprintf(b, "  %6d → %-4d %7d → %-5d  %s%s\n", g.Stale0, g.Stale1, g.Alloc0, g.Alloc1, where, mark)
	}
}

// failOn fails when the summary has leaking sites, naming them (largest
// stale count first, as the summary orders them).
func failOn(ios *IOStreams, name string, summary []byte) error {
	var doc lifetime.Summary
	if err := json.Unmarshal(summary, &doc); err != nil {
		return fmt.Errorf("%s: the summary: %w", name, err)
	}
	var leaking []lifetime.SiteSummary
	for _, s := range doc.Sites {
		if s.Leaking {
			leaking = append(leaking, s)
		}
	}
	if len(leaking) == 0 {
		return nil
	}
	fmt.Fprintf(ios.ErrOut, "%s %s: %s (--fail-on leaking):\n", ios.paint(ansiRed, "error:"), name, plural(int64(len(leaking)), "leaking site"))
	for _, s := range leaking {
		fmt.Fprintf(ios.ErrOut, "  %s  %d stale at most, %d allocated\n", s.Site, s.MaxStale, s.Allocated)
	}
	return errSilent
}

// sideDirMark marks a directory memtrace lifetime --out made (or found
// empty) for its side files.
const sideDirMark = ".memtrace-side-files"

// claimSideDir opens the --out directory of memtrace lifetime: a new or
// empty one (then marked), one marked by an earlier run, or a trace
// directory of memtrace node (the side files beside the trace, as
// MemInsight's engine writes them). Any other is refused, naming a file
// in the way: memtrace writes over no file it did not write.
func claimSideDir(dir string) (*safefs.Dir, error) {
	if d, err := safefs.Open(dir); err == nil {
		if d.Exists(tracedir.MarkFile) {
			return d, nil
		}
		d.Close()
	}
	d, err := safefs.Claim(dir, sideDirMark, "memtrace lifetime side files\n")
	var w *safefs.InTheWayError
	if errors.As(err, &w) {
		return nil, fmt.Errorf("%s holds %s, which memtrace did not write: give --out a new or empty directory (or a trace directory of memtrace node)", w.Dir, w.File)
	}
	return d, err
}
