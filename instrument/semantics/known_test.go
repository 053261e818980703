package semantics

// knownT262 lists test262 scenarios ("path [scenario]") that pass under
// plain Node.js and fail instrumented, with the cause. Keep it exact.
var knownT262 = map[string]string{}
