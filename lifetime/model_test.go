package lifetime

import (
	"fmt"
	"sort"

	"github.com/memtrace/memtrace/trace"
)

// This file holds an independent, deliberately naive model of the heap a
// trace describes, used by the property tests: contexts with variable maps,
// objects with field maps and child sets, and reachability computed by a
// full mark-sweep from the contexts on the call stack. It shares no code
// with the engine.

type mCtx struct {
	parent   *mCtx
	global   bool
	vars     map[string]int32
	captured map[string]bool // names captured by closures made here
	marked   map[string]bool // names kept at sealing
	sealed   bool
}

type mObj struct {
	fields   map[string]int32
	children map[string]map[int32]bool
	closure  *mCtx // functions made in a non-global context
}

type model struct {
	global   *mCtx
	stack    []*mCtx
	objs     map[int32]*mObj
	freeVars map[int32][]string
	closures map[int32]*mCtx
	created  map[int32]bool
	ended    bool
}

func newModel() *model {
	g := &mCtx{global: true, vars: map[string]int32{}}
	return &model{
		global: g, stack: []*mCtx{g},
		objs: map[int32]*mObj{}, freeVars: map[int32][]string{},
		closures: map[int32]*mCtx{}, created: map[int32]bool{},
	}
}

func (m *model) top() *mCtx { return m.stack[len(m.stack)-1] }

func (m *model) obj(id int32) *mObj {
	o := m.objs[id]
	if o == nil {
		o = &mObj{fields: map[string]int32{}, children: map[string]map[int32]bool{}}
		m.objs[id] = o
	}
	return o
}

func norm(v int32) int32 {
	if v == 1 {
		return 0
	}
	return v
}

// lookup returns the value a name has in the current scope (0 if none).
func (m *model) lookup(name string) int32 {
	for c := m.top(); c != nil; c = c.parent {
		if v, ok := c.vars[name]; ok {
			return v
		}
	}
	return 0
}

func (m *model) write(name string, v int32) {
	for c := m.top(); ; c = c.parent {
		if _, ok := c.vars[name]; ok || c.global {
			c.vars[name] = v
			return
		}
	}
}

func (m *model) apply(e *trace.Entry) {
	switch e.Kind {
	case trace.Declare:
		m.top().vars[e.Name] = norm(e.Obj)
	case trace.Write:
		m.write(e.Name, norm(e.Obj))
	case trace.PutField:
		if e.Base == 1 {
			m.write(e.Name, norm(e.Obj))
		} else if v := norm(e.Obj); v == 0 {
			delete(m.obj(e.Base).fields, e.Name)
		} else {
			m.obj(e.Base).fields[e.Name] = v
		}
	case trace.CreateObj, trace.CreateDOMNode:
		if e.Obj != 1 {
			m.obj(e.Obj)
			m.created[e.Obj] = true
		}
	case trace.CreateFun:
		f := m.obj(e.Obj)
		m.obj(e.Obj + 1)
		m.created[e.Obj], m.created[e.Obj+1] = true, true
		f.fields["prototype"] = e.Obj + 1
		t := m.top()
		m.closures[e.Obj] = t
		if !t.global {
			f.closure = t
			if t.captured == nil {
				t.captured = map[string]bool{}
			}
			for _, n := range m.freeVars[e.FunIID] {
				t.captured[n] = true
			}
		}
	case trace.FreeVars:
		m.freeVars[e.IID] = append([]string(nil), e.Names...)
	case trace.Call, trace.FunctionEnter:
		m.stack = append(m.stack, &mCtx{parent: m.closures[e.Obj], vars: map[string]int32{}})
	case trace.FunctionExit:
		c := m.top()
		m.stack = m.stack[:len(m.stack)-1]
		// Captured names are kept in the nearest non-global declaring
		// context.
		for n := range c.captured {
			for a := c; !a.global; a = a.parent {
				if _, ok := a.vars[n]; ok {
					if a.marked == nil {
						a.marked = map[string]bool{}
					}
					a.marked[n] = true
					break
				}
			}
		}
		for n := range c.vars {
			if !c.marked[n] {
				delete(c.vars, n)
			}
		}
		c.sealed = true
	case trace.AddDOMChild:
		m.addChild(m.obj(e.Base), "~dom-child~", e.Obj)
	case trace.RemoveDOMChild:
		delete(m.obj(e.Base).children["~dom-child~"], e.Obj)
	case trace.AddToChildSet:
		if e.Base == 1 {
			m.addChild(nil, e.Name, e.Obj)
		} else {
			m.addChild(m.obj(e.Base), e.Name, e.Obj)
		}
	case trace.RemoveFromChildSet:
		if e.Base == 1 {
			delete(m.globalChildren()[e.Name], e.Obj)
		} else {
			delete(m.obj(e.Base).children[e.Name], e.Obj)
		}
	}
}

// GLOBAL's child sets are kept on a pseudo-object with id 1.
func (m *model) globalChildren() map[string]map[int32]bool { return m.obj(1).children }

func (m *model) addChild(o *mObj, name string, c int32) {
	var ch map[string]map[int32]bool
	if o == nil {
		ch = m.globalChildren()
	} else {
		ch = o.children
	}
	if ch[name] == nil {
		ch[name] = map[int32]bool{}
	}
	ch[name][c] = true
}

// reachable returns every object reachable from the contexts on the stack
// by a full mark phase.
func (m *model) reachable() map[int32]bool {
	seen := map[int32]bool{}
	seenCtx := map[*mCtx]bool{}
	var objs []int32
	var ctxs []*mCtx
	if m.ended {
		return seen
	}
	ctxs = append(ctxs, m.stack...)
	// GLOBAL's child sets (window listeners) are roots too.
	for _, set := range m.globalChildren() {
		for c := range set {
			objs = append(objs, c)
		}
	}
	for len(objs) > 0 || len(ctxs) > 0 {
		if n := len(ctxs); n > 0 {
			c := ctxs[n-1]
			ctxs = ctxs[:n-1]
			if c == nil || seenCtx[c] {
				continue
			}
			seenCtx[c] = true
			for _, v := range c.vars {
				objs = append(objs, v)
			}
			ctxs = append(ctxs, c.parent)
			continue
		}
		id := objs[len(objs)-1]
		objs = objs[:len(objs)-1]
		if id == 0 || id == 1 || seen[id] {
			continue
		}
		seen[id] = true
		o := m.objs[id]
		if o == nil {
			continue
		}
		for _, v := range o.fields {
			objs = append(objs, v)
		}
		for _, set := range o.children {
			for c := range set {
				objs = append(objs, c)
			}
		}
		if o.closure != nil {
			ctxs = append(ctxs, o.closure)
		}
	}
	return seen
}

func sortedIDs(s map[int32]bool) []int32 {
	var ids []int32
	for id := range s {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a] < ids[b] })
	return ids
}

func (m *model) String() string {
	return fmt.Sprintf("model{stack:%d objs:%d}", len(m.stack), len(m.objs))
}
