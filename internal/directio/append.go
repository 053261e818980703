package directio

import (
	"os"
	"sync"
)

// An Appender appends to a file, moving whole blocks with direct I/O where
// the file system takes it and only an unaligned tail through the page
// cache.
//
// The collector writes every session's trace through one: gigabytes that
// nothing reads again soon. Written through the page cache, each new page
// is allocated and filled (on the virtual machines the bench runs on, the
// first touch of a page is most of the cost: about a second of system time
// per GB, as much as the trace's check), and it stays there crowding out
// the user's own files. Direct, the bytes go from an aligned buffer to the
// disk.
//
// Each Append writes its bytes at once: the part that fills whole aligned
// blocks, if long enough, directly (copied to an aligned buffer first); the
// few bytes before the first block boundary and after the last through the
// page cache. A direct write never covers a block the page cache holds, so
// the kernel neither writes such a page back first nor drops it. What
// Append has returned is in the file as any writer's bytes are: read by
// anyone, kept if the process dies (the blocks are on the device, the ends
// in the kernel's page cache), on the disk after an fsync of the caller's
// file. The file is always
// its exact length: no padding, no block half written.
type Appender struct {
	f    *os.File // the caller's handle: buffered writes (the ends), Truncate
	d    *os.File // the same file opened again with O_DIRECT; nil: f alone
	size int64
}

// appendBufs are the aligned buffers direct writes go from, shared by all
// Appenders: one is held only during an Append, so a process appending to
// many files at once holds one per Append in progress, not one per file.
var appendBufs = sync.Pool{New: func() any { b := alignedBuf(appendBuf); return &b }}

// appendBuf is the largest direct write; minDirect the least worth one.
const (
	appendBuf = 256 << 10
	minDirect = 64 << 10
)

// NewAppender appends to f, whose length now is size. f stays the
// caller's: Close does not close it.
func NewAppender(f *os.File, size int64) *Appender {
	a := &Appender{f: f, size: size}
	if d, err := reopenDirect(f); err == nil {
		a.d = d
	}
	return a
}

// Direct reports whether the Appender writes whole blocks directly.
func (a *Appender) Direct() bool { return a.d != nil }

// Size is the file's length as the Appender has made it.
func (a *Appender) Size() int64 { return a.size }

// Append writes p at the end of the file. After an error, the file may
// hold some of p past Size (Truncate it).
func (a *Appender) Append(p []byte) error {
	head := int((align - a.size%align) % align)
	if a.d == nil || len(p)-head < minDirect {
		return a.buffered(p)
	}
	if err := a.buffered(p[:head]); err != nil {
		return err
	}
	p = p[head:]
	bp := appendBufs.Get().(*[]byte)
	defer appendBufs.Put(bp)
	buf := *bp
	for len(p) >= align {
		n := min(len(p)&^(align-1), len(buf))
		copy(buf, p[:n])
		if _, err := a.d.WriteAt(buf[:n], a.size); err != nil {
			if isInvalid(err) {
				// The file system refused this alignment after all: the
				// page cache from now on.
				a.d.Close()
				a.d = nil
				break
			}
			return err
		}
		a.size += int64(n)
		p = p[n:]
	}
	return a.buffered(p)
}

func (a *Appender) buffered(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	if _, err := a.f.WriteAt(p, a.size); err != nil {
		return err
	}
	a.size += int64(len(p))
	return nil
}

// Truncate cuts the file to size bytes (at most its length).
func (a *Appender) Truncate(size int64) error {
	if err := a.f.Truncate(size); err != nil {
		return err
	}
	a.size = size
	return nil
}

// Close releases the direct handle; the caller's file stays open.
func (a *Appender) Close() error {
	if a.d == nil {
		return nil
	}
	err := a.d.Close()
	a.d = nil
	return err
}
