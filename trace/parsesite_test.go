package trace

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// splitParseSite is what MemInsight's engine does with a location, written
// the way Java says it: s.split(":"), which drops trailing empty parts,
// then Integer.parseInt of the first two parts (ASCII digits and one sign).
// ParseSite must agree with it on every string without allocating.
func splitParseSite(s string) (sid, iid int32, ok bool) {
	parts := strings.Split(s, ":")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) < 2 {
		return 0, 0, false
	}
	parse := func(p string) (int32, bool) {
		if p == "" || p == "+" || p == "-" {
			return 0, false
		}
		for i := 0; i < len(p); i++ {
			c := p[i]
			if !(c >= '0' && c <= '9' || i == 0 && (c == '-' || c == '+')) {
				return 0, false
			}
		}
		v, err := strconv.ParseInt(p, 10, 32)
		return int32(v), err == nil
	}
	a, ok1 := parse(parts[0])
	b, ok2 := parse(parts[1])
	return a, b, ok1 && ok2
}

var siteStrings = []string{
	"", ":", "::", "1", "1:", "1::", ":1", "1:2", "1:2:", "1:2:3", "1::3",
	"-1:-2", "+1:+2", "+:1", "1:-", "01:002", "2147483647:-2147483648",
	"2147483648:1", "1:-2147483649", "99999999999999999999:1", "1:2x", "x:1",
	" 1:2", "1:2 ", "1:٣", "-0:+0", "12:34:abc:", "1:2::",
}

func checkParseSite(t *testing.T, s string) {
	a, b, ok := ParseSite(s)
	wa, wb, wok := splitParseSite(s)
	if ok != wok || ok && (a != wa || b != wb) {
		t.Errorf("ParseSite(%q) = %d, %d, %v; Java's split and parseInt: %d, %d, %v", s, a, b, ok, wa, wb, wok)
	}
	if n := testing.AllocsPerRun(10, func() { ParseSite(s) }); n != 0 {
		t.Errorf("ParseSite(%q) allocates %v times", s, n)
	}
}

func TestParseSiteAsJava(t *testing.T) {
	for _, s := range siteStrings {
		checkParseSite(t, s)
	}
}

func FuzzParseSite(f *testing.F) {
	for _, s := range siteStrings {
		f.Add(s)
	}
	f.Fuzz(checkParseSite)
}

// TestSiteSetAsMap: the checker's set of mapped sites answers as a map of
// every (sid, iid) would, for scripts mapped in any order, iids below a
// script's first (its range grows at the front), negative ones, and spans
// too wide for a bitset (kept in a map), with lookups alternating between
// scripts (its cache of the last two).
func TestSiteSetAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	set := siteSet{scripts: make(map[int32]*iidSet), other: make(map[uint64]struct{})}
	want := make(map[uint64]bool)
	pick := func() (int32, int32) {
		sid := int32(rng.IntN(5)) - 1
		var iid int32
		switch rng.IntN(6) {
		case 0:
			iid = int32(rng.Int64N(1<<32) - 1<<31) // anywhere
		case 1:
			iid = -int32(rng.IntN(200))
		default:
			iid = int32(1000*sid) + int32(rng.IntN(3000))
		}
		return sid, iid
	}
	for n := 0; n < 200000; n++ {
		sid, iid := pick()
		k := siteKey(sid, iid)
		if rng.IntN(3) == 0 {
			if got := set.add(sid, iid); got != !want[k] {
				t.Fatalf("add(%d, %d) = %v, already there: %v", sid, iid, got, want[k])
			}
			want[k] = true
		} else if got := set.has(sid, iid); got != want[k] {
			t.Fatalf("has(%d, %d) = %v, want %v", sid, iid, got, want[k])
		}
	}
	for k := range want {
		if !set.has(int32(k>>32), int32(uint32(k))) {
			t.Fatalf("lost %d:%d", int32(k>>32), int32(uint32(k)))
		}
	}
	assert.NotEmpty(t, set.other, "no span went to the map: the test does not reach it")
	for _, s := range set.scripts {
		assert.LessOrEqual(t, int64(len(s.bits))*64, int64(2*maxIIDSpan), "a bitset past its bound")
	}
}
