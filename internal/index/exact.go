package index

import (
	"encoding/json"
	"maps"
	"net/url"
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
	// aside), "url" (the same URL: one address fetched twice, see
	// AddOptions.Exact) or "slug" (URLs with the same article slug,
	// AddOptions.Slug).
	By string `json:"by"`
	// Slug is the slug the two URLs share, when By is "slug".
	Slug string `json:"slug,omitempty"`
	// Removed is set when what By says was equal was equal between the
	// copy and a document since removed, whose place the other document
	// of the mark took (see heirs): the two share neither content nor URL.
	Removed bool `json:"removed,omitempty"`
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

// SlugKey is the exact key of an article slug on a site (a host, lower
// case, without "www."): the same slug on two sites is two keys.
func SlugKey(site, slug string) uint64 { return xxh3.HashStringSeed(site+"/"+slug, slugSeed) }

// slugWindow is how far apart two dated documents of one slug may be
// published and be copies: a story a site publishes again under another
// address does so within days, while a headline it repeats a week on
// ("weather forecast for tuesday") heads another story.
const slugWindow = 2 * 24 * 60 * 60 // seconds

// siteOf returns the site of a URL for its slug keys: its host, lower
// case, without "www." and a port; "" when it has none.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

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
	// taken are, by document, the slug keys of stored documents too far
	// from it in time to be its original: the document, a new story under
	// the headline, takes them for the copies to come.
	taken map[int][]uint64
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
				s, site := slug(u), siteOf(u)
				if s == "" || site == "" || !headlineSlug(s, docs[i].Title) {
					continue
				}
				if key := SlugKey(site, s); !slices.ContainsFunc(ks, func(k exactKey) bool { return k.key == key }) {
					ks = append(ks, exactKey{key, ExactEvidence{By: "slug", Slug: s}})
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

// forget drops the keys of the stored document ord, removed by the add (a
// document replaced): no later document of the add is its copy, but a copy
// of its that took a key in its place (see heirs) is, as r now says.
func (e *exactKeys) forget(r store.Reader, ord int64) error {
	if e == nil {
		return nil
	}
	var keys []uint64
	for k, o := range e.found {
		if o == ord {
			delete(e.found, k)
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	found, err := r.Exact(keys)
	maps.Copy(e.found, found)
	return err
}

// copyOf returns the stored document that document i, of date date (Unix
// seconds, 0 when unknown), copies, and the evidence; nil when none. read
// reads a stored document (nil when it is not stored). A document the
// method skipped (too short, no units: see compared) is no document's
// original: it was never compared, and a copy of it is added as any
// document is, skipped for its own reason or compared. A document of its
// slug is its copy only when published within slugWindow of it.
func (e *exactKeys) copyOf(i int, date int64, read func(ord int64) (*store.Doc, error)) (*store.Doc, ExactEvidence, error) {
	if e == nil {
		return nil, ExactEvidence{}, nil
	}
	for _, k := range e.keys[i] {
		ord, ok := e.found[k.key]
		if !ok {
			continue
		}
		d, err := read(ord)
		if err != nil {
			return nil, ExactEvidence{}, err
		}
		if d == nil || !compared(d.Skip) {
			continue
		}
		if k.ev.By == "slug" && !nearDates(d.Date, date) {
			if e.taken == nil {
				e.taken = map[int][]uint64{}
			}
			e.taken[i] = append(e.taken[i], k.key)
			continue
		}
		return d, k.ev, nil
	}
	return nil, ExactEvidence{}, nil
}

// compared reports whether a stored document of skip reason skip was
// compared, or stands for one that was: an exact copy. A document the
// method skipped is in no cluster, and neither is a copy of it (see
// copyOf).
func compared(skip core.SkipReason) bool {
	return skip == core.SkipNone || skip == core.SkipExactCopy
}

// nearDates reports whether two dates (Unix seconds, 0 when unknown) are
// within slugWindow of each other; an unknown date is near any.
func nearDates(a, b int64) bool {
	return a == 0 || b == 0 || max(a-b, b-a) <= slugWindow
}

// stored records document i's keys as stored under ord, for the documents
// after it and the adds to come; the slug keys it takes from stories of
// its headline too far from it in time name it from now on.
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
	taken := e.taken[i]
	for _, k := range taken {
		e.found[k] = ord
	}
	if err := w.AddExact(keys, ord); err != nil {
		return err
	}
	return w.SetExact(taken, ord)
}

// addCopy stores an exact copy of stored document orig without sketching
// it, marked its duplicate, in its cluster.
func (x *Index) addCopy(w store.Writer, d *core.Document, sk *Sketch, at, place int64, orig *store.Doc, ev ExactEvidence, out *Match) (int64, error) {
	row := x.docRow(d, sk, at)
	row.Place = place
	row.Skip, out.Skip = core.SkipExactCopy, core.SkipExactCopy
	ord, err := w.Insert(row, nil)
	if err != nil {
		return 0, err
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return 0, err
	}
	if err := w.AddMarks([]store.Mark{{A: orig.Ord, B: ord, Method: ExactMethod, Score: 1, Label: core.Duplicate,
		Evidence: data, At: now()}}); err != nil {
		return 0, err
	}
	me := published{row.Date, ord, place}
	out.Pairs = append(out.Pairs, me.pair(orig, core.Pair{A: orig.ID, B: d.ID, Method: ExactMethod, Score: 1,
		Label: core.Duplicate, Original: me.original(orig, d.ID, core.Duplicate), Evidence: ev}))
	out.Cluster, err = x.place(w, ord, []*store.Doc{orig}, []float64{1}, true)
	return ord, err
}

// copiesStanding returns, by member of a cluster whose members are ms,
// how many exact copies a link to it counts for, as a cluster.Linker
// counts them (see cluster.Link.Copy and Linker.Add): a member an exact
// mark joins to an earlier member stands for what the earliest such member
// stands for, that member itself when it stands for none, and a link to a
// member counts for the copies standing for what it stands for, which were
// never compared. It reads the exact marks of the members in one query.
func copiesStanding(r store.Reader, ms []int64) (map[int64]int, error) {
	if len(ms) < 2 {
		return nil, nil
	}
	marks, err := r.MethodMarks(ExactMethod, ms)
	if err != nil || len(marks) == 0 {
		return nil, err
	}
	in := make(map[int64]bool, len(ms))
	for _, o := range ms {
		in[o] = true
	}
	up := map[int64]int64{} // a copy → the earliest member an exact mark joins it to
	for _, m := range marks {
		a, b := min(m.A, m.B), max(m.A, m.B)
		if u, ok := up[b]; in[a] && in[b] && (!ok || a < u) {
			up[b] = a
		}
	}
	root := func(o int64) int64 {
		for u, ok := up[o]; ok; u, ok = up[o] {
			o = u
		}
		return o
	}
	counts := make(map[int64]int, len(up))
	for c := range up {
		counts[root(c)]++
	}
	out := make(map[int64]int, len(ms))
	for _, o := range ms {
		if n := counts[root(o)]; n > 0 {
			out[o] = n
		}
	}
	return out, nil
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
