package trace

import (
	"errors"
	"fmt"
	"io"
)

// Stream checks a trace that arrives in pieces of any size, as a collector
// receives it: it decodes each entry where it lies in the piece at hand
// (only an entry split between two pieces is copied, to be completed by
// the next) and never decodes a string the rules do not read. The rules
// are the Checker's; Check is a Stream over a reader.
type Stream struct {
	// MaxString bounds one string's byte length, as the Reader's does.
	MaxString int
	// StopAtError stops the stream at the first error finding, keeping the
	// entries before it; without it the stream checks on after a broken
	// rule (as Check does) and stops only at bytes it cannot decode.
	StopAtError bool

	c         *Checker
	e         Entry
	carry     []byte // the start of an entry the last piece ended inside
	index     int64  // entries checked
	offset    int64  // their bytes
	stopped   bool
	fault     Finding // why it stopped
	undecoded bool    // it stopped at bytes it cannot decode
	truncated bool    // it ended inside an entry
}

// NewStream returns a Stream at the start of a trace.
func NewStream() *Stream {
	return &Stream{MaxString: DefaultMaxString, c: NewChecker()}
}

// Checker returns the checker the stream feeds (for its findings and
// counts; set its MaxFindings before the first Feed).
func (s *Stream) Checker() *Checker { return s.c }

// Entries returns the number of entries checked: with StopAtError, those
// before the one at fault.
func (s *Stream) Entries() int64 { return s.index }

// End returns the byte offset after the entries checked.
func (s *Stream) End() int64 { return s.offset }

// Stopped reports whether the stream stopped: at bytes it cannot decode,
// at the first error with StopAtError, or inside an entry at Finish.
func (s *Stream) Stopped() bool { return s.stopped }

// Fault returns the finding the stream stopped at (its Index and Offset
// locate the entry at fault).
func (s *Stream) Fault() Finding { return s.fault }

// Truncated reports whether Finish found the trace ending inside an entry.
func (s *Stream) Truncated() bool { return s.truncated }

// Feed checks the entries that b completes and keeps a copy of b's tail
// when b ends inside an entry; b is the caller's again when Feed returns.
// It returns false once the stream has stopped (see Stopped).
func (s *Stream) Feed(b []byte) bool {
	if s.stopped {
		return false
	}
	s.c.keepFirst = s.StopAtError
	if len(s.carry) > 0 {
		for {
			s.e.Reset()
			n, raw, need, err := scanEntry(s.carry, &s.e, s.MaxString)
			if err == nil {
				s.entry(raw, n)
				break
			}
			if err != errShort {
				s.undecodable(err)
				return false
			}
			if len(b) == 0 {
				return true
			}
			k := min(need-len(s.carry), len(b))
			s.carry = append(s.carry, b[:k]...)
			b = b[k:]
		}
		s.carry = s.carry[:0]
		if cap(s.carry) > 1<<20 {
			s.carry = nil // after a long string
		}
		if s.stopped {
			return false
		}
	}
	e := &s.e
	for len(b) > 0 {
		if k := s.fast(b); k > 0 {
			if b = b[k:]; len(b) == 0 {
				break
			}
		}
		// (No e.Reset: scanEntry sets every field of the entry's kind, and
		// nothing reads the others.)
		n, raw, _, err := scanEntry(b, e, s.MaxString)
		if err != nil {
			if err == errShort {
				s.carry = append(s.carry, b...)
				return true
			}
			s.undecodable(err)
			return false
		}
		s.entry(raw, n)
		if s.stopped {
			return false
		}
		b = b[n:]
	}
	return true
}

// entry checks the entry in s.e, n bytes long, whose string is raw.
func (s *Stream) entry(raw []byte, n int) {
	c := s.c
	c.index, c.offset = s.index, s.offset
	c.raw, c.rawName = true, raw
	before := c.errors
	c.check(&s.e)
	c.rawName = nil
	if s.StopAtError && c.errors > before {
		s.stopped, s.fault = true, c.firstError
		return
	}
	s.index++
	s.offset += int64(n)
}

func (s *Stream) undecodable(err error) {
	c := s.c
	c.index, c.offset = s.index, s.offset
	c.report(RuleFormat, "%s", err.Error())
	s.stopped, s.undecoded = true, true
	s.fault = Finding{Index: s.index, Offset: s.offset, Severity: Error, Rule: RuleFormat, Msg: err.Error()}
}

// Finish ends the stream: a trace that ends inside an entry is a format
// finding (and stops the stream); otherwise the end-of-trace rules apply.
func (s *Stream) Finish() {
	if s.stopped {
		return
	}
	if len(s.carry) > 0 {
		s.undecodable(fmt.Errorf("truncated %s entry: the stream ends %d bytes into it", Kind(s.carry[0]), len(s.carry)))
		s.truncated = true
		return
	}
	s.c.keepFirst = s.StopAtError
	s.c.Finish(s.index, s.offset)
}

// FirstError returns the first error finding, kept among the findings or
// not, when StopAtError is set (ok false when there is none).
func (s *Stream) FirstError() (f Finding, ok bool) {
	return s.c.firstError, s.StopAtError && s.c.errors > 0
}

// Report returns the result so far, as Check reports it: an entry that
// cannot be decoded counts among the entries.
func (s *Stream) Report() *Report {
	c := s.c
	entries := s.index
	if s.undecoded {
		entries++
	}
	return &Report{
		Entries:    entries,
		Bytes:      s.offset,
		Time:       c.counted - 1,
		Findings:   c.findings,
		Errors:     c.errors,
		Warnings:   c.warnings,
		OpenFrames: c.depth,
		Scripts:    int64(len(c.scripts)),
	}
}

// Check reads a whole trace from src and applies every rule. Bytes that
// cannot be decoded end the check and are reported as a RuleFormat
// finding; the error result is only for failures of src itself.
func Check(src io.Reader, maxFindings int) (*Report, error) {
	s := NewStream()
	s.c.MaxFindings = maxFindings
	buf := make([]byte, 256<<10)
	var read int64
	zero := 0
	for {
		n, err := src.Read(buf)
		if n < 0 || n > len(buf) {
			n, err = 0, errors.New("invalid count from underlying reader")
		}
		read += int64(n)
		if n > 0 {
			zero = 0
			if !s.Feed(buf[:n]) {
				break
			}
		} else if err == nil {
			if zero++; zero > 100 {
				err = io.ErrNoProgress
			}
		}
		if err == io.EOF {
			s.Finish()
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading trace at byte offset %d: %w", read, err)
		}
	}
	return s.Report(), nil
}

// fast checks in place the entries at the start of b that are of the
// common kinds and break no rule in the checker's present state, doing to
// that state what Checker.check would do. It stops before the first entry
// it cannot vouch for (a rarer kind, an entry b ends inside, one that
// would break a rule or draw a warning, anything inside a last-use block)
// and returns the bytes it consumed; the general path takes that entry.
// So its verdicts are the general path's by construction, and a test
// holds the two to the same findings on every corpus and fuzzed input.
func (s *Stream) fast(b []byte) int {
	c := s.c
	if !c.sawGlobal || c.inBlock {
		return 0
	}
	maxID, counted, depth := c.maxID, c.counted, c.depth
	implicitProto, afterReturn := c.implicitProto, c.afterReturn
	maxStr, cur := s.MaxString, c.curSID
	// The current script's mapped sites, tested inline; the general test
	// for the rest.
	var lo int64
	var bits []uint64
	if set := c.mapped.script(cur); set != nil {
		lo, bits = set.lo, set.bits
	}
	here := func(iid int32) bool {
		if k := int64(iid) - lo; k >= 0 && k>>6 < int64(len(bits)) && bits[k>>6]&(1<<(uint64(k)&63)) != 0 {
			return true
		}
		return c.siteOK(cur, iid)
	}
	p, entries := 0, int64(0)
loop:
	for len(b)-p >= 5 {
		q := b[p:]
		k := Kind(q[0])
		if afterReturn && k != FunctionExit {
			break
		}
		if k == CreateObj || k == CreateDOMNode {
			if len(q) < 9 {
				break loop
			}
			obj := be32(q[5:])
			if int64(obj) != int64(maxID)+1 || !here(be32(q[1:])) {
				break loop
			}
			maxID, implicitProto = obj, false
			p += 9
		} else if k == Declare || k == Write {
			if len(q) < 13 {
				break loop
			}
			l := be32(q[5:])
			if l < 0 || l&1 != 0 || int(l) > maxStr || len(q) < 13+int(l) {
				break loop
			}
			if obj := be32(q[9+l:]); obj < 0 || obj > maxID {
				break loop
			}
			p += 13 + int(l)
		} else if k == TopLevelFlush {
			l := be32(q[1:])
			if l < 0 || l&1 != 0 || int(l) > maxStr || len(q) < 5+int(l) {
				break loop
			}
			sid, iid, ok := c.rawSite(q[5 : 5+l])
			if !ok || !c.siteOK(sid, iid) {
				break loop
			}
			p += 5 + int(l)
		} else if k == PutField || k == AddToChildSet || k == RemoveFromChildSet {
			if len(q) < 17 {
				break loop
			}
			base := be32(q[5:])
			l := be32(q[9:])
			if base <= 0 || base > maxID || l < 0 || l&1 != 0 || int(l) > maxStr || len(q) < 17+int(l) {
				break loop
			}
			obj := be32(q[13+l:])
			if obj < 0 || obj > maxID || obj == 0 && k != PutField {
				break loop
			}
			p += 17 + int(l)
		} else if k == Call || k == FunctionEnter {
			if len(q) < 9 {
				break loop
			}
			obj := be32(q[5:])
			if obj <= 0 || obj > maxID || !c.isFunc(obj) || !here(be32(q[1:])) {
				break loop
			}
			n := 9
			if k == Call {
				if len(q) < 17 || !c.siteOK(be32(q[13:]), be32(q[9:])) {
					break loop
				}
				n = 17
			}
			depth++
			p += n
		} else if k == Return || k == DOMRoot {
			if obj := be32(q[1:]); obj <= 0 || obj > maxID {
				break loop
			}
			afterReturn = k == Return
			p += 5
		} else if k == FunctionExit {
			if depth == 0 || !here(be32(q[1:])) {
				break loop
			}
			depth--
			afterReturn = false
			p += 5
		} else if k == UpdateIID || k == Debug {
			if len(q) < 9 {
				break loop
			}
			obj, iid := be32(q[1:]), be32(q[5:])
			if k == Debug {
				obj, iid = iid, obj
			}
			if obj < 0 || obj > maxID || obj == 0 && k == UpdateIID || !here(iid) {
				break loop
			}
			p += 9
		} else {
			break loop
		}
		counted++
		entries++
	}
	c.maxID, c.counted, c.depth = maxID, counted, depth
	c.implicitProto, c.afterReturn = implicitProto, afterReturn
	s.index += entries
	s.offset += int64(p)
	return p
}
