package lifetime

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unicode/utf16"

	"github.com/memtrace/memtrace/trace"
)

// defaultVal is MemInsight's ObjectStaleness.DEFAULT_VAL: unknown.
const defaultVal = -20

type luKind uint8

const (
	luNone luKind = iota
	luSite
	luRemovedFromDOM
)

type jsObj struct {
	id        int32
	site      Loc
	created   int64
	stack     *stackNode
	kind      ObjectKind
	staleness int64
	luTime    int64
	luKind    luKind
	lu        Loc
	unTime    int64
	unSet     bool
	un        Loc
	shallow   int64
}

// JSONStalenessWriter is MemInsight's non-streaming staleness client
// (StalenessAnalysis): at the end it prints, as pretty-printed JSON, the
// function entries and exits and, per allocation site (basename form), the
// creation, last use, unreachability and staleness of every object. This
// is the format of MemInsight's *.staleness.expected goldens; it prints
// raw sid:iid pairs. It keeps every object until the end, so its memory
// grows with the number of objects: it is a compatibility format for
// tests, not for large traces (use StalenessWriter or the summary).
type JSONStalenessWriter struct {
	NopListener
	w       *bufio.Writer
	testing bool
	eng     *Engine

	objs  map[int32]int // id -> index in list
	list  []*jsObj
	ftr   [][4]int64
	stack *stackNode
	dom   map[int32]map[int32]struct{}
	after []int32
	err   error
}

// NewJSONStalenessWriter returns a writer to w (shared as in
// NewRCWriter). testing lists the objects whose last use came after their
// unreachability, as MemInsight does with -Dtesting=yes.
func NewJSONStalenessWriter(w io.Writer, testing bool) *JSONStalenessWriter {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
	}
	return &JSONStalenessWriter{w: bw, testing: testing, objs: map[int32]int{}, dom: map[int32]map[int32]struct{}{}}
}

// Attach tells the writer which engine feeds it.
func (j *JSONStalenessWriter) Attach(e *Engine) { j.eng = e }

// Err returns the first error.
func (j *JSONStalenessWriter) Err() error { return j.err }

func (j *JSONStalenessWriter) fail(format string, args ...any) {
	if j.err != nil {
		return
	}
	msg := "lifetime: staleness: " + fmt.Sprintf(format, args...)
	if j.eng != nil {
		j.err = &trace.FormatError{Offset: j.eng.Offset(), Index: j.eng.Index(), Msg: msg}
	} else {
		j.err = fmt.Errorf("%s", msg)
	}
}

func (j *JSONStalenessWriter) get(id int32) *jsObj {
	if i, ok := j.objs[id]; ok {
		return j.list[i]
	}
	return nil
}

// Create implements Listener.
func (j *JSONStalenessWriter) Create(c CreateEvent) {
	if c.ID == 1 && (c.Kind == KindObject || c.Kind == KindDOM) {
		return
	}
	o := &jsObj{id: c.ID, site: c.Site, created: c.Time, stack: j.stack, kind: c.Kind,
		staleness: defaultVal, luTime: defaultVal, unTime: defaultVal, shallow: defaultVal}
	if i, ok := j.objs[c.ID]; ok {
		j.list[i] = o
		return
	}
	j.objs[c.ID] = len(j.list)
	j.list = append(j.list, o)
}

// FunctionEnter implements Listener.
func (j *JSONStalenessWriter) FunctionEnter(c CallEvent) {
	j.ftr = append(j.ftr, [4]int64{0, c.Time, int64(c.Loc.SID), int64(c.Loc.IID)})
	j.stack = &stackNode{site: c.CallSite, parent: j.stack}
}

// FunctionExit implements Listener.
func (j *JSONStalenessWriter) FunctionExit(c CallEvent) {
	j.ftr = append(j.ftr, [4]int64{1, c.Time, int64(c.Loc.SID), int64(c.Loc.IID)})
	if j.stack != nil {
		j.stack = j.stack.parent
	}
}

// UpdateIID implements Listener.
func (j *JSONStalenessWriter) UpdateIID(id int32, site Loc, _ int64) {
	o := j.get(id)
	if o == nil {
		j.fail("UPDATE_IID of object %d, which was never created", id)
		return
	}
	o.site, o.stack = site, j.stack
}

// Unreachable implements Listener.
func (j *JSONStalenessWriter) Unreachable(u Unreachability) {
	o := j.get(u.ID)
	if o == nil {
		j.fail("unreachable object %d was never created", u.ID)
		return
	}
	o.unTime, o.un, o.unSet = u.Time, u.Loc, true
	if _, in := j.dom[u.ID]; in {
		o.luTime, o.luKind, o.lu = u.Time, luSite, u.Loc
		delete(j.dom, u.ID)
	}
	base := o.created
	if o.luTime != defaultVal {
		base = o.luTime
	}
	st := u.Time - base
	if st < 0 {
		st = 0
		o.un = LocUnknown
		o.unTime = o.luTime
		if j.testing {
			j.after = append(j.after, u.ID)
		}
	}
	o.staleness = st
	o.shallow = int64(u.OutDegree) + 1
}

// LastUse implements Listener.
func (j *JSONStalenessWriter) LastUse(id int32, t int64, site Loc) {
	if id == 1 {
		return
	}
	o := j.get(id)
	if o == nil {
		j.fail("last use of object %d, which was never created", id)
		return
	}
	if o.kind != KindDOM || t > o.luTime {
		o.luTime, o.luKind, o.lu = t, luSite, site
		if o.unTime != defaultVal {
			if o.unTime > o.luTime {
				o.staleness = o.unTime - o.luTime
			} else {
				o.unTime, o.un, o.unSet = o.luTime, LocUnknown, true
				o.staleness = 0
			}
		}
	}
}

// DOMRoot implements Listener.
func (j *JSONStalenessWriter) DOMRoot(id int32, _ int64) { j.dom[id] = map[int32]struct{}{} }

// AddDOMChild implements Listener.
func (j *JSONStalenessWriter) AddDOMChild(parent, child int32, _ int64) {
	ch, ok := j.dom[parent]
	if !ok {
		return
	}
	ch[child] = struct{}{}
	if _, in := j.dom[child]; !in {
		j.dom[child] = map[int32]struct{}{}
	}
}

// RemoveDOMChild implements Listener.
func (j *JSONStalenessWriter) RemoveDOMChild(parent, child int32, t int64) {
	ch, ok := j.dom[parent]
	if !ok {
		return
	}
	delete(ch, child)
	work := []int32{child}
	for len(work) > 0 {
		cur := work[0]
		work = work[1:]
		o := j.get(cur)
		if o == nil {
			j.fail("DOM node %d, removed from the DOM, was never created", cur)
			return
		}
		o.luTime, o.luKind = t, luRemovedFromDOM
		kids, ok := j.dom[cur]
		if !ok {
			j.fail("DOM node %d is not in the DOM tree", cur)
			return
		}
		work = appendSortedKeys(work, kids)
		delete(j.dom, cur)
	}
}

func (j *JSONStalenessWriter) short(l Loc) string {
	if j.eng != nil {
		if w := j.eng.Location(l); w != nil {
			return w.Short()
		}
	}
	j.fail("no source location for %s", l)
	return l.String()
}

func slJSON(l Loc) jsonValue {
	return jsonObj{{"sourceFileId", jsonNum(l.SID)}, {"iid", jsonNum(l.IID)}}
}

// End implements Listener: it writes the output.
func (j *JSONStalenessWriter) End(EndEvent) {
	w := j.w
	if j.testing && len(j.after) > 0 {
		w.WriteString("The following objects had lastUse occur AFTER unreachability\n")
		sort.Slice(j.after, func(a, b int) bool { return j.after[a] < j.after[b] })
		for _, id := range j.after {
			w.WriteString(strconv.Itoa(int(id)))
			w.WriteByte('\n')
		}
	}
	// Group by allocation site in order of first appearance, then by the
	// site's basename form in Java string order.
	var sites []Loc
	bySite := map[Loc][]*jsObj{}
	for _, o := range j.list {
		if _, ok := bySite[o.site]; !ok {
			sites = append(sites, o.site)
		}
		bySite[o.site] = append(bySite[o.site], o)
	}
	byKey := map[string][]jsonValue{}
	var keys []string
	for _, s := range sites {
		k := j.short(s)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		for _, o := range bySite[s] {
			byKey[k] = append(byKey[k], j.objJSON(o))
		}
	}
	sort.Slice(keys, func(a, b int) bool { return javaLess(keys[a], keys[b]) })
	ftr := make(jsonArr, len(j.ftr))
	for i, f := range j.ftr {
		ftr[i] = jsonArr{jsonNum(f[0]), jsonNum(f[1]), jsonNum(f[2]), jsonNum(f[3])}
	}
	info := make(jsonObj, len(keys))
	for i, k := range keys {
		info[i] = jsonMember{k, jsonArr(byKey[k])}
	}
	root := jsonObj{{"functionTrace", ftr}, {"objectInfo", info}}
	w.Write(root.appendPretty(nil, 0))
	w.WriteByte('\n')
	if err := w.Flush(); err != nil && j.err == nil {
		j.err = err
	}
}

func (j *JSONStalenessWriter) objJSON(o *jsObj) jsonValue {
	stack := jsonArr{}
	for f := o.stack; f != nil; f = f.parent {
		stack = append(stack, slJSON(f.site))
	}
	un := jsonValue(jsonStr("no information"))
	if o.unSet {
		un = jsonStr(j.short(o.un))
	}
	st := o.staleness
	if st == defaultVal {
		st = -1
	}
	var luT, luS jsonValue = jsonStr("never used"), jsonStr("never used")
	if o.luTime != defaultVal {
		luT = jsonNum(o.luTime)
	}
	switch o.luKind {
	case luSite:
		luS = slJSON(o.lu)
	case luRemovedFromDOM:
		luS = jsonStr("removed from DOM")
	}
	return jsonObj{
		{"objectId", jsonNum(o.id)},
		{"creationTime", jsonNum(o.created)},
		{"creationCallStack", stack},
		{"unreachableTime", jsonNum(o.unTime)},
		{"unreachableSite", un},
		{"staleness", jsonNum(st)},
		{"lastUseTime", luT},
		{"lastUseSite", luS},
		{"shallowSize", jsonNum(o.shallow)},
		{"type", jsonStr(o.kind.String())},
	}
}

// javaLess compares strings as Java's String.compareTo does (by UTF-16
// code units).
func javaLess(a, b string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < 0x80 && b[i] < 0x80 {
				return a[i] < b[i]
			}
			ua, ub := utf16.Encode([]rune(a[i:])), utf16.Encode([]rune(b[i:]))
			for k := 0; k < len(ua) && k < len(ub); k++ {
				if ua[k] != ub[k] {
					return ua[k] < ub[k]
				}
			}
			return len(ua) < len(ub)
		}
	}
	return len(a) < len(b)
}

// WriteJSONStaleness runs the engine over the trace read from r and
// writes MemInsight's JSON staleness output (the *.staleness.expected
// format; with testing, the DEBUG lines and end blocks come first).
func WriteJSONStaleness(w io.Writer, r io.Reader, engOpts Options, testing bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var ls []Listener
	var rc *RCWriter
	if testing {
		rc = NewRCWriter(bw, RCOptions{Testing: true})
		ls = append(ls, rc)
	}
	js := NewJSONStalenessWriter(bw, testing)
	ls = append(ls, js)
	e := NewEngine(engOpts, Multi(ls...))
	if rc != nil {
		rc.Attach(e)
	}
	js.Attach(e)
	err := e.Run(trace.NewReader(r))
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if rc != nil && rc.Err() != nil {
		return rc.Err()
	}
	return js.Err()
}
