package noderun

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// supportFiles are the files node loads from the support directory: the
// preload, the loader hooks, their client, the helper thread, the shim
// and the empty module that --import names for TypeScript modules.
func supportFiles(shim string) map[string][]byte {
	return map[string][]byte{"preload.cjs": preload, "loader.mjs": loader,
		"client.cjs": client, "bridge.cjs": bridge, "shim.js": []byte(shim), "esm.mjs": nil}
}

// supportDir returns a directory holding files, named by their content:
// root/node-<hash>. A directory of that name whose files all hold those
// bytes is used as it is; otherwise the files are written to a new
// directory beside it, which is then renamed into place (or, if another
// run got there first with the right files, removed). So runs of the same
// memtrace share one directory, which memtrace node does not remove when
// it ends: node processes the program leaves running after it (a detached
// child starting node processes of its own) still find their preload
// there. Directories unused for supportUnused are removed (used). root and
// the directory are created private to their owner; a root or directory
// that others own or may write to is refused, checked at every use, never
// replaced (node would run what they put there): the caller says so and
// runs with a directory of its own.
func supportDir(root string, files map[string][]byte) (string, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, name := range names {
		h.Write(binary.LittleEndian.AppendUint64(append([]byte(name), 0), uint64(len(files[name]))))
		h.Write(files[name])
	}
	dir := filepath.Join(root, "node-"+hex.EncodeToString(h.Sum(nil))[:24])
	// node runs what it finds there: a root or a directory that others
	// may write to is not used.
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", err
	}
	if err := private(root); err != nil {
		return "", err
	}
	if _, err := os.Lstat(dir); err == nil {
		// It is there: this user's and private, or refused (never
		// replaced: node would have run what others put there).
		if err := private(dir); err != nil {
			return "", err
		}
		if holds(dir, files) {
			used(root, dir)
			return dir, nil
		}
	}
	tmp, err := os.MkdirTemp(root, ".node-")
	if err != nil {
		return "", err
	}
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(tmp, name), files[name], 0o644); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another run's directory is there (the right files: use it), or
		// a directory of that name holds other bytes: move it aside, as a
		// directory that readers may still hold, and try once more.
		if holds(dir, files) && private(dir) == nil {
			os.RemoveAll(tmp)
			return dir, nil
		}
		old, err2 := os.MkdirTemp(root, ".stale-")
		if err2 == nil {
			err2 = os.Rename(dir, filepath.Join(old, "d"))
		}
		if err2 != nil || os.Rename(tmp, dir) != nil {
			os.RemoveAll(tmp)
			return "", err
		}
		os.RemoveAll(old)
	}
	used(root, dir)
	return dir, nil
}

// supportUnused is how long a support directory stays after its last use,
// and supportPartial how long a partial one (.node-*, .stale-*: a run
// killed while it wrote one) stays.
const (
	supportUnused  = 30 * 24 * time.Hour
	supportPartial = time.Hour
)

// used marks dir as used now and removes the other support directories of
// root that were last used before supportUnused (an older memtrace's),
// and partial ones older than supportPartial. A process still using a
// removed directory keeps the files it has loaded; only node processes it
// starts after that would miss its preload.
func used(root, dir string) {
	now := time.Now()
	if os.Chtimes(dir, now, now) != nil {
		return
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		p := filepath.Join(root, name)
		var age time.Duration
		switch {
		case p == dir || !e.IsDir():
			continue
		case strings.HasPrefix(name, "node-"):
			age = supportUnused
		case strings.HasPrefix(name, ".node-") || strings.HasPrefix(name, ".stale-"):
			age = supportPartial
		default:
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > age {
			os.RemoveAll(p)
		}
	}
}

// private returns an error when dir is not a directory of this user's
// (a link to one does not count) or others than its owner may write to it.
func private(dir string) error {
	st, err := os.Lstat(dir)
	switch {
	case err != nil:
		return err
	case st.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link", dir)
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case st.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s may be written by others (mode %v)", dir, st.Mode().Perm())
	}
	if uid, ok := ownerOf(st); ok && uid != os.Geteuid() {
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, uid)
	}
	return nil
}

// holds reports whether dir holds a regular file of each name in files
// with its bytes.
func holds(dir string, files map[string][]byte) bool {
	for name, want := range files {
		p := filepath.Join(dir, name)
		st, err := os.Lstat(p)
		if err != nil || !st.Mode().IsRegular() || st.Size() != int64(len(want)) {
			return false
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, want) {
			return false
		}
	}
	return true
}

// supportRoot resolves Options.SupportRoot to an absolute path: "" is
// memtrace's directory in the user's cache directory, "-" none ("").
func supportRoot(root string) string {
	switch root {
	case "-":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		root = filepath.Join(d, "memtrace")
	}
	// node runs in the program's directory: a relative root must not move
	// with it (os.UserCacheDir refuses a relative XDG_CACHE_HOME itself).
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	return abs
}
