package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Stat describes the directory d itself (fstat(2) of the handle: what was
// opened, whatever its path names now).
func (d *Dir) Stat() (unix.Stat_t, error) {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return st, &fs.PathError{Op: "stat", Path: d.name, Err: err}
	}
	return st, nil
}

// ReadFile reads the file rel under d (Open: no link followed).
func (d *Dir) ReadFile(rel string) ([]byte, error) {
	f, err := d.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Readlink returns the target of the symbolic link rel under d (a link on
// the way to it is an error).
func (d *Dir) Readlink(rel string) (string, error) {
	p, base, err := d.parent(rel, false)
	if err != nil {
		return "", err
	}
	if p != d {
		defer p.Close()
	}
	for n := 256; ; n *= 2 {
		b := make([]byte, n)
		m, err := unix.Readlinkat(p.fd, base, b)
		if err != nil {
			return "", &fs.PathError{Op: "readlink", Path: d.Path(rel), Err: err}
		}
		if m < n {
			return string(b[:m]), nil
		}
	}
}

// Symlink makes rel under d a symbolic link to target (its directories
// made as needed, 0755): the link is made under a fresh temporary name
// and renamed over rel, so a file or link there is replaced, never
// written through; a directory there is an error.
func (d *Dir) Symlink(target, rel string) error {
	p, base, err := d.parent(rel, true)
	if err != nil {
		return err
	}
	if p != d {
		defer p.Close()
	}
	for tries := 0; ; tries++ {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		tmp := ".memtrace.tmp-" + hex.EncodeToString(b[:])
		err = unix.Symlinkat(target, p.fd, tmp)
		if err == unix.EEXIST && tries < 8 {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "symlink", Path: d.Path(rel), Err: err}
		}
		if err := unix.Renameat(p.fd, tmp, p.fd, base); err != nil {
			unix.Unlinkat(p.fd, tmp, 0)
			return &fs.PathError{Op: "rename", Path: d.Path(rel), Err: err}
		}
		return nil
	}
}

// Chtimes sets the access and modification times of rel under d (a link
// itself, not what it points to).
func (d *Dir) Chtimes(rel string, atime, mtime time.Time) error {
	p, base, err := d.parent(rel, false)
	if err != nil {
		return err
	}
	if p != d {
		defer p.Close()
	}
	ts := []unix.Timespec{unix.NsecToTimespec(atime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
	if err := unix.UtimesNanoAt(p.fd, base, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "chtimes", Path: d.Path(rel), Err: err}
	}
	return nil
}

// NotPrivateError says that a directory is not its user's alone: owned by
// another user, or writable by its group or by others.
type NotPrivateError struct {
	Path   string
	Reason string // "owned by user 65534", "writable by others (mode 0777)"
}

func (e *NotPrivateError) Error() string {
	return e.Path + " is " + e.Reason + ": memtrace uses only a directory that its user owns and that no one else may write to"
}

// CheckPrivate returns a *NotPrivateError unless the directory d (the one
// opened, fstat(2)) is owned by the effective user and writable neither by
// its group nor by others.
func (d *Dir) CheckPrivate() error {
	st, err := d.Stat()
	if err != nil {
		return err
	}
	switch {
	case int(st.Uid) != os.Geteuid():
		return &NotPrivateError{Path: d.name, Reason: fmt.Sprintf("owned by user %d", st.Uid)}
	case st.Mode&0o002 != 0:
		return &NotPrivateError{Path: d.name, Reason: fmt.Sprintf("writable by others (mode %04o)", st.Mode&0o7777)}
	case st.Mode&0o020 != 0:
		return &NotPrivateError{Path: d.name, Reason: fmt.Sprintf("writable by its group (mode %04o)", st.Mode&0o7777)}
	}
	return nil
}

// OpenFile opens the file rel under d for writing in place, never
// following a link (on the way, or at its end): with create, a new file
// with perm that must not exist yet (O_EXCL); without, an existing
// regular file. The caller writes, syncs and closes it. It is for files
// that grow while they are written (a trace received in chunks), which
// Create's write-then-rename cannot serve.
func (d *Dir) OpenFile(rel string, create bool, perm fs.FileMode) (*os.File, error) {
	p, base, err := d.parent(rel, create)
	if err != nil {
		return nil, err
	}
	if p != d {
		defer p.Close()
	}
	flag := unix.O_RDWR | unix.O_NOFOLLOW | unix.O_CLOEXEC
	if create {
		flag |= unix.O_CREAT | unix.O_EXCL
	}
	fd, err := unix.Openat(p.fd, base, flag, uint32(perm.Perm()))
	if err != nil {
		if err == unix.ELOOP {
			return nil, &LinkError{Path: d.Path(rel)}
		}
		return nil, &fs.PathError{Op: "open", Path: d.Path(rel), Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: d.Path(rel), Err: fmt.Errorf("not a regular file")}
	}
	return os.NewFile(uintptr(fd), d.Path(rel)), nil
}

// Sync commits the directory's entries to the disk (fsync(2) of the
// handle): files made in it survive a power cut once their own data is
// synced too.
func (d *Dir) Sync() error {
	if err := unix.Fsync(d.fd); err != nil {
		return &fs.PathError{Op: "fsync", Path: d.name, Err: err}
	}
	return nil
}
