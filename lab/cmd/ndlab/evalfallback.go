package main

import (
	"context"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/engines"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// Thresholds of fallbackSystem.
const (
	// fallbackShort is the fewest runes of neardup's text under which the
	// other engines' text is taken (the default --min-chars).
	fallbackShort = extract.DefaultMinChars
	// fallbackAlone is the highest shingle F1 between neardup's text and
	// each of the other two for which neardup stands alone; fallbackAgree
	// is the least F1 between the other two for which they agree.
	fallbackAlone = 0.2
	fallbackAgree = 0.5
)

// fallbackSystem is a design measured, not adopted: neardup's text, unless
// it looks wrong, then go-trafilatura's (with its fallbacks). It looks
// wrong when it is shorter than fallbackShort and go-trafilatura's is
// longer, or when go-trafilatura and go-shiori's go-readability agree
// (fallbackAgree) and neardup agrees with neither (fallbackAlone): it took
// another part of the page than both.
func fallbackSystem(base extract.Options) extracteval.System {
	return extracteval.System{Name: "fallback", Extract: func(ctx context.Context, in extracteval.Input) (string, error) {
		page := extract.Input{URL: in.URL, ContentType: in.ContentType, Body: in.Body}
		var texts [3]string
		for i, eng := range []extract.Engine{nil, engines.TrafilaturaFallback, engines.Readability} {
			opts := base
			opts.Engine, opts.LibraryOnly = eng, eng != nil
			a, _, err := extract.Page(ctx, page, opts)
			if err != nil && eng == nil {
				return "", err
			}
			texts[i] = a.Text
		}
		return fallbackChoice(texts[0], texts[1], texts[2]), nil
	}}
}

// fallbackChoice returns own, or other when own looks wrong beside other
// and third (fallbackSystem).
func fallbackChoice(own, other, third string) string {
	if n := utf8.RuneCountInString(own); n < fallbackShort && utf8.RuneCountInString(other) > n {
		return other
	}
	if shingleF1(other, third) >= fallbackAgree && shingleF1(own, other) < fallbackAlone && shingleF1(own, third) < fallbackAlone {
		return other
	}
	return own
}

// shingleF1 is the F1 of text b scored against text a as gold.
func shingleF1(a, b string) float64 {
	pr := extracteval.Score(a, b)
	if pr.Precision+pr.Recall == 0 {
		return 0
	}
	return 2 * pr.Precision * pr.Recall / (pr.Precision + pr.Recall)
}
