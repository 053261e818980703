package instrument

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/trace"
)

// fnState is the rewriter's state for the function (or program, or class
// element) whose code it is in.
type fnState struct {
	parent   *fnState
	span     js.Span // the function's range (N, Fe, Fr sites)
	temps    int     // live temporaries
	maxTemps int
	keyTemps int // temporaries that keep a class field's computed key (keyTemp), never reused
	tempPfx  string
	noTemps  bool   // no var can be declared here (field initializers, parameter lists)
	self     string // the Fe result's name, "" outside functions
	noTry    bool   // the body cannot be wrapped in try (see needsNoTry)
	frIid    int    // Fr's iid, allocated early in noTry mode
	selfSpan js.Span
	derived  bool        // a derived class's constructor (super() gives this)
	rest     []restIdent // rest parameters (...a): their arrays are logged by T
	susp     bool        // a generator or async function: Fg/Fx, suspensions (suspend.go)
	sfn      *scope.Func
	// thisFrame: uses of this in the body may name the frame (Gt, Pt):
	// a function with its own this fixed for the whole activation and
	// its frame in self (not an arrow, a generator, an async function or
	// a derived class's constructor), past its parameters.
	thisFrame bool
	// fieldInit: a field's initializer, which flushes nothing (no X): the
	// instance (before its constructor's Fe) and a static field's value
	// (before its class has an id) are held by nothing in the model yet,
	// and a flush there would reclaim them with what they hold.
	// instInit: an instance field's initializer, where this may have no
	// id yet: writes to it give it one (Qt, Q with inst 1).
	fieldInit, instInit bool
	nsusp               int // suspensions rewritten so far
	nsuspAll            int // the same, with for await loops (iter.go)
	// iters: the loops with per-iteration scopes whose bodies enclose the
	// point being rewritten, outermost first (suspendable functions only:
	// a resumption enters their iterations again, iter.go).
	iters []*iterLoop
	// Suspendable functions (suspend.go, "The function's own context"):
	// c0 lists the bindings that stay in the function's first context
	// for its whole activation (cset: the same as a set); firstSusp is
	// the position of its first suspension (-1: none yet); pd lists the
	// bindings of c0 declared after it, declared at entry and written
	// (Nw) where their declarations run.
	c0        []*scope.Binding
	cset      map[*scope.Binding]bool
	firstSusp int32
	pd        []*scope.Binding
	pdSet     map[*scope.Binding]bool
}

type freeEntry struct {
	fe    int
	names []string
}

type rewriter struct {
	// superseded: the property reads that need no G (supersede.go);
	// closureWritten: the bindings a function other than their own
	// assigns; sup: the analysis's state.
	superseded     map[*js.Member]bool
	closureWritten map[*scope.Binding]bool
	sup            *superseder
	// jumps: the statements a break or continue may complete, innermost
	// last (flushelide.go).
	jumps []jumpTarget
	// points: local iid -> where the engine reports the operation its hook
	// call stands for (Options.PosMap; posmap.go).
	points map[int]int32
	// remaps: source offsets the engine reports in the instrumented code
	// where it reports others in the original (the dot of a named read
	// whose object G wraps, for its name), in source order.
	remaps [][2]int32
	// textPoints: offsets in buf of inserted text where the engine reports
	// an operation of the original (the "=" of an element store the
	// program performs itself, quickElement; the name or "[" of a method
	// lookup it performs, appendLookup), with the source offset where it
	// reports that operation in the original.
	textPoints [][2]int32
	// names: the names V8 infers for function literals that hooks wrap
	// (inferName), in source order.
	names []inferred
	src   []byte
	prog  *js.Program
	info  *scope.Info
	opts  config
	h     string // the script handle
	uniq  string // a name unique to this script, for its global temporaries
	// alias: in a classic script, a short name for the handle (no
	// identifier of the script spells it) that each function at the top
	// level binds in its body (const alias = handle), so that the hooks
	// inside functions do not spell the long global name; not in functions
	// with direct eval or with in them, which may bring names the
	// instrumenter cannot see.
	alias  string
	at     int32 // where the prologue goes (Result.At)
	edits  []edit
	sites  []js.Span
	fn     *fnState
	strict bool
	inWith int
	declFe map[*js.FuncDecl]int
	free   []freeEntry
	// writtenNames holds every name assigned somewhere in the file (self
	// references of function declarations must not be reassigned).
	writtenNames map[string]bool
	refHint      int // index of the reference ref found last
	refsSorted   bool
	dtemps       int // destructuring helper declarators
	// varInit holds the names a var declarator or for-in/of var writes;
	// selfRefs the Fe prologues that name their function declaration,
	// checked against it once the whole file is seen.
	varInit   map[string]bool
	selfRefs  []selfRef
	siteCache []Site
	remap     func([]Site) []Site // see instrumentJS
	arena     []byte              // text of hook openings (hk)
	chunks    [][]byte            // the arena's chunks so far
	spare     [][]byte            // chunks kept from earlier calls (release)
	buf       []byte              // the edits' texts
	scratch   []byte              // scratch for building one edit's text
	scratch2  []byte
	hoist     []byte
	// ready: let/const/class bindings of suspendable functions whose
	// declaration has been rewritten; funcScopes: the scopes of each
	// function (suspend.go).
	ready      map[*scope.Binding]bool
	funcScopes map[*scope.Func][]*scope.Scope
	wrapped    *js.ForOf // a labeled for await wrapped at its label
	// iterLoops: the loops rewritten as synthetic iteration scopes, with
	// their function (iter.go); labelStart: the start of the outermost
	// label of the statement being rewritten, or -1.
	iterLoops  map[js.Node]*scope.Func
	forAwaits  []js.Span // the for await loops (ownContextBindings)
	labelStart int32
	// tagTop: the names of the top-level bindings of this module or
	// CommonJS module end with ModuleTag in the trace (see ModuleTag).
	tagTop bool
}

type selfRef struct {
	edit int
	name string // source text of the name
	key  string // the decoded name
}

// fixSelfRefs drops the self-reference of function declarations whose
// name a var initialiser reassigns.
func (r *rewriter) fixSelfRefs() {
	for _, sr := range r.selfRefs {
		if r.varInit[sr.key] {
			text := r.editText(sr.edit)
			i := strings.Index(text, ".Fe(")
			if i < 0 {
				i = strings.Index(text, ".Fg(")
			}
			j := strings.Index(text[i:], ", "+sr.name+", ")
			r.fill(sr.edit, text[:i+j]+", void 0, "+text[i+j+len(sr.name)+4:])
		}
	}
}

func newRewriter(src []byte, prog *js.Program, info *scope.Info, opts config, sb *scratchBufs) *rewriter {
	uniq := handleName(src, opts.Goal)
	h := uniq
	if opts.Goal != js.Script || opts.Eval && !opts.GlobalCode {
		// The handle is a lexical name of a scope of the code's own (a
		// module's, a CommonJS module's, or an eval's, where const
		// declarations stay): a short name that no identifier of the code
		// spells, paid on every hook; with direct eval or with in the code,
		// which may bring names the instrumenter cannot see, the reserved
		// prefix.
		h = Prefix
		if root := info.FuncOf(prog); root != nil && !root.HasEval && !root.HasWith {
			h = freeShortName(info)
		}
	}
	alias := ""
	if h == uniq {
		if a := freeShortName(info); a != Prefix {
			alias = a
		}
	}
	r := &rewriter{src: src, prog: prog, info: info, opts: opts, h: h, uniq: uniq, alias: alias,
		declFe: make(map[*js.FuncDecl]int), writtenNames: make(map[string]bool), varInit: make(map[string]bool),
		labelStart: -1}
	if opts.PosMap {
		r.points = make(map[int]int32)
	}
	r.edits, r.buf, r.sites, r.spare = sb.edits[:0], sb.buf[:0], sb.sites[:0], sb.chunks
	r.scratch, r.scratch2, r.hoist = sb.scratch, sb.scratch2, sb.hoist
	sb.chunks = nil // r's now
	if cap(r.edits) < len(src)/8+16 {
		r.edits = make([]edit, 0, len(src)/8+16)
	}
	if cap(r.buf) < len(src)*3+1024 {
		r.buf = make([]byte, 0, len(src)*3+1024)
	}
	if cap(r.sites) < len(src)/14+16 {
		r.sites = make([]js.Span, 0, len(src)/14+16)
	}
	sorted := true
	prev := int32(-1)
	for i := range info.Refs {
		ref := &info.Refs[i]
		if ref.Ident.Start < prev {
			sorted = false
		}
		prev = ref.Ident.Start
		if ref.Write {
			r.writtenNames[ref.Ident.Name] = true
		}
	}
	r.refsSorted = sorted
	if root := info.FuncOf(prog); (prog.Goal == js.Module || prog.Goal == js.CommonJS) && root != nil && !root.HasEval && !root.HasWith {
		r.tagTop = true
	}
	return r
}

// scratchBufs are an Instrument call's buffers (the parser's arena and
// the rewriter's), kept for later calls (none of them is part of a
// Result).
type scratchBufs struct {
	arena                    *js.Arena
	edits                    []edit
	buf                      []byte
	chunks                   [][]byte // the rewriter's arena's
	sites                    []js.Span
	scratch, scratch2, hoist []byte
}

// kept holds a few sets of scratch buffers between calls, at most one per
// processor. A sync.Pool would not do: a call allocates many times its
// input (the syntax tree, the output), so a collection or two came
// between most two calls, and a pool is emptied by two.
var kept struct {
	sync.Mutex
	free []*scratchBufs
}

// takeScratch returns a kept set of buffers, or a new one.
func takeScratch() *scratchBufs {
	kept.Lock()
	defer kept.Unlock()
	if n := len(kept.free); n > 0 {
		sb := kept.free[n-1]
		kept.free = kept.free[:n-1]
		return sb
	}
	return &scratchBufs{arena: js.NewArena()}
}

// keepScratch resets sb's arena (the call's syntax tree is not used
// after) and keeps sb for a later call, unless it holds a huge file's
// buffers or enough sets are kept.
func keepScratch(sb *scratchBufs) {
	sb.arena.Reset()
	// A set holds about ten times its largest source (edits, texts, the
	// syntax tree's chunks): a long-lived process (the instrument server)
	// keeps the sets of files of up to about 5 MB.
	const max = 16 << 20
	if cap(sb.buf) > max || len(sb.chunks)*64<<10 > max {
		return
	}
	kept.Lock()
	defer kept.Unlock()
	if len(kept.free) < runtime.GOMAXPROCS(0) {
		kept.free = append(kept.free, sb)
	}
}

// release hands the rewriter's buffers back to sb; r is not used after.
func (r *rewriter) release(sb *scratchBufs) {
	sb.edits, sb.buf, sb.chunks, sb.sites = r.edits, r.buf, append(r.chunks, r.spare...), r.sites
	sb.scratch, sb.scratch2, sb.hoist = r.scratch, r.scratch2, r.hoist
}

// site allocates the next local iid with range sp.
func (r *rewriter) site(sp js.Span) int {
	r.sites = append(r.sites, sp)
	return len(r.sites)
}

func itoa(i int) string { return strconv.Itoa(i) }

func spanOf(n js.Node) js.Span { return js.Span{Start: n.Pos(), End: n.EndPos()} }

// acorn returns the span acorn gives an expression (parentheses dropped).
func acorn(e js.Expr) js.Span {
	for {
		p, ok := e.(*js.Paren)
		if !ok {
			return spanOf(e)
		}
		e = p.X
	}
}

func unparen(e js.Expr) js.Expr {
	for {
		p, ok := e.(*js.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// text is the source text of n, without a copy (src is not modified
// while the rewriter lives, and the strings only go into the edits' text).
func (r *rewriter) text(n js.Node) string {
	a, b := n.Pos(), n.EndPos()
	if a == b {
		return ""
	}
	return unsafe.String(&r.src[a], int(b-a))
}

// str is the string literal naming an identifier (its source text, whose
// escapes are valid string escapes too).
func (r *rewriter) str(id *js.Ident) string {
	t := r.text(id)
	r.reserve(len(t) + 2)
	start := len(r.arena)
	r.arena = append(r.arena, '"')
	r.arena = append(r.arena, t...)
	r.arena = append(r.arena, '"')
	return r.arenaString(start)
}

// ModuleTag ends the trace's name of a top-level binding of a module or a
// CommonJS module (the shim appends the module's script id): the model
// keeps module scopes in the GLOBAL context, where the bindings of two
// modules that use the same name would otherwise be one variable. A
// module whose code uses direct eval or with keeps its names as written
// (eval code names the module's bindings as written).
const ModuleTag = "@"

// varStr is the string literal naming, in the trace, the variable an
// identifier declares or refers to.
func (r *rewriter) varStr(id *js.Ident) string {
	if !r.topLevel(id) {
		return r.str(id)
	}
	t := r.text(id)
	r.reserve(len(t) + 3)
	start := len(r.arena)
	r.arena = append(r.arena, '"')
	r.arena = append(r.arena, t...)
	r.arena = append(r.arena, ModuleTag...)
	r.arena = append(r.arena, '"')
	return r.arenaString(start)
}

// topLevel reports that id declares or refers to a top-level binding whose
// trace name carries ModuleTag.
func (r *rewriter) topLevel(id *js.Ident) bool {
	if !r.tagTop {
		return false
	}
	if ref := r.ref(id); ref != nil {
		return ref.Binding != nil && ref.Binding.Scope == r.info.Root
	}
	if b := r.info.BindingOf(id); b != nil {
		return b.Scope == r.info.Root
	}
	// A repeated var declaration names the binding of the first one, in
	// the function's var scope.
	return r.fn != nil && r.fn.parent == nil && r.info.Root.Lookup(id.Name) != nil
}

// bindingName is the trace's name of binding b.
func (r *rewriter) bindingName(b *scope.Binding) string {
	if r.tagTop && b.Scope == r.info.Root {
		return b.Name + ModuleTag
	}
	return b.Name
}

// noAsm spells a function's "use asm" directive with an escape, "use\x20asm":
// V8 takes a directive for asm.js only when it is those seven characters
// between quotes, and instrumented code is never valid asm.js (hooks call
// out of the module), so V8 would print a warning where the program ran
// silently ("Invalid asm.js", a process warning in Node) and then run the
// code as JavaScript anyway. Escaped, the string keeps its value (an
// eval's completion value) and is no asm.js directive.
func (r *rewriter) noAsm(es *js.ExprStmt) {
	a, b := es.X.Pos(), es.X.EndPos()
	q := r.src[a]
	r.rep(a, b, string(q)+`use\x20asm`+string(q))
}

// freeNames gives the names of FREE_VARS for function f, whose free names
// are names: those that resolve to a tagged top-level binding carry the
// tag.
func (r *rewriter) freeNames(f *scope.Func, names []string) []string {
	if !r.tagTop || len(names) == 0 {
		return names
	}
	var out []string
	for i, n := range names {
		b := resolveFrom(f.Scope.Parent, n)
		if b == nil || b.Scope != r.info.Root {
			if out != nil {
				out = append(out, n)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(names)), names[:i]...)
		}
		out = append(out, n+ModuleTag)
	}
	if out == nil {
		return names
	}
	return out
}

// resolveFrom returns the binding name has in scope s, or nil.
func resolveFrom(s *scope.Scope, name string) *scope.Binding {
	for ; s != nil; s = s.Parent {
		if b := s.Lookup(name); b != nil {
			return b
		}
	}
	return nil
}

func (r *rewriter) strictArg() string {
	if r.strict {
		return "1"
	}
	return "0"
}

// storeArg is P's last argument for a write to member m: 1 for strict
// code, plus 2 when the program writes o.name (not o[k]), which the shim
// then makes as a named store: V8 turns an object into a dictionary after
// a dozen properties added by keyed stores, but not by named ones.
func (r *rewriter) storeArg(m *js.Member) string {
	n := 0
	if r.strict {
		n = 1
	}
	if !m.Computed {
		n += 2
	}
	return strconv.Itoa(n)
}

// ref returns the resolved reference of an identifier, or nil.
func (r *rewriter) ref(id *js.Ident) *scope.Ref {
	refs := r.info.Refs
	if r.refsSorted {
		// The rewriter mostly asks in source order: the reference after
		// the last one found, or that one again, before a bisection.
		if k := r.refHint; k < len(refs) && refs[k].Ident == id {
			return &refs[k]
		} else if k+1 < len(refs) && refs[k+1].Ident == id {
			r.refHint = k + 1
			return &refs[k+1]
		}
		lo, hi := 0, len(refs)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if refs[m].Ident.Start < id.Start {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo < len(refs) && refs[lo].Ident == id {
			r.refHint = lo
			return &refs[lo]
		}
		return nil
	}
	for i := range refs {
		if refs[i].Ident == id {
			return &refs[i]
		}
	}
	return nil
}

// oldValue is the expression reading a variable's value before a write;
// a name that may be an undeclared global is read through typeof.
func (r *rewriter) oldValue(id *js.Ident) string {
	name := r.text(id)
	ref := r.ref(id)
	if ref != nil && !ref.Dynamic && (ref.Binding != nil || r.prog.Goal == js.Script && r.info.Root.Lookup(id.Name) != nil) {
		return name
	}
	return "(typeof " + name + ` === "undefined" ? void 0 : ` + name + ")"
}

func (r *rewriter) allocTemp() string {
	f := r.fn
	f.temps++
	if f.temps > f.maxTemps {
		f.maxTemps = f.temps
	}
	if f.tempPfx == Prefix && f.temps < len(tempNames) {
		return tempNames[f.temps]
	}
	return f.tempPfx + itoa(f.temps)
}

// tempNames are the names of a function's first temporaries
// (Prefix + "1", …), made once.
var tempNames = func() []string {
	t := make([]string, 32)
	for i := range t {
		t[i] = Prefix + strconv.Itoa(i)
	}
	return t
}()

func (r *rewriter) releaseTemps(n int) { r.fn.temps -= n }

// keyTemp allocates a temporary of f's that holds one class field's
// computed key from the class's definition to its initializer's runs
// (classField): one per field, never given back.
func (r *rewriter) keyTemp(f *fnState) string {
	f.keyTemps++
	return f.tempPfx + "k" + itoa(f.keyTemps)
}

func (r *rewriter) tempDecl(f *fnState) string {
	return string(r.appendTempDecl(nil, f))
}

func (r *rewriter) appendTempDecl(b []byte, f *fnState) []byte {
	if f.maxTemps == 0 && f.keyTemps == 0 {
		return b
	}
	b = append(b, "var "...)
	for i := 1; i <= f.maxTemps; i++ {
		if i > 1 {
			b = append(b, ", "...)
		}
		b = append(b, f.tempPfx...)
		b = strconv.AppendInt(b, int64(i), 10)
	}
	for i := 1; i <= f.keyTemps; i++ {
		if i > 1 || f.maxTemps > 0 {
			b = append(b, ", "...)
		}
		b = append(b, f.tempPfx...)
		b = append(b, 'k')
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return append(b, "; "...)
}

// ---------------------------------------------------------------------------
// Program

func (r *rewriter) program(p *js.Program) {
	r.strict = p.Strict
	whole := js.Span{Start: 0, End: int32(len(r.src))}
	pfx := Prefix
	if p.Goal == js.Script {
		pfx = r.uniq + "_"
	}
	r.fn = &fnState{span: whole, tempPfx: pfx}
	pos := int32(0)
	semi := ""
	if bytes.HasPrefix(r.src, []byte("#!")) {
		pos = int32(len(r.src))
		for i, c := range r.src {
			if c == '\n' || c == '\r' {
				pos = int32(i + 1)
				if c == '\r' && i+1 < len(r.src) && r.src[i+1] == '\n' {
					pos++
				}
				break
			}
		}
		if int(pos) == len(r.src) {
			semi = "\n"
		}
	}
	// An HTML close comment "-->" is one only at the start of a line
	// (classic scripts): the prologue goes after such lines.
	for p.Goal != js.Module && semi == "" {
		q := r.next(pos)
		if !bytes.HasPrefix(r.src[q:], []byte("-->")) || r.newlines(pos, q) > 0 && pos != 0 {
			break
		}
		i := bytes.IndexAny(r.src[q:], "\r\n")
		if i < 0 {
			pos, semi = int32(len(r.src)), "\n"
			break
		}
		pos = q + int32(i) + 1
		if r.src[pos-1] == '\r' && int(pos) < len(r.src) && r.src[pos] == '\n' {
			pos++
		}
	}
	body := p.Body
	var lastDirective *js.StringLit
	for len(body) > 0 {
		es, ok := body[0].(*js.ExprStmt)
		if !ok || es.Directive == "" {
			break
		}
		lastDirective, _ = es.X.(*js.StringLit)
		pos = es.End
		semi = ""
		if r.src[es.End-1] != ';' {
			semi = ";"
		}
		body = body[1:]
	}
	// An eval's value is its code's completion value: the value of its
	// last statement that has one, which may be a directive (eval('"use
	// strict"') is "use strict"). The prologue and the try statement
	// would replace it (a try statement whose block has no value is
	// undefined), so the last directive's value is stated again after
	// the hoisted declarations, and SCRIPT_EXIT without a try statement
	// is a declaration (no value), not an expression statement.
	evalValue := r.opts.Eval && !r.opts.GlobalCode
	cjs := p.Goal == js.CommonJS || r.opts.Eval
	if cjs {
		r.fn.noTry = needsNoTry(p.Body, p.Strict) || r.opts.Eval && p.Goal == js.Script && blockScoped(body, r.opts.GlobalCode)
	}
	r.at = pos
	h := r.hole(pos)
	r.stmts(body)
	r.fixSelfRefs()
	hoist := string(r.hoisted(nil, r.info.Root, p.Body, nil))
	if r.opts.Eval {
		// Keep eval's completion value: a hook statement would otherwise
		// be the value of code made only of declarations.
		hoist = strings.ReplaceAll(hoist, r.h+".N(", "void "+r.h+".N(")
	}
	se := r.site(whole)
	sr := r.site(whole)

	sites := r.siteList()
	// The prologue goes straight into the text buffer.
	start := len(r.buf)
	b := r.buf
	b = append(b, semi...)
	module := p.Goal == js.Module
	classic := r.classic()
	if classic {
		// __mt.Sg("__mt$<hash>", temps, keyTemps, …): the shim makes the
		// handle and the top-level temporaries global names (non-enumerable
		// properties), so that no declaration of the script's own stops a
		// second run of the same text, and no temporary is enumerable.
		b = append(b, "__mt.Sg("...)
		b = append(b, '"')
		b = append(b, r.h...)
		b = append(b, "\", "...)
		b = strconv.AppendInt(b, int64(r.fn.maxTemps), 10)
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(r.fn.keyTemps), 10)
		b = append(b, ", "...)
	} else if module {
		// var H = __mt$h(); function __mt$h() { return H || (H = __mt.S(…)); }
		// The function is hoisted, and H a var: a function declaration
		// of the module called before its body has run (import cycles)
		// sets the handle through it (ModuleInit).
		b = append(b, "var "...)
		b = append(b, r.h...)
		b = append(b, " = "+ModuleInit+"(); function "+ModuleInit+"() { return "...)
		b = append(b, r.h...)
		b = append(b, " || ("...)
		b = append(b, r.h...)
		b = append(b, " = "...)
	} else {
		b = append(b, "const "...)
		b = append(b, r.h...)
		b = append(b, " = "...)
	}
	if r.opts.Eval && !r.opts.GlobalCode {
		b = append(b, EvalNoCache...)
	}
	if !classic {
		b = append(b, "__mt.S("...)
	}
	b = append(b, quote(fileName(r.opts.Options))...)
	b = append(b, ", "...)
	if r.sitesApart() {
		b = append(b, '0')
	} else {
		b = appendSiteTable(b, sites)
	}
	b = append(b, ", "...)
	b = r.appendFree(b)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(se), 10)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(sr), 10)
	o := r.modes()
	if !r.opts.Eval {
		// The file's own import(), which resolves against the file: run-time
		// code the file makes calls it for its import() (the shim compiles
		// that code, so the engine would resolve against the shim's file).
		if o == "" {
			o = "0"
		}
		o += ", " + ImportTrampoline
	}
	if o != "" {
		b = append(b, ", "...)
		b = append(b, o...)
	}
	if module {
		b = append(b, ")); } "...)
	} else {
		b = append(b, "); "...)
	}
	if !module || !linkOnFirstLine(p.Body, r.src) {
		b = append(b, NoExceptionLine...)
	}
	if r.opts.Eval && !classic && (r.fn.maxTemps > 0 || r.fn.keyTemps > 0) {
		// An eval's lexical declarations are its own: a var would be a
		// property of the global object in an indirect eval.
		b = append(b, "let"...)
		b = append(b, r.tempDecl(r.fn)[3:]...)
	} else if !classic {
		b = append(b, r.tempDecl(r.fn)...)
	}
	if cjs && !r.fn.noTry {
		b = append(b, "try { "...)
	}
	b = append(b, hoist...)
	if evalValue && lastDirective != nil {
		b = appendQuote(b, lastDirective.Value)
		b = append(b, "; "...)
	}
	r.buf = b
	r.edits[h].off, r.edits[h].n = int32(start), int32(len(b)-start)
	switch {
	case cjs && !r.fn.noTry:
		r.ins(int32(len(r.src)), "\n} finally { "+r.h+".Sx(); }")
	case evalValue:
		// Eval code's lexical declarations are its own.
		r.ins(int32(len(r.src)), "\n;const "+Prefix+"sx = "+r.h+".Sx();")
	case r.opts.Eval && r.opts.GlobalCode:
		// Global code (vm's scripts keep its completion value): a var
		// statement that binds nothing has no value of its own.
		r.ins(int32(len(r.src)), "\n;var {} = ("+r.h+".Sx(), 0);")
	default:
		r.ins(int32(len(r.src)), "\n;"+r.h+".Sx();")
	}
}

// classicTop: the rewriter is at the top level of a classic script,
// whose handle and temporaries are global names (Sg).
func (r *rewriter) classicTop() bool {
	return r.classic() && r.fn != nil && r.fn.parent == nil
}

// classic: the code is a classic script (or a string timer's code, which
// runs as one), whose top level is the global scope.
func (r *rewriter) classic() bool {
	return r.opts.Goal == js.Script && (!r.opts.Eval || r.opts.GlobalCode)
}

// sitesApart: the site table goes in Result.SiteTable (Options.SitesApart).
func (r *rewriter) sitesApart() bool {
	return r.opts.SitesApart && r.opts.Eval
}

func (r *rewriter) modes() string {
	var parts []string
	if r.opts.DebugFun != "" {
		parts = append(parts, "debugFun: "+quote(r.opts.DebugFun))
	}
	if r.opts.AllUses {
		parts = append(parts, "allUses: true")
	}
	if r.opts.AllPutFields {
		parts = append(parts, "allPutFields: true")
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (r *rewriter) appendFree(b []byte) []byte {
	b = append(b, '{')
	for i, f := range r.free {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(f.fe), 10)
		b = append(b, ":["...)
		for j, n := range f.names {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, quote(n)...)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// hoisted returns the declarations logged at the entry of a function or
// program scope, in Jalangi's order: the named function expression's own
// name, then the scope's parameters, vars and function declarations in
// order of first appearance (function declarations as F then N).
func (r *rewriter) hoisted(b []byte, sc *scope.Scope, body []js.Stmt, own *js.Ident) []byte {
	n := func(name, val string, quoted bool) {
		i := r.site(r.fn.span)
		b = append(b, r.h...)
		b = append(b, ".N("...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ", "...)
		if quoted {
			b = appendQuote(b, name)
		} else {
			b = append(b, '"')
			b = append(b, name...)
			b = append(b, '"')
		}
		b = append(b, ", "...)
		b = append(b, val...)
		b = append(b, "); "...)
	}
	if own != nil && (sc == nil || sc.Lookup(own.Name) == nil) {
		n(r.text(own), r.text(own), false)
	}
	if sc == nil {
		return b
	}
	// A function's vars hold undefined at its entry (a var that repeats a
	// parameter's name is the parameter's binding): a run of them is
	// declared by one Nu, whose entries the shim writes from bytes it
	// encodes once per site.
	undef := sc.Kind == scope.FunctionScope && sc != r.info.Root
	var run []string
	flushRun := func() {
		if len(run) == 0 {
			return
		}
		i := r.site(r.fn.span)
		for range run[1:] {
			r.site(r.fn.span)
		}
		b = append(b, r.h...)
		b = append(b, ".Nu("...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, ", "...)
		b = appendQuote(b, strings.Join(run, ","))
		b = append(b, "); "...)
		run = run[:0]
	}
	var decls map[string]*js.FuncDecl
	for _, bd := range sc.Bindings {
		if undef && bd.Kind == scope.Var {
			if name := r.bindingName(bd); name != "arguments" && !strings.ContainsAny(name, ",@") {
				run = append(run, name)
				continue
			}
		}
		flushRun()
		switch bd.Kind {
		case scope.Param:
			n(r.bindingName(bd), r.boundValue(r.fn.rest, bd.Decl), true)
		case scope.Var:
			n(r.bindingName(bd), r.text(bd.Decl), true)
		case scope.Function:
			if decls == nil {
				decls = topFuncDecls(body)
			}
			fd := decls[bd.Name]
			if fd == nil {
				n(r.bindingName(bd), r.text(bd.Decl), true)
				continue
			}
			t := r.site(fd.Span)
			v := append(r.scratch2[:0], r.hk("F", t)...)
			v = strconv.AppendInt(v, int64(r.declFe[fd]), 10)
			v = append(v, ", "...)
			v = append(v, r.text(fd.Name)...)
			v = append(v, ')')
			r.scratch2 = v
			n(r.bindingName(bd), unsafe.String(unsafe.SliceData(v), len(v)), true)
		case scope.Import:
			b = append(b, "try { "...)
			n(r.bindingName(bd), r.text(bd.Decl), true)
			b = append(b, "} catch ("+Prefix+"e) {} "...)
		}
	}
	flushRun()
	return b
}

// topFuncDecls maps names to the last function declaration of a statement
// list (the one whose value the name holds at entry).
func topFuncDecls(body []js.Stmt) map[string]*js.FuncDecl {
	m := make(map[string]*js.FuncDecl)
	for _, st := range body {
		switch s := st.(type) {
		case *js.FuncDecl:
			if s.Name != nil {
				m[s.Name.Name] = s
			}
		case *js.ExportNamed:
			if fd, ok := s.Decl.(*js.FuncDecl); ok && fd.Name != nil {
				m[fd.Name.Name] = fd
			}
		case *js.ExportDefault:
			if fd, ok := s.Decl.(*js.FuncDecl); ok && fd.Name != nil {
				m[fd.Name.Name] = fd
			}
		}
	}
	return m
}

// needsNoTry reports whether wrapping a body in try { } would change its
// meaning: function declarations become lexical declarations of the
// block, which a var of the same name (or, in strict code, a second
// declaration) then contradicts.
func needsNoTry(body []js.Stmt, strict bool) bool {
	var names map[string]bool
	for _, st := range body {
		var fd *js.FuncDecl
		switch s := st.(type) {
		case *js.FuncDecl:
			fd = s
		case *js.ExportDefault:
			fd, _ = s.Decl.(*js.FuncDecl)
		}
		if fd == nil || fd.Name == nil {
			continue
		}
		if names == nil {
			names = make(map[string]bool)
		}
		if names[fd.Name.Name] && strict {
			return true
		}
		names[fd.Name.Name] = true
	}
	if names == nil {
		return false
	}
	conflict := false
	for _, st := range body {
		varNames(st, func(name string) {
			if names[name] {
				conflict = true
			}
		})
	}
	return conflict
}

// blockScoped reports whether a top-level declaration of body would
// change its scope inside the try statement that wraps eval code: a
// generator or async function declaration (only plain functions are
// hoisted out of blocks), and in global code (global: a string timer's,
// vm's scripts) also a let, const or class, whose bindings later scripts
// see.
func blockScoped(body []js.Stmt, global bool) bool {
	for _, st := range body {
		switch s := st.(type) {
		case *js.FuncDecl:
			if s.Async || s.Generator {
				return true
			}
		case *js.ClassDecl:
			if global {
				return true
			}
		case *js.VarDecl:
			if global && s.Kind != js.Var {
				return true
			}
		}
	}
	return false
}

// varNames calls f for each name a var declaration in st binds (not
// entering functions).
func varNames(st js.Stmt, f func(string)) {
	switch s := st.(type) {
	case *js.VarDecl:
		if s.Kind == js.Var {
			for _, d := range s.Decls {
				patternNames(d.Target, f)
			}
		}
	case *js.Block:
		for _, x := range s.Body {
			varNames(x, f)
		}
	case *js.If:
		varNames(s.Then, f)
		if s.Else != nil {
			varNames(s.Else, f)
		}
	case *js.For:
		if d, ok := s.Init.(*js.VarDecl); ok {
			varNames(d, f)
		}
		varNames(s.Body, f)
	case *js.ForIn:
		if d, ok := s.Left.(*js.VarDecl); ok {
			varNames(d, f)
		}
		varNames(s.Body, f)
	case *js.ForOf:
		if d, ok := s.Left.(*js.VarDecl); ok {
			varNames(d, f)
		}
		varNames(s.Body, f)
	case *js.While:
		varNames(s.Body, f)
	case *js.DoWhile:
		varNames(s.Body, f)
	case *js.Labeled:
		varNames(s.Body, f)
	case *js.With:
		varNames(s.Body, f)
	case *js.Switch:
		for _, c := range s.Cases {
			for _, x := range c.Body {
				varNames(x, f)
			}
		}
	case *js.Try:
		varNames(s.Block, f)
		if s.Handler != nil {
			varNames(s.Handler.Body, f)
		}
		if s.Finally != nil {
			varNames(s.Finally, f)
		}
	case *js.ExportNamed:
		if s.Decl != nil {
			varNames(s.Decl, f)
		}
	}
}

func patternNames(p js.Pattern, f func(string)) {
	switch p := p.(type) {
	case *js.Ident:
		f(p.Name)
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				patternNames(e, f)
			}
		}
	case *js.ObjectPattern:
		for _, pr := range p.Props {
			switch pr := pr.(type) {
			case *js.Property:
				if v, ok := pr.Value.(js.Pattern); ok {
					patternNames(v, f)
				}
			case *js.RestElement:
				patternNames(pr.Target, f)
			}
		}
	case *js.AssignPattern:
		patternNames(p.Target, f)
	case *js.RestElement:
		patternNames(p.Target, f)
	}
}

func patternIdents(p js.Pattern, out []*js.Ident) []*js.Ident {
	switch p := p.(type) {
	case *js.Ident:
		out = append(out, p)
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				out = patternIdents(e, out)
			}
		}
	case *js.ObjectPattern:
		for _, pr := range p.Props {
			switch pr := pr.(type) {
			case *js.Property:
				if v, ok := pr.Value.(js.Pattern); ok {
					out = patternIdents(v, out)
				}
			case *js.RestElement:
				out = patternIdents(pr.Target, out)
			}
		}
	case *js.AssignPattern:
		out = patternIdents(p.Target, out)
	case *js.RestElement:
		out = patternIdents(p.Target, out)
	case *js.Paren:
		if id, ok := unparen(p.X).(*js.Ident); ok {
			out = append(out, id)
		}
	}
	return out
}

// A restIdent is a name bound by a rest element (...a in a parameter list,
// an array pattern or an object pattern): the language creates a new array
// or object for it, which no literal logs.
type restIdent struct {
	id   *js.Ident
	span js.Span // the rest element, the new object's allocation site
}

// restIdents appends the names that rest elements of p bind directly.
func restIdents(p js.Pattern, out []restIdent) []restIdent {
	switch p := p.(type) {
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				out = restIdents(e, out)
			}
		}
	case *js.ObjectPattern:
		for _, pr := range p.Props {
			switch pr := pr.(type) {
			case *js.Property:
				if v, ok := pr.Value.(js.Pattern); ok {
					out = restIdents(v, out)
				}
			case *js.RestElement:
				out = restIdents(pr, out)
			}
		}
	case *js.AssignPattern:
		out = restIdents(p.Target, out)
	case *js.RestElement:
		if id, ok := p.Target.(*js.Ident); ok {
			out = append(out, restIdent{id: id, span: p.Span})
		} else {
			out = restIdents(p.Target, out)
		}
	}
	return out
}

// boundValue is the value a declaration or write hook logs for the name id
// after a destructuring or at a function's entry: id itself, or, for a
// name bound by a rest element, H.T(j, id) with j mapped to the rest
// element, which logs the new array or object and its object-valued
// elements as a literal's (docs/instrumentation.md, "Rest elements").
func (r *rewriter) boundValue(rs []restIdent, id *js.Ident) string {
	for _, ri := range rs {
		if ri.id == id {
			j := r.site(ri.span)
			return r.hk("T", j) + r.text(id) + ")"
		}
	}
	return r.text(id)
}

// ---------------------------------------------------------------------------
// Functions and classes

type funcParts struct {
	node     js.Node // *js.FuncDecl, *js.FuncExpr or *js.Arrow
	params   []js.Pattern
	body     *js.Block
	exprBody js.Expr
	strict   bool
	arrow    bool
	own      *js.Ident // a named function expression's name
	decl     *js.Ident // a function declaration's name
	derived  bool      // a derived class's constructor: no this before super()
	susp     bool      // a generator or an async function
	// noProto: the function has no prototype object (an arrow, a method,
	// an accessor, an async function): its FREE_VARS begin with
	// trace.NoPrototypeMarker.
	noProto bool
}

// function instruments a function and returns its Fe iid.
func (r *rewriter) function(fp funcParts) int {
	sf := r.info.FuncOf(fp.node)
	saveFn, saveStrict := r.fn, r.strict
	fs := &fnState{parent: saveFn, span: spanOf(fp.node), tempPfx: Prefix, self: Prefix + "f", derived: fp.derived,
		susp: fp.susp && sf != nil, sfn: sf}
	r.fn = fs
	r.strict = fp.strict
	if fp.body != nil {
		fs.noTry = needsNoTry(fp.body.Body, fp.strict)
		if fs.noTry {
			fs.frIid = r.site(fs.span)
		}
	}
	if fs.susp {
		fs.firstSusp = -1
		fs.c0, fs.cset = r.ownContextBindings(sf)
	}
	// A function declaration at the top level of an ES module can be
	// called before the module's body has run (a module of an import
	// cycle calls it while this module waits for that one): its handle
	// may not be set yet, so the hooks of its parameter list and its Fe
	// set it first (moduleInit).
	outerH := r.h
	early := r.prog.Goal == js.Module && fp.decl != nil && saveFn.parent == nil
	if early {
		r.h = "(" + outerH + " || " + ModuleInit + "())"
	}
	fs.noTemps = true
	for _, p := range fp.params {
		r.pattern(p)
		fs.rest = restIdents(p, fs.rest)
	}
	fs.noTemps = false
	entryH := r.h
	r.h = outerH
	fs.thisFrame = !fp.arrow && !fp.derived && !fp.susp && fp.body != nil

	// A function at the top level of a classic script binds the handle's
	// alias in its body: its hooks (and its nested functions') use it.
	saveH := r.h
	bindAlias := r.alias != "" && r.h == r.uniq && sf != nil && !sf.HasEval && !sf.HasWith
	if bindAlias {
		r.h = r.alias
	}
	var h, k int
	var body []js.Stmt
	semi := ""
	if fp.body != nil {
		pos := fp.body.Start + 1
		body = fp.body.Body
		for len(body) > 0 {
			es, ok := body[0].(*js.ExprStmt)
			if !ok || es.Directive == "" {
				break
			}
			if es.Directive == "use asm" {
				r.noAsm(es)
			}
			pos = es.End
			semi = ""
			if r.src[es.End-1] != ';' {
				semi = ";"
			}
			body = body[1:]
		}
		h = r.hole(pos)
		r.stmts(body)
	} else {
		h = r.hole(fp.exprBody.Pos())
		r.supersedeExpr(fp.exprBody)
		r.expr(fp.exprBody)
		k = r.site(acorn(fp.exprBody))
	}
	var sc *scope.Scope
	if sf != nil {
		sc = sf.Scope
	}
	hoist := r.hoisted(r.hoist[:0], sc, body, fp.own)
	r.hoist = hoist
	fe := r.site(fs.span)
	fr := fs.frIid
	if !fs.noTry {
		fr = r.site(fs.span)
	}
	r0 := 0
	if fs.susp {
		r0, hoist = r.resumeFunction(fs, sc, hoist)
		r.hoist = hoist
	}
	self := "void 0"
	switch {
	case fp.own != nil && (sc == nil || sc.Lookup(fp.own.Name) == nil):
		self = r.text(fp.own)
	case fp.decl != nil && r.inWith == 0 && !r.writtenNames[fp.decl.Name] && (sc == nil || sc.Lookup(fp.decl.Name) == nil):
		self = r.text(fp.decl)
		if fp.body != nil {
			r.selfRefs = append(r.selfRefs, selfRef{edit: h, name: self, key: fp.decl.Name})
		}
	}
	if self == "yield" || self == "await" {
		// A sloppy generator named yield (or an async function named
		// await) cannot refer to itself by name inside its own body, where
		// the name is an operator.
		self = "void 0"
	}
	b := r.scratch[:0]
	b = append(b, semi...)
	if fp.body == nil {
		b = append(b, "{ "...)
	}
	b = append(b, "const "...)
	if bindAlias {
		b = append(b, r.alias...)
		b = append(b, " = "...)
		b = append(b, r.uniq...)
		b = append(b, ", "...)
	}
	b = append(b, fs.self...)
	b = append(b, " = "...)
	if early {
		b = append(b, entryH...)
	} else {
		b = append(b, r.h...)
	}
	if fs.susp {
		b = append(b, ".Fg("...)
	} else {
		b = append(b, ".Fe("...)
	}
	b = strconv.AppendInt(b, int64(fe), 10)
	b = append(b, ", "...)
	b = append(b, self...)
	if !fp.arrow {
		if fp.derived {
			b = append(b, ", void 0, new.target"...)
		} else {
			b = append(b, ", this, new.target"...)
		}
	}
	if r0 != 0 {
		if fp.arrow {
			b = append(b, ", void 0, void 0"...)
		}
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(r0), 10)
	}
	b = append(b, "); "...)
	b = r.appendTempDecl(b, fs)
	if !fs.noTry {
		b = append(b, "try { "...)
	}
	b = r.appendLexicalDecls(b, sf, fe, fs.self, fp.derived)
	b = append(b, hoist...)
	// Fr's call: H.Fr(fr, __mt$f
	fc := r.scratch2[:0]
	if fs.susp {
		fc = append(fc, r.hk("Fx", fr)...)
	} else {
		fc = append(fc, r.hk("Fr", fr)...)
	}
	fc = append(fc, fs.self...)
	if fp.body != nil {
		r.fillBytes(h, b)
		if fs.noTry {
			r.insParts(fp.body.End-1, ";", fc, "); ")
		} else {
			r.insParts(fp.body.End-1, "} finally { ", fc, "); } ")
		}
	} else {
		b = append(b, "return "...)
		b = r.appendRx(b, fs.self, k)
		r.fillBytes(h, b)
		r.insParts(fp.exprBody.EndPos(), ") } finally { ", fc, "); } }")
	}
	r.scratch, r.scratch2 = b[:0], fc[:0]
	// FREE_VARS
	var names []string
	if sf != nil {
		names = sf.Free
		if sf.HasEval || sf.HasWith {
			names = union(names, r.info.Visible(sf.Scope))
		}
	}
	names = r.freeNames(sf, names)
	if sf != nil {
		names = lexicalFree(sf, names)
	}
	if fp.noProto {
		names = append([]string{trace.NoPrototypeMarker}, names...)
	}
	r.free = append(r.free, freeEntry{fe: fe, names: names})
	r.fn, r.strict = saveFn, saveStrict
	r.h = saveH
	return fe
}

func union(a, b []string) []string {
	seen := make(map[string]bool, len(a)+len(b))
	out := make([]string, 0, len(a)+len(b))
	for _, l := range [][]string{a, b} {
		for _, n := range l {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// funcExpr instruments a function expression: H.F(i, fe, function … {}),
// or with a name from named evaluation H.F(i, fe, {name: function … {}}[name]).
func (r *rewriter) funcExpr(e *js.FuncExpr, name string) {
	h := r.hole(e.Start)
	fe := r.function(funcParts{node: e, params: e.Params, body: e.Body, strict: e.Strict, own: e.Name, susp: e.Async || e.Generator, noProto: e.Async && !e.Generator})
	i := r.site(e.Span)
	open, close := namedValue(name)
	pre, post := r.thisEdge(r.info.FuncOf(e), i)
	r.fill(h, pre, r.hk("F", i), r.num(fe), ", ", open)
	r.ins(e.End, close, ")", post)
}

func (r *rewriter) arrow(e *js.Arrow, name string) {
	h := r.hole(e.Start)
	fe := r.function(funcParts{node: e, params: e.Params, body: e.Body, exprBody: e.ExprBody, strict: e.Strict, arrow: true, susp: e.Async, noProto: true})
	i := r.site(e.Span)
	open, close := namedValue(name)
	pre, post := r.thisEdge(r.info.FuncOf(e), i)
	r.fill(h, pre, r.hk("F", i), r.num(fe), ", ", open)
	r.ins(e.End, close, ")", post)
}

// anonymousFn reports whether e (parentheses aside) is an anonymous
// function, arrow or class expression: a value named evaluation names.
func anonymousFn(e js.Node) bool {
	x, ok := e.(js.Expr)
	if !ok {
		return false
	}
	switch u := unparen(x).(type) {
	case *js.FuncExpr:
		return u.Name == nil
	case *js.Arrow:
		return true
	case *js.ClassExpr:
		return u.Name == nil
	}
	return false
}

// bareFn instruments an anonymous function, arrow or class expression e
// (anonymousFn) but leaves the value itself in place: it returns the
// arguments F takes after the value's (i, fe, members). A caller wraps
// what it needs around the value.
func (r *rewriter) bareFn(e js.Expr) (i, fe int, members string) {
	switch u := unparen(e).(type) {
	case *js.FuncExpr:
		fe = r.function(funcParts{node: u, params: u.Params, body: u.Body, strict: u.Strict, own: u.Name, susp: u.Async || u.Generator, noProto: u.Async && !u.Generator})
		i = r.site(u.Span)
	case *js.Arrow:
		fe = r.function(funcParts{node: u, params: u.Params, body: u.Body, exprBody: u.ExprBody, strict: u.Strict, arrow: true, susp: u.Async, noProto: true})
		i = r.site(u.Span)
	case *js.ClassExpr:
		fe, members = r.class(&u.Class)
		i = r.site(u.Span)
	}
	return i, fe, members
}

// computedProp instruments the property [k]: v of an object literal whose
// value is anonymous (anonymousFn): v is named by the key's value, which
// the instrumenter does not know and the engine must not compute twice
// (ToPropertyKey may run the program's code). The property becomes the
// spread of an object of its own, ...H.Fo(i, fe, {[k]: v}): the engine
// names v in that object as it would have in this one, Fo gives v its id
// as F does, and the spread defines the property where it stood.
func (r *rewriter) computedProp(p *js.Property) {
	h := r.hole(p.Start)
	r.expr(p.Key)
	v := p.Value.(js.Expr)
	i, fe, members := r.bareFn(v)
	r.fill(h, "...", r.hk("Fo", i), r.num(fe), ", {")
	r.ins(v.EndPos(), "}", nameArg("", members), ")")
}

// namedValue renders the text around an anonymous function or class that
// gets name (a JavaScript string or number literal) by named evaluation,
// which wrapping it in F's call would lose: the value of a property of an
// object literal made for it, {name: value}[name], where the engine names
// it itself, as it would have. (Setting the name afterwards with
// Object.defineProperty, as the shim once did, turns a function object
// into a dictionary in V8: its properties, prototype included, slow to
// read, and its memory its own.) The object does not escape; optimizing
// compilers remove it. A name that may spell __proto__, which as a
// literal key sets the object's prototype instead, is a computed key.
func namedValue(name string) (open, close string) {
	if name == "" {
		return "", ""
	}
	if name[0] == '[' { // a temporary holding a computed key: "[t]"
		return "{" + name + ": ", "}" + name
	}
	if strings.Contains(name, "proto") || strings.Contains(name, `\`) {
		return "{[" + name + "]: ", "}[" + name + "]"
	}
	return "{" + name + ": ", "}[" + name + "]"
}

// nameArg renders the optional arguments after a function value: the name
// it gets by named evaluation, then its members.
func nameArg(name, members string) string {
	if name == "" && members == "" {
		return ""
	}
	if name == "" {
		name = "void 0"
	}
	return ", " + name + members
}

// method instruments a method, getter, setter or constructor value (ctor:
// a class's constructor, derived: of a derived class). Only a constructor
// and a generator method have a prototype object.
func (r *rewriter) method(v *js.FuncExpr, ctor, derived bool) int {
	return r.function(funcParts{node: v, params: v.Params, body: v.Body, strict: v.Strict, derived: derived, susp: v.Async || v.Generator,
		noProto: !ctor && !v.Generator})
}

// keyText renders a non-computed property key as a JavaScript value, or
// "" when it has none here (private names, computed keys).
func (r *rewriter) keyText(key js.Expr, computed bool) string {
	if computed {
		return ""
	}
	switch k := key.(type) {
	case *js.Ident:
		return r.str(k)
	case *js.StringLit:
		return k.Raw
	case *js.NumLit:
		return k.Raw
	}
	return ""
}

// nameText is the name a function value gets from a property key.
func (r *rewriter) nameText(key js.Expr, computed bool) string {
	if computed {
		return ""
	}
	switch k := key.(type) {
	case *js.Ident:
		return r.str(k)
	case *js.StringLit:
		if strings.ContainsAny(k.Raw, "\n\r\u2028\u2029") {
			return quote(k.Value) // a line continuation: the name is written twice
		}
		return k.Raw
	case *js.NumLit:
		return k.Raw
	case *js.PrivateName:
		return strconv.Quote("#" + k.Name)
	}
	return ""
}

// class instruments a class's members; it returns the constructor's Fe iid
// and the member list for F (key, kind, fe triples; kind 0 method, 1
// getter, 2 setter, plus 4 when static).
func (r *rewriter) class(c *js.Class) (int, string) {
	for _, d := range c.Decorators {
		r.expr(d)
	}
	if c.Super != nil {
		r.expr(c.Super)
	}
	saveStrict := r.strict
	r.strict = true
	ctor := 0
	var members strings.Builder
	for _, m := range c.Members {
		switch m := m.(type) {
		case *js.Method:
			for _, d := range m.Decorators {
				r.expr(d)
			}
			if m.Computed {
				r.expr(m.Key)
			}
			fe := r.method(m.Value, m.Kind == js.MethodConstructor, m.Kind == js.MethodConstructor && c.Super != nil)
			if m.Kind == js.MethodConstructor {
				ctor = fe
				continue
			}
			k := r.keyText(m.Key, m.Computed)
			kind := 0
			if pn, ok := m.Key.(*js.PrivateName); ok {
				// Private methods: the shim cannot read them, it gives
				// them an id of their own (kind +8).
				k = strconv.Quote("#" + pn.Name)
				kind = 8
			}
			if k != "" {
				switch m.Kind {
				case js.MethodGet:
					kind |= 1
				case js.MethodSet:
					kind |= 2
				}
				if m.Static {
					kind += 4
				}
				if sf := r.info.FuncOf(m.Value); sf != nil && sf.UsesSuper {
					kind += 16 // its ~home~ edge (lexical.go)
				}
				members.WriteString(", " + k + ", " + itoa(kind) + ", " + itoa(fe))
			}
		case *js.Field:
			for _, d := range m.Decorators {
				r.expr(d)
			}
			// A computed key is kept in a temporary of the function the
			// class is defined in, for the initializer's Q and the name of
			// an anonymous value: [t = H.K(k)] = H.Q(i, this, t, H.F(i2,
			// fe, {[t]: v}[t]), 1). H.K converts it to a property key, as
			// the definition would have, once. (Where no var can be
			// declared, the field has no Q and such a value no name.)
			k, name := "", ""
			if m.Computed && m.Value != nil && !r.fn.noTemps {
				k = r.keyTemp(r.fn)
				r.ins(m.Key.Pos(), k, " = ", r.h, ".K(")
				r.expr(m.Key)
				r.ins(m.Key.EndPos(), ")")
				if anonymousFn(m.Value) {
					name = "[" + k + "]"
				}
			} else if m.Computed {
				r.expr(m.Key)
			}
			if m.Value != nil {
				save := r.fn
				r.fn = &fnState{parent: save, span: spanOf(m), noTemps: true, fieldInit: true, instInit: !m.Static}
				if k == "" {
					k = r.keyText(m.Key, m.Computed)
				}
				if pn, ok := m.Key.(*js.PrivateName); ok {
					k = strconv.Quote("#" + pn.Name)
				}
				h := -1
				if k != "" {
					h = r.hole(m.Value.Pos())
				}
				if name == "" {
					name = r.nameText(m.Key, m.Computed)
				}
				r.exprNamed(m.Value, name)
				if k != "" {
					// x = e → x = H.Q(i, this, "x", e, instance): the
					// field's PUTFIELD (the definition itself is not a hook).
					i := r.site(spanOf(m))
					r.fill(h, r.hk("Q", i), "this, ", k, ", ")
					if m.Static {
						r.ins(m.Value.EndPos(), ", 0)")
					} else {
						r.ins(m.Value.EndPos(), ", 1)")
					}
				}
				r.fn = save
			}
		case *js.StaticBlock:
			save := r.fn
			fs := &fnState{parent: save, span: spanOf(m), tempPfx: Prefix}
			r.fn = fs
			h := r.hole(r.find(m.Start+6, '{') + 1)
			r.stmts(m.Body)
			r.fill(h, r.tempDecl(fs))
			r.fn = save
		}
	}
	r.strict = saveStrict
	if ctor == 0 {
		// The implicit constructor has no body (no Fe): F gets its Fe
		// iid negated, so that the shim logs no CALL for it.
		ctor = r.site(c.Span)
		r.free = append(r.free, freeEntry{fe: ctor})
		ctor = -ctor
	}
	return ctor, members.String()
}

func (r *rewriter) classExpr(c *js.ClassExpr, name string) {
	h := r.hole(c.Start)
	fe, members := r.class(&c.Class)
	i := r.site(c.Span)
	open, close := namedValue(name)
	r.fill(h, r.hk("F", i)+itoa(fe)+", "+open)
	r.ins(c.End, close+nameArg("", members)+")")
}

// classDecl rewrites "class C {}" as "let C = H.N(n, "C", H.F(i, fe, class C {}));".
func (r *rewriter) classDecl(c *js.ClassDecl, guard bool) {
	if c.Name == nil {
		r.class(&c.Class)
		return
	}
	h := r.hole(c.Start)
	fe, members := r.class(&c.Class)
	i := r.site(c.Span)
	n := r.site(r.fn.span)
	pre := ""
	if guard {
		pre = ";"
	}
	r.fill(h, pre+"let "+r.text(c.Name)+" = "+r.hk(r.declHook(c.Name), n)+r.varStr(c.Name)+", "+r.hk("F", i)+itoa(fe)+", ")
	r.ins(c.End, nameArg("", members)+"));")
	r.markReady(c.Name)
}

// ---------------------------------------------------------------------------
// Statements

func (r *rewriter) stmts(list []js.Stmt) {
	r.stmtsFlow(list, false)
}

// stmtsFlow instruments a list of statements that starts with the
// pending-flush slot certainly full when full is true (flushelide.go),
// and reports whether it is certainly full where the list ends.
func (r *rewriter) stmtsFlow(list []js.Stmt, full bool) bool {
	r.supersede(list)
	for i, st := range list {
		full = r.stmtFlow(st, i > 0 && r.open(list[i-1]), full)
	}
	return full
}

// open reports that a statement ends without ";" or "}", so that a
// statement after it must not start with text that could continue it.
func (r *rewriter) open(st js.Stmt) bool {
	c := r.src[st.EndPos()-1]
	if c == ';' {
		return false
	}
	if c != '}' {
		return true
	}
	// A "}" closes a statement for good only as the end of a block (or a
	// function's or class's body): one that ends an object literal, a
	// function or class expression ("const a = {}") is wrapped in hooks,
	// and the instrumented statement ends with ")", which a next
	// statement beginning with "(" would call.
	switch s := st.(type) {
	case *js.If:
		if s.Else != nil {
			return r.open(s.Else)
		}
		return r.open(s.Then)
	case *js.For:
		return r.open(s.Body)
	case *js.ForIn:
		return r.open(s.Body)
	case *js.ForOf:
		return r.open(s.Body)
	case *js.While:
		return r.open(s.Body)
	case *js.With:
		return r.open(s.Body)
	case *js.Labeled:
		return r.open(s.Body)
	case *js.ExprStmt, *js.VarDecl, *js.Return, *js.Throw:
		return true
	case *js.ExportNamed:
		return s.Decl != nil && r.open(s.Decl)
	case *js.ExportDefault:
		switch s.Decl.(type) {
		case *js.FuncDecl, *js.ClassDecl:
			return false
		}
		return true
	}
	return false
}

// blockStmts instruments a block's statements; block-level function
// declarations get F and N at the block's entry.
func (r *rewriter) blockStmts(start int32, list []js.Stmt) {
	r.blockFlow(start, list, false)
}

// blockFlow is blockStmts for a block entered with the pending-flush slot
// certainly full when full is true; it reports the slot's state at the
// block's end (flushelide.go).
func (r *rewriter) blockFlow(start int32, list []js.Stmt, full bool) bool {
	var decls []*js.FuncDecl
	for _, st := range list {
		if fd, ok := st.(*js.FuncDecl); ok && fd.Name != nil {
			decls = append(decls, fd)
		}
	}
	if decls == nil {
		return r.stmtsFlow(list, full)
	}
	h := r.hole(start)
	r.stmts(list)
	var b strings.Builder
	for _, fd := range decls {
		t := r.site(fd.Span)
		n := r.site(r.fn.span)
		b.WriteString(r.hk(r.declHook(fd.Name), n) + r.varStr(fd.Name) + ", " + r.hk("F", t) + itoa(r.declFe[fd]) + ", " + r.text(fd.Name) + ")); ")
	}
	r.fill(h, b.String())
	return false
}

func (r *rewriter) stmt(st js.Stmt, guard bool) {
	r.stmtFlow(st, guard, false)
}

// stmtFlow instruments a statement reached with the pending-flush slot
// certainly full when full is true, and reports whether the slot is
// certainly full when the statement completes normally (flushelide.go):
// a statement that cannot complete normally (return, throw, break,
// continue) reports true, which is sound because a break or continue adds
// its state to the statement it completes (jump), and return and throw
// complete none.
func (r *rewriter) stmtFlow(st js.Stmt, guard bool, full bool) bool {
	if !r.elideFlushes() {
		full = false
	}
	switch s := st.(type) {
	case *js.Labeled:
		if r.labelStart < 0 {
			r.labelStart = s.Start
		}
	case *js.For, *js.ForIn, *js.ForOf, *js.While, *js.DoWhile:
		// iterBegin takes labelStart
	default:
		r.labelStart = -1
	}
	switch s := st.(type) {
	case *js.ExprStmt:
		if s.Directive != "" {
			return full
		}
		if full && r.pure(s.X) {
			return true // the slot stays full: no X
		}
		r.discarded(s.X, s.Span, guard)
		return r.endsFull(s.X, full)
	case *js.VarDecl:
		return r.varDeclFlow(s, false, full)
	case *js.FuncDecl:
		r.funcDecl(s)
	case *js.ClassDecl:
		r.classDecl(s, guard)
	case *js.Block:
		return r.blockFlow(s.Start+1, s.Body, full)
	case *js.Empty:
		return full
	case *js.Debugger:
	case *js.Break:
		r.jump(s.Label, false, full)
		return true
	case *js.Continue:
		r.jump(s.Label, true, full)
		return true
	case *js.Return:
		r.ret(s)
		return true
	case *js.Throw:
		// Tw notes the value thrown and where: Node prints the line an
		// uncaught exception was thrown at, and the shim gives it the
		// original's (runtime-shim, fatal.js).
		r.ins(s.Arg.Pos(), r.h, ".Tw(")
		r.flushed(s.Arg, s.Span, false)
		r.ins(s.Arg.EndPos(), ")")
		return true
	case *js.If:
		t := r.testFlow(s.Test, s.Span, full)
		r.supersedeBody(s.Then)
		out := r.stmtFlow(s.Then, false, t)
		if s.Else != nil {
			r.supersedeBody(s.Else)
			out = r.stmtFlow(s.Else, false, t) && out
		} else {
			out = out && t
		}
		return out
	case *js.For:
		it := r.iterBegin(s)
		switch init := s.Init.(type) {
		case nil:
		case *js.VarDecl:
			r.varDecl(init, false)
		case js.Expr:
			r.discarded(init, s.Span, false)
		}
		if s.Test != nil {
			r.tested(s.Test, s.Span)
		}
		if s.Update != nil {
			r.discarded(s.Update, s.Span, false)
		}
		r.iterBody(it, s.Body)
		r.supersedeBody(s.Body)
		// The body starts after the test's X, when there is one.
		t := r.pushTarget(jumpLoop, it != nil)
		r.stmtFlow(s.Body, false, r.testEndsFull(s.Test, it))
		r.iterBodyEnd(it, s.Body)
		r.iterEnd(it, s.Body)
		return r.popTarget(t) && r.testEndsFull(s.Test, it)
	case *js.ForIn:
		it := r.iterBegin(s)
		t := r.pushTarget(jumpLoop, it != nil)
		r.forInOf(s.Span, s.Left, s.Right, s.Body, false, it)
		r.iterEnd(it, s.Body)
		r.popTarget(t)
	case *js.ForOf:
		it := r.iterBegin(s)
		// A jump out of a for-of closes its iterator: program code runs.
		t := r.pushTarget(jumpLoop, true)
		if s.Await && r.fn.susp && r.wrapped != s {
			r.afterForAwait(s, s.Span, func() { r.forInOf(s.Span, s.Left, s.Right, s.Body, s.Await, nil) }, guard)
			r.popTarget(t)
			break
		}
		r.forInOf(s.Span, s.Left, s.Right, s.Body, s.Await, it)
		r.iterEnd(it, s.Body)
		r.popTarget(t)
	case *js.While:
		it := r.iterBegin(s)
		r.tested(s.Test, s.Span)
		r.iterBody(it, s.Body)
		r.supersedeBody(s.Body)
		t := r.pushTarget(jumpLoop, it != nil)
		r.stmtFlow(s.Body, false, r.testEndsFull(s.Test, it))
		r.iterBodyEnd(it, s.Body)
		r.iterEnd(it, s.Body)
		return r.popTarget(t) && r.testEndsFull(s.Test, it)
	case *js.DoWhile:
		it := r.iterBegin(s)
		r.iterBody(it, s.Body)
		r.supersedeBody(s.Body)
		t := r.pushTarget(jumpLoop, it != nil)
		once := it == nil && falsy(s.Test)
		var end bool
		if once {
			// do { … } while (0): the body runs once, from before the
			// loop; a continue leaves it as a break does.
			end = r.stmtFlow(s.Body, false, full)
		} else {
			// Entered from before the loop, and again after the test's X.
			r.stmtFlow(s.Body, false, full && r.testEndsFull(s.Test, it))
		}
		r.iterBodyEnd(it, s.Body)
		r.tested(s.Test, s.Span)
		r.iterEnd(it, s.Body)
		jumps := r.popTarget(t)
		if once {
			return end && jumps && r.elideFlushes()
		}
		return jumps && r.testEndsFull(s.Test, it)
	case *js.Labeled:
		t := r.pushLabel(s.Label.Name)
		if fo := labeledForAwait(s); fo != nil && r.fn.susp {
			r.wrapped = fo
			r.afterForAwait(s, s.Span, func() { r.stmt(s.Body, false) }, guard)
			r.popTarget(t)
			break
		}
		r.supersedeBody(s.Body)
		end := r.stmtFlow(s.Body, false, full)
		return r.popTarget(t) && end && r.elideFlushes()
	case *js.With:
		r.expr(s.Object)
		r.inWith++
		r.stmt(s.Body, false)
		r.inWith--
	case *js.Switch:
		r.flushed(s.Disc, s.Span, false)
		t := r.pushTarget(jumpSwitch, false)
		for _, c := range s.Cases {
			if c.Test != nil {
				r.flushed(c.Test, c.Span, false)
			}
			r.stmts(c.Body)
		}
		r.popTarget(t)
	case *js.Try:
		if s.Finally != nil {
			// A jump out of the try or catch block runs the finally
			// block first.
			t := r.pushTarget(jumpNone, true)
			defer r.popTarget(t)
		}
		n0 := r.fn.nsusp
		r.blockStmts(s.Block.Start+1, s.Block.Body)
		if c := s.Handler; c != nil {
			if c.Param != nil {
				r.pattern(c.Param)
			}
			if r.fn.susp && r.fn.nsusp > n0 {
				// A throw resumption (gen.throw(), a rejected await) may
				// continue here.
				r.resumeAt(r.hole(c.Body.Start+1), c.Body.Start+1, spanOf(c))
			}
			r.blockStmts(c.Body.Start+1, c.Body.Body)
		}
		if s.Finally != nil {
			if r.fn.susp && r.fn.nsusp > n0 {
				// ... and a return resumption (gen.return()) here.
				r.resumeAt(r.hole(s.Finally.Start+1), s.Finally.Start+1, spanOf(s.Finally))
			}
			r.blockStmts(s.Finally.Start+1, s.Finally.Body)
		}
	case *js.Import, *js.ExportAll:
	case *js.ExportNamed:
		if s.Decl != nil {
			r.stmt(s.Decl, false)
		}
	case *js.ExportDefault:
		switch d := s.Decl.(type) {
		case *js.FuncDecl:
			r.funcDecl(d)
		case *js.ClassDecl:
			r.class(&d.Class)
		case js.Expr:
			r.exprNamed(d, `"default"`)
		}
	}
	return false
}

func (r *rewriter) funcDecl(d *js.FuncDecl) {
	fe := r.function(funcParts{node: d, params: d.Params, body: d.Body, strict: d.Strict, decl: d.Name, susp: d.Async || d.Generator, noProto: d.Async && !d.Generator})
	r.declFe[d] = fe
}

func (r *rewriter) ret(s *js.Return) {
	f := r.fn
	if s.Arg == nil {
		if f.self != "" && f.noTry {
			r.ins(s.Start+6, " void "+r.h+"."+f.frHook()+"("+itoa(f.frIid)+", "+f.self+")")
		}
		return
	}
	if f.self == "" {
		r.flushed(s.Arg, s.Span, false)
		return
	}
	h := r.hole(s.Arg.Pos())
	r.expr(s.Arg)
	k := r.site(s.Span)
	// return H.Rx(__mt$f, k, e); without try: H.Fr(fr, __mt$f, H.Rx(…)).
	b := r.scratch[:0]
	cl := ")"
	if f.noTry {
		b = append(b, r.h...)
		b = append(b, '.')
		b = append(b, f.frHook()...)
		b = append(b, '(')
		b = strconv.AppendInt(b, int64(f.frIid), 10)
		b = append(b, ", "...)
		b = append(b, f.self...)
		b = append(b, ", "...)
		cl = "))"
	}
	b = r.appendRx(b, f.self, k)
	if isSeq(s.Arg) {
		b = append(b, '(')
		r.fillBytes(h, b)
		r.ins(s.Arg.EndPos(), ")"+cl)
	} else {
		r.fillBytes(h, b)
		r.ins(s.Arg.EndPos(), cl)
	}
	r.scratch = b[:0]
}

// appendRx appends "H.Rx(self, k, ": the value of a return statement's
// argument (or an arrow's expression body) with its statement end (X) and
// its RETURN (R) in one call.
func (r *rewriter) appendRx(b []byte, self string, k int) []byte {
	b = append(b, r.h...)
	b = append(b, ".Rx("...)
	b = append(b, self...)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(k), 10)
	return append(b, ", "...)
}

func isSeq(e js.Expr) bool {
	_, ok := e.(*js.Seq)
	return ok
}

// trivial: an expression that needs no X1 (a bare identifier or literal
// after instrumentation).
func trivial(e js.Expr) bool {
	switch e := unparen(e).(type) {
	case *js.Ident, *js.NullLit, *js.BoolLit, *js.NumLit, *js.StringLit, *js.BigIntLit, *js.This, *js.Super:
		return true
	case *js.Template:
		return len(e.Exprs) == 0
	}
	return false
}

// flushed instruments e and wraps it in X (end of a statement-level
// expression) with the site sp, unless it is trivial.
func (r *rewriter) flushed(e js.Expr, sp js.Span, guard bool) {
	if trivial(e) || r.fn != nil && r.fn.fieldInit {
		r.expr(e)
		return
	}
	h := r.hole(e.Pos())
	r.expr(e)
	k := r.site(sp)
	pre, post, cl := "", "", ")"
	if guard {
		pre = ";"
	}
	if isSeq(e) {
		post, cl = "(", "))"
	}
	r.fill(h, pre, r.hk("X", k), post)
	r.ins(e.EndPos(), cl)
}

// discarded instruments e, a statement-level expression whose value is
// not used, as flushed does; where no completion value can be observed
// (inlineX), X is called only when the pending-flush slot is empty:
// "e, H.p[0] || H.X(k)" (docs/instrumentation.md §4, X). Same entries,
// same iids: only the call is saved when the slot is already full.
func (r *rewriter) discarded(e js.Expr, sp js.Span, guard bool) {
	if !r.inlineX() || trivial(e) {
		r.flushed(e, sp, guard)
		return
	}
	h := r.hole(e.Pos())
	r.expr(e)
	k := r.site(sp)
	if guard {
		r.fill(h, ";")
	}
	var arr [96]byte
	b := append(arr[:0], ", "...)
	b = append(r.appendSlotX(b, " || ", k), ')')
	r.insParts(e.EndPos(), "", b, "")
}

// appendSlotX appends "H.p[0]" op "H.X(k": the inline test of the
// pending-flush slot and X's call, to be closed by the caller.
func (r *rewriter) appendSlotX(b []byte, op string, k int) []byte {
	b = append(b, r.h...)
	b = append(b, ".p[0]"...)
	b = append(b, op...)
	b = append(b, r.h...)
	b = append(b, ".X("...)
	return strconv.AppendInt(b, int64(k), 10)
}

// tested instruments e, the test of an if, a loop or a conditional
// expression, whose value is used only for its truth: as flushed does,
// or, where statement ends may test the pending-flush slot inline
// (inlineTest), "((e) ? H.p[0] || H.X(k, 1) : !H.p[0] && H.X(k, 0))".
// The test converts e to a boolean once, as the statement does, and X
// runs after e, when the slot is empty, as with "H.X(k, e)"; the value
// the statement sees has e's truth.
func (r *rewriter) tested(e js.Expr, sp js.Span) {
	if !r.inlineTest() || trivial(e) {
		r.flushed(e, sp, false)
		return
	}
	h := r.hole(e.Pos())
	r.expr(e)
	k := r.site(sp)
	r.fill(h, "((")
	var arr [128]byte
	b := append(arr[:0], ") ? "...)
	b = append(r.appendSlotX(b, " || ", k), ", 1) : !"...)
	b = append(r.appendSlotX(b, " && ", k), ", 0))"...)
	r.insParts(e.EndPos(), "", b, "")
}

// inlineTest reports that a test may check the pending-flush slot
// inline: as inlineX, except that a test has no completion value, so a
// classic script's and eval code's top levels qualify too.
func (r *rewriter) inlineTest() bool {
	switch {
	case r.fn == nil || r.fn.noTemps || r.opts.CallX:
		return false
	case r.fn.parent != nil:
		return r.fn.span.End-r.fn.span.Start <= inlineXMax
	}
	return true
}

// inlineXMax: functions longer than this (source characters) keep X's
// calls. TurboFan compiles the inline tests into the function's graph:
// in zlib's large asm.js functions (up to 46 K characters), compiled on
// V8's background threads, that raised the peak RSS by about 15 MB
// (malloc arenas of the compiler threads), past twice plain Node's.
const inlineXMax = 2000

// inlineX reports that a statement-level expression here has no
// observable completion value: in a function's body (not in a parameter
// list or a field initializer, where the handle may be an expression),
// also in eval code, or at the top level of an ES module or CommonJS
// module (classic scripts and eval code give the value of their last
// statement).
func (r *rewriter) inlineX() bool {
	switch {
	case r.fn == nil || r.fn.noTemps || r.opts.CallX:
		return false
	case r.fn.parent != nil:
		return r.fn.span.End-r.fn.span.Start <= inlineXMax
	}
	return !r.opts.Eval && (r.prog.Goal == js.Module || r.prog.Goal == js.CommonJS)
}

// primitiveVar reports that the var id declares only ever holds
// primitives (scope.Binding.Primitive).
func (r *rewriter) primitiveVar(id *js.Ident) bool {
	var s *scope.Scope
	switch {
	case r.fn == nil || r.opts.KeepPrimitiveHooks:
		return false
	case r.fn.sfn != nil:
		s = r.fn.sfn.Scope
	case r.fn.parent == nil:
		s = r.info.Root // a module's or CommonJS module's top level (a script's has no Primitive bindings)
	}
	if s == nil {
		return false
	}
	b := s.Lookup(id.Name)
	return b != nil && b.Kind == scope.Var && b.Primitive
}

// primitiveRef reports that the name a reference writes only ever holds
// primitives from there on (scope.Binding.PrimitiveAt).
func (r *rewriter) primitiveRef(id *js.Ident) bool {
	ref := r.ref(id)
	return ref != nil && ref.Binding != nil && ref.Binding.PrimitiveAt(id.Start) && !r.opts.KeepPrimitiveHooks
}

// varDecl instruments a variable declaration: W (var) or N (let, const)
// at each initialiser, wrapped in X.
func (r *rewriter) varDecl(d *js.VarDecl, head bool) {
	r.varDeclFlow(d, head, false)
}

// varDeclFlow is varDecl reached with the pending-flush slot certainly
// full when full is true; it reports whether the slot is certainly full
// after the declaration (flushelide.go).
func (r *rewriter) varDeclFlow(d *js.VarDecl, head bool, full bool) bool {
	for _, dc := range d.Decls {
		full = r.declarator(d, dc, head, full)
		if d.Kind != js.Var {
			r.markReady(dc.Target)
		}
	}
	return full
}

// declarator instruments one declarator, reached with the pending-flush
// slot certainly full when full is true; it reports the slot's state
// after it. Every instrumented initialiser ends with its X.
func (r *rewriter) declarator(d *js.VarDecl, dc *js.Declarator, head bool, full bool) bool {
	r.pattern(dc.Target)
	id, isID := dc.Target.(*js.Ident)
	if dc.Init == nil {
		if isID && d.Kind == js.Let && !head {
			n := r.site(r.fn.span)
			r.ins(dc.End, " = "+r.hk(r.declHook(id), n)+r.varStr(id)+", void 0)")
			return false
		}
		return full && d.Kind == js.Var
	}
	if d.Kind == js.Using || d.Kind == js.AwaitUsing {
		r.expr(dc.Init)
		return false
	}
	if !isID {
		r.expr(dc.Init)
		if !head {
			r.destructDecl(d.Kind, dc)
		}
		return false
	}
	if d.Kind == js.Var {
		r.varInit[id.Name] = true
	}
	primVar := d.Kind == js.Var && r.primitiveVar(id)
	if primVar && full && r.pure(dc.Init) {
		return true // the slot stays full: no X
	}
	h := r.hole(dc.Init.Pos())
	name := r.varStr(id)
	r.exprNamed(dc.Init, r.str(id))
	sp := acorn(dc.Init)
	if primVar {
		// A var that only ever holds primitives: no W (it would log
		// nothing), the statement's flush stays.
		k := r.site(sp)
		r.fill(h, r.hk("X", k))
		r.ins(dc.Init.EndPos(), ")")
		return true
	}
	if d.Kind == js.Var {
		i := r.site(sp)
		k := r.site(sp)
		r.fill(h, r.hk("X", k), r.hk("W", i), name, ", ")
		r.ins(dc.Init.EndPos(), ", ", r.text(id), "))")
	} else {
		i := r.site(r.fn.span)
		k := r.site(sp)
		r.fill(h, r.hk("X", k), r.hk(r.declHook(id), i), name, ", ")
		r.ins(dc.Init.EndPos(), "))")
	}
	return true
}

// destructDecl logs the names a destructuring declarator binds through an
// extra declarator: "const {a} = o, __mt$d1 = (H.N(…a…), 0)".
func (r *rewriter) destructDecl(kind js.VarKind, dc *js.Declarator) {
	ids := patternIdents(dc.Target, nil)
	if len(ids) == 0 {
		return
	}
	rs := restIdents(dc.Target, nil)
	r.dtemps++
	var b strings.Builder
	if r.classicTop() {
		// a binding of its own would be a global name (classic)
		b.WriteString(", {} = (")
	} else {
		b.WriteString(", " + r.uniq + "_d" + itoa(r.dtemps) + " = (")
	}
	for _, id := range ids {
		if kind == js.Var {
			i := r.site(acorn(dc.Init))
			b.WriteString(r.hk("W", i) + r.varStr(id) + ", " + r.boundValue(rs, id) + ", void 0), ")
		} else {
			i := r.site(r.fn.span)
			b.WriteString(r.hk(r.declHook(id), i) + r.varStr(id) + ", " + r.boundValue(rs, id) + "), ")
		}
	}
	b.WriteString("0)")
	r.ins(dc.End, b.String())
}

// forInOf instruments for-in and for-of loops: the write of the loop
// variable is logged at the start of each iteration.
func (r *rewriter) forInOf(loop js.Span, left js.Node, right js.Expr, body js.Stmt, await bool, it *iterLoop) {
	var pre string
	temps := 0
	switch l := left.(type) {
	case *js.VarDecl:
		dc := l.Decls[0]
		id, isID := dc.Target.(*js.Ident)
		switch {
		case dc.Init != nil || l.Kind == js.Using || l.Kind == js.AwaitUsing:
			r.varDecl(l, true)
		case l.Kind == js.Var && isID && !r.fn.noTemps:
			r.varInit[id.Name] = true
			t := r.allocTemp()
			temps = 1
			r.rep(l.Start, l.End, t)
			if r.primitiveVar(id) { // for-in keys: no W, as for any store of a primitive-only name
				k := r.site(loop)
				pre = "var " + r.text(id) + " = " + r.hk("X", k) + t + "); "
				break
			}
			i := r.site(loop)
			k := r.site(loop)
			pre = "var " + r.text(id) + " = " + r.hk("X", k) + r.hk("W", i) + r.varStr(id) + ", " + t + ", " + r.text(id) + ")); "
		default:
			r.pattern(dc.Target)
			var b strings.Builder
			rs := restIdents(dc.Target, nil)
			for _, id := range patternIdents(dc.Target, nil) {
				if l.Kind == js.Var {
					i := r.site(loop)
					b.WriteString(r.hk("W", i) + r.varStr(id) + ", " + r.boundValue(rs, id) + ", void 0); ")
				} else {
					i := r.site(r.fn.span)
					b.WriteString(r.hk("N", i) + r.varStr(id) + ", " + r.boundValue(rs, id) + "); ")
				}
			}
			if b.Len() > 0 {
				k := r.site(loop)
				b.WriteString(r.h + ".X(" + itoa(k) + "); ")
			}
			pre = b.String()
		}
	case js.Pattern:
		if id, ok := unparenPattern(l).(*js.Ident); ok && !r.fn.noTemps {
			t := r.allocTemp()
			temps = 1
			r.rep(l.Pos(), l.EndPos(), t)
			if r.primitiveRef(id) {
				k := r.site(loop)
				pre = r.text(id) + " = " + r.hk("X", k) + t + "); "
				break
			}
			i := r.site(loop)
			k := r.site(loop)
			pre = r.text(id) + " = " + r.hk("X", k) + r.hk("W", i) + r.varStr(id) + ", " + t + ", " + r.oldValue(id) + ")); "
		} else {
			r.pattern(l)
			var b strings.Builder
			rs := restIdents(l, nil)
			for _, id := range patternIdents(l, nil) {
				i := r.site(loop)
				b.WriteString(r.hk("W", i) + r.varStr(id) + ", " + r.boundValue(rs, id) + ", void 0); ")
			}
			pre = b.String()
		}
	}
	fa := await && r.fn.susp
	hr := -1
	if fa {
		hr = r.hole(right.Pos())
	}
	r.used(right, spanOf(right))
	if fa {
		// The first next() is awaited: exit after the iterable.
		r.suspends(loop.Start)
		i := r.site(spanOf(right))
		r.fill(hr, r.hk("Ys", i), r.fn.self, ", ")
		r.ins(right.EndPos(), r.resumeArgs(loop.Start), ")")
	}
	if l, ok := left.(*js.VarDecl); ok && l.Kind != js.Var {
		r.markReady(l.Decls[0].Target)
	}
	if fa {
		// Each iteration resumes at the body's start and suspends when
		// the body completes (normally, break, continue, return, throw).
		j := r.site(loop)
		k := r.site(loop)
		args := r.resumeArgs(body.Pos())
		r.ins(body.Pos(), "{ ", r.hk("Y", j), r.fn.self, ", void 0", args, "); try { ")
		defer r.ins(body.EndPos(), " } finally { ", r.hk("Ys", k), r.fn.self, ", void 0", args, "); } }")
	}
	r.iterBody(it, body)
	r.supersedeBody(body)
	if pre != "" {
		r.ins(body.Pos(), "{ "+pre)
		r.stmt(body, false)
		r.ins(body.EndPos(), " }")
	} else {
		r.stmt(body, false)
	}
	r.iterBodyEnd(it, body)
	r.releaseTemps(temps)
}

func unparenPattern(p js.Pattern) js.Node {
	if pp, ok := p.(*js.Paren); ok {
		return unparen(pp.X)
	}
	return p
}

// pattern instruments the expressions inside a binding or assignment
// pattern (defaults, computed keys, member targets' objects).
func (r *rewriter) pattern(p js.Pattern) {
	switch p := p.(type) {
	case *js.Ident:
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				r.pattern(e)
			}
		}
	case *js.ObjectPattern:
		for _, pr := range p.Props {
			switch pr := pr.(type) {
			case *js.Property:
				if pr.Computed {
					r.expr(pr.Key)
				}
				if v, ok := pr.Value.(js.Pattern); ok {
					r.pattern(v)
				}
			case *js.RestElement:
				r.pattern(pr.Target)
			}
		}
	case *js.AssignPattern:
		r.pattern(p.Target)
		name := ""
		if id, ok := p.Target.(*js.Ident); ok {
			name = r.str(id)
		}
		r.exprNamed(p.Default, name)
	case *js.RestElement:
		r.pattern(p.Target)
	case *js.Member:
		r.expr(p.Object)
		if p.Computed {
			r.expr(p.Property)
		}
	case *js.Paren:
		switch x := unparen(p.X).(type) {
		case *js.Member:
			r.pattern(x)
		case js.Pattern:
			r.pattern(x)
		}
	}
}

// linkOnFirstLine reports whether a module imports a name, or re-exports
// one by name, on its first line. When such a link fails (the other module
// does not export the name), Node's ES module loader finds the importing
// module's URL in the first line of the error's stack, the "file:line"
// header it adds above the source line, which a line marked with
// NoExceptionLine does not get: the loader then failed to resolve the
// specifier against the error's message and threw that instead. Such a
// first line goes unmarked, at the cost of printing it (the prologue with
// it) above an uncaught error thrown there.
func linkOnFirstLine(body []js.Stmt, src []byte) bool {
	end := len(src)
	if i := bytes.IndexAny(src, "\n\r\u2028\u2029"); i >= 0 {
		end = i
	}
	for _, st := range body {
		if int(st.Pos()) >= end {
			break
		}
		switch st := st.(type) {
		case *js.Import:
			if len(st.Specs) > 0 {
				return true
			}
		case *js.ExportNamed:
			if st.Source != nil {
				return true
			}
		}
	}
	return false
}
