package corpus_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/neardup/neardup/internal/corpus"
)

func Example() {
	input := `{"id":"a","title":"Rates rise","text":"The central bank raised rates."}
{"title":"No body"}
{"id":7,"headline":"Shares fall","text":"Markets fell on Monday.","date":"2024-03-05"}
`
	r, err := corpus.OpenReader("news.jsonl", strings.NewReader(input), corpus.Options{})
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
			log.Fatal(err) // the input could not be read to its end
		}
		if rec.Skip != "" {
			fmt.Printf("skipped (%s): %v\n", rec.Skip, rec.Err)
			continue
		}
		fmt.Printf("%s %q %s\n", rec.Doc.ID, rec.Doc.Title, rec.Doc.Date.Format("2006-01-02"))
	}
	// Output:
	// a "Rates rise" 0001-01-01
	// skipped (empty): news.jsonl:2: field "text": missing
	// 7 "" 2024-03-05
}

// A pipeline cuts records on one goroutine and decodes them on others.
func ExampleReader_Decode() {
	r, err := corpus.OpenReader("in.csv", strings.NewReader("id,text\n1,one\n2,two\n3,three\n"), corpus.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	raws := make(chan corpus.Raw)
	results := make(chan corpus.Record)
	go func() {
		defer close(raws)
		for {
			raw, err := r.NextRaw()
			if err != nil {
				return // io.EOF, or a fatal error a real program reports
			}
			raws <- raw
		}
	}()
	go func() {
		defer close(results)
		for raw := range raws {
			results <- r.Decode(raw) // safe on any number of goroutines
		}
	}()
	for rec := range results {
		fmt.Println(rec.Doc.ID, rec.Doc.Text, string(rec.Doc.Raw))
	}
	// Output:
	// 1 one {"id":"1","text":"one"}
	// 2 two {"id":"2","text":"two"}
	// 3 three {"id":"3","text":"three"}
}
