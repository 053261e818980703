package project

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// ManifestFile, at the root of the output, records what each output file
// was made from: the input file's size, modification time and inode, the
// goal and tsconfig.json it was instrumented with, and the output file's
// size and modification time. A run into the same output with the same
// options skips a file whose input and output both still match: it reads
// neither (a second run over an unchanged tree only lists it). Deleting
// the manifest makes the next run write every file again (from the
// cache).
const ManifestFile = ".memtrace-manifest"

type manifest struct {
	Header string
	Files  map[string]manifestEntry // by input path
}

type manifestEntry struct {
	InSize, InMtime   int64
	InIno             uint64
	Out               string
	OutSize, OutMtime int64
	Instrumented      bool
	Goal              js.Goal
	Tsconfig          string // hash of the tsconfig.json text, TypeScript only
	Failure           string // the diagnostics of a file copied because it cannot be instrumented
}

// manifestHeader: everything besides the file itself that an output
// depends on.
func manifestHeader(o Options, tool string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%v|%v|%v|%v|%s|%v|", cacheLayout, tool, runtimeshim.Version, o.NodeModules, o.Strict, o.AllUses, o.AllPutFields, o.DebugFun, o.Color)
	b.WriteString(o.In)
	for _, r := range o.Rules {
		fmt.Fprintf(&b, "|%v:%s", r.Include, r.Pattern)
	}
	return b.String()
}

func loadManifest(path, header string) *manifest {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var m manifest
	if gob.NewDecoder(bufio.NewReader(f)).Decode(&m) != nil || m.Header != header {
		return nil
	}
	return &m
}

func (m *manifest) save(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = gob.NewEncoder(w).Encode(m)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func tsconfigHash(s string) string {
	if s == "" {
		return ""
	}
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

// record notes an output file in this run's manifest.
func (r *runner) record(t *task, dst string, goal js.Goal, tsconfig, failure string) {
	fi, err := os.Lstat(dst)
	if err != nil {
		return
	}
	e := manifestEntry{InSize: t.size, InMtime: t.mtime, InIno: t.ino, Out: t.out, OutSize: fi.Size(), OutMtime: fi.ModTime().UnixNano(),
		Instrumented: t.instrument && failure == "", Goal: goal, Tsconfig: tsconfigHash(tsconfig), Failure: failure}
	if failure != "" {
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
	if e.Failure != "" || e.Instrumented {
		// A file Node decides by its text was instrumented as what its
		// text is, and the text has not changed.
		goal, byText := r.goalOf(src)
		if !t.instrument || goal != e.Goal && !(byText && e.Goal == js.Module) {
			return false
		}
		if e.Tsconfig != "" || t.instrument && isTS(src) {
			if tsconfigHash(r.tsconfigOf(filepath.Dir(src))) != e.Tsconfig {
				return false
			}
		}
		if e.Failure == "" && e.Out != t.out {
			return false
		}
	} else if t.instrument || e.Out != t.out {
		return false
	}
	fi, err := os.Lstat(under(r.out, e.Out))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != e.OutSize || fi.ModTime().UnixNano() != e.OutMtime {
		return false
	}
	r.mu.Lock()
	r.next.Files[t.rel] = e
	r.sum.UpToDate++
	switch {
	case e.Failure != "":
		r.sum.Failed++
		r.sum.Failures = append(r.sum.Failures, Failure{Path: t.rel, Message: e.Failure})
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
