package semantics

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	js "github.com/memtrace/memtrace/instrument/js"
)

// npmSuites are npm packages whose tarballs include their tape tests.
// They are installed (pinned, with the dependencies their tests require)
// in testdata/npm; instrument lists the files instrumented (globs
// relative to the package): the library and its tests.
var npmSuites = []struct {
	name       string
	instrument []string
}{
	{"qs", []string{"lib/*.js", "test/*.js"}},
	{"minimist", []string{"index.js", "test/*.js"}},
}

// knownNpm lists "package: test line" differences (a tape assertion that
// passes plain and fails instrumented), or "package" for a suite whose
// totals differ, with the cause.
var knownNpm = map[string]string{}

type tapeTotals struct {
	tests, pass, fail int
	failed            []string // "not ok" lines
	out               string
}

var (
	tapeTestsRE = regexp.MustCompile(`(?m)^# tests (\d+)`)
	tapePassRE  = regexp.MustCompile(`(?m)^# pass +(\d+)`)
	tapeFailRE  = regexp.MustCompile(`(?m)^# fail +(\d+)`)
	tapeNotOkRE = regexp.MustCompile(`(?m)^not ok \d+ (.*)$`)
)

func parseTape(out string) tapeTotals {
	r := tapeTotals{tests: -1, out: out}
	if m := tapeTestsRE.FindStringSubmatch(out); m != nil {
		r.tests, _ = strconv.Atoi(m[1])
	}
	if m := tapePassRE.FindStringSubmatch(out); m != nil {
		r.pass, _ = strconv.Atoi(m[1])
	}
	if m := tapeFailRE.FindStringSubmatch(out); m != nil {
		r.fail, _ = strconv.Atoi(m[1])
	}
	for _, m := range tapeNotOkRE.FindAllStringSubmatch(out, -1) {
		r.failed = append(r.failed, m[1])
	}
	return r
}

func runTape(t *testing.T, node, dir string, env []string) tapeTotals {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("node_modules", "tape", "bin", "tape"), "test/**/*.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	r := parseTape(out.String())
	if r.tests < 0 {
		t.Logf("%s: no tape totals (%v); output ends:\n%s", dir, err, tail(r.out, 3000))
	}
	return r
}

// TestNpmSuites runs the tape suites of qs and minimist (their own test
// command without nyc) plain and with the library and the test files
// instrumented as CommonJS.
func TestNpmSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	node := requireNode(t)
	var pkgs []string
	for _, s := range npmSuites {
		pkgs = append(pkgs, s.name)
	}
	npm := npmDir(t, append(pkgs, "tape")...)
	for _, s := range npmSuites {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			plainDir := filepath.Join(base, "plain", s.name)
			instDir := filepath.Join(base, "inst", s.name)
			for _, d := range []string{plainDir, instDir} {
				copyTree(t, filepath.Join(npm, "node_modules", s.name), d)
				if err := os.Symlink(filepath.Join(npm, "node_modules"), filepath.Join(d, "node_modules")); err != nil {
					t.Fatal(err)
				}
			}
			n := 0
			for _, g := range s.instrument {
				files, _ := filepath.Glob(filepath.Join(instDir, g))
				for _, f := range files {
					src, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					rel, _ := filepath.Rel(instDir, f)
					code, err := instrumentSource(src, js.CommonJS, s.name+"/"+rel)
					if err != nil {
						t.Errorf("instrument %s: %v", rel, err)
						continue
					}
					if err := os.WriteFile(f, withShim(code), 0o644); err != nil {
						t.Fatal(err)
					}
					n++
				}
			}
			fifo, wait := traceFIFO(t, base)
			plain := runTape(t, node, plainDir, nil)
			inst := runTape(t, node, instDir, []string{"MEMTRACE_OUT=" + fifo})
			rep, err := wait()
			t.Logf("%s (%d files instrumented): plain %d assertions, %d pass, %d fail; instrumented %d, %d pass, %d fail",
				s.name, n, plain.tests, plain.pass, plain.fail, inst.tests, inst.pass, inst.fail)
			if plain.tests <= 0 || plain.fail != 0 {
				t.Fatalf("%s fails plain:\n%s", s.name, tail(plain.out, 3000))
			}
			failing := map[string]string{}
			plainFailed := map[string]bool{}
			for _, f := range plain.failed {
				plainFailed[f] = true
			}
			for _, f := range inst.failed {
				if !plainFailed[f] {
					failing[s.name+": "+f] = "fails instrumented"
				}
			}
			if inst.tests != plain.tests || inst.pass != plain.pass {
				failing[s.name] = "totals differ"
				addReport("npm "+s.name, map[string]any{"plain": tail(plain.out, 20000), "instrumented": tail(inst.out, 20000)})
			}
			known := map[string]string{}
			for k, v := range knownNpm {
				if k == s.name || strings.HasPrefix(k, s.name+": ") {
					known[k] = v
				}
			}
			checkKnown(t, s.name, known, failing, func(string) bool { return true })
			switch {
			case err != nil:
				t.Errorf("%s trace: %v", s.name, err)
			case !rep.OK():
				t.Errorf("%s trace: %d errors, first %+v", s.name, rep.Errors, rep.Findings)
			default:
				t.Logf("%s trace: sound, %d bytes", s.name, rep.Bytes)
			}
		})
	}
}
