package trace

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unsafe"
)

// Rule names a structural rule of the trace format that Check enforces.
// Each is something MemInsight's lifetime engine (or ours) relies on.
type Rule string

// The rules, with the spec section they come from.
const (
	// RuleFormat: the bytes decode (known type byte, complete fields, sane
	// string lengths and counts). Spec 1.1-1.3.
	RuleFormat Rule = "format"
	// RuleGlobalFirst: the first counted entry creates the global object,
	// CREATE_OBJ(-1, 1), while the current script is 0. Spec 2.0.
	RuleGlobalFirst Rule = "global-first"
	// RuleIDOrder: object ids are created once each, in order, every new id
	// one more than the last (a CREATE_FUN also takes id+1 for its
	// prototype). Spec 2.0.
	RuleIDOrder Rule = "id-order"
	// RuleIDUncreated: every id an entry refers to was created before it;
	// ids that must name an object are not 0. Spec 2.0.
	RuleIDUncreated Rule = "id-uncreated"
	// RuleNotFunction: FUNCTION_ENTER and CALL name an object created by
	// CREATE_FUN, whose closure context the engine recorded. Spec 2.3.
	RuleNotFunction Rule = "not-function"
	// RuleMappingOrder: a SOURCE_MAPPING comes after its script's
	// SCRIPT_ENTER and maps a (script, iid) pair only once. Spec 2.22.
	RuleMappingOrder Rule = "mapping-order"
	// RuleUnmappedSite: a site the engine resolves (allocation, function
	// entry and exit, call target, debug, UPDATE_IID, flush) has a
	// SOURCE_MAPPING or is one of the reserved script-0 locations. Spec 2.22.
	RuleUnmappedSite Rule = "unmapped-site"
	// RuleScriptReuse: a script id is entered only once. Appendix, item 4.
	RuleScriptReuse Rule = "script-reuse"
	// RuleLastUseBlock: LAST_USE entries come in blocks, in ascending id
	// order, with times no later than the current time, each block closed
	// by END_LAST_USE. Spec 1.4a.
	RuleLastUseBlock Rule = "last-use-block"
	// RuleBalance: every FUNCTION_EXIT closes a FUNCTION_ENTER or CALL, and
	// a RETURN is followed by its FUNCTION_EXIT. Spec 2.7, 2.8, 2.12, 2.18.
	RuleBalance Rule = "balance"
	// RuleSiteString: TOP_LEVEL_FLUSH and LAST_USE locations are "sid:iid"
	// with two decimal 32-bit integers. Spec 2.6, 2.9.
	RuleSiteString Rule = "site-string"
	// RuleDOMEdge: a REMOVE_DOM_CHILD removes an edge that exists. Spec 2.15.
	RuleDOMEdge Rule = "dom-edge"
	// RuleEngineOnly: UNREACHABLE (25) is never written. Spec 1.3.
	RuleEngineOnly Rule = "engine-only"
)

// Severity says whether a finding makes a trace unsound.
type Severity uint8

const (
	// Error: an engine would reject the trace or compute wrong results.
	Error Severity = iota
	// Warning: a known quirk that MemInsight's engine tolerates in its
	// reference-counting mode, worth knowing about but not unsound there.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one broken rule, located in the stream.
type Finding struct {
	Index    int64 // entry index (0-based), or the entry count for end-of-trace findings
	Offset   int64 // byte offset of the entry, or the stream length
	Severity Severity
	Rule     Rule
	Msg      string
}

func (f Finding) String() string {
	return fmt.Sprintf("entry %d at byte offset %d: %s: %s [%s]", f.Index, f.Offset, f.Severity, f.Msg, f.Rule)
}

// Checker applies the rules to a stream of entries as they arrive, so that
// a reader of a file and a collector receiving chunks can both use it. Its
// memory grows with the number of scripts and sites, the live DOM edges and
// one bit per object id; not with the length of the trace.
type Checker struct {
	// MaxFindings bounds the findings kept (all are counted). 0 means 100.
	MaxFindings int
	// OnScript, when set, is called with the name of each script a
	// SCRIPT_ENTER enters (the collector keeps their sources).
	OnScript func(name string)

	findings   []Finding
	firstError Finding // with keepFirst: the first error, kept or not
	keepFirst  bool
	errors     int64
	warnings   int64

	index, offset int64
	counted       int64 // counted entries so far
	curSID        int32
	sawGlobal     bool
	maxID         int32
	implicitProto bool     // maxID is a prototype id implied by CREATE_FUN
	funcs         []uint64 // bit per id: created by CREATE_FUN
	farFuncs      map[int32]struct{}
	scripts       map[int32]struct{}
	mapped        siteSet // the sites SOURCE_MAPPING has mapped
	sites         [siteCacheSize]siteCacheEntry
	raw           bool // e.Name is not decoded: rawName holds its bytes
	rawSites      *[1 << rawSiteBits]rawSiteEntry
	rawName       []byte // (see check)
	inBlock       bool
	blockLast     int32
	depth         int64
	afterReturn   bool
	domEdges      map[uint64]struct{}
	end           int64
}

// NewChecker returns a Checker at the start of a trace.
func NewChecker() *Checker {
	return &Checker{
		curSID:   -1,
		rawSites: new([1 << rawSiteBits]rawSiteEntry),
		scripts:  make(map[int32]struct{}),
		mapped:   siteSet{scripts: make(map[int32]*iidSet), other: make(map[uint64]struct{})},
		domEdges: make(map[uint64]struct{}),
	}
}

func siteKey(sid, iid int32) uint64 { return uint64(uint32(sid))<<32 | uint64(uint32(iid)) }

func (c *Checker) report(rule Rule, format string, args ...any) {
	c.add(Error, rule, format, args...)
}

func (c *Checker) warn(rule Rule, format string, args ...any) {
	c.add(Warning, rule, format, args...)
}

func (c *Checker) add(sev Severity, rule Rule, format string, args ...any) {
	if sev == Error {
		c.errors++
		if c.keepFirst && c.errors == 1 {
			c.firstError = Finding{Index: c.index, Offset: c.offset, Severity: sev, Rule: rule, Msg: fmt.Sprintf(format, args...)}
		}
	} else {
		c.warnings++
	}
	max := c.MaxFindings
	if max == 0 {
		max = 100
	}
	if len(c.findings) < max {
		c.findings = append(c.findings, Finding{Index: c.index, Offset: c.offset, Severity: sev, Rule: rule, Msg: fmt.Sprintf(format, args...)})
	}
}

// Findings returns the findings kept so far.
func (c *Checker) Findings() []Finding { return c.findings }

// Errors returns the number of error findings, including those not kept.
func (c *Checker) Errors() int64 { return c.errors }

// Warnings returns the number of warnings, including those not kept.
func (c *Checker) Warnings() int64 { return c.warnings }

func (c *Checker) isFunc(id int32) bool {
	if w := int(id) >> 6; w < len(c.funcs) && c.funcs[w]&(1<<(uint(id)&63)) != 0 {
		return true
	}
	if c.farFuncs == nil {
		return false
	}
	_, ok := c.farFuncs[id]
	return ok
}

// setFunc marks id as a function. Ids come in order, so the bitset grows
// with the trace; an id far past it (out of order, already reported)
// goes to a map, so that one bogus id cannot cost memory in proportion
// to its value.
func (c *Checker) setFunc(id int32) {
	w := int(id) >> 6
	if w >= len(c.funcs) {
		if w > 2*len(c.funcs)+1024 {
			if c.farFuncs == nil {
				c.farFuncs = make(map[int32]struct{})
			}
			c.farFuncs[id] = struct{}{}
			return
		}
		c.funcs = append(c.funcs, make([]uint64, w+1-len(c.funcs))...)
	}
	c.funcs[w] |= 1 << (uint(id) & 63)
}

// create registers the creation of id (and of id+1 for a function).
func (c *Checker) create(e *Entry) {
	id := e.Obj
	switch {
	case id <= 0:
		c.report(RuleIDOrder, "%s creates object id %d; ids are positive", e.Kind, id)
		return
	case id == c.maxID && c.implicitProto:
		// MemInsight's writer reserves id+1 only for functions that have a
		// .prototype; after a getter, setter, arrow or method the next
		// object takes the id the reader implied for the prototype.
		c.warn(RuleIDOrder, "%s creates object id %d, which the preceding CREATE_FUN implied as its prototype (a function without a .prototype); MemInsight's reference counting tolerates this, its staleness and site-stats modes assert", e.Kind, id)
	case id <= c.maxID:
		c.report(RuleIDOrder, "%s creates object id %d, which was already created (the latest id is %d)", e.Kind, id, c.maxID)
		return
	case id != c.maxID+1:
		c.report(RuleIDOrder, "%s creates object id %d out of order: the next id is %d", e.Kind, id, c.maxID+1)
	}
	c.maxID = id
	c.implicitProto = false
	if e.Kind == CreateFun {
		if id == 1<<31-1 {
			c.report(RuleIDOrder, "CREATE_FUN of id %d leaves no id for its prototype", id)
			return
		}
		c.setFunc(id)
		c.maxID = id + 1
		c.implicitProto = true
	}
}

// ref checks a reference to an object id; zeroOK allows "no object".
func (c *Checker) ref(e *Entry, what string, id int32, zeroOK bool) bool {
	switch {
	case id == 0 && zeroOK:
		return false
	case id == 0:
		c.report(RuleIDUncreated, "%s %s is 0; it must name an object", e.Kind, what)
	case id < 0 || id > c.maxID:
		c.report(RuleIDUncreated, "%s %s %d refers to an object that was not created (the latest id is %d)", e.Kind, what, id, c.maxID)
	default:
		return true
	}
	return false
}

// siteOK reports whether a site the engine resolves is mapped (or one of
// the reserved script-0 locations).
func (c *Checker) siteOK(sid, iid int32) bool {
	return sid == 0 && (iid == 0 || iid == -1 || iid == -2 || iid == -50) || c.mapped.has(sid, iid)
}

func (c *Checker) site(e *Entry, what string, sid, iid int32) {
	if !c.siteOK(sid, iid) {
		c.report(RuleUnmappedSite, "%s %s %d:%d has no SOURCE_MAPPING", e.Kind, what, sid, iid)
	}
}

// parseSite parses a "sid:iid" location string as Integer.parseInt would,
// strictly: exactly two parts.
func parseSite(s string) (sid, iid int32, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return 0, 0, false
	}
	a, ok1 := parseJavaInt(s[:i])
	b, ok2 := parseJavaInt(s[i+1:])
	return a, b, ok1 && ok2
}

// parseSiteUTF16 is parseSite of a string's UTF-16LE bytes: a location
// is ASCII, so a code unit past 0x7F makes it no location.
func parseSiteUTF16(raw []byte) (sid, iid int32, ok bool) {
	var buf [64]byte
	if len(raw) > 2*len(buf) {
		return parseSite(decodeUTF16LE(raw)) // leading zeros, say
	}
	n := len(raw) / 2
	for i := 0; i < n; i++ {
		if raw[2*i+1] != 0 || raw[2*i] >= 0x80 {
			return 0, 0, false
		}
		buf[i] = raw[2*i]
	}
	return parseSite(unsafe.String(&buf[0], n))
}

// ParseSite splits a LAST_USE or TOP_LEVEL_FLUSH location as MemInsight's
// engine does: Java's s.split(":") (which drops trailing empty parts) and
// Integer.parseInt of the first two parts, ignoring any further parts. So
// "1:2:3" and "1:2:" read as 1:2, which Check (strict) still reports. It
// allocates nothing: "a:b..." parses iff a and b (the text up to the next
// ':') are Java ints.
func ParseSite(s string) (sid, iid int32, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return 0, 0, false
	}
	rest := s[i+1:]
	if j := strings.IndexByte(rest, ':'); j >= 0 {
		rest = rest[:j]
	}
	a, ok1 := parseJavaInt(s[:i])
	b, ok2 := parseJavaInt(rest)
	return a, b, ok1 && ok2
}

// parseJavaInt parses a decimal int32 with an optional sign, as Java's
// Integer.parseInt does for ASCII digits.
func parseJavaInt(s string) (int32, bool) {
	if s == "" || s == "+" || s == "-" {
		return 0, false
	}
	i := 0
	neg := false
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i = 1
	}
	var v int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
		if v > 1<<31 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	if v > 1<<31-1 || v < -1<<31 {
		return 0, false
	}
	return int32(v), true
}

// siteString parses the location of a LAST_USE or TOP_LEVEL_FLUSH. The
// reader interns short strings, so a recurring location usually has the
// same backing bytes: a direct-mapped cache keyed by the string's data
// pointer remembers each one parsed (a trace of 117 M entries has a few
// thousand locations).
func (c *Checker) siteString(e *Entry) (int32, int32, bool) {
	if c.raw {
		sid, iid, ok := c.rawSite(c.rawName)
		if !ok {
			c.decodeName(e)
			c.report(RuleSiteString, "%s location %q is not \"sid:iid\" with two 32-bit decimal integers", e.Kind, e.Name)
		}
		return sid, iid, ok
	}
	s := e.Name
	p := unsafe.StringData(s)
	h := (uintptr(unsafe.Pointer(p)) >> 3) ^ uintptr(len(s))
	ce := &c.sites[h%siteCacheSize]
	if ce.p == p && ce.n == len(s) && p != nil {
		return ce.sid, ce.iid, true
	}
	sid, iid, ok := parseSite(s)
	if !ok {
		c.report(RuleSiteString, "%s location %q is not \"sid:iid\" with two 32-bit decimal integers", e.Kind, s)
		return sid, iid, false
	}
	*ce = siteCacheEntry{p: p, n: len(s), sid: sid, iid: iid}
	return sid, iid, true
}

const siteCacheSize = 4096

// rawSite parses a location's UTF-16LE bytes. A direct-mapped cache
// keyed by the bytes themselves (up to 8 code units: a location a trace
// repeats) answers most without a parse.
func (c *Checker) rawSite(raw []byte) (int32, int32, bool) {
	n := len(raw)
	if n > 16 || n < 4 {
		return parseSiteUTF16(raw)
	}
	// The first and last 8 (or 4) bytes are the whole string.
	var a, b uint64
	if n >= 8 {
		a, b = binary.LittleEndian.Uint64(raw), binary.LittleEndian.Uint64(raw[n-8:])
	} else {
		a, b = uint64(binary.LittleEndian.Uint32(raw)), uint64(binary.LittleEndian.Uint32(raw[n-4:]))
	}
	h := (a*0x9E3779B97F4A7C15 ^ b) * 0xBF58476D1CE4E5B9
	ce := &c.rawSites[h>>(64-rawSiteBits)]
	if ce.a == a && ce.b == b && int(ce.n) == n {
		return ce.sid, ce.iid, true
	}
	sid, iid, ok := parseSiteUTF16(raw)
	if ok {
		*ce = rawSiteEntry{a: a, b: b, n: int32(n), sid: sid, iid: iid}
	}
	return sid, iid, ok
}

// rawSiteEntry caches the parse of a location of up to 8 code units,
// keyed by its bytes.
type rawSiteEntry struct {
	a, b     uint64
	n        int32
	sid, iid int32
}

const rawSiteBits = 10

type siteCacheEntry struct {
	p        *byte
	n        int
	sid, iid int32
}

// siteSet is the set of mapped sites: per script, a bitset over the range
// of iids it has mapped (a script's iids are dense: its own local ones, or
// a run of global ones), with the last two scripts asked for at hand (the
// current script and a callee's); iids that would stretch a script's range
// past maxIIDSpan go to a map. A map of every site cost a third of Check's
// time on large traces.
type siteSet struct {
	scripts map[int32]*iidSet
	other   map[uint64]struct{}
	sid     [2]int32
	set     [2]*iidSet
	next    int
}

// iidSet is a bitset over [lo, lo+64*len(bits)).
type iidSet struct {
	lo    int64
	bits  []uint64
	count int64 // the sites it holds
}

// A script's bitset spans at most maxIIDSpan iids, and at most 64 iids per
// site it holds (past a first 64K), so that a few mappings of far-apart
// iids cannot cost memory in proportion to the distance: the memory of
// the set stays within 8 bytes per mapped site.
const maxIIDSpan = 1 << 26

func (s *iidSet) spanLimit() int64 { return min(maxIIDSpan, max(1<<16, 64*(s.count+1))) }

func (m *siteSet) script(sid int32) *iidSet {
	if m.set[0] != nil && m.sid[0] == sid {
		return m.set[0]
	}
	if m.set[1] != nil && m.sid[1] == sid {
		return m.set[1]
	}
	s := m.scripts[sid]
	if s != nil {
		m.sid[m.next], m.set[m.next] = sid, s
		m.next ^= 1
	}
	return s
}

func (m *siteSet) has(sid, iid int32) bool {
	if s := m.script(sid); s != nil {
		if k := int64(iid) - s.lo; k >= 0 && k < int64(len(s.bits))*64 && s.bits[k>>6]&(1<<(uint64(k)&63)) != 0 {
			return true
		}
	}
	if len(m.other) == 0 {
		return false
	}
	_, ok := m.other[siteKey(sid, iid)]
	return ok
}

// add adds a site and reports whether it was new.
func (m *siteSet) add(sid, iid int32) bool {
	if m.has(sid, iid) {
		return false
	}
	s := m.scripts[sid]
	if s == nil {
		s = &iidSet{lo: int64(iid) &^ 63}
		m.scripts[sid] = s
	}
	v := int64(iid)
	hi := s.lo + int64(len(s.bits))*64
	limit := s.spanLimit()
	switch {
	case v >= s.lo && v < hi:
	case v >= hi && v-s.lo < limit:
		n := int((v-s.lo)>>6) + 1
		s.bits = append(s.bits, make([]uint64, max(n, min(2*len(s.bits), int(limit>>6)))-len(s.bits))...)
	case v < s.lo && hi-(v&^63) <= limit:
		lo := v &^ 63
		grown := make([]uint64, int((s.lo-lo)>>6)+len(s.bits))
		copy(grown[(s.lo-lo)>>6:], s.bits)
		s.lo, s.bits = lo, grown
	default:
		m.other[siteKey(sid, iid)] = struct{}{}
		return true
	}
	k := v - s.lo
	s.bits[k>>6] |= 1 << (uint64(k) & 63)
	s.count++
	return true
}

// Add checks one entry. index and offset locate it in the stream.
func (c *Checker) Add(e *Entry, index, offset int64) {
	c.index, c.offset = index, offset
	c.raw = false
	c.check(e)
}

// check applies the rules to e. With c.raw set, e's strings are not
// decoded: c.rawName holds the UTF-16LE bytes of its one string.
func (c *Checker) check(e *Entry) {
	meta := e.Kind.IsMeta()

	if c.inBlock && e.Kind != LastUse && e.Kind != EndLastUse {
		c.report(RuleLastUseBlock, "last-use block not closed by END_LAST_USE before this %s", e.Kind)
		c.inBlock = false
	}
	if !meta {
		if !c.sawGlobal {
			c.sawGlobal = true
			if e.Kind != CreateObj || e.Obj != 1 || e.IID != -1 || c.curSID != 0 {
				c.report(RuleGlobalFirst, "the first counted entry must be CREATE_OBJ(-1, 1) in script 0 (the global object), not %s", c.text(e))
			}
		}
		if c.afterReturn && e.Kind != FunctionExit {
			c.report(RuleBalance, "RETURN is not followed by FUNCTION_EXIT but by %s", e.Kind)
		}
		c.afterReturn = false
	}

	switch e.Kind {
	case Declare, Write:
		c.ref(e, "value", e.Obj, true)
	case CreateObj, CreateDOMNode:
		c.create(e)
		c.site(e, "allocation site", c.curSID, e.IID)
	case CreateFun:
		c.create(e)
		c.site(e, "allocation site", c.curSID, e.IID)
	case PutField:
		c.ref(e, "base", e.Base, false)
		c.ref(e, "value", e.Obj, true)
	case LastUse:
		if !c.inBlock {
			c.inBlock = true
			c.blockLast = 0
		}
		if c.ref(e, "object", e.Obj, false) {
			if e.Obj <= c.blockLast {
				c.report(RuleLastUseBlock, "LAST_USE of id %d after id %d: ids in a block ascend", e.Obj, c.blockLast)
			}
			c.blockLast = e.Obj
		}
		if int64(e.UseTime) > c.counted-1 || e.UseTime < -1 {
			c.report(RuleLastUseBlock, "LAST_USE time %d is not a past time (the current time is %d)", e.UseTime, c.counted-1)
		}
		c.siteString(e)
	case EndLastUse:
		c.inBlock = false
	case FunctionEnter:
		c.depth++
		c.site(e, "function-enter site", c.curSID, e.IID)
		if c.ref(e, "function", e.Obj, false) && !c.isFunc(e.Obj) {
			c.report(RuleNotFunction, "FUNCTION_ENTER of id %d, which was not created by CREATE_FUN", e.Obj)
		}
	case Call:
		c.depth++
		c.site(e, "call site", c.curSID, e.IID)
		c.site(e, "callee", e.SID, e.FunIID)
		if c.ref(e, "function", e.Obj, false) && !c.isFunc(e.Obj) {
			c.report(RuleNotFunction, "CALL of id %d, which was not created by CREATE_FUN", e.Obj)
		}
	case FunctionExit:
		if c.depth == 0 {
			c.report(RuleBalance, "FUNCTION_EXIT without a matching FUNCTION_ENTER or CALL")
		} else {
			c.depth--
		}
		c.site(e, "exit site", c.curSID, e.IID)
	case TopLevelFlush:
		if sid, iid, ok := c.siteString(e); ok {
			c.site(e, "location", sid, iid)
		}
	case UpdateIID:
		c.ref(e, "object", e.Obj, false)
		c.site(e, "new allocation site", c.curSID, e.IID)
	case Debug:
		c.ref(e, "object", e.Obj, true)
		c.site(e, "call site", c.curSID, e.IID)
	case Return:
		c.ref(e, "object", e.Obj, false)
		c.afterReturn = true
	case AddDOMChild, RemoveDOMChild:
		okP := c.ref(e, "parent", e.Base, false)
		okC := c.ref(e, "child", e.Obj, false)
		if okP && okC {
			k := siteKey(e.Base, e.Obj)
			if e.Kind == AddDOMChild {
				c.domEdges[k] = struct{}{}
			} else if _, ok := c.domEdges[k]; !ok {
				c.report(RuleDOMEdge, "REMOVE_DOM_CHILD of %d from %d, which is not its child", e.Obj, e.Base)
			} else {
				delete(c.domEdges, k)
			}
		}
	case AddToChildSet, RemoveFromChildSet:
		c.ref(e, "parent", e.Base, false)
		c.ref(e, "child", e.Obj, false)
	case DOMRoot:
		c.ref(e, "object", e.Obj, false)
	case ScriptEnter:
		if _, dup := c.scripts[e.SID]; dup {
			c.report(RuleScriptReuse, "SCRIPT_ENTER of script id %d, which was entered before", e.SID)
		}
		c.scripts[e.SID] = struct{}{}
		if c.OnScript != nil {
			if c.raw {
				c.decodeName(e)
			}
			c.OnScript(e.Name)
		}
	case ScriptExit:
	case SourceMapping:
		if _, ok := c.scripts[c.curSID]; !ok {
			c.report(RuleMappingOrder, "SOURCE_MAPPING of iid %d in script %d, which has no SCRIPT_ENTER yet", e.IID, c.curSID)
		} else {
			if !c.mapped.add(c.curSID, e.IID) {
				c.report(RuleMappingOrder, "SOURCE_MAPPING of %d:%d, which is already mapped", c.curSID, e.IID)
			}
		}
	case UpdateCurrentScript:
		c.curSID = e.SID
	case FreeVars:
	case Unreachable:
		c.report(RuleEngineOnly, "UNREACHABLE (25) is internal to MemInsight's engine, whose reader reads no fields for it; a writer must never emit it")
	}
	if !meta {
		c.counted++
	}
}

func (c *Checker) text(e *Entry) string {
	if c.raw {
		c.decodeName(e)
	}
	return string(AppendText(nil, e))
}

// decodeName decodes the strings of an entry checked undecoded, for a
// message.
func (c *Checker) decodeName(e *Entry) {
	if e.Kind == FreeVars && !e.AnyVars {
		e.Names = e.Names[:0]
		freeVarNames(c.rawName, func(b []byte) { e.Names = append(e.Names, decodeUTF16LE(b)) })
		return
	}
	e.Name = decodeUTF16LE(c.rawName)
}

// Finish applies the end-of-trace rules. index and offset are the entry
// count and the byte length of the stream.
func (c *Checker) Finish(index, offset int64) {
	c.index, c.offset = index, offset
	if c.inBlock {
		c.report(RuleLastUseBlock, "the trace ends inside a last-use block (no END_LAST_USE)")
	}
	if c.afterReturn {
		c.report(RuleBalance, "the trace ends after a RETURN without its FUNCTION_EXIT")
	}
	if !c.sawGlobal {
		c.report(RuleGlobalFirst, "the trace has no counted entry, so no global object")
	}
	if c.depth > 0 {
		c.warn(RuleBalance, "the trace ends with %d function activations open (the program stopped inside a function)", c.depth)
	}
}

// Depth returns the number of function activations open at this point.
func (c *Checker) Depth() int64 { return c.depth }

// Report is the result of checking a whole trace.
type Report struct {
	Entries  int64     // entries decoded
	Bytes    int64     // bytes decoded
	Time     int64     // logical time of the last counted entry (-1 if none)
	Findings []Finding // the first findings, in stream order
	Errors   int64     // error findings, including those not kept
	Warnings int64     // warnings, including those not kept
	// OpenFrames is the number of function activations still open at the
	// end (a program that exits from inside a function leaves some).
	OpenFrames int64
	// Scripts is the number of scripts entered (SCRIPT_ENTER): 0 when no
	// instrumented code ran.
	Scripts int64
}

// OK reports whether the trace has no error findings.
func (r *Report) OK() bool { return r.Errors == 0 }
