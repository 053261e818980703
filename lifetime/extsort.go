package lifetime

import (
	"bufio"
	"container/heap"
	"errors"
	"io"
	"os"
	"slices"
)

// extSorter sorts fixed-size records with bounded memory: records are
// buffered, and every max records the buffer is sorted and appended to a
// temporary file as a run; Each merges the runs and the buffer. Keys must
// be unique (every user breaks ties with an id or a sequence number): the
// order of equal records is unspecified. Nothing touches the disk while
// fewer than max records have been added.
type extSorter[T any] struct {
	size int
	enc  func(b []byte, v T)
	dec  func(b []byte) T
	cmp  func(a, b T) int
	dir  string
	max  int

	buf  []T
	f    *os.File
	off  int64
	runs []extRun
	err  error
}

type extRun struct {
	off, n int64
}

// defaultSortBuffer is the number of records an extSorter keeps in memory
// (a variable so that tests can force spills).
var defaultSortBuffer = 1 << 16

func newExtSorter[T any](size int, enc func([]byte, T), dec func([]byte) T, cmp func(a, b T) int, dir string) *extSorter[T] {
	return &extSorter[T]{size: size, enc: enc, dec: dec, cmp: cmp, dir: dir, max: defaultSortBuffer}
}

// Add adds a record.
func (s *extSorter[T]) Add(v T) {
	s.buf = append(s.buf, v)
	if len(s.buf) >= s.max {
		s.spill()
	}
}

// Len returns the number of records added.
func (s *extSorter[T]) Len() int64 {
	n := int64(len(s.buf))
	for _, r := range s.runs {
		n += r.n
	}
	return n
}

func (s *extSorter[T]) sortBuf() {
	slices.SortFunc(s.buf, s.cmp)
}

func (s *extSorter[T]) spill() {
	if s.err != nil || len(s.buf) == 0 {
		return
	}
	s.sortBuf()
	if s.f == nil {
		f, err := os.CreateTemp(s.dir, "memtrace-sort-*")
		if err != nil {
			s.err = err
			return
		}
		s.f = f
	}
	w := bufio.NewWriterSize(io.NewOffsetWriter(s.f, s.off), 256<<10)
	rec := make([]byte, s.size)
	for _, v := range s.buf {
		s.enc(rec, v)
		w.Write(rec)
	}
	if err := w.Flush(); err != nil {
		s.err = err
		return
	}
	s.runs = append(s.runs, extRun{s.off, int64(len(s.buf))})
	s.off += int64(len(s.buf)) * int64(s.size)
	s.buf = s.buf[:0]
}

// readAt decodes record i of run r.
func (s *extSorter[T]) readAt(r extRun, i int64, rec []byte) (T, error) {
	var zero T
	if _, err := s.f.ReadAt(rec, r.off+i*int64(s.size)); err != nil {
		return zero, err
	}
	return s.dec(rec), nil
}

type mergeSrc[T any] struct {
	v    T
	run  int // tie-break: earlier runs first, the buffer last
	r    *bufio.Reader
	left int64
	buf  []T // for the in-memory buffer
}

type mergeHeap[T any] struct {
	src []*mergeSrc[T]
	cmp func(a, b T) int
}

func (h *mergeHeap[T]) Len() int { return len(h.src) }
func (h *mergeHeap[T]) Less(a, b int) bool {
	x, y := h.src[a], h.src[b]
	if c := h.cmp(x.v, y.v); c != 0 {
		return c < 0
	}
	return x.run < y.run
}
func (h *mergeHeap[T]) Swap(a, b int) { h.src[a], h.src[b] = h.src[b], h.src[a] }
func (h *mergeHeap[T]) Push(x any)    { h.src = append(h.src, x.(*mergeSrc[T])) }
func (h *mergeHeap[T]) Pop() any {
	n := len(h.src) - 1
	x := h.src[n]
	h.src = h.src[:n]
	return x
}

// Each calls fn for every record in sorted order. The sorter must not be
// added to afterwards.
func (s *extSorter[T]) Each(fn func(T) error) error {
	if s.err != nil {
		return s.err
	}
	s.sortBuf()
	if len(s.runs) == 0 {
		for _, v := range s.buf {
			if err := fn(v); err != nil {
				return err
			}
		}
		return nil
	}
	h := &mergeHeap[T]{cmp: s.cmp}
	rec := make([]byte, s.size)
	next := func(m *mergeSrc[T]) (bool, error) {
		if m.r == nil {
			if len(m.buf) == 0 {
				return false, nil
			}
			m.v, m.buf = m.buf[0], m.buf[1:]
			return true, nil
		}
		if m.left == 0 {
			return false, nil
		}
		if _, err := io.ReadFull(m.r, rec); err != nil {
			return false, err
		}
		m.v = s.dec(rec)
		m.left--
		return true, nil
	}
	add := func(m *mergeSrc[T]) error {
		ok, err := next(m)
		if ok {
			heap.Push(h, m)
		}
		return err
	}
	for i, r := range s.runs {
		m := &mergeSrc[T]{run: i, left: r.n, r: bufio.NewReaderSize(io.NewSectionReader(s.f, r.off, r.n*int64(s.size)), 64<<10)}
		if err := add(m); err != nil {
			return err
		}
	}
	if err := add(&mergeSrc[T]{run: len(s.runs), buf: s.buf}); err != nil {
		return err
	}
	for h.Len() > 0 {
		m := h.src[0]
		if err := fn(m.v); err != nil {
			return err
		}
		ok, err := next(m)
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// Close removes the temporary file.
func (s *extSorter[T]) Close() error {
	s.buf = nil
	if s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	s.f = nil
	return errors.Join(err, os.Remove(name))
}
