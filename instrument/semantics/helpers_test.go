package semantics

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
)

// requireNode skips (fails under CI=true) when node is not on PATH.
func requireNode(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		testcorpus.Missing(t, "node not found on PATH")
	}
	return p
}

// writeShim writes the runtime shim into dir and returns its path.
func writeShim(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "memtrace-shim.js")
	if err := os.WriteFile(p, []byte(runtimeshim.Source()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// instrumentSource instruments src with the given goal.
func instrumentSource(src []byte, goal js.Goal, name string) ([]byte, error) {
	res, err := instrument.Instrument(src, instrument.Options{Goal: goal, File: name})
	if err != nil {
		return nil, err
	}
	return res.Code, nil
}

// withShim returns the shim followed by code: what `memtrace instrument`
// writes.
func withShim(code []byte) []byte {
	s := runtimeshim.Source()
	out := make([]byte, 0, len(s)+1+len(code))
	out = append(out, s...)
	out = append(out, '\n')
	return append(out, code...)
}

// npmDir returns testdata/npm of the repository, skipping the test when
// the named packages are not installed there.
func npmDir(t testing.TB, pkgs ...string) string {
	t.Helper()
	return filepath.Dir(testcorpus.NPMModules(t, pkgs...))
}

// report collects failure details for MEMTRACE_SEMANTICS_REPORT.
var report struct {
	sync.Mutex
	entries map[string]any
}

func addReport(key string, v any) {
	report.Lock()
	defer report.Unlock()
	if report.entries == nil {
		report.entries = map[string]any{}
	}
	report.entries[key] = v
}

func TestMain(m *testing.M) {
	code := m.Run()
	if p := os.Getenv("MEMTRACE_SEMANTICS_REPORT"); p != "" {
		report.Lock()
		b, _ := json.MarshalIndent(report.entries, "", "  ")
		report.Unlock()
		_ = os.WriteFile(p, b, 0o644)
	}
	memtracebin.Cleanup()
	os.Exit(code)
}
