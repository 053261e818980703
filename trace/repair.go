package trace

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Repaired says what Repair did to a trace.
type Repaired struct {
	// Cut is the number of bytes removed from the end: a partial entry,
	// or a RETURN whose FUNCTION_EXIT never came.
	Cut int64
	// Closed is true when an END_LAST_USE was appended to close a last-use
	// block the trace ended in.
	Closed bool
	// Bytes and Entries describe the trace after the repair.
	Bytes, Entries int64
}

// Changed reports whether Repair changed the file.
func (r Repaired) Changed() bool { return r.Cut > 0 || r.Closed }

func (r Repaired) String() string {
	switch {
	case r.Cut > 0 && r.Closed:
		return fmt.Sprintf("cut %d bytes of an unfinished entry and closed the last-use block it ended in", r.Cut)
	case r.Cut > 0:
		return fmt.Sprintf("cut %d bytes of an unfinished entry", r.Cut)
	case r.Closed:
		return "closed the last-use block it ended in"
	}
	return "nothing to repair"
}

// Repair makes a trace that a killed process left behind end cleanly: it
// keeps the longest prefix of whole entries that ends outside a RETURN
// awaiting its FUNCTION_EXIT, and closes a last-use block left open with
// END_LAST_USE, so that the end-of-trace rules of the Checker hold. It
// never changes a byte it keeps. A trace that is malformed before its end
// (an error that is not a truncation) is left alone and reported.
func Repair(path string) (Repaired, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return Repaired{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Repaired{}, err
	}
	size := st.Size()

	r := NewReader(f)
	var (
		inBlock     bool
		afterReturn bool
		clean       int64 // end of the last entry after which the trace may end
		cleanN      int64
		blockEnd    int64 // end of the last LAST_USE of the block open at the end
		blockN      int64
		n           int64
	)
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				return Repaired{}, err
			}
			if !fe.Truncated {
				return Repaired{}, fmt.Errorf("%s: not a truncation, left alone: %w", path, err)
			}
			break
		}
		n++
		switch e.Kind {
		case LastUse:
			inBlock = true
			blockEnd, blockN = r.End(), n
		case EndLastUse:
			inBlock = false
		case Return:
			afterReturn = true
		default:
			if e.Kind == FunctionExit {
				afterReturn = false
			}
			if inBlock {
				// A block interrupted by a counted entry breaks a rule
				// already; keep what is before it.
				inBlock = false
			}
		}
		if !inBlock && !afterReturn {
			clean, cleanN = r.End(), n
		}
	}
	out := Repaired{Bytes: clean, Entries: cleanN}
	end := clean
	if inBlock && !afterReturn && blockEnd > clean {
		end = blockEnd
		out.Closed = true
		out.Bytes, out.Entries = blockEnd+1, blockN+1
	}
	out.Cut = size - end
	if !out.Changed() {
		return out, nil
	}
	if err := f.Truncate(end); err != nil {
		return Repaired{}, err
	}
	if out.Closed {
		if _, err := f.WriteAt([]byte{byte(EndLastUse)}, end); err != nil {
			return Repaired{}, err
		}
	}
	return out, f.Sync()
}
