package minhash

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/similarity"
)

// Two documents of one story are not always copies, and two copies do not
// always read alike. A sketch keeps two small things besides the shingles
// that tell these cases apart:
//
//   - the lead, a sample of the shingles of the text's opening: a follow-up
//     of an event (the story after the auction, the vote, the match) reuses
//     the background paragraphs of the story before it under a lead of its
//     own, with new figures and names; a reprint, truncated or not, keeps
//     its lead;
//   - the title's words: a story rewritten by another newsroom shares few of
//     its character shingles with the first but names the event in the same
//     words. Pairs of them are candidate keys besides the LSH bands, and a
//     pair whose titles share enough words and whose texts share some
//     shingles is similar.

// leadChars and leadWords are how many shingles of the text's opening, after
// its dateline, make the lead: about the first 200 letters (a sentence or
// two) or 30 words.
const (
	leadChars = 200
	leadWords = 30
)

// leadSample is how many of the lead's fingerprints a sketch keeps: the
// least, which the other document's consistent sample holds first.
const leadSample = 16

// minLeadChecked is the fewest lead fingerprints that must fall within the
// other document's sampled range for the lead's share in it to be told.
const minLeadChecked = 6

// Title words: words of at least minTitleLetters letters, lower-cased and
// cut to titleStemRunes (a crude stem, "elections" and "election" alike);
// the titleKeyWords with the least hashes make the title keys, one per pair
// of them.
const (
	minTitleLetters = 4
	titleStemRunes  = 6
	titleKeyWords   = 4
)

// titleKeySalt keeps title keys apart from band keys.
const titleKeySalt = 0x9e3779b97f4a7c15

// leadOf fills sk's lead. words are the tokens of doc.Text and shings its
// shingles in text order.
func (s *sketcher) leadOf(doc *core.Document, words []analysis.Token, shings []uint64, sk *Sketch) {
	skip := 0
	if dl, ok := analysis.ParseDateline(doc.Text); ok {
		if s.m.o.ShingleUnit == Chars {
			skip = alnum(doc.Text[:dl.End])
		} else {
			skip, _ = slices.BinarySearchFunc(words, int32(dl.End), func(t analysis.Token, end int32) int { return int(t.Start - end) })
		}
	}
	n := leadChars
	if s.m.o.ShingleUnit != Chars {
		n = leadWords
	}
	skip = min(skip, max(0, len(shings)-n)) // a text all dateline keeps its opening
	lead := shings[skip:min(len(shings), skip+n)]
	s.lead, _ = s.bottom.BottomLow(lead, leadSample, s.lead[:0])
	sk.Lead = s.lead
}

// titleOf fills sk's title words. It reuses the analyzer's buffers.
func (s *sketcher) titleOf(doc *core.Document, sk *Sketch) {
	if doc.Title == "" {
		return
	}
	s.title = s.title[:0]
	for _, t := range s.an.Words(doc.Title) {
		if w := doc.Title[t.Start:t.End]; letters(w) >= minTitleLetters {
			s.buf = appendStem(s.buf[:0], w)
			s.title = append(s.title, uint32(analysis.HashWord(s.buf)))
		}
	}
	slices.Sort(s.title)
	s.title = slices.Compact(s.title)
	sk.TitleWords = s.title
}

// titleKeys appends to keys a key for each pair of the title words with the
// least hashes (the words are sorted, so the first titleKeyWords).
func titleKeys(title []uint32, keys []uint32) []uint32 {
	w := title[:min(len(title), titleKeyWords)]
	for i := range w {
		for j := i + 1; j < len(w); j++ {
			x := (uint64(w[i])<<32 | uint64(w[j])) ^ titleKeySalt
			x = (x ^ x>>30) * 0xbf58476d1ce4e5b9 // splitmix64's finaliser
			x = (x ^ x>>27) * 0x94d049bb133111eb
			keys = append(keys, uint32((x^x>>31)>>32))
		}
	}
	return keys
}

// appendStem appends a title word lower-cased and cut to titleStemRunes.
func appendStem(dst []byte, w string) []byte {
	n := 0
	for _, r := range w {
		if n == titleStemRunes {
			break
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		n++
	}
	return dst
}

// alnum counts the letters and digits of s: the characters a character
// shingle is made of.
func alnum(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// letters counts the letters of w (digits left out: a figure is no word
// of a title's story).
func letters(w string) int {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// leadIn returns the share of a's lead fingerprints within b's sampled
// range that b's sample holds: how much of a's opening b's text holds. ok
// is false when too few fall within that range to tell.
func leadIn(a, b *Sketch) (share float64, ok bool) {
	checked, held := 0, 0
	for _, f := range a.Lead {
		if f > b.Cut {
			break // the lead is sorted: the rest are past b's cut too
		}
		checked++
		if _, in := slices.BinarySearch(b.Set, f); in {
			held++
		}
	}
	if checked < minLeadChecked {
		return 0, false
	}
	return float64(held) / float64(checked), true
}

// titleWords returns the Jaccard index of two documents' title words, 0
// when either has none.
func titleWords(a, b *Sketch) float64 {
	return similarity.Scores(a.TitleWords, b.TitleWords).Jaccard
}

// A follow-up (see Options.FollowUp) shares less than followUpBelow of its
// shingles with the story before it, and less than followUpLead of either
// lead is in the other text.
const (
	followUpBelow = 0.6
	followUpLead  = 0.5
)

// isFollowUp reports whether the pair is a story and its follow-up: a text
// not mostly shared whose leads differ, each mostly absent from the other
// text. Leads the samples cannot tell are not taken to differ.
func (e *Evidence) isFollowUp() bool {
	return e.Jaccard < followUpBelow && e.LeadAB != nil && e.LeadBA != nil &&
		*e.LeadAB < followUpLead && *e.LeadBA < followUpLead
}
