package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// The shim-split group (issue 55): the shim became a core and a Node host
// (runtime-shim/src/core.js, src/node/). The split must cost nothing and
// change no byte of any trace: the shim of the commit before it and
// today's run the same programs side by side, alternately, in this run:
// Octane's shortened benchmarks (fixed iterations, -octane) under plain
// node with each shim bundle, and the realworld workloads under memtrace
// node, the old commit's (built here from git archive) beside today's.
// Each row: CPU time of each (median), today's over the old as a ratio,
// and whether the traces are the same bytes (sha256). Below the table,
// MemInsight's programs and the test262 sample, compared byte for byte
// (shimsplit_traces.go).

// splitSubject is the subject of the commit that split the shim: the
// group compares today's shim with its parent's (-oldshim: another
// revision).
const splitSubject = "runtime-shim: a core and a Node host; the bundle's entry is node.js"

var (
	flagOldShim   = flag.String("oldshim", "", "the git revision whose memtrace and runtime-shim/shim.js the shim-split group compares today's with (default: the parent of the commit that split the shim)")
	flagWorkloads = flag.String("workloads", "all", "the realworld workloads the shim-split group runs (comma-separated names, or all)")
)

// oldRevision is -oldshim, or the parent of the split's commit.
func oldRevision(root string) (string, error) {
	if *flagOldShim != "" {
		return *flagOldShim, nil
	}
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%H", "--fixed-strings", "--grep="+splitSubject, "HEAD").Output()
	h := strings.TrimSpace(string(out))
	if err != nil || h == "" {
		return "", fmt.Errorf("no commit %q in the history (git log: %v): give -oldshim", splitSubject, err)
	}
	return h[:12] + "^", nil
}

func benchShimSplit() error {
	root := repoRoot()
	rev, err := oldRevision(root)
	if err != nil {
		return err
	}
	old, err := exec.Command("git", "-C", root, "show", rev+":runtime-shim/shim.js").Output()
	if err != nil {
		return fmt.Errorf("the shim of %s (git show): %v", rev, err)
	}
	dir, err := benchWorkDir("shimsplit-")
	if err != nil {
		return err
	}
	defer dropWorkDir(dir)
	corpus, runner, err := prepareOctane(dir)
	if err != nil {
		return err
	}
	oldPath := filepath.Join(dir, "oldshim.js")
	if err := os.WriteFile(oldPath, old, 0o644); err != nil {
		return err
	}
	bin, err := buildMemtrace(dir)
	if err != nil {
		return err
	}
	oldBin, err := buildMemtraceAt(rev, dir)
	if err != nil {
		return err
	}
	t := &table{title: fmt.Sprintf("shim split (issue 55): today's shim (core and Node host) beside the shim of %s, alternate runs in this run, CPU time (median of %d each); traces compared byte for byte", rev, max(*flagRuns, 3))}
	t.add("program", "old shim", "today's", "ratio", "traces", "")
	var logRatio float64
	n, differ := 0, 0
	row := func(name string, o, c pairRun) {
		ratio := c.cpu.Seconds() / o.cpu.Seconds()
		same := "same bytes"
		if o.digest != c.digest {
			same = "DIFFER"
			differ++
		}
		logRatio += math.Log(ratio)
		n++
		t.add(name, o.cpu.Round(time.Millisecond).String(), c.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.3f", ratio), same, fmt.Sprintf("%s, %s", mb(c.bytes), c.load))
		fmt.Fprintf(os.Stderr, "shim-split %s: old %v, today %v, ratio %.3f, traces %s\n", name, o.cpu.Round(time.Millisecond), c.cpu.Round(time.Millisecond), ratio, same)
	}

	tracePath := filepath.Join(dir, "mem-trace")
	for _, b := range testcorpus.Octane {
		if *flagOctane != "all" && !strings.Contains(","+*flagOctane+",", ","+b.Name+",") {
			continue
		}
		files := append([]string{"base.js"}, b.Files...)
		mk := func(shim string) func() *exec.Cmd {
			return func() *exec.Cmd {
				os.Remove(tracePath)
				cmd := exec.Command("node", append([]string{runner, dir, shim}, files...)...)
				cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+tracePath, "MEMTRACE_BIN="+bin)
				return cmd
			}
		}
		o, c, err := alternate("octane "+b.Name, filepath.Join(corpus, "base.js"), mk("oldshim.js"), mk("shim.js"), tracePath)
		if err != nil {
			return err
		}
		row("octane "+b.Name, o, c)
	}

	npm := filepath.Join(root, "testdata", "npm", "node_modules")
	if _, err := os.Stat(filepath.Join(npm, "acorn")); err != nil {
		return fmt.Errorf("%v (run npm ci --prefix testdata/npm)", err)
	}
	script := filepath.Join(root, "bench", "realworld", "workloads.js")
	out := filepath.Join(dir, "out")
	for _, w := range realWorkloads {
		if *flagWorkloads != "all" && !strings.Contains(","+*flagWorkloads+",", ","+w+",") {
			continue
		}
		mk := func(memtrace string) func() *exec.Cmd {
			return func() *exec.Cmd {
				os.RemoveAll(out)
				cmd := exec.Command(memtrace, "node", "-q", "--out", out, script, w, "1", filepath.Join(dir, "result"))
				cmd.Env = append(os.Environ(), "MT_NPM="+npm)
				return cmd
			}
		}
		o, c, err := alternate("realworld "+w, script, mk(oldBin), mk(bin), filepath.Join(out, "mem-trace"))
		if err != nil {
			return err
		}
		row("realworld "+w, o, c)
	}
	corpora, err := compareCorpora(dir, oldBin, bin, oldPath, filepath.Join(dir, "shim.js"))
	if err != nil {
		return err
	}
	t.print()
	if n > 0 {
		fmt.Printf("  geometric-mean ratio of today's shim over the old one: %.3f over %d programs; traces that differ: %d\n", math.Exp(logRatio/float64(n)), n, differ)
	}
	for _, c := range corpora {
		fmt.Printf("  traces compared, %s\n", c)
		for _, d := range c.differ {
			fmt.Printf("    differ: %s\n", d)
		}
		differ += len(c.differ)
	}
	if differ > 0 {
		return fmt.Errorf("%d programs' traces differ between the shims", differ)
	}
	return nil
}

// pairRun is one side of alternate: its median CPU time, the digest and
// size of its trace, and the load it ran under.
type pairRun struct {
	cpu    time.Duration
	digest string
	bytes  int64
	load   string
}

// alternate runs a and b alternately (at least 3 times each, -runs),
// each run's trace at tracePath digested after it, and returns their
// medians; the digests of one side must agree across its runs.
func alternate(label, file string, a, b func() *exec.Cmd, tracePath string) (pairRun, pairRun, error) {
	runs := max(*flagRuns, 3)
	var ra, rb []result
	var da, db []string
	var size int64
	for i := 0; i < runs; i++ {
		for side, mk := range []func() *exec.Cmd{a, b} {
			res, err := measureRuns(label, file, false, 1, mk)
			if err != nil {
				return pairRun{}, pairRun{}, err
			}
			d, n, err := digestFile(tracePath)
			if err != nil {
				return pairRun{}, pairRun{}, fmt.Errorf("%s: %v", label, err)
			}
			if side == 0 {
				ra, da = append(ra, res), append(da, d)
			} else {
				rb, db, size = append(rb, res), append(db, d), n
			}
		}
	}
	for _, ds := range [][]string{da, db} {
		for _, d := range ds[1:] {
			if d != ds[0] {
				return pairRun{}, pairRun{}, fmt.Errorf("%s: one shim's runs wrote different traces: the program is not deterministic", label)
			}
		}
	}
	med := func(rs []result) (time.Duration, load) {
		cpus := make([]time.Duration, len(rs))
		var busy load
		for i, r := range rs {
			cpus[i] = r.cpu
			busy = busy.worst(r.busy)
		}
		for i := 1; i < len(cpus); i++ {
			for j := i; j > 0 && cpus[j] < cpus[j-1]; j-- {
				cpus[j], cpus[j-1] = cpus[j-1], cpus[j]
			}
		}
		return cpus[len(cpus)/2], busy
	}
	ca, la := med(ra)
	cb, lb := med(rb)
	note := la.worst(lb)
	loadText := "quiet"
	if note.loaded() {
		loadText = note.String()
	}
	return pairRun{cpu: ca, digest: da[0], load: loadText}, pairRun{cpu: cb, digest: db[0], bytes: size, load: loadText}, nil
}

// digestFile returns the sha256 of a file and its size.
func digestFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// buildMemtraceAt builds the memtrace binary of git revision rev (its
// tree from git archive) in dir.
func buildMemtraceAt(rev, dir string) (string, error) {
	name := strings.NewReplacer("^", "-parent", "/", "-", "~", "-").Replace(rev)
	src := filepath.Join(dir, "src-"+name)
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("sh", "-c", `git -C "$1" archive "$2" | tar -x -C "$3"`, "sh", repoRoot(), rev, src)
	if out, err := trackedCombinedOutput(archive); err != nil {
		return "", fmt.Errorf("git archive %s: %v\n%s", rev, err, out)
	}
	bin := filepath.Join(dir, "memtrace-"+name)
	build := exec.Command("go", "build", "-o", bin, "./cmd/memtrace")
	build.Dir = src
	if out, err := trackedCombinedOutput(build); err != nil {
		return "", fmt.Errorf("building memtrace %s: %v\n%s", rev, err, out)
	}
	return bin, nil
}
