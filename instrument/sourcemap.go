package instrument

import (
	"encoding/json"
	"errors"
	"fmt"
)

// A mapping is one segment of a source map: the generated column it
// starts at and the original position it comes from. Lines and columns are
// 0-based; columns count UTF-16 code units, as source maps do (esbuild's
// printer counts them so too).
type mapping struct {
	genCol, srcLine, srcCol int32
}

// A sourceMap holds the mappings of a single-source map by generated line,
// each line's segments in increasing generated column.
type sourceMap struct {
	lines [][]mapping
}

// parseSourceMap reads a version 3 source map with one source (what
// esbuild's Transform writes) and decodes its mappings.
func parseSourceMap(data []byte) (*sourceMap, error) {
	var raw struct {
		Version  int      `json:"version"`
		Sources  []string `json:"sources"`
		Mappings string   `json:"mappings"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("source map: %w", err)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map: version %d, want 3", raw.Version)
	}
	if len(raw.Sources) > 1 {
		return nil, fmt.Errorf("source map: %d sources, want one", len(raw.Sources))
	}
	lines, err := decodeMappings(raw.Mappings)
	if err != nil {
		return nil, err
	}
	return &sourceMap{lines: lines}, nil
}

// base64 digit values; -1 for bytes that are not digits.
var vlqDigit = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = int8(i)
	}
	return t
}()

// decodeVLQ reads one base64 VLQ number from s at i: five value bits per
// digit, least significant group first, bit 5 set on every digit but the
// last; the lowest bit of the result is the sign.
func decodeVLQ(s string, i int) (v int32, next int, err error) {
	var acc uint32
	shift := uint(0)
	for {
		if i >= len(s) {
			return 0, i, errors.New("source map: mappings end inside a number")
		}
		d := vlqDigit[s[i]]
		if d < 0 {
			return 0, i, fmt.Errorf("source map: mappings: %q is not a base64 digit", s[i])
		}
		i++
		if shift > 30 {
			return 0, i, errors.New("source map: mappings: number too large")
		}
		acc |= uint32(d&31) << shift
		shift += 5
		if d&32 == 0 {
			break
		}
	}
	v = int32(acc >> 1)
	if acc&1 != 0 {
		v = -v
	}
	return v, i, nil
}

// decodeMappings decodes a mappings string: generated lines separated by
// ';', segments by ','; a segment is 1, 4 or 5 VLQ fields (generated
// column, source index, source line, source column, name), each relative
// to the previous segment's (the generated column only within its line).
// Segments without a source position are dropped.
func decodeMappings(s string) ([][]mapping, error) {
	var lines [][]mapping
	var cur []mapping
	var genCol, src, srcLine, srcCol, name int32
	var fields [5]int32
	for i := 0; i <= len(s); {
		if i == len(s) || s[i] == ';' {
			lines = append(lines, cur)
			cur, genCol = nil, 0
			i++
			continue
		}
		if s[i] == ',' {
			i++
			continue
		}
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if n == len(fields) {
				return nil, errors.New("source map: mappings: segment with more than 5 fields")
			}
			var err error
			fields[n], i, err = decodeVLQ(s, i)
			if err != nil {
				return nil, err
			}
			n++
		}
		switch n {
		case 1:
			genCol += fields[0]
			continue
		case 4, 5:
		default:
			return nil, fmt.Errorf("source map: mappings: segment with %d fields", n)
		}
		genCol += fields[0]
		src += fields[1]
		srcLine += fields[2]
		srcCol += fields[3]
		if n == 5 {
			name += fields[4]
		}
		if genCol < 0 || srcLine < 0 || srcCol < 0 || src != 0 {
			return nil, errors.New("source map: mappings: position out of range")
		}
		cur = append(cur, mapping{genCol, srcLine, srcCol})
	}
	// esbuild sorts each line's segments; sort defensively (few are out of
	// order, if any).
	for _, l := range lines {
		for j := 1; j < len(l); j++ {
			for k := j; k > 0 && l[k].genCol < l[k-1].genCol; k-- {
				l[k], l[k-1] = l[k-1], l[k]
			}
		}
	}
	return lines, nil
}

// lookup finds the mapping that covers the generated position (0-based
// line, UTF-16 column): the last segment at or before it on its line, and
// whether that segment is on the position's own line (then the caller may
// shift by the column distance). With none on its line, the last segment
// of the closest earlier line that has one; with none before it at all,
// the first segment of the map. ok is false for a map without segments.
func (m *sourceMap) lookup(line, col int32) (seg mapping, sameLine, ok bool) {
	if line >= 0 && int(line) < len(m.lines) {
		l := m.lines[line]
		// Binary search for the last segment with genCol <= col.
		lo, hi := 0, len(l)
		for lo < hi {
			mid := (lo + hi) / 2
			if l[mid].genCol <= col {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo > 0 {
			return l[lo-1], true, true
		}
	}
	for k := min(int(line), len(m.lines)) - 1; k >= 0; k-- {
		if l := m.lines[k]; len(l) > 0 {
			return l[len(l)-1], false, true
		}
	}
	for _, l := range m.lines {
		if len(l) > 0 {
			return l[0], false, true
		}
	}
	return mapping{}, false, false
}

// next returns the first segment after the generated position, on its line
// or a later one.
func (m *sourceMap) next(line, col int32) (mapping, bool) {
	for k := max(int(line), 0); k < len(m.lines); k++ {
		for _, s := range m.lines[k] {
			if k > int(line) || s.genCol > col {
				return s, true
			}
		}
	}
	return mapping{}, false
}
