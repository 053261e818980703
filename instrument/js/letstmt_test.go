package js

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// letStmtContexts are the places that take a single Statement, not a
// declaration; "S" stands for the statement.
var letStmtContexts = []string{
	"if (0) S\n",
	"if (1) ; else S\n",
	"while (0) S\n",
	"do S\nwhile (0);",
	"for (;0;) S\n",
	"for (var x in null) S\n",
	"for (var x of []) S\n",
	"async function* f() { for await (var x of []) S\n}",
	"if (0) { L: S\n}",
	"if (0) { L1: L2: S\n}",
	"if (0) { with ({}) S\n}",
	"function* g() { if (0) S\n}",
	"async function g() { while (0) S\n}",
}

// TestLetInSingleStatement: where only a Statement may stand, "let" is
// the identifier of an ExpressionStatement, never a declaration, and the
// lookahead of ExpressionStatement excludes "let [" only. So "let", a line
// break, then a name or "{" is the statement "let" ended by ASI; on one
// line it is a declaration out of place. Strict code reserves "let". Every
// outcome here is V8's (Node 20), checked in each context.
func TestLetInSingleStatement(t *testing.T) {
	parses := []string{
		"let\nx = 1",
		"let // ASI\nx = 1;",
		"let /*\n*/ x = 1",
		"let\r\nx = 1",
		"let\u2028x = 1",
		"let\n{}",
		"let\nlet = 1",
		"let\nlet y = 1", // the second let is a declaration of the list around
		"let\n\\u0078 = 1",
		"let\nyield",
		"let\nawait\nx",
		"let\nof = 1",
		"let\nfunction h() {}",
		"let\nclass C {}",
		"let\nx\nlet y = 2",
	}
	fails := []string{
		"let\n[a] = 0",
		"let /*\n*/ [a] = 0",
		"let\n[a]",
		"let [a] = 0",
		"let x = 1",
		"let /* */ x = 1",
		"let {}",
		"let let = 1",
	}
	const msg = "lexical declaration cannot appear in a single-statement context"
	for _, ctx := range letStmtContexts {
		ok := parses
		if strings.HasPrefix(ctx, "do ") {
			// The body of do is "let;" alone, so "while" must follow.
			ok = []string{"let", "let // ASI", "let /*\n*/"}
		}
		for _, s := range ok {
			src := strings.Replace(ctx, "S", s, 1)
			t.Run("sloppy/"+src, func(t *testing.T) {
				prog, err := Parse([]byte(src), Options{Goal: Script})
				require.NoError(t, err)
				checkSpans(t, []byte(src), prog)
				// The statement is "let" alone, and no let declaration
				// starts where it does.
				at := int32(strings.Index(src, "let"))
				var stmt *ExprStmt
				Inspect(prog, func(n Node) bool {
					switch n := n.(type) {
					case *ExprStmt:
						if id, ok := n.X.(*Ident); ok && id.Name == "let" && n.Start == at {
							stmt = n
						}
					case *VarDecl:
						assert.False(t, n.Kind == Let && n.Start == at, "a let declaration")
					}
					return true
				})
				if assert.NotNil(t, stmt, "no statement \"let\"") {
					assert.Equal(t, at+3, stmt.End, "the statement ends with let")
				}
			})
			// Strict code reserves "let" (and has no with).
			strict := "\"use strict\"; " + src
			t.Run("strict/"+src, func(t *testing.T) {
				_, err := Parse([]byte(strict), Options{Goal: Script})
				require.Error(t, err)
			})
			t.Run("module/"+src, func(t *testing.T) {
				_, err := Parse([]byte(src), Options{Goal: Module})
				require.Error(t, err)
			})
		}
		for _, s := range fails {
			src := strings.Replace(ctx, "S", s, 1)
			t.Run("sloppy/"+src, func(t *testing.T) {
				_, err := Parse([]byte(src), Options{Goal: Script})
				require.Error(t, err)
				if s != "let let = 1" {
					assert.Contains(t, err.Error(), msg)
				}
			})
		}
	}
	// Where declarations may stand, "let" and a name on the next line is
	// one declaration.
	for _, src := range []string{"let\nx = 1", "{ let\nx = 1 }", "switch (0) { case 1: let\nx = 1 }", "function f() { let\n[a] = [] }"} {
		prog, err := Parse([]byte(src), Options{Goal: Script})
		require.NoError(t, err, src)
		n := 0
		Inspect(prog, func(n2 Node) bool {
			if d, ok := n2.(*VarDecl); ok && d.Kind == Let {
				n++
			}
			return true
		})
		assert.Equal(t, 1, n, "%q: one let declaration", src)
	}
	for _, src := range []string{"let\n{}", "function* g() { let\nyield 0 }", "function f() { let\nawait 0 }", "async function f() { let\nawait 0 }"} {
		_, err := Parse([]byte(src), Options{Goal: Script})
		assert.Error(t, err, src)
	}
}
