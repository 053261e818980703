package instrument

import (
	"fmt"
	"os"
	"strings"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

func TestShow(t *testing.T) {
	in := os.Getenv("MT_SHOW")
	if in == "" {
		t.Skip()
	}
	for _, src := range strings.Split(in, "\n") {
		got, err := strip(src, js.Script)
		fmt.Printf("%s\n  => %s %v\n", src, got, err)
	}
}
