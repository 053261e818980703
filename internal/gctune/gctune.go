// Package gctune sets the garbage collector's pace for memtrace's
// instrumenting processes (memtrace instrument, node and
// instrument-server).
//
// Instrumenting a file allocates about seven times its size (the syntax
// tree, the scope analysis, the site list and the output) and keeps little
// from one file to the next (a set of scratch buffers). At Go's default
// pace (GOGC=100) the heap kept between files is small, so a collection
// starts every file or two, and its marking, with write barriers on the
// tree being built, took about a fifth of the CPU time of instrumenting
// Octane's typescript-compiler.js. Instrumenting processes collect when
// the heap has grown by 400% instead, within a soft limit of 1 GiB beyond
// which the collector runs as often as it must. GOGC and GOMEMLIMIT in the
// environment win. (esbuild's command line goes further: it turns the
// collector off for one-shot builds.)
package gctune

import (
	"os"
	"runtime/debug"
)

// Percent and Limit are the instrumenting processes' GOGC and GOMEMLIMIT.
const (
	Percent = 400
	Limit   = 1 << 30
)

// Instrumenter applies Percent and Limit to this process, except where
// the environment sets GOGC or GOMEMLIMIT.
func Instrumenter() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(Limit)
	}
}
