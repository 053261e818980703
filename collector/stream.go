package collector

import (
	"fmt"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// streamCheck runs a session's bytes through the trace package's
// streaming checker as chunks arrive: each chunk is checked where it lies
// (only an entry split between chunks is copied), before it is written.
type streamCheck struct {
	s     *trace.Stream
	done  bool // a violation was found, or the stream ended
	final feedResult
}

type feedResult struct {
	violation *tracedir.Violation // the first broken rule, nil if none
	entries   int64               // whole entries checked (before a violation)
	end       int64               // byte offset after them
	// At the end of the stream only: why the trace is not whole ("" if
	// it is): it ends inside an entry, or an end-of-trace rule is broken.
	incomplete string
	warnings   int64
}

func newStreamCheck() *streamCheck {
	s := trace.NewStream()
	s.StopAtError = true
	s.Checker().MaxFindings = 8
	return &streamCheck{s: s}
}

func (c *streamCheck) progress() feedResult {
	return feedResult{entries: c.s.Entries(), end: c.s.End(), warnings: c.s.Checker().Warnings()}
}

// Feed checks chunk b (b is the caller's again when Feed returns) and
// returns the progress, with the first violation if this chunk (or one
// before it, for an entry that spans chunks) holds it. After a violation,
// Feed returns it again without reading b.
func (c *streamCheck) Feed(b []byte) feedResult {
	if c.done {
		return c.final
	}
	if !c.s.Feed(b) {
		res := c.progress()
		f := c.s.Fault()
		res.violation = &tracedir.Violation{Index: f.Index, Offset: f.Offset, Rule: string(f.Rule), Message: f.Msg}
		c.done, c.final = true, res
		return res
	}
	return c.progress()
}

// End ends the stream and returns the end-of-trace result.
func (c *streamCheck) End() feedResult {
	if c.done {
		return c.final
	}
	c.done = true
	c.s.Finish()
	res := c.progress()
	switch f, broken := c.s.FirstError(); {
	case c.s.Truncated():
		res.incomplete = fmt.Sprintf("the trace ends inside entry %d (at byte %d)", c.s.Entries(), c.s.End())
	case broken:
		res.incomplete = fmt.Sprintf("the trace breaks a rule at its end: %s (%s)", f.Msg, f.Rule)
	}
	c.final = res
	return res
}

// Abandon drops the check without a verdict.
func (c *streamCheck) Abandon() { c.done = true }
