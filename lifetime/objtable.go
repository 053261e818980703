package lifetime

import "math/bits"

// This file holds the per-object-id state. It has two parts:
//
//   - hot state (vertex slot, candidate-set depth, cycle-queue position,
//     return-value mark), which is non-zero only while the object is in
//     the graph or in a set; and
//   - the persistent value: the allocation site and two flags, which must
//     outlive the object, because MemInsight reports a collected object
//     again, with its site, if a later edge re-adds it.
//
// Both live in pages of 1024 ids. A sweep between entries (amortised
// against page allocations) releases the hot part of every page whose
// objects are all dead, moves the few live entries of a mostly dead page
// to an overflow map, and packs the page's persistent values: a small
// dictionary of the distinct values and an index per id of
// ceil(log2(dictionary size)) bits. A page of objects from a handful of
// sites costs a few bits per id; 2 to 8 bits for up to 256 sites.

const pageBits = 10
const pageSize = 1 << pageBits

// hotInfo is the hot state of one id.
type hotInfo struct {
	slot int32 // vertex slot+1, 0 = not in the graph
	cand int32 // depth+1 of the topmost candidate set holding the id, 0 = none
	qpos int32 // position+1 in the cycle queue, 0 = not queued
	ret  bool  // in the current return-value set
}

type hotPage [pageSize]hotInfo

// The persistent value of an id: site index+1 (0 = none) and flags.
const (
	pvSiteMask uint32 = 1<<30 - 1
	pvIgnored  uint32 = 1 << 30 // an `arguments` object: never reported
	pvDOM      uint32 = 1 << 31 // created by CREATE_DOM_NODE at some point
)

// maxSites is the number of locations a persistent value can name.
const maxSites = int(pvSiteMask)

type objPage struct {
	hot       *hotPage
	compacted bool // hot released: live entries are in objTable.over
	nOver     int32
	raw       *[pageSize]uint32 // persistent values, nil when packed
	dict      []uint32          // packed form
	bits      uint8
	data      []uint64
}

func (p *objPage) packedGet(i uint32) uint32 {
	if len(p.dict) == 0 {
		return 0
	}
	if p.bits == 0 {
		return p.dict[0]
	}
	b := uint32(p.bits)
	pos := i * b
	w, off := pos>>6, pos&63
	v := p.data[w] >> off
	if off+b > 64 {
		v |= p.data[w+1] << (64 - off)
	}
	return p.dict[v&(1<<b-1)]
}

func (p *objPage) pv(i uint32) uint32 {
	if p.raw != nil {
		return p.raw[i]
	}
	return p.packedGet(i)
}

func (p *objPage) unpack(t *objTable) {
	var raw *[pageSize]uint32
	if n := len(t.rawPool); n > 0 {
		raw = t.rawPool[n-1]
		t.rawPool = t.rawPool[:n-1]
	} else {
		raw = new([pageSize]uint32)
	}
	switch {
	case len(p.dict) == 0:
		*raw = [pageSize]uint32{}
	case p.bits == 0:
		v := p.dict[0]
		for i := range raw {
			raw[i] = v
		}
	default:
		for i := range raw {
			raw[i] = p.packedGet(uint32(i))
		}
	}
	p.raw, p.dict, p.data, p.bits = raw, nil, nil, 0
}

// pack replaces the raw persistent values with the packed form. idx
// receives each id's dictionary index.
func (p *objPage) pack(scratch map[uint32]uint32, idx *[pageSize]uint16) {
	clear(scratch)
	var dict []uint32
	// Runs of equal values are common (ids are allocated in order), and
	// dictionaries are small: a map only past a few entries.
	last, lastI := uint32(0), -1
	for i, v := range p.raw {
		if v == last && lastI >= 0 {
			idx[i] = uint16(lastI)
			continue
		}
		j := -1
		if len(dict) <= 8 {
			for k, d := range dict {
				if d == v {
					j = k
					break
				}
			}
		} else if x, ok := scratch[v]; ok {
			j = int(x)
		}
		if j < 0 {
			j = len(dict)
			dict = append(dict, v)
			if len(dict) == 9 {
				for k, d := range dict {
					scratch[d] = uint32(k)
				}
			} else if len(dict) > 9 {
				scratch[v] = uint32(j)
			}
		}
		idx[i] = uint16(j)
		last, lastI = v, j
	}
	if len(dict) == 1 && dict[0] == 0 {
		p.raw, p.dict, p.data, p.bits = nil, nil, nil, 0
		return
	}
	b := uint32(bits.Len32(uint32(len(dict) - 1)))
	var data []uint64
	if b > 0 {
		data = make([]uint64, (pageSize*b+63)/64)
		for i := range p.raw {
			x := uint64(idx[i])
			pos := uint32(i) * b
			w, off := pos>>6, pos&63
			data[w] |= x << off
			if off+b > 64 {
				data[w+1] |= x >> (64 - off)
			}
		}
	}
	p.raw, p.dict, p.bits, p.data = nil, dict[:len(dict):len(dict)], uint8(b), data
}

// objTable maps ids to their state. Ids below 64M use a slice of pages
// that grows while it stays dense; others (including negative ids) use a
// map of pages, so that a stray huge id costs one page, not a huge slice.
type objTable struct {
	low    []*objPage
	hotLow []*hotPage // low[p].hot, nil when absent: the fast path
	high   map[uint32]*objPage
	over   map[int32]*hotInfo // hot state of ids in compacted pages

	front      uint32 // highest page index an id was touched in
	hotPages   int
	sinceSweep int
	pool       []*hotPage          // released hot pages, all zero
	rawPool    []*[pageSize]uint32 // released raw persistent values
	scratch    map[uint32]uint32
	packIdx    [pageSize]uint16
}

// The free lists keep at most this many pages: a sweep runs after 64 page
// allocations or more, so that most allocations between two sweeps reuse
// the pages the previous sweep released, instead of new zeroed memory.
const (
	hotPoolMax = 128 // 2 MB
	rawPoolMax = 128 // 512 KB
)

const lowPages = 1 << 16

// compactLimit is the number of live entries up to which a page's hot
// part is moved to the overflow map.
const compactLimit = 32

// page returns id's page, creating it if create is set (nil otherwise
// when absent).
func (t *objTable) page(id int32, create bool) *objPage {
	u := uint32(id)
	p := u >> pageBits
	if int(p) < len(t.low) {
		if pg := t.low[p]; pg != nil || !create {
			return pg
		}
		return t.grow(p)
	}
	if p < lowPages && int(p) < 2*len(t.low)+64 && t.high[p] == nil {
		if !create {
			return nil
		}
		return t.grow(p)
	}
	pg := t.high[p]
	if pg == nil && create {
		if t.high == nil {
			t.high = make(map[uint32]*objPage)
		}
		pg = new(objPage)
		t.high[p] = pg
	}
	return pg
}

func (t *objTable) grow(p uint32) *objPage {
	if int(p) >= len(t.low) {
		n := 2 * len(t.low)
		if n < int(p)+1 {
			n = int(p) + 1
		}
		if n > lowPages {
			n = lowPages
		}
		nl := make([]*objPage, n)
		copy(nl, t.low)
		t.low = nl
		nh := make([]*hotPage, n)
		copy(nh, t.hotLow)
		t.hotLow = nh
	}
	if t.low[p] == nil {
		if pg := t.high[p]; pg != nil {
			// The slice has grown over a page that was kept in the map.
			t.low[p] = pg
			t.hotLow[p] = pg.hot
			delete(t.high, p)
		} else {
			t.low[p] = new(objPage)
		}
	}
	return t.low[p]
}

func (t *objTable) touch(id int32) {
	if p := uint32(id) >> pageBits; p < lowPages && p > t.front {
		t.front = p
	}
}

// peek returns id's hot state.
func (t *objTable) peek(id int32) hotInfo {
	if p := uint32(id) >> pageBits; p < uint32(len(t.hotLow)) {
		if h := t.hotLow[p]; h != nil {
			return h[id&(pageSize-1)]
		}
	}
	return t.peekSlow(id)
}

func (t *objTable) peekSlow(id int32) hotInfo {
	pg := t.page(id, false)
	if pg == nil {
		return hotInfo{}
	}
	if pg.hot != nil {
		return pg.hot[uint32(id)&(pageSize-1)]
	}
	if pg.nOver > 0 {
		if h := t.over[id]; h != nil {
			return *h
		}
	}
	return hotInfo{}
}

// hot returns a pointer to id's hot state, valid until the next sweep.
func (t *objTable) hot(id int32) *hotInfo {
	if p := uint32(id) >> pageBits; p < uint32(len(t.hotLow)) {
		if h := t.hotLow[p]; h != nil {
			return &h[id&(pageSize-1)]
		}
	}
	return t.hotSlow(id)
}

func (t *objTable) hotSlow(id int32) *hotInfo {
	pg := t.page(id, true)
	if pg.hot != nil {
		return &pg.hot[uint32(id)&(pageSize-1)]
	}
	if pg.compacted {
		h := t.over[id]
		if h == nil {
			if t.over == nil {
				t.over = make(map[int32]*hotInfo)
			}
			h = new(hotInfo)
			t.over[id] = h
			pg.nOver++
		}
		return h
	}
	t.touch(id)
	if n := len(t.pool); n > 0 {
		pg.hot = t.pool[n-1]
		t.pool = t.pool[:n-1]
	} else {
		pg.hot = new(hotPage)
	}
	if p := uint32(id) >> pageBits; p < uint32(len(t.low)) && t.low[p] == pg {
		t.hotLow[p] = pg.hot
	}
	t.hotPages++
	t.sinceSweep++
	return &pg.hot[uint32(id)&(pageSize-1)]
}

// pv returns id's persistent value.
func (t *objTable) pv(id int32) uint32 {
	if p := uint32(id) >> pageBits; int(p) < len(t.low) {
		if pg := t.low[p]; pg != nil && pg.raw != nil {
			return pg.raw[uint32(id)&(pageSize-1)]
		}
	}
	return t.pvSlow(id)
}

func (t *objTable) pvSlow(id int32) uint32 {
	pg := t.page(id, false)
	if pg == nil {
		return 0
	}
	return pg.pv(uint32(id) & (pageSize - 1))
}

func (t *objTable) setPV(id int32, v uint32) {
	if p := uint32(id) >> pageBits; int(p) < len(t.low) {
		if pg := t.low[p]; pg != nil && pg.raw != nil {
			pg.raw[uint32(id)&(pageSize-1)] = v
			t.touch(id)
			return
		}
	}
	t.setPVSlow(id, v)
}

func (t *objTable) setPVSlow(id int32, v uint32) {
	pg := t.page(id, true)
	i := uint32(id) & (pageSize - 1)
	if pg.raw == nil {
		if pg.packedGet(i) == v {
			return
		}
		pg.unpack(t)
		t.sinceSweep++
	}
	pg.raw[i] = v
	t.touch(id)
}

func (t *objTable) site(id int32) int32 { return int32(t.pv(id) & pvSiteMask) }

func (t *objTable) setSite(id int32, site int32) {
	t.setPV(id, t.pv(id)&^pvSiteMask|uint32(site))
}

func (t *objTable) flags(id int32) uint32 { return t.pv(id) &^ pvSiteMask }

func (t *objTable) setFlag(id int32, f uint32) {
	if v := t.pv(id); v&f == 0 {
		t.setPV(id, v|f)
	}
}

// maybeSweep sweeps when enough pages were allocated or unpacked since
// the last sweep. It must only be called between entries, when no
// pointer from hot is held.
func (t *objTable) maybeSweep() {
	if t.sinceSweep >= 64 && t.sinceSweep >= t.hotPages/2 {
		t.sweep()
	}
}

func (t *objTable) sweep() {
	t.sinceSweep = 0
	if t.scratch == nil {
		t.scratch = make(map[uint32]uint32)
	}
	// Overflow entries of dead objects.
	for id, h := range t.over {
		if *h == (hotInfo{}) {
			delete(t.over, id)
			if pg := t.page(id, false); pg != nil {
				pg.nOver--
			}
		}
	}
	for p, pg := range t.low {
		if pg != nil && uint32(p) < t.front {
			t.sweepPage(uint32(p)<<pageBits, pg)
		}
	}
	for p, pg := range t.high {
		t.sweepPage(p<<pageBits, pg)
	}
}

func (t *objTable) sweepPage(base uint32, pg *objPage) {
	if pg.hot != nil {
		n := 0
		for i := range pg.hot {
			if pg.hot[i] != (hotInfo{}) {
				if n++; n > compactLimit {
					return
				}
			}
		}
		if n > 0 {
			if t.over == nil {
				t.over = make(map[int32]*hotInfo)
			}
			for i := range pg.hot {
				if h := pg.hot[i]; h != (hotInfo{}) {
					c := h
					t.over[int32(base+uint32(i))] = &c
					pg.nOver++
					pg.hot[i] = hotInfo{} // the rest of the page is zero already
				}
			}
		}
		if len(t.pool) < hotPoolMax {
			t.pool = append(t.pool, pg.hot)
		}
		if p := base >> pageBits; p < uint32(len(t.low)) && t.low[p] == pg {
			t.hotLow[p] = nil
		}
		pg.hot = nil
		pg.compacted = true
		t.hotPages--
	}
	if pg.raw != nil && pg.compacted {
		raw := pg.raw
		pg.pack(t.scratch, &t.packIdx)
		if len(t.rawPool) < rawPoolMax {
			t.rawPool = append(t.rawPool, raw)
		}
	}
}
