package job

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// MatrixLimit is the largest corpus Options.Matrix accepts: the matrix
// lists the reported pairs of every document, which past this size is too
// large to read.
const MatrixLimit = 20000

// extras writes the files asked for with the result set: the report, the
// titles of the duplicate pairs, the similarity matrix. They are put in
// place with the set, so a failure here leaves the previous results.
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
	if run.o.Matrix != "" {
		return out.Extra(run.o.Matrix, output.Matrix(st.Method, run.ids, res.Pairs))
	}
	return nil
}
