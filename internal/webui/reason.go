package webui

import (
	"github.com/neardup/neardup"
	why "github.com/neardup/neardup/internal/reason"
	"github.com/neardup/neardup/internal/server/browse"
)

// reason says in words why a pair is marked as it is (package internal/reason), from
// its evidence and the index's options. left says whether the mark's A is
// the diff's left text. It is "" when the evidence says nothing it can
// read.
func reason(m browse.Mark, left bool, options string) string {
	sideA, sideB := "the left text", "the right text"
	if !left {
		sideA, sideB = sideB, sideA
	}
	p := why.Pair{Method: m.Method, Exact: m.Method == neardup.ExactMethod, Score: m.Score, Label: m.Label, Evidence: m.Evidence}
	return why.Say(p, sideA, sideB, options)
}
