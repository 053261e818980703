package lifetime

import (
	"cmp"
	"encoding/binary"
	"sort"
)

// luInfo is what the streaming staleness client knows of an object's last
// use and unreachability (MemInsight's LastUseUnreachableInfo). The zero
// value is its default (time 0); sites default to LocUnknown through
// defaultLU.
type luInfo struct {
	luTime int64
	luSite Loc
	unTime int64
	unSite Loc
}

var defaultLU = luInfo{luSite: LocUnknown, unSite: LocUnknown}

type idInfo struct {
	id int32
	luInfo
}

const idInfoSize = 4 + 8 + 8 + 8 + 8

func putLoc(b []byte, l Loc) {
	binary.BigEndian.PutUint32(b, uint32(l.SID))
	binary.BigEndian.PutUint32(b[4:], uint32(l.IID))
}

func getLoc(b []byte) Loc {
	return Loc{int32(binary.BigEndian.Uint32(b)), int32(binary.BigEndian.Uint32(b[4:]))}
}

func encIDInfo(b []byte, v idInfo) {
	binary.BigEndian.PutUint32(b, uint32(v.id))
	binary.BigEndian.PutUint64(b[4:], uint64(v.luTime))
	putLoc(b[12:], v.luSite)
	binary.BigEndian.PutUint64(b[20:], uint64(v.unTime))
	putLoc(b[28:], v.unSite)
}

func decIDInfo(b []byte) idInfo {
	return idInfo{
		id: int32(binary.BigEndian.Uint32(b)),
		luInfo: luInfo{
			luTime: int64(binary.BigEndian.Uint64(b[4:])),
			luSite: getLoc(b[12:]),
			unTime: int64(binary.BigEndian.Uint64(b[20:])),
			unSite: getLoc(b[28:]),
		},
	}
}

// infoStore keeps the last-use and unreachability information of objects
// the streaming client no longer tracks (reported and written). It is an
// external sorter by id: the newest snapshot of an id wins. Lookups (rare:
// an object used or reported again after its record was written) binary
// search each run, newest first.
type infoStore struct {
	s        *extSorter[idInfo]
	idx      map[int32]int // id -> index in s.buf
	min, max []int32       // id range of each run
	rec      []byte
}

func newInfoStore(dir string) *infoStore {
	return &infoStore{
		s:   newExtSorter(idInfoSize, encIDInfo, decIDInfo, func(a, b idInfo) int { return cmp.Compare(a.id, b.id) }, dir),
		idx: make(map[int32]int),
		rec: make([]byte, idInfoSize),
	}
}

func (st *infoStore) put(v idInfo) {
	if i, ok := st.idx[v.id]; ok {
		st.s.buf[i] = v
		return
	}
	st.idx[v.id] = len(st.s.buf)
	st.s.buf = append(st.s.buf, v)
	if len(st.s.buf) >= st.s.max {
		lo, hi := st.s.buf[0].id, st.s.buf[0].id
		for _, x := range st.s.buf {
			lo, hi = min(lo, x.id), max(hi, x.id)
		}
		st.s.spill()
		st.min = append(st.min, lo)
		st.max = append(st.max, hi)
		clear(st.idx)
	}
}

// lookup returns the newest snapshot of id.
func (st *infoStore) lookup(id int32) (luInfo, bool, error) {
	if i, ok := st.idx[id]; ok {
		return st.s.buf[i].luInfo, true, nil
	}
	if st.s.err != nil {
		return luInfo{}, false, st.s.err
	}
	for r := len(st.s.runs) - 1; r >= 0; r-- {
		if id < st.min[r] || id > st.max[r] {
			continue
		}
		run := st.s.runs[r]
		var err error
		i := sort.Search(int(run.n), func(i int) bool {
			if err != nil {
				return true
			}
			v, e := st.s.readAt(run, int64(i), st.rec)
			if e != nil {
				err = e
				return true
			}
			return v.id >= id
		})
		if err != nil {
			return luInfo{}, false, err
		}
		if int64(i) < run.n {
			v, err := st.s.readAt(run, int64(i), st.rec)
			if err != nil {
				return luInfo{}, false, err
			}
			if v.id == id {
				return v.luInfo, true, nil
			}
		}
	}
	return luInfo{}, false, nil
}

// each calls fn with the newest snapshot of every id, in id order.
func (st *infoStore) each(fn func(idInfo) error) error {
	var cur idInfo
	have := false
	err := st.s.Each(func(v idInfo) error {
		if have && v.id != cur.id {
			if err := fn(cur); err != nil {
				return err
			}
		}
		cur, have = v, true
		return nil
	})
	if err != nil {
		return err
	}
	if have {
		return fn(cur)
	}
	return nil
}

func (st *infoStore) close() error { return st.s.Close() }
