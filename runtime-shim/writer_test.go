package runtimeshim

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"unicode/utf16"
)

// TestWriterEncoding runs src/writer.js under node on entries chosen to
// reach its edges: site strings that share a cache slot (iids 2^14 apart),
// the same iid in two scripts, negative and extreme values, strings with
// non-ASCII text, a string longer than the buffer (streamed), and enough
// entries to hand over several buffers. The bytes must be the spec's
// encoding, computed here independently.
func TestWriterEncoding(t *testing.T) {
	node := nodeOrSkip(t)
	dir := srcModules(t, "writer")
	type site struct{ sid, iid int32 }
	sites := []site{{1, 5}, {1, 5 + 1<<14}, {1, 5}, {2, 5}, {1, 5}, {0, -1}, {7, 1<<14 - 1}, {2147483647, -2147483648},
		{-2147483648, 2147483647}, {3, 0}, {3, 1 << 14}, {3, 0}}
	long := bytes.Repeat([]byte("é-ü"), 200000) // 600,000 UTF-16 units: 1.2 MB, over the 1 MiB buffer
	script := `
import * as w from './writer.mjs';
import * as fs from 'node:fs';
const out = fs.openSync(process.argv[2], 'w');
// keep (argument 5): the sink keeps up to a block's tail of each hand-over
// at a place of its choosing in the first block (as direct I/O does) and
// writes it with the next.
const keep = process.argv[5] === 'keep';
let tailAt = 0, tailLen = 0, seed = 1;
const rnd = (n) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
w.setSink((b, from, to) => {
  if (!keep) { fs.writeSync(out, b, from, to - from); return 0; }
  if (tailLen > 0) {
    if (from !== tailAt + tailLen) throw new Error('the writer did not start after the tail');
    from = tailAt;
  }
  const n = to - from, k = Math.min(n, rnd(4096)), at = rnd(4096);
  fs.writeSync(out, b, from, n - k);
  b.copyWithin(at, to - k, to);
  tailAt = at; tailLen = k;
  return at + k;
});
const sites = JSON.parse(process.argv[3]);
const long = fs.readFileSync(process.argv[4], 'utf8');
for (let r = 0; r < 8000; r++) {
  for (const [sid, iid] of sites) { w.need(1 + w.SITE_MAX); w.u8(8); w.site(sid, iid); }
  w.need(5); w.e1(7, r);
  w.need(9); w.e2(5, -r, 2147483647);
  w.need(13); w.e3(2, r, -1, -2147483648);
  w.need(17); w.e4(18, 1, 2, 3, r);
  const s = 'x' + r + '\u00e9\ud83d\ude00';
  w.need(13 + 2 * s.length); w.u8(0); w.i32(r); w.str(s); w.i32(0);
}
w.need(5 + 2 * long.length); w.u8(19); w.str(long);
w.need(1); w.u8(24);
w.flush();
if (tailLen > 0) fs.writeSync(out, w.buffer(), tailAt, tailLen);
if (w.bytes() !== fs.fstatSync(out).size) throw new Error('bytes() ' + w.bytes());
`
	if err := os.WriteFile(filepath.Join(dir, "run.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "long.txt"), long, 0o644); err != nil {
		t.Fatal(err)
	}
	js := "["
	for i, s := range sites {
		if i > 0 {
			js += ","
		}
		js += "[" + strconv.Itoa(int(s.sid)) + "," + strconv.Itoa(int(s.iid)) + "]"
	}
	js += "]"
	run := func(mode string) []byte {
		outPath := filepath.Join(dir, mode+".bin")
		cmd := exec.Command(node, filepath.Join(dir, "run.mjs"), outPath, js, filepath.Join(dir, "long.txt"), mode)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node (%s): %v\n%s", mode, err, out)
		}
		got, err := os.ReadFile(outPath)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	var want bytes.Buffer
	i32 := func(v int32) { binary.Write(&want, binary.BigEndian, v) }
	str := func(s string) {
		u := utf16.Encode([]rune(s))
		i32(int32(2 * len(u)))
		for _, c := range u {
			binary.Write(&want, binary.LittleEndian, c)
		}
	}
	for r := int32(0); r < 8000; r++ {
		for _, s := range sites {
			want.WriteByte(8)
			str(strconv.Itoa(int(s.sid)) + ":" + strconv.Itoa(int(s.iid)))
		}
		want.WriteByte(7)
		i32(r)
		want.WriteByte(5)
		i32(-r)
		i32(2147483647)
		want.WriteByte(2)
		i32(r)
		i32(-1)
		i32(-2147483648)
		want.WriteByte(18)
		for _, v := range []int32{1, 2, 3, r} {
			i32(v)
		}
		want.WriteByte(0)
		i32(r)
		str("x" + strconv.Itoa(int(r)) + "é😀")
		i32(0)
	}
	want.WriteByte(19)
	str(string(long))
	want.WriteByte(24)
	// plain: the sink writes what it is given; keep: it keeps tails in the
	// writer's buffer, as direct I/O does.
	for _, mode := range []string{"plain", "keep"} {
		got := run(mode)
		if !bytes.Equal(got, want.Bytes()) {
			n := 0
			for n < len(got) && n < len(want.Bytes()) && got[n] == want.Bytes()[n] {
				n++
			}
			t.Fatalf("%s: encoding differs at byte %d of %d (want %d bytes)", mode, n, len(got), want.Len())
		}
		if len(got) < 3<<20 {
			t.Fatalf("only %d bytes: the test must hand over several buffers", len(got))
		}
	}
}
