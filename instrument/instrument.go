// Package instrument rewrites JavaScript so that running it calls the
// memtrace runtime shim's hooks, which write a MemInsight-format memory
// trace. The contract between the two sides is docs/instrumentation.md.
//
//	res, err := instrument.Instrument(src, instrument.Options{Goal: js.Script, File: "app.js"})
//
// The rewriter never re-prints the syntax tree: it computes a list of
// insertions and replacements over the original text, in source order, and
// applies them in one pass, so comments, formatting and line numbers
// survive (the prologue and every hook sit on the lines of the code they
// instrument). Replaced punctuation keeps its line terminators.
//
// Local iids number the sites of one file from 1, mostly in post-order (a
// parent's iid follows its children's, as in Jalangi); Result.Sites gives
// each one's source range with spec section 3.2's conventions, and the same
// table travels in the prologue's S call.
//
// A syntax error returns the parser's *diag.List and no code. A source that
// declares a name beginning with "__mt$" is refused (*diag.List too). A
// source that already begins with an instrumentation prologue is returned
// unchanged, which makes Instrument idempotent.
package instrument

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"math"
	"strings"

	"github.com/memtrace/memtrace/instrument/diag"
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// Options select how a source is instrumented.
type Options struct {
	Goal js.Goal // Script, Module or CommonJS
	// File names the script in SCRIPT_ENTER and in diagnostics.
	File string
	// DebugFun names the debug function (MemInsight's jalangiRC); passed
	// to the shim in the prologue.
	DebugFun string
	// AllUses and AllPutFields select MemInsight's all-uses and
	// all-putfields modes; passed to the shim in the prologue.
	AllUses, AllPutFields bool
	// Loader selects the source language: JS (the default) is
	// instrumented as it is; TS, TSX and JSX go through esbuild first,
	// and the sites are mapped back to the original text (typescript.go).
	Loader Loader
	// Tsconfig is the text of a tsconfig.json whose compilerOptions
	// esbuild honours (jsx, jsxFactory, experimentalDecorators, …) for the
	// TS, TSX and JSX loaders; empty: esbuild's defaults.
	Tsconfig string
	// Eval instruments code that runs through eval or the Function
	// constructor: a script whose completion value is the program's result.
	// Its body is wrapped in try/finally (the script exit is logged on
	// exceptions too) and its scope-entry hooks are void statements, so
	// the completion value stays the original's.
	Eval bool
	// GlobalCode: with Eval, the code runs as a classic script of its own
	// (a string timer in browsers), not in an eval's scope: its handle is
	// then a global lexical name unique to it, as a classic script's.
	// (Eval code's own handle is a short name in the eval's lexical
	// scope: see Result.Handle.)
	GlobalCode bool
	// Strict: the code is strict from its start without a directive
	// (direct eval code called from strict code).
	Strict bool
	// SitesApart: with Eval, the site table is not in the code (the
	// prologue passes 0 in its place) but in Result.SiteTable, for a shim
	// that instruments run-time code itself and hands the table to S
	// directly: the table then takes no room in the string the engine
	// keeps for as long as the code lives (docs/instrumentation.md §6).
	SitesApart bool
	// PosMap: Result.PosMap gets the position map of the output
	// (posmap.go), for stack traces.
	PosMap bool
	// Line and Col are where the source starts in its file (1-based; 0
	// means 1): an inline script of a page, whose sites are then at their
	// line:col in the page (a column on the first line counts from Col).
	Line, Col int
	// The switches that only tests set are not here but in
	// internal/testswitch (InstrumentWith).
}

// config is what the rewriter reads: the user's Options and the tests'
// switches (zero but in InstrumentWith), whose fields it reads promoted
// (r.opts.Goal, r.opts.CallX).
type config struct {
	Options
	testswitch.Switches
}

// Site is the source range of one local iid: 1-based lines, 1-based
// UTF-16 columns, end exclusive (spec section 3.2).
type Site struct {
	StartLine, StartCol, EndLine, EndCol int32
}

// Result is an instrumented source.
type Result struct {
	Code []byte
	// Sites[k] is the range of local iid k+1.
	Sites []Site
	// Handle is the script handle's name: "__mt$<hash>" in a classic
	// script, else a short name no identifier of the code spells ("H"
	// unless the code uses it), or "__mt$" in code with direct eval or with.
	Handle string
	// Alias is, in a classic script, the short name each function at the
	// top level binds to the handle in its body ("const H = __mt$<hash>,
	// __mt$f = H.Fe(…)"), which its hooks and its nested functions' use
	// (not a function with direct eval or with in it); "" in modules.
	Alias string
	// Unchanged reports that the source was already instrumented and is
	// returned as it was (Sites is then nil).
	Unchanged bool
	// JS is, for the TS, TSX and JSX loaders, the JavaScript esbuild made
	// of the source, which Code instruments: Code inserts nothing before
	// JS's hashbang line and directive prologue. Nil for JS.
	JS []byte
	// At is the offset in Code (and in the source Code instruments: JS,
	// or the source) where the prologue begins: after the hashbang line
	// and the directive prologue. Code inserts nothing before it.
	At int
	// SiteTable is, with Options.SitesApart, the site table's text
	// (AppendSiteVLQ), which the prologue leaves out.
	SiteTable []byte
	// PosMap is, with Options.PosMap, the position map of Code (posmap.go).
	PosMap []byte
	posMap *posMapData
}

// NoExceptionLine follows the prologue's call of the shim: above an
// uncaught error Node prints the source line where it was thrown, unless
// that line contains "node-do-not-add-exception-line". On the prologue's
// line, which holds the site table (tens of KB for a large file) and the
// hooks of the original's first line, an error printed that line; it
// prints none now (docs/instrumentation.md, "Stack traces"). A minified
// bundle is one line.
const NoExceptionLine = "/* node-do-not-add-exception-line */ "

// EvalNoCache opens the initializer of run-time code's handle: the
// handle is "0 ? 0<tagged empty template> : __mt.S(…)", whose constant test
// leaves the tagged template unevaluated; it only makes V8 leave the code
// out of its eval cache. V8 hashes a string longer than 16,383 characters
// by its length alone, and puts an eval in
// its cache once an earlier eval from the same place matched that hash:
// instrumented run-time code is about four times its source, so fresh
// copies of a library made distinct only by a salt (Octane's CodeLoad)
// were all cached, with their bytecode, until the cache aged, where the
// source strings were short enough to be told apart. The shim evaluates a
// string as instrumented the first time; when the program evaluates the
// same string again it replaces the marker with as many spaces, so that
// repeated code is cached as it would be without instrumentation
// (docs/instrumentation.md §6).
const EvalNoCache = "0?0``:"

// ImportTrampoline is the last argument of a file's __mt.S or __mt.Sg: an
// import() of the file's own, which the engine resolves against the file.
// Run-time code (eval, the function constructor) is compiled by the shim,
// whose import() would resolve against the shim's file; the code's import()
// calls are instrumented as H.im(…), which calls the trampoline of the
// script that made the code (docs/instrumentation.md §6).
const ImportTrampoline = "(s, o) => import(s, o)"

// Prefix is the reserved name prefix of the instrumentation.
const Prefix = "__mt$"

// ModuleInit names the function that an ES module's prologue declares to
// set its handle: "var H = __mt$h(); function __mt$h() { return H || (H =
// __mt.S(…)); }". The function is hoisted, so a function declaration of
// the module that runs before the module's body (another module of an
// import cycle calls it) sets the handle first, with "(H || __mt$h())" in
// its parameter list's hooks and its Fe.
const ModuleInit = Prefix + "h"

// Instrument rewrites src. See the package documentation.
func Instrument(src []byte, opts Options) (*Result, error) {
	return InstrumentWith(src, opts, testswitch.Switches{})
}

// InstrumentWith is Instrument with the tests' switches sw, each of which
// turns off one optimization of the instrumented code (package
// testswitch): for differential tests.
func InstrumentWith(src []byte, opts Options, sw testswitch.Switches) (*Result, error) {
	cfg := config{Options: opts, Switches: sw}
	if opts.Loader != JS {
		return instrumentTransformed(src, cfg)
	}
	return instrumentJS(src, cfg, nil)
}

// instrumentJS instruments JavaScript; remap, if not nil, rewrites the
// site table (positions in src) before it is used.
func instrumentJS(src []byte, opts config, remap func([]Site) []Site) (res *Result, err error) {
	sb := takeScratch()
	defer keepScratch(sb)
	prog, err := js.Parse(src, js.Options{Goal: opts.Goal, File: opts.File, Strict: opts.Strict, Arena: sb.arena})
	if err != nil {
		return nil, err
	}
	if alreadyInstrumented(src, prog) {
		return &Result{Code: src, Unchanged: true}, nil
	}
	info := scope.Analyze(prog)
	if err := checkReserved(src, opts.Options, info); err != nil {
		return nil, err
	}
	r := newRewriter(src, prog, info, opts, sb)
	r.remap = remap
	defer func() {
		if x := recover(); x != nil {
			ie, ok := x.(internalError)
			if !ok {
				panic(x)
			}
			log := diag.NewLog(fileName(opts.Options), src)
			log.Errorf(diag.Range{}, "internal instrumenter error: %s", string(ie))
			res, err = nil, log.Err()
		}
	}()
	r.program(prog)
	code, ok := apply(src, r.edits, r.buf)
	if !ok {
		panic(internalError("overlapping edits"))
	}
	res = &Result{Code: code, Sites: r.siteList(), Handle: r.h, Alias: r.alias, At: int(r.at)}
	if r.sitesApart() {
		res.SiteTable = AppendSiteVLQ(nil, res.Sites)
	}
	if r.points != nil {
		res.posMap = r.posMap(code)
		res.PosMap = res.posMap.encode()
	}
	r.release(sb)
	return res, nil
}

func fileName(o Options) string {
	if o.File == "" {
		return "<stdin>"
	}
	return o.File
}

// ShimFile is the name of the runtime shim's file at the root of an
// instrumented project (package project), which each file's prelude loads.
const ShimFile = ".memtrace-shim.cjs"

// shimBanner begins the runtime shim bundle, which is never instrumented.
const shimBanner = "/* memtrace runtime shim "

// alreadyInstrumented: the source is the runtime shim bundle, or the first
// statement after the directives (and after empty statements and a
// project prelude that loads ShimFile) is "const NAME = __mt.S(…)", an ES
// module's "var NAME = __mt$h();" (ModuleInit), or a classic script's
// "__mt.Sg(…);".
func alreadyInstrumented(src []byte, p *js.Program) bool {
	if bytes.HasPrefix(src, []byte(shimBanner)) {
		return true
	}
	for _, st := range p.Body {
		if es, ok := st.(*js.ExprStmt); ok && es.Directive != "" {
			continue
		}
		if isPrelude(src, st) {
			continue
		}
		if es, ok := st.(*js.ExprStmt); ok {
			return isShimCall(es.X, "Sg") // a classic script's "__mt.Sg(…);"
		}
		d, ok := st.(*js.VarDecl)
		if !ok || len(d.Decls) == 0 {
			return false
		}
		if _, ok := d.Decls[0].Target.(*js.Ident); !ok {
			return false
		}
		init := d.Decls[0].Init
		if d.Kind == js.Var {
			// an ES module's "var H = __mt$h();" (ModuleInit)
			c, ok := init.(*js.Call)
			if !ok || len(c.Args) != 0 {
				return false
			}
			f, ok := c.Callee.(*js.Ident)
			return ok && f.Name == ModuleInit
		}
		if d.Kind != js.Const {
			return false
		}
		if cd, ok := init.(*js.Cond); ok {
			init = cd.No // the EvalNoCache marker
		}
		return isShimCall(init, "S")
	}
	return false
}

// isShimCall: e is a call of __mt.NAME.
func isShimCall(e js.Expr, name string) bool {
	c, ok := e.(*js.Call)
	if !ok {
		return false
	}
	m, ok := c.Callee.(*js.Member)
	if !ok || m.Computed {
		return false
	}
	o, ok := m.Object.(*js.Ident)
	k, _ := m.Property.(*js.Ident)
	return ok && o.Name == "__mt" && k != nil && k.Name == name
}

// isPrelude: st is an empty statement, or a project prelude (package
// project): "if(!globalThis.__mt)…", or an import declaration of at most
// 200 bytes that names ShimFile.
func isPrelude(src []byte, st js.Stmt) bool {
	sp := src[st.Pos():st.EndPos()]
	switch st.(type) {
	case *js.Empty:
		return true
	case *js.If:
		return bytes.HasPrefix(sp, []byte("if(!globalThis.__mt)"))
	case *js.Import:
		return len(sp) <= 200 && bytes.Contains(sp, []byte(ShimFile))
	}
	return false
}

func checkReserved(src []byte, opts Options, info *scope.Info) error {
	for _, s := range info.Scopes {
		for _, b := range s.Bindings {
			if strings.HasPrefix(b.Name, Prefix) && b.Decl != nil {
				log := diag.NewLog(fileName(opts), src)
				log.Errorf(diag.Range{Start: b.Decl.Start, End: b.Decl.End},
					"the name %s is reserved for the instrumentation (prefix %s)", b.Name, Prefix)
				return log.Err()
			}
		}
	}
	return nil
}

// freeShortName returns the first of "H", then the other names of one or
// two characters (letters, "$" and "_" first, then digits second), that no
// identifier of the analysed code spells, declared or referenced; Prefix
// if all are taken.
func freeShortName(info *scope.Info) string {
	const first = "HABCDEFGIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz$_"
	const second = first + "0123456789"
	var used [len(first) * (1 + len(second))]bool
	index := func(name string) int {
		if len(name) == 0 || len(name) > 2 {
			return -1
		}
		i := strings.IndexByte(first, name[0])
		if i < 0 {
			return -1
		}
		if len(name) == 1 {
			return i
		}
		j := strings.IndexByte(second, name[1])
		if j < 0 {
			return -1
		}
		return len(first) + i*len(second) + j
	}
	mark := func(name string) {
		if k := index(name); k >= 0 {
			used[k] = true
		}
	}
	for i := range info.Refs {
		mark(info.Refs[i].Ident.Name)
	}
	for _, s := range info.Scopes {
		for _, b := range s.Bindings {
			mark(b.Name)
		}
	}
	for k, u := range used {
		if u {
			continue
		}
		var name string
		if k < len(first) {
			name = first[k : k+1]
		} else {
			k -= len(first)
			name = string([]byte{first[k/len(second)], second[k%len(second)]})
		}
		if name != "do" && name != "if" && name != "in" {
			return name
		}
	}
	return Prefix
}

// handleName returns the script handle for a goal: a per-file lexical
// name in classic scripts (they share the global scope).
func handleName(src []byte, goal js.Goal) string {
	if goal != js.Script {
		return Prefix
	}
	// CRC-32 (IEEE) runs on the processor's carry-less multiply; a
	// byte-wise hash showed in the instrumenter's profile.
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE(src))
	return Prefix + hex.EncodeToString(sum[:])
}

// siteList converts the recorded offsets to line:col ranges (computed
// once: the prologue and the Result share them).
func (r *rewriter) siteList() []Site {
	if r.siteCache != nil && len(r.siteCache) == len(r.sites) {
		return r.siteCache
	}
	t := diag.NewLineTable(r.src)
	lines := t.Lines()
	// Sites are mostly close to each other: a start is looked for from the
	// previous site's start (iids are given in post-order, so a parent's
	// range starts before its children's), an end from its own start, then
	// from the previous end, before a search.
	var cs, ce lineCursor
	cs.set(t, lines, 1)
	ce = cs
	out := make([]Site, len(r.sites))
	for i, s := range r.sites {
		cs.seek(t, lines, s.Start)
		if s.End >= cs.start && s.End < cs.end {
			ce = cs
		} else {
			ce.seek(t, lines, s.End)
		}
		c1, c2 := t.Column(cs.line, s.Start), t.Column(ce.line, s.End)
		out[i] = Site{int32(cs.line), int32(c1 + 1), int32(ce.line), int32(c2 + 1)}
	}
	if r.remap != nil {
		out = r.remap(out)
	}
	if dl, dc := int32(max(r.opts.Line, 1)-1), int32(max(r.opts.Col, 1)-1); dl != 0 || dc != 0 {
		for i := range out {
			s := &out[i]
			if s.StartLine == 1 {
				s.StartCol += dc
			}
			if s.EndLine == 1 {
				s.EndCol += dc
			}
			s.StartLine += dl
			s.EndLine += dl
		}
	}
	r.siteCache = out
	return out
}

// lineCursor is a line of a LineTable and its byte range.
type lineCursor struct {
	line       int
	start, end int32
}

func (c *lineCursor) set(t *diag.LineTable, lines, l int) {
	c.line, c.start, c.end = l, t.LineStart(l), math.MaxInt32
	if l < lines {
		c.end = t.LineStart(l + 1)
	}
}

// seek moves c to the line of off: c's line, the next one, or one found
// by a search.
func (c *lineCursor) seek(t *diag.LineTable, lines int, off int32) {
	switch {
	case off >= c.start && off < c.end:
	case off >= c.end && c.line < lines && (c.line+1 == lines || off < t.LineStart(c.line+2)):
		c.set(t, lines, c.line+1)
	default:
		c.set(t, lines, t.Line(off))
	}
}

// appendSiteTable renders the site table of the prologue: a string
// literal of base-64 VLQ numbers (docs/instrumentation.md §2), four per
// local iid, each site relative to the one before it. An array literal of
// numbers is three times longer, and V8 keeps two copies of it as boxed
// elements (the literal's boilerplate and its description in the
// bytecode) for as long as the script's code lives: for run-time code
// that is evaluated afresh, as long as the engine's eval cache keeps it.
func appendSiteTable(b []byte, sites []Site) []byte {
	b = append(b, '"')
	b = AppendSiteVLQ(b, sites)
	return append(b, '"')
}

// vlqDigits are the digits of the site table's VLQ numbers: 5 bits each,
// 32 marks a continuation; a number's lowest bit is its sign. None of them
// needs escaping in a string literal, in HTML or in a URL path.
const vlqDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// AppendSiteVLQ appends the site table's encoding: per site, its start
// line relative to the previous site's start line; its start column,
// relative to the previous site's when the line is the same, else as is;
// its end line relative to its start line; its end column, relative to its
// start column when on the same line, else as is. The first site is
// relative to line 0, column 0.
func AppendSiteVLQ(b []byte, sites []Site) []byte {
	pl, pc := int32(0), int32(0)
	for _, s := range sites {
		b = appendVLQ(b, s.StartLine-pl)
		if s.StartLine == pl {
			b = appendVLQ(b, s.StartCol-pc)
		} else {
			b = appendVLQ(b, s.StartCol)
		}
		b = appendVLQ(b, s.EndLine-s.StartLine)
		if s.EndLine == s.StartLine {
			b = appendVLQ(b, s.EndCol-s.StartCol)
		} else {
			b = appendVLQ(b, s.EndCol)
		}
		pl, pc = s.StartLine, s.StartCol
	}
	return b
}

func appendVLQ(b []byte, v int32) []byte {
	var x uint64
	if v < 0 {
		x = uint64(-int64(v))<<1 | 1
	} else {
		x = uint64(v) << 1
	}
	for {
		d := x & 31
		x >>= 5
		if x != 0 {
			d |= 32
		}
		b = append(b, vlqDigits[d])
		if x == 0 {
			return b
		}
	}
}

// DecodeSiteVLQ is AppendSiteVLQ's inverse (the shim's decodeSites in
// Go), for tests and tools that read a prologue.
func DecodeSiteVLQ(s string) ([]Site, error) {
	var nums []int
	var x uint64
	shift := uint(0)
	for i := 0; i < len(s); i++ {
		d := strings.IndexByte(vlqDigits, s[i])
		if d < 0 {
			return nil, fmt.Errorf("site table: %q at %d is not a digit", s[i], i)
		}
		if shift > 60 {
			return nil, fmt.Errorf("site table: number too long at %d", i)
		}
		x |= uint64(d&31) << shift
		shift += 5
		if d&32 != 0 {
			continue
		}
		v := int(x >> 1)
		if x&1 != 0 {
			v = -v
		}
		nums = append(nums, v)
		x, shift = 0, 0
	}
	if shift != 0 || len(nums)%4 != 0 {
		return nil, fmt.Errorf("site table: truncated")
	}
	out := make([]Site, len(nums)/4)
	pl, pc := 0, 0
	for i := range out {
		n := nums[4*i : 4*i+4]
		l1 := pl + n[0]
		c1 := n[1]
		if l1 == pl {
			c1 += pc
		}
		l2 := l1 + n[2]
		c2 := n[3]
		if l2 == l1 {
			c2 += c1
		}
		out[i] = Site{int32(l1), int32(c1), int32(l2), int32(c2)}
		pl, pc = l1, c1
	}
	return out, nil
}
