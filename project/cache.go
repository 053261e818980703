package project

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	"github.com/memtrace/memtrace/internal/safefs"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"golang.org/x/sys/unix"
)

// The cache keeps entries in pack files: each run that adds entries
// appends them to a pack of its own, DIR/v3/<id>.pack, and writes the
// pack's index, DIR/v3/<id>.idx (records of key, offset, length and the
// SHA-256 of the entry), when it ends, each through a temporary file
// renamed into place, so a run reads only whole packs: those whose index
// exists when it first looks. (One file per entry cost a file creation and
// a rename per source, a fifth of a cold run.) KEY is the SHA-256 of
// everything the output depends on (cacheKey). An entry is 'o' and the
// output, 'u' (the source was already instrumented: copied as it is), or
// 'e' (the source cannot be instrumented; it is instrumented again for its
// diagnostics, which name the input path). Concurrent runs write
// different packs; the same key in two packs holds the same bytes. A run
// that added entries trims the cache to three quarters of its bound when
// it is over it, least recently used packs first (a run that reads a pack
// refreshes its modification time), and removes packs without an index
// older than an hour (a killed run's) and the directory of the older
// layout (v2). Deleting the directory at any time is safe.
//
// The cache is trusted only as far as it is checked. DIR and DIR/v3 must
// be owned by the user and writable neither by their group nor by others
// (checked on every run, on the directories opened, which every later
// access goes through, following no link); otherwise the run goes on
// without the cache and says why (Summary.CacheRefused), and the
// directory is left as it is. An entry is served only if its bytes have
// the digest its index records: a mismatch (a pack edited, a disk's
// fault) is a miss and a warning, and the entry is taken out of the index.
const cacheLayout = "v3"

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

const idxRecord = sha256.Size + 8 + 4 + sha256.Size // key, offset, length (big-endian), digest

type cacheLoc struct {
	pack   int // index in packs
	off    int64
	n      uint32
	digest [sha256.Size]byte
}

type cachePack struct {
	name string // without its extension
	once sync.Once
	f    *os.File
	used atomic.Bool
}

type cache struct {
	root     string // the cache directory, as given
	max      int64
	loadOnce sync.Once
	index    map[[sha256.Size]byte]cacheLoc // packs complete at the first lookup
	packs    []*cachePack

	mu       sync.Mutex  // guards what follows
	dir      *safefs.Dir // root/cacheLayout; nil until it exists
	out      *safefs.File
	outName  string
	bad      bool // no more puts: a write failed, or the directory was refused
	off      int64
	added    []byte                             // index records of the run's pack
	corrupt  map[int]map[[sha256.Size]byte]bool // by pack: keys whose bytes do not match their digest
	warnings []string
	wrote    atomic.Int64
}

// openCache opens the cache in root: a missing directory is an empty
// cache, made at the first put; a directory that is not the user's alone
// (or a link where the layout's directory goes) is an error. The packs'
// indexes are read at the first lookup, so a run with nothing to
// instrument never reads them.
func openCache(root string, max int64) (*cache, error) {
	c := &cache{root: root, max: max}
	d, err := openCacheDir(root, false)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.dir = d
	return c, nil
}

// openCacheDir opens root/cacheLayout (making both with mk), each checked
// to be private (safefs.CheckPrivate).
func openCacheDir(root string, mk bool) (*safefs.Dir, error) {
	var rd *safefs.Dir
	var err error
	if mk {
		rd, err = safefs.MkdirAll(root, 0o700)
	} else {
		rd, err = safefs.Open(root)
	}
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	if err := rd.CheckPrivate(); err != nil {
		return nil, err
	}
	d, err := rd.Sub(cacheLayout, 0o700, mk)
	if err != nil {
		return nil, err
	}
	if err := d.CheckPrivate(); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

func (c *cache) warn(format string, args ...any) {
	c.mu.Lock()
	c.warnings = append(c.warnings, "cache: "+fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

// load reads the indexes of the packs complete now.
func (c *cache) load() {
	c.index = map[[sha256.Size]byte]cacheLoc{}
	c.mu.Lock()
	dir := c.dir
	c.mu.Unlock()
	if dir == nil {
		return
	}
	names, _ := dir.Names()
	slices.Sort(names)
	for _, name := range names {
		base, ok := strings.CutSuffix(name, ".idx")
		if !ok || strings.HasPrefix(name, ".") {
			continue
		}
		data, err := dir.ReadFile(name)
		if err != nil || len(data)%idxRecord != 0 {
			continue
		}
		pack := len(c.packs)
		c.packs = append(c.packs, &cachePack{name: base})
		for r := data; len(r) > 0; r = r[idxRecord:] {
			var k [sha256.Size]byte
			copy(k[:], r)
			loc := cacheLoc{pack: pack,
				off: int64(binary.BigEndian.Uint64(r[sha256.Size:])),
				n:   binary.BigEndian.Uint32(r[sha256.Size+8:])}
			copy(loc.digest[:], r[sha256.Size+12:])
			c.index[k] = loc
		}
	}
}

func (c *cache) file(p *cachePack) *os.File {
	p.once.Do(func() { p.f, _ = c.dir.Open(p.name + ".pack") })
	return p.f
}

func decodeKey(key string) (k [sha256.Size]byte, ok bool) {
	n, err := hex.Decode(k[:], []byte(key))
	return k, err == nil && n == sha256.Size
}

// get returns the entry of key if it is there with the bytes its index
// records.
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
	f := c.file(p)
	if f == nil {
		return nil, false
	}
	data := make([]byte, loc.n)
	if _, err := f.ReadAt(data, loc.off); err != nil {
		c.spoilt(loc.pack, k)
		return nil, false
	}
	if sha256.Sum256(data) != loc.digest {
		c.spoilt(loc.pack, k)
		return nil, false
	}
	p.used.Store(true)
	return data, true
}

// spoilt notes an entry whose bytes are not those its index records: it is
// taken out of the pack's index when the run ends.
func (c *cache) spoilt(pack int, k [sha256.Size]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corrupt == nil {
		c.corrupt = map[int]map[[sha256.Size]byte]bool{}
	}
	if c.corrupt[pack] == nil {
		c.corrupt[pack] = map[[sha256.Size]byte]bool{}
	}
	c.corrupt[pack][k] = true
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
	h := sha256.New()
	for _, b := range parts {
		n += len(b)
		h.Write(b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bad {
		return
	}
	if c.out == nil {
		if c.dir == nil {
			d, err := openCacheDir(c.root, true)
			if err != nil {
				c.bad = true
				c.warnings = append(c.warnings, "cache: not written: "+err.Error())
				return
			}
			c.dir = d
		}
		var id [8]byte
		if _, err := rand.Read(id[:]); err != nil {
			c.bad = true
			return
		}
		c.outName = hex.EncodeToString(id[:])
		f, err := c.dir.Create(c.outName+".pack", 0o600)
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
	h.Sum(rec[sha256.Size+12 : sha256.Size+12])
	c.added = append(c.added, rec[:]...)
	c.off += int64(n)
	c.wrote.Add(int64(n))
}

// close ends the run: the run's pack gets its index (and so becomes
// visible to later runs), entries that did not match their digests leave
// their packs' indexes, the packs read are refreshed, and the cache is
// trimmed if the run added to it.
func (c *cache) close() {
	if c.dir == nil {
		return
	}
	defer c.dir.Close()
	now := time.Now()
	for _, p := range c.packs {
		if p.f != nil {
			p.f.Close()
		}
		if p.used.Load() {
			_ = c.dir.Chtimes(p.name+".pack", now, now)
		}
	}
	for pack, keys := range c.corrupt {
		c.drop(c.packs[pack].name, keys)
	}
	if c.out == nil {
		return
	}
	if c.bad || len(c.added) == 0 {
		c.out.Abort()
		return
	}
	if err := c.out.Commit(); err != nil {
		return
	}
	if err := c.dir.WriteFile(c.outName+".idx", c.added, 0o600); err != nil {
		c.dir.Remove(c.outName + ".pack")
		return
	}
	c.trim()
}

// drop takes the entries keys out of the index of pack name (all of them:
// the pack goes), with a warning.
func (c *cache) drop(name string, keys map[[sha256.Size]byte]bool) {
	idx := name + ".idx"
	data, err := c.dir.ReadFile(idx)
	if err != nil || len(data)%idxRecord != 0 {
		return
	}
	var kept []byte
	for r := data; len(r) > 0; r = r[idxRecord:] {
		if !keys[[sha256.Size]byte(r[:sha256.Size])] {
			kept = append(kept, r[:idxRecord]...)
		}
	}
	if len(kept) == 0 {
		err = c.dir.Remove(idx)
		if err == nil {
			err = c.dir.Remove(name + ".pack")
		}
	} else {
		err = c.dir.WriteFile(idx, kept, 0o600)
	}
	what := "removed from the cache"
	if err != nil {
		what = "not removed: " + err.Error()
	}
	c.warnings = append(c.warnings, fmt.Sprintf("cache: %d entries of %s do not have the bytes that were written (their digests differ; the pack was changed since): not used, instrumented again, %s",
		len(keys), c.dir.Path(name+".pack"), what))
}

// trim bounds the cache after a run that added entries: whole packs go,
// least recently used first; packs without an index and temporary files
// older than an hour (killed runs') go too, and so does the older layout.
func (c *cache) trim() {
	if rd, err := safefs.Open(c.root); err == nil {
		if rd.CheckPrivate() == nil {
			_ = rd.RemoveAll("v2")
		}
		rd.Close()
	}
	max := c.max
	if max <= 0 {
		max = DefaultCacheMax
	}
	type pack struct {
		base string
		size int64
		mod  int64
	}
	names, err := c.dir.Names()
	if err != nil {
		return
	}
	have := map[string]bool{}
	for _, name := range names {
		if b, ok := strings.CutSuffix(name, ".idx"); ok && !strings.HasPrefix(b, ".") {
			have[b] = true
		}
	}
	var packs []pack
	var total int64
	old := time.Now().Add(-time.Hour).UnixNano()
	for _, name := range names {
		st, err := c.dir.Lstat(name)
		if err != nil || st.Mode&unix.S_IFMT == unix.S_IFDIR {
			continue
		}
		mod := st.Mtim.Nano()
		switch {
		case strings.HasPrefix(name, "."):
			if mod < old {
				c.dir.Remove(name)
			}
		case strings.HasSuffix(name, ".pack"):
			b := strings.TrimSuffix(name, ".pack")
			if !have[b] {
				if mod < old {
					c.dir.Remove(name)
				}
				continue
			}
			packs = append(packs, pack{b, st.Size, mod})
			total += st.Size
		}
	}
	if total <= max {
		return
	}
	slices.SortFunc(packs, func(a, b pack) int { return cmp.Compare(a.mod, b.mod) })
	for _, p := range packs {
		if total <= max/4*3 {
			break
		}
		c.dir.Remove(p.base + ".idx")
		if c.dir.Remove(p.base+".pack") == nil {
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
