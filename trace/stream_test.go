package trace_test

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/trace/tracegen"
)

// referenceCheck checks a trace the plain way: every entry decoded by the
// Reader, strings and all, and given to Checker.Add. The Stream (and so
// Check) must reach the same report on every input.
func referenceCheck(data []byte, maxFindings int) *trace.Report {
	r := trace.NewReader(bytes.NewReader(data))
	c := trace.NewChecker()
	c.MaxFindings = maxFindings
	scripts := map[int32]bool{}
	rep := func() *trace.Report {
		return &trace.Report{Entries: r.Index() + 1, Bytes: r.End(), Time: r.Counted() - 1,
			Findings: c.Findings(), Errors: c.Errors(), Warnings: c.Warnings(),
			OpenFrames: c.Depth(), Scripts: int64(len(scripts))}
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			c.Finish(r.Index()+1, r.End())
			return rep()
		}
		if err != nil {
			var fe *trace.FormatError
			if !errors.As(err, &fe) {
				panic(err)
			}
			// The reader's failing entry is one of its entries.
			f := referenceFormat(c, fe)
			out := rep()
			out.Findings = append(out.Findings[:len(out.Findings):len(out.Findings)], f...)
			out.Errors++
			return out
		}
		if e.Kind == trace.ScriptEnter {
			scripts[e.SID] = true
		}
		c.Add(e, r.Index(), r.Offset())
	}
}

// referenceFormat is the finding Check records for bytes it cannot
// decode (if the findings have room).
func referenceFormat(c *trace.Checker, fe *trace.FormatError) []trace.Finding {
	max := c.MaxFindings
	if max == 0 {
		max = 100
	}
	if len(c.Findings()) >= max {
		return nil
	}
	return []trace.Finding{{Index: fe.Index, Offset: fe.Offset, Severity: trace.Error, Rule: trace.RuleFormat, Msg: fe.Msg}}
}

// streamCheck feeds data to a Stream in pieces of the sizes sizes gives.
func streamCheck(data []byte, maxFindings int, sizes func() int) *trace.Report {
	s := trace.NewStream()
	s.Checker().MaxFindings = maxFindings
	for len(data) > 0 {
		n := min(len(data), sizes())
		if !s.Feed(data[:n]) {
			return s.Report()
		}
		data = data[n:]
	}
	s.Finish()
	return s.Report()
}

// sameAsReference holds the Stream, fed whole, in pieces of random sizes
// and one byte at a time, and Check, to the reference's report; with
// StopAtError, it stops at the reference's first error.
func sameAsReference(t *testing.T, data []byte, maxFindings int, rng *rand.Rand) {
	t.Helper()
	want := referenceCheck(data, maxFindings)
	norm := func(r *trace.Report) *trace.Report {
		if len(r.Findings) == 0 {
			r.Findings = nil
		}
		return r
	}
	norm(want)
	got, err := trace.Check(bytes.NewReader(data), maxFindings)
	require.NoError(t, err)
	require.Equal(t, want, norm(got), "Check")
	require.Equal(t, want, norm(streamCheck(data, maxFindings, func() int { return len(data) })), "whole")
	require.Equal(t, want, norm(streamCheck(data, maxFindings, func() int { return 1 + rng.IntN(300) })), "random pieces")
	if len(data) < 4<<10 {
		require.Equal(t, want, norm(streamCheck(data, maxFindings, func() int { return 1 })), "bytes")
	}

	s := trace.NewStream()
	s.StopAtError = true
	for p := 0; p < len(data); {
		n := min(len(data)-p, 1+rng.IntN(5000))
		if !s.Feed(data[p : p+n]) {
			break
		}
		p += n
	}
	s.Finish()
	var first *trace.Finding
	for i, f := range want.Findings {
		if f.Severity == trace.Error {
			first = &want.Findings[i]
			break
		}
	}
	if want.Errors == 0 {
		require.False(t, s.Stopped(), "stopped at %v", s.Fault())
		require.Equal(t, want.Entries, s.Entries())
		require.Equal(t, want.Bytes, s.End())
		return
	}
	if first == nil {
		return // the findings were full of warnings before the first error
	}
	f, ok := s.FirstError()
	require.True(t, ok)
	require.Equal(t, *first, f, "first error")
	if s.Stopped() {
		require.Equal(t, *first, s.Fault())
		require.Equal(t, first.Index, s.Entries(), "entries before the fault")
		require.Equal(t, first.Offset, s.End(), "bytes before the fault")
	}
}

func TestStreamMatchesReferenceOnCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	files, err := filepath.Glob(filepath.Join(testcorpus.Dir(t, "meminsight"), "traces", "*.mem-trace"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		t.Run(filepath.Base(name), func(t *testing.T) { sameAsReference(t, data, 50, rng) })
	}
	for seed := uint64(1); seed <= 3; seed++ {
		var b bytes.Buffer
		require.NoError(t, tracegen.Generate(&b, tracegen.Options{Bytes: 2 << 20, Seed: seed}))
		sameAsReference(t, b.Bytes(), 50, rng)
	}
}

// TestStreamMatchesReferenceOnDamage damages sound traces (a byte, a
// field, a cut, a swap of two entries' worth of bytes) where the fast path
// would otherwise run, so that every rule it vouches for meets inputs that
// break it.
func TestStreamMatchesReferenceOnDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sound [][]byte
	for seed := uint64(10); seed < 14; seed++ {
		var b bytes.Buffer
		require.NoError(t, tracegen.Generate(&b, tracegen.Options{Bytes: 64 << 10, Seed: seed, Slots: 8, Children: 3}))
		sound = append(sound, b.Bytes())
	}
	files, _ := filepath.Glob(filepath.Join(testcorpus.Dir(t, "meminsight"), "traces", "*.mem-trace"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil && len(data) < 256<<10 {
			sound = append(sound, data)
		}
	}
	for i := 0; i < 3000; i++ {
		src := sound[rng.IntN(len(sound))]
		data := append([]byte(nil), src...)
		for k := 1 + rng.IntN(3); k > 0; k-- {
			p := rng.IntN(len(data))
			switch rng.IntN(5) {
			case 0:
				data[p] = byte(rng.IntN(256))
			case 1:
				data[p] ^= 1 << rng.IntN(8)
			case 2: // a small number, as ids, iids and lengths are
				if p+4 <= len(data) {
					v := rng.IntN(40) - 4
					data[p], data[p+1], data[p+2], data[p+3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
				}
			case 3:
				data = data[:p]
			case 4:
				q := rng.IntN(len(data))
				n := min(1+rng.IntN(40), len(data)-max(p, q))
				tmp := append([]byte(nil), data[p:p+n]...)
				copy(data[p:], data[q:q+n])
				copy(data[q:], tmp)
			}
			if len(data) == 0 {
				break
			}
		}
		sameAsReference(t, data, 1+rng.IntN(40), rng)
		if t.Failed() {
			return
		}
	}
}

// FuzzStream: on any bytes, the Stream, Check and the reference agree.
func FuzzStream(f *testing.F) {
	var b bytes.Buffer
	if err := tracegen.Generate(&b, tracegen.Options{Bytes: 4 << 10, Seed: 5, Slots: 4, Children: 2}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes(), uint64(1))
	f.Add([]byte{}, uint64(2))
	f.Add([]byte{1, 0, 0, 0, 0xFF}, uint64(3))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		sameAsReference(t, data, 20, rand.New(rand.NewPCG(seed, seed)))
	})
}

// TestCheckMemoryIsBoundedByTheTrace: a bogus id or far-apart mappings
// cost the checker memory in proportion to the entries, not to the
// numbers in them (a collector checks what any client sends).
func TestCheckMemoryIsBoundedByTheTrace(t *testing.T) {
	var data []byte
	be := func(v int32) { data = append(data, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	data = append(data, byte(trace.UpdateCurrentScript))
	be(0)
	data = append(data, byte(trace.CreateObj))
	be(-1)
	be(1)
	for sid := int32(1); sid <= 200; sid++ {
		data = append(data, byte(trace.ScriptEnter))
		be(0)
		be(sid)
		be(0)
		data = append(data, byte(trace.UpdateCurrentScript))
		be(sid)
		for _, iid := range []int32{1, 1<<26 - 100, -1 << 30, 1 << 30} {
			data = append(data, byte(trace.SourceMapping))
			be(iid)
			be(1)
			be(1)
			be(1)
			be(2)
		}
	}
	data = append(data, byte(trace.CreateFun))
	be(1)
	be(1)
	be(1<<31 - 2)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Equal(t, int64(1), rep.Errors, "%v", rep.Findings) // the CREATE_FUN id
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "bytes allocated checking %d bytes", len(data))
}
