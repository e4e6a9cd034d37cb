package dedup

import (
	"bufio"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
)

// MatrixLimit is the largest corpus Options.Matrix accepts: the matrix
// lists the similar pairs of every document, which past this size is too
// large to read.
const MatrixLimit = 20000

// cosine is the similarity-matrix method: a document (title and body) is
// one sparse vector of its words and word bigrams, weighted by TF-IDF or
// PMI and L2-normalised; a pair scores its exact cosine, found by an exact
// all-pairs join at the lowest reporting threshold. Duplicates (cosine at
// or above Options.Threshold) are grouped by connected components, and
// each group is represented by its most central member by default.
type cosine struct {
	opts *Options
	text *field
}

func newCosine(o *Options) *cosine {
	low := o.Threshold
	if o.Similar > 0 {
		low = min(low, o.Similar)
	}
	return &cosine{opts: o, text: newField(o.Weighting, low)}
}

func (m *cosine) newSketcher() sketcher { return &cosineSketcher{terms: textTerms{stem: true}} }

type cosineSketcher struct {
	terms  textTerms
	hashes []uint64
}

// sketch counts the content words (not stop words), stemmed where the
// language has a stemmer, and the bigrams of consecutive content words, of
// the title and the body; a bigram never spans the two.
func (s *cosineSketcher) sketch(doc *core.Document) (any, core.SkipReason) {
	s.hashes = s.hashes[:0]
	s.terms.analyze(doc)
	for _, words := range [2][]analysis.Token{s.terms.title, s.terms.body} {
		for _, t := range words {
			s.hashes = append(s.hashes, t.Hash)
		}
		if len(words) > 1 {
			s.hashes = analysis.Shingles(words, 2, s.hashes)
		}
	}
	if len(s.hashes) == 0 {
		return nil, core.SkipNoUnits
	}
	tc := countTerms(s.hashes)
	return &tc, core.SkipNone
}

func (m *cosine) add(v any) {
	tc, _ := v.(*termCounts)
	m.text.add(tc)
}

func (m *cosine) seal() { m.text.seal() }

func (m *cosine) match(id int32, emit func(int32, float64, any)) {
	m.text.candidates(id, func(other int32, cos float64) { emit(other, cos, nil) })
	m.text.index(id)
}

func (m *cosine) similarity(a, b int32) float64 { return m.text.cosine(a, b) }

// report counts the candidates the join verified, more than were emitted.
func (m *cosine) report(st *Stats) { st.Candidates = m.text.verified() }

// matrixFile is the JSON of Options.Matrix: a sparse symmetric matrix.
// Row i lists [j, cosine] for every other document j whose cosine with
// document i reaches MinSimilarity, by increasing j; absent entries are
// below it, and the diagonal, 1, is left out. IDs label rows and columns.
type matrixFile struct {
	Format        string         `json:"format"`
	Method        string         `json:"method"`
	Weighting     string         `json:"weighting"`
	MinSimilarity float64        `json:"min_similarity"`
	IDs           []string       `json:"ids"`
	Matrix        [][][2]float64 `json:"matrix"`
}

// export writes the similarity matrix to Options.Matrix.
func (m *cosine) export(ms []match, ids []string) error {
	if m.opts.Matrix == "" {
		return nil
	}
	rows := make([][][2]float64, len(ids))
	for _, p := range ms {
		s := round(p.score)
		rows[p.a] = append(rows[p.a], [2]float64{float64(p.b), s})
		rows[p.b] = append(rows[p.b], [2]float64{float64(p.a), s})
	}
	for i := range rows {
		slices.SortFunc(rows[i], func(x, y [2]float64) int { return int(x[0] - y[0]) })
		if rows[i] == nil {
			rows[i] = [][2]float64{}
		}
	}
	return writeAtomic(m.opts.Matrix, func(w *bufio.Writer) error {
		return writeMatrix(w, matrixFile{Format: "sparse-rows", Method: m.opts.Method, Weighting: m.opts.Weighting,
			MinSimilarity: m.text.joinAt, IDs: ids, Matrix: rows})
	})
}

// writeMatrix writes f with one matrix row per line, so that a reader can
// see the structure and a large file streams.
func writeMatrix(w *bufio.Writer, f matrixFile) error {
	rows := f.Matrix
	f.Matrix = nil
	head, err := json.Marshal(f)
	if err != nil {
		return err
	}
	w.Write(head[:len(head)-len(`null}`)])
	w.WriteString("[\n")
	var line []byte
	for i, row := range rows {
		line = append(line[:0], '[')
		for k, e := range row {
			if k > 0 {
				line = append(line, ',')
			}
			line = append(line, '[')
			line = strconv.AppendInt(line, int64(e[0]), 10)
			line = append(line, ',')
			line = strconv.AppendFloat(line, e[1], 'g', -1, 64)
			line = append(line, ']')
		}
		line = append(line, ']')
		if i+1 < len(rows) {
			line = append(line, ',')
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	_, err = w.WriteString("]}\n")
	return err
}
