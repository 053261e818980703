package directio

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

func openDirect(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECT, 0)
}

func isInvalid(err error) bool { return errors.Is(err, syscall.EINVAL) }

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
