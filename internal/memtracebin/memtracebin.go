// Package memtracebin builds the memtrace binary once for tests that need
// a real executable (the Node preload calls it to instrument modules).
package memtracebin

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

var (
	once sync.Once
	path string
	err  error
)

// Path returns the path of a memtrace binary built from this repository,
// building it on first use into a temporary directory that lives as long
// as the test process: the package's TestMain calls Cleanup (Main does
// both).
func Path(tb testing.TB) string {
	tb.Helper()
	once.Do(func() {
		root := testcorpus.Root()
		dir, e := os.MkdirTemp("", "memtrace-bin-")
		if e != nil {
			err = e
			return
		}
		path = filepath.Join(dir, "memtrace")
		cmd := exec.Command("go", "build", "-o", path, "./cmd/memtrace")
		cmd.Dir = root
		out, e := cmd.CombinedOutput()
		if e != nil {
			err = &buildError{e, string(out)}
		}
	})
	if err != nil {
		tb.Fatalf("building memtrace: %v", err)
	}
	return path
}

// Cleanup removes the binary Path built, if any (about 15 MB per test
// process, which would otherwise stay in the temporary directory).
func Cleanup() {
	if path != "" {
		os.RemoveAll(filepath.Dir(path))
	}
}

// Main is a TestMain for packages whose tests call Path: it runs the tests,
// then removes the binary.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
