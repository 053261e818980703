package noderun

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSupportDir: the support directory is named by its files' content,
// shared by runs with the same files (not written again), written afresh
// when its files were changed, and one directory per content however many
// runs ask for it at once.
func TestSupportDir(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cache")
	files := map[string][]byte{"a.cjs": []byte("exports.a = 1;\n"), "b.js": []byte("x"), "empty.mjs": nil}
	d1, err := supportDir(root, files)
	require.NoError(t, err)
	assert.True(t, holds(d1, files))
	st, err := os.Stat(root)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm(), "the root is private to its owner")

	// Reused as it is.
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(d1, "a.cjs"), old, old))
	d2, err := supportDir(root, files)
	require.NoError(t, err)
	assert.Equal(t, d1, d2)
	st, err = os.Stat(filepath.Join(d1, "a.cjs"))
	require.NoError(t, err)
	assert.True(t, st.ModTime().Equal(old), "an intact directory is not written again")

	// Other content, another directory; the first stays.
	other := map[string][]byte{"a.cjs": []byte("exports.a = 2;\n"), "b.js": []byte("x"), "empty.mjs": nil}
	d3, err := supportDir(root, other)
	require.NoError(t, err)
	assert.NotEqual(t, d1, d3)
	assert.True(t, holds(d1, files) && holds(d3, other))
	// A name moved between files changes the name too.
	d4, err := supportDir(root, map[string][]byte{"a.cjs": []byte("x"), "b.js": []byte("exports.a = 1;\n"), "empty.mjs": nil})
	require.NoError(t, err)
	assert.NotEqual(t, d1, d4)

	// A damaged directory (a file changed, one removed) is replaced.
	require.NoError(t, os.WriteFile(filepath.Join(d1, "a.cjs"), []byte("exports.a = 666;\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(d1, "b.js")))
	d5, err := supportDir(root, files)
	require.NoError(t, err)
	assert.Equal(t, d1, d5)
	assert.True(t, holds(d5, files))

	// Many at once: one directory, intact, and nothing else left behind.
	root2 := filepath.Join(t.TempDir(), "cache")
	var wg sync.WaitGroup
	dirs := make([]string, 16)
	for i := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := supportDir(root2, files)
			assert.NoError(t, err)
			dirs[i] = d
		}()
	}
	wg.Wait()
	for _, d := range dirs {
		assert.Equal(t, dirs[0], d)
	}
	assert.True(t, holds(dirs[0], files))
	ents, err := os.ReadDir(root2)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "only the support directory remains")
}

// TestSupportDirPruned: a run removes support directories unused for 30
// days and partial ones older than an hour, and keeps the rest.
func TestSupportDirPruned(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cache")
	files := map[string][]byte{"a.cjs": []byte("1")}
	d, err := supportDir(root, files)
	require.NoError(t, err)
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(p, 0o755))
		at := time.Now().Add(-age)
		require.NoError(t, os.Chtimes(p, at, at))
		return p
	}
	oldSup := mk("node-0123", 31*24*time.Hour)
	recent := mk("node-4567", 29*24*time.Hour)
	partial := mk(".node-99", 2*time.Hour)
	fresh := mk(".node-98", time.Minute)
	stale := mk(".stale-1", 2*time.Hour)
	other := mk("v2", 365*24*time.Hour) // the project cache's: not ours
	// Our own directory, though old, is in use.
	at := time.Now().Add(-40 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(d, at, at))
	d2, err := supportDir(root, files)
	require.NoError(t, err)
	assert.Equal(t, d, d2)
	for p, keep := range map[string]bool{oldSup: false, recent: true, partial: false, fresh: true, stale: false, other: true, d: true} {
		_, err := os.Stat(p)
		assert.Equal(t, keep, err == nil, p)
	}
	st, err := os.Stat(d)
	require.NoError(t, err)
	assert.WithinDuration(t, time.Now(), st.ModTime(), time.Minute, "a use marks the directory")
}

// TestSupportDirPrivate: node runs what the support directory holds, so a
// root that others may write to is refused (Run falls back to its
// temporary directory, and says so), and so is a support directory that
// others may write to or that another user owns, though its files are
// right: refused at every use, never replaced (issue 54, case 4).
func TestSupportDirPrivate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.Mkdir(root, 0o700))
	require.NoError(t, os.Chmod(root, 0o777))
	files := map[string][]byte{"a.cjs": []byte("1")}
	_, err := supportDir(root, files)
	assert.ErrorContains(t, err, "may be written by others")

	require.NoError(t, os.Chmod(root, 0o755))
	d, err := supportDir(root, files)
	require.NoError(t, err)
	st, err := os.Stat(d)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	require.NoError(t, os.Chmod(d, 0o777))
	_, err = supportDir(root, files)
	assert.ErrorContains(t, err, "may be written by others")
	_, err = supportDir(root, files)
	assert.ErrorContains(t, err, "may be written by others", "still refused: not replaced")
	require.NoError(t, os.Chmod(d, 0o700))
	d2, err := supportDir(root, files)
	require.NoError(t, err)
	assert.Equal(t, d, d2)

	// Another user's directory, mode 0755 (the files are right).
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root: the ownership case must run")
		}
		t.Skip("the ownership case needs root (to give a directory to another user); CI runs it")
	}
	require.NoError(t, os.Chmod(d, 0o755))
	require.NoError(t, os.Chown(d, 65534, 65534))
	_, err = supportDir(root, files)
	assert.ErrorContains(t, err, "belongs to another user (uid 65534)")
	require.NoError(t, os.Chown(d, 0, 0))
	require.NoError(t, os.Chown(root, 65534, 65534))
	_, err = supportDir(root, files)
	assert.ErrorContains(t, err, "belongs to another user (uid 65534)")
}

// TestSupportDirUnwritable: a root that cannot be created gives an error
// (Run then keeps the files in its temporary directory).
func TestSupportDirUnwritable(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(f, nil, 0o644))
	_, err := supportDir(filepath.Join(f, "cache"), supportFiles("shim"))
	assert.Error(t, err)
	assert.Equal(t, "", supportRoot("-"))
	assert.Equal(t, "/x", supportRoot("/x"))
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(wd, "rel"), supportRoot("rel"))
	// Go refuses a relative XDG_CACHE_HOME: the run keeps its files in its
	// temporary directory.
	t.Setenv("XDG_CACHE_HOME", "relcache")
	assert.Equal(t, "", supportRoot(""))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(wd, "abscache"))
	assert.Equal(t, filepath.Join(wd, "abscache", "memtrace"), supportRoot(""))
}
