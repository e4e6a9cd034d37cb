package output

import (
	"encoding/csv"
	"io"
)

// sheet writes a CSV file for people, who open it in a spreadsheet: every
// CSV file the program writes goes through it, so that no cell of an input
// (an id, a title) runs there as a formula.
type sheet struct {
	cw  *csv.Writer
	row []string
}

func newSheet(w io.Writer) *sheet { return &sheet{cw: csv.NewWriter(w)} }

// write writes a row of cells, each as sheetCell gives it.
func (s *sheet) write(cells ...string) error {
	s.row = s.row[:0]
	for _, c := range cells {
		s.row = append(s.row, sheetCell(c))
	}
	return s.cw.Write(s.row)
}

// flush writes out what is buffered and returns the first error of writing.
func (s *sheet) flush() error {
	s.cw.Flush()
	return s.cw.Error()
}

// sheetCell returns cell with a single quote before it when a spreadsheet
// would read it as a formula, that is when it starts with '=', '+', '-',
// '@', a tab or a carriage return (CSV injection; OWASP's advice), and
// when it starts with a single quote itself: a program reading the file
// back takes one leading quote off any cell that has one and has the cell
// as it was.
func sheetCell(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r', '\'':
		return "'" + cell
	}
	return cell
}
