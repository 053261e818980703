// Package project instruments a whole Node.js project ahead of time: it
// mirrors a directory tree into an output directory, instrumenting every
// JavaScript and TypeScript file in parallel and copying everything else,
// with an on-disk cache so that a second run costs little more than a copy.
//
//	sum, err := project.Run(project.Options{In: "app", Out: "app.inst", Cache: project.DefaultCacheDir()})
//
// Instrumented files run under plain node as well as under `memtrace node`:
// the runtime shim is written once to OUT/.memtrace-shim.cjs, and each
// file loads it, before its prologue, only when globalThis.__mt is missing
// (CommonJS: `;if(!globalThis.__mt)require("REL/.memtrace-shim.cjs");`;
// files of InlineShimMin bytes or more also carry a copy for where require
// is missing) or, in ES modules, by importing it first
// (`;import "REL/.memtrace-shim.cjs";`; the shim installs itself once). The prelude takes no line, so line
// numbers stay the original's; instrument.Instrument recognises it, so
// instrumenting the output again changes nothing. See
// docs/instrumentation.md §10.
//
// The output directory is new, empty, or this package's from an earlier
// run (it holds the manifest, ManifestFile, which says what a run may
// replace or remove). Everything under it is written through
// internal/safefs: no symbolic link on the way is followed, and every file
// is written under a fresh temporary name renamed into place. The cache
// (cache.go) is used only from a directory that is the user's alone, and
// serves an entry only with the bytes its digest says.
package project

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/diag"
	"github.com/memtrace/memtrace/instrument/htmlpage"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/glob"
	"github.com/memtrace/memtrace/internal/safefs"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"golang.org/x/sys/unix"
)

// Rule is one --include or --exclude pattern, in command-line order.
type Rule struct {
	Pattern string
	Include bool
}

// Options configure a run.
type Options struct {
	In, Out string // the input tree and the output directory
	// Rules decide which JavaScript files are instrumented (the others are
	// copied unchanged), matched against the slash-separated path relative
	// to In: an ordered list where the last matching rule wins and a
	// pattern beginning with '!' does the opposite of its flag
	// (glob.List). With no rule, or a first rule that excludes, every file
	// is instrumented unless excluded; a first rule that includes makes
	// the default "not instrumented".
	Rules []Rule
	// NodeModules instruments files under node_modules too; by default a
	// first rule excludes "node_modules" (they are still copied).
	NodeModules bool
	// Cache is the cache directory; "" disables the cache.
	Cache string
	// CacheMax bounds the cache (bytes; 0: DefaultCacheMax). A run that
	// added entries trims it to three quarters, least recently used first.
	CacheMax int64
	// Strict: a file that cannot be instrumented is not copied, and Run's
	// summary counts it as failed (the caller exits 1).
	Strict bool
	// The instrumenter's options (instrument.Options).
	DebugFun              string
	AllUses, AllPutFields bool
	Jobs                  int    // workers (0: GOMAXPROCS)
	ToolID                string // identifies this memtrace build in cache keys (ToolID())
	// Progress, when set, is called about ten times a second while the
	// run lasts, from one goroutine.
	Progress func(Progress)
	// Web: the tree is a web app (a built dist/): its HTML pages are
	// rewritten (package htmlpage: PageConfig, the page's configuration as
	// JSON, and the browser shim, written to WebShimFile, first in
	// <head>; inline scripts instrumented), its scripts instrumented as
	// classic scripts, or as modules when a page loads them so (or they
	// parse only as one), named by their path from the root ("/app.js"),
	// as memtrace serve names them, and without the Node prelude.
	Web        bool
	PageConfig []byte
}

// WebShimFile is where a web app's pages load the browser shim from (the
// same path memtrace serve and the proxy serve it at).
const WebShimFile = "__memtrace__/shim.js"

// Progress is the state of a run.
type Progress struct {
	Files, TotalFiles int
	Bytes, TotalBytes int64
	Start             time.Time
}

// Failure is a file that could not be instrumented: the instrumenter's
// diagnostics (Log, its file names as the user can open them) or another
// error (Message). The caller renders them (Render), in colour or not.
type Failure struct {
	Path    string    // relative to In, slash-separated
	Log     *diag.Log // FILE:LINE:COL: error: … with a code frame; nil for another error
	Message string    // the other error, "FILE: …"
}

// Render writes the failure to w: the diagnostics with their code frames
// (ANSI colours if color), or the error.
func (f Failure) Render(w io.Writer, color bool) error {
	if f.Log != nil {
		return f.Log.Render(w, diag.RenderOptions{Color: color})
	}
	_, err := io.WriteString(w, f.Message+"\n")
	return err
}

// Summary is what a run did.
type Summary struct {
	Instrumented      int   // files instrumented (cache hits included)
	InstrumentedBytes int64 // their input bytes
	Copied            int   // files copied unchanged (not JavaScript, excluded, already instrumented)
	CopiedBytes       int64
	Failed            int // files that could not be instrumented (copied unless Strict)
	Links             int // symbolic links recreated
	Dirs              int
	OutBytes          int64 // bytes written
	CacheHits         int   // instrumented files read from the cache
	Misses            int   // instrumented files the instrumenter made (not from the cache)
	UpToDate          int   // files the output already held (OUT's manifest), not written again
	Removed           int   // outputs of the last run that no input makes any more, removed
	Elapsed           time.Duration
	Failures          []Failure // sorted by path
	Warnings          []string  // special files skipped, renamed outputs that collided
	// CacheRefused says why the cache was not used (a directory another
	// user owns or others may write to); the run went on without it.
	CacheRefused string
}

// InBytes is the input's size.
func (s *Summary) InBytes() int64 { return s.InstrumentedBytes + s.CopiedBytes }

// MBps is the input's megabytes per second of wall time.
func (s *Summary) MBps() float64 {
	return float64(s.InBytes()) / 1e6 / max(s.Elapsed.Seconds(), 1e-6)
}

// jsExts are the extensions instrumented, with the extension of the
// output: TypeScript, TSX and JSX become JavaScript Node can load.
var jsExts = map[string]string{
	".js": ".js", ".mjs": ".mjs", ".cjs": ".cjs",
	".ts": ".js", ".mts": ".mjs", ".cts": ".cjs", ".tsx": ".js", ".jsx": ".js",
}

// OutputName returns the output path of an input path (slash-separated,
// relative): TypeScript, TSX and JSX files become .js (.mts .mjs, .cts
// .cjs); declaration files (.d.ts, .d.mts, .d.cts) and other files keep
// their names.
func OutputName(rel string) string {
	ext := path.Ext(rel)
	low := strings.ToLower(ext)
	out, ok := jsExts[low]
	if !ok || out == low || isDeclaration(rel) {
		return rel
	}
	return rel[:len(rel)-len(ext)] + out
}

func isDeclaration(rel string) bool {
	b := strings.ToLower(path.Base(rel))
	return strings.HasSuffix(b, ".d.ts") || strings.HasSuffix(b, ".d.mts") || strings.HasSuffix(b, ".d.cts")
}

// isJS: the file is one the instrumenter takes.
func isJS(rel string) bool {
	_, ok := jsExts[strings.ToLower(path.Ext(rel))]
	return ok && !isDeclaration(rel)
}

type kind uint8

const (
	kFile kind = iota
	kLink
	kStat // a regular file not yet stat'ed (walk)
)

type task struct {
	rel, out   string // slash-separated, relative
	kind       kind
	size       int64
	mtime      int64 // nanoseconds
	ino        uint64
	mode       fs.FileMode
	instrument bool
	page       bool // Web: an HTML page to rewrite
}

type runner struct {
	opts    Options
	in, out string      // resolved absolute paths
	od      *safefs.Dir // out: every output is written under it (safefs: no link followed)
	// The output directories the walk opened and kept open, by path: a
	// file is written from the nearest (outDir), not walked to from od.
	// Read only once the walk is done.
	outDirs map[string]*safefs.Dir
	cache   *cache
	shimRel string
	toolID  string

	files, bytes atomic.Int64

	mu        sync.Mutex
	sum       Summary
	goals     map[string]dirGoal // directory → goal of its .js files
	pkgDirs   map[string]bool    // directories of the tree that hold a package.json (walk)
	dirs      []string           // the tree's directories (walk)
	goalsDone bool               // goals holds every directory of dirs; read without the lock
	tsconfig  map[string]string  // directory → nearest tsconfig.json text
	old       *manifest          // the output's manifest from the last run, whatever its options (never nil)
	oldOuts   map[string]bool    // the output files old lists
	prev      *manifest          // old if it was made with this run's options, else nil (read only)
	next      *manifest          // this run's
	modules   map[string]bool    // Web: the scripts pages load as modules
}

// Run instruments the tree opts.In into opts.Out. It refuses an output
// directory inside the input tree, equal to it, or containing it, and one
// that memtrace did not make and that is not empty (*safefs.InTheWayError),
// or where a link it did not make is in the way of a directory. Files
// that cannot be instrumented are listed in the summary, not returned as
// an error; the error is for what stops the run (bad options, I/O on the
// output).
func Run(opts Options) (*Summary, error) {
	start := time.Now()
	// Each file's syntax tree is garbage once its output is written: a
	// higher GC target trades memory (a few hundred MB on large trees) for
	// about a tenth of the CPU time. GOGC=off or above 400 is kept.
	if prev := debug.SetGCPercent(400); prev < 0 || prev > 400 {
		debug.SetGCPercent(prev)
	} else {
		defer debug.SetGCPercent(prev)
	}
	in, out, err := checkDirs(opts.In, opts.Out)
	if err != nil {
		return nil, err
	}
	list, err := rules(opts)
	if err != nil {
		return nil, err
	}
	r := &runner{opts: opts, in: in, out: out, goals: map[string]dirGoal{}, tsconfig: map[string]string{}, toolID: opts.ToolID}
	if r.toolID == "" {
		r.toolID = ToolID("")
	}
	// OUT is new, empty, or memtrace's from an earlier run (it holds a
	// manifest); anything else is the user's and refused.
	od, err := safefs.Claim(out, ManifestFile, markContent())
	if err != nil {
		return nil, err
	}
	defer od.Close()
	// One run at a time writes OUT: a second is refused while the first
	// holds the lock (the file goes with its process, however it ends).
	lock, err := od.TryLock(LockFile)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	r.od = od
	defer func() {
		for _, d := range r.outDirs {
			d.Close()
		}
	}()
	r.old = loadManifest(od)
	r.oldOuts = make(map[string]bool, len(r.old.Files))
	for _, e := range r.old.Files {
		r.oldOuts[e.Out] = true
	}
	r.next = &manifest{Header: manifestHeader(opts, r.toolID), Links: map[string]string{}, Dirs: map[string]bool{}}
	if r.old.Header == r.next.Header {
		r.prev = r.old
	}
	tasks, err := r.walk(list)
	if err != nil {
		return nil, err
	}
	if opts.Web {
		// Which scripts the pages load as modules decides their goal, so
		// it is part of what makes an earlier run's outputs current.
		r.modules = r.pageModules(tasks)
		var mods []string
		for m := range r.modules {
			mods = append(mods, m)
		}
		slices.Sort(mods)
		sum := sha256.Sum256(opts.PageConfig)
		r.next.Header += "|web|" + hex.EncodeToString(sum[:]) + "|" + strings.Join(mods, "|")
		r.prev = nil
		if r.old.Header == r.next.Header {
			r.prev = r.old
		}
	}
	r.next.Files = make(map[string]manifestEntry, len(tasks))
	if opts.Web {
		sd, err := r.mkdir(od, path.Dir(WebShimFile), path.Dir(WebShimFile), 0o755)
		if err != nil {
			return nil, err
		}
		err = sd.WriteFile(path.Base(WebShimFile), []byte(runtimeshim.BrowserSource()), 0o644)
		sd.Close()
		if err != nil {
			return nil, err
		}
	} else if err := od.WriteFile(instrument.ShimFile, []byte(runtimeshim.Source()), 0o644); err != nil {
		return nil, err
	}
	if opts.Cache != "" {
		// Checked on every run: a directory that is not the user's alone
		// is not used (nor replaced), and the run goes on without it.
		if r.cache, err = openCache(opts.Cache, opts.CacheMax); err != nil {
			r.sum.CacheRefused = err.Error()
			r.sum.Warnings = append(r.sum.Warnings, "the cache is not used: "+err.Error())
		}
	}

	var total int64
	for _, t := range tasks {
		total += t.size
	}
	stop := make(chan struct{})
	var progressDone sync.WaitGroup
	if opts.Progress != nil {
		progressDone.Add(1)
		go func() {
			defer progressDone.Done()
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					opts.Progress(Progress{Files: int(r.files.Load()), TotalFiles: len(tasks), Bytes: r.bytes.Load(), TotalBytes: total, Start: start})
				}
			}
		}()
	}

	// Files to write first, largest first, so that no worker is left with
	// a big one at the end; then those the last run's manifest says are
	// likely up to date (a second run sorts only what changed).
	if r.prev != nil {
		stale := 0
		for i := range tasks {
			if e, ok := r.prev.Files[tasks[i].rel]; !ok || e.InSize != tasks[i].size || e.InMtime != tasks[i].mtime || e.InIno != tasks[i].ino {
				tasks[stale], tasks[i] = tasks[i], tasks[stale]
				stale++
			}
		}
		sortBySize(tasks[:stale])
	} else {
		sortBySize(tasks)
	}
	jobs := r.jobs()
	ch := make(chan *task)
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				if err := r.do(t); err != nil {
					errOnce.Do(func() { firstErr = err })
				}
				r.files.Add(1)
				r.bytes.Add(t.size)
			}
		}()
	}
	for i := range tasks {
		ch <- &tasks[i]
	}
	close(ch)
	wg.Wait()
	close(stop)
	progressDone.Wait()
	if r.cache != nil {
		r.cache.close()
		r.sum.Warnings = append(r.sum.Warnings, r.cache.warnings...)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	r.removeStale()
	// A run that found every file up to date has the same manifest as
	// the last one: not written again.
	if r.prev == nil || r.sum.UpToDate != len(r.prev.Files) || len(r.next.Files) != len(r.prev.Files) ||
		!maps.Equal(r.next.Links, r.prev.Links) || !maps.Equal(r.next.Dirs, r.prev.Dirs) || r.sum.Removed > 0 {
		if err := r.next.save(od); err != nil {
			return nil, err
		}
	}
	r.sum.Elapsed = time.Since(start)
	slices.SortFunc(r.sum.Failures, func(a, b Failure) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(r.sum.Warnings)
	return &r.sum, nil
}

// checkDirs resolves the two directories (following symbolic links) and
// refuses overlapping ones.
func checkDirs(inArg, outArg string) (in, out string, err error) {
	if inArg == "" || outArg == "" {
		return "", "", errors.New("an input directory and an output directory (-o) are needed")
	}
	in, err = filepath.Abs(inArg)
	if err == nil {
		in, err = filepath.EvalSymlinks(in)
	}
	if err != nil {
		return "", "", err
	}
	if fi, err := os.Stat(in); err != nil {
		return "", "", err
	} else if !fi.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory", inArg)
	}
	out, err = filepath.Abs(outArg)
	if err != nil {
		return "", "", err
	}
	// Resolve the deepest existing ancestor of out.
	rest := ""
	for p := out; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			out = filepath.Join(r, rest)
			break
		}
		if filepath.Dir(p) == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
	within := func(a, b string) bool { // a is b or inside b
		rel, err := filepath.Rel(b, a)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
	}
	switch {
	case within(out, in):
		return "", "", fmt.Errorf("the output directory %s is inside the input directory %s (or is it): memtrace never writes into the input tree", outArg, inArg)
	case within(in, out):
		return "", "", fmt.Errorf("the input directory %s is inside the output directory %s: memtrace never writes into the input tree", inArg, outArg)
	}
	return in, out, nil
}

// rules builds the include/exclude list.
func rules(opts Options) (*glob.List, error) {
	def := len(opts.Rules) == 0 || !opts.Rules[0].Include
	l := glob.NewList(def)
	if !opts.NodeModules {
		if err := l.Add("node_modules", false); err != nil {
			return nil, err
		}
	}
	for _, r := range opts.Rules {
		if err := l.Add(r.Pattern, r.Include); err != nil {
			flag := "--exclude"
			if r.Include {
				flag = "--include"
			}
			return nil, fmt.Errorf("%s %q: %v", flag, r.Pattern, err)
		}
	}
	return l, nil
}

// walk lists the tree and creates the output directories.
// under joins a directory and a clean slash-separated relative path (as
// the walk makes them) without filepath.Join's cleaning, which was a tenth
// of a second run's CPU.
func under(dir, rel string) string {
	return dir + string(filepath.Separator) + filepath.FromSlash(rel)
}

// sortBySize orders tasks largest first (ties by path).
func sortBySize(tasks []task) {
	slices.SortFunc(tasks, func(a, b task) int {
		switch {
		case a.size > b.size:
			return -1
		case a.size < b.size:
			return 1
		}
		return strings.Compare(a.rel, b.rel)
	})
}

// jobs is the number of workers.
func (r *runner) jobs() int {
	if r.opts.Jobs > 0 {
		return r.opts.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

func (r *runner) walk(list *glob.List) ([]task, error) {
	var tasks []task
	r.pkgDirs = map[string]bool{}
	// The output directories of the walk's current path, opened (made)
	// each from its parent: one openat per directory. The first
	// openDirsMax stay open for the workers (outDir).
	type open struct {
		rel  string
		dir  *safefs.Dir
		kept bool
	}
	var stack []open
	defer func() {
		for _, o := range stack {
			if !o.kept {
				o.dir.Close()
			}
		}
	}()
	keep := openDirsMax()
	r.outDirs = map[string]*safefs.Dir{}
	err := filepath.WalkDir(r.in, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(r.in, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			r.dirs = append(r.dirs, p)
			if rel == "." {
				return nil
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			r.sum.Dirs++
			r.next.Dirs[rel] = true
			parentRel := path.Dir(rel)
			for len(stack) > 0 && stack[len(stack)-1].rel != parentRel {
				if o := stack[len(stack)-1]; !o.kept {
					o.dir.Close()
				}
				stack = stack[:len(stack)-1]
			}
			parent := r.od
			if len(stack) > 0 {
				parent = stack[len(stack)-1].dir
			}
			sub, err := r.mkdir(parent, path.Base(rel), rel, fi.Mode().Perm()|0o700)
			if err != nil {
				return err
			}
			o := open{rel, sub, len(r.outDirs) < keep}
			if o.kept {
				r.outDirs[rel] = sub
			}
			stack = append(stack, o)
			return nil
		}
		if rel == instrument.ShimFile || rel == ManifestFile || rel == WebShimFile {
			return nil // an instrumented tree as input: these are written anew
		}
		t := task{rel: rel, out: rel}
		if d.Name() == "package.json" {
			r.pkgDirs[filepath.Dir(p)] = true
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			t.kind = kLink
		case d.Type().IsRegular():
			t.kind = kStat // stat below, in parallel
			if isJS(rel) && list.Match(rel) {
				t.instrument = true
				t.out = OutputName(rel)
			} else if r.opts.Web && isPage(rel) && list.Match(rel) {
				t.page = true
			}
		default:
			r.sum.Warnings = append(r.sum.Warnings, fmt.Sprintf("%s: not a regular file, directory or symbolic link: skipped", rel))
			return nil
		}
		tasks = append(tasks, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The goal of every directory, before the workers start.
	for _, d := range r.dirs {
		r.dirGoal(d)
	}
	r.goalsDone = true
	// Stat the regular files with all workers: a second run into the
	// same output is mostly these calls and the outputs' (upToDate).
	var next atomic.Int64
	var wg sync.WaitGroup
	var statErr error
	var statOnce sync.Once
	for w := 0; w < r.jobs(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(tasks) {
					return
				}
				t := &tasks[i]
				if t.kind != kStat {
					continue
				}
				fi, err := os.Lstat(under(r.in, t.rel))
				if err != nil {
					statOnce.Do(func() { statErr = err })
					return
				}
				t.kind = kFile
				t.size, t.mode, t.mtime = fi.Size(), fi.Mode(), fi.ModTime().UnixNano()
				if st, ok := fi.Sys().(*syscall.Stat_t); ok {
					t.ino = st.Ino
				}
			}
		}()
	}
	wg.Wait()
	if statErr != nil {
		return nil, statErr
	}
	// A renamed output (x.ts → x.js) must not overwrite another file's.
	outs := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		if t.out == t.rel {
			outs[t.rel] = true
		}
	}
	for i := range tasks {
		t := &tasks[i]
		if t.out != t.rel && outs[t.out] {
			r.sum.Warnings = append(r.sum.Warnings, fmt.Sprintf("%s: its output %s would replace the input's %s: copied unchanged", t.rel, t.out, t.out))
			t.out, t.instrument = t.rel, false
		}
	}
	return tasks, nil
}

// mkdir opens the output directory rel, the entry name of parent (its
// output directory, opened), following no link, and makes it with perm
// if it is missing. A link there gives way to the directory only if the
// last run made it (its manifest lists the link with that target), and a
// file only if the last run wrote it; anything else in the way stops the
// run, naming it: nothing is written through a link.
func (r *runner) mkdir(parent *safefs.Dir, name, rel string, perm fs.FileMode) (*safefs.Dir, error) {
	for tries := 0; ; tries++ {
		sub, err := parent.Sub(name, perm, true)
		if err == nil || tries > 0 {
			return sub, err
		}
		st, lerr := parent.Lstat(name)
		if lerr != nil {
			return nil, err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			return nil, err
		case unix.S_IFLNK:
			target, rerr := parent.Readlink(name)
			if want, ok := r.old.Links[rel]; rerr != nil || !ok || want != target {
				return nil, fmt.Errorf("%s is a symbolic link that memtrace did not make, where %s has a directory: memtrace writes nothing through a link (remove it)",
					parent.Path(name), filepath.Join(r.opts.In, filepath.FromSlash(rel)))
			}
		default:
			if !r.oldOuts[rel] {
				return nil, fmt.Errorf("%s is a file that memtrace did not write, where %s has a directory (remove it)",
					parent.Path(name), filepath.Join(r.opts.In, filepath.FromSlash(rel)))
			}
		}
		// memtrace's own, from the last run: replaced.
		if err := parent.Remove(name); err != nil {
			return nil, err
		}
	}
}

// removeStale removes what the last run made (its manifest lists) and
// this run did not make again: the outputs of inputs deleted since (or no
// longer written: --strict), the links it made, and the directories of
// the tree that are gone, once empty. A file the manifest does not list is
// never removed; what cannot be removed is a warning.
func (r *runner) removeStale() {
	made := map[string]bool{instrument.ShimFile: true, ManifestFile: true, WebShimFile: true}
	for _, e := range r.next.Files {
		made[e.Out] = true
	}
	for rel := range r.next.Links {
		made[rel] = true
	}
	var stale []string
	for out := range r.oldOuts {
		if !made[out] {
			stale = append(stale, out)
		}
	}
	for rel, target := range r.old.Links {
		if !made[rel] {
			if got, err := r.od.Readlink(rel); err == nil && got == target {
				stale = append(stale, rel)
			}
		}
	}
	slices.Sort(stale)
	for _, rel := range stale {
		st, err := r.od.Lstat(rel)
		if err != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR {
			continue // gone already, or a directory now
		}
		if err := r.od.Remove(rel); err != nil {
			r.sum.Warnings = append(r.sum.Warnings, fmt.Sprintf("%s: the output of a deleted input, not removed: %v", rel, err))
			continue
		}
		r.sum.Removed++
	}
	var dirs []string
	for rel := range r.old.Dirs {
		if !r.next.Dirs[rel] && !made[rel] {
			dirs = append(dirs, rel)
		}
	}
	slices.Sort(dirs)
	for _, rel := range slices.Backward(dirs) { // children first
		if st, err := r.od.Lstat(rel); err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			_ = r.od.Remove(rel) // only if empty: what else it holds is not memtrace's
		}
	}
}

func (r *runner) do(t *task) error {
	src := under(r.in, t.rel)
	dst := under(r.out, t.out)
	if t.kind == kLink {
		return r.link(t, src)
	}
	if r.upToDate(t, src, dst) {
		return nil
	}
	if t.instrument {
		return r.instrument(t, src)
	}
	if t.page {
		return r.page(t, src)
	}
	n, mtime, err := r.copyOut(src, t.out, t.mode)
	if err == nil {
		r.record(t, n, mtime, js.Goal(0), "", false)
	}
	r.mu.Lock()
	r.sum.Copied++
	r.sum.CopiedBytes += t.size
	r.sum.OutBytes += n
	r.mu.Unlock()
	return err
}

// link recreates a symbolic link. A target inside the input tree becomes
// the relative link to the same place in the output; a target outside it
// is kept (absolute), and is neither copied nor instrumented. The link is
// made under a temporary name and renamed over what is there (a file, a
// link), never over a directory.
func (r *runner) link(t *task, src string) error {
	target, err := os.Readlink(src)
	if err != nil {
		return err
	}
	abs := target
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(filepath.Dir(src), target)
	}
	if rel, err := filepath.Rel(r.in, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if target, err = filepath.Rel(filepath.Dir(src), abs); err != nil {
			return err
		}
	} else {
		target = abs
	}
	if old, err := r.od.Readlink(t.out); err != nil || old != target {
		if st, err := r.od.Lstat(t.out); err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			// A directory the last run made, of outputs it wrote (a
			// package installed, now linked: npm link, workspaces) gives
			// way; one holding anything else stays, and the run stops.
			foreign, n, err := r.foreignIn(t.out)
			if err != nil {
				return err
			}
			if !r.old.Dirs[t.out] || foreign != "" {
				why := "memtrace did not make it"
				if foreign != "" {
					why = r.od.Path(foreign) + " in it is not memtrace's"
				}
				return fmt.Errorf("%s: a directory is in the way of the symbolic link %s, and %s (remove it)", r.od.Path(t.out), t.rel, why)
			}
			if err := r.od.RemoveAll(t.out); err != nil {
				return err
			}
			r.mu.Lock()
			r.sum.Removed += n
			r.mu.Unlock()
		}
		if err := r.od.Symlink(target, t.out); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.sum.Links++
	r.next.Links[t.rel] = target
	r.mu.Unlock()
	return nil
}

// foreignIn returns the first entry under rel, a directory of OUT, that
// the last run did not make (its manifest lists outputs, links and
// directories), or "" when all of it is memtrace's; and how many files
// and links it holds.
func (r *runner) foreignIn(rel string) (string, int, error) {
	d, err := r.od.Sub(rel, 0, false)
	if err != nil {
		return "", 0, err
	}
	defer d.Close()
	names, err := d.Names()
	if err != nil {
		return "", 0, err
	}
	slices.Sort(names)
	n := 0
	for _, name := range names {
		p := rel + "/" + name
		st, err := d.Lstat(name)
		if err != nil {
			return "", 0, err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			if !r.old.Dirs[p] {
				return p, 0, nil
			}
			f, k, err := r.foreignIn(p)
			if err != nil || f != "" {
				return f, 0, err
			}
			n += k
		case unix.S_IFLNK:
			target, err := d.Readlink(name)
			if want, ok := r.old.Links[p]; err != nil || !ok || want != target {
				return p, 0, nil
			}
			n++
		default:
			if !r.oldOuts[p] {
				return p, 0, nil
			}
			n++
		}
	}
	return "", n, nil
}

// goalOf is the goal of an input file: from its extension, else from the
// nearest package.json's "type" (as Node decides; a file under no
// package.json is CommonJS, as Node runs it). byText: a .js file whose
// package.json names no "type" (or that has none), which Node runs as a
// module if it does not parse as CommonJS but does as a module
// (js.FileGoal).
func (r *runner) goalOf(src string) (goal js.Goal, byText bool) {
	ext := strings.ToLower(filepath.Ext(src))
	switch ext {
	case ".mjs", ".mts":
		return js.Module, false
	case ".cjs", ".cts":
		return js.CommonJS, false
	}
	d := r.dirGoal(filepath.Dir(src))
	return d.goal, d.byText && ext == ".js"
}

// fileGoal is the goal of input file src (rel in the tree), and whether
// its text decides (a classic script that parses only as a module is one:
// Node's rule, and a web app's for a script no page loads as a module).
func (r *runner) fileGoal(rel, src string) (js.Goal, bool) {
	if !r.opts.Web {
		return r.goalOf(src)
	}
	if r.modules[rel] || strings.EqualFold(path.Ext(rel), ".mjs") {
		return js.Module, false
	}
	return js.Script, true
}

// dirGoal is the goal of a directory's .js files, and whether Node decides
// it by their text (no "type" in the nearest package.json, or none).
type dirGoal struct {
	goal   js.Goal
	byText bool
}

func (r *runner) dirGoal(dir string) dirGoal {
	if r.goalsDone {
		// Every directory of the tree was settled by the walk: a
		// read-only map, no lock.
		if g, ok := r.goals[dir]; ok {
			return g
		}
	}
	r.mu.Lock()
	g, ok := r.goals[dir]
	r.mu.Unlock()
	if ok {
		return g
	}
	// Inside the tree, the walk knows which directories hold a
	// package.json: no failed open for the others.
	inTree := r.pkgDirs != nil && (dir == r.in || strings.HasPrefix(dir, r.in+string(filepath.Separator)))
	if inTree && !r.pkgDirs[dir] {
		if parent := filepath.Dir(dir); parent != dir {
			g = r.dirGoal(parent)
		} else {
			g = dirGoal{js.CommonJS, true}
		}
	} else if data, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		switch packageType(data) {
		case "module":
			g = dirGoal{js.Module, false}
		case "commonjs":
			g = dirGoal{js.CommonJS, false}
		default:
			g = dirGoal{js.CommonJS, true}
		}
	} else if parent := filepath.Dir(dir); parent != dir {
		g = r.dirGoal(parent)
	} else {
		g = dirGoal{js.CommonJS, true}
	}
	if !r.goalsDone { // after the walk the map is read without the lock
		r.mu.Lock()
		r.goals[dir] = g
		r.mu.Unlock()
	}
	return g
}

// tsconfigOf is the text of the tsconfig.json nearest to dir.
func (r *runner) tsconfigOf(dir string) string {
	r.mu.Lock()
	s, ok := r.tsconfig[dir]
	r.mu.Unlock()
	if ok {
		return s
	}
	if data, err := os.ReadFile(filepath.Join(dir, "tsconfig.json")); err == nil {
		s = string(data)
	} else if parent := filepath.Dir(dir); parent != dir {
		s = r.tsconfigOf(parent)
	}
	r.mu.Lock()
	r.tsconfig[dir] = s
	r.mu.Unlock()
	return s
}

// InlineShimMin is the size from which a CommonJS file's prelude carries a
// copy of the shim, evaluated where require is missing (the file's text
// run in a fresh vm context or a browser, as lodash's suite does with
// lodash.js); it costs about 30 KB, little beside such a file.
const InlineShimMin = 128 << 10

// prelude is the statement that loads the shim in front of a file's
// prologue; rel is the output file's path relative to the output root. It
// is one line, so the file keeps its line numbers.
func prelude(goal js.Goal, rel string, inline bool) string {
	up := strings.Repeat("../", strings.Count(rel, "/"))
	if up == "" {
		up = "./"
	}
	spec := up + instrument.ShimFile
	if goal == js.Module {
		return `;import "` + spec + `";`
	}
	if inline {
		return `;if(!globalThis.__mt)if(typeof require=="function")require("` + spec + `");else(0,eval)(` + runtimeshim.EvalLiteral() + `);`
	}
	return `;if(!globalThis.__mt)require("` + spec + `");`
}

// instrumentText instruments a file's text with iopts, through the cache:
// the output with its prelude, or why it cannot be (failure); hit: the
// output came from the cache.
func (r *runner) instrumentText(t *task, data []byte, iopts instrument.Options) (out []byte, failure *Failure, hit bool) {
	pre := ""
	if !r.opts.Web {
		pre = prelude(iopts.Goal, t.out, len(data) >= InlineShimMin)
	}
	var key string
	if r.cache != nil {
		key = cacheKey(r.toolID, iopts, pre, data)
		if v, ok := r.cache.get(key); ok && len(v) > 0 {
			switch v[0] {
			case 'o':
				out, hit = v[1:], true
			case 'u':
				out, hit = data, true
			}
			// 'e': instrumented again below, for its diagnostics.
		}
	}
	if !hit {
		res, err := instrument.Instrument(data, iopts)
		var entry []byte // the cache entry: a kind byte, then out for 'o'
		switch {
		case err != nil:
			// Named as the user can open it.
			name := filepath.Join(r.opts.In, filepath.FromSlash(t.rel))
			failure = &Failure{Path: t.rel}
			var list *diag.List
			if errors.As(err, &list) {
				list.Log.File = name
				for i := range list.Log.Diags {
					d := &list.Log.Diags[i]
					d.File = name
					for j := range d.Notes {
						d.Notes[j].File = name
					}
				}
				failure.Log = list.Log
			} else {
				failure.Message = name + ": " + err.Error()
			}
			entry = []byte{'e'}
		case res.Unchanged:
			out = data
			entry = []byte{'u'}
		default:
			out = make([]byte, 0, len(res.Code)+len(pre))
			out = append(out, res.Code[:res.At]...)
			out = append(out, pre...)
			out = append(out, res.Code[res.At:]...)
			entry = []byte{'o'}
		}
		if r.cache != nil {
			if entry[0] == 'o' {
				r.cache.put(key, entry, out)
			} else {
				r.cache.put(key, entry)
			}
		}
	}
	return out, failure, hit
}

// attempt instruments input file src of task t as its goal and loader
// say: the text read, the output or why there is none, and what it was
// instrumented as.
type attempt struct {
	data, out []byte
	failure   *Failure
	hit       bool
	goal      js.Goal
	tsconfig  string
}

func (r *runner) attempt(t *task, src string) (*attempt, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	a := &attempt{data: data}
	goal, byText := r.fileGoal(t.rel, src)
	name := t.rel
	if r.opts.Web {
		name = "/" + t.rel
	}
	loader := instrument.LoaderOf(src)
	if loader != instrument.JS {
		a.tsconfig = r.tsconfigOf(filepath.Dir(src))
	}
	iopts := instrument.Options{Goal: goal, File: name, Loader: loader, Tsconfig: a.tsconfig,
		DebugFun: r.opts.DebugFun, AllUses: r.opts.AllUses, AllPutFields: r.opts.AllPutFields}
	a.out, a.failure, a.hit = r.instrumentText(t, data, iopts)
	a.goal = goal
	if a.failure != nil && byText && loader == instrument.JS {
		// Node runs it as a module if it parses as one (js.FileGoal).
		iopts.Goal = js.Module
		if mout, mfailure, mhit := r.instrumentText(t, data, iopts); mfailure == nil {
			a.out, a.failure, a.hit, a.goal = mout, nil, mhit, js.Module
		}
	}
	return a, nil
}

func (r *runner) instrument(t *task, src string) error {
	a, err := r.attempt(t, src)
	if err != nil {
		return err
	}
	data, out, failure, hit, goal, tsconfig := a.data, a.out, a.failure, a.hit, a.goal, a.tsconfig
	if failure != nil {
		var n int64
		if !r.opts.Strict {
			var mtime int64
			if n, mtime, err = r.copyOut(src, t.rel, t.mode); err != nil {
				return err
			}
			r.record(t, n, mtime, goal, tsconfig, true)
		}
		r.mu.Lock()
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, *failure)
		r.sum.OutBytes += n
		if !r.opts.Strict {
			r.sum.Copied++
			r.sum.CopiedBytes += t.size
		}
		r.mu.Unlock()
		return nil
	}
	n, mtime, err := r.writeOut(t.out, t.mode, func(f *os.File) (int64, error) {
		n, err := f.Write(out)
		return int64(n), err
	})
	if err != nil {
		return err
	}
	r.record(t, n, mtime, goal, tsconfig, false)
	r.mu.Lock()
	r.sum.Instrumented++
	r.sum.InstrumentedBytes += int64(len(data))
	r.sum.OutBytes += int64(len(out))
	if hit {
		r.sum.CacheHits++
	} else {
		r.sum.Misses++
	}
	r.mu.Unlock()
	return nil
}

// writeOut writes the output file rel under OUT through a fresh temporary
// name renamed over rel (safefs: no link on the way followed, a link at
// rel replaced, not written through); fill writes its content. The file
// gets the input's permission bits (the umask does not apply: they are
// the input's). It returns the bytes written and the file's modification
// time, for the manifest.
func (r *runner) writeOut(rel string, mode fs.FileMode, fill func(*os.File) (int64, error)) (n, mtime int64, err error) {
	d, rest := r.outDir(rel)
	f, err := d.Create(rest, mode.Perm()|0o200)
	if err != nil {
		return 0, 0, err
	}
	defer f.Abort()
	if n, err = fill(f.File); err != nil {
		return n, 0, err
	}
	if err := f.Chmod(mode.Perm()); err != nil {
		return n, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return n, 0, err
	}
	if err := f.Commit(); err != nil {
		return n, 0, err
	}
	return n, fi.ModTime().UnixNano(), nil
}

// outDir returns the open output directory nearest to the output file
// rel, and rel's path from it.
func (r *runner) outDir(rel string) (*safefs.Dir, string) {
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		if h, ok := r.outDirs[d]; ok {
			return h, rel[len(d)+1:]
		}
	}
	return r.od, rel
}

// openDirsMax is how many output directories a run keeps open: a quarter
// of the open files it may have, at most 4096. A file written from its
// directory's handle costs no openat(2) and close(2) per component of its
// path: copying a tree of 23,168 files in 2,985 directories took 194,000
// openat calls without them, 55,000 with them (49,000 before safefs).
var openDirsMax = func() int {
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) != nil {
		return 0
	}
	return int(min(lim.Cur/4, 4096))
}

// copyOut copies the input file src to the output file rel (writeOut; in
// the kernel where it can: io.Copy between files uses copy_file_range).
func (r *runner) copyOut(src, rel string, mode fs.FileMode) (n, mtime int64, err error) {
	in, err := os.Open(src)
	if err != nil {
		return 0, 0, err
	}
	defer in.Close()
	return r.writeOut(rel, mode, func(f *os.File) (int64, error) { return io.Copy(f, in) })
}

// isPage reports whether rel is an HTML page.
func isPage(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".html", ".htm":
		return true
	}
	return false
}

// pageModules reads the pages among tasks and returns the scripts of the
// tree they load with <script type="module" src>, by path relative to
// the root (a src of another origin, or that leaves the tree, is not the
// tree's).
func (r *runner) pageModules(tasks []task) map[string]bool {
	mods := map[string]bool{}
	for i := range tasks {
		t := &tasks[i]
		if !t.page {
			continue
		}
		b, err := os.ReadFile(under(r.in, t.rel))
		if err != nil {
			continue // the worker reports it
		}
		for _, ref := range htmlpage.Scripts(b) {
			if !ref.Module {
				continue
			}
			if rel, ok := treePath(t.rel, ref.Src); ok {
				mods[rel] = true
			}
		}
	}
	return mods
}

// treePath resolves a page's URL reference src (the page at rel) to a path
// of the tree, when it names one.
func treePath(page, src string) (string, bool) {
	if i := strings.IndexAny(src, "?#"); i >= 0 {
		src = src[:i]
	}
	if src == "" || strings.HasPrefix(src, "//") || strings.Contains(src, ":") {
		return "", false
	}
	var p string
	if strings.HasPrefix(src, "/") {
		p = path.Clean(src)
	} else {
		p = path.Clean("/" + path.Join(path.Dir(page), src))
	}
	p = strings.TrimPrefix(p, "/")
	if p == "" || p == "." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// page rewrites a page of a web app (Web): the configuration and the
// browser shim first in <head>, its inline scripts instrumented (named
// "/PAGE#inline-N"); an inline script that cannot be instrumented is left
// as it is, with a warning.
func (r *runner) page(t *task, src string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	inst := func(code []byte, o instrument.Options) ([]byte, error) {
		o.DebugFun, o.AllUses, o.AllPutFields = r.opts.DebugFun, r.opts.AllUses, r.opts.AllPutFields
		res, err := instrument.Instrument(code, o)
		if err != nil {
			return nil, err
		}
		return res.Code, nil
	}
	// The shim connects to its own origin, and to the collector the
	// configuration names.
	connect := []string{"'self'"}
	var cfg struct {
		Collector string `json:"collector"`
	}
	if json.Unmarshal(r.opts.PageConfig, &cfg) == nil {
		if u, err := url.Parse(cfg.Collector); err == nil && u.Host != "" {
			connect = append(connect, u.Scheme+"://"+u.Host)
		}
	}
	res := htmlpage.Rewrite(data, htmlpage.Options{
		Head:   htmlpage.Head(r.opts.PageConfig, "/"+WebShimFile, ""),
		Name:   "/" + t.rel,
		Policy: htmlpage.Change{Connect: connect, TrustedTypes: htmlpage.TrustedTypesPolicy},
		Instrument: func(code []byte, goal js.Goal, name string, line, col int) ([]byte, error) {
			return inst(code, instrument.Options{Goal: goal, File: name, Line: line, Col: col})
		},
		// An event handler attribute's code is a function body.
		Handler: func(code []byte, name string, line, col int) ([]byte, error) {
			return inst(code, instrument.Options{Goal: js.CommonJS, File: name, Line: line, Col: col})
		},
		URLCode: func(code []byte, name string, line, col int) ([]byte, error) {
			return inst(code, instrument.Options{Goal: js.Script, Eval: true, GlobalCode: true, File: name, Line: line, Col: col})
		},
		// A script of the tree with an integrity attribute: its value
		// for the script's output (instrumented as its own task does,
		// through the cache).
		Integrity: func(ref string, module bool, old string) (string, error) {
			rel, ok := treePath(t.rel, ref)
			if !ok || !isJS(rel) {
				return "", nil
			}
			a, err := r.attempt(&task{rel: rel, out: OutputName(rel), instrument: true}, under(r.in, rel))
			if err != nil || a.failure != nil {
				return "", nil // copied as it is: the old value holds
			}
			return htmlpage.IntegrityOf(old, a.out), nil
		},
	})
	n, mtime, err := r.writeOut(t.out, t.mode, func(f *os.File) (int64, error) {
		n, err := f.Write(res.HTML)
		return int64(n), err
	})
	if err != nil {
		return err
	}
	r.record(t, n, mtime, js.Goal(0), "", false)
	r.mu.Lock()
	for _, f := range res.Failures {
		r.sum.Warnings = append(r.sum.Warnings, fmt.Sprintf("%s: left as it is: %v", t.rel, f))
	}
	r.sum.Instrumented++
	r.sum.InstrumentedBytes += int64(len(data))
	r.sum.OutBytes += n
	r.mu.Unlock()
	return nil
}
