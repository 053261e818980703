package lifetime

import (
	"strconv"
	"strings"
)

// This file answers what holds an object: the shortest paths, over the
// engine's heap graph as it is at a moment, from the roots (the global
// context and the contexts of the functions running, as markLive starts
// from) to the objects still live. A breadth-first search from all roots
// at once reaches each vertex first by a shortest path, which its parent
// pointers give back.

// Step is one edge of a retaining path: the holder (a context, "GLOBAL"
// or "C(location)"; an object, by its allocation site) and the edge's
// name as the trace names it (a variable, a property, "~map~E(key)" for a
// Map's entry: docs/natives.md).
type Step struct {
	Holder string `json:"holder"`
	Edge   string `json:"edge"`
	// Context: the holder is a context (a closure's variables, or the
	// global scope), not an object.
	Context bool `json:"context,omitempty"`
}

// BeforeEnder is a Listener that wants the heap as the trace ends,
// before the engine reclaims what is left (BeforeEnd is called once, with
// the engine, which may be asked for Retainers then).
type BeforeEnder interface {
	BeforeEnd(e *Engine)
}

func (m multi) BeforeEnd(e *Engine) {
	for _, l := range m {
		if b, ok := l.(BeforeEnder); ok {
			b.BeforeEnd(e)
		}
	}
}

// Retainers visits every live object of the heap as it is now, nearest
// to the roots first, with a shortest retaining path from a root (its
// last step's edge points at the object); visit returns false to stop.
// want, when not nil, says which objects to build a path for (by id):
// the search still crosses the others.
func (e *Engine) Retainers(want func(id int32) bool, visit func(id int32, path []Step) bool) {
	g := &e.g
	n := len(g.verts)
	parent := make([]int32, n) // the edge that reached a vertex, +1; 0 = not reached
	root := make([]bool, n)
	queue := make([]int32, 0, 1024)
	for i := len(e.ctxStack) - 1; i >= 0; i-- {
		c := e.ctxStack[i]
		if c.slot == 0 || root[c.slot-1] {
			continue
		}
		root[c.slot-1] = true
		queue = append(queue, c.slot-1)
	}
	var path []Step
	for h := 0; h < len(queue); h++ {
		s := queue[h]
		v := &g.verts[s]
		if v.ctx == nil && (want == nil || want(v.id)) {
			path = e.pathTo(s, parent, path[:0])
			if !visit(v.id, path) {
				return
			}
		}
		for _, ei := range v.out {
			if ei < 0 {
				continue
			}
			t := g.edges[ei].to
			if parent[t] == 0 && !root[t] {
				parent[t] = ei + 1
				queue = append(queue, t)
			}
		}
	}
}

// pathTo rebuilds the path that reached vertex s, from its root.
func (e *Engine) pathTo(s int32, parent []int32, out []Step) []Step {
	g := &e.g
	for parent[s] != 0 {
		ed := &g.edges[parent[s]-1]
		from := &g.verts[ed.from]
		st := Step{Edge: e.nameStr[ed.name]}
		if from.ctx != nil {
			st.Holder, st.Context = from.ctx.Name(), true
		} else if l := e.AllocSite(from.id); l != nil {
			st.Holder = l.String()
		} else {
			st.Holder = "unknown"
		}
		out = append(out, st)
		s = ed.from
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// PathShape is a path's edges with what varies from object to object
// left out, so that the paths of many objects group: a Map entry's key
// ("~map~E(k)" → "~map~"), an array index ("17" → "[i]").
func PathShape(path []Step) string {
	var b strings.Builder
	for i, st := range path {
		if i > 0 {
			b.WriteString(" → ")
		}
		b.WriteString(st.Holder)
		b.WriteString(" .")
		b.WriteString(EdgeShape(st.Edge))
	}
	return b.String()
}

// EdgeShape is an edge's name with what varies left out: the key or id
// after a modelled edge's ~kind~ (a Map entry's "~map~E(k)", a timer's
// "~timer~5"), an array index.
func EdgeShape(name string) string {
	if len(name) > 2 && name[0] == '~' {
		if i := strings.IndexByte(name[1:], '~'); i >= 0 {
			return name[:i+2]
		}
	}
	if _, err := strconv.Atoi(name); err == nil {
		return "[i]"
	}
	return name
}

// Retainer is a path shape that holds some of a site's objects at the end
// of the run: one of the objects' paths (Path), and how many of the
// objects it holds (Objects; of at most RetainerSample per site).
type Retainer struct {
	Path    []Step `json:"path"`
	Objects int    `json:"objects"`
}

// RetainerSample is how many of a site's objects live at the end get a
// retaining path (the nearest to the roots first); RetainerShapes how
// many shapes a site lists, the most common first.
const (
	RetainerSample = 256
	RetainerShapes = 3
)

// firstPass is the first pass's part of the summary and its details: as
// the trace ends, the retaining paths of the objects still reachable,
// grouped per allocation site by shape; with details, also the snapshots
// through the run, the detached DOM nodes and the trace's last time.
type firstPass struct {
	NopListener
	details  bool
	domRoot  int32
	end      int64
	endSets  map[string]*shapeSet
	detached map[string]*shapeSet
	snaps    snapshots
}

func (c *firstPass) DOMRoot(id int32, _ int64) { c.domRoot = id }

func (c *firstPass) End(ev EndEvent) { c.end = ev.Time }

func (c *firstPass) BeforeEnd(e *Engine) {
	if c.details {
		c.detached = map[string]*shapeSet{}
	}
	c.endSets = snapshotOf(e, RetainerSample, c.domRoot, c.detached)
}

// top lists a site's most common retainers.
func (c *firstPass) top(site string) []Retainer { return c.endSets[site].top() }

// DescribeRetainer says in words what holds an object whose retaining
// path is path: the variable nearest to it on the path and the way from
// it to the object's holder (an expression: `registry.byName`), what that
// holder is and where it was made, and whose scope the variable is in.
// For the demo's render cache: "held by `cache` (a Map made at
// server.js:14:17) in the closure of the function at server.js:13:1,
// reached from `cachedRender`".
func DescribeRetainer(path []Step) string {
	if len(path) == 0 {
		return "held by nothing (a root)"
	}
	n := len(path)
	k := -1 // the step out of the nearest context
	for i := n - 1; i >= 0; i-- {
		if path[i].Context {
			k = i
			break
		}
	}
	if k < 0 {
		return "held by " + containerKind(path[n-1]) + " made at " + shortLoc(path[n-1].Holder)
	}
	v := path[k]
	expr := varName(v.Edge)
	for _, st := range path[k+1 : max(k+1, n-1)] {
		expr += accessor(st.Edge)
	}
	var b strings.Builder
	b.WriteString("held by `" + expr + "`")
	if k+1 < n {
		b.WriteString(" (" + containerKind(path[n-1]) + " made at " + shortLoc(path[n-1].Holder) + ")")
	}
	if v.Holder == "GLOBAL" {
		b.WriteString(", a global")
	} else {
		b.WriteString(" in the closure of the function at " + shortLoc(strings.TrimSuffix(strings.TrimPrefix(v.Holder, "C("), ")")))
		// How the closure is reached: from its path's first variable.
		if k > 0 && path[0].Context {
			b.WriteString(", reached from `" + varName(path[0].Edge) + "`")
		}
	}
	return b.String()
}

// accessor is an edge as a step of a JavaScript expression.
func accessor(edge string) string {
	switch sh := EdgeShape(edge); {
	case sh == "[i]":
		return "[" + edge + "]"
	case sh == "~map~":
		return ".get(…)"
	case strings.HasPrefix(sh, "~"):
		return "" // a modelled edge (a listener, a timer): no expression
	case isIdent(edge):
		return "." + edge
	default:
		return "[" + strconv.Quote(edge) + "]"
	}
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// containerKind names what an object on a path is, by the edge the path
// takes out of it.
func containerKind(st Step) string {
	switch EdgeShape(st.Edge) {
	case "~map~", "~mapkey~":
		return "a Map"
	case "~set~":
		return "a Set"
	case "[i]":
		return "an array"
	case "~event~":
		return "the listeners of an event emitter"
	case "~dom-child~":
		return "a DOM node"
	case "_CONTEXT_":
		return "a function"
	}
	return "an object"
}

// varName is a variable's name without the trace's scope suffix (@N).
func varName(s string) string {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		if _, err := strconv.Atoi(s[i+1:]); err == nil {
			return s[:i]
		}
	}
	return s
}

// shortLoc is a location file:line:col:endLine:endCol as file:line:col.
func shortLoc(s string) string {
	parts := strings.Split(s, ":")
	if len(parts) >= 5 {
		return strings.Join(parts[:len(parts)-2], ":")
	}
	return s
}
