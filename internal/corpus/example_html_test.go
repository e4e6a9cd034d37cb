package corpus_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
)

// An HTML page is one document: its article, found by package extract.
// Doc.Raw is the article as `neardup extract` writes it.
func ExampleOpenReader_html() {
	page := `<html lang="en"><head><title>Ferry returns</title></head><body>
<nav><a href="/">Home</a> <a href="/local">Local</a></nav>
<article><h1>Ferry returns</h1><p>The harbour ferry returned to service on Monday after six weeks in dry dock.</p>
<p>Engineers replaced both propeller shafts and repainted the hull.</p></article>
<footer>Copyright 2024 Port News</footer></body></html>`
	opts := corpus.Options{Extract: extract.Options{MinChars: 50}}
	r, err := corpus.OpenReader("ferry.html", strings.NewReader(page), opts)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %q\n%s\n", rec.Doc.ID, rec.Doc.Title, rec.Doc.Raw)
	}
	// Output:
	// ferry.html "Ferry returns"
	// {"id":"ferry.html","url":"","title":"Ferry returns","text":"The harbour ferry returned to service on Monday after six weeks in dry dock.\n\nEngineers replaced both propeller shafts and repainted the hull.","date":"","author":"","lang":"en"}
}
