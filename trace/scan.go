package trace

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// errShort says that the bytes at hand end inside the entry being scanned;
// scanEntry returns with it how many bytes the entry needs at least.
var errShort = errors.New("short")

// scanEntry decodes the entry at the start of b (which is not empty) into
// e, apart from its strings: raw is the UTF-16LE bytes of its one string
// (FREE_VARS with a list of names: the list, from its first length on,
// each name's length checked). n is the entry's length in bytes. When b
// ends inside the entry, err is errShort and need the length the entry
// has at least (known so far); a malformed entry gives a formatMsg, found
// as soon as the bytes that show it are at hand. It is the one decoder of
// the format: the Reader and the Stream both use it.
func scanEntry(b []byte, e *Entry, maxString int) (n int, raw []byte, need int, err error) {
	k := Kind(b[0])
	e.Kind = k
	switch k {
	case Declare, Write:
		if len(b) < 9 {
			return 0, nil, 9, errShort
		}
		e.IID = be32(b[1:])
		if raw, n, need, err = scanString(b, 5, k, maxString); err != nil {
			return 0, nil, need, err
		}
		if len(b) < n+4 {
			return 0, nil, n + 4, errShort
		}
		e.Obj = be32(b[n:])
		return n + 4, raw, 0, nil
	case CreateObj, CreateDOMNode, Debug, FunctionEnter:
		if len(b) < 9 {
			return 0, nil, 9, errShort
		}
		e.IID = be32(b[1:])
		e.Obj = be32(b[5:])
		return 9, nil, 0, nil
	case CreateFun:
		if len(b) < 13 {
			return 0, nil, 13, errShort
		}
		e.IID = be32(b[1:])
		e.FunIID = be32(b[5:])
		e.Obj = be32(b[9:])
		return 13, nil, 0, nil
	case PutField, AddToChildSet, RemoveFromChildSet:
		if len(b) < 13 {
			return 0, nil, 13, errShort
		}
		e.IID = be32(b[1:])
		e.Base = be32(b[5:])
		if raw, n, need, err = scanString(b, 9, k, maxString); err != nil {
			return 0, nil, need, err
		}
		if len(b) < n+4 {
			return 0, nil, n + 4, errShort
		}
		e.Obj = be32(b[n:])
		return n + 4, raw, 0, nil
	case LastUse:
		if len(b) < 13 {
			return 0, nil, 13, errShort
		}
		e.Obj = be32(b[1:])
		e.UseTime = be32(b[5:])
		if raw, n, need, err = scanString(b, 9, k, maxString); err != nil {
			return 0, nil, need, err
		}
		return n, raw, 0, nil
	case FunctionExit, ScriptExit:
		if len(b) < 5 {
			return 0, nil, 5, errShort
		}
		e.IID = be32(b[1:])
		return 5, nil, 0, nil
	case Return, DOMRoot:
		if len(b) < 5 {
			return 0, nil, 5, errShort
		}
		e.Obj = be32(b[1:])
		return 5, nil, 0, nil
	case UpdateCurrentScript:
		if len(b) < 5 {
			return 0, nil, 5, errShort
		}
		e.SID = be32(b[1:])
		return 5, nil, 0, nil
	case TopLevelFlush:
		if raw, n, need, err = scanString(b, 1, k, maxString); err != nil {
			return 0, nil, need, err
		}
		return n, raw, 0, nil
	case UpdateIID:
		if len(b) < 9 {
			return 0, nil, 9, errShort
		}
		e.Obj = be32(b[1:])
		e.IID = be32(b[5:])
		return 9, nil, 0, nil
	case AddDOMChild, RemoveDOMChild:
		if len(b) < 9 {
			return 0, nil, 9, errShort
		}
		e.Base = be32(b[1:])
		e.Obj = be32(b[5:])
		return 9, nil, 0, nil
	case Call:
		if len(b) < 17 {
			return 0, nil, 17, errShort
		}
		e.IID = be32(b[1:])
		e.Obj = be32(b[5:])
		e.FunIID = be32(b[9:])
		e.SID = be32(b[13:])
		return 17, nil, 0, nil
	case ScriptEnter:
		if len(b) < 13 {
			return 0, nil, 13, errShort
		}
		e.IID = be32(b[1:])
		e.SID = be32(b[5:])
		if raw, n, need, err = scanString(b, 9, k, maxString); err != nil {
			return 0, nil, need, err
		}
		return n, raw, 0, nil
	case FreeVars:
		return scanFreeVars(b, e, maxString)
	case SourceMapping:
		if len(b) < 21 {
			return 0, nil, 21, errShort
		}
		e.IID = be32(b[1:])
		e.Range = [4]int32{be32(b[5:]), be32(b[9:]), be32(b[13:]), be32(b[17:])}
		return 21, nil, 0, nil
	case EndLastUse, Unreachable:
		return 1, nil, 0, nil
	}
	return 0, nil, 0, formatMsg(fmt.Sprintf("unknown entry type %d (valid types are 0-%d)", uint8(k), NumKinds-1))
}

func be32(b []byte) int32 { return int32(binary.BigEndian.Uint32(b)) }

// scanString scans the string whose length is at b[p:]; end is the offset
// just after it.
func scanString(b []byte, p int, k Kind, maxString int) (raw []byte, end, need int, err error) {
	if len(b) < p+4 {
		return nil, 0, p + 4, errShort
	}
	n := be32(b[p:])
	switch {
	case n < 0:
		return nil, 0, 0, formatMsg(fmt.Sprintf("bad string length %d in %s entry (negative)", n, k))
	case n%2 != 0:
		return nil, 0, 0, formatMsg(fmt.Sprintf("bad string length %d in %s entry (odd; UTF-16 code units take 2 bytes)", n, k))
	case int(n) > maxString:
		return nil, 0, 0, formatMsg(fmt.Sprintf("bad string length %d in %s entry (over the limit of %d bytes)", n, k, maxString))
	}
	end = p + 4 + int(n)
	if len(b) < end {
		return nil, 0, end, errShort
	}
	return b[p+4 : end], end, 0, nil
}

func scanFreeVars(b []byte, e *Entry, maxString int) (n int, raw []byte, need int, err error) {
	if len(b) < 9 {
		return 0, nil, 9, errShort
	}
	e.IID = be32(b[1:])
	count := be32(b[5:])
	e.AnyVars = false
	switch {
	case count == -1:
		e.AnyVars = true
		if raw, n, need, err = scanString(b, 9, FreeVars, maxString); err != nil {
			return 0, nil, need, err
		}
		return n, raw, 0, nil
	case count < 0:
		return 0, nil, 0, formatMsg(fmt.Sprintf("bad FREE_VARS count %d (must be -1 for ANY, or a count)", count))
	case count > MaxFreeVars:
		return 0, nil, 0, formatMsg(fmt.Sprintf("bad FREE_VARS count %d (over the limit of %d)", count, MaxFreeVars))
	}
	p := 9
	for i := int32(0); i < count; i++ {
		if _, p, need, err = scanString(b, p, FreeVars, maxString); err != nil {
			return 0, nil, need, err
		}
	}
	return p, b[9:p], 0, nil
}

// freeVarNames calls f with each name of a FREE_VARS list that
// scanFreeVars checked.
func freeVarNames(list []byte, f func(raw []byte)) {
	for len(list) > 0 {
		n := int(be32(list))
		f(list[4 : 4+n])
		list = list[4+n:]
	}
}
