// Package templatestest holds what the methods' tests read of the
// templates context their sketches keep. It is apart from
// internal/enginetest, which templates' own tests import, so that
// enginetest need not import templates.
package templatestest

import "github.com/neardup/neardup/internal/templates"

// PlaceLetters returns the letters (templates.Name.Letters) of the names of
// places among names, in their order: what enginetest.ColumnsFixture
// checks of a sketch.
func PlaceLetters(names []templates.Name) []uint32 {
	var ls []uint32
	for _, n := range names {
		if n.Kind() == templates.Place {
			ls = append(ls, n.Letters)
		}
	}
	return ls
}
