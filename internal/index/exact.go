package index

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeebo/xxh3"
	"golang.org/x/text/unicode/norm"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// ExactMethod names the marks of exact copies (see AddOptions.Exact).
const ExactMethod = "exact"

// ExactEvidence is the evidence of an exact copy: what was equal.
type ExactEvidence struct {
	// By is "content" (the same title and text, white space and case
	// aside), "url" (the same canonical URL) or "slug" (URLs with the same
	// article slug, AddOptions.Slug).
	By string `json:"by"`
	// Slug is the slug the two URLs share, when By is "slug".
	Slug string `json:"slug,omitempty"`
}

// Method returns ExactMethod.
func (ExactEvidence) Method() string { return ExactMethod }

// urlSeed keeps URL keys apart from content hashes in one table, slugSeed
// slug keys.
const (
	urlSeed  uint64 = 0x75726c6b6579 // "urlkey"
	slugSeed uint64 = 0x736c75676b6579
)

// URLKey is the exact key of a canonical URL.
func URLKey(url string) uint64 { return xxh3.HashStringSeed(url, urlSeed) }

// SlugKey is the exact key of an article slug.
func SlugKey(slug string) uint64 { return xxh3.HashStringSeed(slug, slugSeed) }

// headlineSlug reports whether slug, words joined by "-", is made of the
// words of title, the document's headline: at least three of its words,
// and at least two thirds of them, are words of the title, case aside. A
// slug is a headline's words; a path segment of a section's name and an id
// ("/news/uk-england-london-68473622": "uk-england-london") is not, and
// every story of the section has it. Accents aside: sites write their
// slugs without them ("elections-europeennes" of "Élections européennes").
func headlineSlug(slug, title string) bool {
	words := strings.Split(withoutMarks(slug), "-")
	inTitle := strings.FieldsFunc(withoutMarks(strings.ToLower(title)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	n := 0
	for _, w := range words {
		if slices.Contains(inTitle, w) {
			n++
		}
	}
	return n >= 3 && 3*n >= 2*len(words)
}

// withoutMarks is s without its combining marks, decomposed (NFD): "é"
// is "e". Plain ASCII, most slugs, is returned as it is.
func withoutMarks(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}

// exactKey is one exact key of a document and what it stands for.
type exactKey struct {
	key uint64
	ev  ExactEvidence
}

// exactKeys are the exact keys of the documents of one add: each one's
// URL key, content hash and slug keys, the stored documents they name, and
// those of the documents of the add stored so far. A nil *exactKeys finds
// no copy.
type exactKeys struct {
	keys  [][]exactKey // by document, in the order they are looked up
	found map[uint64]int64
}

func newExactKeys(w store.Writer, docs []core.Document, sks []Sketch, slug func(string) string) (*exactKeys, error) {
	e := &exactKeys{keys: make([][]exactKey, len(docs))}
	var all []uint64
	for i := range docs {
		var ks []exactKey
		if docs[i].URL != "" {
			ks = append(ks, exactKey{URLKey(docs[i].URL), ExactEvidence{By: "url"}})
		}
		ks = append(ks, exactKey{sks[i].hash, ExactEvidence{By: "content"}})
		if slug != nil {
			for _, u := range []string{docs[i].ID, docs[i].URL} {
				if s := slug(u); s != "" && headlineSlug(s, docs[i].Title) && !slices.ContainsFunc(ks, func(k exactKey) bool { return k.ev.Slug == s }) {
					ks = append(ks, exactKey{SlugKey(s), ExactEvidence{By: "slug", Slug: s}})
				}
			}
		}
		e.keys[i] = ks
		for _, k := range ks {
			all = append(all, k.key)
		}
	}
	var err error
	e.found, err = w.Exact(all)
	return e, err
}

// copyOf returns the stored document document i copies, and the evidence;
// 0 when none.
func (e *exactKeys) copyOf(i int) (int64, ExactEvidence) {
	if e == nil {
		return 0, ExactEvidence{}
	}
	for _, k := range e.keys[i] {
		if ord, ok := e.found[k.key]; ok {
			return ord, k.ev
		}
	}
	return 0, ExactEvidence{}
}

// stored records document i's keys as stored under ord, for the documents
// after it and the adds to come.
func (e *exactKeys) stored(w store.Writer, i int, ord int64) error {
	if e == nil {
		return nil
	}
	keys := make([]uint64, 0, len(e.keys[i]))
	for _, k := range e.keys[i] {
		keys = append(keys, k.key)
		if _, ok := e.found[k.key]; !ok {
			e.found[k.key] = ord
		}
	}
	return w.AddExact(keys, ord)
}

// addCopy stores an exact copy of stored document orig without sketching
// it, marked its duplicate, in its cluster.
func (x *Index) addCopy(w store.Writer, d *core.Document, sk *Sketch, at int64, orig int64, ev ExactEvidence, out *Match) (int64, error) {
	row := x.docRow(d, sk, at)
	row.Skip, out.Skip = core.SkipExactCopy, core.SkipExactCopy
	ord, err := w.Insert(row, nil)
	if err != nil {
		return 0, err
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return 0, err
	}
	if err := w.AddMarks([]store.Mark{{A: orig, B: ord, Method: ExactMethod, Score: 1, Label: core.Duplicate,
		Evidence: data, At: now()}}); err != nil {
		return 0, err
	}
	docs, err := w.Docs([]int64{orig})
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	out.Pairs = append(out.Pairs, core.Pair{A: docs[0].ID, B: d.ID, Method: ExactMethod, Score: 1, Label: core.Duplicate,
		Original: published{row.Date, ord}.original(&docs[0], d.ID, core.Duplicate), Evidence: ev})
	out.Cluster, err = x.place(w, ord, []*store.Doc{&docs[0]}, []float64{1})
	return ord, err
}

// decodeEvidence reads a mark's evidence: the method's own, or an exact
// copy's.
func (x *Index) decodeEvidence(method string, data []byte) (core.Evidence, error) {
	if method == ExactMethod {
		var ev ExactEvidence
		err := json.Unmarshal(data, &ev)
		return ev, err
	}
	return x.spec.DecodeEvidence(data)
}
