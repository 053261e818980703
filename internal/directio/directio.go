// Package directio reads a whole file once, front to back, without the
// page cache where the file system allows it (O_DIRECT on Linux).
//
// memtrace node checks every trace it leaves, gigabytes written a moment
// before with direct I/O (the runtime shim's sink), so not in the page
// cache: read through it, each page is allocated, filled, copied and left
// behind, which cost more system time than the check's own work took user
// time (handlebars' workload of the bench: 2.6 GB, 3.7 s of system time).
// A direct read moves the bytes from the disk into this package's buffers
// and leaves the page cache to the user's own files.
package directio

import (
	"errors"
	"io"
	"os"
)

// bufSize is the size of one read; bufs buffers are read ahead of the
// consumer by a goroutine, so that the disk works while the caller does.
const (
	bufSize = 1 << 20
	bufs    = 4
	align   = 4096
)

// Open opens path for reading. The result reads it with direct I/O when the
// file system takes it, else through the page cache (os.Open).
func Open(path string) (io.ReadCloser, error) {
	f, err := openDirect(path)
	if err != nil {
		return os.Open(path)
	}
	return newReader(f, path, func() []byte { return alignedBuf(bufSize) }), nil
}

type chunk struct {
	buf []byte // one of the reader's buffers, holding n bytes
	n   int
	err error
}

// reader hands out what its goroutine read: full buffers travel on
// filled, empty ones come back on free.
type reader struct {
	filled chan chunk
	free   chan []byte
	stop   chan struct{}
	done   chan struct{}
	cur    chunk
	pos    int
	err    error
	f      *os.File // read only by readAhead until it is done
	off    int64
	direct bool
}

// newReader starts reading f (at path) ahead into bufs buffers that buf
// makes.
func newReader(f *os.File, path string, buf func() []byte) *reader {
	r := &reader{
		filled: make(chan chunk, bufs),
		free:   make(chan []byte, bufs),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		f:      f,
		direct: true,
	}
	for i := 0; i < bufs; i++ {
		r.free <- buf()
	}
	go r.readAhead(path)
	return r
}

// alignedBuf returns n bytes starting at a multiple of align (Go's heap
// does not move objects).
func alignedBuf(n int) []byte {
	b := make([]byte, n+align)
	off := 0
	if rem := int(uintptrOf(b) % align); rem != 0 {
		off = align - rem
	}
	return b[off : off+n : off+n]
}

// readAhead fills buffers until the end of the file, an error, or Close.
func (r *reader) readAhead(path string) {
	defer close(r.done)
	defer close(r.filled)
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.stop:
			return
		}
		n, err := r.fill(buf, path)
		select {
		case r.filled <- chunk{buf: buf, n: n, err: err}:
		case <-r.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// fill reads buf full, or up to the end of the file (io.EOF). A direct read
// the file system refuses (EINVAL: after the short read at the end, whose
// next offset is not aligned, or a file system that takes the flag at open
// only) goes on through the page cache from the same offset.
func (r *reader) fill(buf []byte, path string) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := r.f.Read(buf[n:])
		n += m
		r.off += int64(m)
		switch {
		case err != nil && r.direct && isInvalid(err):
			g, oerr := os.Open(path)
			if oerr != nil {
				return n, err
			}
			if _, serr := g.Seek(r.off, io.SeekStart); serr != nil {
				g.Close()
				return n, err
			}
			r.f.Close()
			r.f, r.direct = g, false
		case err != nil:
			return n, err
		case m == 0:
			return n, io.EOF
		}
	}
	return n, nil
}

func (r *reader) Read(p []byte) (int, error) {
	for r.pos == r.cur.n {
		if r.err != nil {
			return 0, r.err
		}
		if r.cur.buf != nil {
			r.free <- r.cur.buf
			r.cur = chunk{}
		}
		c, ok := <-r.filled
		if !ok {
			r.err = errors.New("directio: read after close")
			return 0, r.err
		}
		r.cur, r.pos, r.err = c, 0, c.err
	}
	n := copy(p, r.cur.buf[r.pos:r.cur.n])
	r.pos += n
	return n, nil
}

// Close stops the goroutine and closes the file.
func (r *reader) Close() error {
	select {
	case <-r.stop:
		return nil
	default:
	}
	close(r.stop)
	<-r.done
	return r.f.Close()
}
