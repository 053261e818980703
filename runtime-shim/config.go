package runtimeshim

import "encoding/json"

// Config is the shim's configuration, defined once here: memtrace node
// serialises it once (JSON) into the environment variable ConfigVar, which
// the Node host reads when the shim installs (src/node/config.js); a
// browser's host will read the same JSON from the page's injected
// configuration. Files instrumented ahead of time and run with plain node
// take the same settings from the user's MEMTRACE_OUT, MEMTRACE_COMPACT,
// ... when ConfigVar is not set (docs/configuration.md).
type Config struct {
	// Out is the trace file; Status, the file where a trace that ended
	// early says why (session.json's reason).
	Out    string `json:"out,omitempty"`
	Status string `json:"status,omitempty"`
	// Bin is the memtrace binary that instruments run-time code (eval,
	// new Function, vm) and, under memtrace node, the modules node loads.
	Bin string `json:"bin,omitempty"`
	// The modes the trace is recorded with (memtrace node's flags).
	DebugFun     string `json:"debugFun,omitempty"`
	AllUses      bool   `json:"allUses,omitempty"`
	AllPutFields bool   `json:"allPutFields,omitempty"`
	Compact      bool   `json:"compact,omitempty"`
	// Exclude are the --exclude globs: modules whose path relative to the
	// working directory matches run uninstrumented.
	Exclude []string `json:"exclude,omitempty"`
	// Collector is the websocket address of a collector (memtrace collect)
	// the trace streams to instead of Out (docs/protocol.md); Token, the
	// collector's token (else the address's token parameter).
	Collector string `json:"collector,omitempty"`
	Token     string `json:"token,omitempty"`
	// Instrument is, in a page, the address of the instrument service of
	// run-time code (memtrace serve's and the proxy's /__memtrace__/
	// instrument, with the token): without it, a page's eval, new
	// Function and string timers run uninstrumented.
	Instrument string `json:"instrument,omitempty"`
}

// ConfigVar is the environment variable that carries Config as JSON.
const ConfigVar = "MEMTRACE_CONFIG"

// JSON is c serialised (the one form every reader takes).
func (c *Config) JSON() string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings, booleans and a slice of strings always marshal
	}
	return string(b)
}
