package noderun

import "testing"

// TestStackArg: four times V8's default stack, within the process's stack
// limit less 2 MiB, none when that is no more than the default or when the
// program's node options set the size.
func TestStackArg(t *testing.T) {
	for _, c := range []struct {
		args  []string
		limit int
		want  string
	}{
		{nil, 0, "--stack-size=3936"},
		{nil, 8192, "--stack-size=3936"},
		{nil, 4096, "--stack-size=2048"},
		{nil, 2048, ""},
		{[]string{"--stack-size=2000"}, 0, ""},
		{[]string{"--expose-gc", "--stack_size=500"}, 0, ""},
	} {
		if got := stackArg(c.args, c.limit); got != c.want {
			t.Errorf("stackArg(%q, %d) = %q, want %q", c.args, c.limit, got, c.want)
		}
	}
}
