package trace

import (
	"io"
	"strings"
)

// Compact traces (docs/instrumentation.md §12).
//
// A compact trace leaves out entries that the engine would process without
// any effect on what it computes, so that the lifetime engine (memtrace's
// or MemInsight's) finds the same lifetimes, at the same sites and
// locations, from fewer entries; only logical times differ. Two rules:
//
//  1. Flushes with nothing to do. A TOP_LEVEL_FLUSH acts only through the
//     top frame's candidate set (lifetime-engine spec 4.3: it reclaims or
//     stamps what the set holds, then collects cycles if the queue outgrew
//     its limit, which only a decrement since the previous flush can
//     cause). The set is emptied by every flush and filled only by entries
//     of its own frame, so a writer that knows nothing of the graph can
//     tell that a flush has nothing to do: nothing that could add a
//     candidate happened in this frame since its last flush.
//
//  2. Declarations of primitives, deferred. A function's first DECLAREs
//     (right after its CALL or FUNCTION_ENTER) of a primitive value only add
//     an empty binding to its context. Such a binding matters to the engine
//     only once something resolves the name in that context: a WRITE, a
//     PUTFIELD on the global object (resolved like a WRITE), a closure
//     created there (its free variables are marked in this context when it
//     is sealed), code run in it by a direct eval (SCRIPT_ENTER), another
//     DECLARE there. A WRITE, a global PUTFIELD or a DECLARE resolves one
//     name: it needs the held declarations of that name only, since a
//     binding of a primitive has no edge (sealing decrements edges, in
//     their order, and a later DECLARE or WRITE of the name makes the same
//     binding and edge with or without it). A closure or direct eval may
//     resolve any. A compact trace writes each held DECLARE just before the
//     first entry of its frame that needs it, and not at all if the frame
//     exits first.
//
// Compactor applies both, entry by entry. The runtime shim's compact mode
// makes the same decisions as it writes (TestCompactMemInsightPrograms
// checks that its trace equals Compact of its full trace).
type Compactor struct {
	dirty    bool
	fresh    bool // only DECLAREs since this frame's CALL/FUNCTION_ENTER
	ret      bool // a RETURN waits for its FUNCTION_EXIT
	frames   []frameMark
	deferred []Entry // DECLAREs held back, innermost frame's last
	defSID   []int32 // the script each was written in

	// SID is the current script (UPDATE_CURRENT_SCRIPT); the caller sets
	// it. OutSID[k] is the script the k-th entry returned by Next is
	// written in (held-back declarations keep theirs).
	SID    int32
	OutSID []int32

	// Elided counts flushes left out; Deferred, declarations held back
	// (written later or never); Written, those of them written later.
	Elided, Deferred, Written int64
}

type frameMark struct {
	dirty  bool
	defer0 int // len(deferred) when the frame began
}

// NewCompactor returns the state at the start of a trace: the global frame,
// conservatively dirty.
func NewCompactor() *Compactor { return &Compactor{dirty: true} }

// Next takes the next counted entry e and returns the entries to write in
// its place, in order: none (e is left out or held back), e, or held-back
// declarations followed by e. The result is valid until the next call.
func (c *Compactor) Next(e *Entry, out []Entry) []Entry {
	out = out[:0]
	c.OutSID = c.OutSID[:0]
	top := 0
	if n := len(c.frames); n > 0 {
		top = c.frames[n-1].defer0
	}
	switch e.Kind {
	case TopLevelFlush:
		if !c.dirty {
			c.Elided++
			return out
		}
		c.dirty = false
	case Call, FunctionEnter:
		// A new frame with an empty candidate set.
		c.frames = append(c.frames, frameMark{dirty: c.dirty, defer0: len(c.deferred)})
		c.dirty, c.fresh = false, true
	case Declare:
		if c.fresh && e.Obj == 0 && len(c.frames) > 0 {
			c.deferred = append(c.deferred, *e)
			c.defSID = append(c.defSID, c.SID)
			c.Deferred++
			return out
		}
		// A frame's first DECLAREs add an edge to their value (so the
		// value is no candidate) and replace no binding: the instrumenter
		// declares each name of a scope once at its entry. Any other may
		// replace an object (a loop body's let, declared again).
		if !c.fresh {
			c.dirty = true
			out = c.releaseName(out, top, e.Name)
		}
	case Return:
		// FUNCTION_EXIT moves the returned object into the caller's set.
		c.ret = true
		c.fresh = false
	case FunctionExit:
		// The callee's own set is flushed by the exit itself.
		if n := len(c.frames); n > 0 {
			c.dirty = c.frames[n-1].dirty || c.ret
			c.deferred = c.deferred[:c.frames[n-1].defer0]
			c.defSID = c.defSID[:c.frames[n-1].defer0]
			c.frames = c.frames[:n-1]
		} else {
			c.dirty = true
		}
		c.ret, c.fresh = false, false
	default:
		// Creations, field and variable writes, UPDATE_IID, DEBUG, DOM
		// entries, script entry and exit: anything else may add a
		// candidate or a cycle-queue entry.
		c.dirty, c.fresh = true, false
		switch {
		case e.Kind == CreateFun || e.Kind == ScriptEnter:
			out = c.release(out, top)
		case e.Kind == PutField && e.Base == 1 && strings.Contains(e.Name, "@"):
			// The shim names a module binding "x@" and its script's id
			// (its writer knows the script, not the name's bytes).
			out = c.release(out, top)
		case e.Kind == Write || e.Kind == PutField && e.Base == 1:
			out = c.releaseName(out, top, e.Name)
		}
	}
	c.OutSID = append(c.OutSID, c.SID)
	return append(out, *e)
}

// release appends the top frame's held-back declarations (from index top).
func (c *Compactor) release(out []Entry, top int) []Entry {
	for k := top; k < len(c.deferred); k++ {
		out = append(out, c.deferred[k])
		c.OutSID = append(c.OutSID, c.defSID[k])
	}
	c.Written += int64(len(c.deferred) - top)
	c.deferred = c.deferred[:top]
	c.defSID = c.defSID[:top]
	return out
}

// releaseName appends the top frame's last held-back declaration of name
// (from index top), if any, and keeps the others held: a name held twice
// (repeated parameters) is one binding to the engine, of no edge.
func (c *Compactor) releaseName(out []Entry, top int, name string) []Entry {
	for j := len(c.deferred) - 1; j >= top; j-- {
		if c.deferred[j].Name != name {
			continue
		}
		out = append(out, c.deferred[j])
		c.OutSID = append(c.OutSID, c.defSID[j])
		c.Written++
		c.deferred = append(c.deferred[:j], c.deferred[j+1:]...)
		c.defSID = append(c.defSID[:j], c.defSID[j+1:]...)
		break
	}
	return out
}

// CompactStats says what Compact did.
type CompactStats struct {
	Entries          int64 // entries read
	Elided           int64 // flushes left out
	Deferred, Unused int64 // declarations held back; of them, never written
	BytesIn          int64
	BytesOut         int64
}

// Compact copies the trace in src to dst as a compact trace, renumbering
// the times of LAST_USE records. Metadata stays in place.
func Compact(src io.Reader, dst io.Writer) (CompactStats, error) {
	w := NewWriter(dst)
	st, err := compact(src, func(e *Entry) error { return w.Write(e) })
	if err != nil {
		return st, err
	}
	if err := w.Flush(); err != nil {
		return st, err
	}
	st.BytesOut = w.Written()
	return st, nil
}

// compact runs the Compactor over src and gives each entry of the compact
// trace to emit, LAST_USE times renumbered.
func compact(src io.Reader, emit func(*Entry) error) (CompactStats, error) {
	r := NewReader(src)
	c := NewCompactor()
	var st CompactStats
	var buf []Entry
	// For the counted entries since the previous END_LAST_USE (a block
	// only refers to uses after the previous block): the compact trace's
	// time just after each, and the full trace's time of the first.
	var after []int64
	first := int64(0)
	now := int64(-1) // the compact trace's time
	// UPDATE_CURRENT_SCRIPT is written as the shim writes it: just before
	// the next entry that is written in another script than the last one
	// written (its place in the full trace is the same, except around
	// held-back declarations, written in their own script).
	emitted := int32(-1)
	var sidEntry Entry
	sidEntry.Kind = UpdateCurrentScript
	setSID := func(sid int32) error {
		if sid == emitted {
			return nil
		}
		emitted = sid
		sidEntry.SID = sid
		return emit(&sidEntry)
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, err
		}
		st.Entries++
		if !e.Kind.IsMeta() {
			if len(after) == 0 {
				first = r.Time()
			}
			buf = c.Next(e, buf)
			for k := range buf {
				if err := setSID(c.OutSID[k]); err != nil {
					return st, err
				}
				now++
				if err := emit(&buf[k]); err != nil {
					return st, err
				}
			}
			after = append(after, now)
			continue
		}
		switch e.Kind {
		case UpdateCurrentScript:
			c.SID = e.SID
			continue
		case EndLastUse:
		default:
			if err := setSID(c.SID); err != nil {
				return st, err
			}
		}
		switch e.Kind {
		case LastUse:
			// A use just after full-trace entry t happened just after the
			// compact trace's entry written by then.
			if t := int64(e.UseTime); t >= first && t-first < int64(len(after)) {
				e.UseTime = int32(after[t-first])
			} else if t >= 0 {
				e.UseTime = int32(t - (r.Time() - now)) // not expected: keep the distance
			}
		case EndLastUse:
			// Keep the last entry's: the next block may name it (all-uses
			// mode writes a block per use).
			if n := len(after); n > 1 {
				first += int64(n - 1)
				after = append(after[:0], after[n-1])
			}
		}
		if err := emit(e); err != nil {
			return st, err
		}
	}
	st.Elided, st.Deferred, st.Unused = c.Elided, c.Deferred, c.Deferred-c.Written
	st.BytesIn = r.End()
	return st, nil
}

// CompactTimeMap reads a full trace and returns the mapping from its
// logical times to those of its compact form: the time of the last entry
// the compact trace has written by the point just after full entry t.
// Negative times map to themselves.
func CompactTimeMap(src io.Reader) (func(int64) int64, error) {
	r := NewReader(src)
	c := NewCompactor()
	var buf []Entry
	var at []int64 // by full time
	now := int64(-1)
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if e.Kind.IsMeta() {
			continue
		}
		buf = c.Next(e, buf)
		now += int64(len(buf))
		at = append(at, now)
	}
	return func(t int64) int64 {
		if t < 0 {
			return t
		}
		if t >= int64(len(at)) {
			return now
		}
		return at[t]
	}, nil
}
