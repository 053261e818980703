package safefs

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Symlink replaces a file or a link (never writing through it) and
// refuses a directory; Readlink, ReadFile and Chtimes follow no link.
func TestLinksMadeAndRead(t *testing.T) {
	root, victim := t.TempDir(), t.TempDir()
	vf := filepath.Join(victim, "f")
	require.NoError(t, os.WriteFile(vf, []byte("victim"), 0o644))
	require.NoError(t, os.Symlink(vf, filepath.Join(root, "l")))
	require.NoError(t, os.Symlink(victim, filepath.Join(root, "sub")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "file"), []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(root, "dir"), 0o755))
	d, err := Open(root)
	require.NoError(t, err)
	defer d.Close()

	got, err := d.Readlink("l")
	require.NoError(t, err)
	assert.Equal(t, vf, got)
	require.NoError(t, d.Symlink("new-target", "l"))
	require.NoError(t, d.Symlink("other", "file"))
	require.NoError(t, d.Symlink("made", "a/b/link"))
	for rel, want := range map[string]string{"l": "new-target", "file": "other", "a/b/link": "made"} {
		got, err := os.Readlink(filepath.Join(root, rel))
		require.NoError(t, err, rel)
		assert.Equal(t, want, got, rel)
	}
	assert.Error(t, d.Symlink("x", "dir"), "a directory is not replaced")
	_, err = d.Readlink("sub/f")
	assert.ErrorIs(t, err, ErrLink)
	assert.ErrorIs(t, d.Symlink("x", "sub/f"), ErrLink)
	_, err = d.ReadFile("sub/f")
	assert.ErrorIs(t, err, ErrLink)
	require.NoError(t, os.Symlink(vf, filepath.Join(root, "l2")))
	_, err = d.ReadFile("l2")
	assert.ErrorIs(t, err, ErrLink)

	old := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	before, err := os.Stat(vf)
	require.NoError(t, err)
	require.NoError(t, d.Chtimes("l2", old, old))
	fi, err := os.Lstat(filepath.Join(root, "l2"))
	require.NoError(t, err)
	assert.True(t, fi.ModTime().Equal(old), "the link's time")
	after, err := os.Stat(vf)
	require.NoError(t, err)
	assert.Equal(t, before.ModTime(), after.ModTime(), "not its target's")

	assert.Equal(t, "victim", read(t, vf))
	ents, err := os.ReadDir(victim)
	require.NoError(t, err)
	assert.Len(t, ents, 1)
	ents, err = os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range ents {
		assert.NotContains(t, e.Name(), ".tmp-", "a temporary link left")
	}
}

// A directory is private when its user owns it and no one else may write
// to it.
func TestCheckPrivate(t *testing.T) {
	base := t.TempDir()
	check := func(mode os.FileMode) error {
		p := filepath.Join(base, mode.String())
		require.NoError(t, os.Mkdir(p, 0o700))
		require.NoError(t, os.Chmod(p, mode))
		d, err := Open(p)
		require.NoError(t, err)
		defer d.Close()
		return d.CheckPrivate()
	}
	assert.NoError(t, check(0o700))
	assert.NoError(t, check(0o755))
	var np *NotPrivateError
	err := check(0o777)
	require.ErrorAs(t, err, &np)
	assert.Contains(t, err.Error(), "writable by others (mode 0777)")
	err = check(0o770)
	require.ErrorAs(t, err, &np)
	assert.Contains(t, err.Error(), "writable by its group (mode 0770)")

	if os.Geteuid() != 0 {
		testcorpus.Missing(t, "a directory owned by another user can only be made as root")
	}
	p := filepath.Join(base, "others")
	require.NoError(t, os.Mkdir(p, 0o700))
	require.NoError(t, os.Chown(p, 65534, 65534))
	d, err := Open(p)
	require.NoError(t, err)
	defer d.Close()
	err = d.CheckPrivate()
	require.ErrorAs(t, err, &np)
	assert.Contains(t, err.Error(), "owned by user 65534")
}
