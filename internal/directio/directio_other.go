//go:build !linux

package directio

import (
	"errors"
	"io"
	"os"
	"unsafe"
)

func openDirect(path string) (*os.File, error) { return nil, errors.ErrUnsupported }

func isInvalid(error) bool { return false }

func reopenDirect(*os.File) (*os.File, error) { return nil, errors.ErrUnsupported }

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// pread reads len(b) bytes at off, fewer at the end of the file.
func pread(f *os.File, b []byte, off int64) (int, error) {
	n, err := f.ReadAt(b, off)
	if err == io.EOF {
		err = nil
	}
	return n, err
}
