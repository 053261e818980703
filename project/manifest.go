package project

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/safefs"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// ManifestFile, at the root of the output, records what each output file
// was made from: the input file's size, modification time and inode, the
// goal and tsconfig.json it was instrumented with, and the output file's
// size and modification time; and the links and directories the run
// made. A run into the same output with the same options skips a file
// whose input and output both still match: it reads neither (a second
// run over an unchanged tree only lists it).
//
// The manifest is also the mark that OUT is memtrace's: a run takes only
// an output directory that is new, empty, or holds a manifest (a regular
// file), and writes the manifest first thing into a new or empty one
// (safefs.Claim), so a run that fails half way leaves OUT still marked.
// What the last manifest lists is what memtrace may replace or remove:
// a link it made may give way to a directory, a file it wrote to a
// directory, and an output no input makes any more is removed; nothing
// the manifest does not list is removed. Deleting the manifest makes OUT
// the user's: the next run refuses it unless it is empty.
const ManifestFile = ".memtrace-manifest"

// LockFile is locked by the run that writes OUT (flock: released when
// its process ends, however it ends).
const LockFile = ".memtrace-lock"

type manifest struct {
	Header string
	Files  map[string]manifestEntry // by input path
	Links  map[string]string        // symbolic links made: path (input's and output's) → target
	Dirs   map[string]bool          // directories of the tree (made or found in OUT)
}

type manifestEntry struct {
	InSize, InMtime   int64
	InIno             uint64
	Out               string
	OutSize, OutMtime int64
	Instrumented      bool
	Goal              js.Goal
	Tsconfig          string // hash of the tsconfig.json text, TypeScript only
	Failed            bool   // a file copied because it cannot be instrumented
}

// manifestHeader: everything besides the file itself that an output
// depends on.
func manifestHeader(o Options, tool string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%v|%v|%v|%v|%s|", cacheLayout, tool, runtimeshim.Version, o.NodeModules, o.Strict, o.AllUses, o.AllPutFields, o.DebugFun)
	b.WriteString(o.In)
	for _, r := range o.Rules {
		fmt.Fprintf(&b, "|%v:%s", r.Include, r.Pattern)
	}
	return b.String()
}

// loadManifest reads OUT's manifest, whatever its header; one that
// cannot be read (the mark a new OUT gets, a manifest of an older layout)
// is an empty manifest.
func loadManifest(od *safefs.Dir) *manifest {
	var m manifest
	if f, err := od.Open(ManifestFile); err == nil {
		if gob.NewDecoder(bufio.NewReader(f)).Decode(&m) != nil {
			m = manifest{}
		}
		f.Close()
	}
	if m.Files == nil {
		m.Files = map[string]manifestEntry{}
	}
	if m.Links == nil {
		m.Links = map[string]string{}
	}
	if m.Dirs == nil {
		m.Dirs = map[string]bool{}
	}
	return &m
}

// markContent is what a new OUT's manifest holds until the run writes
// its own: a manifest of nothing, under a header no run has.
func markContent() string {
	var b bytes.Buffer
	gob.NewEncoder(&b).Encode(&manifest{Header: "claimed"})
	return b.String()
}

// save writes the manifest into OUT through a fresh temporary file
// renamed over it (safefs: never through a link, never a name another
// run shares).
func (m *manifest) save(od *safefs.Dir) error {
	f, err := od.Create(ManifestFile, 0o644)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := bufio.NewWriter(f)
	if err := gob.NewEncoder(w).Encode(m); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

func tsconfigHash(s string) string {
	if s == "" {
		return ""
	}
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// record notes an output file in this run's manifest: size and mtime are
// the output's.
func (r *runner) record(t *task, size, mtime int64, goal js.Goal, tsconfig string, failed bool) {
	e := manifestEntry{InSize: t.size, InMtime: t.mtime, InIno: t.ino, Out: t.out, OutSize: size, OutMtime: mtime,
		Instrumented: t.instrument && !failed, Goal: goal, Tsconfig: tsconfigHash(tsconfig), Failed: failed}
	if failed {
		e.Out = t.rel
	}
	r.mu.Lock()
	r.next.Files[t.rel] = e
	r.mu.Unlock()
}

// upToDate: the last run made dst from the same input with the same
// options, and neither has changed since; the summary counts the file as
// that run did.
func (r *runner) upToDate(t *task, src, dst string) bool {
	if r.prev == nil {
		return false
	}
	e, ok := r.prev.Files[t.rel]
	if !ok || e.InSize != t.size || e.InMtime != t.mtime || e.InIno != t.ino {
		return false
	}
	if e.Failed || e.Instrumented {
		// A file Node decides by its text was instrumented as what its
		// text is, and the text has not changed.
		goal, byText := r.fileGoal(t.rel, src)
		if !t.instrument || goal != e.Goal && !(byText && e.Goal == js.Module) {
			return false
		}
		if e.Tsconfig != "" || t.instrument && isTS(src) {
			if tsconfigHash(r.tsconfigOf(filepath.Dir(src))) != e.Tsconfig {
				return false
			}
		}
		if !e.Failed && e.Out != t.out {
			return false
		}
	} else if t.instrument || e.Out != t.out {
		return false
	}
	// A stat only: every directory on the way is one the walk opened,
	// following no link, this run (mkdir).
	fi, err := os.Lstat(under(r.out, e.Out))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != e.OutSize || fi.ModTime().UnixNano() != e.OutMtime {
		return false
	}
	// A file that cannot be instrumented is read and tried again for its
	// diagnostics (the manifest keeps no rendering of them: the caller
	// renders them, in colour or not).
	var failure *Failure
	if e.Failed {
		a, err := r.attempt(t, src)
		if err != nil || a.failure == nil {
			return false
		}
		failure = a.failure
	}
	r.mu.Lock()
	r.next.Files[t.rel] = e
	r.sum.UpToDate++
	switch {
	case failure != nil:
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, *failure)
		r.sum.Copied++
		r.sum.CopiedBytes += t.size
	case e.Instrumented:
		r.sum.Instrumented++
		r.sum.InstrumentedBytes += t.size
	default:
		r.sum.Copied++
		r.sum.CopiedBytes += t.size
	}
	r.mu.Unlock()
	return true
}

func isTS(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts", ".tsx", ".jsx":
		return true
	}
	return false
}
