// Package trace reads, writes and checks MemInsight-format memory traces.
//
// A trace is a flat byte stream of entries: one type byte, then a fixed
// list of fields that depends on the type. Integers are 32-bit two's
// complement, big-endian. Strings are a big-endian int32 byte count
// followed by that many bytes of UTF-16LE code units (no BOM, no
// terminator). There is no header, footer or framing. The authoritative
// description is shared/spec/meminsight-trace.md, sections 1 and 2.
//
// Strings are held in Go as WTF-8: well-formed UTF-16 decodes to UTF-8, and
// a lone surrogate code unit is kept as its three-byte generalised UTF-8
// form, so that reading and writing a trace is lossless.
package trace

import "fmt"

// Kind is an entry's type byte.
type Kind uint8

// The entry kinds, numbered as MemInsight's LogEntryType enum.
const (
	Declare             Kind = 0  // [0, iid, name, objId]
	CreateObj           Kind = 1  // [1, iid, objId]
	CreateFun           Kind = 2  // [2, iid, funEnterIid, objId]; implies prototype objId+1
	PutField            Kind = 3  // [3, iid, baseId, prop, valId]
	Write               Kind = 4  // [4, iid, name, objId]
	LastUse             Kind = 5  // [5, objId, time, "sid:iid"] (metadata)
	FunctionEnter       Kind = 6  // [6, iid, funObjId]
	FunctionExit        Kind = 7  // [7, iid]
	TopLevelFlush       Kind = 8  // [8, "sid:iid"]
	UpdateIID           Kind = 9  // [9, objId, newIid]
	Debug               Kind = 10 // [10, callIid, objId]
	Return              Kind = 11 // [11, objId]
	CreateDOMNode       Kind = 12 // [12, iid, objId]
	AddDOMChild         Kind = 13 // [13, parentId, childId]
	RemoveDOMChild      Kind = 14 // [14, parentId, childId]
	AddToChildSet       Kind = 15 // [15, iid, parentId, name, childId]
	RemoveFromChildSet  Kind = 16 // [16, iid, parentId, name, childId]
	DOMRoot             Kind = 17 // [17, objId]
	Call                Kind = 18 // [18, callSiteIid, funObjId, funEnterIid, funSid]
	ScriptEnter         Kind = 19 // [19, iid, sid, filename]
	ScriptExit          Kind = 20 // [20, iid]
	FreeVars            Kind = 21 // [21, funEnterIid, names] or [21, funEnterIid, "ANY"] (metadata)
	SourceMapping       Kind = 22 // [22, iid, startLine, startCol, endLine, endCol] (metadata)
	UpdateCurrentScript Kind = 23 // [23, sid] (metadata)
	EndLastUse          Kind = 24 // [24] (metadata)
	// Unreachable is known to MemInsight's Java reader, which reads no fields
	// for it; writers never emit it. The Reader accepts it as the Java engine
	// does and Check reports it.
	Unreachable Kind = 25

	// NumKinds is one more than the largest valid type byte.
	NumKinds = 26
)

var kindNames = [NumKinds]string{
	"DECLARE", "CREATE_OBJ", "CREATE_FUN", "PUTFIELD", "WRITE", "LAST_USE",
	"FUNCTION_ENTER", "FUNCTION_EXIT", "TOP_LEVEL_FLUSH", "UPDATE_IID", "DEBUG",
	"RETURN", "CREATE_DOM_NODE", "ADD_DOM_CHILD", "REMOVE_DOM_CHILD",
	"ADD_TO_CHILD_SET", "REMOVE_FROM_CHILD_SET", "DOM_ROOT", "CALL",
	"SCRIPT_ENTER", "SCRIPT_EXIT", "FREE_VARS", "SOURCE_MAPPING",
	"UPDATE_CURRENT_SCRIPT", "END_LAST_USE", "UNREACHABLE",
}

// String returns the spec's name for k, such as "CREATE_OBJ".
func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Valid reports whether k is a type byte MemInsight's reader accepts.
func (k Kind) Valid() bool { return k < NumKinds }

// IsMeta reports whether entries of kind k are metadata, which do not
// advance logical time (spec 1.4).
func (k Kind) IsMeta() bool {
	switch k {
	case LastUse, FreeVars, SourceMapping, UpdateCurrentScript, EndLastUse, Unreachable:
		return true
	}
	return false
}

// Entry is one decoded trace entry. Only the fields of its Kind are
// meaningful; the others are zero. The field used for each position of each
// kind is:
//
//	DECLARE, WRITE           IID, Name, Obj
//	CREATE_OBJ, CREATE_DOM   IID, Obj
//	CREATE_FUN               IID, FunIID, Obj
//	PUTFIELD                 IID, Base, Name (property), Obj (value)
//	LAST_USE                 Obj, UseTime, Name ("sid:iid")
//	FUNCTION_ENTER           IID, Obj (function)
//	FUNCTION_EXIT            IID
//	TOP_LEVEL_FLUSH          Name ("sid:iid")
//	UPDATE_IID               Obj, IID (the new iid; written second)
//	DEBUG                    IID (call site), Obj
//	RETURN, DOM_ROOT         Obj
//	ADD/REMOVE_DOM_CHILD     Base (parent), Obj (child)
//	ADD/REMOVE_*_CHILD_SET   IID, Base (parent), Name, Obj (child)
//	CALL                     IID (call site), Obj (function), FunIID, SID (function's script)
//	SCRIPT_ENTER             IID, SID, Name (file name)
//	SCRIPT_EXIT              IID
//	FREE_VARS                IID (function-enter iid), Names, or AnyVars
//	SOURCE_MAPPING           IID, Range
//	UPDATE_CURRENT_SCRIPT    SID
type Entry struct {
	Kind    Kind
	IID     int32
	Obj     int32
	Base    int32
	FunIID  int32
	SID     int32
	UseTime int32
	Name    string
	// Range is a SOURCE_MAPPING's startLine, startCol, endLine, endCol.
	Range [4]int32
	// Names is a FREE_VARS list. AnyVars marks the other form, a count of
	// -1 followed by one string, kept in Name (MemInsight writes "ANY").
	Names   []string
	AnyVars bool
}

// Reset clears e for reuse, keeping the capacity of Names.
func (e *Entry) Reset() {
	names := e.Names[:0]
	*e = Entry{Names: names}
}

// Size returns the number of bytes e occupies in the binary encoding.
func (e *Entry) Size() int {
	switch e.Kind {
	case Declare, Write:
		return 13 + utf16Len(e.Name)*2
	case CreateObj, FunctionEnter, UpdateIID, Debug, CreateDOMNode, AddDOMChild, RemoveDOMChild:
		return 9
	case CreateFun:
		return 13
	case PutField, AddToChildSet, RemoveFromChildSet:
		return 17 + utf16Len(e.Name)*2
	case LastUse, ScriptEnter:
		return 13 + utf16Len(e.Name)*2
	case FunctionExit, Return, DOMRoot, ScriptExit, UpdateCurrentScript:
		return 5
	case TopLevelFlush:
		return 5 + utf16Len(e.Name)*2
	case Call:
		return 17
	case FreeVars:
		if e.AnyVars {
			return 13 + utf16Len(e.Name)*2
		}
		n := 9
		for _, s := range e.Names {
			n += 4 + utf16Len(s)*2
		}
		return n
	case SourceMapping:
		return 21
	case EndLastUse, Unreachable:
		return 1
	}
	return 0
}
