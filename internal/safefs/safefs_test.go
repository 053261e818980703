package safefs

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// A link planted where a file goes is replaced, its target untouched; a
// link planted as a directory on the way is refused, nothing written
// through it.
func TestLinksAreNotFollowed(t *testing.T) {
	root, victim := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(victim, "f"), []byte("victim"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(victim, "f"), filepath.Join(root, "f")))
	require.NoError(t, os.Symlink(victim, filepath.Join(root, "sub")))
	require.NoError(t, os.Mkdir(filepath.Join(root, "real"), 0o755))
	require.NoError(t, os.Symlink(victim, filepath.Join(root, "real", "deeper")))

	d, err := Open(root)
	require.NoError(t, err)
	defer d.Close()

	require.NoError(t, d.WriteFile("f", []byte("ours"), 0o644))
	assert.Equal(t, "victim", read(t, filepath.Join(victim, "f")))
	assert.Equal(t, "ours", read(t, filepath.Join(root, "f")))
	fi, err := os.Lstat(filepath.Join(root, "f"))
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular())

	for _, rel := range []string{"sub/f", "sub/new/f", "real/deeper/f"} {
		err = d.WriteFile(rel, []byte("ours"), 0o644)
		var le *LinkError
		require.ErrorAs(t, err, &le, rel)
		assert.True(t, errors.Is(err, ErrLink))
		assert.Contains(t, err.Error(), "is a symbolic link")
		_, err = d.Sub(rel, 0o755, true)
		require.ErrorIs(t, err, ErrLink)
	}
	assert.Equal(t, "victim", read(t, filepath.Join(victim, "f")))
	ents, err := os.ReadDir(victim)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "nothing written into the link's target")

	_, err = d.Create("../escape", 0o644)
	assert.Error(t, err)
	_, err = d.Create("/abs", 0o644)
	assert.Error(t, err)

	// RemoveAll removes a link, not what it points to.
	require.NoError(t, d.RemoveAll("sub"))
	require.NoError(t, d.RemoveAll("real"))
	assert.Equal(t, "victim", read(t, filepath.Join(victim, "f")))
	assert.False(t, d.Exists("sub"))
	assert.NoError(t, d.RemoveAll("missing"))
}

// Directories are made as needed; a file is there whole or not at all:
// an aborted write leaves the old content and no temporary file.
func TestCreateCommitAbort(t *testing.T) {
	root := t.TempDir()
	d, err := Open(root)
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.WriteFile("a/b/c.txt", []byte("one"), 0o600))
	assert.Equal(t, "one", read(t, filepath.Join(root, "a", "b", "c.txt")))

	f, err := d.Create("a/b/c.txt", 0o600)
	require.NoError(t, err)
	_, err = f.Write([]byte("two, half written"))
	require.NoError(t, err)
	assert.Equal(t, "one", read(t, filepath.Join(root, "a", "b", "c.txt")), "nothing at the name before Commit")
	f.Abort()
	assert.Equal(t, "one", read(t, filepath.Join(root, "a", "b", "c.txt")))
	ents, err := os.ReadDir(filepath.Join(root, "a", "b"))
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary file left")
	assert.Error(t, f.Commit(), "commit after abort")

	// Concurrent writers of one name never share a temporary file.
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			assert.NoError(t, d.WriteFile("same", []byte(strconv.Itoa(i)), 0o644))
		}(i)
	}
	wg.Wait()
	ents, err = os.ReadDir(root)
	require.NoError(t, err)
	assert.Len(t, ents, 2) // a/ and same
}

func TestClaim(t *testing.T) {
	base := t.TempDir()
	fresh := filepath.Join(base, "x", "out")
	d, err := Claim(fresh, ".mark", "memtrace test\n")
	require.NoError(t, err)
	d.Close()
	assert.Equal(t, "memtrace test\n", read(t, filepath.Join(fresh, ".mark")))

	// Ours from the earlier run, with what it wrote.
	require.NoError(t, os.WriteFile(filepath.Join(fresh, "trace"), nil, 0o644))
	d, err = Claim(fresh, ".mark", "memtrace test\n")
	require.NoError(t, err)
	d.Close()

	empty := filepath.Join(base, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	d, err = Claim(empty, ".mark", "m")
	require.NoError(t, err)
	d.Close()

	users := filepath.Join(base, "users")
	require.NoError(t, os.Mkdir(users, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(users, "notes.txt"), []byte("mine"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(users, "children"), 0o755))
	_, err = Claim(users, ".mark", "m")
	var w *InTheWayError
	require.ErrorAs(t, err, &w)
	assert.Equal(t, "children", w.File)
	assert.Contains(t, err.Error(), users+" holds children, which memtrace did not write")
	assert.Equal(t, "mine", read(t, filepath.Join(users, "notes.txt")))

	// A mark that is a link does not count.
	linked := filepath.Join(base, "linked")
	require.NoError(t, os.Mkdir(linked, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(fresh, ".mark"), filepath.Join(linked, ".mark")))
	_, err = Claim(linked, ".mark", "m")
	require.ErrorAs(t, err, &w)

	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	_, err = Claim(file, ".mark", "m")
	assert.Error(t, err)
}

// The lock is held by a live process: another process is refused, with
// the holder's pid; once the holder is gone (however it ended) it can be
// taken again.
func TestLock(t *testing.T) {
	if os.Getenv("SAFEFS_LOCK_CHILD") != "" {
		d, err := Open(os.Getenv("SAFEFS_LOCK_CHILD"))
		if err != nil {
			os.Exit(3)
		}
		if _, err := d.TryLock(".lock"); err != nil {
			var le *LockedError
			if errors.As(err, &le) && le.PID == os.Getppid() {
				os.Exit(4)
			}
			os.Exit(5)
		}
		os.Exit(0)
	}
	root := t.TempDir()
	d, err := Open(root)
	require.NoError(t, err)
	defer d.Close()
	l, err := d.TryLock(".lock")
	require.NoError(t, err)

	child := func() int {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLock$")
		cmd.Env = append(os.Environ(), "SAFEFS_LOCK_CHILD="+root)
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		require.NoError(t, err)
		return 0
	}
	assert.Equal(t, 4, child(), "refused, naming this process")
	require.NoError(t, l.Unlock())
	assert.Equal(t, 0, child(), "free once released")

	require.NoError(t, os.Symlink(filepath.Join(root, ".lock"), filepath.Join(root, ".lock2")))
	_, err = d.TryLock(".lock2")
	require.ErrorIs(t, err, ErrLink)
	_, err = d.TryLock("missing/.lock")
	require.ErrorIs(t, err, fs.ErrNotExist)
}
