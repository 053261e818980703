package body

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"math/rand"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/require"
)

// encoders make the test bodies with the same libraries' writers.
var encoders = map[string]func(w io.Writer) io.WriteCloser{
	"gzip": func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
	"zlib": func(w io.Writer) io.WriteCloser { return zlib.NewWriter(w) },
	"flate": func(w io.Writer) io.WriteCloser {
		fw, _ := flate.NewWriter(w, flate.DefaultCompression)
		return fw
	},
	"br": func(w io.Writer) io.WriteCloser { return brotli.NewWriter(w) },
	"zstd": func(w io.Writer) io.WriteCloser {
		zw, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1))
		if err != nil {
			panic(err)
		}
		return zw
	},
}

func encode(t testing.TB, format string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := encoders[format](&b)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

// sample is text that compresses but not to nothing.
func sample(n int) []byte {
	rng := rand.New(rand.NewSource(1))
	words := []string{"memtrace ", "heap ", "<div> ", "café ", "日本語 ", "\n", "object ", "😀 "}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(words[rng.Intn(len(words))])
	}
	return b.Bytes()[:n]
}

func TestDecodeRoundTrips(t *testing.T) {
	data := sample(200_000)
	cases := []struct {
		header string
		format string // the writer that makes the body
	}{
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"GZip", "gzip"},
		{"deflate", "zlib"},  // as RFC 9110 says
		{"deflate", "flate"}, // raw, as some servers send it
		{"br", "br"},
		{"BR", "br"},
		{"zstd", "zstd"},
	}
	for _, c := range cases {
		t.Run(c.header+"/"+c.format, func(t *testing.T) {
			got, err := Decode(c.header, bytes.NewReader(encode(t, c.format, data)), int64(len(data)))
			require.NoError(t, err)
			require.Equal(t, data, got)
		})
	}
	for _, h := range []string{"", "identity", "Identity", " , identity,", "\t"} {
		got, err := Decode(h, bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err, "%q", h)
		require.Equal(t, data, got, "%q", h)
	}
}

func TestDecodeStacked(t *testing.T) {
	data := sample(50_000)
	cases := []struct {
		header  string
		formats []string // applied in this order
	}{
		{"deflate, br", []string{"zlib", "br"}},
		{"br,deflate", []string{"br", "flate"}},
		{"gzip, zstd", []string{"gzip", "zstd"}},
		{" identity , gzip ,, br ", []string{"gzip", "br"}},
		{"zstd, gzip, deflate, br", []string{"zstd", "gzip", "zlib", "br"}},
		{"gzip, gzip", []string{"gzip", "gzip"}},
	}
	for _, c := range cases {
		t.Run(c.header, func(t *testing.T) {
			body := data
			for _, f := range c.formats {
				body = encode(t, f, body)
			}
			got, err := Decode(c.header, bytes.NewReader(body), int64(len(data)))
			require.NoError(t, err)
			require.Equal(t, data, got)
		})
	}
}

// failReader fails the test if read: an unknown coding is refused before
// the body is touched.
type failReader struct{ t *testing.T }

func (f failReader) Read([]byte) (int, error) {
	f.t.Error("the body was read")
	return 0, io.EOF
}

func TestDecodeUnknown(t *testing.T) {
	for _, c := range []struct{ header, unknown string }{
		{"compress", "compress"},
		{"x-compress", "x-compress"},
		{"gzip, Foo", "Foo"},
		{"br;q=1", "br;q=1"},
		{"gzip deflate", "gzip deflate"},
		{"\u212Aoi", "\u212Aoi"},
	} {
		_, err := Decode(c.header, failReader{t}, 1<<20)
		var u *UnknownEncodingError
		require.ErrorAs(t, err, &u, c.header)
		require.Equal(t, c.unknown, u.Encoding)
		require.Contains(t, err.Error(), c.unknown)
	}
}

func TestDecodeCorrupt(t *testing.T) {
	data := sample(100_000)
	gz := encode(t, "gzip", data)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-6] ^= 0xFF // the CRC-32 in the trailer
	zl := encode(t, "zlib", data)
	badAdler := bytes.Clone(zl)
	badAdler[len(badAdler)-1] ^= 0xFF
	br := encode(t, "br", data)
	zs := encode(t, "zstd", data)
	midFlip := func(b []byte) []byte {
		b = bytes.Clone(b)
		for i := len(b) / 3; i < len(b)/3+16; i++ {
			b[i] ^= 0x5A
		}
		return b
	}
	cases := []struct {
		name, header string
		body         []byte
		coding       string // the one the error must name
	}{
		{"gzip garbage", "gzip", []byte("this is not gzip at all"), "gzip"},
		{"gzip truncated", "gzip", gz[:len(gz)/2], "gzip"},
		{"gzip header only", "gzip", gz[:5], "gzip"},
		{"gzip bad crc", "gzip", badCRC, "gzip"},
		{"gzip flipped", "gzip", midFlip(gz), "gzip"},
		{"zlib bad adler", "deflate", badAdler, "deflate"},
		{"zlib truncated", "deflate", zl[:len(zl)/2], "deflate"},
		{"raw deflate garbage", "deflate", []byte{0xFF, 0xFF, 0xFF, 0xFF}, "deflate"},
		{"br garbage", "br", []byte("not brotli, no, not at all, not brotli"), "br"},
		{"br truncated", "br", br[:len(br)/2], "br"},
		{"zstd garbage", "zstd", []byte("not zstd, no, not at all"), "zstd"},
		{"zstd truncated", "zstd", zs[:len(zs)/2], "zstd"},
		{"zstd flipped", "zstd", midFlip(zs), "zstd"},
		// Stacked: the failing layer is named, not the one that read it.
		{"inner deflate corrupt under valid br", "deflate, br", encode(t, "br", zl[:len(zl)/2]), "deflate"},
		{"outer br corrupt over deflate", "deflate, br", encode(t, "br", zl)[:100], "br"},
		{"inner gzip garbage under zstd", "gzip, zstd", encode(t, "zstd", []byte("garbage, not gzip")), "gzip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.header, bytes.NewReader(c.body), 1<<30)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, c.coding, ce.Encoding)
			require.Contains(t, err.Error(), c.coding)
			require.NotErrorIs(t, err, ErrTooLarge)
		})
	}
}

func TestDecodeZstdWindowOverBrowsers(t *testing.T) {
	// A 16 MiB window is twice what RFC 9659 allows HTTP's zstd.
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b, zstd.WithWindowSize(16<<20), zstd.WithEncoderConcurrency(1))
	require.NoError(t, err)
	_, err = zw.Write(sample(1 << 20))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	_, err = Decode("zstd", &b, 1<<30)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "zstd", ce.Encoding)
	require.Contains(t, err.Error(), "window")
}

// errReader yields some bytes and then its error.
type errReader struct {
	b   []byte
	err error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, r.err
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func TestDecodeReaderError(t *testing.T) {
	boom := errors.New("connection reset")
	data := sample(100_000)
	for _, h := range []string{"", "gzip", "deflate", "br", "zstd", "deflate, br"} {
		body := data
		switch h {
		case "gzip", "br", "zstd":
			body = encode(t, h, data)
		case "deflate":
			body = encode(t, "zlib", data)
		case "deflate, br":
			body = encode(t, "br", encode(t, "zlib", data))
		}
		for _, cut := range []int{0, 1, len(body) / 2} {
			_, err := Decode(h, &errReader{b: body[:cut], err: boom}, 1<<30)
			require.ErrorIs(t, err, boom, "%q cut at %d", h, cut)
			var ce *CorruptError
			require.False(t, errors.As(err, &ce), "%q cut at %d: %v", h, cut, err)
		}
	}
}

func TestDecodeBrowserLeniency(t *testing.T) {
	data := []byte("first member")
	gz := encode(t, "gzip", data)

	// Browsers show a gzip body's first member and ignore what follows.
	got, err := Decode("gzip", bytes.NewReader(append(bytes.Clone(gz), encode(t, "gzip", []byte("second"))...)), 1<<20)
	require.NoError(t, err)
	require.Equal(t, data, got)
	got, err = Decode("gzip", bytes.NewReader(append(bytes.Clone(gz), "trailing garbage"...)), 1<<20)
	require.NoError(t, err)
	require.Equal(t, data, got)

	// An empty body is empty in every coding (HEAD, 204, 304).
	for _, h := range []string{"gzip", "deflate", "br", "zstd", "deflate, br", "identity"} {
		got, err := Decode(h, bytes.NewReader(nil), 10)
		require.NoError(t, err, h)
		require.Empty(t, got, h)
	}

	// The zlib sniffing: every zlib header Go writes is recognised, and
	// raw deflate's first bytes at every level are not.
	for level := flate.HuffmanOnly; level <= flate.BestCompression; level++ {
		var zb, fb bytes.Buffer
		zw, err := zlib.NewWriterLevel(&zb, level)
		require.NoError(t, err)
		zw.Write(data)
		zw.Close()
		require.True(t, isZlibHeader(zb.Bytes()), "level %d", level)
		fw, err := flate.NewWriter(&fb, level)
		require.NoError(t, err)
		fw.Write(data)
		fw.Close()
		require.False(t, isZlibHeader(fb.Bytes()), "level %d", level)
		for _, b := range [][]byte{zb.Bytes(), fb.Bytes()} {
			got, err := Decode("deflate", bytes.NewReader(b), 1<<20)
			require.NoError(t, err, "level %d", level)
			require.Equal(t, data, got)
		}
	}
}

func TestDecodeLimit(t *testing.T) {
	data := sample(10_000)
	for _, h := range []string{"", "gzip", "br", "zstd", "deflate"} {
		body := data
		switch h {
		case "gzip", "br", "zstd":
			body = encode(t, h, data)
		case "deflate":
			body = encode(t, "flate", data)
		}
		got, err := Decode(h, bytes.NewReader(body), int64(len(data)))
		require.NoError(t, err, h)
		require.Equal(t, data, got, h)
		_, err = Decode(h, bytes.NewReader(body), int64(len(data)-1))
		require.ErrorIs(t, err, ErrTooLarge, h)
		_, err = Decode(h, bytes.NewReader(body), -5)
		require.ErrorIs(t, err, ErrTooLarge, h)
	}
	got, err := Decode("gzip", bytes.NewReader(encode(t, "gzip", nil)), 0)
	require.NoError(t, err)
	require.Empty(t, got)
}

// zeros streams n zero bytes into a writer without holding them.
func zeros(w io.Writer, n int) error {
	chunk := make([]byte, 1<<20)
	for ; n > 0; n -= len(chunk) {
		if n < len(chunk) {
			chunk = chunk[:n]
		}
		if _, err := w.Write(chunk); err != nil {
			return err
		}
	}
	return nil
}

var bombs = sync.OnceValue(func() map[string][]byte {
	const size = 1 << 30
	out := map[string][]byte{}
	var b bytes.Buffer
	gw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	zeros(gw, size)
	gw.Close()
	out["gzip"] = bytes.Clone(b.Bytes())

	b.Reset()
	zw, _ := zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	zeros(zw, size)
	zw.Close()
	out["zstd"] = bytes.Clone(b.Bytes())

	b.Reset()
	bw := brotli.NewWriterLevel(&b, 1)
	zeros(bw, size)
	bw.Close()
	out["br"] = bytes.Clone(b.Bytes())

	// A bomb in a bomb: 1 GiB of zeros, deflated, then brotli'd.
	b.Reset()
	fw, _ := flate.NewWriter(&b, flate.BestSpeed)
	zeros(fw, size)
	fw.Close()
	var b2 bytes.Buffer
	bw = brotli.NewWriterLevel(&b2, 1)
	bw.Write(b.Bytes())
	bw.Close()
	out["deflate, br"] = b2.Bytes()
	return out
})

func TestDecodeBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 4 GiB of zeros into bombs")
	}
	const limit = 16 << 20
	for _, h := range []string{"gzip", "zstd", "br", "deflate, br"} {
		t.Run(h, func(t *testing.T) {
			bomb := bombs()[h]
			require.Less(t, len(bomb), 8<<20, "a bomb is small")
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := Decode(h, bytes.NewReader(bomb), limit)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			require.ErrorIs(t, err, ErrTooLarge)
			// Reading limit+1 bytes costs the growing buffer (at most
			// about twice the limit in all) and the decoders' windows; a
			// decoder that ran on would allocate far more.
			allocated := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d KiB of bomb, %d MiB allocated, %v", len(bomb)>>10, allocated>>20, elapsed)
			require.Less(t, allocated, uint64(6*limit), "allocated %d MiB", allocated>>20)
			require.Less(t, elapsed, 10*time.Second)
		})
	}
}

func TestDecodeZstdLeavesNoGoroutine(t *testing.T) {
	body := encode(t, "zstd", sample(1<<20))
	before := runtime.NumGoroutine()
	for i := 0; i < 50; i++ {
		_, err := Decode("zstd", bytes.NewReader(body), 1<<30)
		require.NoError(t, err)
		_, err = Decode("zstd", bytes.NewReader(body), 1000) // stops early
		require.ErrorIs(t, err, ErrTooLarge)
		_, err = Decode("zstd", bytes.NewReader(body[:len(body)/2]), 1<<30)
		require.Error(t, err)
	}
	// Polled here, not with require.Eventually, whose own goroutine
	// would count.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)
}

func TestParseCodings(t *testing.T) {
	got, err := parseCodings("GZIP, x-gzip,identity, Deflate ,\tbr\t, ZSTD,")
	require.NoError(t, err)
	require.Equal(t, []string{"gzip", "gzip", "deflate", "br", "zstd"}, got)
	require.Equal(t, "abc-def", asciiLower("ABC-Def"))
	require.Equal(t, "\u212A", asciiLower("\u212A"))
}
