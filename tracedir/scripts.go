package tracedir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/memtrace/memtrace/internal/safefs"
)

// scripts/ keeps the original source of scripts a trace names, for what
// reads a trace away from the machine that ran it (the report, a trace
// the collector received from a browser). A script is named as the
// trace's SCRIPT_ENTER names it: a path, a URL, "eval". That name never
// becomes a path: each source is stored under a file name of its own,
// a number and the name's last part reduced to safe characters
// (0001-app.js), and scripts/index.json maps names to files. The sources
// of Node programs are on disk too; memtrace node keeps none.

// IndexFile is scripts/' index.
const IndexFile = "index.json"

// Script is one entry of scripts/index.json.
type Script struct {
	Name   string `json:"name"`   // as the trace names it
	File   string `json:"file"`   // under scripts/
	Bytes  int    `json:"bytes"`  // the source's size
	SHA256 string `json:"sha256"` // of the source, hex
}

// Scripts is scripts/index.json.
type Scripts struct {
	Schema  int      `json:"schema"`
	Scripts []Script `json:"scripts"`
}

// WriteScripts stores the sources (by script name, in the order of names)
// under d's scripts/, with its index, replacing what an earlier run kept
// there. Each file is written as every file of the directory is (no link
// followed, a fresh temporary name renamed into place).
func WriteScripts(d *safefs.Dir, names []string, source func(name string) []byte) error {
	if err := d.RemoveAll(ScriptsDir); err != nil {
		return err
	}
	sd, err := d.Sub(ScriptsDir, 0o755, true)
	if err != nil {
		return err
	}
	defer sd.Close()
	idx := Scripts{Schema: SchemaVersion}
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		src := source(name)
		if src == nil {
			continue
		}
		file := fmt.Sprintf("%04d-%s", len(idx.Scripts)+1, SafeBase(name))
		if err := sd.WriteFile(file, src, 0o644); err != nil {
			return err
		}
		sum := sha256.Sum256(src)
		idx.Scripts = append(idx.Scripts, Script{Name: name, File: file, Bytes: len(src), SHA256: hex.EncodeToString(sum[:])})
	}
	b, err := json.MarshalIndent(&idx, "", "  ")
	if err != nil {
		return err
	}
	return sd.WriteFile(IndexFile, append(b, '\n'), 0o644)
}

// SafeBase is the last part of a name (a path's or a URL's, without its
// query) in letters, digits, '.', '-' and '_', at most 64 bytes, never
// starting with a dot; "script" when nothing is left. A file name made
// from it never leaves its directory.
func SafeBase(name string) string {
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name = name[:i]
	}
	name = strings.TrimRight(name, "/\\")
	if i := strings.LastIndexAny(name, "/\\"); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 64 {
			break
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if s == "" {
		return "script"
	}
	return s
}

// ReadScripts reads dir's scripts/index.json (none: an empty index).
func ReadScripts(dir string) (*Scripts, error) {
	b, err := os.ReadFile(filepath.Join(dir, ScriptsDir, IndexFile))
	if errors.Is(err, os.ErrNotExist) {
		return &Scripts{Schema: SchemaVersion}, nil
	}
	if err != nil {
		return nil, err
	}
	var s Scripts
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ScriptsDir, IndexFile), err)
	}
	if s.Schema > SchemaVersion {
		return nil, fmt.Errorf("%s: schema %d, newer than this memtrace reads (%d)", filepath.Join(dir, ScriptsDir, IndexFile), s.Schema, SchemaVersion)
	}
	return &s, nil
}

// ScriptSource returns the source dir keeps for the script named name,
// checked against its digest, or an error wrapping os.ErrNotExist when it
// keeps none. The file is opened under dir without following a link.
func ScriptSource(dir, name string) ([]byte, error) {
	idx, err := ReadScripts(dir)
	if err != nil {
		return nil, err
	}
	for _, s := range idx.Scripts {
		if s.Name != name {
			continue
		}
		if s.File != safeFile(s.File) {
			return nil, fmt.Errorf("%s: %q is not a file name of scripts/", filepath.Join(dir, ScriptsDir, IndexFile), s.File)
		}
		d, err := safefs.Open(filepath.Join(dir, ScriptsDir))
		if err != nil {
			return nil, err
		}
		defer d.Close()
		b, err := d.ReadFile(s.File)
		if err != nil {
			return nil, err
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != s.SHA256 {
			return nil, fmt.Errorf("%s: its content is not what the index says (changed since the trace was taken)", filepath.Join(dir, ScriptsDir, s.File))
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s keeps no source of %s: %w", filepath.Join(dir, ScriptsDir), name, os.ErrNotExist)
}

// safeFile is name when it is one file name of the form WriteScripts
// gives, else "".
func safeFile(name string) string {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || name == IndexFile {
		return ""
	}
	return name
}

// ScriptStore adds sources to a directory's scripts/ one at a time, as a
// collector receives them; the index is rewritten (whole) after each.
type ScriptStore struct {
	d    *safefs.Dir
	idx  Scripts
	seen map[string]bool
}

// OpenScriptStore opens d's scripts/ for adding, keeping what an earlier
// run of the same session stored there.
func OpenScriptStore(d *safefs.Dir) (*ScriptStore, error) {
	s := &ScriptStore{d: d, idx: Scripts{Schema: SchemaVersion}, seen: map[string]bool{}}
	if b, err := d.ReadFile(ScriptsDir + "/" + IndexFile); err == nil {
		if err := json.Unmarshal(b, &s.idx); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Path(ScriptsDir+"/"+IndexFile), err)
		}
		s.idx.Schema = SchemaVersion
		for _, sc := range s.idx.Scripts {
			s.seen[sc.Name] = true
		}
	}
	return s, nil
}

// Len is the number of sources stored.
func (s *ScriptStore) Len() int { return len(s.idx.Scripts) }

// Add stores src as the source of the script named name; a name stored
// already is kept as it was (false).
func (s *ScriptStore) Add(name string, src []byte) (bool, error) {
	if s.seen[name] {
		return false, nil
	}
	sd, err := s.d.Sub(ScriptsDir, 0o755, true)
	if err != nil {
		return false, err
	}
	defer sd.Close()
	file := fmt.Sprintf("%04d-%s", len(s.idx.Scripts)+1, SafeBase(name))
	if err := sd.WriteFile(file, src, 0o644); err != nil {
		return false, err
	}
	sum := sha256.Sum256(src)
	s.idx.Scripts = append(s.idx.Scripts, Script{Name: name, File: file, Bytes: len(src), SHA256: hex.EncodeToString(sum[:])})
	s.seen[name] = true
	b, err := json.MarshalIndent(&s.idx, "", "  ")
	if err != nil {
		return false, err
	}
	return true, sd.WriteFile(IndexFile, append(b, '\n'), 0o644)
}
