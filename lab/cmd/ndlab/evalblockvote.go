package main

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// Thresholds of blockVoteSystem.
const (
	// blockVoteAgree is the least shingle F1 between neardup's text and
	// go-trafilatura's for which the second votes on the first's
	// paragraphs: below it they took different parts of the page.
	blockVoteAgree = 0.5
	// blockVoteFound is the least share of a paragraph's shingles found in
	// go-trafilatura's text for the paragraph to stay.
	blockVoteFound = 0.5
	// blockVoteLine is the most runes of a paragraph put to the vote: a
	// longer one stays whatever go-trafilatura keeps (voting on every
	// paragraph costs recall on every set: lists and tables it leaves out).
	blockVoteLine = 80
)

// blockVoteSystem is a design measured, not adopted: neardup's text
// without the short paragraphs (blockVoteLine) that go-trafilatura (with
// its fallbacks) leaves out, when the two texts agree on the rest
// (blockVoteAgree).
func blockVoteSystem(base extract.Options) extracteval.System {
	return extracteval.System{Name: "blockvote", Extract: func(ctx context.Context, in extracteval.Input) (string, error) {
		page := extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}
		own, _, err := extract.Page(ctx, page, base)
		if err != nil {
			return "", err
		}
		opts := base
		opts.Engine, opts.LibraryOnly = engines.TrafilaturaFallback, true
		other, _, err := extract.Page(ctx, page, opts)
		if err != nil || shingleF1(other.Text, own.Text) < blockVoteAgree {
			return own.Text, nil
		}
		return blockVote(own.Text, other.Text), nil
	}}
}

// blockVote returns own without the paragraphs of at most blockVoteLine
// runes that other does not hold: under blockVoteFound of their shingles
// found in it (extracteval.Found).
func blockVote(own, other string) string {
	found := extracteval.FoundIn(other)
	var kept []string
	for _, p := range strings.Split(own, "\n\n") {
		switch {
		case strings.TrimSpace(p) == "":
		case utf8.RuneCountInString(p) > blockVoteLine, found.Share(p) >= blockVoteFound:
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}
