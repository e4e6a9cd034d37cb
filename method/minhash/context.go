package minhash

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/figures"
)

// A templated story family — a central bank's daily market operation, a
// dividend notice, a eurobond issue, a crop estimate — shares nearly every
// shingle of its members while each reports another event: another day,
// another company, other figures. A sketch therefore keeps, besides the
// shingles, what tells the members apart: the document's own date and its
// dateline's, its title and the figures in it, and its names. Verification
// turns them into evidence (see Evidence) and Label into vetoes.

// dateOf returns the dateline date as month<<5 | day, 0 for none.
func dateOf(d analysis.Dateline) uint16 {
	if d.Month == 0 {
		return 0
	}
	return uint16(d.Month)<<5 | uint16(d.Day)
}

// maxCapsTokens bounds the words of a text read for capitalised words: names
// that matter open the story.
const maxCapsTokens = 400

// maxTagBytes bounds the opening of a text searched for <...> marks.
const maxTagBytes = 600

// context fills sk's date, dateline, title and name fields from doc and
// computes its figures from the text after the dateline. words are the
// tokens of doc.Text; the analyzer's buffers are reused afterwards, so they
// are read first.
func (s *sketcher) context(doc *core.Document, words []analysis.Token, sk *Sketch) {
	s.caps = s.capitalised(doc.Text, words, s.caps[:0])
	dl, ok := analysis.ParseDateline(doc.Text)
	body := doc.Text
	if ok {
		body = doc.Text[dl.End:]
		sk.Dateline = dateOf(dl)
	}
	sk.Nums, sk.Slots = s.figs.OfSlots(body) // Nums are copied by pack
	if !doc.Date.IsZero() {
		sk.Date = doc.Date.Unix()
	}
	if doc.Title == "" || s.m.o.ShingleUnit != Chars {
		return // names are looked up among character shingles
	}
	sk.TitleNums = titleFigures(doc.Title)
	sk.Rerun = isRerun(doc.Title)
	tw := s.an.Words(doc.Title)
	sk.Title = uint32(analysis.HashTokens(tw))
	s.ents = s.ents[:0]
	for _, t := range tw {
		if slices.Contains(s.caps, t.Hash) && letterCount(doc.Title[t.Start:t.End]) >= s.m.o.CharShingle {
			s.addName(doc.Title[t.Start:t.End], TitleName)
		}
	}
	if ok {
		s.addWords(dl.Place, Place)
	}
	s.tags = appendTags(appendTags(s.tags[:0], doc.Title), doc.Text[:min(len(doc.Text), maxTagBytes)])
	for _, tag := range s.tags {
		s.addWords(tag, Tag)
	}
	slices.SortFunc(s.ents, func(a, b Entity) int { return cmp.Compare(a.Mask, b.Mask) })
	if s.ents = slices.Compact(s.ents); len(s.ents) > 0 {
		sk.Names = slices.Clone(s.ents) // of its size: the sketch is kept
	}
}

// rerunMarks are the words with which a wire marks a story it sends again,
// at the start of the title ("RPT-", "CORRECTED - ", "UPDATE 2-") or, the
// last two, at its end ("... (updated)", "... - update").
var rerunMarks = []string{"RPT", "REPEAT", "CORRECTED", "CORRECTION", "REFILE", "WRAPUP", "UPDATE", "UPDATED"}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isRerun reports whether title marks its story as sent again.
func isRerun(title string) bool {
	t := strings.ToUpper(strings.TrimLeft(title, " ("))
	for _, m := range rerunMarks {
		if strings.HasPrefix(t, m) && (len(t) == len(m) || !unicode.IsLetter(rune(t[len(m)])) && !isDigit(t[len(m)])) {
			return true
		}
	}
	t = strings.TrimRight(t, " )")
	return strings.HasSuffix(t, "UPDATE") || strings.HasSuffix(t, "UPDATED")
}

// capitalised appends to dst the hashes of the words of text written with
// a capital inside a sentence (not after a sentence's end or a dash): the
// names a story mentions, not the words a sentence happens to start with.
func (s *sketcher) capitalised(text string, words []analysis.Token, dst []uint64) []uint64 {
	for i, t := range words[:min(len(words), maxCapsTokens)] {
		if c := text[t.Start]; i == 0 || c < utf8.RuneSelf && (c < 'A' || c > 'Z') {
			continue // the first word, or ASCII other than a capital
		} else if c >= utf8.RuneSelf {
			if r, _ := utf8.DecodeRuneInString(text[t.Start:]); !unicode.IsUpper(r) {
				continue
			}
		}
		if startsSentence(text[words[i-1].End:t.Start]) {
			continue
		}
		dst = append(dst, t.Hash)
	}
	return dst
}

// startsSentence reports whether gap, the text between two words, ends a
// sentence or a clause: a period, question or exclamation mark, colon,
// dash or paragraph break.
func startsSentence(gap string) bool {
	if gap == " " {
		return false // the most common gap, decided without a search
	}
	return strings.ContainsAny(gap, ".!?:\n-–—")
}

// appendTags appends the contents of the <...> marks of s: Reuters writes
// tickers and unlisted companies so ("<GM>", "<Qantas Airways Ltd>").
func appendTags(dst []string, s string) []string {
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			return dst
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 || j > 60 {
			return dst
		}
		if tag := strings.TrimSpace(s[i+1 : i+j]); tag != "" {
			dst = append(dst, tag)
		}
		s = s[i+j+1:]
	}
}

// minNameLetters is the fewest letters and digits a word of a place or a
// tag needs to count as a name ("OF", "N.C." do not).
const minNameLetters = 3

// addWords adds each word of a place or a tag as a name of kind: "FRANKLIN
// AGE HIGH INCOME FUND" and "FRANKLIN FEDERAL TAX-FREE INCOME FUND" share
// four words and differ in the others.
// A tag of one word is a name whatever its length: tickers are short
// ("<E>", "<NL>").
func (s *sketcher) addWords(phrase string, kind NameKind) {
	words := strings.FieldsFunc(phrase, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' })
	for _, w := range words {
		if letterCount(w) >= minNameLetters || len(words) == 1 && kind == Tag {
			s.addName(w, kind)
		}
	}
}

// addName adds one name of a kind to s.ents: the mask of its character
// bigrams, which a misread letter or two leaves close (see nameMask), and,
// for a name of at least CharShingle letters and digits, the least
// fingerprint of its character shingles, the one a consistent sample of
// another document's shingles keeps first; 0 for a shorter name.
func (s *sketcher) addName(name string, kind NameKind) {
	s.buf = s.an.AppendNormalized(s.buf[:0], name)
	mask := nameMask(s.buf)
	if mask == 0 {
		return
	}
	var least uint32
	if letterCount(name) >= s.m.o.CharShingle {
		s.names = s.an.CharShingles(name, s.an.Words(name), s.m.o.CharShingle, s.names[:0])
		least = uint32(s.names[0])
		for _, h := range s.names[1:] {
			least = min(least, uint32(h))
		}
	}
	s.ents = append(s.ents, Entity{Mask: mask | uint64(kind)<<kindShift, Shingle: least})
}

// NameKind says where a name was found; names are compared with the names
// of their kind (see foreignNames).
type NameKind uint8

// The kinds of names.
const (
	TitleName NameKind = iota // a title word the text writes with a capital inside a sentence
	Place                     // the place of the dateline
	Tag                       // a <...> mark of the title or the opening: a ticker, a company
)

// kindShift places a name's kind in the top bits of its mask.
const kindShift = 62

// Entity is one name of a document (see Sketch.Names).
type Entity struct {
	// Mask has the bit of each pair of consecutive letters or digits of
	// the normalised name set, in its low 62 bits ("manville" and a
	// misread "manvville" share seven of eight), and the name's kind in
	// its top two.
	Mask uint64
	// Shingle is the least fingerprint of the name's character shingles;
	// 0 for a name shorter than a shingle.
	Shingle uint32
}

// Kind returns the kind of the name.
func (e Entity) Kind() NameKind { return NameKind(e.Mask >> kindShift) }

// bigrams returns the bigram bits of the name.
func (e Entity) bigrams() uint64 { return e.Mask &^ (3 << kindShift) }

// nameMask returns the bigram mask of a normalised name: letters and
// digits only, each pair hashed to one of 62 bits; a name of one character
// has the bit of that character alone. 0 for a name without letters or
// digits.
func nameMask(b []byte) uint64 {
	var mask, single uint64
	prev := rune(-1)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		if prev >= 0 {
			mask |= pairBit(prev, r)
		} else {
			single = pairBit(-1, r)
		}
		prev = r
	}
	if mask == 0 {
		return single
	}
	return mask
}

// pairBit returns the mask bit of two consecutive characters.
func pairBit(a, b rune) uint64 {
	x := uint64(uint32(a))<<32 | uint64(uint32(b)) // splitmix64's finaliser
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return 1 << ((x ^ x>>31) % kindShift)
}

// sameName reports whether two names share at least half of their
// bigrams: the same name, misread or not.
func sameName(a, b Entity) bool {
	x, y := a.bigrams(), b.bigrams()
	return 2*bits.OnesCount64(x&y) >= bits.OnesCount64(x|y)
}

// letterCount counts the letters and digits of s.
func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// foreignNames counts the names of a that b does not hold. Names are
// compared like with like: a dateline's place only when b has a dateline
// too, a tag only when b has tags; a title name with every name of b. A name
// b holds is the same name (sameName) as one of b's or, for a name of full
// shingles, one whose least shingle is in b's shingle sample (a shingle past
// b's cut is taken as present, since the sample cannot tell).
func foreignNames(a, b *Sketch) int {
	var has [3]bool
	for _, y := range b.Names {
		has[y.Kind()] = true
	}
	n := 0
	for _, x := range a.Names {
		if k := x.Kind(); k != TitleName && !has[k] || holdsName(b, x) {
			continue
		}
		n++
	}
	return n
}

// holdsName reports whether b holds the name x (see foreignNames).
func holdsName(b *Sketch, x Entity) bool {
	for _, y := range b.Names {
		if sameName(x, y) {
			return true
		}
	}
	if x.Shingle == 0 {
		return false
	}
	if x.Shingle > b.Cut {
		return true
	}
	_, ok := slices.BinarySearch(b.Set, x.Shingle)
	return ok
}

// changed reports whether each of two sorted sets holds a value the other
// lacks: figures that changed, not figures one side left out.
func changed(a, b []uint32) bool {
	return hasOther(a, b) && hasOther(b, a)
}

// hasOther reports whether sorted a holds a value sorted b lacks.
func hasOther(a, b []uint32) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return true
		}
	}
	return false
}

// secondsPerHour converts the distance of two Unix dates.
const secondsPerHour = 3600

// titleFigures returns the figures of a title, each as its first eight
// digits packed four bits a digit, unused nibbles 0xF, sorted: few enough to
// compare digit by digit, so that a misread digit ("2,50" for "2,500") is
// told from another figure ("11:10" against "11:31"). A colon joins digits
// (a report's hour).
func titleFigures(title string) []uint32 {
	var out []uint32
	for i := 0; i < len(title); {
		if !isDigit(title[i]) {
			i++
			continue
		}
		v, n := uint32(0), 0
		for ; i < len(title); i++ {
			c := title[i]
			if !isDigit(c) {
				if !strings.ContainsRune("-/.,:", rune(c)) || i+1 >= len(title) || !isDigit(title[i+1]) {
					break
				}
				continue
			}
			if n < 8 {
				v, n = v<<4|uint32(c-'0'), n+1
			}
		}
		for ; n < 8; n++ {
			v = v<<4 | 0xF
		}
		out = append(out, v)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// digitsOf unpacks a title figure.
func digitsOf(v uint32) []byte {
	var d []byte
	for shift := 28; shift >= 0; shift -= 4 {
		if x := byte(v >> shift & 0xF); x != 0xF {
			d = append(d, '0'+x)
		}
	}
	return d
}

// titleFiguresDisjoint reports whether two titles' figures, both non-empty,
// share none, a figure of three or more digits matching another that can be
// a damaged copy of it (a digit dropped, doubled or split off, see
// figures.Explains); a digit replaced by another is another figure ("12:00"
// and "12:10" are two hours).
func titleFiguresDisjoint(a, b []uint32) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, x := range a {
		dx := digitsOf(x)
		for _, y := range b {
			if x == y {
				return false
			}
			if dy := digitsOf(y); max(len(dx), len(dy)) >= 3 && figures.Explains(dx, dy) {
				return false
			}
		}
	}
	return true
}
