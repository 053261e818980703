package lifetime

import "testing"

func TestObjTableSparseThenDense(t *testing.T) {
	var tab objTable
	ids := []int32{50 << 20, -7, 3, 1 << 30, 200 << 10, 40 << 20, 60 << 20}
	for i, id := range ids {
		tab.get(id).site = int32(i + 1)
	}
	// grow the dense part over the pages kept in the map
	for id := int32(0); id < 64<<20; id += 1 << 10 {
		tab.get(id)
	}
	for i, id := range ids {
		if got := tab.get(id).site; got != int32(i+1) {
			t.Fatalf("id %d: site %d, want %d", id, got, i+1)
		}
	}
}
