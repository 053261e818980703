package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// The shim-split group's byte comparison beyond the timed rows: every
// program of MemInsight's corpus under memtrace node (the old commit's
// binary beside today's), and the test262 sample's classic-script tests
// instrumented once by today's instrumenter and run under plain node with
// each shim bundle (instrument/semantics/testdata/t262-worker.js, as the
// semantics tests run them). Each program runs once per side; its two
// traces must be the same bytes. No time is taken: these runs are
// milliseconds each.

var flagSplitCorpora = flag.String("splitcorpora", "meminsight,test262", "the corpora whose traces the shim-split group compares byte for byte between the shims (comma-separated: meminsight, test262; none)")

// corpusCompare is the outcome of one corpus's comparison.
type corpusCompare struct {
	name             string
	programs, same   int
	skipped          int      // not runnable as a classic script (test262: modules, negative tests, async tests)
	differ, failures []string // names (a failure: no trace on either side)
}

func (c corpusCompare) String() string {
	s := fmt.Sprintf("%s: %d programs, %d traces the same bytes, %d differ", c.name, c.programs, c.same, len(c.differ))
	if c.skipped > 0 {
		s += fmt.Sprintf(" (%d tests not classic scripts, left out)", c.skipped)
	}
	if len(c.failures) > 0 {
		s += fmt.Sprintf("; %d wrote no trace on either side", len(c.failures))
	}
	return s
}

// compareCorpora runs the corpora -splitcorpora names: oldBin and bin are
// the two memtrace binaries, oldShim and shim the two bundles (files).
func compareCorpora(dir, oldBin, bin, oldShim, shim string) ([]corpusCompare, error) {
	want := func(name string) bool { return strings.Contains(","+*flagSplitCorpora+",", ","+name+",") }
	var out []corpusCompare
	if want("meminsight") {
		c, err := compareMemInsight(dir, oldBin, bin)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if want("test262") {
		c, err := compareTest262(dir, oldBin, bin, oldShim, shim)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// compareMemInsight runs each program of MemInsight's corpus under
// memtrace node, each binary in turn.
func compareMemInsight(dir, oldBin, bin string) (corpusCompare, error) {
	c := corpusCompare{name: "MemInsight's programs (memtrace node)"}
	progs, err := filepath.Glob(filepath.Join(repoRoot(), "..", "shared", "corpora", "meminsight", "programs", "*.js"))
	if err != nil || len(progs) == 0 {
		return c, fmt.Errorf("MemInsight's programs: none found (%v)", err)
	}
	sort.Strings(progs)
	jobs := make([]func() (string, string, error), len(progs))
	for i, prog := range progs {
		work := filepath.Join(dir, fmt.Sprintf("mi-%d", i))
		jobs[i] = func() (string, string, error) {
			trace := func(memtrace, side string) (string, error) {
				out := filepath.Join(work, side)
				cmd := exec.Command(memtrace, "node", "-q", "--out", out, prog)
				cmd.Dir = filepath.Dir(prog)
				cmd.Stdout, cmd.Stderr = nil, nil
				_ = cmd.Run() // a program may exit non-zero: its trace is compared all the same
				d, _, err := digestFile(filepath.Join(out, "mem-trace"))
				return d, err
			}
			return bothSides(work, func() (string, error) { return trace(oldBin, "old") }, func() (string, error) { return trace(bin, "new") })
		}
	}
	tally(&c, progs, jobs)
	return c, nil
}

// t262Front is what the bench reads of a test's frontmatter: its flags,
// its includes, and whether it is a negative test.
type t262Front struct {
	flags    map[string]bool
	includes []string
	negative bool
}

var (
	frontRE    = regexp.MustCompile(`(?s)/\*---(.*?)---\*/`)
	inlineRE   = regexp.MustCompile(`(?m)^(flags|includes):\s*\[([^\]]*)\]`)
	blockRE    = regexp.MustCompile(`(?m)^(flags|includes):\s*\n((?:[ \t]+-[^\n]*\n)+)`)
	negativeRE = regexp.MustCompile(`(?m)^negative:`)
)

func parseFront(src string) t262Front {
	f := t262Front{flags: map[string]bool{}}
	m := frontRE.FindStringSubmatch(src)
	if m == nil {
		return f
	}
	add := func(key, item string) {
		item = strings.Trim(strings.TrimSpace(item), `'"`)
		if item == "" {
			return
		}
		if key == "flags" {
			f.flags[item] = true
		} else {
			f.includes = append(f.includes, item)
		}
	}
	for _, l := range inlineRE.FindAllStringSubmatch(m[1], -1) {
		for _, item := range strings.Split(l[2], ",") {
			add(l[1], item)
		}
	}
	for _, b := range blockRE.FindAllStringSubmatch(m[1], -1) {
		for _, line := range strings.Split(b[2], "\n") {
			if _, item, ok := strings.Cut(line, "-"); ok {
				add(b[1], item)
			}
		}
	}
	f.negative = negativeRE.MatchString(m[1])
	return f
}

// compareTest262 runs the sample's tests that run as one classic script
// (the harness and the test; "use strict" first for onlyStrict), each
// instrumented once, with each shim bundle.
func compareTest262(dir, oldBin, bin, oldShim, shim string) (corpusCompare, error) {
	c := corpusCompare{name: "test262 sample (plain node, each shim)"}
	root := filepath.Join(repoRoot(), "..", "shared", "corpora", "test262")
	list, err := os.ReadFile(filepath.Join(root, "sample-list.txt"))
	if err != nil {
		return c, err
	}
	worker := filepath.Join(repoRoot(), "instrument", "semantics", "testdata", "t262-worker.js")
	harness := map[string][]byte{}
	readHarness := func(name string) ([]byte, error) {
		if b, ok := harness[name]; ok {
			return b, nil
		}
		b, err := os.ReadFile(filepath.Join(root, "harness", name))
		harness[name] = b
		return b, err
	}
	var names []string
	var jobs []func() (string, string, error)
	for i, test := range strings.Fields(string(list)) {
		src, err := os.ReadFile(filepath.Join(root, test))
		if err != nil {
			return c, err
		}
		f := parseFront(string(src))
		if f.negative || f.flags["module"] || f.flags["async"] || f.flags["CanBlockIsTrue"] {
			c.skipped++
			continue
		}
		var code strings.Builder
		if f.flags["onlyStrict"] {
			code.WriteString("\"use strict\";\n")
		}
		if !f.flags["raw"] {
			for _, inc := range append([]string{"assert.js", "sta.js"}, f.includes...) {
				b, err := readHarness(inc)
				if err != nil {
					return c, err
				}
				code.Write(b)
				code.WriteByte('\n')
			}
		}
		code.Write(src)
		base := filepath.Base(test)
		res, err := instrument.Instrument([]byte(code.String()), instrument.Options{Goal: js.Script, File: base})
		if err != nil {
			c.skipped++
			continue
		}
		work := filepath.Join(dir, fmt.Sprintf("t262-%d", i))
		if err := os.MkdirAll(work, 0o755); err != nil {
			return c, err
		}
		file := filepath.Join(work, base)
		if err := os.WriteFile(file, res.Code, 0o644); err != nil {
			return c, err
		}
		names = append(names, test)
		jobs = append(jobs, func() (string, string, error) {
			trace := func(shimFile, memtrace, side string) (string, error) {
				job, _ := json.Marshal(map[string]any{"scripts": []string{shimFile, file}, "module": "", "async": false})
				jf := filepath.Join(work, side+".json")
				if err := os.WriteFile(jf, job, 0o644); err != nil {
					return "", err
				}
				out := filepath.Join(work, side+"-trace")
				cmd := exec.Command("node", worker, jf)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out, "MEMTRACE_BIN="+memtrace)
				_ = cmd.Run() // a failing test still has a trace to compare
				d, _, err := digestFile(out)
				return d, err
			}
			return bothSides(work, func() (string, error) { return trace(oldShim, oldBin, "old") }, func() (string, error) { return trace(shim, bin, "new") })
		})
	}
	tally(&c, names, jobs)
	return c, nil
}

// bothSides returns the digests of the old side's trace and the new
// side's, then removes the program's work directory; an error only when
// neither side wrote a trace (one missing side is a difference).
func bothSides(work string, old, new func() (string, error)) (string, string, error) {
	defer os.RemoveAll(work)
	a, errA := old()
	b, errB := new()
	if errA != nil && errB != nil {
		return "", "", errA
	}
	return a, b, nil
}

// tally runs the jobs, as many at once as there are CPUs, each giving the
// two digests of program names[i], and counts the outcome in c.
func tally(c *corpusCompare, names []string, jobs []func() (string, string, error)) {
	type res struct {
		a, b string
		err  error
	}
	out := make([]res, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a, b, err := jobs[i]()
				out[i] = res{a, b, err}
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, r := range out {
		c.programs++
		switch {
		case r.err != nil:
			c.failures = append(c.failures, names[i])
		case r.a == r.b:
			c.same++
		default:
			c.differ = append(c.differ, names[i])
		}
	}
}
