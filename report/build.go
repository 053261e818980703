package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

// The page's bounds: how many sites get a page of their own (the others a
// row of the table), how many points a sparkline has, how many contexts
// and last uses a site's page lists, and the lines around a code frame.
const (
	DetailSites  = 100
	SparkPoints  = 60
	ListContexts = 10
	ListLastUses = 10
	FrameLines   = 8
	// MaxPathSteps is the longest path shown whole; a longer one keeps
	// its first and last steps.
	MaxPathSteps = 16
	maxLineRunes = 200
	maxSource    = 64 << 20
)

// Options say what Build reads.
type Options struct {
	// Trace is the TRACE argument as the user gave it (for the page).
	Trace string
	// Input is the trace, opened (tracedir.Open): a file or a directory,
	// not a stream (the engine reads it twice).
	Input *tracedir.Input
	// Open, if set, opens the trace for pass 1 or 2 (a progress display
	// wraps it); else the file is opened again each time.
	Open func(pass int) (io.ReadCloser, error)
	// Engine are the lifetime engine's options.
	Engine lifetime.Options
	// Baseline is another trace (TRACE argument) to compare with.
	Baseline string
	// WorkDir is where paths are named from ("" = the working directory).
	WorkDir string
	// TempDir holds the engine's temporary files.
	TempDir string
	// Snapshots through the run (0: lifetime.DefaultSnapshots; < 0:
	// none).
	Snapshots int
}

// Build runs the engine over the trace and gives the page's data.
func Build(opts Options) (*Data, error) {
	in := opts.Input
	if !in.File {
		return nil, fmt.Errorf("%s: a trace file or directory, not a stream (the report reads it twice)", in.Name)
	}
	open := opts.Open
	if open == nil {
		open = func(int) (io.ReadCloser, error) { return directio.Open(in.Name) }
	}
	pass := 0
	var sum bytes.Buffer
	var det lifetime.Details
	ro := lifetime.ReportOptions{Engine: opts.Engine, Summary: &sum, Details: &det, TempDir: opts.TempDir}
	ro.DetailOptions = lifetime.DetailOptions{Snapshots: opts.Snapshots, Size: in.Size}
	if opts.Snapshots == 0 {
		ro.DetailOptions.Snapshots = lifetime.DefaultSnapshots
	}
	if err := lifetime.Report(func() (io.ReadCloser, error) { pass++; return open(pass) }, ro); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Name, err)
	}
	var doc lifetime.Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("%s: the summary: %w", in.Name, err)
	}
	var sess *tracedir.Session
	if in.Dir != "" {
		if s, err := tracedir.ReadSession(in.Dir); err == nil {
			sess = s
		}
	}
	wd := opts.WorkDir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	b := newBuilder(in, sess, wd)
	d := b.data(opts, doc, &det)
	if opts.Baseline != "" {
		old, err := Summarize(opts.Baseline, opts.Engine, opts.TempDir)
		if err != nil {
			return nil, err
		}
		d.Baseline = b.baseline(opts.Baseline, doc, old, d)
	}
	return d, nil
}

// Summarize is the summary of the trace at path (a trace file or
// directory).
func Summarize(path string, eng lifetime.Options, tempDir string) (lifetime.Summary, error) {
	var doc lifetime.Summary
	in, err := tracedir.Open(path, nil)
	if err != nil {
		return doc, err
	}
	defer in.Close()
	if !in.File {
		return doc, fmt.Errorf("%s: a trace file or directory, not a stream", path)
	}
	var sum bytes.Buffer
	ro := lifetime.ReportOptions{Engine: eng, Summary: &sum, TempDir: tempDir}
	if err := lifetime.Report(func() (io.ReadCloser, error) { return directio.Open(in.Name) }, ro); err != nil {
		return doc, fmt.Errorf("%s: %w", in.Name, err)
	}
	return doc, json.Unmarshal(sum.Bytes(), &doc)
}

// Rank orders sites as memtrace shows them: leaking first, then by stale
// objects, then by objects allocated.
func Rank(sites []lifetime.SiteSummary) []lifetime.SiteSummary {
	sorted := append([]lifetime.SiteSummary(nil), sites...)
	sort.SliceStable(sorted, func(a, b int) bool {
		x, y := &sorted[a], &sorted[b]
		if x.Leaking != y.Leaking {
			return x.Leaking
		}
		if x.MaxStale != y.MaxStale {
			return x.MaxStale > y.MaxStale
		}
		if x.Allocated != y.Allocated {
			return x.Allocated > y.Allocated
		}
		return x.Site < y.Site
	})
	return sorted
}

// Verdict says in a few words what a site's figures mean.
func Verdict(s lifetime.SiteSummary) string {
	switch {
	case s.Leaking:
		return fmt.Sprintf("leaking: its stale objects kept growing across turns of the event loop, to %d at the end", s.MaxStale)
	case s.MaxStale == 0:
		return "never stale"
	case s.MaxStale*10 <= s.Allocated:
		return fmt.Sprintf("released: at most %d stale of %d allocated", s.MaxStale, s.Allocated)
	default:
		return fmt.Sprintf("not growing: at most %d stale at once", s.MaxStale)
	}
}

// Grew lists the sites of doc that grew against old: more stale objects
// at once, or leaking now and not then; leaking-now first, then the most
// grown.
func Grew(doc, old lifetime.Summary) []Growth {
	before := map[string]lifetime.SiteSummary{}
	for _, s := range old.Sites {
		before[s.Site] = s
	}
	var grew []Growth
	for _, s := range doc.Sites {
		o, seen := before[s.Site]
		g := Growth{SiteName: s.Site, Stale0: o.MaxStale, Stale1: s.MaxStale, Alloc0: o.Allocated, Alloc1: s.Allocated,
			Leaking0: o.Leaking, Leaking1: s.Leaking, IsNew: !seen}
		if g.Stale1 > g.Stale0 || g.Leaking1 && !g.Leaking0 {
			grew = append(grew, g)
		}
	}
	sort.SliceStable(grew, func(i, j int) bool {
		x, y := grew[i], grew[j]
		if x.Leaking1 != y.Leaking1 {
			return x.Leaking1
		}
		if dx, dy := x.Stale1-x.Stale0, y.Stale1-y.Stale0; dx != dy {
			return dx > dy
		}
		return x.SiteName < y.SiteName
	})
	return grew
}

// ParseSite splits "file:startLine:startCol:endLine:endCol" (the file may
// contain colons).
func ParseSite(site string) (string, [4]int, bool) {
	var r [4]int
	rest := site
	for i := 3; i >= 0; i-- {
		j := strings.LastIndexByte(rest, ':')
		if j < 0 {
			return "", r, false
		}
		v, err := strconv.Atoi(rest[j+1:])
		if err != nil {
			return "", r, false
		}
		r[i] = v
		rest = rest[:j]
	}
	if rest == "" {
		return "", r, false
	}
	return rest, r, true
}

// builder turns the engine's output into the page's data.
type builder struct {
	in   *tracedir.Input
	sess *tracedir.Session
	base string // the program's working directory, from the user's
	ran  string // where the program ran (absolute), "" unknown
	src  map[string]*source
	ids  map[string]int // site → id
	// paths are Data.Paths, pathIdx their index by content; files and
	// fileIdx Data.Files.
	paths   []PathEntry
	pathIdx map[string]int
	files   []string
	fileIdx map[string]int
}

type source struct {
	lines  []string
	origin string
}

func newBuilder(in *tracedir.Input, sess *tracedir.Session, wd string) *builder {
	b := &builder{in: in, sess: sess, base: ".", src: map[string]*source{}, ids: map[string]int{}, pathIdx: map[string]int{}, fileIdx: map[string]int{}}
	if sess != nil && sess.Cwd != "" {
		b.ran = sess.Cwd
		// Named from the working directory, unless that climbs far out
		// of it: the report is a file to pass on, and "../../../x" says
		// less than /home/me/x.
		if rel, err := filepath.Rel(wd, sess.Cwd); err == nil && !strings.HasPrefix(rel, "../../") {
			b.base = rel
		} else {
			b.base = sess.Cwd
		}
	} else {
		b.ran = wd
	}
	return b
}

// display names a script's file for the user: from the working
// directory, as memtrace lifetime does.
func (b *builder) display(file string) string {
	if strings.Contains(file, "://") || filepath.IsAbs(file) || b.base == "." {
		return file
	}
	return filepath.Join(b.base, file)
}

// where is a location (file:l:c:el:ec) as file:l:c, the file displayed.
func (b *builder) where(loc string) string {
	file, r, ok := ParseSite(loc)
	if !ok {
		return loc
	}
	return fmt.Sprintf("%s:%d:%d", b.display(file), r[0], r[1])
}

// source is a script's text, from the trace directory's scripts/ or the
// file where the program ran (nil: none).
func (b *builder) source(name string) *source {
	if s, ok := b.src[name]; ok {
		return s
	}
	var s *source
	if b.in.Dir != "" {
		if text, err := tracedir.ScriptSource(b.in.Dir, name); err == nil {
			s = &source{lines: splitLines(text), origin: "scripts"}
		}
	}
	if s == nil && !strings.Contains(name, "://") && name != "eval" && name != "evalIndirect" {
		p := name
		if !filepath.IsAbs(p) && b.ran != "" {
			p = filepath.Join(b.ran, p)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Size() <= maxSource {
			if text, err := os.ReadFile(p); err == nil {
				s = &source{lines: splitLines(text), origin: "disk"}
			}
		}
	}
	b.src[name] = s
	return s
}

func splitLines(text []byte) []string {
	ls := strings.Split(string(text), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// frame is the source around a location, nil when it has none.
func (b *builder) frame(loc string, around int) *Frame {
	file, r, ok := ParseSite(loc)
	if !ok {
		return nil
	}
	s := b.source(file)
	if s == nil || r[0] < 1 || r[0] > len(s.lines) {
		return nil
	}
	line, col, endLine, endCol := r[0], r[1], r[2], r[3]
	if endLine < line || endLine > len(s.lines) {
		endLine, endCol = line, col
	}
	first := max(1, line-around)
	last := min(len(s.lines), max(line+around, min(endLine, line+around)))
	// Long lines (minified code) are cut to a window around the mark's
	// column, the same window on every line.
	start := 0
	if n := len([]rune(s.lines[line-1])); n > maxLineRunes {
		start = max(0, min(col-1-maxLineRunes/3, n-maxLineRunes))
	}
	f := &Frame{File: b.display(file), First: first, Origin: s.origin}
	shift := func(c int) int { // a column in the cut text
		c -= start
		if start > 0 {
			c++ // the "…" in front
		}
		return c
	}
	for i := first; i <= last; i++ {
		rs := []rune(s.lines[i-1])
		if len(rs) <= start && start > 0 {
			f.Lines = append(f.Lines, "")
			continue
		}
		cut := rs[start:]
		tail := ""
		if len(cut) > maxLineRunes {
			cut, tail = cut[:maxLineRunes], "…"
		}
		head := ""
		if start > 0 {
			head = "…"
		}
		f.Lines = append(f.Lines, head+string(cut)+tail)
	}
	m := Mark{Line: line, Col: max(1, shift(col)), EndLine: endLine, EndCol: shift(endCol)}
	if m.EndLine > last {
		m.EndLine, m.EndCol = last, len([]rune(f.Lines[last-first]))+1
	}
	if m.EndLine == m.Line && m.EndCol <= m.Col {
		m.EndCol = m.Col + 1
	}
	f.Mark = m
	return f
}

// funcName is the name the source gives the function whose enter
// location is loc: `function name`, `name = function`/arrow, `name:`,
// or a method `name(`; "" when it has none.
func (b *builder) funcName(loc string) string {
	file, r, ok := ParseSite(loc)
	if !ok {
		return ""
	}
	s := b.source(file)
	if s == nil || r[0] < 1 || r[0] > len(s.lines) {
		return ""
	}
	rs := []rune(s.lines[r[0]-1])
	c := min(max(r[1]-1, 0), len(rs))
	at, before := string(rs[c:]), strings.TrimRight(string(rs[:c]), " \t")
	if r[0] == 1 && r[1] == 1 && r[2] >= len(s.lines)-1 {
		return "" // the whole script
	}
	rest := strings.TrimPrefix(at, "async ")
	if strings.HasPrefix(rest, "function") {
		rest = strings.TrimLeft(strings.TrimPrefix(rest, "function"), " \t*")
		if n := ident(rest); n != "" {
			return n
		}
	} else if n := ident(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(rest, "static "), "get "), "set ")); n != "" {
		after := strings.TrimLeft(rest[strings.Index(rest, n)+len(n):], " \t")
		if strings.HasPrefix(after, "(") && !strings.HasSuffix(before, "=") && !strings.HasSuffix(before, "(") && !strings.HasSuffix(before, ",") {
			return n // a method
		}
	}
	// Assigned: `name = function`, `name = (...) =>`, `name: function`.
	before = strings.TrimSuffix(strings.TrimRight(strings.TrimSuffix(before, "async"), " \t"), "")
	if strings.HasSuffix(before, "=") && !strings.HasSuffix(before, "==") && !strings.HasSuffix(before, "=>") || strings.HasSuffix(before, ":") {
		lhs := strings.TrimRight(before[:len(before)-1], " \t")
		i := len(lhs)
		for i > 0 && isIdentRune(rune(lhs[i-1])) {
			i--
		}
		if n := lhs[i:]; n != "" && ident(n) == n {
			return n
		}
	}
	return ""
}

func ident(s string) string {
	i := 0
	for i < len(s) && (isIdentRune(rune(s[i])) && !(i == 0 && '0' <= s[i] && s[i] <= '9')) {
		i++
	}
	switch s[:i] {
	case "", "if", "for", "while", "switch", "catch", "return", "function", "new", "typeof":
		return ""
	}
	return s[:i]
}

func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}

func (b *builder) data(opts Options, doc lifetime.Summary, det *lifetime.Details) *Data {
	d := &Data{Version: 1, Totals: doc.Totals, End: det.End, Snapshots: det.Snapshots, Detached: []Detached{}}
	if d.Snapshots == nil {
		d.Snapshots = []int64{}
	}
	d.Run = b.run(opts)
	d.Title = d.Run.What
	if d.Run.Kind != "browser" {
		d.Title = filepath.Base(d.Run.What)
	}
	d.Timeline = Timeline{T: det.Times, Live: det.Live, Stale: det.Stale}
	ranked := Rank(doc.Sites)
	for i, s := range ranked {
		b.ids[s.Site] = i
	}
	d.Sites = make([]Site, len(ranked))
	for i, s := range ranked {
		site := Site{ID: i, Where: b.where(s.Site), Allocated: s.Allocated, MaxLive: s.MaxLive,
			MaxStale: s.MaxStale, Unused: s.Unused, Leaking: s.Leaking, OneAliveAtATime: s.OneAliveAtATime,
			NonEscaping: s.NonEscaping, Verdict: Verdict(s)}
		if file, r, ok := ParseSite(s.Site); ok {
			f := b.file(b.display(file))
			site.F, site.L, site.C = &f, r[0], r[1]
		}
		if i < DetailSites {
			site.Site = s.Site
			sd := det.Sites[s.Site]
			site.Detail = b.detail(s, sd, det)
			if sd != nil {
				site.Spark = &Series{Live: downsample(sd.Live, SparkPoints), Stale: downsample(sd.Stale, SparkPoints)}
			}
		}
		d.Sites[i] = site
	}
	for _, x := range det.Detached {
		id, ok := b.ids[x.Site]
		if !ok {
			continue
		}
		d.Detached = append(d.Detached, Detached{Site: id, Nodes: x.Nodes, Retainers: b.retainers(x.Retainers, x.Sampled)})
	}
	d.Paths = b.paths
	if d.Paths == nil {
		d.Paths = []PathEntry{}
	}
	d.Files = b.files
	if d.Files == nil {
		d.Files = []string{}
	}
	return d
}

func (b *builder) run(opts Options) Run {
	r := Run{Trace: opts.Trace, Kind: "file", What: b.in.Name, Bytes: b.in.Size}
	s := b.sess
	if s == nil {
		return r
	}
	r.Status, r.Reason, r.Memtrace, r.Entries = s.Status, s.Reason, s.Version, s.Entries
	if s.Bytes > 0 {
		r.Bytes = s.Bytes
	}
	if !s.Start.IsZero() {
		r.Started = s.Start.Format(time.RFC3339Nano)
	}
	if !s.End.IsZero() {
		r.Ended = s.End.Format(time.RFC3339Nano)
	}
	switch {
	case s.URL != "":
		r.Kind, r.What, r.Agent = "browser", s.URL, s.UserAgent
	case s.Script != "":
		r.Kind, r.What = "node", b.display(s.Script)
		if s.Cwd != "" && filepath.IsAbs(s.Script) {
			r.What = s.Script
		}
		r.Agent = "node"
		if s.NodeVersion != "" {
			r.Agent = "node " + s.NodeVersion
		}
	}
	if s.Reason == "" && s.EndReason != "" && s.Status != "complete" {
		r.Reason = s.EndReason
	}
	return r
}

func (b *builder) detail(s lifetime.SiteSummary, sd *lifetime.SiteDetails, det *lifetime.Details) *Detail {
	dt := &Detail{Contexts: []Context{}, LastUses: []LastUse{}, Retainers: []Retainer{}, Snapshots: []Snapshot{}}
	dt.Frame = b.frame(s.Site, FrameLines)
	sampled := 0
	if sd != nil {
		sampled = sd.EndSampled
	}
	dt.Retainers = b.retainers(s.Retainers, sampled)
	if sd == nil {
		n := len(det.Times)
		dt.Timeline = Series{Live: make([]int64, n), Stale: make([]int64, n)}
		return dt
	}
	dt.Timeline = Series{Live: sd.Live, Stale: sd.Stale}
	dt.OtherContexts = sd.OtherContexts
	for i, c := range sd.Contexts {
		if i >= ListContexts {
			dt.OtherContexts += c.Objects
			continue
		}
		ctx := Context{Objects: c.Objects, Truncated: c.Truncated}
		for _, f := range c.Frames {
			cf := CallFrame{Fn: b.where(f.Function), Name: b.funcName(f.Function)}
			if f.CallSite != "" {
				cf.Call = b.where(f.CallSite)
			}
			ctx.Frames = append(ctx.Frames, cf)
		}
		dt.Contexts = append(dt.Contexts, ctx)
	}
	dt.OtherLastUses = sd.OtherLastUses
	for i, u := range sd.LastUses {
		if i >= ListLastUses {
			dt.OtherLastUses += u.Objects
			continue
		}
		lu := LastUse{At: "creation", Objects: u.Objects}
		if u.Site != "" {
			lu.At = b.where(u.Site)
			if i < 3 {
				lu.Frame = b.frame(u.Site, 2)
			}
		}
		dt.LastUses = append(dt.LastUses, lu)
	}
	for _, sn := range sd.Snapshots {
		dt.Snapshots = append(dt.Snapshots, Snapshot{Time: det.Snapshots[sn.Index], Live: sn.Live, Retainers: b.retainers(sn.Retainers, sn.Sampled)})
	}
	return dt
}

// retainers gives the paths in the page's terms: holders named from the
// working directory, each object's site linked, the path said in words.
func (b *builder) retainers(rs []lifetime.Retainer, sampled int) []Retainer {
	out := []Retainer{}
	for _, r := range rs {
		shown := make([]lifetime.Step, len(r.Path))
		steps := make([]Step, len(r.Path))
		for i, st := range r.Path {
			shown[i] = st
			step := Step{Edge: st.Edge, Context: st.Context}
			switch {
			case st.Context && st.Holder == "GLOBAL":
				step.Holder = "GLOBAL"
			case st.Context:
				inner := strings.TrimSuffix(strings.TrimPrefix(st.Holder, "C("), ")")
				shown[i].Holder = "C(" + b.rebase(inner) + ")"
				step.Holder = "closure of " + b.where(inner)
			default:
				shown[i].Holder = b.rebase(st.Holder)
				step.Holder = b.where(st.Holder)
				if id, ok := b.ids[st.Holder]; ok {
					step.Site = &id
				}
			}
			steps[i] = step
		}
		if len(steps) > MaxPathSteps {
			// A path down a long chain (a linked list) keeps its ends.
			head, tail := steps[:4], steps[len(steps)-(MaxPathSteps-5):]
			gap := Step{Holder: "…", Edge: fmt.Sprintf("%d steps", len(steps)-len(head)-len(tail))}
			steps = append(append(append([]Step{}, head...), gap), tail...)
		}
		text := lifetime.DescribeRetainer(shown)
		out = append(out, Retainer{Objects: r.Objects, Sampled: max(sampled, r.Objects), P: b.path(text, steps), Text: text, Path: steps})
	}
	return out
}

// file is the index of a displayed file name in Data.Files.
func (b *builder) file(name string) int {
	if i, ok := b.fileIdx[name]; ok {
		return i
	}
	b.fileIdx[name] = len(b.files)
	b.files = append(b.files, name)
	return len(b.files) - 1
}

// path is the index in Data.Paths of the path text says, steps shows.
func (b *builder) path(text string, steps []Step) int {
	var k strings.Builder
	k.WriteString(text)
	for _, st := range steps {
		fmt.Fprintf(&k, "\x00%s\x00%s\x00%v", st.Holder, st.Edge, st.Context)
	}
	if i, ok := b.pathIdx[k.String()]; ok {
		return i
	}
	i := len(b.paths)
	b.paths = append(b.paths, PathEntry{Text: text, Path: steps})
	b.pathIdx[k.String()] = i
	return i
}

// rebase is a location with its file named from the working directory.
func (b *builder) rebase(loc string) string {
	file, _, ok := ParseSite(loc)
	if !ok {
		return loc
	}
	return b.display(file) + strings.TrimPrefix(loc, file)
}

func (b *builder) baseline(name string, doc, old lifetime.Summary, d *Data) *Baseline {
	bl := &Baseline{Name: name, Totals: old.Totals, Grew: []Growth{}}
	for _, g := range Grew(doc, old) {
		if id, ok := b.ids[g.SiteName]; ok {
			g.Site = &id
		}
		g.Where = b.where(g.SiteName)
		bl.Grew = append(bl.Grew, g)
	}
	return bl
}

// downsample keeps at most n points of xs, each the largest of its group.
func downsample(xs []int64, n int) []int64 {
	if len(xs) <= n {
		return xs
	}
	out := make([]int64, n)
	for i := range out {
		lo, hi := i*len(xs)/n, (i+1)*len(xs)/n
		for _, v := range xs[lo:hi] {
			out[i] = max(out[i], v)
		}
	}
	return out
}
