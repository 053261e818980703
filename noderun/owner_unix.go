//go:build unix

package noderun

import (
	"io/fs"
	"syscall"
)

// ownerOf is the user id that owns the file st describes.
func ownerOf(st fs.FileInfo) (int, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid), true
	}
	return 0, false
}
