package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/MakeNowJust/heredoc"
	"github.com/spf13/cobra"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/noderun"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

func newCmdTrace(ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace <command>",
		Short: "Inspect, check, convert and repair traces",
		Long: heredoc.Doc(`
			Inspect memory traces in MemInsight's binary format.

			A TRACE argument is a trace file, a trace directory (its mem-trace file
			is read), or - for standard input.
		`),
		Args: groupArgs,
		RunE: groupRun,
	}
	cmd.AddCommand(newCmdTraceCheck(ios, nil))
	cmd.AddCommand(newCmdTraceCompact(ios))
	cmd.AddCommand(newCmdTraceDump(ios, nil))
	cmd.AddCommand(newCmdTraceEncode(ios, nil))
	cmd.AddCommand(newCmdTraceRepair(ios))
	cmd.AddCommand(newCmdTraceStats(ios, nil))
	return cmd
}

// openTrace opens a TRACE argument (tracedir.Open: "-" is standard
// input, a directory means its mem-trace file).
func openTrace(ios *IOStreams, arg string) (*tracedir.Input, error) {
	return tracedir.Open(arg, ios.In)
}

// openTraceFile opens a trace file again for one read from start to end,
// with direct I/O where the file system takes it (internal/directio).
func openTraceFile(path string) (io.ReadCloser, error) {
	return directio.Open(path)
}

// ---- dump ----

type dumpOptions struct {
	IO      *IOStreams
	Trace   string
	Limit   int64
	Offsets bool
}

func newCmdTraceDump(ios *IOStreams, runF func(*dumpOptions) error) *cobra.Command {
	opts := &dumpOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "dump TRACE",
		Short: "Print a trace as text, one JSON array per entry",
		Long: heredoc.Doc(`
			Print each entry of a binary trace as a JSON array, one per line: the type
			number and then the fields in their binary order. This is the text form of
			MemInsight's golden trace files (*.expected). A FREE_VARS list prints as a
			JSON array, or as the string "ANY".

			If the trace is malformed, every entry before the fault is printed, then
			the fault is reported with its entry index and byte offset, and the exit
			status is 1.
		`),
		Example: examples(`
			$ memtrace trace dump out/mem-trace
			[23,0]
			[1,-1,1]
			$ memtrace trace dump --offsets --limit 20 - < mem-trace
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Trace = args[0]
			if opts.Limit < 0 {
				return flagErrorf("--limit must not be negative")
			}
			if runF != nil {
				return runF(opts)
			}
			return dumpRun(opts)
		},
	}
	cmd.Flags().Int64Var(&opts.Limit, "limit", 0, "print at most `N` entries (0: all)")
	cmd.Flags().BoolVar(&opts.Offsets, "offsets", false, "prefix each line with its entry index, byte offset and logical time")
	return cmd
}

func dumpRun(opts *dumpOptions) error {
	in, err := openTrace(opts.IO, opts.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	out := bufio.NewWriterSize(opts.IO.Out, 64<<10)
	r := trace.NewReader(in.R)
	var line []byte
	var n int64
	for opts.Limit == 0 || n < opts.Limit {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
			return trace.NamedError(in.Name, err)
		}
		line = line[:0]
		if opts.Offsets {
			line = fmt.Appendf(line, "%d\t%d\t%d\t", r.Index(), r.Offset(), r.Time())
		}
		line = trace.AppendText(line, e)
		line = append(line, '\n')
		if _, err := out.Write(line); err != nil {
			return err
		}
		n++
	}
	return out.Flush()
}

// ---- stats ----

type statsOptions struct {
	IO    *IOStreams
	Trace string
	JSON  bool
}

// TraceStats summarises a trace (trace.Stats).
type TraceStats = trace.Stats

func newCmdTraceStats(ios *IOStreams, runF func(*statsOptions) error) *cobra.Command {
	opts := &statsOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "stats TRACE",
		Short: "Count a trace's entries, objects, functions and scripts",
		Long: heredoc.Doc(`
			Summarise a trace: entries and bytes per entry type, objects created
			(including the prototype each CREATE_FUN implies), functions, DOM nodes,
			scripts, mapped source sites, last-use blocks, and the logical time of
			the last counted entry (metadata entries do not advance time).
		`),
		Example: examples(`
			$ memtrace trace stats out/mem-trace
			$ memtrace trace stats --json out | jq .objects
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Trace = args[0]
			if runF != nil {
				return runF(opts)
			}
			return statsRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the statistics as JSON")
	return cmd
}

func statsRun(opts *statsOptions) error {
	in, err := openTrace(opts.IO, opts.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	st, readErr := trace.ComputeStats(in.Name, in.R)
	if opts.JSON {
		enc := json.NewEncoder(opts.IO.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(st); err != nil {
			return err
		}
	} else if err := printStats(opts.IO.Out, st); err != nil {
		return err
	}
	return readErr
}

func printStats(w io.Writer, st *TraceStats) error {
	fmt.Fprintf(w, "%s\n", st.Trace)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	rows := []struct {
		label string
		value string
	}{
		{"bytes", fmt.Sprint(st.Bytes)},
		{"entries", fmt.Sprint(st.Entries)},
		{"bytes per entry", fmt.Sprintf("%.2f", st.BytesPerEntry)},
		{"logical time", fmt.Sprint(st.Time)},
		{"objects", fmt.Sprint(st.Objects)},
		{"functions", fmt.Sprint(st.Functions)},
		{"DOM nodes", fmt.Sprint(st.DOMNodes)},
		{"scripts", fmt.Sprint(st.Scripts)},
		{"source sites", fmt.Sprint(st.Sites)},
		{"last-use blocks", fmt.Sprint(st.LastUseBlocks)},
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\t%s\t\n", r.label, r.value)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  entry type\tcount\tbytes\tbytes/entry\t\n")
	for _, k := range st.Kinds {
		fmt.Fprintf(tw, "  %s (%d)\t%d\t%d\t%.2f\t\n", k.Kind, k.Code, k.Count, k.Bytes, k.BytesPerEntry)
	}
	return tw.Flush()
}

// ---- check ----

type checkOptions struct {
	IO          *IOStreams
	Traces      []string
	JSON        bool
	Strict      bool
	MaxFindings int
}

// checkResult is one trace's report in --json output.
type checkResult struct {
	Trace string `json:"trace"`
	OK    bool   `json:"ok"`
	*trace.Report
	Error string `json:"error,omitempty"`
}

func newCmdTraceCheck(ios *IOStreams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "check TRACE...",
		Short: "Check that traces obey every structural rule a lifetime engine relies on",
		Long: heredoc.Doc(`
			Check traces against the structural rules of the trace format:
			  format          known type bytes, complete fields, sane string lengths
			  global-first    the first counted entry creates the global object (id 1)
			  id-order        ids are created once each, in order
			  id-uncreated    every referenced id was created before
			  not-function    FUNCTION_ENTER and CALL name a CREATE_FUN object
			  mapping-order   SOURCE_MAPPING after its SCRIPT_ENTER, once per site
			  unmapped-site   every site the engine resolves is mapped
			  script-reuse    a script id is entered once
			  last-use-block  LAST_USE blocks ascend, look back, end in END_LAST_USE
			  balance         FUNCTION_EXIT closes an ENTER or CALL; RETURN precedes it
			  site-string     statement-end and last-use locations are "sid:iid"
			  dom-edge        REMOVE_DOM_CHILD removes an existing edge
			  engine-only     no UNREACHABLE (25) entries

			Each finding names the entry index, byte offset and rule. Warnings mark
			quirks MemInsight's engine tolerates (such as an object taking the id a
			CREATE_FUN implied for a missing prototype); they fail the check only
			with --strict. Exit status: 0 when every trace is sound, 1 otherwise.
		`),
		Example: examples(`
			$ memtrace trace check out/mem-trace
			out/mem-trace: ok: 5226 entries, 96541 bytes, logical time 3110
			$ memtrace trace check --json traces/*.mem-trace
		`),
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Traces = args
			if opts.MaxFindings <= 0 {
				return flagErrorf("--max-findings must be positive")
			}
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the reports as JSON")
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	cmd.Flags().IntVar(&opts.MaxFindings, "max-findings", 100, "report at most `N` findings per trace (all are counted)")
	return cmd
}

func checkRun(opts *checkOptions) error {
	ios := opts.IO
	failed := false
	var results []checkResult
	for _, arg := range opts.Traces {
		res := checkResult{Trace: arg}
		in, err := openTrace(ios, arg)
		if err == nil {
			res.Trace = in.Name
			res.Report, err = trace.Check(in.R, opts.MaxFindings)
			in.Close()
		}
		if err != nil {
			res.Error = err.Error()
			failed = true
			if !opts.JSON {
				fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.paint(ansiRed, "error:"), err)
			}
			results = append(results, res)
			continue
		}
		rep := res.Report
		res.OK = rep.OK() && (!opts.Strict || rep.Warnings == 0)
		failed = failed || !res.OK
		results = append(results, res)
		if opts.JSON {
			continue
		}
		for _, f := range rep.Findings {
			sev := ios.paint(ansiRed, "error:")
			if f.Severity == trace.Warning {
				sev = ios.paint(ansiYellow, "warning:")
			}
			fmt.Fprintf(ios.ErrOut, "%s: entry %d at byte offset %d: %s %s [%s]\n", res.Trace, f.Index, f.Offset, sev, f.Msg, f.Rule)
		}
		if shown := int64(len(rep.Findings)); rep.Errors+rep.Warnings > shown {
			fmt.Fprintf(ios.ErrOut, "%s: ... and %d more findings\n", res.Trace, rep.Errors+rep.Warnings-shown)
		}
		verdict := "ok"
		if !res.OK {
			verdict = "FAILED"
		}
		var parts []string
		if rep.Errors > 0 {
			parts = append(parts, plural(rep.Errors, "error"))
		}
		if rep.Warnings > 0 {
			parts = append(parts, plural(rep.Warnings, "warning"))
		}
		summary := ""
		if len(parts) > 0 {
			summary = " " + strings.Join(parts, ", ") + ";"
		}
		fmt.Fprintf(ios.Out, "%s: %s:%s %d entries, %d bytes, logical time %d\n", res.Trace, verdict, summary, rep.Entries, rep.Bytes, rep.Time)
	}
	if opts.JSON {
		enc := json.NewEncoder(ios.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(results); err != nil {
			return err
		}
	}
	if failed {
		return errSilent
	}
	return nil
}

func plural(n int64, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ---- encode ----

type encodeOptions struct {
	IO     *IOStreams
	Input  string
	Output string
}

func newCmdTraceEncode(ios *IOStreams, runF func(*encodeOptions) error) *cobra.Command {
	opts := &encodeOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "encode TEXT",
		Short: "Convert a text trace (one JSON array per line) to the binary format",
		Long: heredoc.Doc(`
			Convert the text form printed by 'memtrace trace dump' (and used by
			MemInsight's golden files) back to a binary trace. Blank lines are
			skipped. A malformed line is reported as FILE:LINE:COL and nothing is
			written.
		`),
		Example: examples(`
			$ memtrace trace encode htmlTest1/mem-trace.expected -o out/mem-trace
			$ memtrace trace dump a | grep -v '^\[5,' | memtrace trace encode - -o b
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Input = args[0]
			if opts.Output == "-" {
				opts.Output = ""
			}
			if opts.Output == "" && ios.outTTY {
				return flagErrorf("refusing to write a binary trace to a terminal; use -o FILE")
			}
			if runF != nil {
				return runF(opts)
			}
			return encodeRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the binary trace to `FILE` (default, or -: standard output)")
	return cmd
}

func encodeRun(opts *encodeOptions) error {
	name := opts.Input
	var src io.Reader
	if name == "-" {
		name = "<stdin>"
		src = opts.IO.In
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		src = f
	}
	// Encode into memory first so a bad line leaves no partial output.
	var buf []byte
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, err := trace.ParseText(line)
		if err != nil {
			var col int
			msg := err.Error()
			if _, scanErr := fmt.Sscanf(msg, "column %d:", &col); scanErr == nil {
				msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
			} else {
				col = 1
			}
			return fmt.Errorf("%s:%d:%d: %s", name, lineNo, col, msg)
		}
		if buf, err = trace.AppendEntry(buf, &e); err != nil {
			return fmt.Errorf("%s:%d:1: %w", name, lineNo, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	if opts.Output == "" {
		_, err := opts.IO.Out.Write(buf)
		return err
	}
	return writeFileAtomic(opts.Output, buf)
}

// writeFileAtomic writes data to a temporary file beside path and renames
// it into place, so readers never see a partial file.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// ---- compact ----

func newCmdTraceCompact(ios *IOStreams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "compact TRACE -o OUT|-",
		Short: "Leave out the entries that change nothing the engine computes (a compact trace)",
		Long: heredoc.Doc(`
			Copy a trace as a compact trace (docs/instrumentation.md §12). A trace
			marks the end of every statement, a point where the engine reclaims what
			nothing refers to any more; the compact trace leaves out each such mark
			that finds nothing to do (no entry of its frame since the frame's
			previous one could have made an object a candidate for reclamation),
			and writes a function's first declarations of primitive values only
			when something may look their names up in its context (or not at all).
			The times of last uses are renumbered to match.
			The lifetime engine (memtrace's or MemInsight's) computes the same
			lifetimes from the result, at the same sites and locations; only
			logical times (entry counts) differ. 'memtrace node --compact' writes
			such a trace directly.
		`),
		Example: examples(`
			$ memtrace trace compact out/mem-trace -o out/mem-trace.compact
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return flagErrorf("compact needs -o OUT")
			}
			if output == "-" && ios.outTTY {
				return flagErrorf("refusing to write a binary trace to a terminal; use -o FILE")
			}
			in, err := openTrace(ios, args[0])
			if err != nil {
				return err
			}
			defer in.Close()
			report := func(st trace.CompactStats) {
				fmt.Fprintf(ios.ErrOut, "%d entries: %d flushes left out, %d declarations held back (%d never written); %d bytes -> %d bytes\n", st.Entries, st.Elided, st.Deferred, st.Unused, st.BytesIn, st.BytesOut)
			}
			if output == "-" {
				// A stream: what it wrote before an error stays written,
				// and the exit status says it is not whole.
				bw := bufio.NewWriterSize(ios.Out, 1<<20)
				st, err := trace.Compact(bufio.NewReaderSize(in.R, 1<<20), bw)
				if ferr := bw.Flush(); err == nil {
					err = ferr
				}
				if err != nil {
					return fmt.Errorf("%s: %w", in.Name, err)
				}
				report(st)
				return nil
			}
			dir := filepath.Dir(output)
			f, err := os.CreateTemp(dir, "."+filepath.Base(output)+".tmp*")
			if err != nil {
				return err
			}
			tmp := f.Name()
			bw := bufio.NewWriterSize(f, 1<<20)
			st, err := trace.Compact(bufio.NewReaderSize(in.R, 1<<20), bw)
			if err == nil {
				err = bw.Flush()
			}
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Rename(tmp, output)
			}
			if err != nil {
				os.Remove(tmp)
				return fmt.Errorf("%s: %w", in.Name, err)
			}
			report(st)
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the compact trace to `FILE` (-: standard output, not a terminal)")
	return cmd
}

func newCmdTraceRepair(ios *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "repair DIR",
		Short: "Finish a trace directory whose memtrace node was killed",
		Long: heredoc.Doc(`
			When memtrace node is killed (kill -9, an out-of-memory killer), node
			ends with it, and the trace directory has no session.json and a trace
			that may end inside an entry. repair cuts the trace (and each child's)
			to its last whole entry, checks it, and writes session.json with status
			incomplete and the reason, so that the trace can be read (memtrace
			lifetime, trace check). A directory a run is still writing is refused;
			one that has its session.json is left as it is.
		`),
		Example: examples(`
			$ memtrace trace repair memtrace-out
			$ memtrace lifetime --format json memtrace-out
		`),
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := noderun.Repair(args[0])
			if err != nil {
				return err
			}
			if r.Finished {
				fmt.Fprintf(ios.ErrOut, "%s: the run ended and wrote its session.json (status %s): nothing to repair\n", args[0], r.Session.Status)
				return nil
			}
			fmt.Fprintf(ios.ErrOut, "%s: %s entries, %s: %s\n", args[0], thousands(r.Session.Entries), byteSize(r.Session.Bytes), r.Session.Reason)
			return nil
		},
	}
}
