// Package glob matches slash-separated paths against shell-style patterns
// and ordered include/exclude lists of them, as the CLI's --include and
// --exclude flags use them.
//
// Pattern syntax:
//
//   - any run of characters except '/'
//     ?        one character except '/'
//     [abc]    one character of the class; ranges [a-z]; negated [!a-z] or [^a-z]
//     **       as a whole segment: zero or more segments ("**/x.js", "a/**", "a/**/b")
//     \c       the character c itself
//
// A pattern without '/' matches the last segment at any depth ("*.min.js"
// is "**/*.min.js"). A leading "./" is ignored; a leading '/' anchors the
// pattern at the root of the paths it is given and is otherwise ignored. A
// pattern that matches a directory matches everything under it
// ("node_modules" and "vendor/" take whole trees). Paths are cleaned first
// (path.Clean, backslashes are not separators), and a leading "./" or '/'
// of the path is ignored too.
//
// A List is an ordered list of rules: each pattern includes or excludes the
// paths it matches, a pattern beginning with '!' does the opposite of its
// flag, and the last rule that matches a path decides (gitignore's rule).
package glob

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Pattern is a compiled pattern.
type Pattern struct {
	src  string
	segs []segment
}

// segment is one '/'-separated part of a pattern: "**", or a sequence of
// items matched against one path segment.
type segment struct {
	any   bool // "**"
	items []item
}

type itemKind uint8

const (
	lit   itemKind = iota // a literal rune
	one                   // ?
	star                  // *
	class                 // [...]
)

type item struct {
	kind   itemKind
	r      rune
	negate bool
	ranges []rune // pairs lo, hi
}

// Compile parses a pattern. The empty pattern, an unclosed '[', an empty
// class and a trailing '\' are errors.
func Compile(pattern string) (*Pattern, error) {
	p := strings.TrimPrefix(pattern, "./")
	p = strings.TrimLeft(p, "/")
	p = strings.TrimRight(p, "/")
	if p == "" {
		return nil, fmt.Errorf("glob %q: empty pattern", pattern)
	}
	parts := strings.Split(p, "/")
	if len(parts) == 1 && parts[0] != "**" {
		parts = []string{"**", parts[0]}
	}
	c := &Pattern{src: pattern}
	for _, part := range parts {
		if part == "" || part == "." {
			continue // "a//b", "a/./b"
		}
		if part == "**" {
			if n := len(c.segs); n > 0 && c.segs[n-1].any {
				continue // "**/**" is "**"
			}
			c.segs = append(c.segs, segment{any: true})
			continue
		}
		items, err := parseSegment(part)
		if err != nil {
			return nil, fmt.Errorf("glob %q: %v", pattern, err)
		}
		c.segs = append(c.segs, segment{items: items})
	}
	return c, nil
}

// MustCompile is Compile for patterns known to be valid; it panics
// otherwise.
func MustCompile(pattern string) *Pattern {
	p, err := Compile(pattern)
	if err != nil {
		panic(err)
	}
	return p
}

func parseSegment(s string) ([]item, error) {
	var items []item
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '*':
			if len(items) == 0 || items[len(items)-1].kind != star {
				items = append(items, item{kind: star})
			}
			i += n
		case '?':
			items = append(items, item{kind: one})
			i += n
		case '\\':
			if i+n >= len(s) {
				return nil, fmt.Errorf("trailing backslash")
			}
			r2, n2 := utf8.DecodeRuneInString(s[i+n:])
			items = append(items, item{kind: lit, r: r2})
			i += n + n2
		case '[':
			it, m, err := parseClass(s[i:])
			if err != nil {
				return nil, err
			}
			items = append(items, it)
			i += m
		default:
			items = append(items, item{kind: lit, r: r})
			i += n
		}
	}
	return items, nil
}

// parseClass parses "[...]" at the start of s and returns the item and
// the bytes it took. A ']' right after '[' or '[!' is a member.
func parseClass(s string) (item, int, error) {
	it := item{kind: class}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		it.negate = true
		i++
	}
	first := true
	for {
		if i >= len(s) {
			return it, 0, fmt.Errorf("unclosed character class in %q", s)
		}
		if s[i] == ']' && !first {
			i++
			break
		}
		first = false
		lo, n, err := classRune(s, i)
		if err != nil {
			return it, 0, err
		}
		i += n
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, n, err = classRune(s, i+1)
			if err != nil {
				return it, 0, err
			}
			if hi < lo {
				return it, 0, fmt.Errorf("bad range %c-%c in character class", lo, hi)
			}
			i += 1 + n
		}
		it.ranges = append(it.ranges, lo, hi)
	}
	return it, i, nil
}

func classRune(s string, i int) (rune, int, error) {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == '\\' {
		if i+n >= len(s) {
			return 0, 0, fmt.Errorf("trailing backslash")
		}
		r2, n2 := utf8.DecodeRuneInString(s[i+n:])
		return r2, n + n2, nil
	}
	return r, n, nil
}

// String returns the pattern as given.
func (p *Pattern) String() string { return p.src }

// Match reports whether the path, or one of the directories it is in,
// matches the pattern.
func (p *Pattern) Match(name string) bool {
	segs := splitPath(name)
	for n := len(segs); n > 0; n-- {
		if matchSegs(p.segs, segs[:n]) {
			return true
		}
	}
	return false
}

// splitPath cleans a path and splits it into segments.
func splitPath(name string) []string {
	name = path.Clean("/" + name)
	name = strings.TrimPrefix(name, "/")
	if name == "" {
		return nil
	}
	return strings.Split(name, "/")
}

func matchSegs(ps []segment, ss []string) bool {
	for len(ps) > 0 {
		if ps[0].any {
			if len(ps) == 1 {
				return true
			}
			for k := 0; k <= len(ss); k++ {
				if matchSegs(ps[1:], ss[k:]) {
					return true
				}
			}
			return false
		}
		if len(ss) == 0 || !matchItems(ps[0].items, ss[0]) {
			return false
		}
		ps, ss = ps[1:], ss[1:]
	}
	return len(ss) == 0
}

// matchItems matches one segment, backtracking only to the last star (the
// classic linear-time wildcard algorithm).
func matchItems(items []item, s string) bool {
	pi, si := 0, 0
	starPi, starSi := -1, 0
	for si < len(s) || pi < len(items) {
		if pi < len(items) {
			it := items[pi]
			if it.kind == star {
				starPi, starSi = pi, si
				pi++
				continue
			}
			if si < len(s) {
				r, n := utf8.DecodeRuneInString(s[si:])
				if it.matches(r) {
					pi++
					si += n
					continue
				}
			}
		}
		if starPi >= 0 && starSi < len(s) {
			_, n := utf8.DecodeRuneInString(s[starSi:])
			starSi += n
			pi, si = starPi+1, starSi
			continue
		}
		return false
	}
	return true
}

func (it item) matches(r rune) bool {
	switch it.kind {
	case lit:
		return r == it.r
	case one:
		return true
	case class:
		in := false
		for k := 0; k < len(it.ranges); k += 2 {
			if it.ranges[k] <= r && r <= it.ranges[k+1] {
				in = true
				break
			}
		}
		return in != it.negate
	}
	return false
}

// A Rule is one pattern of a List and what it does to the paths it
// matches.
type Rule struct {
	Pattern *Pattern
	Include bool
}

// List is an ordered list of include and exclude rules; the zero List
// matches nothing. The last rule that matches a path decides; a path no
// rule matches gets the list's default.
type List struct {
	rules []Rule
	def   bool
}

// NewList returns an empty list whose paths are included by default when
// def is true.
func NewList(def bool) *List { return &List{def: def} }

// Add appends a rule: include (or exclude, when include is false) the
// paths that match pattern; a pattern beginning with '!' (use "\!" for a
// literal one) does the opposite.
func (l *List) Add(pattern string, include bool) error {
	p := pattern
	if strings.HasPrefix(p, "!") {
		p, include = p[1:], !include
	}
	c, err := Compile(p)
	if err != nil {
		return err
	}
	c.src = pattern
	l.rules = append(l.rules, Rule{Pattern: c, Include: include})
	return nil
}

// Include appends include rules.
func (l *List) Include(patterns ...string) error {
	for _, p := range patterns {
		if err := l.Add(p, true); err != nil {
			return err
		}
	}
	return nil
}

// Exclude appends exclude rules.
func (l *List) Exclude(patterns ...string) error {
	for _, p := range patterns {
		if err := l.Add(p, false); err != nil {
			return err
		}
	}
	return nil
}

// Excludes returns a list that includes every path except those the
// patterns exclude ('!' re-includes).
func Excludes(patterns []string) (*List, error) {
	l := NewList(true)
	return l, l.Exclude(patterns...)
}

// Rules returns the list's rules in order.
func (l *List) Rules() []Rule { return l.rules }

// Decide returns whether the path is included and the rule that decided
// (nil when none matched and the default applied).
func (l *List) Decide(name string) (bool, *Rule) {
	for k := len(l.rules) - 1; k >= 0; k-- {
		if l.rules[k].Pattern.Match(name) {
			return l.rules[k].Include, &l.rules[k]
		}
	}
	return l.def, nil
}

// Match reports whether the path is included.
func (l *List) Match(name string) bool {
	in, _ := l.Decide(name)
	return in
}
