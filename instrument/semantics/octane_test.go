package semantics

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// knownOctane lists benchmarks that pass plain and fail (not time out)
// instrumented, with the cause.
var knownOctane = map[string]string{}

type octaneRun struct {
	ok, timedOut bool
	cpu          string
	out          string
	err          error
	elapsed      time.Duration
}

func runOctane(node, dir string, files []string, budget time.Duration, env []string) octaneRun {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{filepath.Join(testcorpus.Root(), "instrument", "semantics", "testdata", "octane.js"), dir}, files...)...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	r := octaneRun{out: out.String(), err: err, elapsed: time.Since(start)}
	r.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	r.ok = err == nil && strings.Contains(r.out, "\nOCTANE ok")
	for _, line := range strings.Split(r.out, "\n") {
		if c, ok := strings.CutPrefix(line, "CPU "); ok {
			r.cpu = c
		}
	}
	return r
}

func (r octaneRun) describe() string {
	switch {
	case r.ok:
		return fmt.Sprintf("passed (CPU %s, wall %v)", r.cpu, r.elapsed.Round(time.Second))
	case r.timedOut:
		return fmt.Sprintf("timed out after %v", r.elapsed.Round(time.Second))
	}
	var errs []string
	for _, line := range strings.Split(r.out, "\n") {
		if strings.HasPrefix(line, "ERROR ") || strings.Contains(line, "Error:") {
			errs = append(errs, line)
		}
	}
	if len(errs) > 3 {
		errs = errs[:3]
	}
	return fmt.Sprintf("failed (%v): %s", r.err, strings.Join(errs, " | "))
}

// TestOctane runs each Octane benchmark plain and instrumented (base.js
// and the benchmark's files instrumented as classic scripts, the shim
// loaded first, MEMTRACE_BIN set so that eval'd code is instrumented too,
// the trace written to /dev/null); both must pass the
// benchmark's validation. Only with MEMTRACE_OCTANE=1: instrumented runs
// are slow. Each instrumented run has a budget (MEMTRACE_OCTANE_BUDGET,
// default 60s); a timeout is reported, not failed.
func TestOctane(t *testing.T) {
	if os.Getenv("MEMTRACE_OCTANE") != "1" {
		t.Skip("set MEMTRACE_OCTANE=1 to run the Octane benchmarks instrumented")
	}
	node := requireNode(t)
	corpus := testcorpus.Dir(t, "octane")
	budget := 60 * time.Second
	if b := os.Getenv("MEMTRACE_OCTANE_BUDGET"); b != "" {
		d, err := time.ParseDuration(b)
		if err != nil {
			t.Fatal(err)
		}
		budget = d
	}
	dir := t.TempDir()
	// The instrumented copies, and the files benchmarks read (zlib).
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".js") || e.Name() == "run.js" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(corpus, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		code, err := instrumentSource(src, js.Script, e.Name())
		if err != nil {
			t.Errorf("instrument %s: %v", e.Name(), err)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), code, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shim := writeShim(t, dir)
	// Run-time code (CodeLoad's and zlib's indirect eval) is instrumented too.
	bin := memtracebin.Path(t)
	var mu sync.Mutex
	var summary []string
	for _, b := range testcorpus.Octane {
		t.Run(b.Name, func(t *testing.T) {
			t.Parallel()
			files := append([]string{"base.js"}, b.Files...)
			plain := runOctane(node, corpus, files, 5*time.Minute, nil)
			inst := runOctane(node, dir, append([]string{filepath.Base(shim)}, files...), budget, []string{"MEMTRACE_OUT=/dev/null", "MEMTRACE_BIN=" + bin})
			line := fmt.Sprintf("%-12s plain %s; instrumented %s", b.Name, plain.describe(), inst.describe())
			t.Log(line)
			mu.Lock()
			summary = append(summary, line)
			mu.Unlock()
			if !plain.ok {
				t.Fatalf("fails plain:\n%s", tail(plain.out, 3000))
			}
			failing := map[string]string{}
			if !inst.ok && !inst.timedOut {
				failing[b.Name] = inst.describe()
				addReport("octane "+b.Name, tail(inst.out, 5000))
			}
			known := map[string]string{}
			if c, ok := knownOctane[b.Name]; ok {
				known[b.Name] = c
			}
			checkKnown(t, "octane", known, failing, func(string) bool { return true })
		})
	}
	t.Cleanup(func() {
		t.Logf("Octane:\n%s", strings.Join(summary, "\n"))
	})
}
