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
	e.Reset()
	e.Kind = Kind(r.buf[r.r])
	p := 1
	var err error
	switch e.Kind {
	case Declare, Write:
		if e.IID, p, err = r.int32At(p); err == nil {
			if e.Name, p, err = r.stringAt(p); err == nil {
				e.Obj, p, err = r.int32At(p)
			}
		}
	case CreateObj, CreateDOMNode, Debug, FunctionEnter:
		if err = r.need(p + 8); err == nil {
			e.IID = r.i32(p)
			e.Obj = r.i32(p + 4)
			p += 8
		}
	case CreateFun:
		if err = r.need(p + 12); err == nil {
			e.IID = r.i32(p)
			e.FunIID = r.i32(p + 4)
			e.Obj = r.i32(p + 8)
			p += 12
		}
	case PutField, AddToChildSet, RemoveFromChildSet:
		if err = r.need(p + 8); err == nil {
			e.IID = r.i32(p)
			e.Base = r.i32(p + 4)
			p += 8
			if e.Name, p, err = r.stringAt(p); err == nil {
				e.Obj, p, err = r.int32At(p)
			}
		}
	case LastUse:
		if err = r.need(p + 8); err == nil {
			e.Obj = r.i32(p)
			e.UseTime = r.i32(p + 4)
			p += 8
			e.Name, p, err = r.stringAt(p)
		}
	case FunctionExit, ScriptExit:
		e.IID, p, err = r.int32At(p)
	case Return, DOMRoot:
		e.Obj, p, err = r.int32At(p)
	case UpdateCurrentScript:
		e.SID, p, err = r.int32At(p)
	case TopLevelFlush:
		e.Name, p, err = r.stringAt(p)
	case UpdateIID:
		if err = r.need(p + 8); err == nil {
			e.Obj = r.i32(p)
			e.IID = r.i32(p + 4)
			p += 8
		}
	case AddDOMChild, RemoveDOMChild:
		if err = r.need(p + 8); err == nil {
			e.Base = r.i32(p)
			e.Obj = r.i32(p + 4)
			p += 8
		}
	case Call:
		if err = r.need(p + 16); err == nil {
			e.IID = r.i32(p)
			e.Obj = r.i32(p + 4)
			e.FunIID = r.i32(p + 8)
			e.SID = r.i32(p + 12)
			p += 16
		}
	case ScriptEnter:
		if err = r.need(p + 8); err == nil {
			e.IID = r.i32(p)
			e.SID = r.i32(p + 4)
			p += 8
			e.Name, p, err = r.stringAt(p)
		}
	case FreeVars:
		p, err = r.freeVars(p)
	case SourceMapping:
		if err = r.need(p + 20); err == nil {
			e.IID = r.i32(p)
			e.Range = [4]int32{r.i32(p + 4), r.i32(p + 8), r.i32(p + 12), r.i32(p + 16)}
			p += 20
		}
	case EndLastUse, Unreachable:
	default:
		err = formatMsg(fmt.Sprintf("unknown entry type %d (valid types are 0-%d)", uint8(e.Kind), NumKinds-1))
	}
	if err != nil {
		return nil, r.fail(err)
	}
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

func (r *Reader) i32(p int) int32 {
	return int32(binary.BigEndian.Uint32(r.buf[r.r+p:]))
}

func (r *Reader) int32At(p int) (int32, int, error) {
	if err := r.need(p + 4); err != nil {
		return 0, p, err
	}
	return r.i32(p), p + 4, nil
}

func (r *Reader) stringAt(p int) (string, int, error) {
	if err := r.need(p + 4); err != nil {
		return "", p, err
	}
	n := r.i32(p)
	switch {
	case n < 0:
		return "", p, formatMsg(fmt.Sprintf("bad string length %d in %s entry (negative)", n, r.e.Kind))
	case n%2 != 0:
		return "", p, formatMsg(fmt.Sprintf("bad string length %d in %s entry (odd; UTF-16 code units take 2 bytes)", n, r.e.Kind))
	case int(n) > r.MaxString:
		return "", p, formatMsg(fmt.Sprintf("bad string length %d in %s entry (over the limit of %d bytes)", n, r.e.Kind, r.MaxString))
	}
	p += 4
	if err := r.need(p + int(n)); err != nil {
		return "", p, err
	}
	raw := r.buf[r.r+p : r.r+p+int(n)]
	return r.str(raw), p + int(n), nil
}

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

func (r *Reader) freeVars(p int) (int, error) {
	e := &r.e
	if err := r.need(p + 8); err != nil {
		return p, err
	}
	e.IID = r.i32(p)
	count := r.i32(p + 4)
	p += 8
	var err error
	switch {
	case count == -1:
		e.AnyVars = true
		e.Name, p, err = r.stringAt(p)
		return p, err
	case count < 0:
		return p, formatMsg(fmt.Sprintf("bad FREE_VARS count %d (must be -1 for ANY, or a count)", count))
	case count > MaxFreeVars:
		return p, formatMsg(fmt.Sprintf("bad FREE_VARS count %d (over the limit of %d)", count, MaxFreeVars))
	}
	for i := int32(0); i < count; i++ {
		var s string
		if s, p, err = r.stringAt(p); err != nil {
			return p, err
		}
		e.Names = append(e.Names, s)
	}
	if e.Names == nil {
		e.Names = []string{}
	}
	return p, nil
}

// need makes sure the first n bytes of the current entry are buffered.
func (r *Reader) need(n int) error {
	if r.w-r.r >= n {
		return nil
	}
	return r.fill(n)
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
