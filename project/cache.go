package project

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/memtrace/memtrace/instrument"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// The cache stores one file per instrumented source under
// DIR/v1/XX/KEY, where KEY is the SHA-256 of everything the output depends
// on (cacheKey) and XX its first two digits. An entry is 'o' and the
// output, 'u' (the source was already instrumented: copied as it is), or
// 'e' (the source cannot be instrumented; it is instrumented again for
// its diagnostics, which name the input path). Entries are written to a temporary file in their
// directory and renamed into place, so concurrent runs (which would write
// the same bytes) never see a partial entry. A run that added entries
// trims the cache to three quarters of its bound when it is over it,
// least recently used first (a hit refreshes an entry's modification
// time), and removes temporary files older than an hour (a killed run's).
// Deleting the directory at any time is safe.
const cacheLayout = "v1"

// DefaultCacheMax bounds the cache when Options.CacheMax is 0.
const DefaultCacheMax = 1 << 30

// DefaultCacheDir is memtrace's cache directory: os.UserCacheDir()/memtrace,
// or "" when there is no such directory.
func DefaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "memtrace")
}

type cache struct {
	dir   string
	max   int64
	wrote atomic.Int64
}

func (c *cache) path(key string) string { return filepath.Join(c.dir, key[:2], key) }

func (c *cache) get(key string) ([]byte, bool) {
	p := c.path(key)
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return data, true
}

// put stores an entry: the parts, in order (so that a caller need not
// copy them into one buffer); failures (a full disk, a read-only cache)
// only cost the next run a miss.
func (c *cache) put(key string, parts ...[]byte) {
	p := c.path(key)
	dir := filepath.Dir(p)
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		if err = os.MkdirAll(dir, 0o755); err != nil {
			return
		}
		if f, err = os.CreateTemp(dir, ".tmp-*"); err != nil {
			return
		}
	}
	n := 0
	for _, b := range parts {
		if err != nil {
			break
		}
		_, err = f.Write(b)
		n += len(b)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return
	}
	c.wrote.Add(int64(n))
}

// trim bounds the cache after a run that added entries.
func (c *cache) trim() {
	if c.wrote.Load() == 0 {
		return
	}
	max := c.max
	if max <= 0 {
		max = DefaultCacheMax
	}
	type entry struct {
		path string
		size int64
		mod  time.Time
	}
	var entries []entry
	var total int64
	old := time.Now().Add(-time.Hour)
	_ = filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if fi.ModTime().Before(old) {
				os.Remove(p)
			}
			return nil
		}
		entries = append(entries, entry{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if total <= max {
		return
	}
	slices.SortFunc(entries, func(a, b entry) int { return a.mod.Compare(b.mod) })
	for _, e := range entries {
		if total <= max/4*3 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// cacheKey hashes everything an entry depends on: this memtrace build, the
// shim's version, the instrumenter's options (goal, loader, tsconfig.json,
// script name, modes), the prelude and the source.
func cacheKey(tool string, o instrument.Options, prelude string, src []byte) string {
	h := sha256.New()
	for _, s := range []string{cacheLayout, tool, runtimeshim.Version, strconv.Itoa(int(o.Goal)), o.Loader.String(),
		o.Tsconfig, o.File, o.DebugFun, strconv.FormatBool(o.AllUses), strconv.FormatBool(o.AllPutFields), prelude} {
		io.WriteString(h, strconv.Itoa(len(s)))
		io.WriteString(h, ":")
		io.WriteString(h, s)
	}
	h.Write(src)
	return hex.EncodeToString(h.Sum(nil))
}

// ToolID identifies this memtrace build for cache keys: the version, and
// the VCS revision Go recorded; a development build (a version that says
// "devel" or "dirty", or modified sources) adds its executable's path,
// size and modification time, so that a rebuilt instrumenter never reads
// a stale entry.
func ToolID(version string) string {
	id := version
	dev := version == "" || strings.Contains(version, "devel") || strings.Contains(version, "dirty")
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				id += " " + s.Value
			case "vcs.modified":
				dev = dev || s.Value == "true"
			}
		}
	}
	if dev {
		if exe, err := os.Executable(); err == nil {
			if fi, err := os.Stat(exe); err == nil {
				id += fmt.Sprintf(" %s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
			}
		}
	}
	return id
}

// packageType reads package.json's "type".
func packageType(data []byte) string {
	var pkg struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Type
}
