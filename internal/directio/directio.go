// Package directio reads a file front to back without the page cache where
// the file system allows it (O_DIRECT on Linux), also while another
// process is still appending to it; its Appender writes one that way.
//
// memtrace node checks every trace it leaves, gigabytes written with direct
// I/O (the runtime shim's sink), so not in the page cache: read through it,
// each page is allocated, filled, copied and left behind, which cost more
// system time than the check's own work took user time (handlebars'
// workload of the bench: a 2.6 GB trace, 4.7-5.0 s of system time under
// memtrace node; 0.7 s read directly). A direct read moves
// the bytes from the disk into this package's buffers and leaves the page
// cache to the user's own files.
package directio

import (
	"errors"
	"io"
	"os"
	"time"
)

// bufSize is the size of one read; bufs buffers are read ahead of the
// consumer by a goroutine, so that the disk works while the caller does.
const (
	bufSize = 1 << 20
	bufs    = 4
	align   = 4096
)

// poll is how often Follow looks for bytes appended since its last read.
const poll = 20 * time.Millisecond

// Open opens path for reading. The result reads it with direct I/O when the
// file system takes it, else through the page cache. A file that cannot be
// opened is Open's error, as os.Open's (the reading goroutine opens it
// again).
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	f.Close()
	ended := make(chan struct{})
	close(ended)
	return newReader(path, ended, 0, alignedBuf), nil
}

// Follow reads path while a writer appends to it: at the end of what is
// there, it waits for more, until ended is closed; then it reads what the
// writer left and ends (io.EOF). It opens the file once it is more than
// after bytes long, or once ended is closed (an error then if there is no
// file): a writer may put bytes there that it later cuts away (the runtime
// shim probes direct I/O with one block it truncates). The writer must only
// append: bytes once read are not read again.
func Follow(path string, ended <-chan struct{}, after int64) io.ReadCloser {
	return newReader(path, ended, after, alignedBuf)
}

type chunk struct {
	buf   []byte // one of the reader's buffers; its bytes [lo, n) are the data
	lo, n int
	err   error
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

	// The goroutine's (readAhead) until done is closed.
	path   string
	ended  <-chan struct{}
	after  int64
	f      *os.File
	off    int64 // the bytes handed out so far
	direct bool
}

// newReader starts reading path ahead into bufs buffers of bufSize bytes
// that buf makes.
func newReader(path string, ended <-chan struct{}, after int64, buf func(int) []byte) *reader {
	r := &reader{
		filled: make(chan chunk, bufs),
		free:   make(chan []byte, bufs),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		path:   path,
		ended:  ended,
		after:  after,
	}
	for i := 0; i < bufs; i++ {
		r.free <- buf(bufSize)
	}
	go r.readAhead()
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

// readAhead fills buffers until the end, an error, or Close.
func (r *reader) readAhead() {
	defer close(r.done)
	defer close(r.filled)
	defer func() {
		if r.f != nil {
			r.f.Close()
		}
	}()
	for {
		var buf []byte
		select {
		case buf = <-r.free:
		case <-r.stop:
			return
		}
		lo, n, err := r.fill(buf)
		select {
		case r.filled <- chunk{buf: buf, lo: lo, n: n, err: err}:
		case <-r.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// wait sleeps for poll, or until ended is closed; false when Close is
// stopping the reader.
func (r *reader) wait() bool {
	t := time.NewTimer(poll)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.ended:
	case <-r.stop:
		return false
	}
	return true
}

var errStopped = errors.New("directio: closed")

// fill reads the next bytes into buf, returning them as buf[lo:n]. Direct
// reads start at the block that holds the next byte (offset, length and
// address aligned); one that the file system refuses (EINVAL: it took the
// flag at open only) goes on through the page cache from the same offset.
func (r *reader) fill(buf []byte) (lo, n int, err error) {
	for {
		if r.f == nil {
			end := closed(r.ended)
			fi, serr := os.Stat(r.path)
			if serr != nil || fi.Size() <= r.after {
				if end {
					if serr != nil {
						return 0, 0, serr
					}
				} else {
					if !r.wait() {
						return 0, 0, errStopped
					}
					continue
				}
			}
			if r.f, err = openDirect(r.path); err == nil {
				r.direct = true
			} else if r.f, err = os.Open(r.path); err != nil {
				return 0, 0, err
			}
		}
		final := closed(r.ended)
		start := r.off
		if r.direct {
			start &^= align - 1
		}
		m, err := pread(r.f, buf, start)
		if err != nil && r.direct && isInvalid(err) {
			g, oerr := os.Open(r.path)
			if oerr != nil {
				return 0, 0, err
			}
			r.f.Close()
			r.f, r.direct = g, false
			continue
		}
		if err != nil {
			return 0, 0, err
		}
		lo = int(r.off - start)
		if m > lo {
			r.off += int64(m - lo)
			return lo, m, nil
		}
		// Nothing new: the end, if the writer had ended before this read.
		if final {
			return lo, lo, io.EOF
		}
		if !r.wait() {
			return 0, 0, errStopped
		}
	}
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
		r.cur, r.pos, r.err = c, c.lo, c.err
	}
	n := copy(p, r.cur.buf[r.pos:r.cur.n])
	r.pos += n
	return n, nil
}

// Close stops the goroutine and closes the file.
func (r *reader) Close() error {
	if closed(r.stop) {
		return nil
	}
	close(r.stop)
	<-r.done
	return nil
}
