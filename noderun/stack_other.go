//go:build !unix

package noderun

func stackLimitKB() int { return 0 }
