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
// found in it, or, for one of fewer than four tokens, its tokens not in a
// row in it.
func blockVote(own, other string) string {
	gold := extracteval.ShinglesOf(other)
	seq := "\x00" + strings.Join(extracteval.Tokens(other), "\x00") + "\x00"
	var kept []string
	for _, p := range strings.Split(own, "\n\n") {
		toks := extracteval.Tokens(p)
		switch {
		case strings.TrimSpace(p) == "":
			continue
		case utf8.RuneCountInString(p) > blockVoteLine:
			kept = append(kept, p)
		case len(toks) < extracteval.ShingleSize:
			if len(toks) > 0 && strings.Contains(seq, "\x00"+strings.Join(toks, "\x00")+"\x00") {
				kept = append(kept, p)
			}
		default:
			found, all := 0, 0
			for h, c := range extracteval.ShinglesOf(p) {
				all += c
				if gold[h] > 0 {
					found += c
				}
			}
			if float64(found) >= blockVoteFound*float64(all) {
				kept = append(kept, p)
			}
		}
	}
	return strings.Join(kept, "\n\n")
}
