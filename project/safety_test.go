package project

// Issue 54: what a run may write over, and what it trusts.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

func isDir(t *testing.T, p string) bool {
	t.Helper()
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// TestRunOutLinks (case 1): a directory symbolic link left in OUT is never
// written through. A linked package (npm link) replaced by a real install
// between runs: the link memtrace made gives way to a real directory, the
// package the link pointed to is untouched. A link memtrace did not make
// (or one re-pointed since), to a directory elsewhere or back into DIR,
// stops the run with a message naming it, and nothing is written through
// it. The input's own links are still recreated as links.
func TestRunOutLinks(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	shared := filepath.Join(base, "shared") // the linked package, outside DIR
	victim := filepath.Join(base, "victim")
	write(t, shared, map[string]string{"index.js": "exports.shared = 1;\n", "package.json": "{}\n"})
	write(t, victim, map[string]string{"index.js": "victim\n", "a.js": "victim\n"})
	write(t, in, map[string]string{
		"package.json": `{"name":"app"}`,
		"main.js":      "require('lib');\n",
		"src/a.js":     "exports.a = 1;\n",
	})
	symlink(t, shared, filepath.Join(in, "node_modules", "lib"))
	symlink(t, "a.js", filepath.Join(in, "src", "alias.js"))
	out := filepath.Join(base, "out")
	opts := Options{In: in, Out: out, ToolID: "test"}
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(out, "node_modules", "lib")
	if target, err := os.Readlink(lib); err != nil || target != shared {
		t.Fatalf("node_modules/lib: %q %v, want a link to %s", target, err, shared)
	}

	// The real install replaces the link in DIR.
	if err := os.Remove(filepath.Join(in, "node_modules", "lib")); err != nil {
		t.Fatal(err)
	}
	write(t, in, map[string]string{"node_modules/lib/index.js": "exports.installed = 2;\n"})

	// Someone re-pointed memtrace's link since: not memtrace's any more.
	os.Remove(lib)
	symlink(t, victim, lib)
	_, err := Run(opts)
	if err == nil || !strings.Contains(err.Error(), lib+" is a symbolic link that memtrace did not make") {
		t.Fatalf("a re-pointed link: %v", err)
	}
	if got := read(t, filepath.Join(victim, "index.js")); got != "victim\n" {
		t.Fatalf("written through the link: %q", got)
	}

	// memtrace's own link, as it made it: replaced by a directory.
	os.Remove(lib)
	symlink(t, shared, lib)
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(shared, "index.js")); got != "exports.shared = 1;\n" {
		t.Fatalf("the linked package was overwritten: %q", got)
	}
	if !isDir(t, lib) || read(t, filepath.Join(lib, "index.js")) != "exports.installed = 2;\n" {
		t.Fatalf("node_modules/lib is not the installed package's copy")
	}
	if target, err := os.Readlink(filepath.Join(out, "src", "alias.js")); err != nil || target != "a.js" {
		t.Fatalf("src/alias.js: %q %v, want the link kept", target, err)
	}

	// A link planted where DIR has a directory: to elsewhere, and back
	// into DIR (the input's own source).
	write(t, in, map[string]string{"src/a.js": "exports.a = 2;\n"})
	for _, target := range []string{victim, filepath.Join(in, "src")} {
		src := filepath.Join(out, "src")
		if err := os.RemoveAll(src); err != nil {
			t.Fatal(err)
		}
		symlink(t, target, src)
		_, err := Run(opts)
		if err == nil || !strings.Contains(err.Error(), src+" is a symbolic link that memtrace did not make, where "+filepath.Join(in, "src")+" has a directory") {
			t.Errorf("a link to %s: %v", target, err)
		}
	}
	if got := read(t, filepath.Join(in, "src", "a.js")); got != "exports.a = 2;\n" {
		t.Errorf("the input was overwritten: %q", got)
	}
	if got := read(t, filepath.Join(victim, "a.js")); got != "victim\n" {
		t.Errorf("written through the link: %q", got)
	}
	if got := names(t, victim); len(got) != 2 {
		t.Errorf("files made through the link: %v", got)
	}
	if got := names(t, filepath.Join(in, "src")); len(got) != 2 {
		t.Errorf("files made in the input: %v", got)
	}
}

// TestRunOutNotOurs (case 13): an OUT memtrace did not make (no manifest)
// is refused unless empty, naming the file in the way and writing nothing;
// in its own OUT a run removes the outputs of inputs deleted since (files,
// links, a directory left empty), and only what its manifest lists.
func TestRunOutNotOurs(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	write(t, in, map[string]string{
		"a.js": "exports.a = 1;\n", "b.js": "exports.b = 1;\n", "x.ts": "export const x: number = 1;\n",
		"dir/c.js": "exports.c = 1;\n", "dir/d.txt": "d\n", "gone/e.js": "exports.e = 1;\n",
	})
	symlink(t, "a.js", filepath.Join(in, "l.js"))

	users := filepath.Join(base, "users")
	write(t, users, map[string]string{"notes.txt": "mine\n", "sub/more.txt": "mine\n"})
	_, err := Run(Options{In: in, Out: users, ToolID: "test"})
	if err == nil || !strings.Contains(err.Error(), users+" holds notes.txt, which memtrace did not write") {
		t.Fatalf("a directory of the user's: %v", err)
	}
	if got := names(t, users); len(got) != 2 || read(t, filepath.Join(users, "notes.txt")) != "mine\n" {
		t.Fatalf("the user's directory was written to: %v", got)
	}

	empty := filepath.Join(base, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(Options{In: in, Out: empty, ToolID: "test"}); err != nil {
		t.Fatalf("an empty directory: %v", err)
	}

	out := filepath.Join(base, "out")
	opts := Options{In: in, Out: out, ToolID: "test"}
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	// Files the user put there, which the manifest does not list.
	write(t, out, map[string]string{"mine.txt": "mine\n", "dir/mine.txt": "mine\n"})
	for _, f := range []string{"b.js", "dir/c.js", "dir/d.txt", "gone/e.js", "l.js", "x.ts"} {
		if err := os.Remove(filepath.Join(in, f)); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(in, "gone"))
	write(t, in, map[string]string{"x.js": "exports.x = 'js';\n"}) // x.ts's output is x.js's now
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"b.js", "dir/c.js", "dir/d.txt", "l.js", "gone"} {
		if _, err := os.Lstat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("%s: the output of a deleted input is still there (%v)", f, err)
		}
	}
	for _, f := range []string{"a.js", "mine.txt", "dir/mine.txt"} {
		if _, err := os.Lstat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: removed (%v)", f, err)
		}
	}
	if got := read(t, filepath.Join(out, "x.js")); !strings.Contains(got, "'js'") {
		t.Errorf("x.js: %q", got)
	}

	// Without its manifest, OUT is the user's.
	if err := os.Remove(filepath.Join(out, ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(opts); err == nil || !strings.Contains(err.Error(), "which memtrace did not write: give a new or empty directory") {
		t.Errorf("OUT without its manifest: %v", err)
	}
}

// TestManifestTempLink (case 6, part): the manifest is written through a
// fresh temporary file, never through a link planted at a fixed name, and
// concurrent runs into one OUT do not share one (nor run at once:
// TestRunLocked).
func TestManifestTempLink(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	write(t, in, map[string]string{"a.js": "exports.a = 1;\n"})
	out := filepath.Join(base, "out")
	opts := Options{In: in, Out: out, ToolID: "test"}
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(base, "victim")
	write(t, base, map[string]string{"victim": "victim\n"})
	symlink(t, victim, filepath.Join(out, ManifestFile+".tmp"))
	write(t, in, map[string]string{"a.js": "exports.a = 2;\n"})
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	if got := read(t, victim); got != "victim\n" {
		t.Errorf("the manifest was written through a link: %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(out, ManifestFile)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the manifest: %v %v", fi, err)
	}

	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		write(t, in, map[string]string{"a.js": "exports.a = " + strings.Repeat("1", i+3) + ";\n"})
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One run at a time: the others are refused, saying so.
			var locked *safefs.LockedError
			if _, err := Run(opts); err != nil && !errors.As(err, &locked) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, n := range names(t, out) {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("a temporary file left: %s", n)
		}
	}
	if s, err := Run(opts); err != nil || s.Instrumented != 1 {
		t.Errorf("after concurrent runs: %+v %v", s, err)
	}
}

// TestCacheVerified (case 5): an entry whose bytes were changed in its
// pack is a miss with a warning, instrumented again, and taken out of the
// cache (the next run finds no bad entry).
func TestCacheVerified(t *testing.T) {
	in := t.TempDir()
	write(t, in, map[string]string{"m1.js": "exports.v = { n: 1111 };\n", "m2.js": "exports.v = { n: 2222 };\n", "m3.js": "exports.v = { n: 3333 };\n"})
	cdir := filepath.Join(t.TempDir(), "cache")
	run := func() *Summary {
		t.Helper()
		sum, err := Run(Options{In: in, Out: filepath.Join(t.TempDir(), "o"), Cache: cdir, ToolID: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	first := run()
	if first.Misses != 3 {
		t.Fatalf("first run: %+v", first)
	}
	p, _, _ := packs(t, cdir)
	if len(p) != 1 {
		t.Fatalf("packs %v", p)
	}
	pack := filepath.Join(cdir, cacheLayout, p[0])
	data, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(data, []byte("2222")) == 0 {
		t.Fatalf("m2.js's output is not in the pack")
	}
	if err := os.WriteFile(pack, bytes.ReplaceAll(data, []byte("2222"), []byte("6666")), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "o")
	sum, err := Run(Options{In: in, Out: out, Cache: cdir, ToolID: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.CacheHits != 2 || sum.Misses != 1 {
		t.Errorf("after the pack was edited: %d hits, %d misses; want 2, 1", sum.CacheHits, sum.Misses)
	}
	if got := read(t, filepath.Join(out, "m2.js")); !strings.Contains(got, "2222") || strings.Contains(got, "6666") {
		t.Errorf("m2.js served from the edited pack: %q", got)
	}
	if !strings.Contains(strings.Join(sum.Warnings, "\n"), "do not have the bytes that were written") {
		t.Errorf("no warning: %q", sum.Warnings)
	}
	again := run()
	if again.CacheHits != 3 || len(again.Warnings) != 0 {
		t.Errorf("the bad entry is still there: %d hits, warnings %q", again.CacheHits, again.Warnings)
	}
}

// TestCacheDirPrivate (case 5): a cache directory that others may write
// to, or that another user owns, is not used (nor replaced: its mode and
// content stay), with a warning; the run goes on without it.
func TestCacheDirPrivate(t *testing.T) {
	in := t.TempDir()
	write(t, in, map[string]string{"a.js": "exports.a = {};\n"})
	refused := func(name, cdir string, why string) {
		t.Helper()
		before, _ := os.Stat(cdir)
		sum, err := Run(Options{In: in, Out: filepath.Join(t.TempDir(), "o"), Cache: cdir, ToolID: "test"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sum.Instrumented != 1 {
			t.Errorf("%s: %+v", name, sum)
		}
		if w := strings.Join(sum.Warnings, "\n"); !strings.Contains(w, "the cache is not used: ") || !strings.Contains(w, why) {
			t.Errorf("%s: warnings %q, want %q", name, sum.Warnings, why)
		}
		if p, x, o := packs(t, cdir); len(p)+len(x)+len(o) != 0 {
			t.Errorf("%s: written into: %v %v %v", name, p, x, o)
		}
		if after, _ := os.Stat(cdir); after.Mode() != before.Mode() {
			t.Errorf("%s: mode %v → %v", name, before.Mode(), after.Mode())
		}
	}
	mk := func(mode os.FileMode) string {
		d := filepath.Join(t.TempDir(), "cache")
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		return d
	}
	refused("0777", mk(0o777), "writable by others (mode 0777)")
	refused("0770", mk(0o770), "writable by its group (mode 0770)")
	d := mk(0o700)
	if err := os.Mkdir(filepath.Join(d, cacheLayout), 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(d, cacheLayout), 0o777)
	refused("layout 0777", filepath.Join(d, cacheLayout, ".."), "writable by others (mode 0777)")

	if os.Geteuid() != 0 {
		testcorpus.Missing(t, "a cache directory owned by another user can only be made as root")
	}
	d = mk(0o700)
	if err := os.Chown(d, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	refused("owned by 65534", d, "owned by user 65534")
}

// TestRunFewOpenDirs: files under directories the walk did not keep open
// are written from the nearest one that is (or from OUT).
func TestRunFewOpenDirs(t *testing.T) {
	defer func(f func() int) { openDirsMax = f }(openDirsMax)
	openDirsMax = func() int { return 2 }
	in := t.TempDir()
	files := map[string]string{"top.txt": "top\n"}
	for _, d := range []string{"a", "a/b", "a/b/c", "d", "d/e"} {
		files[d+"/f.js"] = "exports.d = '" + d + "';\n"
	}
	write(t, in, files)
	out := filepath.Join(t.TempDir(), "o")
	if _, err := Run(Options{In: in, Out: out, ToolID: "test"}); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if got := read(t, filepath.Join(out, name)); !strings.Contains(got, strings.TrimSuffix(strings.TrimPrefix(text, "exports.d = "), ";\n")) {
			t.Errorf("%s: %.100q", name, got)
		}
	}
}

// TestRunLocked (case 7, for OUT): while a run holds OUT's lock, another
// run into it is refused with a message that says so and changes nothing;
// once the lock is released, a run goes ahead.
func TestRunLocked(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	write(t, in, map[string]string{"a.js": "exports.a = 1;\n"})
	out := filepath.Join(base, "out")
	opts := Options{In: in, Out: out, ToolID: "test"}
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	before := read(t, filepath.Join(out, "a.js"))
	d, err := safefs.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lock, err := d.TryLock(LockFile)
	if err != nil {
		t.Fatal(err)
	}
	write(t, in, map[string]string{"a.js": "exports.a = 2;\n"})
	_, err = Run(opts)
	var locked *safefs.LockedError
	if !errors.As(err, &locked) || !strings.Contains(err.Error(), out+" is being written by another memtrace (process "+strconv.Itoa(os.Getpid())+")") {
		t.Fatalf("a locked OUT: %v", err)
	}
	if got := read(t, filepath.Join(out, "a.js")); got != before {
		t.Errorf("a refused run wrote a.js")
	}
	lock.Unlock()
	if s, err := Run(opts); err != nil || s.Instrumented != 1 {
		t.Errorf("after the lock: %+v %v", s, err)
	}
}

// TestDirGivesWayToLink (case 1, the realistic trigger): a package
// installed as a directory, then linked (npm link, workspaces). The
// directory the last run made of its outputs gives way to the link, its
// outputs counted as removed; a directory holding a file of the user's
// stays, and the run stops naming that file.
func TestDirGivesWayToLink(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "app")
	write(t, in, map[string]string{"main.js": "require('./pkg/a.js');\n", "pkg/a.js": "exports.a = 1;\n", "pkg/sub/b.js": "exports.b = 2;\n"})
	write(t, base, map[string]string{"ext/a.js": "exports.a = 3;\n"})
	out := filepath.Join(base, "out")
	opts := Options{In: in, Out: out, ToolID: "test"}
	relink := func() {
		if err := os.RemoveAll(filepath.Join(in, "pkg")); err != nil {
			t.Fatal(err)
		}
		symlink(t, filepath.Join(base, "ext"), filepath.Join(in, "pkg"))
	}
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	relink()
	s, err := Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	if s.Removed != 2 || s.Links != 1 {
		t.Errorf("summary: %+v", s)
	}
	if target, err := os.Readlink(filepath.Join(out, "pkg")); err != nil || target != filepath.Join(base, "ext") {
		t.Errorf("the link: %q %v", target, err)
	}

	// Installed again, then a file of the user's in the output.
	if err := os.Remove(filepath.Join(in, "pkg")); err != nil {
		t.Fatal(err)
	}
	write(t, in, map[string]string{"pkg/a.js": "exports.a = 1;\n"})
	if _, err := Run(opts); err != nil {
		t.Fatal(err)
	}
	write(t, out, map[string]string{"pkg/notes.txt": "mine\n"})
	relink()
	_, err = Run(opts)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(out, "pkg", "notes.txt")+" in it is not memtrace's") {
		t.Fatalf("a directory with a file of the user's: %v", err)
	}
	if got := read(t, filepath.Join(out, "pkg", "notes.txt")); got != "mine\n" {
		t.Errorf("the user's file: %q", got)
	}
}
