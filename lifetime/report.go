package lifetime

import (
	"bufio"
	"io"
	"os"
	"path/filepath"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/trace"
)

// The names of the files MemInsight's --staleness and --site-stats modes
// write into the trace directory.
const (
	StalenessTraceFile   = "staleness-trace"
	LastUseTraceFile     = "lastuse-trace"
	UnreachableTraceFile = "unreachable-trace"
	UpdIIDTraceFile      = "updiid-trace"
	SiteStatsFile        = "siteStats.json"
)

// ReportOptions select what Report produces.
type ReportOptions struct {
	Engine Options
	// Out receives the text outputs selected below, in this order: the
	// reference-counting output (RC), the staleness records and tables
	// (Staleness), the site-statistics lines (SiteStats).
	Out io.Writer
	// RC selects the parts of MemInsight's --ref output written to Out.
	RC RCOptions
	// Staleness writes the streaming staleness client's records and its
	// "last use" and "unreachable" sections to Out (with RC.Testing, this
	// is MemInsight's streamstaleness test output).
	Staleness bool
	// SiteStats writes the allocation-site statistics lines to Out;
	// FullSiteStats adds the non-escaping and inlining lines.
	SiteStats, FullSiteStats bool
	// Dir, if set, receives MemInsight's side files: staleness-trace,
	// lastuse-trace, unreachable-trace, updiid-trace and siteStats.json.
	// It must exist. Each is written whole or not at all, never through a
	// link in the way (internal/safefs).
	Dir string
	// Summary, if set, receives the JSON summary per allocation site.
	Summary io.Writer
	// Details, if set (with Summary), receives what a report shows
	// beyond the summary: timelines, calling contexts, last uses,
	// retainers through the run, detached DOM nodes (DetailOptions say
	// how fine).
	Details       *Details
	DetailOptions DetailOptions
	// TempDir holds temporary files ("" = os.TempDir()).
	TempDir string
}

// Report runs the lifetime engine over a trace and produces the outputs
// opts select. open must return a new reader of the trace at each call:
// it is called once, or twice when a second pass is needed (site
// statistics, side files or the summary), which reads the trace again
// with the tables of the first.
func Report(open func() (io.ReadCloser, error), opts ReportOptions) (err error) {
	var out *bufio.Writer
	if opts.Out != nil {
		out = bufio.NewWriterSize(opts.Out, 64<<10)
		defer func() {
			if ferr := out.Flush(); err == nil {
				err = ferr
			}
		}()
	}
	second := opts.SiteStats || opts.Dir != "" || opts.Summary != nil
	stale := opts.Staleness || second

	var ls []Listener
	var rc *RCWriter
	if out != nil && (opts.RC.Testing || opts.RC.Verbose) {
		rc = NewRCWriter(out, opts.RC)
		ls = append(ls, rc)
	}
	var sw *StalenessWriter
	dir := opts.Dir
	// The side files go under a handle on opts.Dir that follows no link
	// planted there, each to a fresh temporary name renamed into place
	// when it is whole (committed with the closers); a failed run leaves
	// none that it had not finished.
	var side *safefs.Dir
	var sideFiles []*safefs.File
	if opts.Dir != "" {
		if side, err = safefs.Open(opts.Dir); err != nil {
			return err
		}
		defer side.Close() // after the closers have committed
	}
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			if cerr := c.Close(); err == nil {
				err = cerr
			}
		}
	}()
	defer func() {
		if err != nil {
			for _, f := range sideFiles {
				f.Abort()
			}
		}
	}()
	createSide := func(name string) (io.Writer, error) {
		f, err := side.Create(name, 0o644)
		if err != nil {
			return nil, err
		}
		sideFiles = append(sideFiles, f)
		closers = append(closers, closerFunc(f.Commit))
		return f, nil
	}
	if stale {
		if dir == "" && second {
			tmp, err := os.MkdirTemp(opts.TempDir, "memtrace-lifetime-*")
			if err != nil {
				return err
			}
			defer os.RemoveAll(tmp)
			dir = tmp
		}
		so := StalenessOptions{TempDir: opts.TempDir}
		if opts.Staleness {
			so.Text = out
		}
		create := func(name string) (io.Writer, error) {
			if side != nil {
				return createSide(name)
			}
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				return nil, err
			}
			closers = append(closers, f)
			return f, nil
		}
		if opts.Dir != "" {
			w, err := create(StalenessTraceFile)
			if err != nil {
				return err
			}
			so.Records = []io.Writer{w}
		}
		if dir != "" {
			var err error
			if so.LastUse, err = create(LastUseTraceFile); err != nil {
				return err
			}
			if so.Unreachable, err = create(UnreachableTraceFile); err != nil {
				return err
			}
			if so.UpdIID, err = create(UpdIIDTraceFile); err != nil {
				return err
			}
		}
		sw = NewStalenessWriter(so)
		closers = append(closers, closerFunc(sw.Close))
		ls = append(ls, sw)
	}

	var ret *firstPass
	if opts.Summary != nil {
		ret = &firstPass{details: opts.Details != nil}
		ls = append(ls, ret)
	}
	r, err := open()
	if err != nil {
		return err
	}
	e := NewEngine(opts.Engine, Multi(ls...))
	if rc != nil {
		rc.Attach(e)
	}
	if sw != nil {
		sw.Attach(e)
	}
	if ret != nil && opts.Details != nil {
		ret.snaps.schedule(e, opts.DetailOptions)
	}
	err = e.Run(trace.NewReader(r))
	r.Close()
	if err != nil {
		return err
	}
	if rc != nil && rc.Err() != nil {
		return rc.Err()
	}
	if sw != nil && sw.Err() != nil {
		return sw.Err()
	}
	if !second {
		return nil
	}
	// The tables are complete: close the files the first pass wrote.
	for _, c := range closers {
		if cerr := c.Close(); cerr != nil {
			return cerr
		}
	}
	closers = nil

	var cs []enhancedClient
	if opts.SiteStats || opts.Dir != "" {
		ss := &SiteStats{Full: opts.FullSiteStats}
		ss.init()
		if opts.SiteStats && out != nil {
			ss.Out = out
		}
		if opts.Dir != "" {
			f, err := createSide(SiteStatsFile)
			if err != nil {
				return err
			}
			ss.JSON = f
		}
		cs = append(cs, ss)
	}
	if opts.Summary != nil {
		sum := newSummary(opts.Summary, ret)
		if opts.Details != nil {
			sum.det = newDetailer(opts.Details, opts.DetailOptions, ret)
		}
		cs = append(cs, sum)
	}
	var tabs EnhancedTables
	for _, t := range []struct {
		name string
		dst  *io.Reader
	}{{LastUseTraceFile, &tabs.LastUse}, {UnreachableTraceFile, &tabs.Unreachable}, {UpdIIDTraceFile, &tabs.UpdIID}} {
		var f *os.File
		var err error
		if side != nil {
			f, err = side.Open(t.name)
		} else {
			f, err = os.Open(filepath.Join(dir, t.name))
		}
		if err != nil {
			return err
		}
		closers = append(closers, f)
		*t.dst = f
	}
	r, err = open()
	if err != nil {
		return err
	}
	defer r.Close()
	return runEnhanced(r, tabs, opts.Engine.MemInsightPrototypes, cs...)
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }
