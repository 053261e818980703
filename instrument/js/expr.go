package js

import "unicode/utf8"

// coverErrs records constructs that are valid only if the expression being
// parsed turns out to be a pattern (or only if it does not), until that is
// known. Each field is the offset of the first such construct, or -1.
type coverErrs struct {
	shorthandAssign int32 // {a = 1}: valid only as a pattern
	doubleProto     int32 // two __proto__: properties: valid only as a pattern
}

func (ce *coverErrs) reset() { ce.shorthandAssign, ce.doubleProto = -1, -1 }

// checkCover reports constructs that are only valid in patterns.
func (p *parser) checkCover(ce *coverErrs) {
	if ce.shorthandAssign >= 0 {
		p.failAt(ce.shorthandAssign, ce.shorthandAssign+1, "shorthand property assignments are valid only in destructuring patterns")
	}
	if ce.doubleProto >= 0 {
		p.failAt(ce.doubleProto, ce.doubleProto+9, "duplicate __proto__ fields are not allowed in object literals")
	}
}

// clearCover forgets the recorded constructs inside x, which has become a
// pattern (x is the latest expression parsed, so they are those at or
// after its start).
func (ce *coverErrs) clearCover(x Node) {
	if ce.shorthandAssign >= x.Pos() {
		ce.shorthandAssign = -1
	}
	if ce.doubleProto >= x.Pos() {
		ce.doubleProto = -1
	}
}

// parseExpr parses an Expression (comma-separated). noIn excludes the "in"
// operator (for heads).
func (p *parser) parseExpr(noIn bool) Expr {
	start := p.tok().start
	x := p.parseAssign(noIn, nil)
	if !p.is(tComma) {
		return x
	}
	list := []Expr{x}
	for p.eat(tComma) {
		list = append(list, p.parseAssign(noIn, nil))
	}
	return &Seq{Span{start, p.prevEnd}, list}
}

// parseExprCover is parseExpr keeping the cover errors of a lone
// assignment expression for the caller (for-in/of heads).
func (p *parser) parseExprCover(noIn bool, ce *coverErrs) Expr {
	start := p.tok().start
	x := p.parseAssign(noIn, ce)
	if !p.is(tComma) {
		return x
	}
	p.checkCover(ce)
	list := []Expr{x}
	for p.eat(tComma) {
		list = append(list, p.parseAssign(noIn, nil))
	}
	return &Seq{Span{start, p.prevEnd}, list}
}

// parseAssign parses an AssignmentExpression. With a non-nil ce, cover
// errors are left for the caller to check or clear.
func (p *parser) parseAssign(noIn bool, ce *coverErrs) Expr {
	p.enter()
	defer p.leave()
	if p.isKw(kwYield) && p.fn.generator {
		return p.parseYield(noIn)
	}
	var own coverErrs
	if ce == nil {
		ce = &own
		ce.reset()
	}
	start := p.tok().start
	left := p.parseCond(noIn, ce)
	if k := p.tok().kind; isAssignOp(k) {
		var target Pattern
		if k == tAssign {
			target = p.toAssignTarget(left, ce)
		} else {
			target = p.toSimpleTarget(left, k >= tAndEq)
			p.checkCover(ce)
		}
		op := tokText[k]
		p.next()
		value := p.parseAssign(noIn, nil)
		return node(&p.slabs.assigns, Assign{Span{start, p.prevEnd}, op, target, value})
	}
	if ce == &own {
		p.checkCover(ce)
	}
	return left
}

func (p *parser) parseYield(noIn bool) Expr {
	start := p.tok().start
	if p.tok().escaped {
		p.fail("keywords cannot contain escape characters")
	}
	p.lastYield = start
	p.next()
	y := &Yield{}
	y.Start = start
	t := p.tok()
	if !t.nl {
		if t.kind == tStar {
			p.next()
			y.Delegate = true
			y.Arg = p.parseAssign(noIn, nil)
		} else if p.startsExpr() {
			y.Arg = p.parseAssign(noIn, nil)
		}
	}
	y.End = p.prevEnd
	return y
}

// startsExpr reports whether the current token can start an expression
// (after yield).
func (p *parser) startsExpr() bool {
	switch p.tok().kind {
	case tRParen, tRBrack, tRBrace, tComma, tSemi, tColon, tEOF, tQuestion, tArrow,
		tTemplateMiddle, tTemplateTail:
		return false
	case tName:
		return p.tok().kw != kwIn && p.tok().kw != kwInstanceof || p.tok().escaped
	}
	if isAssignOp(p.tok().kind) && p.tok().kind != tSlashEq {
		return false
	}
	if binPrec[p.tok().kind] > 0 && p.tok().kind != tPlus && p.tok().kind != tMinus && p.tok().kind != tSlash {
		return false
	}
	return true
}

func (p *parser) parseCond(noIn bool, ce *coverErrs) Expr {
	start := p.tok().start
	x := p.parseBinary(noIn, 0, ce)
	if !p.is(tQuestion) {
		return x
	}
	if _, ok := x.(*Arrow); ok {
		p.unexpected()
	}
	p.next()
	yes := p.parseAssign(false, nil)
	p.expect(tColon)
	no := p.parseAssign(noIn, nil)
	return &Cond{Span{start, p.prevEnd}, x, yes, no}
}

// binOpPrec returns the precedence of the current token as a binary
// operator, or 0.
func (p *parser) binOpPrec(noIn bool) (int, string) {
	t := p.tok()
	if t.kind == tName {
		if t.escaped {
			return 0, ""
		}
		if t.kw == kwIn && !noIn {
			return 8, "in"
		}
		if t.kw == kwInstanceof {
			return 8, "instanceof"
		}
		return 0, ""
	}
	if int(t.kind) < len(binPrec) {
		if prec := binPrec[t.kind]; prec > 0 {
			return int(prec), tokText[t.kind]
		}
	}
	return 0, ""
}

func (p *parser) parseBinary(noIn bool, minPrec int, ce *coverErrs) Expr {
	var x Expr
	if p.is(tPrivate) {
		// #x in obj
		t := *p.tok()
		x = p.privateName()
		if prec, op := p.binOpPrec(noIn); op != "in" || prec <= minPrec {
			p.failAt(t.start, t.end, "unexpected private name")
		}
	} else {
		x = p.parseUnary(ce)
	}
	return p.parseBinaryRest(x, minPrec, noIn)
}

func (p *parser) parseBinaryRest(x Expr, minPrec int, noIn bool) Expr {
	for {
		prec, op := p.binOpPrec(noIn)
		if prec <= minPrec {
			return x
		}
		if _, ok := x.(*Arrow); ok {
			p.unexpected()
		}
		p.next()
		var y Expr
		if op == "**" {
			switch x.(type) {
			case *Unary, *Await:
				p.failAt(x.Pos(), x.EndPos(), "unary expressions cannot be the left operand of \"**\"; add parentheses")
			}
			// Right-associative: a ** b ** c nests to the right.
			p.enter()
			y = p.parseBinary(noIn, prec-1, nil)
			p.leave()
		} else {
			y = p.parseBinary(noIn, prec, nil)
		}
		if _, ok := y.(*Arrow); ok {
			p.failAt(y.Pos(), y.EndPos(), "an arrow function must be parenthesized to be an operand")
		}
		if op == "??" {
			if isLogicalAndOr(x) || isLogicalAndOr(y) {
				p.failAt(x.Pos(), y.EndPos(), "\"??\" cannot be mixed with \"||\" or \"&&\" without parentheses")
			}
		} else if op == "||" || op == "&&" {
			if isNullish(x) || isNullish(y) {
				p.failAt(x.Pos(), y.EndPos(), "\"??\" cannot be mixed with \"||\" or \"&&\" without parentheses")
			}
		}
		b := p.slabs.binarys.alloc()
		*b = Binary{Span{x.Pos(), p.prevEnd}, op, x, y}
		x = b
	}
}

func isLogicalAndOr(x Expr) bool {
	b, ok := x.(*Binary)
	return ok && (b.Op == "||" || b.Op == "&&")
}

func isNullish(x Expr) bool {
	b, ok := x.(*Binary)
	return ok && b.Op == "??"
}

func (p *parser) parseUnary(ce *coverErrs) Expr {
	t := p.tok()
	start := t.start
	var op string
	switch t.kind {
	case tBang:
		op = "!"
	case tTilde:
		op = "~"
	case tPlus:
		op = "+"
	case tMinus:
		op = "-"
	case tInc, tDec:
		op = tokText[t.kind]
		p.enter()
		p.next()
		x := p.parseUnary(nil)
		p.leave()
		p.toSimpleTarget(x, false)
		return node(&p.slabs.updates, Update{Span{start, p.prevEnd}, op, true, x})
	case tName:
		if t.escaped {
			break
		}
		switch t.kw {
		case kwTypeof:
			op = "typeof"
		case kwVoid:
			op = "void"
		case kwDelete:
			op = "delete"
		case kwAwait:
			if p.fn.async && !p.fn.arrow || p.fn.async {
				p.lastAwait = start
				p.enter()
				p.next()
				x := p.parseUnary(nil)
				p.leave()
				if _, ok := x.(*Arrow); ok {
					p.failAt(x.Pos(), x.EndPos(), "an arrow function must be parenthesized to be an operand")
				}
				return &Await{Span{start, p.prevEnd}, x}
			}
		}
	}
	if op != "" {
		p.enter()
		p.next()
		x := p.parseUnary(nil)
		p.leave()
		if _, ok := x.(*Arrow); ok {
			p.failAt(x.Pos(), x.EndPos(), "an arrow function must be parenthesized to be an operand")
		}
		if op == "delete" {
			inner := x
			for {
				if par, ok := inner.(*Paren); ok {
					inner = par.X
					continue
				}
				break
			}
			if _, ok := inner.(*Ident); ok && p.strict {
				p.failAt(start, p.prevEnd, "deleting an unqualified identifier is not allowed in strict mode")
			}
			if m, ok := inner.(*Member); ok {
				if _, ok := m.Property.(*PrivateName); ok {
					p.failAt(start, p.prevEnd, "private fields cannot be deleted")
				}
			}
			if c, ok := inner.(*Chain); ok {
				if m, ok := c.X.(*Member); ok {
					if _, ok := m.Property.(*PrivateName); ok {
						p.failAt(start, p.prevEnd, "private fields cannot be deleted")
					}
				}
			}
		}
		return node(&p.slabs.unarys, Unary{Span{start, p.prevEnd}, op, x})
	}
	x := p.parseSubscripts(p.parsePrimary(ce), false)
	if t := p.tok(); (t.kind == tInc || t.kind == tDec) && !t.nl {
		p.toSimpleTarget(x, false)
		op := tokText[t.kind]
		p.next()
		return node(&p.slabs.updates, Update{Span{start, p.prevEnd}, op, false, x})
	}
	return x
}

// parseSubscripts parses member accesses, calls, optional chains and tagged
// templates after base. noCalls stops before calls (for new's callee).
func (p *parser) parseSubscripts(base Expr, noCalls bool) Expr {
	if _, ok := base.(*Arrow); ok {
		return base
	}
	x := base
	start := base.Pos()
	chain := false
	// Each link nests the chain so far one level deeper in the tree (the
	// walkers recurse into a member's object and a call's callee), so
	// each counts as a level while the rest of the chain is parsed.
	links := 0
	for {
		t := p.tok()
		switch t.kind {
		case tDot, tQDot, tLBrack, tTemplate, tTemplateHead:
			p.enter()
			links++
		case tLParen:
			if !noCalls {
				p.enter()
				links++
			}
		}
		switch t.kind {
		case tDot:
			p.next()
			var prop Expr
			if p.is(tPrivate) {
				prop = p.privateName()
			} else {
				prop = p.parseIdentName()
			}
			x = p.newMember(start, p.prevEnd, x, prop, false, false)
		case tQDot:
			if noCalls {
				p.fail("optional chaining is not allowed in a new expression")
			}
			chain = true
			p.next()
			switch p.tok().kind {
			case tLParen:
				args := p.parseArgs(nil)
				x = p.newCall(start, p.prevEnd, x, args, true)
			case tLBrack:
				p.next()
				prop := p.parseExpr(false)
				p.expect(tRBrack)
				x = p.newMember(start, p.prevEnd, x, prop, true, true)
			case tPrivate:
				prop := p.privateName()
				x = p.newMember(start, p.prevEnd, x, prop, false, true)
			case tTemplate, tTemplateHead:
				p.fail("tagged template cannot be used in an optional chain")
			default:
				prop := p.parseIdentName()
				x = p.newMember(start, p.prevEnd, x, prop, false, true)
			}
		case tLBrack:
			p.next()
			prop := p.parseExpr(false)
			p.expect(tRBrack)
			x = p.newMember(start, p.prevEnd, x, prop, true, false)
		case tLParen:
			if noCalls {
				goto done
			}
			args := p.parseArgs(nil)
			x = p.newCall(start, p.prevEnd, x, args, false)
		case tTemplate, tTemplateHead:
			if chain {
				p.fail("tagged template cannot be used in an optional chain")
			}
			q := p.parseTemplate(true)
			x = &TaggedTemplate{Span{start, p.prevEnd}, x, q}
		default:
			goto done
		}
	}
done:
	p.depth -= links
	if chain {
		x = &Chain{Span{start, p.prevEnd}, x}
	}
	return x
}

// parseArgs parses "(a, ...b)". With ce, cover errors are recorded for a
// possible async arrow.
func (p *parser) parseArgs(ce *coverErrs) []Expr {
	p.expect(tLParen)
	ls := &p.slabs.exprLists
	base := ls.begin()
	for !p.is(tRParen) {
		if p.is(tEllipsis) {
			start := p.tok().start
			p.next()
			arg := p.parseAssign(false, ce)
			ls.push(&Spread{Span{start, p.prevEnd}, arg})
		} else {
			ls.push(p.parseAssign(false, ce))
		}
		if !p.is(tRParen) {
			p.expect(tComma)
		}
	}
	p.next()
	return ls.end(base)
}

func (p *parser) privateName() *PrivateName {
	t := p.tok()
	n := &PrivateName{Span{t.start, t.end}, t.str}
	if p.class == nil {
		p.failAt(t.start, t.end, "private name #"+t.str+" is not defined")
	}
	p.class.used = append(p.class.used, n)
	p.next()
	return n
}

// parseIdentName parses an IdentifierName (any word, as after ".").
func (p *parser) parseIdentName() *Ident {
	t := p.tok()
	if t.kind != tName {
		p.expected("identifier")
	}
	id := p.newIdent(t.start, t.end, t.str)
	p.next()
	return id
}

// checkIdent applies the early errors of identifier references and binding
// identifiers to the current token.
func (p *parser) checkIdent(t *token, binding bool) {
	kw := t.kw
	if kw == kwNone {
		return
	}
	switch {
	case kw.isReserved():
		if t.escaped {
			p.failAt(t.start, t.end, "keywords cannot contain escape characters")
		}
		p.failAt(t.start, t.end, "unexpected reserved word \""+t.str+"\"")
	case kw == kwYield:
		if p.fn.generator || p.strict {
			p.failAt(t.start, t.end, "\"yield\" cannot be used as an identifier here")
		}
	case kw == kwAwait:
		if p.fn.awaitReserved || p.fn.async || p.goal == Module {
			p.failAt(t.start, t.end, "\"await\" cannot be used as an identifier here")
		}
		p.lastAwaitIdent = t.start
	case p.strict && kw.isStrictReserved():
		p.failAt(t.start, t.end, "\""+t.str+"\" is a reserved word in strict mode")
	case kw == kwArguments:
		if p.fn.classInit {
			p.failAt(t.start, t.end, "\"arguments\" is not allowed in class field initializers or static blocks")
		}
		if binding && p.strict {
			p.failAt(t.start, t.end, "\"arguments\" cannot be a binding name in strict mode")
		}
	case kw == kwEval:
		if binding && p.strict {
			p.failAt(t.start, t.end, "\"eval\" cannot be a binding name in strict mode")
		}
	}
}

// parseIdentRef parses an IdentifierReference (or label).
func (p *parser) parseIdentRef() *Ident {
	t := p.tok()
	if t.kind != tName {
		p.expected("identifier")
	}
	p.checkIdent(t, false)
	id := p.newIdent(t.start, t.end, t.str)
	p.next()
	return id
}

// parseBindingIdent parses a BindingIdentifier.
func (p *parser) parseBindingIdent() *Ident {
	t := p.tok()
	if t.kind != tName {
		p.expected("identifier")
	}
	p.checkIdent(t, true)
	id := p.newIdent(t.start, t.end, t.str)
	p.next()
	return id
}

// parseBindingTarget parses a BindingIdentifier or a binding pattern.
func (p *parser) parseBindingTarget() Pattern {
	p.enter()
	defer p.leave()
	t := p.tok()
	start := t.start
	switch t.kind {
	case tLBrack:
		p.next()
		ap := &ArrayPattern{}
		ap.Start = start
		for !p.is(tRBrack) {
			if p.is(tComma) {
				p.next()
				ap.Elems = append(ap.Elems, nil)
				continue
			}
			if p.is(tEllipsis) {
				rs := p.tok().start
				p.next()
				target := p.parseBindingTarget()
				ap.Elems = append(ap.Elems, &RestElement{Span{rs, p.prevEnd}, target})
				if !p.is(tRBrack) {
					p.fail("a rest element must be last in a destructuring pattern")
				}
				break
			}
			ap.Elems = append(ap.Elems, p.parseBindingElement())
			if !p.is(tRBrack) {
				p.expect(tComma)
			}
		}
		p.next()
		ap.End = p.prevEnd
		return ap
	case tLBrace:
		p.next()
		op := &ObjectPattern{}
		op.Start = start
		for !p.is(tRBrace) {
			ps := p.tok().start
			if p.is(tEllipsis) {
				p.next()
				target := p.parseBindingIdent()
				op.Props = append(op.Props, &RestElement{Span{ps, p.prevEnd}, target})
				if !p.is(tRBrace) {
					p.fail("a rest element must be last in a destructuring pattern")
				}
				break
			}
			kt := *p.tok()
			key, computed := p.parsePropertyKey(false)
			prop := &Property{Key: key, Computed: computed}
			prop.Start = ps
			if p.eat(tColon) {
				prop.Value = p.parseBindingElement()
			} else {
				id, ok := key.(*Ident)
				if !ok || computed {
					p.expected("\":\"")
				}
				p.checkIdent(&kt, true)
				prop.Shorthand = true
				if p.is(tAssign) {
					p.next()
					def := p.parseAssign(false, nil)
					prop.Value = &AssignPattern{Span{id.Start, p.prevEnd}, id, def}
				} else {
					prop.Value = id
				}
			}
			prop.End = p.prevEnd
			op.Props = append(op.Props, prop)
			if !p.is(tRBrace) {
				p.expect(tComma)
			}
		}
		p.next()
		op.End = p.prevEnd
		return op
	}
	return p.parseBindingIdent()
}

// parseBindingElement parses a binding target with an optional default.
func (p *parser) parseBindingElement() Pattern {
	start := p.tok().start
	target := p.parseBindingTarget()
	if p.eat(tAssign) {
		def := p.parseAssign(false, nil)
		return &AssignPattern{Span{start, p.prevEnd}, target, def}
	}
	return target
}

// ---------------------------------------------------------------------------
// Patterns from expressions (cover grammar)

// toSimpleTarget checks that x is a simple assignment target (for ++, --
// and compound assignment).
func (p *parser) toSimpleTarget(x Expr, logical bool) Pattern {
	switch n := x.(type) {
	case *Ident:
		if p.strict && (n.Name == "eval" || n.Name == "arguments") {
			p.failAt(n.Start, n.End, "cannot assign to \""+n.Name+"\" in strict mode")
		}
		return n
	case *Member:
		return n
	case *Paren:
		p.toSimpleTarget(n.X, logical)
		return n
	}
	p.failAt(x.Pos(), x.EndPos(), "invalid assignment target")
	return nil
}

// toAssignTarget converts the left side of "=" (or of a for-in/of head) to
// a pattern.
func (p *parser) toAssignTarget(x Expr, ce *coverErrs) Pattern {
	switch x.(type) {
	case *Object, *Array:
		pat := p.toPattern(x, false)
		ce.clearCover(x)
		p.checkCover(ce)
		return pat
	}
	p.checkCover(ce)
	return p.toSimpleTarget(x, false)
}

// toPattern converts an expression to a pattern: a binding pattern (arrow
// parameters) when binding, else an assignment pattern.
func (p *parser) toPattern(x Expr, binding bool) Pattern {
	switch n := x.(type) {
	case *Ident:
		if binding {
			p.checkBindingName(n)
		} else if p.strict && (n.Name == "eval" || n.Name == "arguments") {
			p.failAt(n.Start, n.End, "cannot assign to \""+n.Name+"\" in strict mode")
		}
		return n
	case *Member:
		if !binding {
			return n
		}
	case *Paren:
		if !binding {
			switch n.X.(type) {
			case *Object, *Array:
			default:
				p.toSimpleTarget(n.X, false)
				return n
			}
		}
	case *Array:
		ap := &ArrayPattern{Span: n.Span}
		for i, e := range n.Elems {
			if e == nil {
				ap.Elems = append(ap.Elems, nil)
				continue
			}
			if s, ok := e.(*Spread); ok {
				if i != len(n.Elems)-1 || n.trailingComma {
					p.failAt(s.Start, s.End, "a rest element must be last in a destructuring pattern")
				}
				if _, ok := s.Arg.(*Assign); ok {
					p.failAt(s.Arg.Pos(), s.Arg.EndPos(), "a rest element cannot have a default value")
				}
				ap.Elems = append(ap.Elems, &RestElement{s.Span, p.toPattern(s.Arg, binding)})
				continue
			}
			ap.Elems = append(ap.Elems, p.toPatternElem(e, binding))
		}
		return ap
	case *Object:
		op := &ObjectPattern{Span: n.Span}
		for i, prop := range n.Props {
			switch prop := prop.(type) {
			case *Spread:
				if i != len(n.Props)-1 || n.trailingComma {
					p.failAt(prop.Start, prop.End, "a rest element must be last in a destructuring pattern")
				}
				var target Pattern
				switch a := prop.Arg.(type) {
				case *Ident:
					target = p.toPattern(a, binding)
				case *Member:
					if binding {
						p.failAt(a.Start, a.End, "invalid rest element")
					}
					target = a
				case *Paren:
					if binding {
						p.failAt(a.Start, a.End, "invalid rest element")
					}
					target = p.toPattern(a, binding)
				default:
					p.failAt(prop.Arg.Pos(), prop.Arg.EndPos(), "invalid rest element")
				}
				op.Props = append(op.Props, &RestElement{prop.Span, target})
			case *Property:
				if prop.Kind != PropInit || prop.Method {
					p.failAt(prop.Start, prop.End, "invalid destructuring target")
				}
				np := *prop
				if prop.Shorthand {
					if a, ok := prop.Value.(*Assign); ok {
						id := a.Target.(*Ident)
						p.toPattern(id, binding)
						np.Value = &AssignPattern{a.Span, id, a.Value}
					} else {
						np.Value = p.toPattern(prop.Value.(*Ident), binding)
					}
				} else {
					np.Value = p.toPatternElem(prop.Value.(Expr), binding)
				}
				op.Props = append(op.Props, &np)
			}
		}
		return op
	case *Assign:
		// Only reached for nested elements, through toPatternElem.
	}
	if binding {
		p.failAt(x.Pos(), x.EndPos(), "invalid binding pattern")
	}
	p.failAt(x.Pos(), x.EndPos(), "invalid destructuring assignment target")
	return nil
}

// toPatternElem converts an element of an array or a property value, where
// "target = default" is allowed.
func (p *parser) toPatternElem(x Expr, binding bool) Pattern {
	if a, ok := x.(*Assign); ok {
		if a.Op != "=" {
			p.failAt(a.Start, a.End, "invalid destructuring assignment target")
		}
		var target Pattern
		switch t := a.Target.(type) {
		case *ArrayPattern, *ObjectPattern:
			if binding {
				target = p.rebind(t)
			} else {
				target = t
			}
		case *Ident:
			target = p.toPattern(t, binding)
		case *Member, *Paren:
			if binding {
				p.failAt(t.Pos(), t.EndPos(), "invalid binding pattern")
			}
			target = t
		}
		return &AssignPattern{a.Span, target, a.Value}
	}
	return p.toPattern(x, binding)
}

// rebind checks that an assignment pattern (already converted) is also a
// valid binding pattern.
func (p *parser) rebind(pat Pattern) Pattern {
	switch n := pat.(type) {
	case *Ident:
		p.checkBindingName(n)
	case *Member, *Paren:
		p.failAt(n.Pos(), n.EndPos(), "invalid binding pattern")
	case *ArrayPattern:
		for _, e := range n.Elems {
			if e != nil {
				p.rebind(e)
			}
		}
	case *ObjectPattern:
		for _, prop := range n.Props {
			switch prop := prop.(type) {
			case *Property:
				p.rebind(prop.Value.(Pattern))
			case *RestElement:
				p.rebind(prop.Target)
			}
		}
	case *AssignPattern:
		p.rebind(n.Target)
	case *RestElement:
		p.rebind(n.Target)
	}
	return pat
}

// checkBindingName applies binding-identifier rules to an identifier that
// was parsed as a reference.
func (p *parser) checkBindingName(id *Ident) {
	if p.strict {
		p.checkStrictBinding(id)
	}
}

// ---------------------------------------------------------------------------
// Primary expressions

func (p *parser) parsePrimary(ce *coverErrs) Expr {
	t := p.tok()
	start := t.start
	switch t.kind {
	case tName:
		if !t.escaped {
			switch t.kw {
			case kwThis:
				p.next()
				return node(&p.slabs.thises, This{Span{start, p.prevEnd}})
			case kwNull:
				p.next()
				return node(&p.slabs.nulls, NullLit{Span{start, p.prevEnd}})
			case kwTrue, kwFalse:
				v := t.kw == kwTrue
				p.next()
				return node(&p.slabs.bools, BoolLit{Span{start, p.prevEnd}, v})
			case kwFunction:
				return p.parseFuncExpr(start, false)
			case kwClass:
				return p.parseClassExpr()
			case kwNew:
				return p.parseNew()
			case kwSuper:
				return p.parseSuper()
			case kwImport:
				return p.parseImportExpr()
			case kwAsync:
				return p.parseAsync(ce)
			}
		}
		id := p.parseIdentRef()
		if p.is(tArrow) {
			if p.tok().nl {
				p.fail("line break is not allowed before \"=>\"")
			}
			p.checkBindingName(id)
			if id.Name == "await" && p.fn.async {
				p.failAt(id.Start, id.End, "\"await\" cannot be a parameter name here")
			}
			return p.parseArrowBody(start, []Pattern{id}, true, false)
		}
		return id
	case tNum:
		if t.legacy >= 0 && p.strict {
			p.fail("legacy octal literals are not allowed in strict mode")
		}
		n := node(&p.slabs.nums, NumLit{Span{start, t.end}, t.num, p.lx.s[start:t.end]})
		p.next()
		return n
	case tBigInt:
		raw := p.lx.s[start : t.end-1]
		n := &BigIntLit{Span{start, t.end}, stripSeparators(raw)}
		p.next()
		return n
	case tString:
		return p.parseString()
	case tTemplate, tTemplateHead:
		return p.parseTemplate(false)
	case tSlash, tSlashEq:
		pattern, flags := p.lx.rescanRegExp()
		n := &RegExpLit{Span{start, p.tok().end}, pattern, flags}
		p.next()
		return n
	case tLParen:
		return p.parseParenOrArrow(ce)
	case tLBrack:
		return p.parseArray(ce)
	case tLBrace:
		return p.parseObject(ce)
	case tAt:
		decs := p.parseDecorators()
		if !p.isKw(kwClass) {
			p.expected("\"class\"")
		}
		c := p.parseClassExpr().(*ClassExpr)
		c.Start = start
		c.Decorators = decs
		return c
	}
	p.unexpected()
	return nil
}

func stripSeparators(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			b := make([]byte, 0, len(s))
			for j := 0; j < len(s); j++ {
				if s[j] != '_' {
					b = append(b, s[j])
				}
			}
			return string(b)
		}
	}
	return s
}

func (p *parser) parseString() *StringLit {
	t := p.tok()
	if t.legacy >= 0 && p.strict {
		p.failAt(t.legacy, t.legacy+2, "octal escape sequences are not allowed in strict mode")
	}
	n := node(&p.slabs.strs, StringLit{Span{t.start, t.end}, t.str, p.lx.s[t.start:t.end]})
	p.next()
	return n
}

func (p *parser) parseTemplate(tagged bool) *Template {
	t := p.tok()
	tpl := &Template{}
	tpl.Start = t.start
	for {
		t = p.tok()
		if !tagged && t.badEscape >= 0 {
			p.failAt(t.badEscape, t.badEscape+2, "invalid escape sequence in template")
		}
		ps := t.start + 1
		pe := t.end - 1
		if t.kind == tTemplateHead || t.kind == tTemplateMiddle {
			pe = t.end - 2
		}
		tpl.Parts = append(tpl.Parts, TemplatePart{Span{ps, pe}, t.str, t.badEscape < 0, templateRaw(p.lx.s[ps:pe])})
		if t.kind == tTemplate || t.kind == tTemplateTail {
			p.next()
			break
		}
		p.next()
		tpl.Exprs = append(tpl.Exprs, p.parseExpr(false))
		if !p.is(tRBrace) {
			p.expected("\"}\"")
		}
		p.lx.rescanTemplateContinuation()
	}
	tpl.End = p.prevEnd
	return tpl
}

func (p *parser) parseArray(ce *coverErrs) Expr {
	start := p.tok().start
	p.next()
	a := &Array{}
	a.Start = start
	for !p.is(tRBrack) {
		if p.is(tComma) {
			p.next()
			a.Elems = append(a.Elems, nil)
			continue
		}
		var e Expr
		if p.is(tEllipsis) {
			s := p.tok().start
			p.next()
			arg := p.parseAssign(false, ce)
			e = &Spread{Span{s, p.prevEnd}, arg}
		} else {
			e = p.parseAssign(false, ce)
		}
		a.Elems = append(a.Elems, e)
		if !p.is(tRBrack) {
			p.expect(tComma)
			if p.is(tRBrack) {
				if _, ok := e.(*Spread); ok {
					a.trailingComma = true
				}
			}
		}
	}
	p.next()
	a.End = p.prevEnd
	return a
}

func (p *parser) parseObject(ce *coverErrs) Expr {
	start := p.tok().start
	p.next()
	o := &Object{}
	o.Start = start
	sawProto := false
	for !p.is(tRBrace) {
		if p.is(tEllipsis) {
			s := p.tok().start
			p.next()
			arg := p.parseAssign(false, ce)
			o.Props = append(o.Props, &Spread{Span{s, p.prevEnd}, arg})
			if !p.is(tRBrace) {
				p.expect(tComma)
				if p.is(tRBrace) {
					o.trailingComma = true
				}
			}
			continue
		}
		prop := p.parseObjectMember(ce)
		if !prop.Computed && !prop.Shorthand && !prop.Method && prop.Kind == PropInit && isProtoKey(prop.Key) {
			if sawProto && ce != nil && ce.doubleProto < 0 {
				ce.doubleProto = prop.Key.Pos()
			} else if sawProto && ce == nil {
				p.failAt(prop.Key.Pos(), prop.Key.EndPos(), "duplicate __proto__ fields are not allowed in object literals")
			}
			sawProto = true
		}
		o.Props = append(o.Props, prop)
		if !p.is(tRBrace) {
			p.expect(tComma)
		}
	}
	p.next()
	o.End = p.prevEnd
	return o
}

func isProtoKey(k Expr) bool {
	switch k := k.(type) {
	case *Ident:
		return k.Name == "__proto__"
	case *StringLit:
		return k.Value == "__proto__"
	}
	return false
}

// isModifier reports whether the current word (get, set, async, static)
// modifies what follows rather than being a property name itself.
func (p *parser) isModifier() bool {
	nt := p.peek()
	switch nt.kind {
	case tComma, tColon, tLParen, tRBrace, tAssign, tSemi, tEOF:
		return false
	}
	return true
}

func (p *parser) parseObjectMember(ce *coverErrs) *Property {
	t := p.tok()
	start := t.start
	prop := &Property{}
	prop.Start = start
	async, gen := false, false
	if t.kind == tName && !t.escaped {
		switch t.kw {
		case kwGet, kwSet:
			if p.isModifier() {
				if t.kw == kwGet {
					prop.Kind = PropGet
				} else {
					prop.Kind = PropSet
				}
				p.next()
			}
		case kwAsync:
			if p.isModifier() && !p.peek().nl {
				async = true
				p.next()
			}
		}
	}
	if p.is(tStar) {
		if prop.Kind != PropInit {
			p.unexpected()
		}
		gen = true
		p.next()
	}
	kt := *p.tok()
	key, computed := p.parsePropertyKey(false)
	prop.Key, prop.Computed = key, computed
	if prop.Kind != PropInit || async || gen || p.is(tLParen) {
		prop.Method = prop.Kind == PropInit
		prop.Value = p.parseMethod(async, gen, prop.Kind, false)
		prop.End = p.prevEnd
		return prop
	}
	if p.eat(tColon) {
		prop.Value = p.parseAssign(false, ce)
		prop.End = p.prevEnd
		return prop
	}
	id, ok := key.(*Ident)
	if !ok || computed || kt.kind != tName {
		p.expected("\":\"")
	}
	p.checkIdent(&kt, false)
	prop.Shorthand = true
	if p.is(tAssign) {
		if ce == nil {
			p.fail("shorthand property assignments are valid only in destructuring patterns")
		}
		if ce.shorthandAssign < 0 {
			ce.shorthandAssign = p.tok().start
		}
		p.next()
		def := p.parseAssign(false, nil)
		prop.Value = node(&p.slabs.assigns, Assign{Span{id.Start, p.prevEnd}, "=", id, def})
	} else {
		prop.Value = id
	}
	prop.Key = id
	prop.End = p.prevEnd
	return prop
}

// parsePropertyKey parses a property name: an identifier name, a string, a
// number, a computed key, or (in classes) a private name.
func (p *parser) parsePropertyKey(allowPrivate bool) (Expr, bool) {
	t := p.tok()
	switch t.kind {
	case tName:
		id := p.newIdent(t.start, t.end, t.str)
		p.next()
		return id, false
	case tString:
		return p.parseString(), false
	case tNum:
		if t.legacy >= 0 && p.strict {
			p.fail("legacy octal literals are not allowed in strict mode")
		}
		n := node(&p.slabs.nums, NumLit{Span{t.start, t.end}, t.num, p.lx.s[t.start:t.end]})
		p.next()
		return n, false
	case tBigInt:
		n := &BigIntLit{Span{t.start, t.end}, stripSeparators(p.lx.s[t.start : t.end-1])}
		p.next()
		return n, false
	case tLBrack:
		p.next()
		x := p.parseAssign(false, nil)
		p.expect(tRBrack)
		return x, true
	case tPrivate:
		if allowPrivate {
			n := &PrivateName{Span{t.start, t.end}, t.str}
			p.next()
			return n, false
		}
	}
	p.expected("property name")
	return nil, false
}

// parseMethod parses the parameters and body of a method, getter or setter.
func (p *parser) parseMethod(async, gen bool, kind PropKind, derivedCtor bool) *FuncExpr {
	fe := p.slabs.funcs.alloc()
	fe.Start = p.tok().start
	p.parseFuncRest(&fe.Func, async, gen, true, derivedCtor)
	switch kind {
	case PropGet:
		if len(fe.Params) != 0 {
			p.failAt(fe.Start, fe.Body.Start, "a getter must have no parameters")
		}
	case PropSet:
		if len(fe.Params) != 1 {
			p.failAt(fe.Start, fe.Body.Start, "a setter must have exactly one parameter")
		}
		if _, ok := fe.Params[0].(*RestElement); ok {
			p.failAt(fe.Start, fe.Body.Start, "a setter cannot have a rest parameter")
		}
	}
	return fe
}

func (p *parser) parseFuncExpr(start int32, async bool) Expr {
	p.next() // function
	gen := p.eat(tStar)
	fe := p.slabs.funcs.alloc()
	fe.Start = start
	if p.is(tName) {
		// The name is checked in the function's own context.
		outer := p.fn
		p.fn = &funcCtx{outer: outer, async: async, generator: gen, awaitReserved: async || p.goal == Module}
		fe.Name = p.parseBindingIdent()
		p.fn = outer
	}
	p.parseFuncRest(&fe.Func, async, gen, false, false)
	return fe
}

func (p *parser) parseClassExpr() Expr {
	c := &ClassExpr{}
	c.Start = p.tok().start
	p.next()
	savedStrict := p.strict
	p.strict = true
	if p.is(tName) && !p.isKw(kwExtends) {
		c.Name = p.parseBindingIdent()
	}
	p.parseClassRest(&c.Class)
	p.strict = savedStrict
	return c
}

func (p *parser) parseNew() Expr {
	start := p.tok().start
	p.next()
	if p.is(tDot) {
		p.next()
		meta := &Ident{Span{start, start + 3}, "new"}
		if !p.isKw(kwTarget) {
			p.expected("\"target\"")
		}
		prop := p.parseIdentName()
		if !p.fn.allowNewTarget {
			p.failAt(start, p.prevEnd, "new.target is not allowed here")
		}
		return &MetaProperty{Span{start, p.prevEnd}, meta, prop}
	}
	p.enter()
	defer p.leave()
	if p.isKw(kwImport) {
		p.fail("cannot use new with import()")
	}
	var callee Expr
	if p.isKw(kwSuper) {
		if nt := p.peek(); nt.kind != tDot && nt.kind != tLBrack {
			p.fail("cannot use new with super()")
		}
	}
	if p.isKw(kwNew) {
		callee = p.parseNew()
	} else {
		callee = p.parsePrimary(nil)
	}
	callee = p.parseSubscripts(callee, true)
	n := &New{Callee: callee}
	n.Start = start
	if p.is(tLParen) {
		n.Args = p.parseArgs(nil)
		n.HasArgs = true
	}
	n.End = p.prevEnd
	return n
}

func (p *parser) parseSuper() Expr {
	t := p.tok()
	s := &Super{Span{t.start, t.end}}
	p.next()
	switch p.tok().kind {
	case tLParen:
		if !p.fn.allowSuperCall {
			p.failAt(s.Start, s.End, "super() is only allowed in a derived class constructor")
		}
	case tDot, tLBrack:
		if !p.fn.allowSuperProp {
			p.failAt(s.Start, s.End, "super property access is only allowed in methods")
		}
	default:
		p.failAt(s.Start, s.End, "\"super\" must be followed by an argument list or member access")
	}
	return s
}

func (p *parser) parseImportExpr() Expr {
	start := p.tok().start
	p.next()
	if p.is(tDot) {
		p.next()
		if (p.isKw(kwDefer) || p.isKw(kwSource)) && p.peek().kind == tLParen {
			phase := p.tok().str
			p.next()
			p.next()
			ic := &ImportCall{Phase: phase}
			ic.Start = start
			ic.Source = p.parseAssign(false, nil)
			p.eat(tComma)
			p.expect(tRParen)
			ic.End = p.prevEnd
			return ic
		}
		meta := &Ident{Span{start, start + 6}, "import"}
		if !p.isKw(kwMeta) {
			p.expected("\"meta\"")
		}
		prop := p.parseIdentName()
		if p.goal != Module {
			p.failAt(start, p.prevEnd, "import.meta is only allowed in modules")
		}
		return &MetaProperty{Span{start, p.prevEnd}, meta, prop}
	}
	if !p.is(tLParen) {
		p.expected("\"(\"")
	}
	p.next()
	ic := &ImportCall{}
	ic.Start = start
	if p.is(tRParen) {
		p.fail("import() requires a specifier")
	}
	ic.Source = p.parseAssign(false, nil)
	if p.eat(tComma) && !p.is(tRParen) {
		ic.Options = p.parseAssign(false, nil)
		p.eat(tComma)
	}
	p.expect(tRParen)
	ic.End = p.prevEnd
	return ic
}

// parseAsync handles "async" at the start of a primary expression: an async
// function or arrow, or the identifier async.
func (p *parser) parseAsync(ce *coverErrs) Expr {
	t := p.tok()
	start := t.start
	nt := p.peek()
	if nt.nl {
		return p.parseIdentRefAsArrowParam()
	}
	switch {
	case nt.kind == tName && nt.kw == kwFunction && !nt.escaped:
		p.next()
		return p.parseFuncExpr(start, true)
	case nt.kind == tName && nt.kw != kwIn && nt.kw != kwInstanceof:
		// async x => ... ("async in o" and "async instanceof C" are the
		// identifier async as an operand)
		p.next()
		saved := p.fn
		p.fn = &funcCtx{outer: saved, async: true, awaitReserved: true}
		id := p.parseBindingIdent()
		p.fn = saved
		if !p.is(tArrow) || p.tok().nl {
			p.expected("\"=>\"")
		}
		return p.parseArrowBody(start, []Pattern{id}, true, true)
	case nt.kind == tLParen:
		callee := p.parseIdentRef()
		var own coverErrs
		own.reset()
		savedYield, savedAwait, savedAwaitIdent := p.lastYield, p.lastAwait, p.lastAwaitIdent
		args := p.parseArgs(&own)
		if p.is(tArrow) {
			if p.tok().nl {
				p.fail("line break is not allowed before \"=>\"")
			}
			if p.lastAwait >= callee.End || p.lastAwaitIdent >= callee.End {
				p.failAt(start, p.prevEnd, "await is not allowed in async arrow parameters")
			}
			if p.lastYield >= callee.End {
				p.failAt(start, p.prevEnd, "yield expressions are not allowed in arrow parameters")
			}
			p.lastYield, p.lastAwait, p.lastAwaitIdent = savedYield, savedAwait, savedAwaitIdent
			params := p.argsToParams(args, &own)
			return p.parseArrowBody(start, params, p.simpleParams(params), true)
		}
		if ce != nil {
			if own.shorthandAssign >= 0 && ce.shorthandAssign < 0 {
				ce.shorthandAssign = own.shorthandAssign
			}
		} else {
			p.checkCover(&own)
		}
		p.checkCover(&own)
		return p.newCall(start, p.prevEnd, callee, args, false)
	}
	return p.parseIdentRefAsArrowParam()
}

// parseIdentRefAsArrowParam parses an identifier reference that may be the
// single parameter of an arrow function.
func (p *parser) parseIdentRefAsArrowParam() Expr {
	start := p.tok().start
	id := p.parseIdentRef()
	if p.is(tArrow) {
		if p.tok().nl {
			p.fail("line break is not allowed before \"=>\"")
		}
		p.checkBindingName(id)
		return p.parseArrowBody(start, []Pattern{id}, true, false)
	}
	return id
}

func (p *parser) simpleParams(params []Pattern) bool {
	for _, prm := range params {
		if _, ok := prm.(*Ident); !ok {
			return false
		}
	}
	return true
}

// argsToParams converts call arguments or parenthesised items to arrow
// parameters.
func (p *parser) argsToParams(args []Expr, ce *coverErrs) []Pattern {
	params := make([]Pattern, 0, len(args))
	for i, a := range args {
		if s, ok := a.(*Spread); ok {
			if i != len(args)-1 {
				p.failAt(s.Start, s.End, "a rest parameter must be last in a parameter list")
			}
			if _, ok := s.Arg.(*Assign); ok {
				p.failAt(s.Start, s.End, "a rest parameter cannot have a default value")
			}
			params = append(params, &RestElement{s.Span, p.toPattern(s.Arg, true)})
			continue
		}
		params = append(params, p.toPatternElem(a, true))
	}
	return params
}

// parseParenOrArrow parses "(...)": a parenthesised expression or the
// parameters of an arrow function.
func (p *parser) parseParenOrArrow(ce *coverErrs) Expr {
	start := p.tok().start
	p.next()
	var own coverErrs
	own.reset()
	ls := &p.slabs.exprLists
	base := ls.begin()
	var rest *RestElement
	trailingComma := int32(-1)
	savedYield, savedAwait, savedAwaitIdent := p.lastYield, p.lastAwait, p.lastAwaitIdent
	for !p.is(tRParen) {
		if p.is(tEllipsis) {
			rs := p.tok().start
			p.next()
			target := p.parseBindingTarget()
			if p.is(tAssign) {
				p.fail("a rest parameter cannot have a default value")
			}
			rest = &RestElement{Span{rs, p.prevEnd}, target}
			if !p.is(tRParen) {
				p.fail("a rest parameter must be last in a parameter list")
			}
			break
		}
		ls.push(p.parseAssign(false, &own))
		if !p.is(tRParen) {
			p.expect(tComma)
			if p.is(tRParen) {
				trailingComma = p.prevEnd - 1
			}
		}
	}
	items := ls.end(base)
	closeParen := p.tok().start
	p.next()
	if p.is(tArrow) {
		if p.tok().nl {
			p.fail("line break is not allowed before \"=>\"")
		}
		if p.lastYield >= start {
			p.failAt(p.lastYield, p.lastYield+5, "yield expressions are not allowed in arrow parameters")
		}
		if p.lastAwait >= start {
			p.failAt(p.lastAwait, p.lastAwait+5, "await expressions are not allowed in arrow parameters")
		}
		p.lastYield, p.lastAwait, p.lastAwaitIdent = savedYield, savedAwait, savedAwaitIdent
		params := p.argsToParams(items, &own)
		if rest != nil {
			params = append(params, rest)
		}
		return p.parseArrowBody(start, params, p.simpleParams(params), false)
	}
	if rest != nil {
		p.failAt(rest.Start, rest.Start+3, "unexpected \"...\"")
	}
	if len(items) == 0 {
		p.failAt(closeParen, closeParen+1, "unexpected \")\"")
	}
	if trailingComma >= 0 {
		p.failAt(trailingComma, trailingComma+1, "unexpected \",\"")
	}
	if ce != nil {
		// Keep cover errors for an enclosing pattern: ({a = 1}) is never a
		// valid pattern, but [(a)] is; report them now.
		p.checkCover(&own)
	} else {
		p.checkCover(&own)
	}
	x := items[0]
	if len(items) > 1 {
		x = &Seq{Span{items[0].Pos(), items[len(items)-1].EndPos()}, items}
	}
	return node(&p.slabs.parens, Paren{Span{start, p.prevEnd}, x})
}

// parseArrowBody parses "=> body" for the given parameters.
func (p *parser) parseArrowBody(start int32, params []Pattern, simple, async bool) Expr {
	p.next() // =>
	outer := p.fn
	fn := &funcCtx{outer: outer, async: async, arrow: true, allowReturn: true,
		allowSuperProp: outer.allowSuperProp, allowSuperCall: outer.allowSuperCall,
		allowNewTarget: outer.allowNewTarget, classInit: outer.classInit,
		awaitReserved: async || p.goal == Module}
	p.fn = fn
	savedStrict := p.strict
	savedYield, savedAwait := p.lastYield, p.lastAwait
	p.pushScope(scopeFunction)
	for _, prm := range params {
		p.declarePattern(prm, bindVar)
	}
	a := &Arrow{Params: params, Async: async}
	a.Start = start
	if p.is(tLBrace) {
		a.Body = p.parseFuncBody(nil, params, simple, false, true)
	} else {
		a.ExprBody = p.parseAssign(false, nil)
		p.checkParams(nil, params, simple, true)
	}
	a.Strict = p.strict
	a.End = p.prevEnd
	p.popScope()
	p.strict = savedStrict
	p.fn = outer
	p.lastYield, p.lastAwait = savedYield, savedAwait
	return a
}

var _ = utf8.ValidString
