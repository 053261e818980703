package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	"github.com/memtrace/memtrace/report"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/tracedir"
)

// The demo program: a small request-handling service with a leak.
//
//go:embed demo/server.js
var demoServer []byte

// The demo's bug and its fix (--fixed): the render cache's key names the
// request, which never comes again, instead of the page.
const (
	demoBug = "memoize(renderPage, (req) => req.path + '?' + req.id)"
	demoFix = "memoize(renderPage, (req) => req.path)"
)

const (
	demoScript      = "server.js"
	demoProgramDir  = "program"
	demoSummaryFile = "summary.json"
)

type demoOptions struct {
	IO    *IOStreams
	Out   string
	JSON  bool
	Fixed bool
	Rm    bool
	Node  string
	Top   int
	// program replaces the embedded server.js (tests).
	program []byte
}

func newCmdDemo(ios *IOStreams, runF func(*demoOptions) error) *cobra.Command {
	opts := &demoOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "demo [--out DIR] [--json] [--fixed] [--rm] [--top N] [--node BIN]",
		Short: "Trace a small Node.js service with a memory leak and show where it leaks",
		Long: heredoc.Doc(`
			Run memtrace end to end on a program that ships inside this binary: a
			small request-handling service (an event emitter, a memoizing render
			cache, sessions, an access log) with a memory leak. The demo writes the
			program into DIR/program, runs it with every module instrumented (as
			memtrace node does), runs the lifetime engine over the trace it
			recorded, and prints the allocation sites with the most stale objects
			(reachable, but never used again), leaking sites first, each with its
			file:line:col and source line.

			The report is computed from the trace: --fixed runs the same program
			with its bug fixed, and the leaking site disappears.

			DIR (default ./memtrace-demo) receives program/ (the program),
			mem-trace (the trace), session.json (what ran and how it ended) and
			summary.json (the lifetime engine's per-site summary, as memtrace
			lifetime --format json prints it). DIR must be new, empty, or a
			previous demo's; --rm removes it at the end.

			Needs Node.js (node on PATH, or --node BIN); nothing to install.
		`),
		Example: examples(`
			$ memtrace demo
			$ memtrace demo --fixed
			$ memtrace demo --json --rm | jq '.top[0]'
		`),
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Out == "" {
				return flagErrorf("--out needs a directory")
			}
			if opts.Top < 1 {
				return flagErrorf("--top must be at least 1")
			}
			if runF != nil {
				return runF(opts)
			}
			return demoRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Out, "out", "memtrace-demo", "the trace `DIR`")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&opts.Fixed, "fixed", false, "run the program with its leak fixed")
	cmd.Flags().BoolVar(&opts.Rm, "rm", false, "remove DIR when done")
	cmd.Flags().IntVar(&opts.Top, "top", 5, "show the first `N` allocation sites")
	cmd.Flags().StringVar(&opts.Node, "node", "node", "the node `BINARY`")
	return cmd
}

// demoSite is one allocation site of the report.
type demoSite struct {
	lifetime.SiteSummary
	// File is the site's file as a path from the working directory; Line,
	// Col, EndLine, EndCol its range (1-based columns); Source the text of
	// its first line. Empty for a special site ("unknown").
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	EndLine int    `json:"endLine,omitempty"`
	EndCol  int    `json:"endCol,omitempty"`
	Source  string `json:"source,omitempty"`
}

// demoReport is what --json prints.
type demoReport struct {
	Program  string                 `json:"program"`
	Fixed    bool                   `json:"fixed"`
	Output   string                 `json:"output"`
	Dir      string                 `json:"dir"`
	Trace    string                 `json:"trace"`
	Summary  string                 `json:"summary"`
	Removed  bool                   `json:"removed"`
	Session  noderun.Session        `json:"session"`
	RunMS    int64                  `json:"runMillis"`
	EngineMS int64                  `json:"engineMillis"`
	Top      []demoSite             `json:"top"`
	Totals   lifetime.SummaryTotals `json:"totals"`
	prog     string                 // the program's directory, from the working directory
}

func demoRun(opts *demoOptions) (err error) {
	node, err := exec.LookPath(opts.Node)
	if err != nil {
		return fmt.Errorf("memtrace demo runs a Node.js program, and %q was not found (%v): install Node.js 20 or later, or name its binary with --node", opts.Node, errors.Unwrap(err))
	}
	if err := prepareDemoDir(opts.Out); err != nil {
		return err
	}
	if opts.Rm {
		defer func() {
			if rerr := os.RemoveAll(opts.Out); err == nil {
				err = rerr
			}
		}()
	}
	prog := filepath.Join(opts.Out, demoProgramDir)
	src := demoServer
	if opts.program != nil {
		src = opts.program
	}
	if opts.Fixed {
		if bytes.Count(src, []byte(demoBug)) != 1 {
			return fmt.Errorf("--fixed: the program does not contain %q once", demoBug)
		}
		src = bytes.Replace(src, []byte(demoBug), []byte(demoFix), 1)
	}
	// The package.json makes server.js CommonJS wherever DIR is.
	files := map[string][]byte{
		demoScript:     src,
		"package.json": []byte("{\n  \"name\": \"memtrace-demo\",\n  \"private\": true,\n  \"type\": \"commonjs\"\n}\n"),
	}
	if err := os.MkdirAll(prog, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(prog, name), data, 0o644); err != nil {
			return err
		}
	}

	self, err := os.Executable()
	if err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code, err := noderun.Run(noderun.Options{
		Script: demoScript, Dir: prog, OutDir: opts.Out, OutDirClaimed: true,
		Node: node, Memtrace: memtraceBinary(self), Shim: runtimeshim.Source(),
		Version: buildInfo().Version, ShimVer: runtimeshim.Version,
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
	})
	runTime := time.Since(start)
	if err != nil {
		return fmt.Errorf("running the demo program: %w", err)
	}
	if code != 0 {
		return fmt.Errorf("the demo program exited with status %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	// The program's diagnostics (none expected) go to standard error.
	opts.IO.ErrOut.Write(stderr.Bytes())

	rep := demoReport{Program: filepath.Join(prog, demoScript), Fixed: opts.Fixed,
		Output: strings.TrimSpace(stdout.String()), Dir: opts.Out,
		Trace: filepath.Join(opts.Out, "mem-trace"), Summary: filepath.Join(opts.Out, demoSummaryFile),
		Removed: opts.Rm, RunMS: runTime.Milliseconds()}
	sess, err := os.ReadFile(filepath.Join(opts.Out, "session.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(sess, &rep.Session); err != nil {
		return fmt.Errorf("session.json: %w", err)
	}
	if rep.Session.Status != "complete" {
		return fmt.Errorf("the demo's trace is incomplete: %s", rep.Session.Reason)
	}

	// The lifetime engine, as `memtrace lifetime --format json` runs it:
	// memoize returns its closure, which keeps the cache it captures.
	start = time.Now()
	var sum bytes.Buffer
	ro := lifetime.ReportOptions{Summary: &sum, TempDir: opts.Out}
	if err := lifetime.Report(func() (io.ReadCloser, error) { return os.Open(rep.Trace) }, ro); err != nil {
		return fmt.Errorf("%s: %w", rep.Trace, err)
	}
	rep.EngineMS = time.Since(start).Milliseconds()
	if err := os.WriteFile(rep.Summary, sum.Bytes(), 0o644); err != nil {
		return err
	}
	var doc lifetime.Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		return fmt.Errorf("lifetime summary: %w", err)
	}
	rep.Totals = doc.Totals
	rep.Top = rankDemoSites(doc.Sites, prog, opts.Top)
	rep.prog = prog

	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	return writeDemoReport(opts.IO, &rep)
}

// prepareDemoDir accepts a directory that does not exist, is empty, or
// holds only what a previous demo wrote; it never overwrites other files.
func prepareDemoDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o755)
	}
	if err != nil {
		return err
	}
	own := map[string]bool{tracedir.TraceFile: true, tracedir.SessionFile: true, demoSummaryFile: true, demoProgramDir: true,
		tracedir.LockFile: true, tracedir.ChildrenDir: true}
	for _, e := range ents {
		if !own[e.Name()] {
			return fmt.Errorf("%s holds %s, which memtrace demo did not write: give --out a new or empty directory", dir, e.Name())
		}
	}
	return nil
}

// rankDemoSites orders the sites leaking first, then by stale objects, then
// by objects allocated, and resolves the first n to their source lines
// (files relative to prog, the program's working directory).
func rankDemoSites(sites []lifetime.SiteSummary, prog string, n int) []demoSite {
	sorted := report.Rank(sites)
	if len(sorted) > n {
		sorted = sorted[:n]
	}
	out := make([]demoSite, len(sorted))
	lines := map[string][]string{}
	for i, s := range sorted {
		d := demoSite{SiteSummary: s}
		file, r, ok := parseSiteRange(s.Site)
		if ok {
			d.File = file
			if !filepath.IsAbs(file) {
				d.File = filepath.Join(prog, file)
			}
			d.Line, d.Col, d.EndLine, d.EndCol = r[0], r[1], r[2], r[3]
			ls, seen := lines[d.File]
			if !seen {
				if data, err := os.ReadFile(d.File); err == nil {
					ls = strings.Split(string(data), "\n")
				}
				lines[d.File] = ls
			}
			if d.Line >= 1 && d.Line <= len(ls) {
				d.Source = strings.TrimRight(ls[d.Line-1], "\r")
			}
		}
		out[i] = d
	}
	return out
}

// parseSiteRange splits "file:startLine:startCol:endLine:endCol".
func parseSiteRange(site string) (string, [4]int, bool) { return report.ParseSite(site) }

// colorOut reports whether standard output may use colour.
func (s *IOStreams) colorOut() bool { return s.outTTY && !s.noColor }

func writeDemoReport(ios *IOStreams, rep *demoReport) error {
	var b strings.Builder
	paint := func(color, text string) string {
		if !ios.colorOut() {
			return text
		}
		return color + text + ansiReset
	}
	title := "memtrace demo: a request-handling service with a memory leak"
	if rep.Fixed {
		title = "memtrace demo --fixed: the request-handling service with its leak fixed"
	}
	fmt.Fprintf(&b, "%s\n\n", paint(ansiBold, title))
	t := rep.Totals
	fmt.Fprintf(&b, "  program   %s\n", rep.Program)
	if rep.Output != "" {
		fmt.Fprintf(&b, "  output    %s\n", strings.ReplaceAll(rep.Output, "\n", "\n            "))
	}
	fmt.Fprintf(&b, "  trace     %s: %s entries, %s, %s, recorded in %.1f s\n", rep.Trace,
		thousands(rep.Session.Entries), byteSize(rep.Session.Bytes), rep.Session.Status, float64(rep.RunMS)/1000)
	fmt.Fprintf(&b, "  analysis  %s objects from %d allocation sites, %d idle points, %s; %.1f s\n",
		thousands(t.Allocated), t.Sites, t.IdlePoints, plural(int64(t.LeakingSites), "leaking site"), float64(rep.EngineMS)/1000)
	writeSites(&b, rep.Top, rep.prog, paint)
	fmt.Fprintf(&b, "\n%s\n", paint(ansiBold, "Next"))
	self := selfName()
	next := [][2]string{
		{"memtrace report --open " + rep.Dir, "the same in the browser: timelines, and what retains each site's objects"},
		{"memtrace lifetime --format json " + rep.Dir, "every allocation site (saved as " + rep.Summary + ")"},
		{"memtrace trace stats " + rep.Dir, "what the trace holds"},
		{"memtrace trace dump " + rep.Dir + " | less", "every entry, in MemInsight's text form"},
		{"memtrace demo --fixed", "the same program with its bug fixed"},
		{"memtrace node --out out app.js", "trace your own program into out/"},
	}
	if rep.Fixed {
		next[4] = [2]string{"memtrace demo", "the program with its leak"}
	}
	if rep.Removed {
		next = next[4:]
		fmt.Fprintf(&b, "  (%s was removed: run without --rm to keep the trace)\n", rep.Dir)
	}
	w := 0
	for i := range next {
		next[i][0] = self + strings.TrimPrefix(next[i][0], "memtrace")
	}
	for _, n := range next {
		w = max(w, len(n[0]))
	}
	for _, n := range next {
		fmt.Fprintf(&b, "  %-*s  %s\n", w, n[0], n[1])
	}
	_, err := io.WriteString(ios.Out, b.String())
	return err
}

// writeSites prints the ranked sites as memtrace demo and memtrace
// lifetime print them: a table, then each site with its verdict in
// words, what holds a leaking site's objects, and its code frame.
func writeSites(b *strings.Builder, top []demoSite, base string, paint func(string, string) string) {
	fmt.Fprintf(b, "\n%s\n\n", paint(ansiBold, fmt.Sprintf("Top %d allocation sites by stale objects", len(top))))

	fmt.Fprintf(b, "  %5s %5s %6s  %s\n", "stale", "live", "alloc", "site")
	for _, s := range top {
		where := s.Site
		if s.File != "" {
			where = fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col)
		}
		mark := ""
		if s.Leaking {
			mark = "  " + paint(ansiRed, "LEAKING")
		}
		fmt.Fprintf(b, "  %5d %5d %6d  %s%s\n", s.MaxStale, s.MaxLive, s.Allocated, where, mark)
	}
	b.WriteString("\n")
	for i, s := range top {
		where := s.Site
		if s.File != "" {
			where = fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col)
		}
		fmt.Fprintf(b, "%d. %s  %s\n", i+1, where, demoVerdict(s.SiteSummary, paint))
		if s.Leaking && len(s.Retainers) > 0 {
			// What holds the objects still reachable at the end: the
			// most common shortest path from a root.
			fmt.Fprintf(b, "   %s\n", lifetime.DescribeRetainer(rebase(s.Retainers[0].Path, base)))
		}
		if s.Source != "" {
			writeFrame(b, s)
		}
	}

	b.WriteString(heredoc.Doc(`

		Columns: stale = the most objects of the site that were alive at once after their
		last use (kept, but never used again); live = the most alive at once; alloc =
		objects allocated there. A site is leaking when its stale count kept growing across
		the turns of the event loop (idle points: the call stack empty) to the end of the
		run, not levelling off as a bounded cache's does.
		Leaking sites come first, then the most stale.
	`))
}

// rebase names a path's holders' files from the working directory, as
// the sites are named (base: where the program ran, from there).
func rebase(path []lifetime.Step, base string) []lifetime.Step {
	out := append([]lifetime.Step(nil), path...)
	for i, st := range out {
		if file, _, ok := parseSiteRange(st.Holder); ok && !filepath.IsAbs(file) && base != "" && base != "." {
			out[i].Holder = filepath.Join(base, file) + strings.TrimPrefix(st.Holder, file)
		}
	}
	return out
}

// selfName is how the user ran memtrace, for commands to copy: the path
// typed (./bin/memtrace) when it names memtrace, else "memtrace" (go run
// and tests run a binary of another name or in a temporary directory).
func selfName() string {
	name := os.Args[0]
	if filepath.Base(name) != "memtrace" || strings.Contains(name, "go-build") || strings.ContainsAny(name, " '\"$\\") {
		return "memtrace"
	}
	return name
}

// demoVerdict says in a few words what the figures mean (a leak in red).
func demoVerdict(s lifetime.SiteSummary, paint func(string, string) string) string {
	if s.Leaking {
		return paint(ansiRed, report.Verdict(s))
	}
	return report.Verdict(s)
}

// writeFrame prints the site's first line with a caret under its range.
func writeFrame(b *strings.Builder, s demoSite) {
	text := strings.ReplaceAll(s.Source, "\t", " ")
	num := strconv.Itoa(s.Line)
	fmt.Fprintf(b, "   %s | %s\n", num, text)
	col := min(max(s.Col-1, 0), len(text))
	end := len(text)
	if s.EndLine == s.Line && s.EndCol-1 > col {
		end = min(s.EndCol-1, len(text))
	}
	width := max(end-col, 1)
	fmt.Fprintf(b, "   %s | %s^%s\n", strings.Repeat(" ", len(num)), strings.Repeat(" ", col), strings.Repeat("~", width-1))
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
