// Package safefs writes files under a directory without following a
// symbolic link that someone (an earlier run, another user, a linked
// package replaced by a real install) left in the way.
//
// A Dir is an open handle on a directory. Every path under it is walked
// component by component with openat(2) and O_NOFOLLOW, so a link in any
// component is an error (ErrLink) instead of a way out of the directory;
// directories are made the same way (mkdirat(2)). A file is written to a
// fresh temporary name in its directory (O_CREAT|O_EXCL, so two writers
// never share one) and renamed over its final name (renameat(2)), which
// replaces a link there instead of writing through it, and leaves either
// the old file or the whole new one, never a part, when the write fails.
//
// The root itself is the caller's: a link in the path that names it (a
// home directory on another disk, /tmp on some systems) is followed, as
// the user chose it.
package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrLink is the error (wrapped in a *LinkError) for a path that runs
// through a symbolic link.
var ErrLink = errors.New("is a symbolic link: memtrace writes nothing through a link (remove it)")

// LinkError names the path that is a link.
type LinkError struct{ Path string }

func (e *LinkError) Error() string { return e.Path + " " + ErrLink.Error() }

func (e *LinkError) Unwrap() error { return ErrLink }

// Dir is an open directory.
type Dir struct {
	fd   int
	name string // as the caller named it, for messages
}

// Open opens the directory at path (links in path itself are followed).
func Open(path string) (*Dir, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &Dir{fd: fd, name: path}, nil
}

// MkdirAll makes the directory at path and its parents as os.MkdirAll
// does (the caller's path: links in it are followed), then opens it.
func MkdirAll(path string, perm fs.FileMode) (*Dir, error) {
	if err := os.MkdirAll(path, perm); err != nil {
		return nil, err
	}
	return Open(path)
}

// Name is the directory's path as it was opened.
func (d *Dir) Name() string { return d.name }

// Close closes the handle.
func (d *Dir) Close() error { return unix.Close(d.fd) }

// Path joins rel to the directory's name, for messages.
func (d *Dir) Path(rel string) string { return filepath.Join(d.name, rel) }

// split cleans rel, a slash-separated path under d, into its components;
// an absolute path or one that climbs out with .. is an error.
func (d *Dir) split(rel string) ([]string, error) {
	rel = filepath.ToSlash(rel)
	if rel == "" || strings.HasPrefix(rel, "/") {
		return nil, fmt.Errorf("safefs: %q is not a path under %s", rel, d.name)
	}
	var out []string
	for _, c := range strings.Split(rel, "/") {
		switch c {
		case "", ".":
			continue
		case "..":
			return nil, fmt.Errorf("safefs: %q leaves %s", rel, d.name)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("safefs: %q names %s itself", rel, d.name)
	}
	return out, nil
}

// sub opens directory component c of d without following a link,
// making it first with perm if mk is set.
func (d *Dir) sub(c string, perm fs.FileMode, mk bool, path string) (*Dir, error) {
	for {
		fd, err := unix.Openat(d.fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			return &Dir{fd: fd, name: path}, nil
		}
		if err == unix.ENOENT && mk {
			if err := unix.Mkdirat(d.fd, c, uint32(perm.Perm())); err != nil && err != unix.EEXIST {
				return nil, &fs.PathError{Op: "mkdir", Path: path, Err: err}
			}
			mk = false // made (or raced): open it, once
			continue
		}
		if err == unix.ELOOP || err == unix.ENOTDIR {
			var st unix.Stat_t
			if unix.Fstatat(d.fd, c, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				return nil, &LinkError{Path: path}
			}
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
}

// Sub opens the directory rel under d, every component without following
// a link; with mk, the missing ones are made with perm.
func (d *Dir) Sub(rel string, perm fs.FileMode, mk bool) (*Dir, error) {
	cs, err := d.split(rel)
	if err != nil {
		return nil, err
	}
	cur := d
	path := d.name
	for _, c := range cs {
		path = filepath.Join(path, c)
		next, err := cur.sub(c, perm, mk, path)
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// parent opens the directory that holds rel (making it with mk) and
// returns it with rel's last component; the caller closes it unless it is
// d itself.
func (d *Dir) parent(rel string, mk bool) (*Dir, string, error) {
	cs, err := d.split(rel)
	if err != nil {
		return nil, "", err
	}
	if len(cs) == 1 {
		return d, cs[0], nil
	}
	p, err := d.Sub(strings.Join(cs[:len(cs)-1], "/"), 0o755, mk)
	if err != nil {
		return nil, "", err
	}
	return p, cs[len(cs)-1], nil
}

// File is a file being written under a temporary name; Commit gives it
// its name, Abort removes it.
type File struct {
	*os.File
	dir       *Dir
	own       bool // dir is to be closed with the file
	tmp, base string
	done      bool
}

// Create starts writing the file rel under d (its directories made as
// needed, 0755): a new file with perm (before the umask) under a fresh
// temporary name beside it. Nothing is at rel until Commit.
func (d *Dir) Create(rel string, perm fs.FileMode) (*File, error) {
	p, base, err := d.parent(rel, true)
	if err != nil {
		return nil, err
	}
	for tries := 0; ; tries++ {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		tmp := "." + base + ".tmp-" + hex.EncodeToString(b[:])
		if len(tmp) > 255 {
			tmp = ".memtrace.tmp-" + hex.EncodeToString(b[:])
		}
		fd, err := unix.Openat(p.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EEXIST && tries < 8 {
			continue
		}
		if err != nil {
			if p != d {
				p.Close()
			}
			return nil, &fs.PathError{Op: "create", Path: d.Path(rel), Err: err}
		}
		return &File{File: os.NewFile(uintptr(fd), p.Path(tmp)), dir: p, own: p != d, tmp: tmp, base: base}, nil
	}
}

// Commit closes the file and renames it over its final name (a link or
// a file there is replaced, never written through; a directory there is
// an error).
func (f *File) Commit() error {
	if f.done {
		return errors.New("safefs: file already committed or aborted")
	}
	f.done = true
	err := f.File.Close()
	if err == nil {
		err = unix.Renameat(f.dir.fd, f.tmp, f.dir.fd, f.base)
		if err != nil {
			err = &fs.PathError{Op: "rename", Path: f.dir.Path(f.base), Err: err}
		}
	}
	if err != nil {
		unix.Unlinkat(f.dir.fd, f.tmp, 0)
	}
	if f.own {
		f.dir.Close()
	}
	return err
}

// Abort closes and removes the file; nothing is left of it. It is a
// no-op after Commit, so that it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	unix.Unlinkat(f.dir.fd, f.tmp, 0)
	if f.own {
		f.dir.Close()
	}
}

// WriteFile writes data to the file rel under d (Create, then Commit):
// the file is there whole or not changed.
func (d *Dir) WriteFile(rel string, data []byte, perm fs.FileMode) error {
	f, err := d.Create(rel, perm)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// Lstat describes rel under d without following a link at its end (a
// link on the way is an error).
func (d *Dir) Lstat(rel string) (unix.Stat_t, error) {
	var st unix.Stat_t
	p, base, err := d.parent(rel, false)
	if err != nil {
		return st, err
	}
	if p != d {
		defer p.Close()
	}
	if err := unix.Fstatat(p.fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return st, &fs.PathError{Op: "lstat", Path: d.Path(rel), Err: err}
	}
	return st, nil
}

// Remove removes the file, link or empty directory rel under d (a link
// itself, not what it points to). A missing rel is not an error.
func (d *Dir) Remove(rel string) error {
	p, base, err := d.parent(rel, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if p != d {
		defer p.Close()
	}
	err = unix.Unlinkat(p.fd, base, 0)
	if err == unix.EISDIR {
		err = unix.Unlinkat(p.fd, base, unix.AT_REMOVEDIR)
	}
	if err == nil || err == unix.ENOENT {
		return nil
	}
	return &fs.PathError{Op: "remove", Path: d.Path(rel), Err: err}
}

// RemoveAll removes rel under d and everything in it, never following a
// link (a link is removed, not what it points to). A missing rel is not
// an error.
func (d *Dir) RemoveAll(rel string) error {
	st, err := d.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		sub, err := d.Sub(rel, 0, false)
		if err != nil {
			return err
		}
		names, err := sub.Names()
		if err == nil {
			for _, n := range names {
				if err = sub.RemoveAll(n); err != nil {
					break
				}
			}
		}
		sub.Close()
		if err != nil {
			return err
		}
	}
	return d.Remove(rel)
}

// Names lists the entries of d.
func (d *Dir) Names() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.name, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.name)
	defer f.Close()
	return f.Readdirnames(-1)
}

// Exists reports whether rel is there under d (a link counts, not
// followed).
func (d *Dir) Exists(rel string) bool {
	_, err := d.Lstat(rel)
	return err == nil
}

// Open opens the file rel under d for reading; a link anywhere in rel,
// its last component included, is an error (ErrLink).
func (d *Dir) Open(rel string) (*os.File, error) {
	p, base, err := d.parent(rel, false)
	if err != nil {
		return nil, err
	}
	if p != d {
		defer p.Close()
	}
	fd, err := unix.Openat(p.fd, base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err == unix.ELOOP {
		return nil, &LinkError{Path: d.Path(rel)}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.Path(rel), Err: err}
	}
	return os.NewFile(uintptr(fd), d.Path(rel)), nil
}
