package webui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
)

// benchDocs is the size of the index the page benchmarks read.
const benchDocs = 5000

// BenchmarkPages measures each read page over an index of 5,000
// documents, a third of them with a reprint (ns/op is one page served).
func BenchmarkPages(b *testing.B) {
	f := newBenchFixture(b)
	var docs []core.Document
	for i := range benchDocs {
		s := f.gen.Sentences(12)
		docs = append(docs, core.Document{ID: fmt.Sprint("d", i), Title: fmt.Sprint("Story ", i), Source: fmt.Sprint("s", i%7),
			Text: strings.Join(s, " ")})
		if i%3 == 0 {
			s[1] = f.gen.Sentence()
			docs = append(docs, core.Document{ID: fmt.Sprint("c", i), Title: fmt.Sprint("Reprint ", i), Source: "reprints",
				Text: strings.Join(s, " ")})
		}
	}
	for lo := 0; lo < len(docs); lo += 1000 {
		f.add(docs[lo:min(lo+1000, len(docs))]...)
	}
	doc, err := f.x.Document(b.Context(), "c300")
	if err != nil || doc.Cluster == 0 {
		b.Fatalf("c300: %v, cluster %d", err, doc.Cluster)
	}
	for _, p := range []string{"/", "/?label=duplicate", "/?source=s3&page=5", "/clusters", fmt.Sprint("/clusters/", doc.Cluster),
		"/documents/c300", "/diff?a=d300&b=c300", "/search?q=" + strings.Fields(docs[600].Text)[3]} {
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				w := httptest.NewRecorder()
				f.h.ServeHTTP(w, httptest.NewRequest("GET", p, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", p, w.Code)
				}
			}
		})
	}
}
