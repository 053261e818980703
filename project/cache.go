package project

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memtrace/memtrace/instrument"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// The cache keeps entries in pack files: each run that adds entries
// appends them to a pack of its own, DIR/v2/<id>.pack, and writes the
// pack's index, DIR/v2/<id>.idx (records of key, offset, length), when it
// ends, through a temporary file renamed into place, so a run reads only
// whole packs: those whose index exists when it starts. (One file per entry
// cost a file creation and a rename per source, a fifth of a cold run.)
// KEY is the SHA-256 of everything the output depends on (cacheKey). An
// entry is 'o' and the output, 'u' (the source was already instrumented:
// copied as it is), or 'e' (the source cannot be instrumented; it is
// instrumented again for its diagnostics, which name the input path).
// Concurrent runs write different packs; the same key in two packs holds
// the same bytes. A run that added entries trims the cache to three
// quarters of its bound when it is over it, least recently used packs
// first (a run that reads a pack refreshes its modification time), and
// removes packs without an index older than an hour (a killed run's).
// Deleting the directory at any time is safe.
const cacheLayout = "v2"

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

const idxRecord = sha256.Size + 8 + 4 // key, offset, length (big-endian)

type cacheLoc struct {
	pack int // index in packs
	off  int64
	n    uint32
}

type cachePack struct {
	path string
	once sync.Once
	f    *os.File
	used atomic.Bool
}

type cache struct {
	dir      string
	max      int64
	loadOnce sync.Once
	index    map[[sha256.Size]byte]cacheLoc // packs complete at the first lookup
	packs    []*cachePack

	mu    sync.Mutex // guards the run's own pack
	out   *os.File   // nil until the first put; broken after a write error
	bad   bool
	off   int64
	added []byte // index records of the run's pack
	wrote atomic.Int64
}

// openCache opens the cache in dir (a missing directory is an empty
// cache); the packs' indexes are read at the first lookup, so a run with
// nothing to instrument never reads them.
func openCache(dir string, max int64) *cache {
	return &cache{dir: dir, max: max}
}

// load reads the indexes of the packs complete now.
func (c *cache) load() {
	c.index = map[[sha256.Size]byte]cacheLoc{}
	ents, _ := os.ReadDir(c.dir)
	dir := c.dir
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".idx") || strings.HasPrefix(name, ".") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data)%idxRecord != 0 {
			continue
		}
		pack := len(c.packs)
		c.packs = append(c.packs, &cachePack{path: filepath.Join(dir, strings.TrimSuffix(name, ".idx")+".pack")})
		for r := data; len(r) > 0; r = r[idxRecord:] {
			var k [sha256.Size]byte
			copy(k[:], r)
			c.index[k] = cacheLoc{pack: pack,
				off: int64(binary.BigEndian.Uint64(r[sha256.Size:])),
				n:   binary.BigEndian.Uint32(r[sha256.Size+8:])}
		}
	}
}

func (p *cachePack) file() *os.File {
	p.once.Do(func() { p.f, _ = os.Open(p.path) })
	return p.f
}

func decodeKey(key string) (k [sha256.Size]byte, ok bool) {
	n, err := hex.Decode(k[:], []byte(key))
	return k, err == nil && n == sha256.Size
}

func (c *cache) get(key string) ([]byte, bool) {
	k, ok := decodeKey(key)
	if !ok {
		return nil, false
	}
	c.loadOnce.Do(c.load)
	loc, ok := c.index[k]
	if !ok {
		return nil, false
	}
	p := c.packs[loc.pack]
	f := p.file()
	if f == nil {
		return nil, false
	}
	data := make([]byte, loc.n)
	if _, err := f.ReadAt(data, loc.off); err != nil {
		return nil, false
	}
	p.used.Store(true)
	return data, true
}

// put stores an entry: the parts, in order (so that a caller need not
// copy them into one buffer); failures (a full disk, a read-only cache)
// only cost the next run a miss.
func (c *cache) put(key string, parts ...[]byte) {
	k, ok := decodeKey(key)
	if !ok {
		return
	}
	n := 0
	for _, b := range parts {
		n += len(b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bad {
		return
	}
	if c.out == nil {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			c.bad = true
			return
		}
		f, err := os.CreateTemp(c.dir, ".run-*.pack")
		if err != nil {
			c.bad = true
			return
		}
		c.out = f
	}
	for _, b := range parts {
		if _, err := c.out.Write(b); err != nil {
			c.bad = true // the pack is dropped at close
			return
		}
	}
	var rec [idxRecord]byte
	copy(rec[:], k[:])
	binary.BigEndian.PutUint64(rec[sha256.Size:], uint64(c.off))
	binary.BigEndian.PutUint32(rec[sha256.Size+8:], uint32(n))
	c.added = append(c.added, rec[:]...)
	c.off += int64(n)
	c.wrote.Add(int64(n))
}

// close ends the run: the run's pack gets its index (and so becomes
// visible to later runs), the packs read are refreshed, and the cache is
// trimmed if the run added to it.
func (c *cache) close() {
	now := time.Now()
	for _, p := range c.packs {
		if p.f != nil {
			p.f.Close()
		}
		if p.used.Load() {
			_ = os.Chtimes(p.path, now, now)
		}
	}
	if c.out == nil {
		return
	}
	tmp := c.out.Name()
	err := c.out.Close()
	if c.bad || err != nil || len(c.added) == 0 {
		os.Remove(tmp)
		return
	}
	base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(tmp), ".run-"), ".pack")
	pack := filepath.Join(c.dir, base+".pack")
	if os.Rename(tmp, pack) != nil {
		os.Remove(tmp)
		return
	}
	idx, err := os.CreateTemp(c.dir, ".idx-*")
	if err != nil {
		os.Remove(pack)
		return
	}
	_, err = idx.Write(c.added)
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(idx.Name(), filepath.Join(c.dir, base+".idx"))
	}
	if err != nil {
		os.Remove(idx.Name())
		os.Remove(pack)
		return
	}
	c.trim()
}

// trim bounds the cache after a run that added entries: whole packs go,
// least recently used first; packs without an index and temporary files
// older than an hour (killed runs') go too.
func (c *cache) trim() {
	max := c.max
	if max <= 0 {
		max = DefaultCacheMax
	}
	type pack struct {
		base string
		size int64
		mod  time.Time
	}
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	have := map[string]bool{}
	for _, e := range ents {
		if b, ok := strings.CutSuffix(e.Name(), ".idx"); ok && !strings.HasPrefix(b, ".") {
			have[b] = true
		}
	}
	var packs []pack
	var total int64
	old := time.Now().Add(-time.Hour)
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || e.IsDir() {
			continue
		}
		name := e.Name()
		p := filepath.Join(c.dir, name)
		switch {
		case strings.HasPrefix(name, "."):
			if fi.ModTime().Before(old) {
				os.Remove(p)
			}
		case strings.HasSuffix(name, ".pack"):
			b := strings.TrimSuffix(name, ".pack")
			if !have[b] {
				if fi.ModTime().Before(old) {
					os.Remove(p)
				}
				continue
			}
			packs = append(packs, pack{b, fi.Size(), fi.ModTime()})
			total += fi.Size()
		}
	}
	if total <= max {
		return
	}
	slices.SortFunc(packs, func(a, b pack) int { return a.mod.Compare(b.mod) })
	for _, p := range packs {
		if total <= max/4*3 {
			break
		}
		os.Remove(filepath.Join(c.dir, p.base+".idx"))
		if os.Remove(filepath.Join(c.dir, p.base+".pack")) == nil {
			total -= p.size
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
