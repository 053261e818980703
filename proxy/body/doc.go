// Package body turns the body of an HTTP response into text the rewriting
// proxy can edit, and the edited text back into bytes a browser reads the
// way it would have read the original.
//
// Three steps, each a function of its own so the proxy can stop at any of
// them and serve the response unchanged (every failure here means "do not
// rewrite", never "fail the page"):
//
//   - Content codings: [Decode] undoes a Content-Encoding (gzip, deflate, br,
//     zstd, stacked in any order) within a size limit, so that what a
//     decompression bomb costs in memory is bounded by the limit, not by
//     what the bomb would inflate to. The proxy sends
//     what it rewrote without a coding, so there is no encoder.
//
//   - Character encodings, found as browsers find them (the WHATWG Encoding
//     Standard's labels and the HTML Standard's sniffing): [HTMLCharset] for
//     a page, [ScriptCharset] for a script, [Lookup] for a label; [ToUTF8]
//     decodes with the browsers' replacement of invalid input (refusing
//     where its decoder and browsers could disagree); [FromUTF8] encodes
//     back and fails, rather than substituting, on a character the
//     encoding cannot hold; [BOM] gives the byte order mark to put back in
//     front when the original had one (ToUTF8 drops it, and sniffing ranks
//     it above any declaration).
//
//   - [JSASCII] rewrites JavaScript so that it is pure ASCII with the same
//     meaning. A page in a legacy encoding can then receive scripts that
//     memtrace wrote in UTF-8 (the instrumented copy of one of its own
//     scripts, say), whatever that encoding can represent.
//
// Encoding names are the WHATWG's canonical names in lower case
// ("utf-8", "windows-1252", "shift_jis", "utf-16le", ...); every function
// that takes one also accepts any label the standard defines for it
// ("latin1", "sjis", "utf8", ...).
//
// The package imports nothing of memtrace's.
package body
