package lifetime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDescribeRetainer: paths as the engine gives them, said in words.
func TestDescribeRetainer(t *testing.T) {
	for _, c := range []struct {
		path []Step
		want string
	}{
		{[]Step{{"GLOBAL", "cachedRender@1", true}, {"server.js:15:10:21:4", "_CONTEXT_", false}, {"server.js:13:1:22:2", "cache", true}, {"server.js:14:17:14:26", "~map~s:/?0", false}},
			"held by `cache` (a Map made at server.js:14:17) in the closure of the function at server.js:13:1, reached from `cachedRender`"},
		{[]Step{{"GLOBAL", "accessLog@1", true}, {"server.js:52:19:52:21", "0", false}},
			"held by `accessLog` (an array made at server.js:52:19), a global"},
		{[]Step{{"GLOBAL", "keep", true}},
			"held by `keep`, a global"},
		{[]Step{{"GLOBAL", "app", true}, {"a.js:1:1:1:9", "state", false}, {"a.js:2:1:2:9", "items", false}, {"a.js:3:1:3:9", "5", false}},
			"held by `app.state.items` (an array made at a.js:3:1), a global"},
		{[]Step{{"GLOBAL", "registry@1", true}, {"r.js:11:18:11:39", "byName", false}, {"r.js:11:28:11:37", "~map~s:x", false}},
			"held by `registry.byName` (a Map made at r.js:11:28), a global"},
		{[]Step{{"GLOBAL", "bus@1", true}, {"r.js:15:13:15:31", "~event~s:tick~0", false}},
			"held by `bus` (the listeners of an event emitter made at r.js:15:13), a global"},
		{[]Step{{"GLOBAL", "c@1", true}, {"r.js:7:10:7:20", "_CONTEXT_", false}, {"r.js:5:1:8:2", "hold", true}},
			"held by `hold` in the closure of the function at r.js:5:1, reached from `c`"},
		{[]Step{{"GLOBAL", "o", true}, {"r.js:1:1:1:2", "a-b", false}, {"r.js:2:1:2:2", "x", false}},
			"held by `o[\"a-b\"]` (an object made at r.js:2:1), a global"},
	} {
		require.Equal(t, c.want, DescribeRetainer(c.path))
	}
	require.Equal(t, "GLOBAL .x → a.js:1:1:1:2 .~map~ → a.js:2:1:2:2 .[i]", PathShape([]Step{{"GLOBAL", "x", true}, {"a.js:1:1:1:2", "~map~s:k", false}, {"a.js:2:1:2:2", "12", false}}))
}
