package js

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// npmDir returns testdata/npm/node_modules/<elem...> under the repository
// root, or reports it missing.
func npmDir(t testing.TB, elem ...string) string {
	t.Helper()
	root := testcorpus.Root()
	if root == "" {
		testcorpus.Missing(t, "repository root (go.mod) not found")
	}
	p := filepath.Join(append([]string{root, "testdata", "npm", "node_modules"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		testcorpus.Missing(t, p+" not found; run: npm ci --prefix testdata/npm")
	}
	return p
}

func readDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".js") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

func goalOf(name string) Goal {
	if strings.Contains(name, ".module.") {
		return Module
	}
	return Script
}

// Targets of the acceptance criteria for test262-parser-tests.
const (
	failRejectTarget  = 0.95
	earlyRejectTarget = 0.90
)

func TestParserTestsPass(t *testing.T) {
	base := npmDir(t, "test262-parser-tests")
	for _, dir := range []string{"pass", "pass-explicit"} {
		t.Run(dir, func(t *testing.T) {
			names := readDir(t, filepath.Join(base, dir))
			bad := 0
			for _, name := range names {
				src, err := os.ReadFile(filepath.Join(base, dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Parse(src, Options{Goal: goalOf(name), File: name}); err != nil {
					bad++
					if bad <= 50 {
						t.Errorf("%s/%s: %v", dir, name, err)
					}
				}
			}
			t.Logf("%s: %d/%d accepted", dir, len(names)-bad, len(names))
		})
	}
}

func TestParserTestsReject(t *testing.T) {
	base := npmDir(t, "test262-parser-tests")
	for _, c := range []struct {
		dir    string
		target float64
	}{{"fail", failRejectTarget}, {"early", earlyRejectTarget}} {
		t.Run(c.dir, func(t *testing.T) {
			names := readDir(t, filepath.Join(base, c.dir))
			rejected := 0
			var accepted []string
			for _, name := range names {
				src, err := os.ReadFile(filepath.Join(base, c.dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := Parse(src, Options{Goal: goalOf(name), File: name}); err != nil {
					if strings.Contains(err.Error(), "internal error") {
						t.Errorf("%s: %v", name, err)
					}
					rejected++
				} else {
					accepted = append(accepted, name)
				}
			}
			rate := float64(rejected) / float64(len(names))
			t.Logf("%s: rejected %d/%d (%.1f%%, target %.0f%%)", c.dir, rejected, len(names), 100*rate, 100*c.target)
			if os.Getenv("JS_LIST_ACCEPTED") != "" {
				for _, n := range accepted {
					t.Logf("accepted: %s", n)
				}
			}
			if rate < c.target {
				t.Errorf("%s: rejected %.1f%%, below the target %.0f%%", c.dir, 100*rate, 100*c.target)
			}
		})
	}
}
