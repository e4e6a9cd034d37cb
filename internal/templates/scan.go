package templates

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

// A Scanner computes the contexts of one document after another, reusing
// its buffers: one per goroutine. The zero Scanner reads no title (see
// Shingle).
type Scanner struct {
	// Shingle is the length of the character shingles of the method's
	// sample (see Sample), whose least fingerprint a name of at least as
	// many letters keeps. 0 when the method keeps no character shingles:
	// names are then not read; the title's figures, its rerun mark and the
	// words that fill its slots are.
	Shingle int
	// Folded says the method reads the look-alikes of character
	// recognition as one character: its character shingles are folded
	// (analysis.Analyzer.FoldedCharShingles), a name's fingerprint is then
	// of folded shingles too, and the look-alike letters of a misread
	// figure ("1,2O0,000", "l71") are read as its digits (see misread).
	Folded bool
	// Fills says to read the words that fill the template's slots
	// (Context.Fills), which only Rules.Slots reads.
	Fills bool
	// WordFilter says to keep the filter of the shingles of the words of
	// the title and text (Context.WordFilter), where a name whose least
	// shingle lies past the document's sample cut is looked up. It needs
	// Shingle.
	WordFilter bool
	// ShortNames says to keep the title names of fewer letters and digits
	// than a shingle, from minNameLetters ("Leeds", "Peru", "Fed"), and to
	// add to the filter of the words the key (wordKey) of each word of that
	// length that starts with a capital, where such a name, which has no
	// shingle of its own, is looked up. It needs WordFilter; without it, a
	// title name has at least Shingle letters.
	ShortNames bool
	// TitleWords says to read the title (its rerun mark, figures, hash
	// and slot fills) when Shingle is 0 too, as the sketches of words of
	// minhash's format 9 and simhash's format 6 on do; older ones read no
	// title without character shingles, and an index of such a format goes
	// on making them so.
	TitleWords bool
	// Unicode says to read the figures and their places in every script
	// (figures.Scanner.Unicode): digits of other scripts ("١٢٠") are
	// figures, of the title too, and words of letters beyond ASCII are the
	// words around a figure ("с 3 по 10 мая"), as the sketches of minhash's
	// format 11, simhash's 7, sentences' and cosine's 4 on read them; older
	// ones read ASCII alone, and an index of such a format goes on so.
	Unicode bool
	// Measures says to read the figures of a table of stations as it
	// writes them (figures.Scanner.Measures): "nil" is the figure 0, and a
	// unit of measure after a figure ("33.0 MILLIMETRES", "5.0 MM") no word
	// of its place, so that a station with rain fills the place of the
	// same station without ("GUAXUPE NIL"), as the sketches of minhash's
	// format 12, simhash's 8, sentences' and cosine's 5 on read them; older
	// ones read no "nil" and the unit as the word after the figure, and an
	// index of such a format goes on so.
	Measures bool
	// Languages says to read figures and datelines as more languages write
	// them: the numbers two to ten written as words in German, French,
	// Spanish, Polish and Russian are figures, as the English ones are,
	// and a number whose groups of thousands a space sets apart one figure
	// (figures.Scanner.Languages: "zu drei Jahren", "к трём годам", "180
	// 000 euros"), and the datelines of Spanish, Russian, German and
	// French agencies are read with their dates and places
	// (analysis.DatelineReader.Languages: "MADRID, 5 de marzo -", "Madrid,
	// 5 mar (EFE).-", "Москва. 5 марта. ИНТЕРФАКС -", "BERLIN, 5. März
	// (dpa) -", "Berlin (dpa) -", "5 mars 2024 (Reuters) -"), as the
	// sketches of minhash's format 12, simhash's 8, sentences' and
	// cosine's 5 on read them; older ones read such a number as a word of
	// a place, such a sum as two figures and such a dateline without its
	// date, or as none, and an index of such a format goes on so. It says
	// too to read a figure's decimal separator as part of its value
	// (figures.Scanner.Decimals): "1.5" and "15" are other figures, "1.5"
	// and "1,5" one; older formats read a figure's digits alone.
	Languages bool
	// Columns says to read a figure alone at its line's end, set in a
	// column, in its row's last column (figures.Scanner.LastColumn:
	// "Nickel     7000" against "Nickel     7000  12000"), and a line that
	// opens with a figure and a word and sets its other figures in columns
	// as a row labelled by that figure (figures.Scanner.RowLabels: "5-14
	// days   5.75 pct   5.65 pct"), and to keep the letters of the
	// dateline's place (Name.Letters): sketches of minhash's format 13,
	// simhash's 9, sentences' and cosine's 6 on; older formats read such
	// figures in their words' places, and a place by its letter pairs
	// alone, and an index of such a format goes on so.
	Columns bool

	an    analysis.Analyzer
	figs  figures.Scanner
	dl    analysis.Dateline // the dateline of the text last scanned
	dlOK  bool
	names []uint64
	buf   []byte
	shape []byte
	tags  []string
	caps  []uint64
	long  []uint64 // the hashes of the title's words that can be names (see nameWords)
	ents  []Name
	fills []uint64
	slots []uint64 // the figures' places of the text last scanned, the figures Scanner's
	// titleNums holds the title's figures of the text last scanned.
	titleNums []uint32
	words     []string // the words of a place or a tag (see addWords)
	// misread holds a text whose misread figures were read (see misread).
	misread []byte
	shings  []uint64 // the shingles of one word (see wordFilter)
	keys    []uint32 // the shingles of the words the filter keeps
	seen    set64    // the words read for the filter, then its shingles
}

// maxCapsTokens bounds the words of a text read for capitalised words: names
// that matter open the story.
const maxCapsTokens = 400

// maxTagBytes bounds the opening of a text searched for <...> marks.
const maxTagBytes = 600

// Scan fills c from doc. words are the tokens of doc.Text
// (analysis.Analyzer.Words, of any analyzer). c.Nums and c.TitleNums are
// the scanner's until the next Scan: a caller that keeps c copies them
// (Own); the rest of c is c's own.
func (s *Scanner) Scan(doc *core.Document, words []analysis.Token, c *Context) {
	var tw []analysis.Token // the title's words
	s.caps = s.caps[:0]
	s.an.NarrowSpaceJoins = !s.Languages     // "180\u202f000" one word, as the formats before it read
	s.an.ZeroWidthSpaceSplits = !s.Languages // and "wi\u200bdth" two
	s.an.DottedIApart = !s.Columns           // and "KAPALI" and "kapalı" two words
	if doc.Title != "" {
		tw = s.an.Words(doc.Title)
	}
	if len(tw) > 0 && s.Shingle != 0 {
		want, short := s.nameWords(doc.Title, tw)
		s.caps = capitalised(doc.Text, words, want, short, s.caps)
	}
	c.WordFilter = s.wordFilter(doc.Text, words, doc.Title, tw) // before addName, which reuses tw's tokens
	dl, ok := analysis.DatelineReader{Languages: s.Languages}.Read(doc.Text)
	s.dl, s.dlOK = dl, ok
	body, bodyAt := doc.Text, 0
	if ok {
		body, bodyAt = doc.Text[dl.End:], dl.End
		c.Dateline = dateOf(dl)
	}
	if s.Folded {
		body, s.misread = misread(body, s.misread)
	}
	s.figs.Unicode, s.figs.Measures, s.figs.Languages = s.Unicode, s.Measures, s.Languages
	s.figs.Decimals = s.Languages // "1.5" is not "15", from the same formats
	s.figs.LastColumn = s.Columns // "Nickel 7000" the last column of "Nickel 7000 12000"
	s.figs.RowLabels = s.Columns  // "5-14 days   5.75 pct" a row labelled "5-14"
	c.Nums, s.slots = s.figs.Scan(body)
	s.fills = s.fills[:0]
	if s.Fills {
		s.fills = s.fillsOf(s.fills, doc.Text, words, bodyAt, headingEnd(doc), 0)
	}
	if !doc.Date.IsZero() {
		c.Date = doc.Date.Unix()
	}
	if doc.Title == "" || s.Shingle == 0 && !s.TitleWords {
		c.Slots, c.Fills = keepSlotsFills(s.slots, s.fills)
		return
	}
	title := doc.Title
	if s.Folded {
		title, s.misread = misread(title, s.misread)
	}
	if s.Unicode {
		title, s.misread = figures.ASCIIDigits(title, s.misread)
	}
	s.titleNums = appendTitleFigures(s.titleNums[:0], title, s.Languages)
	c.TitleNums = s.titleNums
	c.Rerun = isRerun(doc.Title)
	c.Title = uint32(analysis.HashTokens(tw))
	if s.Fills {
		s.fills = s.fillsOf(s.fills, doc.Title, tw, 0, len(doc.Title), titlePlace)
	}
	c.Slots, c.Fills = keepSlotsFills(s.slots, s.fills)
	if s.Shingle == 0 {
		return // names are looked up among character shingles
	}
	s.ents = s.ents[:0]
	for _, t := range tw {
		if !slices.Contains(s.caps, t.Hash) {
			continue
		}
		w := doc.Title[t.Start:t.End]
		n := letterCount(w)
		if n < s.Shingle {
			// A short name is looked up by its key, which the filter keeps
			// of a word without its possessive ending (see appendShortKey).
			w = trimPossessive(w)
			n = letterCount(w)
		}
		if n >= s.nameLetters() {
			s.addName(w, TitleName)
		}
	}
	if ok {
		s.addWords(dl.Place, Place)
	}
	s.tags = appendTags(appendTags(s.tags[:0], doc.Title), doc.Text[:min(len(doc.Text), maxTagBytes)])
	for _, tag := range s.tags {
		s.addWords(tag, Tag)
	}
	slices.SortFunc(s.ents, func(a, b Name) int { return cmp.Compare(a.Mask, b.Mask) })
	if s.ents = slices.Compact(s.ents); len(s.ents) > 0 {
		c.Names = slices.Clone(s.ents) // of its size: the context is kept
	}
}

// Dateline returns the dateline of the text last scanned, as
// analysis.DatelineReader read it (see Languages), for a caller that reads
// it too.
func (s *Scanner) Dateline() (analysis.Dateline, bool) { return s.dl, s.dlOK }

// headingEnd returns where the heading of doc's text ends when doc has no
// title (a table or a market report sent without one): its first line
// when more lines follow ("LONDON SEEDS 1330 - APR 7"), else the words
// before its first dash when they are written in capitals ("JOHANNESBURG
// EXCHS CLOSING - APRIL 7 US 0.4920/27 ..."; not a sentence's words); 0
// for none. A titled document's heading is its title, and its text's
// first line when that is a short line of its own (see subheadEnd).
func headingEnd(doc *core.Document) int {
	if doc.Title != "" {
		return subheadEnd(doc.Text)
	}
	line := doc.Text
	if i := strings.IndexByte(line, '\n'); i >= 0 && strings.TrimSpace(line[i:]) != "" {
		return i
	}
	if i := strings.Index(line, " -"); i >= 0 && !hasLowerRune(line[:i]) {
		return i
	}
	return 0
}

// maxSubhead bounds the first line of a titled text read as part of its
// heading (see subheadEnd), in bytes: a table's line of date and hour,
// not a sentence's first line hard-wrapped.
const maxSubhead = 40

// subheadEnd returns where the first line of a titled text ends when it
// is a line of its own, short and set apart from what follows (a blank
// line, an indented line): a table's date and hour under its title ("CBT
// SOYBEAN OIL SPREADS", then "APRIL 7 - 1000 - hrs cdt"); 0 for none.
func subheadEnd(text string) int {
	i := strings.IndexByte(text, '\n')
	if i < 0 || i > maxSubhead {
		return 0
	}
	j := i
	for j < len(text) && (text[j] == '\n' || text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
		j++
	}
	if j == len(text) || !lineBreak(text[i:j]) {
		return 0
	}
	return i
}

// Own copies the slices c shares with the Scanner that filled it.
func (c *Context) Own() {
	c.Nums, c.TitleNums = slices.Clone(c.Nums), slices.Clone(c.TitleNums)
}

// dateOf returns the dateline date as month<<5 | day, 0 for none.
func dateOf(d analysis.Dateline) uint16 {
	if d.Month == 0 {
		return 0
	}
	return uint16(d.Month)<<5 | uint16(d.Day)
}

// nameWords returns the hashes of the words of title, whose words are
// words, that can be names (see Scan): those of at least nameLetters
// letters and digits, a function word ("The", "For") left out of those
// shorter than a shingle; and the bits of those of fewer than Shingle
// (bit i for the i-th hash, of the first 64), which capitalised reads as
// short. The slice is the Scanner's until the next call.
func (s *Scanner) nameWords(title string, words []analysis.Token) (want []uint64, short uint64) {
	s.long = s.long[:0]
	n := s.nameLetters()
	for _, t := range words {
		l := letterCount(title[t.Start:t.End])
		if l < n || l < s.Shingle && isFunctionWord(t.Hash) {
			continue
		}
		if l < s.Shingle && len(s.long) < 64 {
			short |= 1 << len(s.long)
		}
		s.long = append(s.long, t.Hash)
	}
	return s.long, short
}

// nameLetters is the fewest letters and digits of a title name: those of
// a shingle, or minNameLetters with ShortNames (a shorter name is looked
// up by its key among the other document's words).
func (s *Scanner) nameLetters() int {
	if s.ShortNames && s.WordFilter {
		return min(s.Shingle, minNameLetters)
	}
	return s.Shingle
}

// capitalised appends to dst the hashes of the words of text among want
// written with a capital inside a sentence (not after a sentence's end or
// a dash): the names a story mentions, not the words a sentence happens to
// start with. A short word (its bit set in short, see nameWords) the text
// also writes in lower case is left out: a common word a name holds ("the
// Sri Lanka Banks Association", "the House of Lords", "Apple Store"), which
// another text writes in lower case, where a short name is not looked up
// (see Scanner.ShortNames). want are a title's few words: a filter of one
// bit a word (its hash's low six bits) passes over most other words before
// their text is read, and a word is dropped from it once decided (a long
// one found, a short one seen in lower case).
func capitalised(text string, words []analysis.Token, want []uint64, short uint64, dst []uint64) []uint64 {
	var found, lower uint64 // the bits of the words found with a capital, and of the short ones seen in lower case
	open := ^uint64(0)      // the bits of the words not yet decided
	filter := wantFilter(want, open)
	if filter == 0 {
		return dst
	}
	for i, t := range words[:min(len(words), maxCapsTokens)] {
		if filter&(1<<(t.Hash&63)) == 0 || i == 0 {
			continue // no title word's, or the first word
		}
		j := slices.Index(want, t.Hash)
		if j < 0 || j < 64 && open&(1<<j) == 0 {
			continue
		}
		if c := text[t.Start]; c < utf8.RuneSelf && (c < 'A' || c > 'Z') {
			if 'a' <= c && c <= 'z' && j < 64 && short&(1<<j) != 0 {
				lower, open = lower|1<<j, open&^(1<<j)
				filter = wantFilter(want, open)
			}
			continue // ASCII other than a capital
		} else if c >= utf8.RuneSelf {
			if r, _ := utf8.DecodeRuneInString(text[t.Start:]); !unicode.IsUpper(r) {
				if unicode.IsLower(r) && j < 64 && short&(1<<j) != 0 {
					lower, open = lower|1<<j, open&^(1<<j)
					filter = wantFilter(want, open)
				}
				continue
			}
		}
		if startsSentence(text[words[i-1].End:t.Start]) {
			continue
		}
		if j >= 64 {
			dst = append(dst, t.Hash) // past the bits: found each time
			continue
		}
		if found |= 1 << j; short&(1<<j) == 0 {
			open &^= 1 << j // a long word found is a name
			filter = wantFilter(want, open)
		}
	}
	for j := range min(len(want), 64) {
		if found&^lower&(1<<j) != 0 {
			dst = append(dst, want[j])
		}
	}
	return dst
}

// wantFilter returns the filter of the words of want whose bits are set in
// open (see capitalised), every word past the first 64 with them.
func wantFilter(want []uint64, open uint64) uint64 {
	var filter uint64
	for j, h := range want {
		if j >= 64 || open&(1<<j) != 0 {
			filter |= 1 << (h & 63)
		}
	}
	return filter
}

// startsSentence reports whether gap, the text between two words, ends a
// sentence or a clause: a period, question or exclamation mark, colon,
// dash or paragraph break.
func startsSentence(gap string) bool {
	for i := 0; i < len(gap); i++ {
		switch c := gap[i]; {
		case c == '.' || c == '!' || c == '?' || c == ':' || c == '\n' || c == '-':
			return true
		case c >= utf8.RuneSelf:
			return strings.ContainsAny(gap[i:], ".!?:\n-–—") // beyond ASCII: the dashes too
		}
	}
	return false
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
// tag needs to count as a name ("OF", "N.C." do not), and a title name
// with Scanner.ShortNames. Words of two are mostly what a rewrite spells
// another way ("UK" and "Britain", "US" and "United States") or no name
// ("Mr", "St"), and their one letter pair, hashed to one of 62 bits, is
// no mask to tell them by; from three they are places ("Rome", "Peru"),
// people ("Kim"), banks and agencies ("Fed", "ECB", "IMF").
const minNameLetters = 3

// addWords adds each word of a place or a tag as a name of kind: "FRANKLIN
// AGE HIGH INCOME FUND" and "FRANKLIN FEDERAL TAX-FREE INCOME FUND" share
// four words and differ in the others.
// A tag of one word is a name whatever its length: tickers are short
// ("<E>", "<NL>").
func (s *Scanner) addWords(phrase string, kind NameKind) {
	s.words = appendNameWords(s.words[:0], phrase)
	for _, w := range s.words {
		if letterCount(w) >= minNameLetters || len(s.words) == 1 && kind == Tag {
			s.addName(w, kind)
		}
	}
}

// appendNameWords appends to dst the words of phrase: its runs of letters,
// digits and periods (strings.FieldsFunc's fields, without allocating).
func appendNameWords(dst []string, phrase string) []string {
	start := -1
	for i, r := range phrase {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			dst, start = append(dst, phrase[start:i]), -1
		}
	}
	if start >= 0 {
		dst = append(dst, phrase[start:])
	}
	return dst
}

// addName adds one name of a kind to s.ents: the mask of its character
// bigrams, which a misread letter or two leaves close (see nameMask), and,
// for a name of at least Shingle letters and digits, the least
// fingerprint of its character shingles, the one a consistent sample of
// another document's shingles keeps first; 0 for a shorter name.
func (s *Scanner) addName(name string, kind NameKind) {
	s.buf = s.an.AppendNormalized(s.buf[:0], name)
	if s.Folded {
		for i, c := range s.buf {
			if l := digitLookAlikes[c]; l != 0 {
				s.buf[i] = l // a misread name ("<FH5Y>") keeps its letter pairs
			}
		}
	}
	mask := nameMask(s.buf)
	if mask == 0 {
		return
	}
	var least uint32
	if letterCount(name) >= s.Shingle {
		if s.Folded {
			s.names = s.an.FoldedCharShingles(name, s.an.Words(name), s.Shingle, s.names[:0])
		} else {
			s.names = s.an.CharShingles(name, s.an.Words(name), s.Shingle, s.names[:0])
		}
		least = uint32(s.names[0])
		for _, h := range s.names[1:] {
			least = min(least, uint32(h))
		}
	}
	n := Name{Mask: mask | uint64(kind)<<kindShift, Shingle: least}
	if s.Columns && kind == Place {
		n.Letters = letterMask(s.buf)
	}
	s.ents = append(s.ents, n)
}

// figureLookAlikes maps the letters a character recogniser reads for
// digits to those digits (O and o for 0, l and I for 1, S for 5, B for 8,
// Z for 2), 0 for every other byte.
var figureLookAlikes = [256]byte{'O': '0', 'o': '0', 'l': '1', 'I': '1', 'S': '5', 'B': '8', 'Z': '2'}

// digitLookAlikes maps the digits a character recogniser reads for
// letters to those letters, lower-cased (as analysis.FoldedCharShingles
// reads them), 0 for every other byte.
var digitLookAlikes = func() (t [256]byte) {
	for _, p := range analysis.DigitLookAlikes {
		t[p[0]] = p[1]
	}
	return t
}()

// misread returns text with each misread figure read as one: a word of
// digits, look-alike letters (figureLookAlikes) and figure joins (',' and
// '.') alone, holding at least one digit and one look-alike ("1,2O0,000",
// "l71", "Z7"), gets the digits of its look-alikes. A word holding any
// other letter ("1st", "3M") is a word. text comes back as it is, not
// copied, when it holds no misread figure; buf is reused for a copy.
func misread(text string, buf []byte) (string, []byte) {
	changed := false
	// Only a word holding a digit can be a misread figure: the digits are
	// found eight bytes at a time (nextDigit), and only their words read.
	for at := 0; ; {
		d := nextDigit(text, at)
		if d < 0 {
			break
		}
		start, end, kinds := d, d, 0 // the digit's word and the kinds of its bytes, a bit each
		for start > at && misreadKind[text[start-1]] != byteSeparator {
			start--
			kinds |= 1 << misreadKind[text[start]]
		}
		for ; end < len(text) && misreadKind[text[end]] != byteSeparator; end++ {
			kinds |= 1 << misreadKind[text[end]]
		}
		if kinds&(1<<byteDigit|1<<byteLookAlike|1<<byteLetter) == 1<<byteDigit|1<<byteLookAlike {
			if !changed {
				buf, changed = append(buf[:0], text...), true
			}
			for j := start; j < end; j++ {
				if d := figureLookAlikes[text[j]]; d != 0 {
					buf[j] = d
				}
			}
		}
		at = end + 1 // past the separator that ends the word
	}
	if !changed {
		return text, buf
	}
	return string(buf), buf
}

// nextDigit returns the offset of the first ASCII digit of text at or
// after from, -1 for none. It reads eight bytes at a time as one number
// (as analysis reads ASCII) and tests all of them at once: a byte's low
// seven bits plus 0x50 reach its high bit when they are 0x30 ('0') or more,
// plus 0x46 when 0x3A (past '9') or more, and no sum carries into the next
// byte; a byte of 0x80 or more is no digit.
func nextDigit(text string, from int) int {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	i := from
	for ; i+8 <= len(text); i += 8 {
		v := analysis.Load64(text[i : i+8])
		low := v &^ highs
		if d := (low + 0x50*lows) &^ (low + 0x46*lows) &^ v & highs; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for ; i < len(text); i++ {
		if '0' <= text[i] && text[i] <= '9' {
			return i
		}
	}
	return -1
}

// The kinds of bytes misread reads a word by: a separator ends a word.
const (
	byteSeparator = iota
	byteDigit
	byteLookAlike // see figureLookAlikes
	byteJoin      // a figure's comma or point
	byteLetter    // any other letter
)

// misreadKind is the kind of each byte (see misread).
var misreadKind = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case '0' <= c && c <= '9':
			t[c] = byteDigit
		case figureLookAlikes[c] != 0:
			t[c] = byteLookAlike
		case c == ',' || c == '.':
			t[c] = byteJoin
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			t[c] = byteLetter
		}
	}
	return t
}()
