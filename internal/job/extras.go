package job

import (
	"fmt"
	"math/bits"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// MatrixLimit is the most documents the similarity matrix of Options.Matrix
// holds: those of the reported pairs. A matrix of more is too large to read
// as one (a dense matrix of 20,000 rows is 3.2 GB of float64s), and its rows
// would be held in memory however large the corpus; a run whose pairs hold
// more writes its other results without it (see MatrixError).
const MatrixLimit = 20000

// MatrixError is the error of a run whose reported pairs hold more than
// MatrixLimit documents: its other results are in place, with its
// statistics, but the similarity matrix of Options.Matrix was not written
// (nor is an earlier run's left at its path).
type MatrixError struct {
	Path      string // Options.Matrix
	Documents int    // in the reported pairs
}

// Error names the flag and the path, and says why.
func (e *MatrixError) Error() string {
	return fmt.Sprintf("--matrix %s was not written: the reported pairs hold %d documents, more than the %d a similarity "+
		"matrix holds; the other results are in place", e.Path, e.Documents, MatrixLimit)
}

// extras writes the files asked for with the result set that show the
// pairs and clusters: the report and the titles of the duplicate pairs.
// They are put in place with the set, so a failure here leaves the
// previous results.
func (run *runner) extras(out *output.Set, res *engine.Result, st engine.Stats) error {
	if run.o.Report != "" {
		if err := run.writeReport(out, res, st); err != nil {
			return err
		}
	}
	if run.o.TitlesCSV != "" {
		var rows []output.TitleRow
		for _, p := range res.Pairs {
			if p.Label == core.Duplicate {
				rows = append(rows, output.TitleRow{A: p.A, B: p.B, Score: p.Score, TitleA: run.titles[p.A], TitleB: run.titles[p.B]})
			}
		}
		if err := out.Extra(run.o.TitlesCSV, output.Titles(rows)); err != nil {
			return err
		}
	}
	return nil
}

// writeMatrix writes the similarity matrix of Options.Matrix, if asked for,
// with the result set: the reported pairs over the documents they hold, in
// input order, with the scores of pairs.jsonl. It needs nothing of the
// second reading, and holds nothing per document of the corpus but a bit.
// When those documents are more than MatrixLimit it writes no matrix and
// returns a *MatrixError for the run to end with once its results are in
// place; a run fails with the error it returns.
func (run *runner) writeMatrix(out *output.Set, method string) (*MatrixError, error) {
	if run.o.Matrix == "" {
		return nil, nil
	}
	paired := make([]uint64, (run.b.Len()+63)/64) // by ordinal
	n := 0
	mark := func(ord int) {
		if w, bit := ord/64, uint64(1)<<(ord%64); paired[w]&bit == 0 {
			paired[w] |= bit
			n++
		}
	}
	err := run.b.EachFound(func(a, b int, _ float64, _ core.Label, _ core.Evidence) error {
		mark(a)
		mark(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if n > MatrixLimit {
		return &MatrixError{Path: run.o.Matrix, Documents: n}, out.Omit(run.o.Matrix)
	}
	ids := make([]string, 0, n)
	row := make(map[int]int32, n) // by ordinal
	for w, word := range paired {
		for ; word != 0; word &= word - 1 {
			ord := w*64 + bits.TrailingZeros64(word)
			row[ord] = int32(len(ids))
			ids = append(ids, run.b.ID(ord))
		}
	}
	var pairs []output.MatrixPair
	err = run.b.EachFound(func(a, b int, score float64, _ core.Label, ev core.Evidence) error {
		pairs = append(pairs, output.MatrixPair{A: row[a], B: row[b], Score: run.b.Shown(score, ev)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return nil, out.Extra(run.o.Matrix, output.Matrix(method, ids, pairs))
}
