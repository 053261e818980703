package lifetime

import (
	"fmt"
	"strconv"
	"strings"
)

// Loc is a source-location id: a script id and an instruction id within
// that script, as carried by trace entries (trace spec 1.5). It is resolved
// to a Location through the trace's SCRIPT_ENTER and SOURCE_MAPPING entries.
type Loc struct {
	SID, IID int32
}

// String returns "sid:iid".
func (l Loc) String() string {
	return strconv.Itoa(int(l.SID)) + ":" + strconv.Itoa(int(l.IID))
}

// The reserved script-0 locations, registered before any trace entry.
var (
	LocEndOfProgram  = Loc{0, 0}
	LocUnknown       = Loc{0, -1}
	LocInitialDOM    = Loc{0, -2}
	LocRemoveFromDOM = Loc{0, -50}
)

// Location is a resolved source location: a file and a range, or one of the
// special locations ("end of program", "unknown", "initial DOM", "remove
// from DOM"). Locations are immutable once made and shared by pointer.
type Location struct {
	// File is the script's file name exactly as in its SCRIPT_ENTER at the
	// time the mapping was read. Empty for a special location.
	File string
	// StartLine, StartCol, EndLine, EndCol are the SOURCE_MAPPING range.
	StartLine, StartCol, EndLine, EndCol int32
	// Special is the text of a special location, or "".
	Special string

	full, short string
	idx         int32 // order of registration
}

func newSpecial(text string) *Location {
	return &Location{Special: text, full: text, short: text}
}

func newLocation(file string, r [4]int32) *Location {
	return &Location{File: file, StartLine: r[0], StartCol: r[1], EndLine: r[2], EndCol: r[3]}
}

// IsSpecial reports whether l is one of the reserved special locations.
func (l *Location) IsSpecial() bool { return l.Special != "" }

// String returns the full form "file:sl:sc:el:ec" (MemInsight's
// SourceLocation.toString), or the special text.
func (l *Location) String() string {
	if l.full == "" {
		l.full = formatRange(l.File, l)
	}
	return l.full
}

// Short returns the basename form used in reference-count output: the
// special text, or "basename(file):sl:sc:el:ec" where basename follows
// Java's File.getName.
//
// A control character of the file name (a newline, which would split the
// row it is printed in) is written as an escape: \n, \r, \t, \xNN.
func (l *Location) Short() string {
	if l.short == "" {
		l.short = formatRange(escapeControls(javaBaseName(l.File)), l)
	}
	return l.short
}

// escapeControls writes the C0 control characters and DEL of s as
// escapes (and a backslash before one as \\): one line, whatever s holds.
func escapeControls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20 || c == 0x7f:
			b = append(b, fmt.Sprintf(`\x%02x`, c)...)
		case c == '\\':
			b = append(b, `\\`...)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

func formatRange(file string, l *Location) string {
	b := make([]byte, 0, len(file)+24)
	b = append(b, file...)
	for _, v := range [4]int32{l.StartLine, l.StartCol, l.EndLine, l.EndCol} {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return string(b)
}

// javaBaseName returns what java.io.File(path).getName() returns on a Unix
// system: the path is normalised (repeated '/' collapsed, a trailing '/'
// dropped) and the text after the last '/' is kept. Unlike filepath.Base, an
// empty path stays empty.
func javaBaseName(p string) string {
	if strings.Contains(p, "//") {
		var b strings.Builder
		prev := byte(0)
		for i := 0; i < len(p); i++ {
			if p[i] == '/' && prev == '/' {
				continue
			}
			prev = p[i]
			b.WriteByte(p[i])
		}
		p = b.String()
	}
	if len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// sourceMap resolves Locs, as MemInsight's SourceMap does. Each script's
// locations are kept in a slice indexed by iid (iids are small and dense in
// practice), with a map for the others.
type sourceMap struct {
	byScript map[int32]*scriptLocs
	last     *scriptLocs
	scripts  map[int32]string
	n        int32 // locations made so far
}

type scriptLocs struct {
	sid    int32
	dense  []*Location // by iid, for 0 <= iid < maxDense
	sparse map[int32]*Location
}

const maxDense = 1 << 22

func newSourceMap() sourceMap {
	m := sourceMap{byScript: make(map[int32]*scriptLocs), scripts: make(map[int32]string)}
	m.put(LocEndOfProgram, newSpecial("end of program"))
	m.put(LocUnknown, newSpecial("unknown"))
	m.put(LocInitialDOM, newSpecial("initial DOM"))
	m.put(LocRemoveFromDOM, newSpecial("remove from DOM"))
	return m
}

func (m *sourceMap) script(sid int32, create bool) *scriptLocs {
	if s := m.last; s != nil && s.sid == sid {
		return s
	}
	s := m.byScript[sid]
	if s == nil {
		if !create {
			return nil
		}
		s = &scriptLocs{sid: sid}
		m.byScript[sid] = s
	}
	m.last = s
	return s
}

func (m *sourceMap) get(l Loc) *Location {
	s := m.script(l.SID, false)
	if s == nil {
		return nil
	}
	if uint32(l.IID) < uint32(len(s.dense)) {
		if loc := s.dense[l.IID]; loc != nil || s.sparse == nil {
			return loc
		}
	}
	return s.sparse[l.IID]
}

// put registers a location; the caller has checked that l is new.
func (m *sourceMap) put(l Loc, loc *Location) {
	loc.idx = m.n
	m.n++
	s := m.script(l.SID, true)
	// Grow the dense table only while it stays dense, so that a stray huge
	// iid costs a map entry, not a huge slice.
	if l.IID >= 0 && l.IID < maxDense && int(l.IID) < 2*len(s.dense)+4096 {
		if int(l.IID) >= len(s.dense) {
			n := 2 * len(s.dense)
			if n < int(l.IID)+1 {
				n = int(l.IID) + 1
			}
			if n < 64 {
				n = 64
			}
			if n > maxDense {
				n = maxDense
			}
			nd := make([]*Location, n)
			copy(nd, s.dense)
			s.dense = nd
		}
		s.dense[l.IID] = loc
		return
	}
	if s.sparse == nil {
		s.sparse = make(map[int32]*Location)
	}
	s.sparse[l.IID] = loc
}
