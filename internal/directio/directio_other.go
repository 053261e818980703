//go:build !linux

package directio

import (
	"errors"
	"os"
	"unsafe"
)

func openDirect(path string) (*os.File, error) { return nil, errors.ErrUnsupported }

func isInvalid(error) bool { return false }

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
