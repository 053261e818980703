package js

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// estreeType names a node as ESTree (acorn) does, or "" for nodes ESTree
// does not have (Paren) or that have no span of their own there.
func estreeType(n Node) string {
	switch n := n.(type) {
	case *Program:
		return "Program"
	case *Ident:
		return "Identifier"
	case *PrivateName:
		return "PrivateIdentifier"
	case *This:
		return "ThisExpression"
	case *Super:
		return "Super"
	case *NullLit, *BoolLit, *NumLit, *BigIntLit, *StringLit, *RegExpLit:
		return "Literal"
	case *Template:
		return "TemplateLiteral"
	case *TemplatePart:
		return ""
	case *TaggedTemplate:
		return "TaggedTemplateExpression"
	case *Array:
		return "ArrayExpression"
	case *Object:
		return "ObjectExpression"
	case *Property:
		return "Property"
	case *Spread:
		return "SpreadElement"
	case *FuncExpr:
		return "FunctionExpression"
	case *Arrow:
		return "ArrowFunctionExpression"
	case *ClassExpr:
		return "ClassExpression"
	case *Method:
		return "MethodDefinition"
	case *Field:
		return "PropertyDefinition"
	case *StaticBlock:
		return "StaticBlock"
	case *Unary:
		return "UnaryExpression"
	case *Update:
		return "UpdateExpression"
	case *Binary:
		switch n.Op {
		case "||", "&&", "??":
			return "LogicalExpression"
		}
		return "BinaryExpression"
	case *Assign:
		return "AssignmentExpression"
	case *Cond:
		return "ConditionalExpression"
	case *Call:
		return "CallExpression"
	case *New:
		return "NewExpression"
	case *Member:
		return "MemberExpression"
	case *Chain:
		return "ChainExpression"
	case *Seq:
		return "SequenceExpression"
	case *Paren:
		return ""
	case *Yield:
		return "YieldExpression"
	case *Await:
		return "AwaitExpression"
	case *MetaProperty:
		return "MetaProperty"
	case *ImportCall:
		return "ImportExpression"
	case *ArrayPattern:
		return "ArrayPattern"
	case *ObjectPattern:
		return "ObjectPattern"
	case *AssignPattern:
		return "AssignmentPattern"
	case *RestElement:
		return "RestElement"
	case *ExprStmt:
		return "ExpressionStatement"
	case *VarDecl:
		return "VariableDeclaration"
	case *Declarator:
		return "VariableDeclarator"
	case *FuncDecl:
		return "FunctionDeclaration"
	case *ClassDecl:
		return "ClassDeclaration"
	case *Block:
		return "BlockStatement"
	case *Empty:
		return "EmptyStatement"
	case *Debugger:
		return "DebuggerStatement"
	case *Return:
		return "ReturnStatement"
	case *Throw:
		return "ThrowStatement"
	case *If:
		return "IfStatement"
	case *For:
		return "ForStatement"
	case *ForIn:
		return "ForInStatement"
	case *ForOf:
		return "ForOfStatement"
	case *While:
		return "WhileStatement"
	case *DoWhile:
		return "DoWhileStatement"
	case *Break:
		return "BreakStatement"
	case *Continue:
		return "ContinueStatement"
	case *Labeled:
		return "LabeledStatement"
	case *With:
		return "WithStatement"
	case *Switch:
		return "SwitchStatement"
	case *Case:
		return "SwitchCase"
	case *Try:
		return "TryStatement"
	case *Catch:
		return "CatchClause"
	case *Import:
		return "ImportDeclaration"
	case *ImportSpec:
		switch n.Kind {
		case ImportDefault:
			return "ImportDefaultSpecifier"
		case ImportNamespace:
			return "ImportNamespaceSpecifier"
		}
		return "ImportSpecifier"
	case *ImportAttribute:
		return "ImportAttribute"
	case *ExportNamed:
		return "ExportNamedDeclaration"
	case *ExportDefault:
		return "ExportDefaultDeclaration"
	case *ExportAll:
		return "ExportAllDeclaration"
	case *ExportSpec:
		return "ExportSpecifier"
	}
	panic(fmt.Sprintf("estreeType: %T", n))
}

type spanRec struct {
	Type       string
	Start, End int32
}

func (r spanRec) String() string { return fmt.Sprintf("%s[%d,%d)", r.Type, r.Start, r.End) }

// ourSpans lists the ESTree-named nodes of prog.
func ourSpans(prog *Program) []spanRec {
	var out []spanRec
	Inspect(prog, func(n Node) bool {
		if n == nil {
			return false
		}
		if t := estreeType(n); t != "" {
			out = append(out, spanRec{t, n.Pos(), n.EndPos()})
		}
		return true
	})
	return out
}

func sortSpans(s []spanRec) {
	sort.Slice(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		if a.End != b.End {
			return a.End > b.End
		}
		return a.Type < b.Type
	})
}

// corpusJSFiles lists the JavaScript files of the shared corpora, except
// test262 (checked by its own test).
func corpusJSFiles(t *testing.T) []string { return testcorpus.JSFiles(t) }

// TestSpansAgainstAcorn checks that every node of every corpus file has the
// span acorn gives the same node.
func TestSpansAgainstAcorn(t *testing.T) {
	files := corpusJSFiles(t)
	npmDir(t, "acorn")
	script := filepath.Join(testcorpus.Root(), "testdata", "npm", "spans.js")
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	cmd := exec.Command("node", append([]string{script}, files...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<30)
	var totalNodes, totalBytes, checked, skipped int
	for sc.Scan() {
		var rec struct {
			File  string
			Goal  string
			Error string
			Nodes [][3]json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(rec.File)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(testcorpus.Dir(t), rec.File)
		if rec.Error != "" {
			// Not JavaScript acorn accepts (JSX sources): we must reject it
			// too in every goal.
			skipped++
			for _, g := range []Goal{Script, CommonJS, Module} {
				if _, err := Parse(src, Options{Goal: g}); err == nil {
					t.Errorf("%s: acorn rejects it (%s) but we accept it as a %s", rel, rec.Error, g)
				}
			}
			continue
		}
		goal := map[string]Goal{"script": Script, "commonjs": CommonJS, "module": Module}[rec.Goal]
		prog, err := Parse(src, Options{Goal: goal, File: rel})
		if err != nil {
			t.Errorf("%s (%s): %v", rel, rec.Goal, err)
			continue
		}
		want := make([]spanRec, len(rec.Nodes))
		for i, n := range rec.Nodes {
			var typ string
			var s, e int32
			json.Unmarshal(n[0], &typ)
			json.Unmarshal(n[1], &s)
			json.Unmarshal(n[2], &e)
			want[i] = spanRec{typ, s, e}
		}
		got := ourSpans(prog)
		sortSpans(want)
		sortSpans(got)
		checked++
		totalNodes += len(want)
		totalBytes += len(src)
		if d := firstSpanDiff(got, want); d >= 0 {
			ctx := func(s []spanRec) string {
				lo, hi := max(0, d-2), min(len(s), d+3)
				var parts []string
				for _, r := range s[lo:hi] {
					parts = append(parts, r.String()+" "+quoteTok(string(src[r.Start:min(r.End, r.Start+40)])))
				}
				return strings.Join(parts, "\n\t\t")
			}
			t.Errorf("%s (%s): %d nodes, acorn %d; first difference at #%d:\n\tours:\n\t\t%s\n\tacorn:\n\t\t%s",
				rel, rec.Goal, len(got), len(want), d, ctx(got), ctx(want))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("compared %d files (%.1f MB, %d nodes) with acorn; %d files acorn rejects (also rejected by us)",
		checked, float64(totalBytes)/1e6, totalNodes, skipped)
}

func firstSpanDiff(a, b []spanRec) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
