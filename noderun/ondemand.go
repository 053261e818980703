package noderun

import (
	"io"
	"time"

	"github.com/memtrace/memtrace/instrument/ondemand"
)

// The instrument-on-demand service memtrace node's preload, loader hooks
// and shim use is package instrument/ondemand; these are its Node entry
// points, as memtrace's hidden instrument-server command calls them.

// ServerOptions configure the instrumenting server (ondemand.Options).
type ServerOptions = ondemand.Options

// SlowNotice is how long the server takes over a module before it says so.
const SlowNotice = ondemand.SlowNotice

// Serve answers requests from r on w until r ends (ondemand.Serve).
func Serve(r io.Reader, w io.Writer, opts ServerOptions) error { return ondemand.Serve(r, w, opts) }

// LaunchFIFO makes the shim's FIFOs in dir and starts a server on them
// (ondemand.LaunchFIFO).
func LaunchFIFO(self, dir string, idle time.Duration, args []string) error {
	return ondemand.LaunchFIFO(self, dir, idle, args)
}

// ServeFIFO serves the FIFOs LaunchFIFO made (ondemand.ServeFIFO).
func ServeFIFO(dir string, idle time.Duration, opts ServerOptions) error {
	return ondemand.ServeFIFO(dir, idle, opts)
}
