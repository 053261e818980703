package js

// Declaration bookkeeping for early errors (redeclarations). The full scope
// analysis that resolves references lives elsewhere; this only knows enough
// to reject conflicting declarations, as the spec's early errors require.

type scopeKind uint8

const (
	scopeBlock scopeKind = iota
	scopeTop
	scopeFunction // function, arrow, class static block: a var scope
	scopeCatch    // catch clause with a simple parameter
)

// nameSet is a small set of names: a slice, turned into a map when large.
type nameSet struct {
	list []string
	m    map[string]struct{}
}

func (s *nameSet) has(n string) bool {
	if s.m != nil {
		_, ok := s.m[n]
		return ok
	}
	for _, x := range s.list {
		if x == n {
			return true
		}
	}
	return false
}

func (s *nameSet) add(n string) {
	if s.m != nil {
		s.m[n] = struct{}{}
		return
	}
	s.list = append(s.list, n)
	if len(s.list) > 12 {
		s.m = make(map[string]struct{}, 32)
		for _, x := range s.list {
			s.m[x] = struct{}{}
		}
	}
}

func (s *nameSet) reset() {
	s.list = s.list[:0]
	s.m = nil
}

type scope struct {
	kind      scopeKind
	outer     *scope
	lexical   nameSet
	functions nameSet // sloppy block-level and top-level function declarations
	vars      nameSet
	catchName string
}

// bindKind is how a declaration binds its name.
type bindKind uint8

const (
	bindVar      bindKind = iota // var, parameters, function declarations in var position
	bindLexical                  // let, const, class, strict block functions, module top functions
	bindFunction                 // sloppy function declarations in blocks
	bindCatch                    // a simple catch parameter
)

func (p *parser) pushScope(kind scopeKind) {
	var s *scope
	if n := len(p.scopePool); n > 0 {
		s = p.scopePool[n-1]
		p.scopePool = p.scopePool[:n-1]
		s.lexical.reset()
		s.functions.reset()
		s.vars.reset()
		s.catchName = ""
	} else {
		s = new(scope)
	}
	s.kind = kind
	s.outer = p.scope
	p.scope = s
}

func (p *parser) popScope() {
	s := p.scope
	p.scope = s.outer
	s.outer = nil
	p.scopePool = append(p.scopePool, s)
}

// functionsAsVar reports whether function declarations directly in s bind
// like var.
func (p *parser) functionsAsVar(s *scope) bool {
	return s.kind == scopeFunction || s.kind == scopeTop && p.goal != Module
}

func (p *parser) declare(id *Ident, kind bindKind) {
	name := id.Name
	s := p.scope
	redeclared := false
	switch kind {
	case bindLexical:
		redeclared = s.lexical.has(name) || s.functions.has(name) || s.vars.has(name)
		s.lexical.add(name)
		if s.kind == scopeTop && p.goal == Module {
			delete(p.undefinedExports, name)
		}
	case bindCatch:
		redeclared = s.lexical.has(name)
		s.lexical.add(name)
		s.catchName = name
	case bindFunction:
		if p.functionsAsVar(s) {
			redeclared = s.lexical.has(name)
		} else {
			redeclared = s.lexical.has(name) || s.vars.has(name)
		}
		s.functions.add(name)
	case bindVar:
		for sc := s; sc != nil; sc = sc.outer {
			if sc.lexical.has(name) && !(sc.kind == scopeCatch && sc.catchName == name) ||
				!p.functionsAsVar(sc) && sc.functions.has(name) {
				redeclared = true
				break
			}
			sc.vars.add(name)
			if sc.kind == scopeTop && p.goal == Module {
				delete(p.undefinedExports, name)
			}
			if sc.kind == scopeFunction || sc.kind == scopeTop {
				break
			}
		}
	}
	if redeclared {
		p.failAt(id.Start, id.End, "\""+name+"\" has already been declared")
	}
}

// declarePattern declares every name bound by a binding pattern.
func (p *parser) declarePattern(pat Pattern, kind bindKind) {
	switch n := pat.(type) {
	case *Ident:
		p.declare(n, kind)
	case *ArrayPattern:
		for _, e := range n.Elems {
			if e != nil {
				p.declarePattern(e, kind)
			}
		}
	case *ObjectPattern:
		for _, prop := range n.Props {
			switch prop := prop.(type) {
			case *Property:
				p.declarePattern(prop.Value.(Pattern), kind)
			case *RestElement:
				p.declarePattern(prop.Target, kind)
			}
		}
	case *AssignPattern:
		p.declarePattern(n.Target, kind)
	case *RestElement:
		p.declarePattern(n.Target, kind)
	}
}

// boundNames appends the names a binding pattern binds.
func boundNames(pat Pattern, out []*Ident) []*Ident {
	switch n := pat.(type) {
	case *Ident:
		out = append(out, n)
	case *ArrayPattern:
		for _, e := range n.Elems {
			if e != nil {
				out = boundNames(e, out)
			}
		}
	case *ObjectPattern:
		for _, prop := range n.Props {
			switch prop := prop.(type) {
			case *Property:
				out = boundNames(prop.Value.(Pattern), out)
			case *RestElement:
				out = boundNames(prop.Target, out)
			}
		}
	case *AssignPattern:
		out = boundNames(n.Target, out)
	case *RestElement:
		out = boundNames(n.Target, out)
	}
	return out
}
