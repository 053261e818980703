package lifetime

import (
	"math/rand"
	"testing"
)

func TestObjTableSparseThenDense(t *testing.T) {
	var tab objTable
	ids := []int32{50 << 20, -7, 3, 1 << 30, 200 << 10, 40 << 20, 60 << 20}
	for i, id := range ids {
		tab.setSite(id, int32(i+1))
	}
	// grow the dense part over the pages kept in the map
	for id := int32(0); id < 64<<20; id += 1 << 10 {
		tab.hot(id)
	}
	tab.sweep()
	for i, id := range ids {
		if got := tab.site(id); got != int32(i+1) {
			t.Fatalf("id %d: site %d, want %d", id, got, i+1)
		}
	}
}

// TestObjTableModel drives the table with random writes, sweeps at random
// moments and checks every value against a map.
func TestObjTableModel(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var tab objTable
		pvs := map[int32]uint32{}
		hots := map[int32]hotInfo{}
		next := int32(0)
		pick := func() int32 {
			switch rng.Intn(10) {
			case 0:
				return -int32(rng.Intn(3000))
			case 1:
				return int32(rng.Intn(int(next) + 1))
			default:
				// mostly new ids, as a program allocates them
				next += int32(rng.Intn(3))
				return next
			}
		}
		for step := 0; step < 60000; step++ {
			id := pick()
			switch rng.Intn(6) {
			case 0:
				s := int32(rng.Intn(1 + rng.Intn(300)))
				tab.setSite(id, s)
				pvs[id] = pvs[id]&^pvSiteMask | uint32(s)
			case 1:
				f := []uint32{pvIgnored, pvDOM}[rng.Intn(2)]
				tab.setFlag(id, f)
				pvs[id] |= f
			case 2, 3:
				h := tab.hot(id)
				switch rng.Intn(4) {
				case 0:
					h.slot = int32(rng.Intn(3))
				case 1:
					h.cand = int32(rng.Intn(2))
				case 2:
					h.qpos = int32(rng.Intn(2))
				case 3:
					h.ret = rng.Intn(2) == 0
				}
				hots[id] = *h
			case 4:
				// objects die: clear the hot state of old ids
				for k := range hots {
					if rng.Intn(4) == 0 {
						*tab.hot(k) = hotInfo{}
						delete(hots, k)
					}
				}
			case 5:
				tab.maybeSweep()
				if rng.Intn(50) == 0 {
					tab.sweep()
				}
			}
		}
		tab.sweep()
		for id, v := range pvs {
			if got := tab.pv(id); got != v {
				t.Fatalf("seed %d: id %d: pv %#x, want %#x", seed, id, got, v)
			}
		}
		for id, h := range hots {
			if got := tab.peek(id); got != h {
				t.Fatalf("seed %d: id %d: hot %+v, want %+v", seed, id, got, h)
			}
		}
		for id := int32(-3000); id <= next; id++ {
			if _, ok := pvs[id]; !ok && tab.pv(id) != 0 {
				t.Fatalf("seed %d: id %d: pv %#x, want 0", seed, id, tab.pv(id))
			}
			if _, ok := hots[id]; !ok && tab.peek(id) != (hotInfo{}) {
				t.Fatalf("seed %d: id %d: hot %+v, want zero", seed, id, tab.peek(id))
			}
		}
	}
}

// TestObjTablePacking checks that dead pages keep only their packed
// persistent values.
func TestObjTablePacking(t *testing.T) {
	var tab objTable
	const n = 100 * pageSize
	for id := int32(0); id < n; id++ {
		tab.setSite(id, 1+id%5)
		tab.hot(id).slot = 1
		if id%pageSize == 0 && id > 0 {
			// objects of the previous page die, but one
			for k := id - pageSize; k < id; k++ {
				if k%pageSize != 7 {
					tab.hot(k).slot = 0
				}
			}
		}
		tab.maybeSweep()
	}
	tab.sweep()
	if tab.hotPages > 2 {
		t.Errorf("%d hot pages left, want at most 2", tab.hotPages)
	}
	packed := 0
	for _, pg := range tab.low {
		if pg != nil && pg.raw == nil && pg.bits == 3 {
			packed++
		}
	}
	if packed < 95 {
		t.Errorf("%d pages packed at 3 bits per id, want >= 95", packed)
	}
	for id := int32(0); id < n; id++ {
		if got := tab.site(id); got != 1+id%5 {
			t.Fatalf("id %d: site %d", id, got)
		}
		want := int32(1)
		if id < n-pageSize && id%pageSize != 7 {
			want = 0
		}
		if got := tab.peek(id).slot; got != want {
			t.Fatalf("id %d: slot %d, want %d", id, got, want)
		}
	}
}
