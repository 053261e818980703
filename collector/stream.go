package collector

import (
	"errors"
	"fmt"
	"io"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// streamCheck runs a session's bytes through the trace reader and checker
// as chunks arrive. The reader pulls bytes from a source that a feed fills
// one chunk at a time; it asks for more only when its buffer holds no
// whole entry, so when it asks, every whole entry of the chunk has been
// decoded and checked: Feed returns then, or as soon as an entry breaks a
// rule. The decoding runs on a goroutine of its own, handed each chunk in
// turn (two goroutine switches per chunk).
type streamCheck struct {
	feed   chan []byte
	result chan feedResult
	done   bool // a violation was found, or the stream ended
	final  feedResult

	// The goroutine's.
	r   *trace.Reader
	c   *trace.Checker
	cur []byte
	fed bool
}

type feedResult struct {
	violation *tracedir.Violation // the first broken rule, nil if none
	entries   int64               // whole entries decoded so far
	end       int64               // byte offset after the last whole entry
	// At the end of the stream only: why the trace is not whole ("" if
	// it is): it ends inside an entry, or an end-of-trace rule is broken.
	incomplete string
	warnings   int64
}

func newStreamCheck() *streamCheck {
	s := &streamCheck{feed: make(chan []byte), result: make(chan feedResult)}
	s.r = trace.NewReader(source{s})
	s.c = trace.NewChecker()
	s.c.MaxFindings = 8
	go s.run()
	return s
}

// source is what the reader reads: the chunk in hand, then the next.
type source struct{ s *streamCheck }

func (src source) Read(p []byte) (int, error) {
	s := src.s
	for len(s.cur) == 0 {
		if s.fed {
			s.fed = false
			s.result <- s.progress()
		}
		b, ok := <-s.feed
		if !ok {
			return 0, io.EOF
		}
		s.cur, s.fed = b, true
	}
	n := copy(p, s.cur)
	s.cur = s.cur[n:]
	return n, nil
}

func (s *streamCheck) progress() feedResult {
	return feedResult{entries: s.r.Index() + 1, end: s.r.End(), warnings: s.c.Warnings()}
}

func (s *streamCheck) run() {
	defer close(s.result)
	for {
		e, err := s.r.Next()
		if err == io.EOF {
			s.c.Finish(s.r.Index()+1, s.r.End())
			res := s.progress()
			if s.c.Errors() > 0 {
				f := firstError(s.c.Findings())
				res.incomplete = fmt.Sprintf("the trace breaks a rule at its end: %s (%s)", f.Msg, f.Rule)
			}
			s.result <- res
			return
		}
		if err != nil {
			res := s.progress()
			var fe *trace.FormatError
			if errors.As(err, &fe) {
				if fe.Truncated {
					// Only at the end of the stream: the source never
					// fails otherwise.
					res.incomplete = fmt.Sprintf("the trace ends inside entry %d (at byte %d)", fe.Index, fe.Offset)
					s.result <- res
					return
				}
				res.violation = &tracedir.Violation{Index: fe.Index, Offset: fe.Offset, Rule: string(trace.RuleFormat), Message: fe.Msg}
			} else {
				res.violation = &tracedir.Violation{Index: s.r.Index() + 1, Offset: s.r.End(), Rule: string(trace.RuleFormat), Message: err.Error()}
			}
			s.drain(res)
			return
		}
		before := s.c.Errors()
		s.c.Add(e, s.r.Index(), s.r.Offset())
		if s.c.Errors() > before {
			f := firstError(s.c.Findings())
			res := s.progress()
			res.entries = s.r.Index()
			res.end = s.r.Offset()
			res.violation = &tracedir.Violation{Index: f.Index, Offset: f.Offset, Rule: string(f.Rule), Message: f.Msg}
			s.drain(res)
			return
		}
	}
}

// drain reports res for the chunk being fed and ignores any later one.
func (s *streamCheck) drain(res feedResult) {
	s.result <- res
	for range s.feed {
	}
}

func firstError(fs []trace.Finding) trace.Finding {
	for _, f := range fs {
		if f.Severity == trace.Error {
			return f
		}
	}
	if len(fs) > 0 {
		return fs[len(fs)-1]
	}
	return trace.Finding{Rule: trace.RuleFormat, Msg: "broken rule"}
}

// Feed checks chunk b (the reader copies it; b is the caller's again when
// Feed returns) and returns the progress, with the first violation if
// this chunk (or one before it, for an entry that spans chunks) holds it.
// After a violation, Feed returns it again without reading b.
func (s *streamCheck) Feed(b []byte) feedResult {
	if s.done {
		return s.final
	}
	s.feed <- b
	res := <-s.result
	if res.violation != nil {
		s.done, s.final = true, res
		close(s.feed)
	}
	return res
}

// End ends the stream and returns the end-of-trace result.
func (s *streamCheck) End() feedResult {
	if s.done {
		return s.final
	}
	s.done = true
	close(s.feed)
	s.final = <-s.result
	return s.final
}

// Abandon stops the goroutine without a verdict.
func (s *streamCheck) Abandon() {
	if !s.done {
		s.done = true
		close(s.feed)
		go func() {
			for range s.result {
			}
		}()
	}
}
