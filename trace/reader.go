package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unsafe"
)

// FormatError reports bytes that are not a well-formed trace. Offset is the
// byte offset of the start of the entry at fault, Index its 0-based position
// among all entries.
type FormatError struct {
	Offset int64
	Index  int64
	Msg    string
	// Truncated is true when the input ends inside the entry.
	Truncated bool
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("entry %d at byte offset %d: %s", e.Index, e.Offset, e.Msg)
}

// Limits that keep a Reader's memory bounded on arbitrary input.
const (
	// DefaultMaxString is the default limit on one string's byte length.
	DefaultMaxString = 16 << 20
	// MaxFreeVars is the largest FREE_VARS name count accepted.
	MaxFreeVars = 1 << 20

	minBufSize   = 64 << 10
	internMaxLen = 256     // raw bytes; longer strings are not interned
	internMax    = 1 << 16 // distinct interned strings per reader
)

// Reader decodes a trace from a byte stream, one entry at a time, in
// constant memory (apart from the longest string it meets, and a bounded
// cache of recurring strings). It does not check the rules of Check; it
// only decodes, and reports bytes it cannot decode as a *FormatError.
type Reader struct {
	src    io.Reader
	srcErr error
	buf    []byte
	r, w   int   // unread bytes are buf[r:w]
	base   int64 // stream offset of buf[0]

	err     error // sticky decoding error
	index   int64 // index of the last entry returned, -1 before the first
	offset  int64 // stream offset of the last entry returned
	time    int64 // logical time of the last entry returned
	counted int64 // counted (non-metadata) entries returned so far

	e         Entry
	intern    map[string]internEntry
	strCache  *[1 << strCacheBits]strCacheEntry
	zeroReads int

	// MaxString bounds the byte length of one string; a longer string is a
	// FormatError. Set it before the first call to Next.
	MaxString int
}

// NewReader returns a Reader that decodes src. It buffers src itself.
func NewReader(src io.Reader) *Reader {
	return &Reader{
		src:       src,
		buf:       make([]byte, minBufSize),
		index:     -1,
		time:      -1,
		intern:    make(map[string]internEntry),
		strCache:  new([1 << strCacheBits]strCacheEntry),
		MaxString: DefaultMaxString,
	}
}

// Index returns the 0-based index of the entry last returned by Next.
func (r *Reader) Index() int64 { return r.index }

// Offset returns the byte offset at which the entry last returned by Next
// starts.
func (r *Reader) Offset() int64 { return r.offset }

// End returns the byte offset just after the entry last returned by Next,
// which is the number of bytes decoded so far.
func (r *Reader) End() int64 { return r.base + int64(r.r) }

// Time returns the logical time of the entry last returned by Next (spec
// 1.4): for a counted entry, its 0-based index among counted entries; for
// a metadata entry, the time of the latest counted entry before it (-1 if
// there is none).
func (r *Reader) Time() int64 { return r.time }

// Counted returns the number of counted (time-advancing) entries read.
func (r *Reader) Counted() int64 { return r.counted }

// Next decodes the next entry. The returned Entry is owned by the Reader and
// is valid until the next call; use Clone to keep it. At the clean end of
// the stream Next returns io.EOF; on bytes it cannot decode, a *FormatError;
// on a failure of the underlying reader, that error wrapped with the offset.
// Errors are sticky.
func (r *Reader) Next() (*Entry, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.r == r.w {
		if err := r.fill(1); err != nil {
			if r.r == r.w && errors.Is(err, io.EOF) {
				r.err = io.EOF
				return nil, io.EOF
			}
			r.offset = r.base + int64(r.r)
			return nil, r.fail(err)
		}
	}
	r.index++
	r.offset = r.base + int64(r.r)
	e := &r.e
	var (
		n   int
		raw []byte
	)
	for {
		e.Reset()
		var need int
		var err error
		n, raw, need, err = scanEntry(r.buf[r.r:r.w], e, r.MaxString)
		if err == nil {
			break
		}
		if err == errShort {
			err = r.fill(need)
		}
		if err != nil {
			return nil, r.fail(err)
		}
	}
	switch e.Kind {
	case Declare, Write, PutField, AddToChildSet, RemoveFromChildSet, LastUse, TopLevelFlush, ScriptEnter:
		e.Name = r.str(raw)
	case FreeVars:
		if e.AnyVars {
			e.Name = r.str(raw)
		} else {
			if e.Names == nil {
				e.Names = []string{}
			}
			freeVarNames(raw, func(b []byte) { e.Names = append(e.Names, r.str(b)) })
		}
	}
	p := n
	r.r += p
	if e.Kind.IsMeta() {
		r.time = r.counted - 1
	} else {
		r.time = r.counted
		r.counted++
	}
	return e, nil
}

// errTruncated marks a stream that ends inside an entry.
var errTruncated = errors.New("truncated")

func (r *Reader) fail(err error) error {
	var msg formatMsg
	var ioe ioError
	switch {
	case errors.Is(err, errTruncated):
		r.err = &FormatError{Offset: r.offset, Index: r.index,
			Msg: fmt.Sprintf("truncated %s entry: the stream ends %d bytes into it", r.e.Kind, r.w-r.r), Truncated: true}
	case errors.As(err, &msg):
		r.err = &FormatError{Offset: r.offset, Index: r.index, Msg: string(msg)}
	case errors.As(err, &ioe):
		r.err = fmt.Errorf("reading trace at byte offset %d: %w", r.base+int64(r.w), ioe.err)
	default:
		r.err = fmt.Errorf("reading trace at byte offset %d: %w", r.base+int64(r.w), err)
	}
	return r.err
}

// formatMsg is an error about the bytes themselves.
type formatMsg string

func (m formatMsg) Error() string { return string(m) }

// ioError wraps a failure of the underlying io.Reader.
type ioError struct{ err error }

func (e ioError) Error() string { return e.err.Error() }
func (e ioError) Unwrap() error { return e.err }

// str decodes a string, interning short ones. A direct-mapped cache keyed
// by the raw bytes' first and last 8 bytes answers most lookups without
// hashing the whole string into the map; those two words identify raw
// strings of up to 16 bytes (8 code units) without a comparison.
func (r *Reader) str(raw []byte) string {
	n := len(raw)
	if n > internMaxLen {
		return decodeUTF16LE(raw)
	}
	var a, b uint64
	switch {
	case n >= 8:
		a = binary.LittleEndian.Uint64(raw)
		b = binary.LittleEndian.Uint64(raw[n-8:])
	case n >= 4:
		a = uint64(binary.LittleEndian.Uint32(raw))
		b = uint64(binary.LittleEndian.Uint32(raw[n-4:]))
	case n == 2:
		a = uint64(raw[0]) | uint64(raw[1])<<8
	}
	h := (a*0x9E3779B97F4A7C15 ^ b ^ uint64(n)) * 0xBF58476D1CE4E5B9
	c := &r.strCache[h>>(64-strCacheBits)]
	if c.a == a && c.b == b && int(c.n) == n+1 && (n <= 16 || unsafe.String(c.raw, n) == string(raw)) {
		return c.s
	}
	if v, ok := r.intern[string(raw)]; ok {
		*c = strCacheEntry{a: a, b: b, n: int32(n + 1), s: v.s, raw: unsafe.StringData(v.raw)}
		return v.s
	}
	s := decodeUTF16LE(raw)
	if len(r.intern) < internMax {
		v := internEntry{raw: string(raw), s: s}
		r.intern[v.raw] = v
		*c = strCacheEntry{a: a, b: b, n: int32(n + 1), s: v.s, raw: unsafe.StringData(v.raw)}
	}
	return s
}

const strCacheBits = 11

// internEntry is an interned string with its raw UTF-16LE bytes.
type internEntry struct {
	raw, s string
}

type strCacheEntry struct {
	a, b uint64 // the raw bytes' first and last 8 (or 4) bytes
	n    int32  // raw length+1; 0 = empty slot
	s    string
	raw  *byte // the interned raw bytes, compared when n > 16
}

// fill reads until buf[r:w] holds at least n bytes. The buffer grows only
// as data arrives, so a bogus length in a short stream costs no memory.
func (r *Reader) fill(n int) error {
	for r.w-r.r < n {
		if r.srcErr != nil {
			if errors.Is(r.srcErr, io.EOF) {
				if r.w == r.r {
					return io.EOF
				}
				return errTruncated
			}
			return ioError{r.srcErr}
		}
		if r.w == len(r.buf) {
			if r.r > 0 {
				copy(r.buf, r.buf[r.r:r.w])
				r.base += int64(r.r)
				r.w -= r.r
				r.r = 0
			} else {
				nb := make([]byte, 2*len(r.buf))
				copy(nb, r.buf[:r.w])
				r.buf = nb
			}
		}
		m, err := r.src.Read(r.buf[r.w:])
		if m < 0 || m > len(r.buf)-r.w {
			err = errors.New("invalid count from underlying reader")
			m = 0
		}
		r.w += m
		if err != nil {
			r.srcErr = err
		} else if m == 0 {
			// Guard against a reader that returns 0, nil forever.
			r.zeroReads++
			if r.zeroReads > 100 {
				r.srcErr = io.ErrNoProgress
			}
		} else {
			r.zeroReads = 0
		}
	}
	return nil
}
