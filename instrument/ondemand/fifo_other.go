//go:build !unix

package ondemand

import (
	"errors"
	"time"
)

var errNoFIFO = errors.New("FIFOs are not available on this system")

// LaunchFIFO is unavailable here: the shim falls back to a process per
// string.
func LaunchFIFO(self, dir string, idle time.Duration, args []string) error { return errNoFIFO }

// ServeFIFO is unavailable here.
func ServeFIFO(dir string, idle time.Duration, opts Options) error { return errNoFIFO }
