package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/deepjs"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// instrumentedDeeper are the forms whose instrumented text V8 cannot
// compile at V8's own limit for the original, even with memtrace node's
// stack: their hooks nest a call in every level (a = W(…, a = W(…)),
// o.b.b → G(G(o)), new F → N(N(F))). The depth here is one the
// instrumented program runs at (measured: 4,343 of 5,196 assignments,
// 1,784 of 4,467 logical assignments, 5,555 of 6,946 member links and
// 5,536 of 5,683 news).
var instrumentedDeeper = map[string]int{
	"assignments":         4000,
	"logical assignments": 1500,
	"member chains":       5000,
	"news":                5000,
}

// TestInstrumentDeepNesting: a program nested as deep as plain node runs
// it, in every form (deepjs: nested arrays, objects, parentheses, calls,
// else-ifs, blocks, functions, arrows, templates, ternaries, chains...),
// is instrumented by memtrace instrument, and the output prints what the
// program prints under node with the stack memtrace node gives node
// (--stack-size=3936: instrumented code needs about four times the
// stack). Chains of one binary operator, which V8 flattens, run at
// 100,000 operators. One level past the parser's limit is a syntax error
// at its position with a code frame, exit status 1.
func TestInstrumentDeepNesting(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
		return
	}
	dir := t.TempDir()
	type prog struct {
		form      deepjs.Form
		n         int
		src, inst string
	}
	var progs []*prog
	for i, f := range deepjs.Forms {
		n := f.V8
		if f.Chain && n == 0 {
			n = 100_000
		}
		if d, ok := instrumentedDeeper[f.Name]; ok {
			n = d
		}
		p := &prog{form: f, n: n, src: filepath.Join(dir, fmt.Sprintf("p%d.js", i)), inst: filepath.Join(dir, fmt.Sprintf("p%d.inst.js", i))}
		require.NoError(t, os.WriteFile(p.src, []byte(f.Prog(n)), 0o644))
		code, _, stderr := runCmd(t, "", "instrument", p.src, "-o", p.inst)
		require.Equal(t, ExitOK, code, "%s, %d levels: %s", f.Name, n, stderr)
		progs = append(progs, p)
	}
	node := func(trace string, args ...string) (string, error) {
		cmd := exec.Command("node", args...)
		cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+trace)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	type result struct{ plain, inst string }
	results := make([]result, len(progs))
	errs := make([]error, len(progs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, p := range progs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			plain, err := node("", p.src)
			if err != nil {
				errs[i] = fmt.Errorf("plain node: %v\n%.300s", err, plain)
				return
			}
			inst, err := node(p.inst+".mem-trace", "--stack-size=3936", p.inst)
			if err != nil {
				errs[i] = fmt.Errorf("instrumented: %v\n%.300s", err, inst)
			}
			results[i] = result{plain, inst}
		}()
	}
	wg.Wait()
	for i, p := range progs {
		if assert.NoError(t, errs[i], "%s, %d levels", p.form.Name, p.n) {
			assert.Equal(t, results[i].plain, results[i].inst, "%s, %d levels", p.form.Name, p.n)
		}
	}

	// Past the limit: the parser's error with a code frame.
	deep := filepath.Join(dir, "deep.js")
	require.NoError(t, os.WriteFile(deep, []byte(deepjs.Forms[0].Prog(js.DefaultMaxDepth+1)), 0o644))
	code, stdout, stderr := runCmd(t, "", "instrument", deep)
	assert.Equal(t, ExitFailure, code)
	assert.Empty(t, stdout)
	assert.True(t, strings.HasPrefix(stderr, deep+":1:50010: error: nesting too deep (more than 50000 levels)\n"), "%.200s", stderr)
	assert.Contains(t, stderr, "[[[[")
	assert.Contains(t, stderr, "^")
}
