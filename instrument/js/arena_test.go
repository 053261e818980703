package js

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// TestArenaReuse parses files one after another with one arena, reset
// between parses, and each tree equals the tree of a parse without an
// arena: a node handed out again carries nothing of the tree before. The
// second round must reuse the first round's chunks.
func TestArenaReuse(t *testing.T) {
	dir := testcorpus.Dir(t, "octane")
	var srcs [][]byte
	for _, f := range []string{"richards.js", "deltablue.js", "raytrace.js", "richards.js", "navier-stokes.js"} {
		src, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	srcs = append(srcs, []byte("a.b(c + d); x;"), []byte("let q = f(1) * g.h;"))
	a := NewArena()
	for round := 0; round < 2; round++ {
		made := 0
		for i, src := range srcs {
			want, err := Parse(src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			spare := len(a.slabs.members.spare)
			got, err := Parse(src, Options{Arena: a})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("round %d, source %d: the tree parsed with the arena differs", round, i)
			}
			if len(a.slabs.members.used) > spare {
				made += len(a.slabs.members.used) - spare
			}
			a.Reset()
			zeroed(t, a)
		}
		if round == 1 && made > 0 {
			t.Errorf("the second round made %d new chunks of members instead of reusing the first round's", made)
		}
	}
	// A failed parse leaves the arena usable.
	if _, err := Parse([]byte("a.b(c.d e"), Options{Arena: a}); err == nil {
		t.Fatal("no syntax error")
	}
	a.Reset()
	want, _ := Parse(srcs[0], Options{})
	got, _ := Parse(srcs[0], Options{Arena: a})
	if !reflect.DeepEqual(want, got) {
		t.Fatal("the tree parsed after a failed parse differs")
	}
}

// zeroed: the spare chunks of a reset arena (and its lists' stacks) hold
// no pointer into the trees parsed before, which would keep them from the
// garbage collector.
func zeroed(t *testing.T, a *Arena) {
	t.Helper()
	slabs := reflect.ValueOf(&a.slabs).Elem()
	for i := 0; i < slabs.NumField(); i++ {
		f := slabs.Field(i)
		name := slabs.Type().Field(i).Name
		chunks := []reflect.Value{}
		spare := f.FieldByName("spare")
		for k := 0; k < spare.Len(); k++ {
			chunks = append(chunks, spare.Index(k))
		}
		if stack := f.FieldByName("stack"); stack.IsValid() {
			if stack.Len() != 0 {
				t.Fatalf("%s: %d items left on the stack after Reset", name, stack.Len())
			}
			chunks = append(chunks, stack.Slice(0, stack.Cap()))
		}
		for _, c := range chunks {
			for j := 0; j < c.Len(); j++ {
				if !c.Index(j).IsZero() {
					t.Fatalf("%s: a spare node is not zero after Reset", name)
				}
			}
		}
	}
}
