package lifetime

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpus is the MemInsight corpus, relative to this package's directory.
const corpus = "../../shared/corpora/meminsight/"

// knownFailing lists goldens that the engine does not reproduce yet.
var knownFailing = map[string]bool{}

func corpusDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(corpus, "traces")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("corpus missing at %s: %v", dir, err)
		}
		t.Skipf("corpus missing at %s: %v", dir, err)
	}
	return corpus
}

func runRC(t testing.TB, path string) (string, error) {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out bytes.Buffer
	err = WriteRC(&out, f, Options{MemInsightReturns: true}, RCOptions{Testing: true, Verbose: true})
	return out.String(), err
}

func goldenNames(t *testing.T, dir string) []string {
	var names []string
	for _, pat := range []string{"testRefCount*.mem-trace", "htmlTest*.mem-trace"} {
		m, err := filepath.Glob(filepath.Join(dir, "traces", pat))
		require.NoError(t, err)
		for _, p := range m {
			names = append(names, strings.TrimSuffix(filepath.Base(p), ".mem-trace"))
		}
	}
	sort.Strings(names)
	return names
}

func TestGoldens(t *testing.T) {
	dir := corpusDir(t)
	names := goldenNames(t, dir)
	var refc, html int
	for _, n := range names {
		if strings.HasPrefix(n, "html") {
			html++
		} else {
			refc++
		}
	}
	require.Equal(t, 52, refc, "testRefCount traces")
	require.Equal(t, 19, html, "htmlTest traces")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			exp, err := os.ReadFile(filepath.Join(dir, "expected-engine", name+".expected"))
			require.NoError(t, err)
			want := strings.Join(strings.Split(strings.ReplaceAll(string(exp), "\r\n", "\n"), "\n"), "\n")
			want = strings.TrimSpace(want)
			got, err := runRC(t, filepath.Join(dir, "traces", name+".mem-trace"))
			if knownFailing[name] {
				if err == nil && strings.TrimSpace(got) == want {
					t.Errorf("%s passes now: remove it from knownFailing", name)
				} else {
					t.Skipf("known failing golden %s", name)
				}
				return
			}
			require.NoError(t, err)
			require.Equal(t, want, strings.TrimSpace(got))
		})
	}
}
