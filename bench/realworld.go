package main

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/memtrace/memtrace/tracedir"
)

// The realworld group: Octane's programs are benchmarks, several of them
// built to stress calls; this group runs what people use npm packages for
// (bench/realworld/workloads.js: parse lodash.js with acorn, render
// Markdown with marked, YAML out and back with js-yaml, templates with
// handlebars, HTML with cheerio, validation with ajv and zod, persistent
// collections with immutable, type-checking rxjs's declarations with
// typescript, compiling ws's modules down with babel, reprinting them with
// prettier, minifying marked with terser; inputs from the packages' own
// files), with
// plain node and under memtrace node, full and compact, the CPU time of
// every process of the run (memtrace node, node, the instrumenter, the
// trace check at the end) beside plain node's. Each run's result digest
// must equal plain node's: a difference fails the group.

// realWorkloads are the workloads of bench/realworld/workloads.js, in the
// order the group runs them.
var realWorkloads = []string{"acorn", "marked", "yaml", "handlebars", "cheerio", "ajv", "zod", "immutable", "typescript", "babel", "prettier", "terser"}

// realWorldRun is one run of a workload: its command's measurement, the
// digest it wrote, and (under memtrace node) its session.
type realWorldRun struct {
	res     result
	digest  string
	status  string // session.json's status and reason
	bytes   int64
	entries int64
}

// realWorldSetup finds the workloads' script and packages, makes a work
// directory (the caller drops it) and builds memtrace into it.
func realWorldSetup(prefix string) (npm, script, dir, bin string, err error) {
	root := repoRoot()
	npm = filepath.Join(root, "testdata", "npm", "node_modules")
	for _, p := range []string{"acorn", filepath.Join("@babel", "core")} {
		if _, err := os.Stat(filepath.Join(npm, p)); err != nil {
			return "", "", "", "", fmt.Errorf("%v (run npm ci --prefix testdata/npm)", err)
		}
	}
	script = filepath.Join(root, "bench", "realworld", "workloads.js")
	if dir, err = benchWorkDir(prefix); err != nil {
		return "", "", "", "", err
	}
	if bin, err = buildMemtrace(dir); err != nil {
		dropWorkDir(dir)
		return "", "", "", "", err
	}
	return npm, script, dir, bin, nil
}

func benchRealWorld() error {
	npm, script, dir, bin, err := realWorldSetup("realworld-")
	if err != nil {
		return err
	}
	defer dropWorkDir(dir)
	t := &table{title: "real-world programs: npm packages at work (bench/realworld/workloads.js), one process tree each, CPU time of every process (plain: median of at least 3 runs); instrumented runs under memtrace node (full, and --compact), its instrumenter and its check of the trace included; every run's result equals plain node's"}
	t.add("workload", "plain", "full", "slowdown", "compact", "slowdown", "RSS ratio", "trace (compact)", "entries", "bytes/entry", "")
	var logFull, logCompact float64
	var leftOut []string
	n := 0
	for _, w := range realWorkloads {
		plain, full, compact, err := realWorldCompare(w, "1", max(*flagRuns, 3), bin, script, npm, dir)
		if err != nil {
			return err
		}
		slow := full.res.cpu.Seconds() / plain.res.cpu.Seconds()
		slowC := compact.res.cpu.Seconds() / plain.res.cpu.Seconds()
		note := ""
		if full.status != "complete" || compact.status != "complete" {
			// A trace that ended early (a full disk) measured a run that
			// stopped paying for its writes: shown, not averaged.
			note = "NOT MEASURED, left out of the geometric means: trace " + full.status + " / " + compact.status
			leftOut = append(leftOut, w)
		} else {
			logFull += math.Log(slow)
			logCompact += math.Log(slowC)
			n++
		}
		if busy := plain.res.busy.worst(full.res.busy).worst(compact.res.busy); busy.loaded() {
			note = strings.TrimPrefix(note+"; "+busy.String(), "; ")
		}
		perEntry := "-"
		if full.entries > 0 {
			perEntry = fmt.Sprintf("%.1f", float64(full.bytes)/float64(full.entries))
		}
		t.add(w, plain.res.cpu.Round(time.Millisecond).String(),
			full.res.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1fx", slow),
			compact.res.cpu.Round(time.Millisecond).String(), fmt.Sprintf("%.1fx", slowC),
			fmt.Sprintf("%.2fx / %.2fx", float64(full.res.maxRSS)/float64(plain.res.maxRSS), float64(compact.res.maxRSS)/float64(plain.res.maxRSS)),
			fmt.Sprintf("%s (%s)", mb(full.bytes), mb(compact.bytes)), fmt.Sprintf("%.1f M", float64(full.entries)/1e6), perEntry, note)
		fmt.Fprintf(os.Stderr, "realworld %s: plain %v, full %v %.1fx, compact %v %.1fx\n", w,
			plain.res.cpu.Round(time.Millisecond), full.res.cpu.Round(time.Millisecond), slow, compact.res.cpu.Round(time.Millisecond), slowC)
	}
	t.print()
	if len(leftOut) > 0 {
		fmt.Printf("  left out of the geometric means (their traces did not complete, see their rows): %s\n", strings.Join(leftOut, ", "))
	}
	if n > 0 {
		fmt.Printf("  geometric-mean slowdown over %d workloads: full %.1fx, compact %.1fx (for reference: the targets of issue 5 are Octane's, in the overhead group)\n", n, math.Exp(logFull/float64(n)), math.Exp(logCompact/float64(n)))
	}
	return nil
}

// realWorldCompare runs workload w at scale with plain node (runs times),
// then under memtrace node, full and compact (once each), and fails
// unless all computed the same result.
func realWorldCompare(w, scale string, runs int, bin, script, npm, dir string) (plain, full, compact realWorldRun, err error) {
	if plain, err = realWorldMeasure(w, scale, runs, bin, script, npm, dir, ""); err != nil {
		return
	}
	if full, err = realWorldMeasure(w, scale, 1, bin, script, npm, dir, "full"); err != nil {
		return
	}
	if compact, err = realWorldMeasure(w, scale, 1, bin, script, npm, dir, "compact"); err != nil {
		return
	}
	for _, r := range []realWorldRun{full, compact} {
		if r.digest != plain.digest {
			err = fmt.Errorf("%s: instrumented, the workload computed %s where plain node computed %s", w, r.digest, plain.digest)
		}
	}
	return
}

// realWorldMeasure runs workload w at scale runs times: with plain node when mode
// is "", else under memtrace node ("full" or "compact"), and returns the
// measurement with the digest the workload wrote (the same in every run,
// or an error) and the session of the last run.
func realWorldMeasure(w, scale string, runs int, bin, script, npm, dir, mode string) (realWorldRun, error) {
	resultPath := filepath.Join(dir, "result")
	out := filepath.Join(dir, "out")
	var digests []string
	label := "realworld " + w
	if mode != "" {
		label += " " + mode
	}
	res, err := measureRuns(label, script, false, runs, func() *exec.Cmd {
		// The previous run's digest, read before this run replaces it.
		if b, err := os.ReadFile(resultPath); err == nil {
			digests = append(digests, string(b))
		}
		os.Remove(resultPath)
		os.RemoveAll(out)
		var cmd *exec.Cmd
		if mode == "" {
			cmd = exec.Command("node", script, w, scale, resultPath)
		} else {
			args := []string{"node", "--out", out}
			if mode == "compact" {
				args = append(args, "--compact")
			}
			cmd = exec.Command(bin, append(args, script, w, scale, resultPath)...)
		}
		cmd.Env = append(os.Environ(), "MT_NPM="+npm)
		return cmd
	})
	if err != nil {
		return realWorldRun{}, err
	}
	b, err := os.ReadFile(resultPath)
	if err != nil {
		return realWorldRun{}, fmt.Errorf("%s: no result: %v", label, err)
	}
	digests = append(digests, string(b))
	for _, d := range digests[1:] {
		if d != digests[0] {
			return realWorldRun{}, fmt.Errorf("%s: runs computed different results (%q, %q): the workload is not deterministic", label, strings.TrimSpace(digests[0]), strings.TrimSpace(d))
		}
	}
	r := realWorldRun{res: res, digest: strings.TrimSpace(digests[0])}
	if mode != "" {
		se, err := tracedir.ReadSession(out)
		if err != nil {
			return realWorldRun{}, fmt.Errorf("%s: %v", label, err)
		}
		r.status, r.bytes, r.entries = se.Status, se.Bytes, se.Entries
		if se.Reason != "" {
			r.status += " (" + se.Reason + ")"
		}
		os.RemoveAll(out)
	}
	os.Remove(resultPath)
	return r, nil
}
