package lifetime

import (
	"testing"

	"github.com/memtrace/memtrace/trace"
)

var siteStrings = []string{
	"", ":", "::", "1", "1:", "1::", ":1", "1:2", "1:2:", "1:2:3", "1::3",
	"-1:-2", "+1:+2", "+:1", "1:-", "01:002", "2147483647:-2147483648",
	"2147483648:1", "1:-2147483649", "99999999999999999999:1", "1:2x", "x:1",
	" 1:2", "1:2 ", "1:٣", "-0:+0", "12:34:abc:", "1:2::",
}

func TestParseSiteString(t *testing.T) {
	for _, s := range siteStrings {
		a, b, ok := parseSiteString(s)
		wa, wb, wok := trace.ParseSite(s)
		if ok != wok || ok && (a != wa || b != wb) {
			t.Errorf("parseSiteString(%q) = %d, %d, %v; trace.ParseSite: %d, %d, %v", s, a, b, ok, wa, wb, wok)
		}
	}
}

func FuzzParseSiteString(f *testing.F) {
	for _, s := range siteStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, b, ok := parseSiteString(s)
		wa, wb, wok := trace.ParseSite(s)
		if ok != wok || ok && (a != wa || b != wb) {
			t.Errorf("parseSiteString(%q) = %d, %d, %v; trace.ParseSite: %d, %d, %v", s, a, b, ok, wa, wb, wok)
		}
	})
}
