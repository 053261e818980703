package noderun_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/trace"
)

// iterProgram has five loops: four whose per-iteration bindings closures
// capture (synthetic iteration scopes: one left by return, one in a
// generator whose suspension is outside the loop, one in a generator that
// suspends inside its body, whose iterations the resumptions enter again,
// docs/instrumentation.md §7), and one whose bindings no closure captures.
const iterProgram = `'use strict';
const fs = [];
for (let i = 0; i < 3; i++) { const o = { i }; fs.push(() => o.i); }
let total = 0;
for (const x of [1, 2, 3]) { const y = { x }; total += y.x; }
function find(xs) {
  for (const x of xs) { const o = { x }; if (x === 2) return () => o.x; }
  return null;
}
function* suspends() { for (const x of [1, 2]) { const o = { x }; fs.push(() => o.x); yield x; } }
function* scope() { for (let i = 0; i < 2; i++) { fs.push(() => i); } yield 1; }
const g = find([1, 2, 3]);
const a = [...suspends()];
const b = [...scope()];
console.log(JSON.stringify([fs.map((f) => f()), total, g(), a, b]));
`

// TestIterationScopes runs iterProgram under memtrace node: it prints what
// plain node prints, its trace passes trace check, exactly the four
// loops get a synthetic scope (trace.IterationMarker), and the JSON summary
// lists no object at their sites.
func TestIterationScopes(t *testing.T) {
	data, _ := runDifferential(t, "iter.js", iterProgram)

	// The marked Fe iids and their ranges.
	marked := map[int32]bool{}
	ranges := map[int32][4]int32{}
	enters := map[int32]int{}
	r := trace.NewReader(bytes.NewReader(data))
	for {
		en, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch en.Kind {
		case trace.FreeVars:
			if len(en.Names) > 0 && en.Names[0] == trace.IterationMarker {
				marked[en.IID] = true
			}
		case trace.SourceMapping:
			ranges[en.IID] = en.Range
		case trace.FunctionEnter:
			enters[en.IID]++
		}
	}
	require.Len(t, marked, 4)
	lines := map[int32]int{}
	for iid := range marked {
		rg := ranges[iid]
		lines[rg[0]] = enters[iid]
	}
	// Iterations entered: 3 (line 3), 2 of find's loop (line 7, left by
	// return in the second), 2 of suspends', each entered again when the
	// generator resumes after its yield (line 10), 2 (line 11).
	require.Equal(t, map[int32]int{3: 3, 7: 2, 10: 4, 11: 2}, lines)

	var sum bytes.Buffer
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	require.NoError(t, lifetime.Report(open, lifetime.ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	var doc lifetime.Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &doc))
	for iid := range marked {
		rg := ranges[iid]
		suffix := fmt.Sprintf("iter.js:%d:%d:%d:%d", rg[0], rg[1], rg[2], rg[3])
		for _, s := range doc.Sites {
			require.False(t, strings.HasSuffix(s.Site, suffix), "the summary lists the synthetic scope %s", s.Site)
		}
	}
}
