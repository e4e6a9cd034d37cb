package analysis

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/clipperhouse/uax29/v2/words"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// libraryTokens is Words as the UAX #29 library alone segments the whole
// text: the reference the ASCII path must agree with. joins is
// NarrowSpaceJoins, splits ZeroWidthSpaceSplits: without it the library
// segments the text with word joiners for its zero-width spaces.
func libraryTokens(text string, limit int, joins, splits bool) []Token {
	var a Analyzer
	it := words.FromString(text)
	if !splits {
		it = words.FromString(strings.ReplaceAll(text, "\u200b", "\u2060"))
	}
	for len(a.tokens) < limit && it.Next() {
		if joins {
			a.addSegment(text, it.Start(), it.End())
			continue
		}
		// Without NarrowSpaceJoins, the segment cut at each narrow
		// no-break space.
		start := it.Start()
		for i := start; i < it.End(); {
			if strings.HasPrefix(text[i:it.End()], "\u202f") {
				if i > start {
					a.addSegment(text, start, i)
				}
				i += len("\u202f")
				start = i
				continue
			}
			i++
		}
		if start < it.End() {
			a.addSegment(text, start, it.End())
		}
	}
	return a.tokens
}

// segmentPieces are the pieces random texts are made of: every ASCII class
// of the word-break rules, white space of each kind, and non-ASCII
// characters that join words, are ignored, are spaces or are invalid.
var segmentPieces = []string{
	"a", "B", "z", "Q", "1", "0", "9", ".", ",", ";", ":", "'", "_", "\"", "-", "$", "%", "(", "<",
	" ", "  ", "\t", "\n", "\r\n", "\v", "\f",
	"é", "Ł", "ß", "\u0301", "\u00ad", "\u200d", "\u3000", "\u2019", "\u2018", "東", "👍", "\u05d0", "\u202f", "\u200b", "\u2060",
	"\xff", "\xe2", "\xc3", "\xe2\x80",
	"don't", "U.S.Army", "3.5", "1,000", "here.Another", "www.Example.com",
}

// randomTexts is how many random texts the tests comparing a fast path
// with its reference try: 20,000 in long runs (NEARDUP_LONG set, as in
// CI), 3,000 otherwise; the fuzz targets go further.
func randomTexts() int {
	if os.Getenv("NEARDUP_LONG") != "" {
		return 20000
	}
	return 3000
}

func TestWordsSameAsLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	analyzers := []*Analyzer{{}, {NarrowSpaceJoins: true}, {ZeroWidthSpaceSplits: true}, {NarrowSpaceJoins: true, ZeroWidthSpaceSplits: true}}
	check := func(text string, limit int) {
		t.Helper()
		for _, a := range analyzers {
			want := libraryTokens(text, limit, a.NarrowSpaceJoins, a.ZeroWidthSpaceSplits)
			a.tokenizeUpTo(text, limit)
			if diff := cmp.Diff(want, a.tokens, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("tokens of %q (limit %d, NarrowSpaceJoins %v, ZeroWidthSpaceSplits %v) differ from the library's (-library +here):\n%s",
					text, limit, a.NarrowSpaceJoins, a.ZeroWidthSpaceSplits, diff)
			}
		}
	}
	for _, s := range fuzzSeeds {
		check(s, 1<<30)
	}
	for range randomTexts() {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(segmentPieces[rng.IntN(len(segmentPieces))])
		}
		check(b.String(), 1<<30)
		check(b.String(), rng.IntN(6))
	}
}
