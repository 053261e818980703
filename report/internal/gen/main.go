// Command gen bundles the report page's front-end, report/web/src, into
// report/web/dist/report.js and report.css, which package report embeds.
// Run it with go generate in report (it needs report/web/node_modules:
// npm ci --prefix report/web); commit both outputs.
//
// For developing the page, -sample IN.json -o OUT.html writes a whole
// report instead (the page's HTML shell, the document IN.json and the
// bundle as built now) and leaves dist alone:
//
//	go run ./internal/gen -sample testdata/sample.json -o /tmp/report.html
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"html"
	"log"
	"os"
	"path/filepath"

	"github.com/memtrace/memtrace/report/internal/webbundle"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen: ")
	web := flag.String("web", "web", "the front-end's `directory`")
	sample := flag.String("sample", "", "write a whole report of the data document `IN.json` (with -o) instead of the bundles")
	out := flag.String("o", "", "the report's `file` (with -sample)")
	flag.Parse()
	if flag.NArg() > 0 || (*sample == "") != (*out == "") {
		flag.Usage()
		os.Exit(2)
	}
	js, css, err := webbundle.Build(*web)
	if err != nil {
		log.Fatal(err)
	}
	if *sample != "" {
		doc, err := os.ReadFile(*sample)
		if err != nil {
			log.Fatal(err)
		}
		page, err := Page(doc, js, css)
		if err != nil {
			log.Fatalf("%s: %v", *sample, err)
		}
		if err := os.WriteFile(*out, page, 0o644); err != nil {
			log.Fatal(err)
		}
		return
	}
	dist := filepath.Join(*web, "dist")
	if err := os.MkdirAll(dist, 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "report.js"), js, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "report.css"), css, 0o644); err != nil {
		log.Fatal(err)
	}
}

// Page is a whole report: the HTML shell of the report's schema with the
// data document doc (compacted, '<' written \u003c) and the bundles.
func Page(doc, js, css []byte) ([]byte, error) {
	var data bytes.Buffer
	if err := json.Compact(&data, doc); err != nil {
		return nil, err
	}
	var head struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(doc, &head); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8">` + "\n")
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">` + "\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	b.WriteString(`<meta name="color-scheme" content="light dark">` + "\n")
	b.WriteString(`<title>memtrace report: ` + html.EscapeString(head.Title) + "</title>\n")
	b.WriteString("<style>")
	b.Write(css)
	b.WriteString("</style>\n</head><body>\n<noscript>This report needs JavaScript.</noscript>\n<div id=\"app\"></div>\n")
	b.WriteString(`<script id="memtrace-data" type="application/json">`)
	b.Write(bytes.ReplaceAll(data.Bytes(), []byte("<"), []byte(`\u003c`)))
	b.WriteString("</script>\n<script>")
	b.Write(js)
	b.WriteString("</script>\n</body></html>\n")
	return b.Bytes(), nil
}
