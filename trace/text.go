package trace

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// AppendText appends the text form of e used by MemInsight's golden files
// (binaryTraceParser.ts): a JSON array of the type and the fields in their
// binary order, strings JSON-quoted, a FREE_VARS list as a JSON array or the
// string "ANY". No newline is added.
func AppendText(dst []byte, e *Entry) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(e.Kind), 10)
	num := func(v int32) {
		dst = append(dst, ',')
		dst = strconv.AppendInt(dst, int64(v), 10)
	}
	str := func(s string) {
		dst = append(dst, ',')
		dst = AppendQuoted(dst, s)
	}
	switch e.Kind {
	case Declare, Write:
		num(e.IID)
		str(e.Name)
		num(e.Obj)
	case CreateObj, CreateDOMNode, Debug, FunctionEnter:
		num(e.IID)
		num(e.Obj)
	case CreateFun:
		num(e.IID)
		num(e.FunIID)
		num(e.Obj)
	case PutField, AddToChildSet, RemoveFromChildSet:
		num(e.IID)
		num(e.Base)
		str(e.Name)
		num(e.Obj)
	case LastUse:
		num(e.Obj)
		num(e.UseTime)
		str(e.Name)
	case FunctionExit, ScriptExit:
		num(e.IID)
	case Return, DOMRoot:
		num(e.Obj)
	case UpdateCurrentScript:
		num(e.SID)
	case TopLevelFlush:
		str(e.Name)
	case UpdateIID:
		num(e.Obj)
		num(e.IID)
	case AddDOMChild, RemoveDOMChild:
		num(e.Base)
		num(e.Obj)
	case Call:
		num(e.IID)
		num(e.Obj)
		num(e.FunIID)
		num(e.SID)
	case ScriptEnter:
		num(e.IID)
		num(e.SID)
		str(e.Name)
	case FreeVars:
		num(e.IID)
		if e.AnyVars {
			str(e.Name)
		} else {
			dst = append(dst, ',', '[')
			for i, s := range e.Names {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = AppendQuoted(dst, s)
			}
			dst = append(dst, ']')
		}
	case SourceMapping:
		num(e.IID)
		for _, v := range e.Range {
			num(v)
		}
	}
	return append(dst, ']')
}

// ParseText parses one entry in the text form written by AppendText.
func ParseText(line string) (Entry, error) {
	p := textParser{s: line}
	e, err := p.entry()
	if err != nil {
		return Entry{}, fmt.Errorf("column %d: %w", p.i+1, err)
	}
	return e, nil
}

type textParser struct {
	s string
	i int
}

func (p *textParser) ws() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *textParser) expect(c byte) error {
	p.ws()
	if p.i >= len(p.s) || p.s[p.i] != c {
		return fmt.Errorf("expected %q", c)
	}
	p.i++
	return nil
}

func (p *textParser) peek() byte {
	p.ws()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

func (p *textParser) int() (int32, error) {
	p.ws()
	j := p.i
	if j < len(p.s) && p.s[j] == '-' {
		j++
	}
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseInt(p.s[p.i:j], 10, 32)
	if err != nil {
		return 0, fmt.Errorf("expected a 32-bit integer")
	}
	p.i = j
	return int32(v), nil
}

func (p *textParser) str() (string, error) {
	if err := p.expect('"'); err != nil {
		return "", err
	}
	var out []byte
	for {
		if p.i >= len(p.s) {
			return "", fmt.Errorf("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", fmt.Errorf("control character in string")
		case c != '\\':
			out = append(out, c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			return "", fmt.Errorf("unterminated escape")
		}
		c = p.s[p.i]
		p.i++
		switch c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			u, err := p.hex4()
			if err != nil {
				return "", err
			}
			if u >= 0xD800 && u < 0xDC00 && p.i+6 <= len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
				save := p.i
				p.i += 2
				u2, err := p.hex4()
				if err == nil && u2 >= 0xDC00 && u2 < 0xE000 {
					out = utf8.AppendRune(out, 0x10000+(u-0xD800)<<10+(u2-0xDC00))
					continue
				}
				p.i = save
			}
			if u >= 0xD800 && u < 0xE000 {
				out = appendSurrogate(out, u)
			} else {
				out = utf8.AppendRune(out, u)
			}
		default:
			return "", fmt.Errorf("bad escape \\%c", c)
		}
	}
}

func (p *textParser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, fmt.Errorf("bad \\u escape")
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 16)
	if err != nil {
		return 0, fmt.Errorf("bad \\u escape")
	}
	p.i += 4
	return rune(v), nil
}

func (p *textParser) entry() (Entry, error) {
	var e Entry
	if err := p.expect('['); err != nil {
		return e, err
	}
	k, err := p.int()
	if err != nil {
		return e, err
	}
	if k < 0 || k >= NumKinds {
		return e, fmt.Errorf("unknown entry type %d", k)
	}
	e.Kind = Kind(k)
	num := func(dst *int32) {
		if err == nil {
			if err = p.expect(','); err == nil {
				*dst, err = p.int()
			}
		}
	}
	str := func(dst *string) {
		if err == nil {
			if err = p.expect(','); err == nil {
				*dst, err = p.str()
			}
		}
	}
	switch e.Kind {
	case Declare, Write:
		num(&e.IID)
		str(&e.Name)
		num(&e.Obj)
	case CreateObj, CreateDOMNode, Debug, FunctionEnter:
		num(&e.IID)
		num(&e.Obj)
	case CreateFun:
		num(&e.IID)
		num(&e.FunIID)
		num(&e.Obj)
	case PutField, AddToChildSet, RemoveFromChildSet:
		num(&e.IID)
		num(&e.Base)
		str(&e.Name)
		num(&e.Obj)
	case LastUse:
		num(&e.Obj)
		num(&e.UseTime)
		str(&e.Name)
	case FunctionExit, ScriptExit:
		num(&e.IID)
	case Return, DOMRoot:
		num(&e.Obj)
	case UpdateCurrentScript:
		num(&e.SID)
	case TopLevelFlush:
		str(&e.Name)
	case UpdateIID:
		num(&e.Obj)
		num(&e.IID)
	case AddDOMChild, RemoveDOMChild:
		num(&e.Base)
		num(&e.Obj)
	case Call:
		num(&e.IID)
		num(&e.Obj)
		num(&e.FunIID)
		num(&e.SID)
	case ScriptEnter:
		num(&e.IID)
		num(&e.SID)
		str(&e.Name)
	case FreeVars:
		num(&e.IID)
		if err == nil {
			err = p.expect(',')
		}
		if err == nil {
			if p.peek() == '"' {
				e.AnyVars = true
				e.Name, err = p.str()
			} else if err = p.expect('['); err == nil {
				e.Names = []string{}
				for err == nil && p.peek() != ']' {
					if len(e.Names) > 0 {
						if err = p.expect(','); err != nil {
							break
						}
					}
					var s string
					if s, err = p.str(); err == nil {
						e.Names = append(e.Names, s)
					}
				}
				if err == nil {
					err = p.expect(']')
				}
			}
		}
	case SourceMapping:
		num(&e.IID)
		for i := range e.Range {
			num(&e.Range[i])
		}
	}
	if err != nil {
		return e, err
	}
	if err := p.expect(']'); err != nil {
		return e, err
	}
	p.ws()
	if p.i != len(p.s) {
		return e, fmt.Errorf("unexpected text after the entry")
	}
	return e, nil
}
