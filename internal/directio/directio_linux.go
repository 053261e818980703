package directio

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

func openDirect(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECT, 0)
}

func isInvalid(err error) bool { return errors.Is(err, syscall.EINVAL) }

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// pread is one pread(2) of len(b) bytes at off: a short count at the end
// of the file, 0 past it.
func pread(f *os.File, b []byte, off int64) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var perr error
	if err := rc.Read(func(fd uintptr) bool {
		for {
			n, perr = syscall.Pread(int(fd), b, off)
			if perr != syscall.EINTR {
				return true
			}
		}
	}); err != nil {
		return 0, err
	}
	if perr != nil {
		return 0, &os.PathError{Op: "pread", Path: f.Name(), Err: perr}
	}
	return n, nil
}

// reopenDirect opens f's file again, for writing with O_DIRECT: a
// description of its own (the flag is the description's), reached through
// the process's own handle, never a path.
func reopenDirect(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var d *os.File
	var oerr error
	if err := rc.Control(func(fd uintptr) {
		d, oerr = os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", fd), os.O_WRONLY|syscall.O_DIRECT|syscall.O_CLOEXEC, 0)
	}); err != nil {
		return nil, err
	}
	return d, oerr
}
