package extract_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/source"
)

func ExamplePage() {
	body := `<html lang="en"><head><title>Ferry returns</title></head><body>
<nav><a href="/">Home</a></nav><article><h1>Ferry returns</h1>
<p>The harbour authority reopened the ferry line between the islands on Monday.</p><p>The old pier was rebuilt with money from the regional budget.</p>
<p style="display:none">Subscribe!</p></article></body></html>`
	a, skip, err := extract.Page(context.Background(), extract.Input{URL: "https://port.example/ferry", Body: []byte(body)},
		extract.Options{MinChars: -1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("skip=%q lang=%s title=%s\n%s\n", skip, a.Lang, a.Title, a.Text)
	// Output:
	// skip="" lang=en title=Ferry returns
	// The harbour authority reopened the ferry line between the islands on Monday.
	//
	// The old pier was rebuilt with money from the regional budget.
}

// A reader of mixed inputs hands pages from package source to a Batch and
// turns each result into a document or a skip.
func ExampleBatch_Run() {
	walk := func(fn func(source.Page) error) error {
		pages := []source.Page{
			{ID: "a.html", Body: []byte("<p>" + strings.Repeat("A long enough article sentence. ", 20) + "</p>")},
			{ID: "logo.png", Body: []byte("\x89PNG\r\n\x1a\n")},
		}
		for _, p := range pages {
			if err := fn(p); err != nil {
				return err
			}
		}
		return nil
	}
	err := extract.Batch{}.Run(context.Background(), walk, func(r extract.Result) error {
		if r.Skip != "" {
			fmt.Printf("%s: skipped (%s)\n", r.ID, r.Skip)
			return nil
		}
		fmt.Printf("%s: %d characters\n", r.ID, len(r.Article.Text))
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// a.html: 639 characters
	// logo.png: skipped (not-html)
}
