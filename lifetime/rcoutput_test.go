package lifetime

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Rows come out sorted by id whatever the order and spread of the ids.
func TestRCRowsOrder(t *testing.T) {
	var out bytes.Buffer
	rc := NewRCWriter(&out, RCOptions{Verbose: true})
	site := newLocation("a/b.js", [4]int32{1, 2, 3, 4})
	ids := []int32{100000, 5, -3, 1 << 30, 70000, 2, 100000, 1 << 20}
	for i := int32(0); i < 200000; i += 1000 {
		ids = append(ids, i+1)
	}
	for _, id := range ids {
		rc.Unreachable(Unreachability{ID: id, Time: 7, AllocSite: site, Where: site})
	}
	rc.End(EndEvent{})
	require.NoError(t, rc.Err())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	seen := map[int32]bool{}
	for _, id := range ids {
		seen[id] = true
	}
	require.Len(t, lines, len(seen))
	require.True(t, strings.HasPrefix(lines[0], "Id: -3    Alloc: b.js:1:2:3:4"), lines[0])
	prev := int64(-1 << 40)
	for _, l := range lines {
		var id int64
		for _, c := range strings.Fields(l)[1] {
			if c == '-' {
				continue
			}
			id = id*10 + int64(c-'0')
		}
		if strings.Fields(l)[1][0] == '-' {
			id = -id
		}
		require.Greater(t, id, prev, l)
		prev = id
	}
}
