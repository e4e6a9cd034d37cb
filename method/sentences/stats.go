package sentences

import (
	"cmp"
	"slices"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// topHashes finds the most frequent boilerplate sentences, once.
func (m *method) topHashes() map[uint64]string {
	if m.top != nil {
		return m.top
	}
	type hc struct {
		h uint64
		n int
	}
	var all []hc
	m.df.EachKey(func(h uint64, n int) {
		if n > m.o.MaxDocs {
			all = append(all, hc{h, n})
		}
	})
	slices.SortFunc(all, func(a, b hc) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.h, b.h)) })
	m.top = map[uint64]string{}
	for _, x := range all[:min(len(all), topBoilerplate)] {
		m.top[x.h] = ""
	}
	return m.top
}

// NeedsText reports whether the document holds a top boilerplate sentence
// not quoted yet.
func (m *method) NeedsText(ord int32) bool {
	top := m.topHashes()
	if int(ord) >= len(m.docs) || m.docs[ord] == nil {
		return false
	}
	for _, h := range m.docs[ord].Hashes {
		if t, ok := top[h]; ok && t == "" {
			return true
		}
	}
	return false
}

// SeeText quotes the top boilerplate sentences the document holds.
func (m *method) SeeText(ord int32, doc *core.Document) {
	found := quotes(doc.Text, m.o.sketchFormat())
	for h, t := range m.topHashes() {
		if q, ok := found[h]; ok && t == "" {
			m.top[h] = q.text
		}
	}
}

// Report describes the sentences ignored as boilerplate.
func (m *method) Report(st *engine.Stats) {
	b := &engine.BoilerplateStats{Top: []engine.FrequentSentence{}, MaxDocs: m.o.MaxDocs}
	m.df.EachKey(func(h uint64, n int) {
		if n > m.o.MaxDocs {
			b.Sentences++
			b.Occurrences += n
		}
	})
	for _, s := range m.docs {
		if s != nil && m.allBoilerplate(s) {
			b.Documents++
		}
	}
	for h, t := range m.topHashes() {
		b.Top = append(b.Top, engine.FrequentSentence{Text: t, Docs: m.df.Count(h)})
	}
	slices.SortFunc(b.Top, func(x, y engine.FrequentSentence) int {
		return cmp.Or(cmp.Compare(y.Docs, x.Docs), cmp.Compare(x.Text, y.Text))
	})
	st.Boilerplate = b
}

// allBoilerplate reports whether s holds sentences and every one is
// boilerplate now: such a document proposes no candidate and scores 0
// with any other, and so pairs with nothing.
func (m *method) allBoilerplate(s *Sketch) bool {
	for _, h := range s.Hashes {
		if !m.boilerplate(h) {
			return false
		}
	}
	return len(s.Hashes) > 0
}
