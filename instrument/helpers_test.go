package instrument

import (
	"fmt"
	"regexp"
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// strip instruments src as file "t.js" and returns the code without the
// prologue's S call and the final Sx, with the handle renamed H.
func strip(src string, goal js.Goal) (string, error) {
	return stripWith(src, Options{Goal: goal, File: "t.js"})
}

// stripWith is strip with the options given.
func stripWith(src string, opts Options) (string, error) {
	return stripSwitched(src, opts, testswitch.Switches{})
}

// stripSwitched is stripWith with the tests' switches sw.
func stripSwitched(src string, opts Options, sw testswitch.Switches) (string, error) {
	res, err := InstrumentWith([]byte(src), opts, sw)
	if err != nil {
		return "", err
	}
	out := string(res.Code)
	h := res.Handle
	start := strings.Index(out, "const "+h+" = __mt.S(")
	if start >= 0 {
		end := strings.Index(out[start:], "); ")
		out = out[:start] + out[start+end+3:]
	} else if start = strings.Index(out, "__mt.Sg(\""+h+"\", "); start >= 0 {
		// a classic script's prologue: its temporaries, which the shim
		// makes global names, written as the declaration they stand for
		end := strings.Index(out[start:], "); ")
		var nt, nk int
		fmt.Sscanf(out[start+len("__mt.Sg(\""+h+"\", "):], "%d, %d", &nt, &nk)
		var names []string
		for k := 1; k <= nt; k++ {
			names = append(names, fmt.Sprintf("%s_%d", h, k))
		}
		for k := 1; k <= nk; k++ {
			names = append(names, fmt.Sprintf("%s_k%d", h, k))
		}
		decl := ""
		if len(names) > 0 {
			decl = "var " + strings.Join(names, ", ") + "; "
		}
		out = out[:start] + decl + out[start+end+3:]
	} else if start = strings.Index(out, "var "+h+" = "+ModuleInit+"(); function "); start >= 0 {
		// an ES module's prologue
		end := strings.Index(out[start:], ")); } ")
		out = out[:start] + out[start+end+6:]
	}
	out = strings.Replace(out, NoExceptionLine, "", 1)
	out = strings.TrimSuffix(out, "\n;"+h+".Sx();")
	if a := res.Alias; a != "" {
		// Functions bind the alias first: the expectations spell H only.
		out = strings.ReplaceAll(out, "const "+a+" = "+h+", ", "const ")
		out = regexp.MustCompile(`(^|[^\w$.])`+regexp.QuoteMeta(a)+`\.`).ReplaceAllString(out, "${1}H.")
	}
	out = strings.ReplaceAll(out, h+".", "H.")
	return out, nil
}
