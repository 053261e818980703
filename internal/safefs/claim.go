package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// InTheWayError says that an output directory holds a file that memtrace
// did not write, so it is not memtrace's to write into.
type InTheWayError struct {
	Dir, File string
}

func (e *InTheWayError) Error() string {
	return fmt.Sprintf("%s holds %s, which memtrace did not write: give a new or empty directory", e.Dir, e.File)
}

// Claim opens the output directory path for a command whose mark is the
// file marker: a directory that does not exist is made (0755, its parents
// as os.MkdirAll makes them), an empty one is taken, and both get the
// mark (content: what the command is); a directory that holds the mark is
// the command's from an earlier run. Any other directory is refused with
// an *InTheWayError naming one of its files (the first by name). A path
// that is not a directory is an error.
func Claim(path, marker, content string) (*Dir, error) {
	d, err := Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		d, err = MkdirAll(path, 0o755)
	}
	if err != nil {
		return nil, err
	}
	if st, err := d.Lstat(marker); err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
		return d, nil
	}
	names, err := d.Names()
	if err != nil {
		d.Close()
		return nil, err
	}
	if len(names) > 0 {
		sort.Strings(names)
		d.Close()
		return nil, &InTheWayError{Dir: path, File: names[0]}
	}
	if err := d.WriteFile(marker, []byte(content), 0o644); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Lock is an exclusive lock on a directory, held by this process through
// a file in it (flock(2): it goes with the process, however it ends).
type Lock struct{ f *os.File }

// LockedError says that another live process holds the lock.
type LockedError struct {
	Dir string
	PID int // 0 if unknown
}

func (e *LockedError) Error() string {
	if e.PID != 0 {
		return fmt.Sprintf("%s is being written by another memtrace (process %d): wait for it, or give another directory", e.Dir, e.PID)
	}
	return fmt.Sprintf("%s is being written by another memtrace: wait for it, or give another directory", e.Dir)
}

// TryLock takes the lock file name in d without waiting; a lock another
// process holds is a *LockedError. The file holds the holder's pid.
func (d *Dir) TryLock(name string) (*Lock, error) {
	p, base, err := d.parent(name, false)
	if err != nil {
		return nil, err
	}
	if p != d {
		defer p.Close()
	}
	fd, err := unix.Openat(p.fd, base, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		if err == unix.ELOOP {
			return nil, &LinkError{Path: d.Path(name)}
		}
		return nil, &fs.PathError{Op: "open", Path: d.Path(name), Err: err}
	}
	f := os.NewFile(uintptr(fd), d.Path(name))
	if err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if err == unix.EWOULDBLOCK {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
			return nil, &LockedError{Dir: d.name, PID: pid}
		}
		return nil, &fs.PathError{Op: "lock", Path: d.Path(name), Err: err}
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock (the file stays, empty of meaning).
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
