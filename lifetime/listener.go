package lifetime

// ObjectKind says how an object came to be.
type ObjectKind uint8

// The kinds of objects, named as in MemInsight's staleness output.
const (
	KindObject    ObjectKind = iota // CREATE_OBJ
	KindDOM                         // CREATE_DOM_NODE
	KindFunction                    // CREATE_FUN's function
	KindPrototype                   // CREATE_FUN's prototype (id+1)
)

func (k ObjectKind) String() string {
	switch k {
	case KindDOM:
		return "DOM"
	case KindFunction:
		return "FUNCTION"
	case KindPrototype:
		return "PROTOTYPE"
	}
	return "OBJECT"
}

// Unreachability is one report that an object became unreachable.
//
// The same id can be reported more than once: when a walk reaches it twice,
// or when an edge re-added a collected object that is later collected
// again. MemInsight's row output keeps the last report of each id.
type Unreachability struct {
	ID int32
	// Time is the logical time at which the object became unreachable: the
	// flush or function exit that reclaimed it, or, for an object collected
	// as (or through) a garbage cycle, the Merlin stamp: the time its last
	// path from a root died.
	Time int64
	// Loc is the location of the entry that decided it (a flush location, a
	// function-exit range, the statement that cut the last path, or
	// LocEndOfProgram). Where is Loc resolved, nil if the trace never
	// mapped it.
	Loc   Loc
	Where *Location
	// AllocSite is the object's allocation site at this moment (after any
	// earlier UPDATE_IID), nil if the object was never created.
	AllocSite *Location
	// OutDegree is the object's number of outgoing edges when reported.
	OutDegree int
}

// DebugEvent is a DEBUG entry (a jalangiRC(x) call in a test program),
// processed after the forced cycle collection that DEBUG triggers.
type DebugEvent struct {
	Time      int64
	CallSite  Loc
	Where     *Location // CallSite resolved, nil if unmapped
	ID        int32
	AllocSite *Location // nil if the object has no allocation site
	RefCount  int       // the object's in-degree after the collection
}

// CreateEvent reports a new object.
type CreateEvent struct {
	ID   int32
	Kind ObjectKind
	Site Loc
	Time int64
}

// CallEvent reports a function entry or exit.
type CallEvent struct {
	Time int64
	// FunID is the called function object (entries only).
	FunID int32
	// Loc is the function-enter location on entry and the exit's location
	// (the whole function range) on exit.
	Loc Loc
	// CallSite is the call's location (entries only; LocUnknown for
	// FUNCTION_ENTER entries).
	CallSite Loc
	Context  *Context
}

// EndEvent is delivered once, at the end of the trace, after the final
// collection.
type EndEvent struct {
	// Time is the time of the last counted entry (-1 for none).
	Time int64
	// Remaining lists the graph vertices left after the final collection,
	// in insertion order: object ids in decimal and contexts as "C(name)".
	// It is almost always empty; the live contexts of calls that never
	// returned stay.
	Remaining []string
}

// Listener receives the engine's events. Embed NopListener to implement
// only some of them. Listeners must not call back into the Engine except
// for its query methods (Location, AllocSite, RefCount, Index, Offset).
type Listener interface {
	// Unreachable is called for every unreachability report, in the
	// order the engine makes them.
	Unreachable(u Unreachability)
	// Debug is called for each DEBUG entry.
	Debug(d DebugEvent)
	// Resurrected is called when calling a closure re-adds a context the
	// engine had already collected. context is the context's full name
	// "C(...)" and funID the called function.
	Resurrected(time int64, context string, funID int32)
	// Create is called for every CREATE_OBJ, CREATE_DOM_NODE (including
	// id 1) and, twice, for CREATE_FUN (function, then prototype).
	Create(c CreateEvent)
	// FunctionEnter and FunctionExit bracket every call.
	FunctionEnter(c CallEvent)
	FunctionExit(c CallEvent)
	// UpdateIID is called when an object's allocation site is re-set.
	UpdateIID(id int32, site Loc, time int64)
	// LastUse and EndLastUse forward the trace's last-use records.
	LastUse(id int32, useTime int64, site Loc)
	EndLastUse()
	// DOM events, forwarded with the current time.
	DOMRoot(id int32, time int64)
	AddDOMChild(parent, child int32, time int64)
	RemoveDOMChild(parent, child int32, time int64)
	// End is called once, at the end of the trace.
	End(e EndEvent)
}

// NopListener implements Listener with methods that do nothing.
type NopListener struct{}

func (NopListener) Unreachable(Unreachability)         {}
func (NopListener) Debug(DebugEvent)                   {}
func (NopListener) Resurrected(int64, string, int32)   {}
func (NopListener) Create(CreateEvent)                 {}
func (NopListener) FunctionEnter(CallEvent)            {}
func (NopListener) FunctionExit(CallEvent)             {}
func (NopListener) UpdateIID(int32, Loc, int64)        {}
func (NopListener) LastUse(int32, int64, Loc)          {}
func (NopListener) EndLastUse()                        {}
func (NopListener) DOMRoot(int32, int64)               {}
func (NopListener) AddDOMChild(int32, int32, int64)    {}
func (NopListener) RemoveDOMChild(int32, int32, int64) {}
func (NopListener) End(EndEvent)                       {}
