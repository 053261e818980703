package trace

import (
	"bytes"
	"strings"
	"testing"
)

func TestComputeStats(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	for _, e := range []Entry{
		{Kind: UpdateCurrentScript, SID: 0},
		{Kind: CreateObj, IID: -1, Obj: 1},
		{Kind: ScriptEnter, IID: 1, SID: 1, Name: "a.js"},
		{Kind: SourceMapping, IID: 2, Range: [4]int32{1, 1, 1, 5}},
		{Kind: CreateObj, IID: 2, Obj: 2},
		{Kind: CreateFun, IID: 3, Obj: 3},
		{Kind: ScriptExit, IID: 4},
	} {
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	n := int64(b.Len())
	st, err := ComputeStats("t", bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 7 || st.Bytes != n || st.Objects != 4 || st.Functions != 1 || st.Scripts != 1 || st.Sites != 1 {
		t.Errorf("stats %+v", st)
	}
	var sum int64
	for _, k := range st.Kinds {
		sum += k.Bytes
	}
	if sum != n {
		t.Errorf("kinds' bytes %d, trace %d", sum, n)
	}
	// A trace cut inside an entry: the error names it, with what came before.
	st, err = ComputeStats("cut", bytes.NewReader(b.Bytes()[:n-2]))
	var whole int64
	for _, k := range st.Kinds {
		whole += k.Count
	}
	if err == nil || !strings.HasPrefix(err.Error(), "cut: entry 6 ") || whole != 6 || st.Error != err.Error() {
		t.Errorf("a cut trace: %+v %v", st, err)
	}
}
