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
//
// Collecting processes (memtrace collect, proxy and serve) run more Ps
// than the machine has cores (Collector).
package gctune

import (
	"os"
	"runtime"
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

// CollectorProcs is how many Ps a collecting process runs per core, at
// most MaxCollectorProcs in all.
const (
	CollectorProcs    = 4
	MaxCollectorProcs = 64
)

// Collector raises GOMAXPROCS to CollectorProcs per core, except where the
// environment sets GOMAXPROCS. A collector's goroutines block in direct
// writes of each session's chunks (directio.Appender): a P stays with a
// goroutine in a system call until the scheduler's monitor takes it back,
// and with one P per core the cores idled while every P waited on the disk
// (a fifth of the time with 50 sessions on two cores, the bench's
// collector group: 454 MB/s with two Ps, 520 with eight; with --fsync 302
// and 356).
func Collector() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	n := min(CollectorProcs*runtime.NumCPU(), MaxCollectorProcs)
	if n > runtime.GOMAXPROCS(0) {
		runtime.GOMAXPROCS(n)
	}
}
