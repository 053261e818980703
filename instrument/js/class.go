package js

import "unicode/utf8"

// parseClassRest parses "extends ..." and the class body into c. The
// caller has made the code strict.
func (p *parser) parseClassRest(c *Class) {
	if p.isKw(kwExtends) {
		p.next()
		c.Super = p.parseSubscripts(p.parsePrimary(nil), false)
	}
	c.BodySpan.Start = p.tok().start
	p.expect(tLBrace)
	cc := &classCtx{outer: p.class, declared: map[string]uint8{}}
	p.class = cc
	sawCtor := false
	for !p.is(tRBrace) {
		if p.eat(tSemi) {
			continue
		}
		m := p.parseClassMember(c.Super != nil)
		if md, ok := m.(*Method); ok && md.Kind == MethodConstructor {
			if sawCtor {
				p.failAt(md.Start, md.End, "a class may only have one constructor")
			}
			sawCtor = true
		}
		c.Members = append(c.Members, m)
	}
	p.next()
	c.BodySpan.End = p.prevEnd
	c.End = p.prevEnd
	p.class = cc.outer
	for _, u := range cc.used {
		if _, ok := cc.declared[u.Name]; ok {
			continue
		}
		if cc.outer == nil {
			p.failAt(u.Start, u.End, "private name #"+u.Name+" is not defined")
		}
		cc.outer.used = append(cc.outer.used, u)
	}
}

func keyName(k Expr) (string, bool) {
	switch k := k.(type) {
	case *Ident:
		return k.Name, true
	case *StringLit:
		return k.Value, true
	}
	return "", false
}

// takeDecorators returns the decorators read before "export" and any
// that follow it (before "class").
func (p *parser) takeDecorators() []Expr {
	decs := p.pendingDecorators
	p.pendingDecorators = nil
	if p.is(tAt) {
		if decs != nil {
			p.fail("decorators cannot appear both before and after \"export\"")
		}
		decs = p.parseDecorators()
	}
	if !p.isKw(kwClass) {
		p.expected("\"class\"")
	}
	return decs
}

// parseDecorators parses "@expr" decorators.
func (p *parser) parseDecorators() []Expr {
	var decs []Expr
	for p.is(tAt) {
		p.next()
		start := p.tok().start
		var x Expr
		if p.is(tLParen) {
			p.next()
			inner := p.parseExpr(false)
			p.expect(tRParen)
			x = node(&p.slabs.parens, Paren{Span{start, p.prevEnd}, inner})
		} else {
			x = p.parseIdentRef()
			for p.is(tDot) {
				p.next()
				var prop Expr
				if p.is(tPrivate) {
					prop = p.privateName()
				} else {
					prop = p.parseIdentName()
				}
				x = &Member{Span{start, p.prevEnd}, x, prop, false, false}
			}
			if p.is(tLParen) {
				args := p.parseArgs(nil)
				x = &Call{Span{start, p.prevEnd}, x, args, false}
			}
		}
		decs = append(decs, x)
	}
	return decs
}

func (p *parser) parseClassMember(derived bool) ClassMember {
	start := p.tok().start
	decs := p.parseDecorators()
	t := p.tok()
	static := false
	if p.isKw(kwStatic) {
		nt := p.peek()
		switch nt.kind {
		case tLParen, tAssign, tSemi, tRBrace, tEOF:
		case tLBrace:
			if len(decs) > 0 {
				p.fail("decorators are not allowed on static blocks")
			}
			p.next()
			return p.parseStaticBlock(start)
		default:
			if !nt.nl || nt.kind != tSemi {
				static = true
				p.next()
			}
		}
	}
	kind := MethodNormal
	async, gen := false, false
	t = p.tok()
	if t.kind == tName && !t.escaped && (t.kw == kwGet || t.kw == kwSet || t.kw == kwAsync) {
		nt := p.peek()
		switch nt.kind {
		case tLParen, tAssign, tSemi, tRBrace, tEOF:
		default:
			if t.kw == kwAsync {
				if !nt.nl {
					async = true
					p.next()
				}
			} else if !(nt.nl && false) {
				if t.kw == kwGet {
					kind = MethodGet
				} else {
					kind = MethodSet
				}
				p.next()
			}
		}
	}
	if p.is(tStar) {
		if kind != MethodNormal {
			p.unexpected()
		}
		gen = true
		p.next()
	}
	key, computed := p.parsePropertyKey(true)
	name, named := keyName(key)
	named = named && !computed
	priv, isPriv := key.(*PrivateName)
	if isPriv && priv.Name == "constructor" {
		p.failAt(priv.Start, priv.End, "#constructor is not a valid private name")
	}
	if p.is(tLParen) {
		isCtor := !static && named && name == "constructor"
		if isCtor {
			if kind != MethodNormal || async || gen {
				p.failAt(key.Pos(), key.EndPos(), "class constructor may not be an accessor, generator or async")
			}
			kind = MethodConstructor
		}
		if static && named && name == "prototype" {
			p.failAt(key.Pos(), key.EndPos(), "classes may not have a static method named \"prototype\"")
		}
		if isPriv {
			p.declarePrivate(priv, kind, static)
		}
		pk := PropInit
		switch kind {
		case MethodGet:
			pk = PropGet
		case MethodSet:
			pk = PropSet
		}
		fe := p.parseMethod(async, gen, pk, isCtor && derived)
		return &Method{Span{start, p.prevEnd}, decs, kind, static, computed, key, fe}
	}
	if kind != MethodNormal || async || gen {
		p.expected("\"(\"")
	}
	// A field.
	if named && (name == "constructor" || static && name == "prototype") {
		p.failAt(key.Pos(), key.EndPos(), "classes may not have a field named \""+name+"\"")
	}
	if isPriv {
		p.declarePrivate(priv, MethodNormal, static)
	}
	var value Expr
	if p.eat(tAssign) {
		outer := p.fn
		p.fn = &funcCtx{outer: outer, allowSuperProp: true, allowNewTarget: true, classInit: true,
			awaitReserved: p.goal == Module}
		savedLabels := outer.labels
		value = p.parseAssign(false, nil)
		outer.labels = savedLabels
		p.fn = outer
	}
	p.semicolon()
	return &Field{Span{start, p.prevEnd}, decs, static, computed, key, value}
}

func (p *parser) parseStaticBlock(start int32) ClassMember {
	outer := p.fn
	p.fn = &funcCtx{outer: outer, allowSuperProp: true, allowNewTarget: true, classInit: true, awaitReserved: true}
	p.pushScope(scopeFunction)
	p.expect(tLBrace)
	body := p.parseBody(tRBrace, false)
	p.next()
	p.popScope()
	p.fn = outer
	return &StaticBlock{Span{start, p.prevEnd}, body}
}

// declarePrivate records a private name's declaration; a getter and a setter
// (both static or both not) may share a name.
func (p *parser) declarePrivate(n *PrivateName, kind MethodKind, static bool) {
	var bit uint8 = 1
	switch kind {
	case MethodGet:
		bit = 2
	case MethodSet:
		bit = 4
	}
	if static {
		bit |= 8
	}
	prev, ok := p.class.declared[n.Name]
	if ok {
		accessor := bit&6 != 0 && prev&6 != 0 && prev&6 != bit&6 && prev&8 == bit&8 && prev&1 == 0 && prev&6 != 6
		if !accessor {
			p.failAt(n.Start, n.End, "private name #"+n.Name+" has already been declared")
		}
		bit |= prev
	}
	p.class.declared[n.Name] = bit
}

// ---------------------------------------------------------------------------
// Modules

func (p *parser) parseModuleSource() *StringLit {
	if !p.is(tString) {
		p.expected("module specifier string")
	}
	return p.parseString()
}

// parseModuleName parses an export or import name: an identifier name or a
// string holding well-formed Unicode.
func (p *parser) parseModuleName() Expr {
	if p.is(tString) {
		s := p.parseString()
		if !utf8.ValidString(s.Value) {
			p.failAt(s.Start, s.End, "module export names must be valid Unicode")
		}
		return s
	}
	return p.parseIdentName()
}

func (p *parser) parseAttributes() []*ImportAttribute {
	if !p.isKw(kwWith) || p.tok().nl && false {
		return nil
	}
	p.next()
	p.expect(tLBrace)
	var attrs []*ImportAttribute
	seen := map[string]bool{}
	for !p.is(tRBrace) {
		start := p.tok().start
		var key Expr
		var name string
		if p.is(tString) {
			s := p.parseString()
			key, name = s, s.Value
		} else {
			id := p.parseIdentName()
			key, name = id, id.Name
		}
		if seen[name] {
			p.failAt(key.Pos(), key.EndPos(), "duplicate import attribute \""+name+"\"")
		}
		seen[name] = true
		p.expect(tColon)
		v := p.parseModuleSource()
		attrs = append(attrs, &ImportAttribute{Span{start, p.prevEnd}, key, v})
		if !p.is(tRBrace) {
			p.expect(tComma)
		}
	}
	p.next()
	return attrs
}

func (p *parser) parseImport() Stmt {
	start := p.tok().start
	p.next()
	imp := &Import{}
	imp.Start = start
	if p.is(tString) {
		imp.Source = p.parseString()
		imp.Attrs = p.parseAttributes()
		p.semicolon()
		imp.End = p.prevEnd
		return imp
	}
	if p.is(tName) {
		// import d from, import d, ...
		s := p.tok().start
		local := p.parseBindingIdent()
		imp.Specs = append(imp.Specs, &ImportSpec{Span{s, p.prevEnd}, ImportDefault, nil, local})
		if p.eat(tComma) {
			if !p.is(tStar) && !p.is(tLBrace) {
				p.expected("\"*\" or \"{\"")
			}
		}
	}
	if p.is(tStar) {
		s := p.tok().start
		p.next()
		p.expectKw(kwAs, "as")
		local := p.parseBindingIdent()
		imp.Specs = append(imp.Specs, &ImportSpec{Span{s, p.prevEnd}, ImportNamespace, nil, local})
	} else if p.is(tLBrace) {
		p.next()
		for !p.is(tRBrace) {
			s := p.tok().start
			kt := *p.tok()
			imported := p.parseModuleName()
			var local *Ident
			if p.isKw(kwAs) {
				p.next()
				local = p.parseBindingIdent()
			} else {
				id, ok := imported.(*Ident)
				if !ok {
					p.expected("\"as\"")
				}
				p.checkIdent(&kt, true)
				local = id
			}
			imp.Specs = append(imp.Specs, &ImportSpec{Span{s, p.prevEnd}, ImportNamed, imported, local})
			if !p.is(tRBrace) {
				p.expect(tComma)
			}
		}
		p.next()
	}
	p.expectKw(kwFrom, "from")
	imp.Source = p.parseModuleSource()
	imp.Attrs = p.parseAttributes()
	p.semicolon()
	imp.End = p.prevEnd
	for _, s := range imp.Specs {
		p.declare(s.Local, bindLexical)
	}
	return imp
}

func (p *parser) addExport(name string, n Node) {
	if p.exported[name] {
		p.failAt(n.Pos(), n.EndPos(), "duplicate export \""+name+"\"")
	}
	p.exported[name] = true
}

func moduleNameString(n Expr) string {
	switch n := n.(type) {
	case *Ident:
		return n.Name
	case *StringLit:
		return n.Value
	}
	return ""
}

func (p *parser) parseExport() Stmt {
	start := p.tok().start
	p.next()
	switch {
	case p.is(tStar):
		p.next()
		ea := &ExportAll{}
		ea.Start = start
		if p.isKw(kwAs) {
			p.next()
			ea.Exported = p.parseModuleName()
			p.addExport(moduleNameString(ea.Exported), ea.Exported)
		}
		p.expectKw(kwFrom, "from")
		ea.Source = p.parseModuleSource()
		ea.Attrs = p.parseAttributes()
		p.semicolon()
		ea.End = p.prevEnd
		return ea
	case p.isKw(kwDefault):
		defStart := p.tok().start
		p.next()
		p.addExport("default", &Ident{Span{defStart, p.prevEnd}, "default"})
		ed := &ExportDefault{}
		ed.Start = start
		t := *p.tok()
		switch {
		case p.isKw(kwFunction):
			p.inExportDefault = true
			ed.Decl = p.parseFuncDecl(t.start, false, false)
			p.inExportDefault = false
		case p.isKw(kwAsync) && func() bool { nt := p.peek(); return nt.kind == tName && nt.kw == kwFunction && !nt.escaped && !nt.nl }():
			p.next()
			p.inExportDefault = true
			ed.Decl = p.parseFuncDecl(t.start, true, false)
			p.inExportDefault = false
		case p.isKw(kwClass) || p.is(tAt):
			decs := p.takeDecorators()
			cstart := p.tok().start
			if len(decs) > 0 && decs[0].Pos()-1 < cstart {
				cstart = decs[0].Pos() - 1
			}
			cd := p.parseClassDecl(cstart, true).(*ClassDecl)
			cd.Decorators = decs
			ed.Decl = cd
		default:
			ed.Decl = p.parseAssign(false, nil)
			p.semicolon()
		}
		ed.End = p.prevEnd
		return ed
	case p.is(tLBrace):
		p.next()
		en := &ExportNamed{}
		en.Start = start
		var locals []*token
		for !p.is(tRBrace) {
			s := p.tok().start
			kt := *p.tok()
			local := p.parseModuleName()
			exported := local
			if p.isKw(kwAs) {
				p.next()
				exported = p.parseModuleName()
			}
			p.addExport(moduleNameString(exported), exported)
			en.Specs = append(en.Specs, &ExportSpec{Span{s, p.prevEnd}, local, exported})
			locals = append(locals, &kt)
			if !p.is(tRBrace) {
				p.expect(tComma)
			}
		}
		p.next()
		if p.isKw(kwFrom) {
			p.next()
			en.Source = p.parseModuleSource()
			en.Attrs = p.parseAttributes()
		} else {
			for i, kt := range locals {
				if kt.kind == tString {
					p.failAt(kt.start, kt.end, "a string export name needs \"from\"")
				}
				if kt.kw.isReserved() || kt.kw == kwAwait || p.strict && kt.kw.isStrictReserved() {
					p.failAt(kt.start, kt.end, "unexpected reserved word \""+kt.str+"\"")
				}
				id := en.Specs[i].Local.(*Ident)
				if !p.scope.vars.has(id.Name) && !p.scope.lexical.has(id.Name) && !p.scope.functions.has(id.Name) {
					if _, ok := p.undefinedExports[id.Name]; !ok {
						p.undefinedExports[id.Name] = id
					}
				}
			}
		}
		p.semicolon()
		en.End = p.prevEnd
		return en
	}
	// export declaration
	en := &ExportNamed{}
	en.Start = start
	t := *p.tok()
	switch {
	case p.isKw(kwVar), p.isKw(kwLet), p.isKw(kwConst):
		kind := Var
		if t.kw == kwLet {
			kind = Let
		} else if t.kw == kwConst {
			kind = Const
		}
		p.next()
		d := p.parseVar(t.start, kind, false)
		p.semicolon()
		d.End = p.prevEnd
		en.Decl = d
		for _, dc := range d.Decls {
			for _, id := range boundNames(dc.Target, nil) {
				p.addExport(id.Name, id)
			}
		}
	case p.isKw(kwFunction):
		fd := p.parseFuncDecl(t.start, false, false).(*FuncDecl)
		p.addExport(fd.Name.Name, fd.Name)
		en.Decl = fd
	case p.isKw(kwAsync):
		s := t.start
		p.next()
		if !p.isKw(kwFunction) || p.tok().nl {
			p.expected("\"function\"")
		}
		fd := p.parseFuncDecl(s, true, false).(*FuncDecl)
		p.addExport(fd.Name.Name, fd.Name)
		en.Decl = fd
	case p.isKw(kwClass) || p.is(tAt):
		decs := p.takeDecorators()
		cstart := p.tok().start
		if len(decs) > 0 && decs[0].Pos()-1 < cstart {
			cstart = decs[0].Pos() - 1
		}
		cd := p.parseClassDecl(cstart, false).(*ClassDecl)
		cd.Decorators = decs
		p.addExport(cd.Name.Name, cd.Name)
		en.Decl = cd
	default:
		p.unexpected()
	}
	en.End = p.prevEnd
	return en
}
