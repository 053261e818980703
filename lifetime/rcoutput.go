package lifetime

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/memtrace/memtrace/trace"
)

// RCOptions select the parts of MemInsight's --ref output, which the Java
// engine controls with the system properties testing and rcverbose.
type RCOptions struct {
	// Testing prints a line per DEBUG entry and, at the end, the
	// "re-added contexts" and "Heap not empty" blocks (-Dtesting=yes).
	Testing bool
	// Verbose prints one row per reported object, sorted by id
	// (-Drcverbose=yes).
	Verbose bool
}

// RCWriter is a Listener that produces MemInsight's reference-counting
// output (the format of the engine's testRefCountN.expected and
// htmlTestN.expected goldens). DEBUG lines are written as they happen; the
// rest is written at the End event. Call Err after the run.
type RCWriter struct {
	NopListener
	w    *bufio.Writer
	opts RCOptions
	eng  *Engine

	// rows holds the last report of each id: dense for ids in
	// [0, maxDenseRow), in a map for the others.
	rows   []*rowChunk // chunk i holds ids [i*rowChunkSize, (i+1)*rowChunkSize); nil = no row there yet
	sparse map[int32]rcRow
	locs   []*Location // by Location.idx
	res    []resurrection
	resAt  map[int64]int // time -> index in res
	err    error
}

// rcRow is a report kept for the rows; alloc and loc are Location.idx+1
// (0 = no row).
type rcRow struct {
	time       int64
	alloc, loc int32
}

const maxDenseRow = 1 << 26

// The dense rows are kept in chunks, allocated as ids reach them: no copy
// as they grow, and no chunk for a range of ids without reports.
const rowChunkBits = 14
const rowChunkSize = 1 << rowChunkBits

type rowChunk [rowChunkSize]rcRow

// denseRow returns the dense row of id, allocating its chunk, or nil if
// id is kept in the sparse map.
func (rc *RCWriter) denseRow(id int32) *rcRow {
	if id < 0 || id >= maxDenseRow || int(id) >= 2*len(rc.rows)*rowChunkSize+1<<16 {
		return nil
	}
	c := int(id >> rowChunkBits)
	if c >= len(rc.rows) {
		n := max(2*len(rc.rows), c+1)
		n = min(n, maxDenseRow/rowChunkSize)
		nr := make([]*rowChunk, n)
		copy(nr, rc.rows)
		rc.rows = nr
	}
	if rc.rows[c] == nil {
		rc.rows[c] = new(rowChunk)
	}
	return &rc.rows[c][id&(rowChunkSize-1)]
}

func (rc *RCWriter) locIdx(l *Location) int32 {
	for int(l.idx) >= len(rc.locs) {
		rc.locs = append(rc.locs, nil)
	}
	rc.locs[l.idx] = l
	return l.idx + 1
}

type resurrection struct {
	time int64
	text string
}

// NewRCWriter returns an RCWriter that writes to w. eng (may be nil) is
// used only to locate errors; see WriteRC.
// If w is a *bufio.Writer it is written to directly, so that other
// writers sharing it keep their order.
func NewRCWriter(w io.Writer, opts RCOptions) *RCWriter {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
	}
	return &RCWriter{w: bw, opts: opts}
}

// Attach tells the writer which engine feeds it, so that errors carry the
// entry's index and offset.
func (rc *RCWriter) Attach(e *Engine) { rc.eng = e }

func (rc *RCWriter) fail(format string, args ...any) {
	if rc.err != nil {
		return
	}
	msg := "lifetime: " + fmt.Sprintf(format, args...)
	if rc.eng != nil {
		rc.err = &trace.FormatError{Offset: rc.eng.Offset(), Index: rc.eng.Index(), Msg: msg}
	} else {
		rc.err = fmt.Errorf("%s", msg)
	}
}

// Err returns the first error: an object or location the Java engine could
// not have printed (it aborts on those), or a write error.
func (rc *RCWriter) Err() error { return rc.err }

// Unreachable implements Listener.
func (rc *RCWriter) Unreachable(u Unreachability) {
	if !rc.opts.Verbose {
		return
	}
	if u.AllocSite == nil {
		rc.fail("no allocation site for unreachable object %d", u.ID)
		return
	}
	if u.Where == nil {
		rc.fail("no source location for %s, where object %d became unreachable", u.Loc, u.ID)
		return
	}
	row := rcRow{time: u.Time, alloc: rc.locIdx(u.AllocSite), loc: rc.locIdx(u.Where)}
	if p := rc.denseRow(u.ID); p != nil {
		*p = row
		if rc.sparse != nil {
			delete(rc.sparse, u.ID)
		}
		return
	}
	if rc.sparse == nil {
		rc.sparse = make(map[int32]rcRow)
	}
	rc.sparse[u.ID] = row
}

// Debug implements Listener.
func (rc *RCWriter) Debug(d DebugEvent) {
	if !rc.opts.Testing {
		return
	}
	if d.Where == nil {
		rc.fail("no source location for DEBUG call site %s", d.CallSite)
		return
	}
	if d.AllocSite == nil {
		rc.fail("DEBUG of object %d, which has no allocation site", d.ID)
		return
	}
	rc.w.WriteString(d.Where.Short())
	rc.w.WriteString(" : RC(")
	rc.w.WriteString(d.AllocSite.Short())
	rc.w.WriteString(") = ")
	rc.w.WriteString(strconv.Itoa(d.RefCount))
	rc.w.WriteByte('\n')
}

// Resurrected implements Listener.
func (rc *RCWriter) Resurrected(time int64, context string, funID int32) {
	// MemInsight keeps these in a map keyed by time: a second
	// resurrection at the same time replaces the text in place.
	text := "(" + context + "," + strconv.Itoa(int(funID)) + ")"
	if i, ok := rc.resAt[time]; ok {
		rc.res[i].text = text
		return
	}
	if rc.resAt == nil {
		rc.resAt = make(map[int64]int)
	}
	rc.resAt[time] = len(rc.res)
	rc.res = append(rc.res, resurrection{time, text})
}

// End implements Listener: it writes the end blocks and the rows.
func (rc *RCWriter) End(end EndEvent) {
	w := rc.w
	if rc.opts.Testing && len(rc.res) > 0 {
		w.WriteString("The following contexts were re-added during execution\nTime   toString\n")
		for _, r := range rc.res {
			fmt.Fprintf(w, "%-6d %s\n", r.time, r.text)
		}
	}
	if rc.opts.Testing && len(end.Remaining) > 0 {
		w.WriteString("Heap not empty: remaining objects\n")
		for _, n := range end.Remaining {
			w.WriteString(n)
			w.WriteByte('\n')
		}
	}
	if rc.opts.Verbose {
		var neg, pos []int32 // sparse ids
		for id, r := range rc.sparse {
			if id >= 0 && int(id) < len(rc.rows)*rowChunkSize {
				// Kept in the map before the dense rows grew over it;
				// any later report would have gone to the rows.
				*rc.denseRow(id) = r
				continue
			}
			if id < 0 {
				neg = append(neg, id)
			} else {
				pos = append(pos, id)
			}
		}
		sort.Slice(neg, func(a, b int) bool { return neg[a] < neg[b] })
		sort.Slice(pos, func(a, b int) bool { return pos[a] < pos[b] })
		var buf []byte
		// The allocation-site column, padded, by location.
		allocCol := make([][]byte, len(rc.locs))
		row := func(id int32, r rcRow) {
			buf = buf[:0]
			buf = append(buf, "Id: "...)
			buf = appendPaddedInt(buf, int64(id), 5)
			buf = append(buf, " Alloc: "...)
			col := allocCol[r.alloc-1]
			if col == nil {
				col = appendPadded(nil, rc.locs[r.alloc-1].Short(), 40)
				allocCol[r.alloc-1] = col
			}
			buf = append(buf, col...)
			buf = append(buf, " Time: "...)
			buf = appendPaddedInt(buf, r.time, 10)
			buf = append(buf, " Loc: "...)
			buf = append(buf, rc.locs[r.loc-1].Short()...)
			buf = append(buf, '\n')
			w.Write(buf)
		}
		for _, id := range neg {
			row(id, rc.sparse[id])
		}
		for c, chunk := range rc.rows {
			if chunk == nil {
				continue
			}
			for i, r := range chunk {
				if r.alloc != 0 {
					row(int32(c<<rowChunkBits+i), r)
				}
			}
		}
		for _, id := range pos {
			row(id, rc.sparse[id])
		}
	}
	if err := w.Flush(); err != nil && rc.err == nil {
		rc.err = err
	}
}

// appendPadded appends s left-justified in a field of width n (Java's
// %-Ns, which never truncates).
func appendPadded(b []byte, s string, n int) []byte {
	b = append(b, s...)
	for i := javaLen(s); i < n; i++ {
		b = append(b, ' ')
	}
	return b
}

// appendPaddedInt is appendPadded of a decimal integer.
func appendPaddedInt(b []byte, v int64, n int) []byte {
	start := len(b)
	b = strconv.AppendInt(b, v, 10)
	for i := len(b) - start; i < n; i++ {
		b = append(b, ' ')
	}
	return b
}

// WriteRC runs the engine over the trace read from r and writes
// MemInsight's --ref output to w: with opts {Testing: true, Verbose: true}
// this is exactly what the Java engine prints for its tests.
func WriteRC(w io.Writer, r io.Reader, engOpts Options, opts RCOptions) error {
	rc := NewRCWriter(w, opts)
	e := NewEngine(engOpts, rc)
	rc.Attach(e)
	if err := e.Run(trace.NewReader(r)); err != nil {
		rc.w.Flush()
		return err
	}
	return rc.Err()
}

// javaLen returns the length of s in UTF-16 code units, as Java counts it.
func javaLen(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}
