package body

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// ErrTooLarge is Decode's error for a body whose decoded size exceeds the
// limit. Decode stops reading as soon as it knows (after limit+1 decoded
// bytes), so a decompression bomb costs no more than the limit.
var ErrTooLarge = errors.New("body: the decoded body exceeds the size limit")

// UnknownEncodingError is Decode's error for a content coding it does not
// implement. Encoding is the coding as the header spelled it.
type UnknownEncodingError struct {
	Encoding string
}

func (e *UnknownEncodingError) Error() string {
	return fmt.Sprintf("body: unknown content coding %q", e.Encoding)
}

// CorruptError is Decode's error for data that is not valid in the content
// coding it is labelled with: a bad header or checksum, a truncated
// stream, a zstd window larger than browsers accept. Encoding is the
// coding's canonical name ("gzip", "deflate", "br", "zstd"); Err is the
// decompressor's own error.
type CorruptError struct {
	Encoding string
	Err      error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("body: corrupt %s data: %v", e.Encoding, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// zstdMaxWindow is the largest zstd window Decode accepts: 8 MiB, the
// limit RFC 9659 sets for the "zstd" content coding and the one browsers
// enforce. The window is the only memory of the decoder's that the input
// chooses, so this bounds it whatever the limit; a frame that asks for
// more is refused, as a browser would refuse it.
const zstdMaxWindow = 8 << 20

// Decode undoes the content codings that the Content-Encoding header value
// encoding lists and returns the decoded body, read from r.
//
// The header lists the codings in the order they were applied (RFC 9110
// §8.4), so Decode undoes them last first: "deflate, br" is brotli over
// deflate. Names are case-insensitive; "identity" and empty list elements
// mean nothing, so "" and "identity" return the body as it is. Supported:
// gzip (alias x-gzip), deflate, br and zstd. Decode checks the whole list
// before it reads anything: an unknown coding anywhere in it is an
// *UnknownEncodingError.
//
// A browser's reading is the model where the formats leave room:
//   - deflate is zlib-wrapped as RFC 9110 says, or raw deflate as some
//     servers send it and browsers accept; Decode tells them apart by the
//     zlib header (RFC 1950's compression method and header check).
//   - gzip decodes its first member only and ignores whatever follows it,
//     as browsers do (they neither show a second member nor fail on
//     trailing garbage).
//   - an empty body decodes to an empty body in every coding (the empty
//     bodies of HEAD, 204 and 304 responses often carry the header).
//
// limit bounds the decoded size (a negative limit counts as 0): a body
// that would decode to more than limit bytes is ErrTooLarge, found after
// reading at most limit+1 decoded bytes. Every decompressor streams, so
// memory stays within the limit plus each coding's window (32 KiB for
// gzip and deflate, at most 16 MiB for br, 8 MiB for zstd).
//
// Data that is invalid in its coding is a *CorruptError naming the
// coding; an error from r itself is returned wrapped, as it is (errors.Is
// finds it). Decode does not close r.
func Decode(encoding string, r io.Reader, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = 0
	}
	codings, err := parseCodings(encoding)
	if err != nil {
		return nil, err
	}

	// A chain of taps, one over the body and one over each decoder's
	// output, each remembering the first error that passed through it.
	// When something fails, the tap nearest the body that saw an error
	// says whose fault it was: the body's reader, or the first decoder
	// that failed on its own (the decoders after it merely passed the
	// error on, perhaps rewrapped).
	taps := []*tap{{r: r}}
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	fail := func(err error) error {
		if taps[0].err != nil {
			return fmt.Errorf("body: reading the body: %w", taps[0].err)
		}
		for i, t := range taps[1:] {
			if t.err != nil {
				return corrupt(codings[len(codings)-1-i], t.err)
			}
		}
		if i := len(codings) - len(taps); i >= 0 {
			return corrupt(codings[i], err) // a constructor's own failure
		}
		return fmt.Errorf("body: %w", err)
	}
	for i := len(codings) - 1; i >= 0; i-- {
		in := taps[len(taps)-1]
		dec, closer, err := newDecoder(codings[i], in)
		if err != nil {
			// A constructor that reads (gzip's and zlib's read the
			// header) fails for its input's error or for its own.
			return nil, fail(err)
		}
		if closer != nil {
			closers = append(closers, closer)
		}
		taps = append(taps, &tap{r: dec})
	}

	out, err := io.ReadAll(io.LimitReader(taps[len(taps)-1], limit+1))
	if err != nil {
		return nil, fail(err)
	}
	if int64(len(out)) > limit {
		return nil, ErrTooLarge
	}
	return out, nil
}

// parseCodings splits a Content-Encoding value into canonical coding
// names, dropping identity and empty elements, or reports the first
// unknown one.
func parseCodings(header string) ([]string, error) {
	var codings []string
	for _, elem := range strings.Split(header, ",") {
		name := strings.Trim(elem, " \t")
		switch asciiLower(name) {
		case "", "identity":
		case "gzip", "x-gzip":
			codings = append(codings, "gzip")
		case "deflate":
			codings = append(codings, "deflate")
		case "br":
			codings = append(codings, "br")
		case "zstd":
			codings = append(codings, "zstd")
		default:
			return nil, &UnknownEncodingError{Encoding: name}
		}
	}
	return codings, nil
}

// newDecoder returns a reader of coding's decoding of in, and what must
// run when Decode is done with it.
func newDecoder(coding string, in io.Reader) (io.Reader, func(), error) {
	br := bufio.NewReader(in)
	head, err := br.Peek(2)
	if len(head) == 0 {
		if err == io.EOF {
			return eofReader{}, nil, nil
		}
		return nil, nil, err
	}
	switch coding {
	case "gzip":
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, err
		}
		// Browsers stop after the first member; Go would go on to the
		// next member, or fail on trailing bytes that are not one.
		zr.Multistream(false)
		return zr, nil, nil
	case "deflate":
		if isZlibHeader(head) {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return nil, nil, err
			}
			return zr, nil, nil
		}
		fr := flate.NewReader(br)
		return fr, func() { fr.Close() }, nil
	case "br":
		return brotli.NewReader(br), nil, nil
	case "zstd":
		// One decoder goroutine-free (concurrency 1 decodes in the
		// caller's goroutine), its window capped; Close releases it.
		zr, err := zstd.NewReader(br,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxWindow(zstdMaxWindow),
			zstd.WithDecoderMaxMemory(zstdMaxWindow),
		)
		if err != nil {
			return nil, nil, err
		}
		return zstdReader{zr}, zr.Close, nil
	}
	panic("body: no decoder for " + coding) // parseCodings lets no other name through
}

// isZlibHeader reports whether a deflate body starts with a zlib header
// (RFC 1950 §2.2): compression method 8 with a window of at most 32 KiB,
// and the two bytes, read as a big-endian number, a multiple of 31. Raw
// deflate data can start with such bytes only by chance: a stored block
// whose first byte has these values, and a check that holds for 1 pair in
// 31.
func isZlibHeader(b []byte) bool {
	if len(b) < 2 {
		return false
	}
	cmf, flg := b[0], b[1]
	return cmf&0x0f == 8 && cmf>>4 <= 7 && (uint16(cmf)<<8|uint16(flg))%31 == 0
}

// zstdReader names the zstd errors that mean a window beyond the cap,
// which are otherwise worded as if the output were too large.
type zstdReader struct{ d *zstd.Decoder }

func (z zstdReader) Read(p []byte) (int, error) {
	n, err := z.d.Read(p)
	if errors.Is(err, zstd.ErrWindowSizeExceeded) || errors.Is(err, zstd.ErrDecoderSizeExceeded) {
		err = fmt.Errorf("the frame's window exceeds %d MiB, which browsers refuse: %w", zstdMaxWindow>>20, err)
	}
	return n, err
}

func corrupt(coding string, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return &CorruptError{Encoding: coding, Err: err}
}

// tap passes reads through and keeps the first error other than io.EOF.
type tap struct {
	r   io.Reader
	err error
}

func (t *tap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF && t.err == nil {
		t.err = err
	}
	return n, err
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// asciiLower lowers A-Z only: the names compared with it are ASCII, and
// Unicode case folding would make a non-ASCII letter match one (the
// Kelvin sign lowers to k).
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
