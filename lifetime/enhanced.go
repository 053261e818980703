package lifetime

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/memtrace/memtrace/trace"
)

// This file is the second pass over a trace, MemInsight's
// EnhancedTraceAnalysisRunner: the trace is read again together with the
// tables the streaming staleness client wrote (lastuse-trace,
// unreachable-trace, updiid-trace), and each table record is delivered at
// its time. Its clients are the allocation-site statistics (SiteStats) and
// the per-site summary (Summary).

// noPrototype returns names without the trace.NoPrototypeMarker and
// whether it was there.
func noPrototype(names []string) ([]string, bool) {
	if len(names) > 0 && names[0] == trace.NoPrototypeMarker {
		return names[1:], true
	}
	return names, false
}

// iterationSkipper is implemented by the clients that leave out synthetic
// iteration scopes: their function objects are not created and their
// entries and exits are not invocations.
type iterationSkipper interface {
	skipsIterations()
}

// enhancedClient receives the second pass's events.
type enhancedClient interface {
	// begin is called before the first entry with the pass's source map.
	begin(src *sourceMap)
	create(id int32, site Loc, time int64)
	putField(base, val int32)
	write(val int32)
	// enter is a call (site = the call site, LocUnknown for
	// FUNCTION_ENTER; fn = the function's enter location) or a script
	// entry (site and fn = its own location).
	enter(site, fn Loc)
	exit()
	lastUse(id int32, site Loc, time int64)
	// unreachable delivers the unreachable-trace records of one time as a
	// group, with the first record's site.
	unreachable(site Loc, ids []int32, time int64)
	// tick is called after each counted entry's table records.
	tick(time int64)
	end(src *sourceMap) error
	failed() error
}

// TableRecord is one record of lastuse-trace or unreachable-trace: 20
// bytes, big-endian int32 id, int64 time, int32 sid, int32 iid.
type TableRecord struct {
	ID   int32
	Time int64
	Site Loc
}

// UpdIIDRecord is one record of updiid-trace: 12 bytes, big-endian int32
// id, int32 sid, int32 iid.
type UpdIIDRecord struct {
	ID   int32
	Site Loc
}

// TableReader reads lastuse-trace or unreachable-trace records. Like
// MemInsight, it treats a truncated last record as the end.
type TableReader struct {
	r   *bufio.Reader
	buf [20]byte
}

// NewTableReader returns a reader of 20-byte table records.
func NewTableReader(r io.Reader) *TableReader {
	return &TableReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next record; ok is false at the end.
func (t *TableReader) Next() (rec TableRecord, ok bool, err error) {
	if t == nil || t.r == nil {
		return rec, false, nil
	}
	if _, err := io.ReadFull(t.r, t.buf[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return rec, false, nil
		}
		return rec, false, err
	}
	b := t.buf[:]
	return TableRecord{
		ID:   int32(binary.BigEndian.Uint32(b)),
		Time: int64(binary.BigEndian.Uint64(b[4:])),
		Site: getLoc(b[12:]),
	}, true, nil
}

// UpdIIDReader reads updiid-trace records.
type UpdIIDReader struct {
	r   *bufio.Reader
	buf [12]byte
}

// NewUpdIIDReader returns a reader of 12-byte updiid-trace records.
func NewUpdIIDReader(r io.Reader) *UpdIIDReader {
	return &UpdIIDReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next record; ok is false at the end.
func (u *UpdIIDReader) Next() (rec UpdIIDRecord, ok bool, err error) {
	if u == nil || u.r == nil {
		return rec, false, nil
	}
	if _, err := io.ReadFull(u.r, u.buf[:]); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return rec, false, nil
		}
		return rec, false, err
	}
	return UpdIIDRecord{ID: int32(binary.BigEndian.Uint32(u.buf[:])), Site: getLoc(u.buf[4:])}, true, nil
}

// EnhancedTables are the inputs of the second pass besides the trace.
type EnhancedTables struct {
	LastUse, Unreachable, UpdIID io.Reader
}

type enhancedRunner struct {
	src            sourceMap
	curSID         int32
	lu, un         *TableReader
	upd            *UpdIIDReader
	nextLU, nextUN *TableRecord
	nextUpd        *UpdIIDRecord
	cs             []enhancedClient
	group          []int32
	err            error
	iter           map[int32]bool // Fe iids of synthetic iteration scopes
	resume         map[int32]bool // Fe iids of resume functions
	noProto        map[int32]bool // Fe iids of functions without a prototype
	keepProtos     bool           // Options.MemInsightPrototypes
}

func (e *enhancedRunner) advanceLU() {
	r, ok, err := e.lu.Next()
	e.setErr(err)
	e.nextLU = nil
	if ok {
		e.nextLU = &r
	}
}

func (e *enhancedRunner) advanceUN() {
	r, ok, err := e.un.Next()
	e.setErr(err)
	e.nextUN = nil
	if ok {
		e.nextUN = &r
	}
}

func (e *enhancedRunner) advanceUpd() {
	r, ok, err := e.upd.Next()
	e.setErr(err)
	e.nextUpd = nil
	if ok {
		e.nextUpd = &r
	}
}

func (e *enhancedRunner) setErr(err error) {
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("lifetime: enhanced trace: %w", err)
	}
}

// handleTime delivers the table records of time now. As in MemInsight, a
// record is delivered only at exactly its time; the tables are sorted, so
// a record whose time has passed blocks the ones after it.
func (e *enhancedRunner) handleTime(now int64) {
	for e.nextLU != nil && e.nextLU.Time == now {
		for _, c := range e.cs {
			c.lastUse(e.nextLU.ID, e.nextLU.Site, now)
		}
		e.advanceLU()
	}
	if e.nextUN != nil && e.nextUN.Time == now {
		site := e.nextUN.Site
		g := e.group[:0]
		for e.nextUN != nil && e.nextUN.Time == now {
			g = append(g, e.nextUN.ID)
			e.advanceUN()
		}
		for _, c := range e.cs {
			c.unreachable(site, g, now)
		}
		e.group = g[:0]
	}
	for _, c := range e.cs {
		c.tick(now)
	}
}

func (e *enhancedRunner) create(id int32, site Loc, now int64) {
	for _, c := range e.cs {
		c.create(id, site, now)
	}
}

// runEnhanced runs the second pass over the trace read from r.
// keepProtos is Options.MemInsightPrototypes.
func runEnhanced(r io.Reader, tabs EnhancedTables, keepProtos bool, cs ...enhancedClient) error {
	e := &enhancedRunner{src: newSourceMap(), curSID: -1, cs: cs, keepProtos: keepProtos}
	if tabs.LastUse != nil {
		e.lu = NewTableReader(tabs.LastUse)
	}
	if tabs.Unreachable != nil {
		e.un = NewTableReader(tabs.Unreachable)
	}
	if tabs.UpdIID != nil {
		e.upd = NewUpdIIDReader(tabs.UpdIID)
	}
	e.advanceLU()
	e.advanceUN()
	e.advanceUpd()
	for _, c := range cs {
		c.begin(&e.src)
	}
	tr := trace.NewReader(r)
	var errs []error
	for {
		en, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("lifetime: %w", err)
		}
		if e.err != nil {
			return e.err
		}
		now := tr.Time()
		loc := Loc{e.curSID, en.IID}
		switch en.Kind {
		case trace.CreateObj:
			site := loc
			if e.nextUpd != nil && e.nextUpd.ID == en.Obj {
				site = e.nextUpd.Site
				e.advanceUpd()
			}
			e.create(en.Obj, site, now)
		case trace.CreateDOMNode:
			e.create(en.Obj, loc, now)
		case trace.FreeVars:
			if len(en.Names) > 0 && en.Names[0] == trace.IterationMarker {
				if e.iter == nil {
					e.iter = map[int32]bool{}
				}
				e.iter[en.IID] = true
			}
			if len(en.Names) > 0 && en.Names[0] == trace.ResumeMarker {
				if e.resume == nil {
					e.resume = map[int32]bool{}
				}
				e.resume[en.IID] = true
			}
			if _, no := noPrototype(en.Names); no || e.noProto[en.IID] {
				if e.noProto == nil {
					e.noProto = map[int32]bool{}
				}
				e.noProto[en.IID] = no && !e.keepProtos
			}
		case trace.CreateFun:
			if e.iter[en.FunIID] || e.resume[en.FunIID] {
				for _, c := range e.cs {
					if _, ok := c.(iterationSkipper); !ok {
						c.create(en.Obj, loc, now)
						c.create(en.Obj+1, loc, now)
					}
				}
				break
			}
			e.create(en.Obj, loc, now)
			if !e.noProto[en.FunIID] {
				e.create(en.Obj+1, loc, now)
			}
		case trace.PutField:
			for _, c := range e.cs {
				c.putField(en.Base, en.Obj)
			}
		case trace.Write:
			for _, c := range e.cs {
				c.write(en.Obj)
			}
		case trace.Call:
			fn := Loc{en.SID, en.FunIID}
			for _, c := range e.cs {
				c.enter(loc, fn)
			}
		case trace.FunctionEnter:
			it := e.iter[en.IID]
			for _, c := range e.cs {
				if _, ok := c.(iterationSkipper); !it || !ok {
					c.enter(LocUnknown, loc)
				}
			}
		case trace.FunctionExit:
			e.handleTime(now)
			it := e.iter[en.IID]
			for _, c := range e.cs {
				if _, ok := c.(iterationSkipper); !it || !ok {
					c.exit()
				}
			}
		case trace.ScriptEnter:
			e.src.scripts[en.SID] = en.Name
			for _, c := range e.cs {
				c.enter(Loc{en.SID, en.IID}, Loc{en.SID, en.IID})
			}
		case trace.ScriptExit:
			for _, c := range e.cs {
				c.exit()
			}
		case trace.SourceMapping:
			if e.src.get(loc) == nil {
				if file, ok := e.src.scripts[loc.SID]; ok {
					e.src.put(loc, newLocation(file, en.Range))
				}
			}
		case trace.UpdateCurrentScript:
			e.curSID = en.SID
		}
		if !en.Kind.IsMeta() && en.Kind != trace.FunctionExit {
			e.handleTime(now)
		}
		// A client that failed (where MemInsight's analysis would have
		// thrown) is dropped; the others go on.
		j := 0
		for _, c := range e.cs {
			if err := c.failed(); err != nil {
				errs = append(errs, &trace.FormatError{Offset: tr.Offset(), Index: tr.Index(), Msg: err.Error()})
				continue
			}
			e.cs[j] = c
			j++
		}
		e.cs = e.cs[:j]
	}
	if e.err != nil {
		return e.err
	}
	for _, c := range e.cs {
		if err := c.end(&e.src); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
