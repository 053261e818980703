package semantics

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestTest262Own runs the cases of testdata/t262 (test262's format, written
// here for what the corpus's sample lacks) with the corpus's harness: each
// must pass plain (else the case is wrong), instrumented, and instrumented
// by memtrace instrument FILE for plain node (classic scripts: the shim
// loaded by the file's prologue), except the CLI runs listed in
// knownT262CLI.
func TestTest262Own(t *testing.T) {
	root := testcorpus.Dir(t, "test262")
	files, err := filepath.Glob(filepath.Join("testdata", "t262", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases in testdata/t262")
	}
	dir := filepath.Join("testdata", "t262")
	var tests []string
	for _, f := range files {
		tests = append(tests, filepath.Base(f))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := runT262(t, root, abs, tests, t.TempDir(), true)
	failing := map[string]string{}
	for _, k := range s.keys {
		p := s.pairs[k]
		if !p.plain.passed() {
			t.Errorf("%s: fails plain (%s): the case is wrong", k, p.plain.outcome())
			continue
		}
		if !p.inst.passed() {
			t.Errorf("%s: plain passes, instrumented: %s", k, p.inst.outcome())
		}
		if p.cli != nil && !p.cli.passed() {
			failing[k] = p.cli.outcome()
		}
	}
	t.Logf("%d scenarios of %d cases; %d fail as memtrace instrument FILE writes them (%d known)", len(s.keys), len(tests), len(failing), len(knownT262CLI))
	checkKnown(t, "test262 (own cases, memtrace instrument FILE)", knownT262CLI, failing, func(k string) bool {
		p := s.pairs[k]
		return p != nil && p.plain.passed() && p.cli != nil && !strings.Contains(k, "[module]")
	})
}
