package lifetime

// Multi returns a Listener that forwards every event to each of ls in
// order (nil entries are skipped).
func Multi(ls ...Listener) Listener {
	var m multi
	for _, l := range ls {
		if l != nil {
			m = append(m, l)
		}
	}
	if len(m) == 1 {
		return m[0]
	}
	return m
}

type multi []Listener

func (m multi) Unreachable(u Unreachability) {
	for _, l := range m {
		l.Unreachable(u)
	}
}

func (m multi) Debug(d DebugEvent) {
	for _, l := range m {
		l.Debug(d)
	}
}

func (m multi) Resurrected(time int64, context string, funID int32) {
	for _, l := range m {
		l.Resurrected(time, context, funID)
	}
}

func (m multi) Create(c CreateEvent) {
	for _, l := range m {
		l.Create(c)
	}
}

func (m multi) FunctionEnter(c CallEvent) {
	for _, l := range m {
		l.FunctionEnter(c)
	}
}

func (m multi) FunctionExit(c CallEvent) {
	for _, l := range m {
		l.FunctionExit(c)
	}
}

func (m multi) UpdateIID(id int32, site Loc, time int64) {
	for _, l := range m {
		l.UpdateIID(id, site, time)
	}
}

func (m multi) LastUse(id int32, useTime int64, site Loc) {
	for _, l := range m {
		l.LastUse(id, useTime, site)
	}
}

func (m multi) EndLastUse() {
	for _, l := range m {
		l.EndLastUse()
	}
}

func (m multi) DOMRoot(id int32, time int64) {
	for _, l := range m {
		l.DOMRoot(id, time)
	}
}

func (m multi) AddDOMChild(parent, child int32, time int64) {
	for _, l := range m {
		l.AddDOMChild(parent, child, time)
	}
}

func (m multi) RemoveDOMChild(parent, child int32, time int64) {
	for _, l := range m {
		l.RemoveDOMChild(parent, child, time)
	}
}

func (m multi) End(e EndEvent) {
	for _, l := range m {
		l.End(e)
	}
}
