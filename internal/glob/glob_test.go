package glob

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		// literals and the basename rule
		{"app.js", "app.js", true},
		{"app.js", "src/app.js", true},
		{"app.js", "src/app.jsx", false},
		{"app.js", "src/myapp.js", false},
		{"src/app.js", "src/app.js", true},
		{"src/app.js", "lib/src/app.js", false},
		{"/src/app.js", "src/app.js", true},
		{"./src/app.js", "src/app.js", true},
		{"src/app.js", "./src/app.js", true},
		{"src/app.js", "/src/app.js", true},
		{"src/app.js", "src//app.js", true},
		{"src/app.js", "src/x/../app.js", true},
		// *
		{"*.js", "a.js", true},
		{"*.js", "a/b/c.js", true},
		{"*.js", "a.mjs", false},
		{"*.js", ".js", true},
		{"*.min.js", "vendor/jquery.min.js", true},
		{"*.min.js", "vendor/jquery.js", false},
		{"src/*.js", "src/a.js", true},
		{"src/*.js", "src/a/b.js", false},
		{"src/*", "src/a/b.js", true}, // src/a matches: a directory takes its tree
		{"a*b*c", "abc", true},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"a*", "a", true},
		{"*a", "bba", true},
		{"*a", "bab", false},
		{"**", "anything/at/all.js", true},
		// ?
		{"?.js", "a.js", true},
		{"?.js", "ab.js", false},
		{"?.js", "é.js", true},
		{"src?a.js", "src/a.js", false},
		// **
		{"**/test/*.js", "test/a.js", true},
		{"**/test/*.js", "x/y/test/a.js", true},
		{"**/test/*.js", "x/y/test/sub/a.js", false},
		{"src/**/*.js", "src/a.js", true},
		{"src/**/*.js", "src/a/b/c.js", true},
		{"src/**/*.js", "lib/a.js", false},
		{"src/**", "src/a/b/c.js", true},
		{"src/**", "srcx/a.js", false},
		{"a/**/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		// directories take their trees
		{"node_modules", "node_modules/lodash/index.js", true},
		{"node_modules", "a/node_modules/x.js", true},
		{"node_modules/", "node_modules/x.js", true},
		{"node_modules", "node_modules_old/x.js", false},
		{"lib/gen", "lib/gen/x/y.js", true},
		{"lib/gen", "lib/generated/y.js", false},
		// classes
		{"[abc].js", "b.js", true},
		{"[abc].js", "d.js", false},
		{"[a-c].js", "b.js", true},
		{"[a-c].js", "B.js", false},
		{"[!a-c].js", "d.js", true},
		{"[!a-c].js", "a.js", false},
		{"[^a-c].js", "a.js", false},
		{"[]a].js", "].js", true},
		{"[!]].js", "].js", false},
		{"[a-].js", "-.js", true},
		{"[\\]].js", "].js", true},
		{"[é-ê].js", "ê.js", true},
		{"v[0-9]*", "v12/x.js", true},
		// escapes
		{"\\*.js", "*.js", true},
		{"\\*.js", "a.js", false},
		{"a\\?", "a?", true},
		{"a\\?", "ab", false},
	}
	for _, tt := range tests {
		p, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		if got := p.Match(tt.path); got != tt.want {
			t.Errorf("%q.Match(%q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tt := range []struct{ pattern, msg string }{
		{"", "empty pattern"},
		{"/", "empty pattern"},
		{"./", "empty pattern"},
		{"[abc", "unclosed character class"},
		{"[]", "unclosed character class"},
		{"[!]", "unclosed character class"},
		{"a\\", "trailing backslash"},
		{"[a\\", "trailing backslash"},
		{"[z-a]", "bad range"},
		{"[a/b]", "unclosed character class"}, // classes never span a /
	} {
		_, err := Compile(tt.pattern)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Compile(%q) = %v, want an error containing %q", tt.pattern, err, tt.msg)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustCompile of a bad pattern does not panic")
		}
	}()
	MustCompile("[")
}

func TestList(t *testing.T) {
	type check struct {
		path string
		want bool
	}
	tests := []struct {
		name    string
		def     bool
		include []string // added first, then exclude, unless rules is set
		exclude []string
		rules   []Rule0
		checks  []check
	}{
		{name: "empty include-all", def: true, checks: []check{{"a.js", true}}},
		{name: "empty zero", def: false, checks: []check{{"a.js", false}}},
		{
			name: "exclude", def: true, exclude: []string{"node_modules", "*.min.js"},
			checks: []check{{"src/a.js", true}, {"node_modules/x/y.js", false}, {"dist/a.min.js", false}},
		},
		{
			name: "negation re-includes", def: true, exclude: []string{"vendor", "!vendor/keep.js"},
			checks: []check{{"vendor/a.js", false}, {"vendor/keep.js", true}, {"a.js", true}},
		},
		{
			name: "last match wins", def: true, exclude: []string{"!vendor/keep.js", "vendor"},
			checks: []check{{"vendor/keep.js", false}},
		},
		{
			name: "include then exclude", def: false,
			rules:  []Rule0{{"src/**/*.js", true}, {"src/**/*.test.js", false}, {"src/fixtures", false}, {"!src/fixtures/keep.js", false}},
			checks: []check{{"src/a.js", true}, {"src/a/b.js", true}, {"src/a.test.js", false}, {"lib/a.js", false}, {"src/fixtures/x.js", false}, {"src/fixtures/keep.js", true}},
		},
		{
			name: "negated include excludes", def: true, rules: []Rule0{{"!*.map", true}},
			checks: []check{{"a.js.map", false}, {"a.js", true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewList(tt.def)
			if err := l.Include(tt.include...); err != nil {
				t.Fatal(err)
			}
			if err := l.Exclude(tt.exclude...); err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.rules {
				if err := l.Add(r.p, r.include); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range tt.checks {
				if got := l.Match(c.path); got != c.want {
					in, rule := l.Decide(c.path)
					t.Errorf("Match(%q) = %v, want %v (decided %v by %+v)", c.path, got, c.want, in, rule)
				}
			}
		})
	}
}

// Rule0 is a rule before compilation, for the table.
type Rule0 struct {
	p       string
	include bool
}

func TestListDecideAndErrors(t *testing.T) {
	l, err := Excludes([]string{"a/*.js", "!a/b.js"})
	if err != nil {
		t.Fatal(err)
	}
	in, r := l.Decide("a/b.js")
	if !in || r == nil || r.Pattern.String() != "!a/b.js" {
		t.Errorf("Decide(a/b.js) = %v, %+v; want the rule !a/b.js to include it", in, r)
	}
	if in, r := l.Decide("c.js"); !in || r != nil {
		t.Errorf("Decide(c.js) = %v, %+v; want the default", in, r)
	}
	if n := len(l.Rules()); n != 2 {
		t.Errorf("%d rules, want 2", n)
	}
	if _, err := Excludes([]string{"ok", "[bad"}); err == nil {
		t.Error("Excludes accepts a bad pattern")
	}
	if err := NewList(true).Add("!", false); err == nil {
		t.Error(`Add("!") accepts an empty pattern`)
	}
}

func FuzzMatch(f *testing.F) {
	for _, s := range []string{"*.js", "**/a/*", "[a-z]?", "\\*"} {
		f.Add(s, "a/b/c.js")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		p, err := Compile(pattern)
		if err != nil {
			return
		}
		p.Match(name) // never panics, always ends
	})
}
