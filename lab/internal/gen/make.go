package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// DocRecord is one line of the documents output.
type DocRecord struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Text   string `json:"text"`
	Source string `json:"source"`
	URL    string `json:"url"`
	Date   string `json:"date"` // RFC 3339, UTC
}

// TruthRecord is one line of the truth output.
type TruthRecord struct {
	// ID is the document's id.
	ID string `json:"id"`
	// Cluster is the id of the original the document was made from; an
	// original's and a templated negative's cluster is its own id.
	Cluster string `json:"cluster"`
	// Base names the text: a base's ID, with "~k" for the k-th synthesised
	// variant and "~neg" for a templated negative.
	Base string `json:"base"`
	// Ops are the edits that made a copy, in the order applied; empty for
	// originals.
	Ops []Op `json:"ops"`
	// NegativeOf is, for a templated negative, the id of the document whose
	// template it reuses.
	NegativeOf string `json:"negative_of,omitempty"`
}

// Stream constants keep the random sources of the three kinds of slot apart.
const (
	streamOriginal = 0x243f6a8885a308d3
	streamCopy     = 0x13198a2e03707344
	streamNegative = 0xa4093822299f31d0
)

// maker builds documents for one worker; it is not safe for concurrent use.
type maker struct {
	g               *generator
	origSrc, ownSrc *rand.PCG
	origRng, ownRng *rand.Rand
	text            []byte   // the body of the last rendered document, reused
	sents           []string // scratch for synthesise
}

func newMaker(g *generator) *maker {
	m := &maker{g: g, origSrc: rand.NewPCG(0, 0), ownSrc: rand.NewPCG(0, 0)}
	m.origRng, m.ownRng = rand.New(m.origSrc), rand.New(m.ownSrc)
	return m
}

// original is an original article with its base name and site.
type original struct {
	a    *article
	base string
	site int
}

// original builds the original in slot s. It depends only on the seed and
// s, so a copy can rebuild the original it copies.
func (m *maker) original(s int) original {
	g := m.g
	m.origSrc.Seed(g.opts.Seed^streamOriginal, uint64(s))
	rng := m.origRng
	nb := len(g.bases)
	b := &g.bases[g.baseOrder[s%nb]]
	variant := s / nb
	var a *article
	name := b.id
	if variant == 0 {
		a = &article{title: b.title, place: b.place, date: b.date, paras: b.paras}
		a = a.clone()
	} else {
		a = g.synthesise(g.baseOrder[s%nb], variant, rng, m.sents)
		a.place = cities[rng.IntN(len(cities))]
		if !a.date.IsZero() {
			a.date = a.date.AddDate(0, 0, rng.IntN(1401)-700)
		}
		name = fmt.Sprintf("%s~%d", b.id, variant)
	}
	if a.date.IsZero() {
		a.date = randomDate(rng)
	}
	if a.place != "" {
		a.dateline = fmt.Sprintf("%s, %s %d -", a.place, a.date.Format("Jan"), a.date.Day())
	}
	return original{a: a, base: name, site: rng.IntN(len(sites))}
}

// randomDate returns a time in 2004 or 2005, the BBC corpus's years.
func randomDate(rng *rand.Rand) time.Time {
	start := time.Date(2004, 1, 1, 0, 0, 0, 0, time.UTC)
	return start.Add(time.Duration(rng.Int64N(int64(2*365*24*time.Hour))) / time.Second * time.Second)
}

// copyTries is how many originals a copy is drawn from before it is left
// out when no op of Options.Ops changes any of them.
const copyTries = 16

// make builds the document in slot s and its truth record. It reports false
// for a copy left out: no op of Options.Ops changed the copyTries originals
// drawn for it, and an unchanged original is no copy.
func (m *maker) make(s int) (DocRecord, TruthRecord, bool) {
	g := m.g
	id := g.id(s)
	switch {
	case s < g.nOrig:
		o := m.original(s)
		return m.render(id, o.a, o.site), TruthRecord{ID: id, Cluster: id, Base: o.base, Ops: []Op{}}, true
	case s < g.nOrig+g.nNeg:
		m.ownSrc.Seed(g.opts.Seed^streamNegative, uint64(s))
		rng := m.ownRng
		src := g.negSources[rng.IntN(len(g.negSources))]
		o := m.original(src)
		templateNegative(o.a, rng)
		o.a.date = o.a.date.AddDate(0, 0, 1+rng.IntN(90))
		o.a.place = cities[rng.IntN(len(cities))]
		o.a.dateline = fmt.Sprintf("%s, %s %d -", o.a.place, o.a.date.Format("Jan"), o.a.date.Day())
		return m.render(id, o.a, rng.IntN(len(sites))), TruthRecord{ID: id, Cluster: id,
			Base: o.base + "~neg", Ops: []Op{TemplateNegative}, NegativeOf: g.id(src)}, true
	}
	m.ownSrc.Seed(g.opts.Seed^streamCopy, uint64(s))
	rng := m.ownRng
	for range copyTries {
		src := rng.IntN(g.nOrig)
		if rng.IntN(10) == 0 { // widely syndicated stories: a tenth of the copies go to 1 % of originals
			src = rng.IntN(max(g.nOrig/100, 1))
		}
		o := m.original(src)
		o.a.date = o.a.date.Add(time.Duration(1+rng.IntN(72*60)) * time.Minute)
		site := (o.site + 1 + rng.IntN(len(sites)-1)) % len(sites)
		e := editor{rng: rng, g: g, self: g.baseOrder[src%len(g.bases)], site: &sites[site]}
		if ops := e.chooseAndApply(o.a, g.opts.Ops, g.opts.MaxOps); len(ops) > 0 {
			return m.render(id, o.a, site), TruthRecord{ID: id, Cluster: g.id(src), Base: o.base, Ops: ops}, true
		}
	}
	return DocRecord{}, TruthRecord{}, false
}

// render turns an article into its output record. The body is left in
// m.text, not in the record's Text, until the next render.
func (m *maker) render(id string, a *article, site int) DocRecord {
	st := &sites[site]
	m.text = a.appendText(m.text[:0])
	return DocRecord{
		ID:     id,
		Title:  a.title,
		Source: st.name,
		URL:    "https://" + st.domain + a.date.Format("/2006/01/02/") + slug(a.title) + "-" + id,
		Date:   a.date.UTC().Format(time.RFC3339),
	}
}

// slug makes a URL path part from the first words of a headline.
func slug(title string) string {
	ws := words(title)
	ws = ws[:min(len(ws), 8)]
	for i, w := range ws {
		if !isASCII(w) {
			ws[i] = "x"
		}
	}
	if len(ws) == 0 {
		return "story"
	}
	return strings.Join(ws, "-")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
