package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/neardup/neardup/core"
)

// contentHashRef is ContentHash written plainly: the definition.
func contentHashRef(d *core.Document) uint64 {
	var b []byte
	for _, s := range [2]string{d.Title, d.Text} {
		for i, w := range strings.FieldsFunc(s, func(r rune) bool { return r < 0x80 && strings.ContainsRune(" \t\n\r\f\v", r) }) {
			if i > 0 {
				b = append(b, ' ')
			}
			for j := 0; j < len(w); j++ {
				c := w[j]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				b = append(b, c)
			}
		}
		b = append(b, 0)
	}
	return xxh3.Hash(b)
}

func TestContentHash(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("aB \t\n\r\f\vZz.é\x00\xff")
	for n := range 300 {
		size := r.IntN(12000)
		if n%3 == 0 {
			size = 4090 + r.IntN(20) // around the buffer's size
		}
		text := make([]byte, size)
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		d := &core.Document{Title: string(text[:min(len(text), r.IntN(50))]), Text: string(text)}
		if got, want := ContentHash(d), contentHashRef(d); got != want {
			t.Fatalf("text of %d bytes: %x, want %x", size, got, want)
		}
	}
	a := &core.Document{Title: "Big News", Text: "The  Council\n\nmet."}
	b := &core.Document{Title: "big news ", Text: " the council met."}
	if ContentHash(a) != ContentHash(b) {
		t.Error("case and white space changed the hash")
	}
	if ContentHash(a) == ContentHash(&core.Document{Title: "Big", Text: "News The Council met."}) {
		t.Error("moving words between title and text kept the hash")
	}
}

func BenchmarkContentHash(b *testing.B) {
	d := &core.Document{Title: "A headline", Text: strings.Repeat("The city council approved the new bridge on Tuesday. ", 40)}
	b.SetBytes(int64(len(d.Text)))
	for b.Loop() {
		ContentHash(d)
	}
}

// TestCopyKeyOf pins what a CopyKey tells apart: every byte of the title
// and text, where the title ends, and the date to the nanosecond; and
// nothing else (URL, source, id).
func TestCopyKeyOf(t *testing.T) {
	day := time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)
	base := core.Document{ID: "a", Title: "Harbour vote", Text: "The council voted.", Date: day, URL: "https://a.example/1", Source: "a"}
	same := base
	same.ID, same.URL, same.Source = "b", "https://b.example/2", "b"
	if CopyKeyOf(&base) != CopyKeyOf(&same) {
		t.Error("id, URL or source changed the key")
	}
	zoned := base
	zoned.Date = day.In(time.FixedZone("X", 3600))
	if CopyKeyOf(&base) != CopyKeyOf(&zoned) {
		t.Error("the same instant in another zone changed the key")
	}
	for name, change := range map[string]func(d *core.Document){
		"title":         func(d *core.Document) { d.Title = "Harbour Vote" },
		"text":          func(d *core.Document) { d.Text = "The council  voted." },
		"title's end":   func(d *core.Document) { d.Title, d.Text = "Harbour voteThe", " council voted." },
		"date":          func(d *core.Document) { d.Date = day.Add(time.Second) },
		"nanosecond":    func(d *core.Document) { d.Date = day.Add(1) },
		"no date":       func(d *core.Document) { d.Date = time.Time{} },
		"title as text": func(d *core.Document) { d.Title, d.Text = "", d.Title+d.Text },
	} {
		d := base
		change(&d)
		if CopyKeyOf(&d) == CopyKeyOf(&base) {
			t.Errorf("%s: the key did not change", name)
		}
	}
}
