package trace

import (
	"io"
	"sort"
)

// Compact traces (docs/instrumentation.md, "Compact traces").
//
// A TOP_LEVEL_FLUSH only does something in the engine when the top
// candidate set is not empty (lifetime-engine spec 4.3: it reclaims or
// stamps what the set holds, then collects cycles if the queue outgrew its
// limit, which only a decrement since the previous flush can cause). The
// set is emptied by every flush and filled only by entries of its own
// frame, so a writer can tell, without knowing the graph, that a flush has
// nothing to do: nothing that could add a candidate happened in this frame
// since its last flush. A compact trace leaves such flushes out. The engine
// then computes the same lifetimes at the same sites and locations; only
// logical times differ, since fewer entries are counted.
//
// FrameState is that bookkeeping, shared by the offline Compact below and
// mirrored entry by entry by the runtime shim's compact mode (which must
// make the same decisions: TestShimCompactMatchesOffline).
type FrameState struct {
	dirty   bool
	fresh   bool // only DECLAREs since this frame's CALL/FUNCTION_ENTER
	ret     bool // a RETURN waits for its FUNCTION_EXIT
	stack   []bool
	Elided  int64 // flushes left out
	Written int64 // flushes kept
}

// NewFrameState returns the state at the start of a trace: the global
// frame, conservatively dirty.
func NewFrameState() *FrameState { return &FrameState{dirty: true} }

// Keep updates the state for counted entry kind k and reports whether the
// entry belongs in a compact trace (false only for a flush with nothing to
// do).
func (s *FrameState) Keep(k Kind) bool {
	switch k {
	case TopLevelFlush:
		if !s.dirty {
			s.Elided++
			return false
		}
		s.dirty = false
		s.Written++
	case Call, FunctionEnter:
		// A new frame with an empty candidate set.
		s.stack = append(s.stack, s.dirty)
		s.dirty, s.fresh = false, true
	case Declare:
		// A DECLARE adds an edge to its value (so the value is no
		// candidate) and is only a decrement when it replaces a binding
		// of its frame, which a frame's first declarations cannot do: the
		// instrumenter declares each name of a scope once at its entry.
		if !s.fresh {
			s.dirty = true
		}
	case Return:
		// FUNCTION_EXIT moves the returned object into the caller's set.
		s.ret = true
		s.fresh = false
	case FunctionExit:
		// The callee's set is flushed by the exit itself.
		if n := len(s.stack); n > 0 {
			s.dirty = s.stack[n-1] || s.ret
			s.stack = s.stack[:n-1]
		} else {
			s.dirty = true
		}
		s.ret, s.fresh = false, false
	default:
		// Creations, field and variable writes, UPDATE_IID, DEBUG, DOM
		// entries, script entry and exit: anything else may add a
		// candidate or a cycle-queue entry.
		s.dirty, s.fresh = true, false
	}
	return true
}

// CompactStats says what Compact did.
type CompactStats struct {
	Entries, Elided int64 // entries read; flushes left out
	BytesIn         int64
	BytesOut        int64
}

// Compact copies the trace in src to dst, leaving out the flushes that have
// nothing to do and renumbering the times of LAST_USE records accordingly.
// Everything else is copied unchanged, in order.
func Compact(src io.Reader, dst io.Writer) (CompactStats, error) {
	r := NewReader(src)
	w := NewWriter(dst)
	s := NewFrameState()
	var st CompactStats
	// Times of the flushes left out since the last END_LAST_USE (a block
	// only refers to uses after the previous block), and how many were
	// left out before them.
	var recent []int64
	var before int64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
		st.Entries++
		if !e.Kind.IsMeta() && !s.Keep(e.Kind) {
			recent = append(recent, r.Time())
			continue
		}
		switch e.Kind {
		case LastUse:
			t := int64(e.UseTime)
			// Entries up to t that were left out: a use just after a
			// left-out flush happened just after the entry kept before it.
			k := before + int64(sort.Search(len(recent), func(i int) bool { return recent[i] > t }))
			e.UseTime = int32(t - k)
		case EndLastUse:
			before += int64(len(recent))
			recent = recent[:0]
		}
		if err := w.Write(e); err != nil {
			return st, err
		}
	}
	st.Elided = s.Elided
	st.BytesIn = r.End()
	if err := w.Flush(); err != nil {
		return st, err
	}
	st.BytesOut = w.Written()
	return st, nil
}

// CompactTimeMap reads a full trace and returns the mapping from its
// logical times to those of its compact form: t less the flushes left out
// at or before t (a time of a left-out flush maps to that of the entry
// kept before it). Negative times map to themselves.
func CompactTimeMap(src io.Reader) (func(int64) int64, error) {
	r := NewReader(src)
	s := NewFrameState()
	var dropped []int64
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if !e.Kind.IsMeta() && !s.Keep(e.Kind) {
			dropped = append(dropped, r.Time())
		}
	}
	return func(t int64) int64 {
		if t < 0 {
			return t
		}
		return t - int64(sort.Search(len(dropped), func(i int) bool { return dropped[i] > t }))
	}, nil
}
