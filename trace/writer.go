package trace

import (
	"encoding/binary"
	"fmt"
	"io"
)

// AppendEntry appends the binary encoding of e to dst. It returns an error
// only for an entry that has no encoding (an invalid Kind).
func AppendEntry(dst []byte, e *Entry) ([]byte, error) {
	if !e.Kind.Valid() {
		return dst, fmt.Errorf("trace: cannot encode entry of unknown type %d", uint8(e.Kind))
	}
	dst = append(dst, byte(e.Kind))
	switch e.Kind {
	case Declare, Write:
		dst = appendInt(dst, e.IID)
		dst = appendString(dst, e.Name)
		dst = appendInt(dst, e.Obj)
	case CreateObj, CreateDOMNode, Debug, FunctionEnter:
		dst = appendInt(dst, e.IID)
		dst = appendInt(dst, e.Obj)
	case CreateFun:
		dst = appendInt(dst, e.IID)
		dst = appendInt(dst, e.FunIID)
		dst = appendInt(dst, e.Obj)
	case PutField, AddToChildSet, RemoveFromChildSet:
		dst = appendInt(dst, e.IID)
		dst = appendInt(dst, e.Base)
		dst = appendString(dst, e.Name)
		dst = appendInt(dst, e.Obj)
	case LastUse:
		dst = appendInt(dst, e.Obj)
		dst = appendInt(dst, e.UseTime)
		dst = appendString(dst, e.Name)
	case FunctionExit, ScriptExit:
		dst = appendInt(dst, e.IID)
	case Return, DOMRoot:
		dst = appendInt(dst, e.Obj)
	case UpdateCurrentScript:
		dst = appendInt(dst, e.SID)
	case TopLevelFlush:
		dst = appendString(dst, e.Name)
	case UpdateIID:
		dst = appendInt(dst, e.Obj)
		dst = appendInt(dst, e.IID)
	case AddDOMChild, RemoveDOMChild:
		dst = appendInt(dst, e.Base)
		dst = appendInt(dst, e.Obj)
	case Call:
		dst = appendInt(dst, e.IID)
		dst = appendInt(dst, e.Obj)
		dst = appendInt(dst, e.FunIID)
		dst = appendInt(dst, e.SID)
	case ScriptEnter:
		dst = appendInt(dst, e.IID)
		dst = appendInt(dst, e.SID)
		dst = appendString(dst, e.Name)
	case FreeVars:
		dst = appendInt(dst, e.IID)
		if e.AnyVars {
			dst = appendInt(dst, -1)
			dst = appendString(dst, e.Name)
		} else {
			dst = appendInt(dst, int32(len(e.Names)))
			for _, s := range e.Names {
				dst = appendString(dst, s)
			}
		}
	case SourceMapping:
		dst = appendInt(dst, e.IID)
		for _, v := range e.Range {
			dst = appendInt(dst, v)
		}
	case EndLastUse, Unreachable:
	}
	return dst, nil
}

func appendInt(dst []byte, v int32) []byte {
	return binary.BigEndian.AppendUint32(dst, uint32(v))
}

func appendString(dst []byte, s string) []byte {
	dst = appendInt(dst, int32(2*utf16Len(s)))
	return appendUTF16LE(dst, s)
}

const writerFlushSize = 64 << 10

// Writer encodes entries into a byte stream. It buffers; call Flush at the
// end. Errors are sticky.
type Writer struct {
	w   io.Writer
	buf []byte
	n   int64
	err error
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, writerFlushSize+1024)}
}

// Write encodes e.
func (w *Writer) Write(e *Entry) error {
	if w.err != nil {
		return w.err
	}
	buf, err := AppendEntry(w.buf, e)
	if err != nil {
		return err
	}
	w.n += int64(len(buf) - len(w.buf))
	w.buf = buf
	if len(w.buf) >= writerFlushSize {
		return w.Flush()
	}
	return nil
}

// Written returns the number of bytes encoded so far (flushed or not).
func (w *Writer) Written() int64 { return w.n }

// Flush writes buffered bytes to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if len(w.buf) > 0 {
		_, err := w.w.Write(w.buf)
		w.buf = w.buf[:0]
		if err != nil {
			w.err = err
		}
	}
	return w.err
}
