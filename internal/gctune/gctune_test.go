package gctune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestInstrumenterPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	Instrumenter()
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("GOGC after Instrumenter = %d, want %d", got, Percent)
	}
	if got := debug.SetMemoryLimit(-1); got != Limit {
		t.Errorf("memory limit after Instrumenter = %d, want %d", got, Limit)
	}

	// The environment wins.
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "100MiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(100 << 20)
	Instrumenter()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GOGC=50 in the environment, after Instrumenter %d", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("GOMEMLIMIT=100MiB in the environment, after Instrumenter %d", got)
	}
}

func TestCollectorProcs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "")
	runtime.GOMAXPROCS(1)
	Collector()
	if got, want := runtime.GOMAXPROCS(0), min(CollectorProcs*runtime.NumCPU(), MaxCollectorProcs); got != want {
		t.Errorf("GOMAXPROCS after Collector = %d, want %d", got, want)
	}
	// The environment wins.
	t.Setenv("GOMAXPROCS", "1")
	runtime.GOMAXPROCS(1)
	Collector()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS=1 in the environment, after Collector %d", got)
	}
}
