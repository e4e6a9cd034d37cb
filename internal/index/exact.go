package index

import (
	"encoding/json"

	"github.com/zeebo/xxh3"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// ExactMethod names the marks of exact copies (see AddOptions.Exact).
const ExactMethod = "exact"

// ExactEvidence is the evidence of an exact copy: what was equal.
type ExactEvidence struct {
	// By is "content" (the same title and text, white space and case
	// aside) or "url" (the same canonical URL).
	By string `json:"by"`
}

// Method returns ExactMethod.
func (ExactEvidence) Method() string { return ExactMethod }

// urlSeed keeps URL keys apart from content hashes in one table.
const urlSeed uint64 = 0x75726c6b6579 // "urlkey"

// URLKey is the exact key of a canonical URL.
func URLKey(url string) uint64 { return xxh3.HashStringSeed(url, urlSeed) }

// exactKeys are the exact keys of the documents of one add: each one's
// content hash and URL key, the stored documents they name, and those of
// the documents of the add stored so far. A nil *exactKeys finds no copy.
type exactKeys struct {
	keys  [][2]uint64 // by document: content, URL (0: none)
	found map[uint64]int64
}

func newExactKeys(w store.Writer, docs []core.Document, sks []Sketch) (*exactKeys, error) {
	e := &exactKeys{keys: make([][2]uint64, len(docs))}
	var all []uint64
	for i := range docs {
		e.keys[i][0] = sks[i].hash
		if docs[i].URL != "" {
			e.keys[i][1] = URLKey(docs[i].URL)
		}
		all = append(all, e.keys[i][0])
		if k := e.keys[i][1]; k != 0 {
			all = append(all, k)
		}
	}
	var err error
	e.found, err = w.Exact(all)
	return e, err
}

// copyOf returns the stored document document i copies, and by what; 0
// when none.
func (e *exactKeys) copyOf(i int) (int64, string) {
	if e == nil {
		return 0, ""
	}
	if ord, ok := e.found[e.keys[i][1]]; ok && e.keys[i][1] != 0 {
		return ord, "url"
	}
	if ord, ok := e.found[e.keys[i][0]]; ok {
		return ord, "content"
	}
	return 0, ""
}

// stored records document i's keys as stored under ord, for the documents
// after it and the adds to come.
func (e *exactKeys) stored(w store.Writer, i int, ord int64) error {
	if e == nil {
		return nil
	}
	keys := []uint64{e.keys[i][0]}
	if k := e.keys[i][1]; k != 0 {
		keys = append(keys, k)
	}
	for _, k := range keys {
		if _, ok := e.found[k]; !ok {
			e.found[k] = ord
		}
	}
	return w.AddExact(keys, ord)
}

// addCopy stores an exact copy of stored document orig without sketching
// it, marked its duplicate, in its cluster.
func (x *Index) addCopy(w store.Writer, d *core.Document, sk *Sketch, at int64, orig int64, by string, out *Match) (int64, error) {
	row := x.docRow(d, sk, at)
	row.Skip, out.Skip = core.SkipExactCopy, core.SkipExactCopy
	ord, err := w.Insert(row, nil)
	if err != nil {
		return 0, err
	}
	ev := ExactEvidence{By: by}
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
	out.Pairs = append(out.Pairs, core.Pair{A: docs[0].ID, B: d.ID, Method: ExactMethod, Score: 1, Label: core.Duplicate, Evidence: ev})
	out.Cluster, err = join(w, ord, []*store.Doc{&docs[0]})
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
