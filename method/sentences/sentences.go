package sentences

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/templates"
)

// Spec registers the method with the engine.
var Spec = engine.Register(engine.Spec{Name: Name, Format: Format, Keep: cluster.Longest,
	Summary: "shared sentence fingerprints, verified by sentence-set Jaccard", Older: older},
	Defaults, func(o Options) (engine.Method[Sketch, Evidence], error) { return newMethod(o).stages(), nil })

// stages wires the method's stages: it quotes the sentences a pair shares,
// and its statistics the most frequent ones.
func (m *method) stages() engine.Method[Sketch, Evidence] {
	return engine.Method[Sketch, Evidence]{Sketching: m, Matching: m, Label: m.Label, Shown: m.shown, Recount: m, BucketLimit: m.o.BucketLimit,
		Pairs:  engine.Pairs[Evidence]{Explain: m.Explain},
		Corpus: engine.Corpus{Report: m.Report, NeedsText: m.NeedsText, SeeText: m.SeeText}}
}

// older makes an index of sketch format 1 to 5 open: its sketches go on
// as that format made them, without a context, no template rule refusing
// its pairs (1), without the title names shorter than a shingle (2, see
// Options.shortNames), with figures and places read in ASCII alone (2
// and 3, see templates.Scanner.Unicode), or with "nil" no figure and a
// unit the word after its figure (2 to 4, see templates.Scanner.Measures),
// number words in English alone and datelines of the forms that format
// read and a figure's digits without its decimal separator (2 to 4, see
// templates.Scanner.Languages and figures.Scanner.Decimals), a figure
// alone at its line's end in its word's place, no row labelled by its
// first figure, a place by its letter pairs alone and the Turkish "ı"
// apart from "i" (2 to 5, see templates.Scanner.Columns,
// analysis.Analyzer.DottedIApart), and the sentence ends
// of the formats before 5 (1 to 4, see quotes) and before 7, at the
// terminators of fewer scripts (1 to 6, see analysis.Analyzer.FewTerminators).
var older = engine.OlderFormats(1, 6, func(o Options, format int) Options {
	o.format = format
	return o
})

// Evidence is the evidence of a sentences pair: how many sentences both
// documents hold, and up to five of them quoted; for a pair its score
// makes a duplicate, what the template rules read of the two documents
// (see templates.Evidence).
type Evidence struct {
	Shared    int      `json:"shared"`
	Sentences []string `json:"sentences,omitempty"`
	hashes    []uint64 // of the sentences to quote, until Explain quotes them
	templates.Evidence
}

// Method returns the method's name.
func (Evidence) Method() string { return Name }

// Reversed returns the evidence of B and A (see core.Pair): the foreign
// names swapped. The sentences quoted stay in the order of the document
// they were quoted from, the later-placed of the two (see Explain).
func (e Evidence) Reversed() core.Evidence {
	e.Evidence = e.Evidence.Reversed()
	return e
}

// MarshalJSON writes the template rules' evidence rounded: it is read,
// not computed with. The sentences quoted are not HTML-escaped here
// ("&" stays "&"): the encoder that writes the evidence decides.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence // the fields and their tags, without this method
	r := plain(e)
	r.Evidence = e.Evidence.Rounded()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// maxQuoted caps the shared sentences quoted in evidence.
const maxQuoted = 5

// topBoilerplate is how many of the most frequent boilerplate sentences
// the stats quote.
const topBoilerplate = 10

// method keeps every document's sentences: posting lists of sentence
// hashes propose candidates, and each one's document frequency decides
// what is boilerplate and, weighted, how much a sentence counts.
//
// A sentence is posted for the documents indexed while it is not
// boilerplate. When removals bring a boilerplate sentence back within
// Options.MaxDocs, the documents indexed meanwhile are missing from its
// list: the sentence waits in lapsed, and the next Match posts it for
// every document holding it (repost), as an index reopened with the same
// documents would.
type method struct {
	o      Options
	rules  templates.Rules
	docs   []*Sketch // by ordinal; nil for a skipped or removed document
	n      int       // documents with sentences
	df     candidates.Counter
	index  candidates.Postings
	lapsed map[uint64]struct{} // sentences that stopped being boilerplate, to post again
	cands  []int32
	// top boilerplate sentences, once a batch's statistics are final:
	// hash → the text quoted ("" until a document holding it is read).
	top map[uint64]string
}

func newMethod(o Options) *method { return &method{o: o, rules: o.rules()} }

func (m *method) Add(ord int32, s *Sketch) {
	for int(ord) >= len(m.docs) {
		m.docs = append(m.docs, nil)
	}
	if s == nil {
		return
	}
	m.docs[ord] = s
	m.n++
	for _, h := range s.Hashes {
		m.df.Inc(h)
	}
}

func (m *method) boilerplate(h uint64) bool { return m.df.Count(h) > m.o.MaxDocs }

func (m *method) Match(ord int32, s *Sketch, src engine.Source[Sketch], emit func(int32, float64, Evidence)) error {
	m.repost(ord)
	m.cands = m.cands[:0]
	for _, h := range s.Hashes {
		if !m.boilerplate(h) {
			m.index.Visit(h, m.o.BucketLimit, m.collect)
		}
	}
	slices.Sort(m.cands)
	for _, c := range slices.Compact(m.cands) {
		score, n, quoted := m.score(m.docs[c], s)
		ev := Evidence{Shared: n, hashes: quoted}
		if score >= m.o.Threshold && !m.rules.Off() {
			// What the template rules read of a pair its score makes a
			// duplicate. The method keeps no character shingles: a name
			// is looked up in the filter of the other's words.
			a, err := src.Sketch(c)
			if err != nil {
				return err
			}
			ev.Evidence = m.rules.Verify(&a.Context, &s.Context, templates.Sample{}, templates.Sample{})
		}
		emit(c, score, ev)
	}
	return nil
}

// collect gathers candidates; the method value is made once, not per hash.
func (m *method) collect(d int32) { m.cands = append(m.cands, d) }

// Index adds the document's sentences that are not boilerplate to the
// posting lists.
func (m *method) Index(ord int32, s *Sketch) {
	for _, h := range s.Hashes {
		if !m.boilerplate(h) {
			m.index.Add(h, ord)
		}
	}
}

// Remove takes the document off the counts and the posting lists. A
// sentence it brings back within Options.MaxDocs whose list lacks some of
// the documents holding it lapses (see method).
func (m *method) Remove(ord int32, s *Sketch) {
	if int(ord) < len(m.docs) && m.docs[ord] != nil {
		s = m.docs[ord]
		m.docs[ord] = nil
		m.n--
	} else if s == nil {
		return
	}
	for _, h := range s.Hashes {
		m.index.Remove(h, ord)
		if n := m.df.Dec(h); n == m.o.MaxDocs && m.index.Count(h) < n {
			m.lapse(h)
		}
	}
}

// Uncount takes an indexed document's sentences off the counts, leaving
// them posted (engine.Recounter). It lapses nothing, as Remove would: the
// match that follows looks up only the sentences of the document checked,
// added before, whose counts are then what they were before Uncount, so
// each of their lists that misses a holder has lapsed already; a lapse of
// another sentence would post it for every holder at that match, and
// Recount would leave it posted, boilerplate again.
func (m *method) Uncount(ord int32, _ *Sketch) {
	if int(ord) >= len(m.docs) || m.docs[ord] == nil {
		return
	}
	m.n--
	for _, h := range m.docs[ord].Hashes {
		m.df.Dec(h)
	}
}

// Recount puts back what Uncount took off.
func (m *method) Recount(ord int32, _ *Sketch) {
	if int(ord) >= len(m.docs) || m.docs[ord] == nil {
		return
	}
	m.n++
	for _, h := range m.docs[ord].Hashes {
		m.df.Inc(h)
	}
}

// lapse notes that sentence h stopped being boilerplate.
func (m *method) lapse(h uint64) {
	if m.lapsed == nil {
		m.lapsed = map[uint64]struct{}{}
	}
	m.lapsed[h] = struct{}{}
}

// score returns the (optionally weighted) Jaccard index of two documents'
// non-boilerplate sentence sets, how many such sentences both hold, and the
// hashes of the first maxQuoted of them (in hash order), to quote.
func (m *method) score(a, b *Sketch) (float64, int, []uint64) {
	ha, ca, hb, cb := a.Hashes, a.Chars, b.Hashes, b.Chars
	var inter, union float64
	var n int
	var quoted []uint64
	i, j := 0, 0
	for i < len(ha) || j < len(hb) {
		switch {
		case j == len(hb) || (i < len(ha) && ha[i] < hb[j]):
			union += m.weight(ha[i], ca[i])
			i++
		case i == len(ha) || hb[j] < ha[i]:
			union += m.weight(hb[j], cb[j])
			j++
		default:
			w := m.weight(ha[i], ca[i])
			inter, union = inter+w, union+w
			if w > 0 {
				if n++; len(quoted) < maxQuoted {
					quoted = append(quoted, ha[i])
				}
			}
			i++
			j++
		}
	}
	if union == 0 {
		return 0, 0, nil
	}
	return inter / union, n, quoted
}

// weight is a sentence's weight: 0 for boilerplate; 1, or with Weighted its
// length times log(1 + N/df).
func (m *method) weight(h uint64, chars int32) float64 {
	df := m.df.Count(h)
	if df > m.o.MaxDocs {
		return 0
	}
	if !m.o.Weighted {
		return 1
	}
	return float64(chars) * math.Log(1+float64(m.n)/float64(max(df, 1)))
}

// Label grades a pair by its score: a duplicate at the threshold, unless a
// template rule vetoes it (templates.Rules.Veto); else similar at Similar.
func (m *method) Label(score float64, ev Evidence) (core.Label, bool) {
	dup := score >= m.o.Threshold && m.rules.Veto(&ev.Evidence) == templates.None
	return engine.Grade(dup, score, m.o.Similar)
}

// shown writes a pair's score with four decimals, or with the digits it
// takes to stay on the side of --threshold and --similar the score is on:
// a weighted Jaccard of 0.49996 under a threshold of 0.5 is written
// 0.49996, not 0.5 beside the label "similar".
func (m *method) shown(score float64, _ Evidence) float64 {
	sides := func(v float64) [2]bool { return [2]bool{v >= m.o.Threshold, v >= m.o.Similar} }
	want := sides(score)
	return engine.Shown(score, func(v float64) bool { return sides(v) == want })
}

func (m *method) Similarity(a, b int32, _ engine.Source[Sketch]) (float64, error) {
	s, _, _ := m.score(m.docs[a], m.docs[b])
	return s, nil
}

// Explain quotes the shared sentences from the later document, in the
// order it holds them.
func (m *method) Explain(ev *Evidence, b *core.Document) {
	if len(ev.hashes) == 0 {
		return
	}
	found := quotes(b.Text, m.o.sketchFormat())
	hs := ev.hashes
	slices.SortFunc(hs, func(x, y uint64) int { return cmp.Compare(found[x].start, found[y].start) })
	ev.Sentences = ev.Sentences[:0]
	for _, h := range hs {
		if q, ok := found[h]; ok {
			ev.Sentences = append(ev.Sentences, q.text)
		}
	}
	ev.hashes = nil
}

type quote struct {
	text  string
	start int32
}

// quotes returns the sentences of text by hash, the first of each, read
// as the sketches of format were (see analyzer).
func quotes(text string, format byte) map[uint64]quote {
	an := analyzer(format)
	found := map[uint64]quote{}
	for _, s := range an.Sentences(text) {
		if _, ok := found[s.Hash]; !ok {
			found[s.Hash] = quote{text[s.Start:s.End], s.Start}
		}
	}
	return found
}
