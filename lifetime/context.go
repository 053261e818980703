package lifetime

// Context is a scope of variable bindings: the global scope, or one
// function invocation. Its variables point to objects through graph edges;
// the Context itself only records which names it declares and which of
// them closures created in it (or in its descendants) capture.
type Context struct {
	parent *Context
	where  *Location // the function-enter location; nil for GLOBAL
	global bool
	live   bool // from creation until sealed

	vars varSet
	// refs are the FREE_VARS sets of the functions created while this
	// context was on top (its referencedNames); nil once sealed.
	refs [][]int32

	slot int32 // graph vertex slot+1, 0 = not in the graph
	cand int32 // depth+1 of the topmost candidate set holding it
	qpos int32 // cycle-queue position+1
}

// Name returns the context's name: "GLOBAL" or the full location of the
// function's body, as MemInsight prints it inside "C(...)".
func (c *Context) Name() string {
	if c.where == nil {
		return "GLOBAL"
	}
	return c.where.String()
}

// String returns "C(name)".
func (c *Context) String() string { return "C(" + c.Name() + ")" }

// Parent returns the lexically enclosing context, nil for GLOBAL.
func (c *Context) Parent() *Context { return c.parent }

// IsGlobal reports whether c is the global context.
func (c *Context) IsGlobal() bool { return c.global }

// Live reports whether c has not been sealed yet.
func (c *Context) Live() bool { return c.live }

// addRefs records a FREE_VARS set as captured by a closure created in c.
func (c *Context) addRefs(names []int32) {
	if names == nil || c.global || !c.live {
		// GLOBAL's captured names are never consulted (sealing marks
		// nothing in GLOBAL), so they are not kept.
		return
	}
	for _, r := range c.refs {
		if len(r) == len(names) && (len(r) == 0 || &r[0] == &names[0]) {
			return
		}
	}
	c.refs = append(c.refs, names)
}

// seal marks the variables captured by closures (nearest declaration,
// excluding GLOBAL) and makes c not live. The caller then deletes the
// unmarked variables after releasing their edges.
func (c *Context) seal() {
	for _, set := range c.refs {
		for _, n := range set {
			for a := c; !a.global; a = a.parent {
				if i := a.vars.find(n); i >= 0 {
					a.vars.list[i].ref = true
					break
				}
			}
		}
	}
	c.refs = nil
	c.live = false
}

// resolve finds the context a WRITE of name binds to, starting at c:
// the nearest context declaring it, or GLOBAL, where it is then declared.
func (c *Context) resolve(name int32) *Context {
	for a := c; ; a = a.parent {
		if a.vars.find(name) >= 0 {
			return a
		}
		if a.global || a.parent == nil {
			a.vars.add(name)
			return a
		}
	}
}

type varEntry struct {
	name int32
	ref  bool
}

// varSet is an insertion-ordered set of variable names with a
// "referenced" mark, indexed by a map once it grows.
type varSet struct {
	list []varEntry
	idx  map[int32]int32
	inl  [4]varEntry // list's first backing array: most sets are small
}

const varIndexThreshold = 12

func (s *varSet) find(name int32) int {
	if s.idx != nil {
		if i, ok := s.idx[name]; ok {
			return int(i)
		}
		return -1
	}
	for i := range s.list {
		if s.list[i].name == name {
			return i
		}
	}
	return -1
}

func (s *varSet) add(name int32) {
	if s.find(name) >= 0 {
		return
	}
	if s.list == nil {
		s.list = s.inl[:0]
	}
	s.list = append(s.list, varEntry{name: name})
	if s.idx != nil {
		s.idx[name] = int32(len(s.list) - 1)
	} else if len(s.list) > varIndexThreshold {
		s.reindex()
	}
}

func (s *varSet) reindex() {
	if len(s.list) <= varIndexThreshold {
		s.idx = nil
		return
	}
	s.idx = make(map[int32]int32, len(s.list))
	for i, v := range s.list {
		s.idx[v.name] = int32(i)
	}
}

// unreferenced reports whether name is a variable of the set that no
// closure captured.
func (s *varSet) unreferenced(name int32) bool {
	i := s.find(name)
	return i >= 0 && !s.list[i].ref
}

// dropUnreferenced deletes the unmarked variables.
func (s *varSet) dropUnreferenced() {
	j := 0
	for _, v := range s.list {
		if v.ref {
			s.list[j] = v
			j++
		}
	}
	if j == 0 {
		s.list = nil
	} else {
		s.list = s.list[:j:j]
	}
	s.reindex()
}
