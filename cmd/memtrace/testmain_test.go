package main

import (
	"testing"

	"github.com/memtrace/memtrace/internal/memtracebin"
)

// TestMain removes the memtrace binary the tests built (memtracebin).
func TestMain(m *testing.M) { memtracebin.Main(m) }
