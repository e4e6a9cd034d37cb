package minhash

import (
	"iter"
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
// cut to titleStemRunes (a crude stem, "elections" and "election" alike).
// The title keys are made of the words with the least hashes, one key a
// pair of them: of titleKeyWords, or of datedKeyWords for a dated document
// under a story window, each of whose pairs has a key on each of two grids
// (see titleKeys). Either way a document has at most six title keys.
const (
	minTitleLetters = 4
	titleStemRunes  = 6
	titleKeyWords   = 4
	datedKeyWords   = 3
	maxTitleKeys    = titleKeyWords * (titleKeyWords - 1) / 2
)

// titleKeySalt keeps title keys apart from band keys.
const titleKeySalt = 0x9e3779b97f4a7c15

// leadOf fills sk's lead. words are the tokens of doc.Text and shings its
// shingles in text order; s.tpl has scanned doc (its dateline is read
// once).
func (s *sketcher) leadOf(doc *core.Document, words []analysis.Token, shings []uint64, sk *Sketch) {
	from, to := s.leadSpan(doc, words, len(shings))
	s.lead, _ = s.bottom.BottomLow(shings[from:to], leadSample, s.lead[:0])
	sk.Lead = s.lead
}

// leadOfBlocks is leadOf for a text whose total shingles are made by
// blocks: the lead's, at the opening, are made again up to its end.
func (s *sketcher) leadOfBlocks(doc *core.Document, words []analysis.Token, blocks iter.Seq[[]uint64], total int, sk *Sketch) {
	from, to := s.leadSpan(doc, words, total)
	s.shings, total = s.shings[:0], 0
	for b := range blocks {
		s.shings = append(s.shings, b[min(len(b), max(0, from-total)):min(len(b), max(0, to-total))]...)
		if total += len(b); total >= to {
			break
		}
	}
	s.lead, _ = s.bottom.BottomLow(s.shings, leadSample, s.lead[:0])
	sk.Lead = s.lead
}

// leadSpan returns where the lead lies among the total shingles of
// doc.Text, from its first to past its last: the opening after the
// dateline, or the text's last shingles when the dateline leaves too few.
func (s *sketcher) leadSpan(doc *core.Document, words []analysis.Token, total int) (from, to int) {
	skip := 0
	if dl, ok := s.tpl.Dateline(); ok {
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
	skip = min(skip, max(0, total-n)) // a text all dateline keeps its opening
	return skip, min(total, skip+n)
}

// titleOf fills sk's title words: the words of at least minTitleLetters
// letters, lower-cased, cut to titleStemRunes and hashed, sorted and
// distinct. A title word is a run of letters and digits; an apostrophe
// inside one is dropped ("don't" is "dont"). One pass over the title, ASCII
// without decoding: it runs for every document.
func (s *sketcher) titleOf(doc *core.Document, sk *Sketch) {
	t := doc.Title
	s.title = s.title[:0]
	w := titleWord{stem: s.buf[:0]}
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c < utf8.RuneSelf:
			i++
			switch lc := c | 0x20; {
			case 'a' <= lc && lc <= 'z':
				w.addASCII(lc, true)
			case '0' <= c && c <= '9':
				w.addASCII(c, false)
			case c == '\'':
			default:
				s.title = w.end(s.title)
			}
		default:
			r, size := utf8.DecodeRuneInString(t[i:])
			i += size
			switch {
			case unicode.IsLetter(r):
				w.add(unicode.ToLower(r), true)
			case unicode.IsDigit(r):
				w.add(r, false)
			case r == '’':
			default:
				s.title = w.end(s.title)
			}
		}
	}
	s.title = w.end(s.title)
	s.buf = w.stem
	slices.Sort(s.title)
	s.title = slices.Compact(s.title)
	sk.TitleWords = s.title
}

// titleWord is a title word being read: its stem so far, how many runes
// that holds and how many letters the word has.
type titleWord struct {
	stem           []byte
	runes, letters int
}

// add adds the lower-cased rune r, a letter or a digit, to the word.
func (w *titleWord) add(r rune, letter bool) {
	if letter {
		w.letters++
	}
	if w.runes < titleStemRunes {
		w.stem = utf8.AppendRune(w.stem, r)
		w.runes++
	}
}

// addASCII is add for an ASCII letter or digit c, a byte of its own.
func (w *titleWord) addASCII(c byte, letter bool) {
	if letter {
		w.letters++
	}
	if w.runes < titleStemRunes {
		w.stem = append(w.stem, c)
		w.runes++
	}
}

// end ends the word, appending its hash to words when it has
// minTitleLetters letters, and starts the next.
func (w *titleWord) end(words []uint32) []uint32 {
	if w.letters >= minTitleLetters {
		words = append(words, uint32(analysis.HashWord(w.stem)))
	}
	w.stem, w.runes, w.letters = w.stem[:0], 0, 0
	return words
}

// titleKeys appends to keys the title keys of a document with title words
// title and date (Unix seconds, 0 unknown): a key for each pair of the
// title words with the least hashes (the words are sorted, so the first
// few), so that two titles sharing two of those words share a key. With a
// story window of window seconds a dated document's keys also name its
// place on two grids of periods twice the window long, the second offset by
// half a period: two documents dated at most window apart lie in one
// period of one of the grids (an interval of that length crosses the edges
// of one grid at most), two dated more than twice the window apart in none.
// So only stories of a few days are candidates of each other, however many
// titles share words over the years. An undated document's keys meet only
// undated documents'. With no window (0) the keys are of the words alone.
func titleKeys(title []uint32, date, window int64, keys []uint32) []uint32 {
	if date == 0 || window <= 0 {
		return wordPairKeys(title[:min(len(title), titleKeyWords)], 0, keys)
	}
	period := 2 * window
	w := title[:min(len(title), datedKeyWords)]
	for grid := range int64(2) {
		at := floorDiv(date+grid*window, period)
		keys = wordPairKeys(w, uint64(2*at+grid+1)*periodMix, keys)
	}
	return keys
}

// wordPairKeys appends to keys a key for each pair of the words w, in the
// period numbered by tag (0 for none).
func wordPairKeys(w []uint32, tag uint64, keys []uint32) []uint32 {
	for i := range w {
		for j := i + 1; j < len(w); j++ {
			keys = append(keys, mixKey((uint64(w[i])<<32|uint64(w[j]))^titleKeySalt^tag))
		}
	}
	return keys
}

// periodMix spreads a period's number over the bits of a title key.
const periodMix = 0xd6e8feb86659fd93

// mixKey returns 32 well-mixed bits of x: splitmix64's finaliser.
func mixKey(x uint64) uint32 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return uint32((x ^ x>>31) >> 32)
}

// floorDiv is a / b rounded down (b > 0): dates before 1970 too.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// alnum counts the letters and digits of s: the characters a character
// shingle is made of.
func alnum(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			for _, r := range s[i:] { // beyond ASCII: as unicode tells
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					n++
				}
			}
			return n
		} else if c|0x20 >= 'a' && c|0x20 <= 'z' || '0' <= c && c <= '9' {
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

// storyWords returns the Jaccard index of the title words of two documents
// the same-story rule may join (see Options.StoryTitle): both undated or
// both dated at most the story window apart, their titles sharing at least
// minSharedTitleWords words (as their title keys need); 0 for any other
// pair, and with the rule off.
func (o *Options) storyWords(a, b *Sketch) float64 {
	if !o.sameStory(1) || !o.inStoryWindow(a.Date, b.Date) {
		return 0
	}
	n := similarity.Overlap(a.TitleWords, b.TitleWords)
	if n < minSharedTitleWords {
		return 0
	}
	return float64(n) / float64(len(a.TitleWords)+len(b.TitleWords)-n)
}

// minSharedTitleWords is the fewest title words two documents of one story
// share: one word in common ("Story 1" and "Story 7", two one-word titles)
// says little, and two are what a title key is made of.
const minSharedTitleWords = 2

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
