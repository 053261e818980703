package semantics

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
)

// t262Meta is the part of a test's YAML frontmatter that decides how it
// runs.
type t262Meta struct {
	flags    map[string]bool
	includes []string
	negPhase string // parse, resolution or runtime; "" if not negative
	negType  string
}

// parseT262Meta reads the /*--- … ---*/ frontmatter (a small YAML subset:
// inline or block lists, the negative mapping).
func parseT262Meta(src string) t262Meta {
	m := t262Meta{flags: map[string]bool{}}
	i := strings.Index(src, "/*---")
	if i < 0 {
		return m
	}
	j := strings.Index(src[i:], "---*/")
	if j < 0 {
		return m
	}
	lines := strings.Split(src[i+5:i+j], "\n")
	section := ""
	for _, line := range lines {
		line = strings.TrimRight(line, " \r\t")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if !indented {
			section = ""
			k, v, ok := strings.Cut(trimmed, ":")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			switch k {
			case "flags", "includes":
				if v == "" {
					section = k
					continue
				}
				for _, x := range inlineList(v) {
					if k == "flags" {
						m.flags[x] = true
					} else {
						m.includes = append(m.includes, x)
					}
				}
			case "negative":
				section = k
			}
			continue
		}
		switch section {
		case "flags", "includes":
			if x, ok := strings.CutPrefix(trimmed, "- "); ok {
				x = strings.TrimSpace(x)
				if section == "flags" {
					m.flags[x] = true
				} else {
					m.includes = append(m.includes, x)
				}
			}
		case "negative":
			k, v, _ := strings.Cut(trimmed, ":")
			switch strings.TrimSpace(k) {
			case "phase":
				m.negPhase = strings.TrimSpace(v)
			case "type":
				m.negType = strings.TrimSpace(v)
			}
		}
	}
	return m
}

func inlineList(v string) []string {
	v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// scenarios lists the ways a test runs (INTERPRETING.md, flags).
func (m t262Meta) scenarios() []string {
	switch {
	case m.flags["module"]:
		return []string{"module"}
	case m.flags["raw"]:
		return []string{"raw"}
	case m.flags["onlyStrict"]:
		return []string{"strict"}
	case m.flags["noStrict"]:
		return []string{"sloppy"}
	}
	return []string{"sloppy", "strict"}
}

// t262Job is one run handed to testdata/t262.js.
type t262Job struct {
	ID      int      `json:"id"`
	Scripts []string `json:"scripts"`
	Module  string   `json:"module"`
	Async   bool     `json:"async"`
	Out     string   `json:"out,omitempty"`
	Timeout int      `json:"timeout"`
	// Bin is the memtrace binary the shim instruments run-time code with
	// (MEMTRACE_BIN), for instrumented runs.
	Bin string `json:"bin,omitempty"`
}

type t262Result struct {
	ID    int  `json:"id"`
	OK    bool `json:"ok"`
	Error *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error"`
	Prints   []string `json:"prints"`
	TimedOut bool     `json:"timedOut"`
	Stderr   string   `json:"stderr"`
	Uncaught bool     `json:"uncaught"`
}

// t262Run is one scenario of one test, plain or instrumented.
type t262Run struct {
	test, scenario string
	instrumented   bool
	// cli: instrumented by the memtrace binary (memtrace instrument FILE),
	// the shim carried by the file's own prologue, not loaded before it.
	cli  bool
	meta t262Meta
	job  t262Job
	// instrumentErr is set when the instrumenter refused the source; the
	// run then did not happen.
	instrumentErr error
	res           *t262Result
}

func (r *t262Run) key() string { return r.test + " [" + r.scenario + "]" }

// passed applies test262's pass criteria to a run's result.
func (r *t262Run) passed() bool {
	m := r.meta
	if r.instrumentErr != nil {
		// The instrumenter's parser rejected the source: that is the
		// expected outcome of a parse-phase negative test only.
		return m.negPhase == "parse" && m.negType == "SyntaxError"
	}
	res := r.res
	if res == nil {
		return false
	}
	if m.negPhase != "" {
		return !res.OK && res.Error != nil && res.Error.Name == m.negType
	}
	if !res.OK {
		return false
	}
	if m.flags["async"] {
		complete := false
		for _, p := range res.Prints {
			if strings.HasPrefix(p, "Test262:AsyncTestFailure:") {
				return false
			}
			if p == "Test262:AsyncTestComplete" {
				complete = true
			}
		}
		return complete
	}
	return true
}

func (r *t262Run) outcome() string {
	if r.instrumentErr != nil {
		return "instrumenter error: " + firstLine(r.instrumentErr.Error())
	}
	if r.res == nil {
		return "no result"
	}
	if r.res.OK {
		if r.meta.negPhase != "" {
			return "no error (expected " + r.meta.negType + ")"
		}
		for _, p := range r.res.Prints {
			if strings.HasPrefix(p, "Test262:Async") {
				return p
			}
		}
		if r.meta.flags["async"] {
			return "async test never called $DONE"
		}
		return "ok"
	}
	return r.res.Error.Name + ": " + firstLine(r.res.Error.Message)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// origName writes the original text of a script that is run instrumented
// to dir/orig/name and returns that absolute path, which names the script
// in the trace: the shim reads it there for Function.prototype.toString.
func origName(dir, name string, src []byte) (string, error) {
	p := filepath.Join(dir, "orig", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	return p, os.WriteFile(p, src, 0o644)
}

// t262Build writes the files of one scenario of test (a path under
// testDir) into dir and returns its job; the harness comes from
// root/harness, and instrumented runs get the shim first.
func t262Build(root, testDir, dir, test, scenario string, src []byte, m t262Meta, shim, bin string, instrumented bool) (t262Job, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return t262Job{}, err
	}
	var harness bytes.Buffer
	if scenario != "raw" {
		incs := []string{"assert.js", "sta.js"}
		if m.flags["async"] {
			incs = append(incs, "doneprintHandle.js")
		}
		incs = append(incs, m.includes...)
		for _, inc := range incs {
			b, err := os.ReadFile(filepath.Join(root, "harness", inc))
			if err != nil {
				return t262Job{}, err
			}
			harness.Write(b)
			harness.WriteByte('\n')
		}
	}
	job := t262Job{Async: m.flags["async"], Timeout: 10000}
	if instrumented {
		job.Scripts = []string{shim}
		job.Timeout = 30000
		job.Bin = bin
	}
	base := filepath.Base(test)
	if scenario == "module" {
		h := harness.Bytes()
		if instrumented {
			name, err := origName(dir, "harness.js", h)
			if err != nil {
				return job, err
			}
			code, err := instrumentSource(h, js.Script, name)
			if err != nil {
				return job, fmt.Errorf("harness: %w", err)
			}
			h = code
		}
		hp := filepath.Join(dir, "harness.js")
		if err := os.WriteFile(hp, h, 0o644); err != nil {
			return job, err
		}
		job.Scripts = append(job.Scripts, hp)
		mdir := filepath.Join(dir, "m")
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			return job, err
		}
		if err := os.WriteFile(filepath.Join(mdir, "package.json"), []byte(`{"type":"module"}`), 0o644); err != nil {
			return job, err
		}
		// The test and the fixtures beside it (modules import them
		// relatively, and some import themselves).
		srcDir := filepath.Join(testDir, filepath.Dir(test))
		ents, err := os.ReadDir(srcDir)
		if err != nil {
			return job, err
		}
		for _, e := range ents {
			n := e.Name()
			if n != base && !strings.Contains(n, "_FIXTURE") {
				continue
			}
			b := src
			if n != base {
				if b, err = os.ReadFile(filepath.Join(srcDir, n)); err != nil {
					return job, err
				}
			}
			if instrumented && strings.HasSuffix(n, ".js") {
				name, err := origName(dir, n, b)
				if err != nil {
					return job, err
				}
				code, err := instrumentSource(b, js.Module, name)
				if err != nil {
					if n == base {
						return job, err
					}
					// A fixture the instrumenter refuses (some are
					// deliberately invalid) is copied as it is.
				} else {
					b = code
				}
			}
			if err := os.WriteFile(filepath.Join(mdir, n), b, 0o644); err != nil {
				return job, err
			}
		}
		job.Module = filepath.Join(mdir, base)
		return job, nil
	}
	var code bytes.Buffer
	if scenario == "strict" {
		code.WriteString("\"use strict\";\n")
	}
	code.Write(harness.Bytes())
	code.Write(src)
	b := code.Bytes()
	if instrumented {
		name, err := origName(dir, base, b)
		if err != nil {
			return job, err
		}
		if b, err = instrumentSource(b, js.Script, name); err != nil {
			return job, err
		}
	}
	p := filepath.Join(dir, base)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return job, err
	}
	job.Scripts = append(job.Scripts, p)
	return job, nil
}

// t262BuildCLI makes the job of a run of the plain job's script (the
// harness and the test, as one classic script) instrumented by the memtrace
// binary as for plain node: memtrace instrument --goal script FILE, whose
// prologue loads the shim. The job loads nothing before it.
func t262BuildCLI(bin string, plain t262Job, dir string) (t262Job, error) {
	job := t262Job{Async: plain.Async, Timeout: 30000, Bin: bin}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return job, err
	}
	orig := plain.Scripts[len(plain.Scripts)-1]
	out := filepath.Join(dir, filepath.Base(orig))
	// The script is named by the plain run's file, which holds its
	// original text.
	b, err := exec.Command(bin, "instrument", "--goal", "script", "--name", orig, "-o", out, orig).CombinedOutput()
	if err != nil {
		return job, fmt.Errorf("memtrace instrument: %v: %s", err, firstLine(string(b)))
	}
	job.Scripts = []string{out}
	return job, nil
}

// runT262Pool runs jobs through concurrency processes of testdata/t262.js
// and fills in results. MEMTRACE_T262_REALM=worker runs every job in a
// worker thread instead of a vm context.
func runT262Pool(t *testing.T, node string, runs []*t262Run, concurrency int) {
	var wg sync.WaitGroup
	for p := 0; p < concurrency; p++ {
		var part []*t262Run
		for i := p; i < len(runs); i += concurrency {
			if runs[i].instrumentErr == nil {
				part = append(part, runs[i])
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runT262Process(t, node, part)
		}()
	}
	wg.Wait()
}

func runT262Process(t *testing.T, node string, runs []*t262Run) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "t262.js"), os.Getenv("MEMTRACE_T262_REALM"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Error(err)
		return
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Error(err)
		return
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Error(err)
		return
	}
	byID := map[int]*t262Run{}
	for _, r := range runs {
		byID[r.job.ID] = r
	}
	go func() {
		enc := json.NewEncoder(stdin)
		for _, r := range runs {
			_ = enc.Encode(r.job)
		}
		stdin.Close()
	}()
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var res t262Result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Errorf("bad line from t262.js: %q", sc.Text())
			continue
		}
		if r := byID[res.ID]; r != nil {
			r.res = &res
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("t262.js: %v\n%s", err, stderr.String())
	}
}

func TestTest262(t *testing.T) {
	root := testcorpus.Dir(t, "test262")
	list, err := os.ReadFile(filepath.Join(root, "sample-list.txt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := strings.Fields(string(list))
	if sub := os.Getenv("MEMTRACE_T262_MATCH"); sub != "" {
		var sel []string
		for _, test := range tests {
			if strings.Contains(test, sub) {
				sel = append(sel, test)
			}
		}
		tests = sel
	}
	if n := os.Getenv("MEMTRACE_T262_LIMIT"); n != "" {
		var lim int
		fmt.Sscan(n, &lim)
		tests = tests[:min(lim, len(tests))]
	}
	tmp := t.TempDir()
	s := runT262(t, root, root, tests, tmp, false)
	plainPass, instPass := 0, 0
	failing := map[string]string{}
	for _, k := range s.keys {
		p := s.pairs[k]
		if !p.plain.passed() {
			continue
		}
		plainPass++
		if p.inst.passed() {
			instPass++
			continue
		}
		failing[k] = p.inst.outcome()
		addReport("test262 "+k, map[string]any{"plain": p.plain.outcome(), "instrumented": p.inst.outcome(), "stderr": resStderr(p.inst)})
	}
	t.Logf("test262: %d scenarios (%d tests); plain pass %d; instrumented pass %d of those; %d differ (%d known)",
		len(s.keys), len(strings.Fields(string(list))), plainPass, instPass, len(failing), len(knownT262))
	checkKnown(t, "test262", knownT262, failing, func(k string) bool {
		p := s.pairs[k]
		return p != nil && p.plain.passed()
	})
	t262CheckTraces(t, requireNode(t), s.runs, tmp)
}

// t262Pair is a scenario's plain and instrumented runs, and its run
// instrumented by memtrace instrument FILE if there is one.
type t262Pair struct{ plain, inst, cli *t262Run }

// t262Results are the runs of a set of tests, by scenario key ("path
// [scenario]", sorted in keys).
type t262Results struct {
	runs  []*t262Run
	pairs map[string]*t262Pair
	keys  []string
}

// runT262 runs tests (paths relative to dir) in every scenario their
// frontmatter allows, plain and instrumented, with the harness of
// root/harness; the runs' files go under tmp. With cli, each classic
// script scenario also runs as memtrace instrument FILE writes it for
// plain node, the shim loaded by the file's prologue.
func runT262(t *testing.T, root, dir string, tests []string, tmp string, cli bool) t262Results {
	node := requireNode(t)
	shim := writeShim(t, tmp)
	bin := memtracebin.Path(t)
	var runs []*t262Run
	id := 0
	for _, test := range tests {
		src, err := os.ReadFile(filepath.Join(dir, test))
		if err != nil {
			t.Fatal(err)
		}
		m := parseT262Meta(string(src))
		for _, sc := range m.scenarios() {
			var plain t262Job
			for _, inst := range []bool{false, true} {
				id++
				r := &t262Run{test: test, scenario: sc, instrumented: inst, meta: m}
				kind := "plain"
				if inst {
					kind = "inst"
				}
				out := filepath.Join(tmp, fmt.Sprintf("%05d-%s-%s", id, sc, kind))
				r.job, r.instrumentErr = t262Build(root, dir, out, test, sc, src, m, shim, bin, inst)
				if r.instrumentErr != nil && !inst {
					t.Fatalf("%s: %v", r.key(), r.instrumentErr)
				}
				if !inst {
					plain = r.job
				}
				r.job.ID = id
				runs = append(runs, r)
			}
			if cli && sc != "module" {
				id++
				r := &t262Run{test: test, scenario: sc, instrumented: true, cli: true, meta: m}
				out := filepath.Join(tmp, fmt.Sprintf("%05d-%s-cli", id, sc))
				r.job, r.instrumentErr = t262BuildCLI(bin, plain, out)
				r.job.ID = id
				runs = append(runs, r)
			}
		}
	}
	concurrency := 2
	if n := os.Getenv("MEMTRACE_T262_CONCURRENCY"); n != "" {
		fmt.Sscan(n, &concurrency)
	}
	var plainRuns, instRuns []*t262Run
	for _, r := range runs {
		if r.instrumented {
			instRuns = append(instRuns, r)
		} else {
			plainRuns = append(plainRuns, r)
		}
	}
	start := time.Now()
	runT262Pool(t, node, plainRuns, concurrency)
	t.Logf("%d plain runs in %v", len(plainRuns), time.Since(start).Round(time.Second))
	start = time.Now()
	runT262Pool(t, node, instRuns, concurrency)
	t.Logf("%d instrumented runs in %v", len(instRuns), time.Since(start).Round(time.Second))

	res := t262Results{runs: runs, pairs: map[string]*t262Pair{}}
	for _, r := range runs {
		p := res.pairs[r.key()]
		if p == nil {
			p = &t262Pair{}
			res.pairs[r.key()] = p
			res.keys = append(res.keys, r.key())
		}
		switch {
		case r.cli:
			p.cli = r
		case r.instrumented:
			p.inst = r
		default:
			p.plain = r
		}
	}
	sort.Strings(res.keys)
	return res
}

func resStderr(r *t262Run) string {
	if r.res == nil {
		return ""
	}
	return r.res.Stderr
}

// t262CheckTraces reruns a sample of passing instrumented runs, each in a
// process of its own that exits normally, and checks their traces.
func t262CheckTraces(t *testing.T, node string, runs []*t262Run, tmp string) {
	n := 0
	failing := map[string]string{}
	checked := map[string]bool{}
	for i, r := range runs {
		if !r.instrumented || r.instrumentErr != nil || !r.passed() || r.meta.negPhase != "" || r.meta.flags["async"] || i%97 != 1 {
			continue
		}
		if n == 12 {
			break
		}
		n++
		checked[r.key()] = true
		out := filepath.Join(tmp, fmt.Sprintf("trace-%d", r.job.ID))
		jf := out + ".json"
		b, _ := json.Marshal(r.job)
		if err := os.WriteFile(jf, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "t262-worker.js"), jf)
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+out, "MEMTRACE_BIN="+r.job.Bin)
		outb, err := cmd.CombinedOutput()
		cancel()
		if err != nil || !bytes.Contains(outb, []byte(`T262RESULT {"ok":true`)) {
			t.Errorf("%s: rerun in its own process: %v\n%s", r.key(), err, outb)
			continue
		}
		f, err := os.Open(out)
		if err != nil {
			t.Errorf("%s: %v", r.key(), err)
			continue
		}
		rep, err := trace.Check(f, 5)
		f.Close()
		if err != nil {
			t.Errorf("%s: trace: %v", r.key(), err)
			continue
		}
		if !rep.OK() {
			failing[r.key()] = fmt.Sprintf("trace check: %d errors, first %+v", rep.Errors, rep.Findings[0])
		}
	}
	t.Logf("test262: %d traces checked, %d unsound (%d known)", n, len(failing), len(knownT262Trace))
	checkKnown(t, "test262 traces", knownT262Trace, failing, func(k string) bool { return checked[k] })
}

// checkKnown compares the failures found with a knownFailing map: an
// unlisted failure and a listed case that no longer fails are both
// errors. stillRelevant reports whether a listed key is still a case that
// passes plain (a listed case that does not is stale).
func checkKnown(t *testing.T, what string, known, failing map[string]string, stillRelevant func(string) bool) {
	t.Helper()
	var unlisted []string
	for k, v := range failing {
		if _, ok := known[k]; !ok {
			unlisted = append(unlisted, fmt.Sprintf("%q: %q,", k, v))
		}
	}
	sort.Strings(unlisted)
	if len(unlisted) > 0 {
		t.Errorf("%s: %d new differences between plain and instrumented runs (add a cause to the known list only if it is understood):\n%s", what, len(unlisted), strings.Join(unlisted, "\n"))
	}
	var fixed []string
	for k := range known {
		if _, ok := failing[k]; !ok {
			if stillRelevant(k) {
				fixed = append(fixed, k)
			} else {
				fixed = append(fixed, k+" (no longer passes plain, or no longer exists)")
			}
		}
	}
	sort.Strings(fixed)
	if len(fixed) > 0 {
		t.Errorf("%s: %d known failures now pass instrumented: remove them from the known list:\n%s", what, len(fixed), strings.Join(fixed, "\n"))
	}
}
