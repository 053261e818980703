package trace_test

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/trace/tracegen"
)

var (
	benchOnce  sync.Once
	benchTrace []byte
)

func synthetic(b *testing.B) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := tracegen.Generate(&buf, tracegen.Options{Bytes: 32 << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		benchTrace = buf.Bytes()
	})
	return benchTrace
}

func BenchmarkReader(b *testing.B) {
	data := synthetic(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := trace.NewReader(bytes.NewReader(data))
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkCheck(b *testing.B) {
	data := synthetic(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rep, err := trace.Check(bytes.NewReader(data), 10)
		if err != nil || !rep.OK() {
			b.Fatal(err, rep.Findings)
		}
	}
}

func BenchmarkWriter(b *testing.B) {
	data := synthetic(b)
	var entries []trace.Entry
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		entries = append(entries, *e)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		w := trace.NewWriter(io.Discard)
		for i := range entries {
			w.Write(&entries[i])
		}
		w.Flush()
	}
}
