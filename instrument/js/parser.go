package js

import (
	"fmt"
	"strings"

	"github.com/memtrace/memtrace/instrument/diag"
)

// Options configure Parse.
type Options struct {
	Goal Goal   // Script (the zero value), Module or CommonJS
	File string // the name used in diagnostics; "<stdin>" when empty
	// MaxDepth limits the nesting of statements and expressions; deeper
	// input is rejected with an error. Zero means DefaultMaxDepth.
	MaxDepth int
	// Strict parses a Script as strict code from its start, as direct
	// eval code in strict code is.
	Strict bool
	// Arena, if not nil, lends the parse its nodes' memory (see Arena).
	Arena *Arena
}

// DefaultMaxDepth is the nesting limit used when Options.MaxDepth is zero.
// V8 limits nesting by its stack only: with memtrace node's (four times
// V8's default) it accepted at most 41,908 levels, of unary operators
// (Node 20.20; internal/deepjs has every form's figure), and with its
// default stack 10,420; other forms much less (8,105 nested arrays,
// 14,800 else-ifs, 3,641 nested functions). At this depth the parser,
// the scope analysis and the rewriter, which recurse over the tree, need
// at most about 4 KB of Go stack per level (200 MB).
const DefaultMaxDepth = 50000

// Parse parses src as a program of the goal o.Goal. On failure it returns a
// nil program and an error of type *diag.List holding the first syntax error
// with its position; Parse never panics on any input.
func Parse(src []byte, o Options) (prog *Program, err error) {
	p := &parser{goal: o.Goal, maxDepth: o.MaxDepth, strictStart: o.Strict}
	if o.Arena != nil {
		p.slabs = &o.Arena.slabs
	} else {
		p.slabs = &nodeSlabs{}
	}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	file := o.File
	if file == "" {
		file = "<stdin>"
	}
	p.log = diag.NewLog(file, src)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(parseAbort); !ok {
				p.log.Errorf(diag.Range{Start: p.lx.tok.start, End: p.lx.tok.end}, "internal error: %v", r)
			}
			prog, err = nil, p.log.Err()
		}
	}()
	if len(src) >= 1<<31-1 {
		p.failAt(0, 0, "source too large")
	}
	prog = p.parseProgram(src)
	return prog, nil
}

// parseAbort unwinds the parser after its first error.
type parseAbort struct{}

type labelInfo struct {
	name      string
	loop      bool  // the first label of a run (group): it labels a loop
	stmtStart int32 // where the labelled statement starts
	// group is the index of the first label of the run of labels this
	// one is part of (a: b: c: while ...: all label the loop).
	group int
}

// funcCtx is what the parser knows about the function (or top level,
// arrow, class field initializer or static block) it is in.
type funcCtx struct {
	outer          *funcCtx
	async          bool // await expressions allowed
	generator      bool // yield expressions allowed
	arrow          bool
	allowReturn    bool
	allowSuperProp bool
	allowSuperCall bool
	allowNewTarget bool
	classInit      bool // in a field initializer or static block: "arguments" is an error
	awaitReserved  bool // "await" may not be an identifier (module, async, static block)
	labels         []labelInfo
	labelSet       map[string]bool // the names in labels, once there are many
	loops          int             // enclosing iteration statements
	breakables     int             // enclosing iteration and switch statements
}

// classCtx tracks the private names of a class body.
type classCtx struct {
	outer    *classCtx
	declared map[string]uint8 // name -> 1 field/method, 2 getter, 4 setter, 8 static
	used     []*PrivateName
}

type parser struct {
	strictStart bool // Options.Strict
	lx          lexer
	log         *diag.Log
	goal        Goal
	strict      bool
	depth       int
	maxDepth    int
	prevEnd     int32 // end of the previous token

	fn    *funcCtx
	scope *scope
	class *classCtx

	scopePool []*scope
	slabs     *nodeSlabs

	// Offsets of the latest yield and await expressions, and of the latest
	// "await" used as an identifier, to reject them in arrow parameters.
	lastYield, lastAwait, lastAwaitIdent int32

	inExportDefault bool
	// labelFuncPos is where the body of a label that may be a function
	// declaration starts.
	labelFuncPos int32
	// pendingDecorators are decorators read before "export", for the class
	// that follows it.
	pendingDecorators []Expr
	// names is a scratch list of bound names (boundNames).
	names            []*Ident
	exported         map[string]bool
	undefinedExports map[string]*Ident
}

func (p *parser) failAt(start, end int32, msg string) {
	if end < start {
		end = start
	}
	p.log.Errorf(diag.Range{Start: start, End: end}, "%s", msg)
	panic(parseAbort{})
}

func (p *parser) fail(msg string, args ...any) {
	p.failAt(p.lx.tok.start, p.lx.tok.end, fmt.Sprintf(msg, args...))
}

// unexpected reports the current token.
func (p *parser) unexpected() {
	t := &p.lx.tok
	switch t.kind {
	case tEOF:
		p.fail("unexpected end of file")
	case tName, tPrivate, tNum, tBigInt, tString:
		p.fail("unexpected %s", quoteTok(p.lx.s[t.start:t.end]))
	default:
		p.fail("unexpected %s", quoteTok(p.lx.s[t.start:t.end]))
	}
}

func quoteTok(s string) string {
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return "\"" + strings.ReplaceAll(s, "\n", "\\n") + "\""
}

func (p *parser) expected(what string) {
	t := &p.lx.tok
	if t.kind == tEOF {
		p.fail("expected %s but found end of file", what)
	}
	p.fail("expected %s but found %s", what, quoteTok(p.lx.s[t.start:t.end]))
}

// next advances to the next token.
func (p *parser) next() {
	p.prevEnd = p.lx.tok.end
	p.lx.next()
}

func (p *parser) tok() *token { return &p.lx.tok }

func (p *parser) is(k tokKind) bool { return p.lx.tok.kind == k }

// isKw reports whether the current token is the unescaped word kw.
func (p *parser) isKw(kw keyword) bool {
	t := &p.lx.tok
	return t.kind == tName && t.kw == kw && !t.escaped
}

func (p *parser) eat(k tokKind) bool {
	if p.lx.tok.kind == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(k tokKind) {
	if p.lx.tok.kind != k {
		p.expected("\"" + k.String() + "\"")
	}
	p.next()
}

func (p *parser) expectKw(kw keyword, text string) {
	if !p.isKw(kw) {
		p.expected("\"" + text + "\"")
	}
	p.next()
}

// semicolon consumes a statement's ";" or inserts one automatically.
func (p *parser) semicolon() {
	t := &p.lx.tok
	if t.kind == tSemi {
		p.next()
		return
	}
	if t.kind == tRBrace || t.kind == tEOF || t.nl {
		return
	}
	p.expected("\";\"")
}

// canInsertSemicolon reports whether ASI applies before the current token.
func (p *parser) canInsertSemicolon() bool {
	t := &p.lx.tok
	return t.kind == tSemi || t.kind == tRBrace || t.kind == tEOF || t.nl
}

// peek returns the token after the current one.
func (p *parser) peek() token {
	s := p.lx.snapshot()
	p.lx.next()
	t := p.lx.tok
	p.lx.restore(s)
	return t
}

func (p *parser) enter() {
	p.depth++
	if p.depth > p.maxDepth {
		p.fail("nesting too deep (more than %d levels)", p.maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// ---------------------------------------------------------------------------
// Program

func (p *parser) parseProgram(src []byte) *Program {
	p.lx.init(p, src, p.goal == Module)
	prog := &Program{Goal: p.goal}
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		prog.Hashbang = p.lx.s[2:p.lx.pos]
	}
	p.fn = &funcCtx{}
	if p.goal == Module {
		p.strict = true
		p.fn.async = true
		p.fn.awaitReserved = true
		p.exported = map[string]bool{}
		p.undefinedExports = map[string]*Ident{}
	}
	if p.strictStart {
		p.strict = true
	}
	if p.goal == CommonJS {
		p.fn.allowReturn = true
		p.fn.allowNewTarget = true
	}
	p.lastYield, p.lastAwait, p.lastAwaitIdent = -1, -1, -1
	p.labelFuncPos = -1
	p.pushScope(scopeTop)
	p.next()
	prog.Body = p.parseBody(tEOF, true)
	prog.Strict = p.strict
	prog.Start = 0
	prog.End = int32(len(src))
	if p.goal == Module {
		for _, id := range p.undefinedExports {
			if !p.scope.vars.has(id.Name) && !p.scope.lexical.has(id.Name) && !p.scope.functions.has(id.Name) {
				p.failAt(id.Start, id.End, "export \""+id.Name+"\" is not defined")
			}
		}
	}
	return prog
}

// parseBody parses statements up to the token end, handling a directive
// prologue when directives is set. It returns with the end token current.
func (p *parser) parseBody(end tokKind, directives bool) []Stmt {
	ls := &p.slabs.stmtLists
	base := ls.begin()
	var legacy []int32
	for directives && p.is(tString) {
		t := p.tok()
		raw := p.lx.s[t.start+1 : t.end-1]
		if t.legacy >= 0 {
			legacy = append(legacy, t.legacy)
		}
		s := p.parseStmt(true)
		es, ok := s.(*ExprStmt)
		if !ok {
			ls.push(s)
			break
		}
		if lit, ok := es.X.(*StringLit); ok && lit.Start == es.Start {
			es.Directive = raw
			if raw == "use strict" {
				if !p.strict {
					p.strict = true
					if len(legacy) > 0 {
						p.failAt(legacy[0], legacy[0]+2, "octal escape sequences are not allowed in strict mode")
					}
				}
			}
		} else {
			directives = false
		}
		ls.push(s)
	}
	for !p.is(end) {
		if p.is(tEOF) {
			p.expected("\"" + end.String() + "\"")
		}
		ls.push(p.parseStmt(true))
	}
	return ls.end(base)
}

// ---------------------------------------------------------------------------
// Statements

// parseStmt parses a statement. decl allows declarations (statement list
// items); without it, only statements are allowed (the body of if, while,
// labels, ...).
func (p *parser) parseStmt(decl bool) Stmt {
	p.enter()
	defer p.leave()
	t := p.tok()
	start := t.start
	switch t.kind {
	case tAt:
		decs := p.parseDecorators()
		if p.isKw(kwExport) && decl && p.goal == Module && p.fn.outer == nil && p.scope.kind == scopeTop {
			p.pendingDecorators = decs
			s := p.parseExport()
			switch s := s.(type) {
			case *ExportNamed:
				s.Start = start
			case *ExportDefault:
				s.Start = start
			}
			return s
		}
		if !p.isKw(kwClass) || !decl {
			p.expected("\"class\"")
		}
		cd := p.parseClassDecl(start, false).(*ClassDecl)
		cd.Decorators = decs
		return cd
	case tLBrace:
		return p.parseBlockStmt()
	case tSemi:
		p.next()
		return &Empty{Span{start, p.prevEnd}}
	case tName:
		if t.escaped {
			break
		}
		switch t.kw {
		case kwVar:
			p.next()
			d := p.parseVar(start, Var, false)
			p.semicolon()
			d.End = p.prevEnd
			return d
		case kwConst:
			if !decl {
				p.fail("lexical declaration cannot appear in a single-statement context")
			}
			p.next()
			d := p.parseVar(start, Const, false)
			p.semicolon()
			d.End = p.prevEnd
			return d
		case kwLet:
			if !decl {
				// A Statement is never a LexicalDeclaration: here "let" can
				// only be the identifier beginning an ExpressionStatement
				// (sloppy code; strict code rejects the identifier), whose
				// lookahead excludes "let [" however far apart the two are.
				// Across a line break, "let" then a name or "{" is the
				// statement "let" ended by ASI ("if (a) let\nx = 1" is
				// "if (a) let; x = 1;"); on one line it is a declaration
				// out of place, and so reported, as V8 does.
				nt := p.peek()
				if nt.kind == tLBrack || !nt.nl && p.isLetDecl() {
					p.fail("lexical declaration cannot appear in a single-statement context")
				}
				break
			}
			if p.isLetDecl() {
				p.next()
				d := p.parseVar(start, Let, false)
				p.semicolon()
				d.End = p.prevEnd
				return d
			}
		case kwUsing:
			if nt := p.peek(); decl && nt.kind == tName && !nt.nl && nt.kw != kwIn && nt.kw != kwInstanceof && !(nt.kw == kwOf && !nt.escaped) {
				p.next()
				d := p.parseVar(start, Using, false)
				p.semicolon()
				d.End = p.prevEnd
				return d
			}
		case kwAwait:
			if decl && p.fn.async && p.isAwaitUsing() {
				p.next()
				p.next()
				d := p.parseVar(start, AwaitUsing, false)
				p.semicolon()
				d.End = p.prevEnd
				return d
			}
		case kwFunction:
			if !decl {
				// Annex B allows a plain function declaration as the body of
				// if (handled by parseIf); everywhere else it is an error.
				p.fail("function declarations are not allowed in a single-statement context")
			}
			return p.parseFuncDecl(start, false, false)
		case kwAsync:
			nt := p.peek()
			if nt.kind == tName && nt.kw == kwFunction && !nt.escaped && !nt.nl {
				if !decl {
					p.fail("async function declarations are not allowed in a single-statement context")
				}
				p.next()
				return p.parseFuncDecl(start, true, false)
			}
		case kwClass:
			if !decl {
				p.fail("class declarations are not allowed in a single-statement context")
			}
			return p.parseClassDecl(start, false)
		case kwIf:
			return p.parseIf()
		case kwFor:
			return p.parseFor()
		case kwWhile:
			p.next()
			test := p.parseParenExpr()
			body := p.parseLoopBody()
			return &While{Span{start, p.prevEnd}, test, body}
		case kwDo:
			p.next()
			body := p.parseLoopBody()
			p.expectKw(kwWhile, "while")
			test := p.parseParenExpr()
			p.eat(tSemi)
			return &DoWhile{Span{start, p.prevEnd}, body, test}
		case kwReturn:
			if !p.fn.allowReturn {
				p.fail("return statement is not allowed here")
			}
			p.next()
			var arg Expr
			if !p.canInsertSemicolon() {
				arg = p.parseExpr(false)
			}
			p.semicolon()
			return node(&p.slabs.returns, Return{Span{start, p.prevEnd}, arg})
		case kwThrow:
			p.next()
			if p.tok().nl {
				p.fail("line break is not allowed after \"throw\"")
			}
			arg := p.parseExpr(false)
			p.semicolon()
			return &Throw{Span{start, p.prevEnd}, arg}
		case kwBreak, kwContinue:
			return p.parseBreakContinue()
		case kwSwitch:
			return p.parseSwitch()
		case kwTry:
			return p.parseTry()
		case kwDebugger:
			p.next()
			p.semicolon()
			return &Debugger{Span{start, p.prevEnd}}
		case kwWith:
			if p.strict {
				p.fail("with statements are not allowed in strict mode")
			}
			p.next()
			obj := p.parseParenExpr()
			body := p.parseStmt(false)
			return &With{Span{start, p.prevEnd}, obj, body}
		case kwImport:
			nt := p.peek()
			if nt.kind != tLParen && nt.kind != tDot {
				if p.goal != Module {
					p.fail("import declarations may only appear in modules")
				}
				if p.fn.outer != nil || p.scope.kind != scopeTop || !decl {
					p.fail("import declarations may only appear at the top level of a module")
				}
				return p.parseImport()
			}
		case kwExport:
			if p.goal != Module {
				p.fail("export declarations may only appear in modules")
			}
			if p.fn.outer != nil || p.scope.kind != scopeTop || !decl {
				p.fail("export declarations may only appear at the top level of a module")
			}
			return p.parseExport()
		case kwEnum:
			p.fail("\"enum\" is a reserved word")
		}
	}
	startsWithName := t.kind == tName
	x := p.parseExpr(false)
	if id, ok := x.(*Ident); ok && startsWithName && p.is(tColon) && id.Start == start {
		// A labelled function declaration is allowed (sloppy mode) where
		// declarations are, and as the body of such a label.
		return p.parseLabeled(id, decl || p.labelFuncPos == start)
	}
	p.semicolon()
	es := p.slabs.stmts.alloc()
	*es = ExprStmt{Span: Span{start, p.prevEnd}, X: x}
	return es
}

// isAwaitUsing reports whether the current "await" starts an "await using"
// declaration.
func (p *parser) isAwaitUsing() bool {
	s := p.lx.snapshot()
	defer p.lx.restore(s)
	p.lx.next()
	t := p.lx.tok
	if t.kind != tName || t.kw != kwUsing || t.escaped || t.nl {
		return false
	}
	p.lx.next()
	t = p.lx.tok
	return t.kind == tName && !t.nl && t.kw != kwIn && t.kw != kwInstanceof
}

// isLetDecl reports whether the current "let" starts a lexical declaration.
func (p *parser) isLetDecl() bool {
	nt := p.peek()
	switch nt.kind {
	case tLBrack, tLBrace:
		return true
	case tName:
		if nt.kw == kwIn || nt.kw == kwInstanceof {
			return false
		}
		if nt.kw.isReserved() && !nt.escaped && nt.kw != kwLet {
			// "let yield", "let await" are handled by the identifier
			// checks; other reserved words cannot follow.
			return false
		}
		return true
	}
	return false
}

func (p *parser) parseBlockStmt() *Block {
	p.pushScope(scopeBlock)
	b := p.parseBlock()
	p.popScope()
	return b
}

// parseBlock parses "{ ... }" without a new scope.
func (p *parser) parseBlock() *Block {
	start := p.tok().start
	p.expect(tLBrace)
	body := p.parseBody(tRBrace, false)
	p.next()
	return node(&p.slabs.blocks, Block{Span{start, p.prevEnd}, body})
}

func (p *parser) parseParenExpr() Expr {
	p.expect(tLParen)
	x := p.parseExpr(false)
	p.expect(tRParen)
	return x
}

func (p *parser) parseLoopBody() Stmt {
	p.fn.loops++
	p.fn.breakables++
	s := p.parseStmt(false)
	p.fn.loops--
	p.fn.breakables--
	return s
}

func (p *parser) parseIf() Stmt {
	start := p.tok().start
	p.next()
	test := p.parseParenExpr()
	then := p.parseIfBody()
	var els Stmt
	if p.isKw(kwElse) {
		p.next()
		els = p.parseIfBody()
	}
	return node(&p.slabs.ifs, If{Span{start, p.prevEnd}, test, then, els})
}

// parseIfBody allows, in sloppy mode, a function declaration (Annex B.3.4)
// which is scoped as if it were in a block.
func (p *parser) parseIfBody() Stmt {
	if p.isKw(kwFunction) && !p.strict {
		p.pushScope(scopeBlock)
		s := p.parseFuncDecl(p.tok().start, false, true)
		p.popScope()
		return s
	}
	return p.parseStmt(false)
}

func (p *parser) parseLabeled(id *Ident, funcOK bool) Stmt {
	start := id.Start
	fn := p.fn
	// The names are in a set once there are many (a chain of labels as
	// long as V8 accepts, 20,000 with memtrace node's stack, was
	// quadratic).
	if fn.labelSet == nil && len(fn.labels) >= 32 {
		fn.labelSet = make(map[string]bool, 2*len(fn.labels))
		for _, l := range fn.labels {
			fn.labelSet[l.name] = true
		}
	}
	dup := fn.labelSet[id.Name]
	for i := 0; fn.labelSet == nil && i < len(fn.labels); i++ {
		dup = dup || fn.labels[i].name == id.Name
	}
	if dup {
		p.failAt(id.Start, id.End, "label \""+id.Name+"\" has already been declared")
	}
	p.expect(tColon)
	loop := p.isKw(kwFor) || p.isKw(kwWhile) || p.isKw(kwDo)
	// "a: b: while (...)": a labels the loop too. The labels of a run
	// share their first one's loop.
	group := len(fn.labels)
	if n := len(fn.labels); n > 0 && fn.labels[n-1].stmtStart == start {
		group = fn.labels[n-1].group
	}
	if group < len(fn.labels) {
		fn.labels[group].loop = loop
	}
	fn.labels = append(fn.labels, labelInfo{id.Name, loop, p.tok().start, group})
	if fn.labelSet != nil {
		fn.labelSet[id.Name] = true
	}
	var body Stmt
	if p.isKw(kwFunction) {
		if p.strict {
			p.fail("function declarations cannot be labelled in strict mode")
		}
		if !funcOK {
			p.fail("a labelled function declaration cannot be the body of a statement")
		}
		body = p.parseFuncDecl(p.tok().start, false, true)
	} else {
		if funcOK {
			p.labelFuncPos = p.tok().start
		}
		body = p.parseStmt(false)
	}
	fn.labels = fn.labels[:len(fn.labels)-1]
	if fn.labelSet != nil {
		delete(fn.labelSet, id.Name)
	}
	return &Labeled{Span{start, p.prevEnd}, id, body}
}

func (p *parser) parseBreakContinue() Stmt {
	t := p.tok()
	start := t.start
	isBreak := t.kw == kwBreak
	p.next()
	var label *Ident
	if p.is(tName) && !p.tok().nl {
		label = p.parseIdentRef()
		found := false
		for i := len(p.fn.labels) - 1; i >= 0; i-- {
			l := p.fn.labels[i]
			if l.name == label.Name {
				if !isBreak && !p.fn.labels[l.group].loop {
					p.failAt(label.Start, label.End, "cannot continue to label \""+label.Name+"\": it does not name a loop")
				}
				found = true
				break
			}
		}
		if !found {
			p.failAt(label.Start, label.End, "undefined label \""+label.Name+"\"")
		}
	} else if isBreak && p.fn.breakables == 0 {
		p.failAt(start, p.prevEnd, "break statement is not inside a loop or switch")
	} else if !isBreak && p.fn.loops == 0 {
		p.failAt(start, p.prevEnd, "continue statement is not inside a loop")
	}
	p.semicolon()
	if isBreak {
		return &Break{Span{start, p.prevEnd}, label}
	}
	return &Continue{Span{start, p.prevEnd}, label}
}

func (p *parser) parseSwitch() Stmt {
	start := p.tok().start
	p.next()
	disc := p.parseParenExpr()
	p.expect(tLBrace)
	p.pushScope(scopeBlock)
	p.fn.breakables++
	var cases []*Case
	sawDefault := false
	for !p.is(tRBrace) {
		cstart := p.tok().start
		var test Expr
		if p.isKw(kwCase) {
			p.next()
			test = p.parseExpr(false)
		} else if p.isKw(kwDefault) {
			if sawDefault {
				p.fail("multiple default clauses in switch")
			}
			sawDefault = true
			p.next()
		} else {
			p.expected("\"case\" or \"default\"")
		}
		p.expect(tColon)
		ls := &p.slabs.stmtLists
		base := ls.begin()
		for !p.is(tRBrace) && !p.isKw(kwCase) && !p.isKw(kwDefault) {
			if p.is(tEOF) {
				p.expected("\"}\"")
			}
			ls.push(p.parseStmt(true))
		}
		body := ls.end(base)
		cases = append(cases, &Case{Span{cstart, p.prevEnd}, test, body})
	}
	p.fn.breakables--
	p.popScope()
	p.next()
	return &Switch{Span{start, p.prevEnd}, disc, cases}
}

func (p *parser) parseTry() Stmt {
	start := p.tok().start
	p.next()
	block := p.parseBlockStmt()
	var handler *Catch
	var finally *Block
	if p.isKw(kwCatch) {
		cstart := p.tok().start
		p.next()
		var param Pattern
		if p.eat(tLParen) {
			param = p.parseBindingTarget()
			p.expect(tRParen)
			if id, ok := param.(*Ident); ok {
				p.pushScope(scopeCatch)
				p.declare(id, bindCatch)
			} else {
				p.pushScope(scopeBlock)
				p.declarePattern(param, bindLexical)
			}
		} else {
			p.pushScope(scopeBlock)
		}
		body := p.parseBlock()
		p.popScope()
		handler = &Catch{Span{cstart, p.prevEnd}, param, body}
	}
	if p.isKw(kwFinally) {
		p.next()
		finally = p.parseBlockStmt()
	}
	if handler == nil && finally == nil {
		p.expected("\"catch\" or \"finally\"")
	}
	return &Try{Span{start, p.prevEnd}, block, handler, finally}
}

// parseVar parses the declarators after var, let or const. In a for head
// (inFor) "in" is not an operator and initializers are checked by the
// caller.
func (p *parser) parseVar(start int32, kind VarKind, inFor bool) *VarDecl {
	d := node(&p.slabs.varDecls, VarDecl{Kind: kind})
	d.Start = start
	ls := &p.slabs.declLists
	base := ls.begin()
	for {
		dstart := p.tok().start
		if (kind == Using || kind == AwaitUsing) && !p.is(tName) {
			p.expected("identifier")
		}
		target := p.parseBindingTarget()
		if kind != Var {
			p.names = boundNames(target, p.names[:0])
			for _, id := range p.names {
				if id.Name == "let" {
					p.failAt(id.Start, id.End, "\"let\" cannot be a lexically bound name")
				}
			}
			p.declarePattern(target, bindLexical)
		} else {
			p.declarePattern(target, bindVar)
		}
		var init Expr
		if p.eat(tAssign) {
			init = p.parseAssign(inFor, nil)
		} else if !inFor {
			if kind != Var && kind != Let {
				p.fail("missing initializer in %s declaration", kind)
			}
			if _, ok := target.(*Ident); !ok {
				p.fail("missing initializer in destructuring declaration")
			}
		}
		ls.push(node(&p.slabs.decls, Declarator{Span{dstart, p.prevEnd}, target, init}))
		if !p.eat(tComma) {
			break
		}
	}
	d.Decls = ls.end(base)
	d.End = p.prevEnd
	return d
}

func (p *parser) parseFor() Stmt {
	start := p.tok().start
	p.next()
	await := false
	if p.isKw(kwAwait) && p.fn.async {
		await = true
		p.lastAwait = p.tok().start
		p.next()
	}
	p.expect(tLParen)
	p.pushScope(scopeBlock)
	defer p.popScope()
	var init Node
	t := p.tok()
	if t.kind == tSemi {
		if await {
			p.unexpected()
		}
		return p.parseForRest(start, nil)
	}
	initStart := t.start
	isLet := p.isKw(kwLet)
	if isLet {
		nt := p.peek()
		isLet = nt.kind == tLBrack || nt.kind == tLBrace || nt.kind == tName && !(nt.kw == kwIn || nt.kw == kwInstanceof)
	}
	isUsing, isAwaitUsing := false, false
	if p.isKw(kwUsing) {
		nt := p.peek()
		isUsing = nt.kind == tName && !nt.nl && nt.kw != kwIn && nt.kw != kwOf && nt.kw != kwInstanceof
	} else if p.isKw(kwAwait) && p.fn.async {
		isAwaitUsing = p.isAwaitUsing()
	}
	if p.isKw(kwVar) || p.isKw(kwConst) || isLet || isUsing || isAwaitUsing {
		kind := Var
		switch {
		case p.isKw(kwConst):
			kind = Const
		case isLet:
			kind = Let
		case isUsing:
			kind = Using
		case isAwaitUsing:
			kind = AwaitUsing
			p.next()
		}
		p.next()
		d := p.parseVar(initStart, kind, true)
		if (p.isKw(kwOf) || p.isKw(kwIn)) && len(d.Decls) == 1 {
			isOf := p.isKw(kwOf)
			dc := d.Decls[0]
			if dc.Init != nil {
				_, simple := dc.Target.(*Ident)
				if isOf || kind != Var || p.strict || !simple {
					p.failAt(dc.Start, dc.End, "for-"+map[bool]string{true: "of", false: "in"}[isOf]+" loop variable declaration may not have an initializer")
				}
			}
			if await && !isOf {
				p.unexpected()
			}
			if isOf && kind == Var {
				p.checkForOfVar(d.Decls[0].Target)
			}
			return p.parseForInOf(start, d, isOf, await)
		}
		if p.isKw(kwOf) || p.isKw(kwIn) {
			p.fail("only one variable declaration is allowed in a for-in or for-of loop")
		}
		for _, dc := range d.Decls {
			if dc.Init == nil {
				if kind != Var && kind != Let {
					p.failAt(dc.Start, dc.End, "missing initializer in "+kind.String()+" declaration")
				}
				if _, ok := dc.Target.(*Ident); !ok {
					p.failAt(dc.Start, dc.End, "missing initializer in destructuring declaration")
				}
			}
		}
		if await {
			p.unexpected()
		}
		return p.parseForRest(start, d)
	}
	startsWithLet := p.isKw(kwLet)
	startsWithAsync := p.isKw(kwAsync)
	ce := &coverErrs{}
	ce.reset()
	var x Expr
	if nt := p.peek(); await && startsWithAsync && nt.kind == tName && nt.kw == kwOf && !nt.escaped {
		// for await (async of y): the target is the identifier async (the
		// lookahead that forbids "async of" is for-of's alone), not an
		// arrow "async of => ...", which is no LeftHandSideExpression.
		x = p.parseIdentRef()
	} else {
		x = p.parseExprCover(true, ce)
	}
	if p.isKw(kwOf) || p.isKw(kwIn) {
		isOf := p.isKw(kwOf)
		if isOf && startsWithLet {
			p.failAt(initStart, initStart+3, "\"let\" cannot start a for-of loop target")
		}
		if isOf && startsWithAsync && !await {
			if id, ok := x.(*Ident); ok && id.Name == "async" && id.End-id.Start == 5 {
				p.failAt(initStart, initStart+5, "\"async\" cannot start a for-of loop target")
			}
		}
		if await && !isOf {
			p.unexpected()
		}
		target := p.toAssignTarget(x, ce)
		return p.parseForInOf(start, target, isOf, await)
	}
	p.checkCover(ce)
	if await {
		p.unexpected()
	}
	init = x
	return p.parseForRest(start, init)
}

// checkForOfVar rejects "var" bindings of a for-of head that redeclare an
// enclosing catch parameter (Annex B allows that for other var forms only).
func (p *parser) checkForOfVar(target Pattern) {
	p.names = boundNames(target, p.names[:0])
	for _, id := range p.names {
		for sc := p.scope; sc != nil && sc.kind != scopeFunction && sc.kind != scopeTop; sc = sc.outer {
			if sc.kind == scopeCatch && sc.catchName == id.Name {
				p.failAt(id.Start, id.End, "\""+id.Name+"\" has already been declared")
			}
		}
	}
}

func (p *parser) parseForRest(start int32, init Node) Stmt {
	p.expect(tSemi)
	var test, update Expr
	if !p.is(tSemi) {
		test = p.parseExpr(false)
	}
	p.expect(tSemi)
	if !p.is(tRParen) {
		update = p.parseExpr(false)
	}
	p.expect(tRParen)
	body := p.parseLoopBody()
	if init == nil {
		return &For{Span{start, p.prevEnd}, nil, test, update, body}
	}
	return &For{Span{start, p.prevEnd}, init, test, update, body}
}

func (p *parser) parseForInOf(start int32, left Node, isOf, await bool) Stmt {
	p.next()
	var right Expr
	if isOf {
		right = p.parseAssign(false, nil)
	} else {
		right = p.parseExpr(false)
	}
	p.expect(tRParen)
	body := p.parseLoopBody()
	if isOf {
		return &ForOf{Span{start, p.prevEnd}, left, right, body, await}
	}
	return &ForIn{Span{start, p.prevEnd}, left, right, body}
}

// ---------------------------------------------------------------------------
// Functions and classes

// parseFuncDecl parses a function declaration at "function" (after "async"
// when async). start is where the declaration starts. annexB marks the
// sloppy forms (if bodies, labels) where only plain functions are allowed.
func (p *parser) parseFuncDecl(start int32, async, annexB bool) Stmt {
	p.next() // function
	gen := p.eat(tStar)
	if annexB && (async || gen) {
		p.failAt(start, p.prevEnd, "generator and async function declarations are not allowed here")
	}
	var name *Ident
	if p.is(tName) {
		name = p.parseBindingIdent()
		// Declared in the enclosing scope (if bodies: in their own).
		switch {
		case !(p.strict || gen || async):
			p.declare(name, bindFunction)
		case p.functionsAsVar(p.scope):
			p.declare(name, bindVar)
		default:
			p.declare(name, bindLexical)
		}
	} else if !p.inExportDefault {
		p.expected("function name")
	}
	f := &FuncDecl{}
	f.Start = start
	f.Name = name
	p.parseFuncRest(&f.Func, async, gen, false, false)
	return f
}

// parseFuncRest parses a function's parameters and body into f. method
// marks methods (super properties allowed); ctor marks a derived class
// constructor (super calls allowed).
func (p *parser) parseFuncRest(f *Func, async, gen, method, derivedCtor bool) {
	f.Async, f.Generator = async, gen
	outer := p.fn
	fn := &funcCtx{outer: outer, async: async, generator: gen, allowReturn: true, allowNewTarget: true,
		allowSuperProp: method, allowSuperCall: derivedCtor, awaitReserved: async || p.goal == Module}
	p.fn = fn
	savedStrict := p.strict
	savedYield, savedAwait, savedAwaitIdent := p.lastYield, p.lastAwait, p.lastAwaitIdent
	p.pushScope(scopeFunction)
	paramsStart := p.tok().start
	params, simple := p.parseParams()
	if p.lastYield >= paramsStart {
		p.failAt(p.lastYield, p.lastYield+5, "yield expressions are not allowed in formal parameters")
	}
	if p.lastAwait >= paramsStart {
		p.failAt(p.lastAwait, p.lastAwait+5, "await expressions are not allowed in formal parameters")
	}
	f.Params = params
	f.SimpleParams = simple
	f.Body = p.parseFuncBody(f.Name, params, simple, method || derivedCtor || outer.arrow && false, false)
	f.Strict = p.strict
	f.End = p.prevEnd
	p.popScope()
	p.strict = savedStrict
	p.fn = outer
	p.lastYield, p.lastAwait, p.lastAwaitIdent = savedYield, savedAwait, savedAwaitIdent
}

// parseParams parses "(a, b = 1, ...c)" and declares the names.
func (p *parser) parseParams() ([]Pattern, bool) {
	p.expect(tLParen)
	ls := &p.slabs.patLists
	base := ls.begin()
	simple := true
	for !p.is(tRParen) {
		start := p.tok().start
		if p.eat(tEllipsis) {
			target := p.parseBindingTarget()
			if p.is(tAssign) {
				p.fail("a rest parameter cannot have a default value")
			}
			ls.push(&RestElement{Span{start, p.prevEnd}, target})
			simple = false
			if !p.is(tRParen) {
				p.fail("a rest parameter must be last in a parameter list")
			}
			break
		}
		target := p.parseBindingElement()
		if _, ok := target.(*Ident); !ok {
			simple = false
		}
		ls.push(target)
		if !p.is(tRParen) {
			p.expect(tComma)
		}
	}
	p.next()
	params := ls.end(base)
	for _, prm := range params {
		p.declarePattern(prm, bindVar)
	}
	return params, simple
}

// parseFuncBody parses "{ ... }" of a function whose parameters are
// already declared, and applies the checks that depend on the body's
// strictness.
func (p *parser) parseFuncBody(name *Ident, params []Pattern, simple, method, arrow bool) *Block {
	start := p.tok().start
	p.expect(tLBrace)
	wasStrict := p.strict
	savedLabels, savedSet := p.fn.labels, p.fn.labelSet
	p.fn.labels, p.fn.labelSet = nil, nil
	body := p.parseBody(tRBrace, true)
	p.fn.labels, p.fn.labelSet = savedLabels, savedSet
	p.next()
	_ = wasStrict
	if !simple {
		for _, s := range body {
			if es, ok := s.(*ExprStmt); ok && es.Directive == "use strict" {
				p.failAt(es.Start, es.End, "\"use strict\" is not allowed in a function with non-simple parameters")
			}
		}
	}
	p.checkParams(name, params, simple, method || arrow || p.strict)
	return node(&p.slabs.blocks, Block{Span{start, p.prevEnd}, body})
}

// checkParams rejects duplicate parameters (where not allowed) and, in
// strict code, parameter and function names that strict code reserves.
func (p *parser) checkParams(name *Ident, params []Pattern, simple, uniqueRequired bool) {
	if p.strict && name != nil {
		p.checkStrictBinding(name)
	}
	names := p.names[:0]
	for _, prm := range params {
		names = boundNames(prm, names)
	}
	p.names = names
	for i, id := range names {
		if p.strict {
			p.checkStrictBinding(id)
		}
		if uniqueRequired || !simple {
			for _, prev := range names[:i] {
				if prev.Name == id.Name {
					p.failAt(id.Start, id.End, "duplicate parameter name \""+id.Name+"\"")
				}
			}
		}
	}
}

func (p *parser) checkStrictBinding(id *Ident) {
	switch id.Name {
	case "eval", "arguments":
		p.failAt(id.Start, id.End, "\""+id.Name+"\" cannot be a binding name in strict mode")
	case "implements", "interface", "let", "package", "private", "protected", "public", "static", "yield":
		p.failAt(id.Start, id.End, "\""+id.Name+"\" is a reserved word in strict mode")
	}
}

func (p *parser) parseClassDecl(start int32, exportDefault bool) Stmt {
	c := &ClassDecl{}
	c.Start = start
	p.next()
	savedStrict := p.strict
	p.strict = true
	if p.is(tName) && !(p.isKw(kwExtends) && exportDefault) {
		c.Name = p.parseBindingIdent()
		p.strict = savedStrict
		p.declare(c.Name, bindLexical)
		p.strict = true
	} else if !exportDefault {
		p.expected("class name")
	}
	p.parseClassRest(&c.Class)
	p.strict = savedStrict
	return c
}
