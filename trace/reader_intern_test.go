package trace

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestReaderStringCache reads back strings built to collide in the
// reader's string cache: equal lengths with equal first and last 8 bytes,
// every short length, non-ASCII text, and more distinct strings than the
// intern map keeps.
func TestReaderStringCache(t *testing.T) {
	var names []string
	for i := 0; i < 300; i++ {
		names = append(names, fmt.Sprintf("abcdefgh%03dstuvwxyz", i)) // middle differs only
		names = append(names, strings.Repeat("x", i%20))
		names = append(names, fmt.Sprintf("é%d", i), fmt.Sprintf("%d", i))
	}
	for i := 0; i < internMax+500; i++ {
		names = append(names, fmt.Sprintf("n%07d", i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var seq []string
	for i := 0; i < 3*len(names); i++ {
		seq = append(seq, names[rng.IntN(len(names))])
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, s := range seq {
		if err := w.Write(&Entry{Kind: Write, IID: 1, Name: s, Obj: 2}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	for i := 0; ; i++ {
		e, err := r.Next()
		if err == io.EOF {
			if i != len(seq) {
				t.Fatalf("read %d entries, want %d", i, len(seq))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.Name != seq[i] {
			t.Fatalf("entry %d: name %q, want %q", i, e.Name, seq[i])
		}
	}
}
