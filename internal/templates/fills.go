package templates

import (
	"github.com/neardup/neardup/internal/figures"
	"math"
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neardup/neardup/internal/analysis"
)

// A template's slots hold figures (see figures.Slots) and words: the name
// of the company, fund or contest, the commodity of a market report, the
// hour of a price report. A fill is one such word, or run of words, with
// the place it fills: the word before it and the word after it on its line
// ("lead manager _ said", "degrees - _ prices"). Two texts that fill a
// place both fill once with other words are one template filled in twice,
// however much wording they share.

// The kinds of fill.
const (
	fillName      = iota // a run of capitalised words inside a sentence, or of words in quotes
	fillCommodity        // a commodity a market report is about (commodities)
	fillTime             // a time of day: "10:30", "opening", "midsession"
	fillHour             // a bare number that reads as an hour ("1000"): another time only against a time
)

// A fill packs a 16-bit place, a 2-bit kind, a bit set for a place no
// template frames (fillUnframed), a 31-bit mask of the character bigrams
// of the value's shape (see figures.AppendShape), so that a misread letter leaves
// the value the same, and a 14-bit hash of its initials, so that a name
// and its abbreviation are one ("United Nations" and "U.N."; see
// sameFill).
const (
	fillPlaceShift  = 48
	fillKindShift   = 46
	fillUnframed    = 1 << 45
	fillMaskBits    = 31
	fillInitialBits = 14
	fillValueMask   = fillUnframed - 1
)

// leadWords is how many words of a text open it: a template's slots are
// filled in its title and its lead (the issuer, the commodity, the hour);
// a story rewritten keeps its lead and changes words further on.
const leadWords = 50

// maxFillWords bounds the words of a quotation that fills a slot: a
// longer one is a sentence quoted, not a name. A run of capitals is read
// whole, however long ("Franklin Pennsylvania Investors U.S. Government
// Securities Fund"): cut short, the rest would fill another place, and
// the name no place the other notice's name fills.
const maxFillWords = 6

// titlePlace is mixed into the places of a title, which are not the
// text's.
const titlePlace = 0x9e37

// textStartPlace is mixed into the place of a fill that opens a text's
// body (after any dateline).
const textStartPlace = 0x5f3a9c1d

// headingPlace is the bit of a place (its top one) set for a place in the
// report's heading (see fillsOf).
const headingPlace = 1 << 15

// commodities are the goods market reports are about.
var commodities = []string{
	"wheat", "corn", "maize", "soybean", "soybeans", "soymeal", "soyoil", "barley", "oats", "rice", "sorghum",
	"rye", "rapeseed", "canola", "hog", "hogs", "pork", "bellies", "cattle", "steer", "steers", "heifer",
	"heifers", "lamb", "lambs", "sheep", "broiler", "broilers", "gold", "silver", "copper", "platinum",
	"palladium", "aluminium", "aluminum", "zinc", "nickel", "tin", "coffee", "cocoa", "sugar", "cotton",
	"rubber", "wool", "tea", "crude", "gasoline", "petrol", "naphtha", "propane", "diesel", "gasoil",
}

// timeWords are the words that say the time of day of a report.
var timeWords = []string{
	"opg", "opening", "open", "opens", "midday", "noon", "midsession", "midmorning", "morning", "afternoon", "evening",
	"close", "closes", "closing", "clsg", "early", "late",
}

// sentenceStops are the words that open a sentence without naming
// anything: a run of capitals at a sentence's start that opens with one is
// read from its next word.
var sentenceStops = []string{
	"the", "a", "an", "in", "on", "at", "for", "but", "and", "it", "its", "he", "she", "they", "we", "this",
	"that", "his", "her", "their", "as", "after", "by", "from", "with", "if", "when", "while", "under", "last",
	"earlier", "both",
}

// functionWords, with sentenceStops, are the words that frame no
// template's place on their own (see fillsOf).
var functionWords = []string{
	"of", "to", "or",
}

// opensQuote reports whether gap, the text before a word, ends with a
// quotation mark that opens a quotation: right before the word, after a
// space or at the start ("said \"Alpha", «Альфа).
func opensQuote(gap string) bool {
	if gap == "" || gap[len(gap)-1] < utf8.RuneSelf && gap[len(gap)-1] != '"' {
		return false // the common case: a space or other ASCII before the word
	}
	r, size := utf8.DecodeLastRuneInString(gap)
	if !strings.ContainsRune("\"«“„", r) {
		return false
	}
	rest := gap[:len(gap)-size]
	return rest == "" || strings.HasSuffix(rest, " ") || strings.HasSuffix(rest, "\n") || strings.HasSuffix(rest, "(")
}

// closesQuote reports whether gap, the text after a word, opens with a
// quotation mark that closes a quotation, after the punctuation that may
// end it (Alpha", Alpha," Альфа»).
func closesQuote(gap string) bool {
	gap = strings.TrimLeft(gap, ".,;:!?")
	r, _ := utf8.DecodeRuneInString(gap)
	return strings.ContainsRune("\"»”“", r)
}

// fillsOf appends the fills of text, whose words are words, to dst; mix is
// mixed into every place (titlePlace for a title). A name before the
// offset body, in the dateline, is left out: a dateline's place tells a
// story's reprint as well as another story (see Context.Names); its hour
// or commodity ("HONG KONG GOLD OPG - APR 8") is read.
//
// A fill before the offset heading lies in the report's heading (a title,
// or the first line of a table sent without one: "NY COMEX COPPER 12:00"):
// its place keeps headingPlace set, and a time of day there is the hour of
// the report (see Evidence.ReportTime); a bare hour there, in a text's
// heading, not a title's, is a time of day ("SINGAPORE RUBBER 1045"). A place whose words on both sides
// are function words or missing ("for _ and", "and _" at the end) is no
// template's place: its fill is compared in no place, only looked up
// (heldElsewhere).
func (s *Scanner) fillsOf(dst []uint64, text string, words []analysis.Token, body, heading int, mix uint64) []uint64 {
	words = words[:min(len(words), leadWords)]
	names, lineEnd := false, -1
	for i := 0; i < len(words); {
		// Most words are plain: fillAt would find no fill at them.
		if i, names, lineEnd = skipPlain(text, words, i, names, lineEnd); i == len(words) {
			break
		}
		n, kind := s.fillAt(text, words, i, names)
		if n == 0 {
			i++
			continue
		}
		if kind == fillName && int(words[i].Start) < body {
			i += n
			continue
		}
		s.buf = s.buf[:0]
		for _, t := range words[i : i+n] {
			s.buf = s.an.AppendNormalized(append(s.buf, ' '), text[t.Start:t.End])
		}
		s.shape = figures.AppendShape(s.shape[:0], s.buf)
		initials := s.initials(text, words[i:i+n])
		if kind == fillHour {
			initials = digitsHash(s.buf) // "1000" and "1100" share their shape, not their digits
		}
		if v := bigramMask(s.shape, fillMaskBits)<<fillInitialBits | initials; v>>fillInitialBits != 0 {
			place, framed := mix, false
			if i > 0 && !lineBreak(text[words[i-1].End:words[i].Start]) && (int(words[i-1].Start) >= body || int(words[i].Start) < body) {
				place ^= words[i-1].Hash
				framed = !isFunctionWord(words[i-1].Hash)
			} else if e := i + n; mix == 0 && int(words[i].Start) >= body && (i == 0 || int(words[i-1].Start) < body) &&
				e < len(words) && !lineBreak(text[words[e-1].End:words[e].Start]) {
				// The text's first words, after any dateline, and words
				// after them on their line: the subject of its lead
				// ("Harold Jensen, a lifelong resident …"), not a line of
				// its own (a headline, a kicker, a credit).
				place ^= textStartPlace
				framed = true
			}
			if e := i + n; e < len(words) && !lineBreak(text[words[e-1].End:words[e].Start]) {
				place ^= bits.RotateLeft64(words[e].Hash, 17)
				framed = framed || !isFunctionWord(words[e].Hash)
			}
			if !framed {
				v |= fillUnframed // kept for heldElsewhere, compared in no place
			}
			p := uint64(uint16(place^place>>16^place>>32^place>>48)) &^ headingPlace
			if int(words[i].Start) < heading {
				p |= headingPlace
				if kind == fillHour && mix == 0 {
					kind = fillTime // a table's heading names its hour: "SINGAPORE RUBBER 1045 - APRIL 8"
				}
			}
			dst = append(dst, p<<fillPlaceShift|uint64(kind)<<fillKindShift|v)
		}
		i += n
	}
	return dst
}

// skipPlain returns the first of words from words[i] that may fill a
// slot, len(words) for none, passing over the plain words, at which fillAt
// finds no fill, cheaply: an ASCII word that starts with a lower-case
// letter, or with no digit on a line without names, after no quotation
// mark, and neither a commodity nor a time. names and lineEnd are those of
// the line read last (see lineOf), returned for the word's line.
func skipPlain(text string, words []analysis.Token, i int, names bool, lineEnd int) (int, bool, int) {
	gapStart := 0
	if i > 0 {
		gapStart = int(words[i-1].End)
	}
	for ; i < len(words); i++ {
		t := words[i]
		start := int(t.Start)
		if start > lineEnd {
			names, lineEnd = lineOf(text, start)
		}
		c := text[start]
		if !('a' <= c && c <= 'z' || !names && c < utf8.RuneSelf && !isDigit(c)) {
			break
		}
		if start > gapStart && (text[start-1] >= utf8.RuneSelf || text[start-1] == '"') {
			break // opensQuote may hold
		}
		if k := kindOf(t.Hash); k == commodityWord || k == timeWord {
			break
		}
		gapStart = int(t.End)
	}
	return i, names, lineEnd
}

// lineBreak reports whether gap, the text between two words, ends a line
// that is not a paragraph's hard-wrapped line: a blank line, or a line
// break before an indented line (a new paragraph, a table's row).
func lineBreak(gap string) bool {
	i := strings.LastIndexByte(gap, '\n')
	return i >= 0 && (i+1 < len(gap) || strings.Count(gap, "\n") > 1)
}

// fillAt returns how many words from words[i] fill a slot and of which
// kind; 0 for none. names says the line writes in mixed case, where a
// capital marks a name.
func (s *Scanner) fillAt(text string, words []analysis.Token, i int, names bool) (int, int) {
	w := text[words[i].Start:words[i].End]
	gap := text[:words[i].Start]
	if i > 0 {
		gap = text[words[i-1].End:words[i].Start]
	}
	if opensQuote(gap) {
		if n := quoted(text, words, i); n > 0 {
			return n, fillName
		}
	}
	kind := kindOf(words[i].Hash)
	switch {
	case kind == commodityWord:
		return 1, fillCommodity
	case kind == timeWord:
		return 1, fillTime
	case isDigit(w[0]) && isClock(text, words, i):
		return 2, fillTime
	case isDigit(w[0]) && isHourNumber(w):
		return 1, fillHour
	}
	if !names || !isCapital(w) {
		return 0, 0
	}
	n := 1
	for i+n < len(words) && (isJoin(text[words[i+n-1].End:words[i+n].Start]) || abbreviationJoins(text, words, i+n)) {
		if !isCapital(text[words[i+n].Start:words[i+n].End]) {
			// One or two particles between two capitalised words are the
			// name's: "Aix-en-Provence", "Jan van Dijk", "Ludwig van der
			// Berg", "Stratford-upon-Avon".
			if p := particles(text, words, i+n); p > 0 {
				n += p + 1
				continue
			}
			break
		}
		if k := kindOf(words[i+n].Hash); k == commodityWord || k == timeWord {
			break // a commodity or a time fills a slot of its own
		}
		n++
	}
	if (i == 0 || startsSentence(gap)) && (n == 1 || kind == stopWord) {
		return 0, 0 // a capital a sentence starts with; the rest of the run is read next
	}
	return n, fillName
}

// abbreviationJoins reports whether the dot between words[j-1] and
// words[j] ends an abbreviation inside a name, not a sentence: words[j-1]
// is one capital letter or letters with dots between them ("F", "U.S"),
// and words[j], after its dot and a space, starts with a capital and opens
// no sentence ("Investors U.S. Government Securities Fund", "John F.
// Kennedy"; not "in the U.S. The company").
func abbreviationJoins(text string, words []analysis.Token, j int) bool {
	gap := text[words[j-1].End:words[j].Start]
	if len(gap) < 2 || gap[0] != '.' || !isJoin(gap[1:]) {
		return false
	}
	w := text[words[j-1].Start:words[j-1].End]
	if !(len(w) == 1 && isCapital(w) || strings.IndexByte(w, '.') > 0) {
		return false
	}
	return isCapital(text[words[j].Start:words[j].End]) && kindOf(words[j].Hash) != stopWord
}

// particles returns how many particles (nameParticles, one or two) start
// at words[i], joined to each other and to a capitalised word after them;
// 0 when they do not.
func particles(text string, words []analysis.Token, i int) int {
	for p := 1; p <= 2 && i+p < len(words); p++ {
		w := text[words[i+p-1].Start:words[i+p-1].End]
		if !nameParticles[w] || !isJoin(text[words[i+p-1].End:words[i+p].Start]) {
			return 0
		}
		if isCapital(text[words[i+p].Start:words[i+p].End]) {
			return p
		}
	}
	return 0
}

// nameParticles are the lower-case words that stand inside a name between
// two capitalised ones: "van", "de", "en", "upon" (not "of" or "and",
// which join two names as often as they lie inside one).
var nameParticles = map[string]bool{
	"al": true, "am": true, "bin": true, "da": true, "das": true, "de": true, "dei": true, "del": true, "della": true,
	"den": true, "der": true, "des": true, "di": true, "do": true, "dos": true, "du": true, "el": true, "en": true,
	"ibn": true, "im": true, "la": true, "le": true, "les": true, "on": true, "sur": true, "ten": true, "ter": true,
	"upon": true, "van": true, "von": true, "y": true, "zu": true,
}

// quoted returns how many words from words[i], whose gap before opens a
// quotation, lie inside it: at most maxFillWords, else 0.
func quoted(text string, words []analysis.Token, i int) int {
	for n := 1; n <= maxFillWords && i+n <= len(words); n++ {
		e := i + n
		if e < len(words) && closesQuote(text[words[e-1].End:words[e].Start]) ||
			e == len(words) && closesQuote(text[words[e-1].End:]) {
			return n
		}
	}
	return 0
}

// The kinds of words wordKinds knows.
const (
	otherWord = iota
	commodityWord
	timeWord
	stopWord
	functionWord
)

// wordKinds holds the hash of each normalised word it knows
// (analysis.Token.Hash) with its kind, in an open-addressed table of
// kindSlots (linear probing from the hash's low bits; a slot of kind
// otherWord is empty): a look-up is a load or two, no map's hashing.
// wordFilter has a bit of each, so that most words are passed over
// without a look-up.
var wordKinds, wordFilter = func() (*[kindSlots]kindSlot, *[16]uint64) {
	kinds, filter := map[uint64]uint8{}, new([16]uint64)
	var an analysis.Analyzer
	for kind, words := range [][]string{commodityWord: commodities, timeWord: timeWords, stopWord: sentenceStops, functionWord: functionWords} {
		for _, w := range words {
			h := analysis.HashWord(an.AppendNormalized(nil, w))
			kinds[h] = uint8(kind) // a word of two lists is of the later
			filter[h>>6&15] |= 1 << (h & 63)
		}
	}
	table := new([kindSlots]kindSlot)
	for h, kind := range kinds {
		i := h
		for table[i%kindSlots].kind != otherWord {
			i++
		}
		table[i%kindSlots] = kindSlot{hash: h, kind: kind}
	}
	return table, filter
}()

// kindSlots is the size of wordKinds' table: a power of two, four times
// the words it holds or more, so that probes are short.
const kindSlots = 512

// A kindSlot is one slot of wordKinds: a word's hash and its kind.
type kindSlot struct {
	hash uint64
	kind uint8
}

// kindOf returns the kind of the word of hash h.
func kindOf(h uint64) uint8 {
	if wordFilter[h>>6&15]&(1<<(h&63)) == 0 {
		return otherWord
	}
	for i := h; ; i++ {
		if e := &wordKinds[i%kindSlots]; e.hash == h || e.kind == otherWord {
			return e.kind
		}
	}
}

// isFunctionWord reports whether the word of hash h is a function word
// (sentenceStops, functionWords), which frames no place on its own.
func isFunctionWord(h uint64) bool {
	k := kindOf(h)
	return k == stopWord || k == functionWord
}

// isJoin reports whether gap joins two words of one name: a space, a
// hyphen, an ampersand or a hard-wrapped line's end, no punctuation that
// ends a clause.
func isJoin(gap string) bool {
	return gap == " " || gap == "-" || gap == " & " || gap == "&" || strings.TrimSpace(gap) == "" && !lineBreak(gap)
}

// isCapital reports whether w starts with a capital letter.
func isCapital(w string) bool {
	if w != "" && w[0] < utf8.RuneSelf {
		return 'A' <= w[0] && w[0] <= 'Z' // ASCII's upper case, as unicode.IsUpper
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// lineOf returns whether the line of text holding the offset at holds a
// lower-case letter (a line written all in capitals, a heading or a
// wire's title, marks no names), and where the line ends.
func lineOf(text string, at int) (lower bool, end int) {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	end = len(text)
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		end = at + i
	}
	line := text[start:end]
	for i := 0; i < len(line); i++ {
		if c := line[i]; 'a' <= c && c <= 'z' {
			return true, end // ASCII's lower case, as unicode.IsLower
		} else if c >= utf8.RuneSelf {
			for _, r := range line[i:] {
				if unicode.IsLower(r) {
					return true, end
				}
			}
			break
		}
	}
	return false, end
}

// isClock reports whether words[i] and words[i+1] are the hours and minutes
// of a clock time ("11:30", "9.45 GMT" is not read).
func isClock(text string, words []analysis.Token, i int) bool {
	if i+1 >= len(words) {
		return false
	}
	h, m := text[words[i].Start:words[i].End], text[words[i+1].Start:words[i+1].End]
	return text[words[i].End:words[i+1].Start] == ":" && len(h) <= 2 && len(m) == 2 && allDigits(h) && allDigits(m) &&
		atoi(h) < 24 && atoi(m) < 60
}

// isHourNumber reports whether w is three or four digits that read as an
// hour and its minutes ("1000", "930").
func isHourNumber(w string) bool {
	if len(w) < 3 || len(w) > 4 || !allDigits(w) {
		return false
	}
	v := atoi(w)
	return v/100 < 24 && v%100 < 60
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return w != ""
}

func atoi(w string) int {
	v := 0
	for i := 0; i < len(w); i++ {
		v = v*10 + int(w[i]-'0')
	}
	return v
}

// keepSlotsFills sorts fills and returns slots and the fills of the places
// filled once, copied into one array of their size, which the context
// keeps (one allocation, not two); either is nil when it holds none. A
// place filled twice (a table's column, a list) does not say which word
// fills it.
func keepSlotsFills(slots, fills []uint64) ([]uint64, []uint64) {
	fills = figures.FilledOnce(fills, fillPlaceShift)
	n := len(slots)
	if n+len(fills) == 0 {
		return nil, nil
	}
	all := make([]uint64, n+len(fills))
	copy(all, slots)
	copy(all[n:], fills)
	var keptSlots, keptFills []uint64
	if n > 0 {
		keptSlots = all[:n:n]
	}
	if len(fills) > 0 {
		keptFills = all[n:]
	}
	return keptSlots, keptFills
}

// minSharedBits is the fewest bigram bits two values of one word must
// share to be the same value by sharing half of them: a short word's shape
// has two to four bits ("Sahon" folds to "sonon"), half of which another
// short word's hold by chance. Fewer, they must be the same bits. Of 70
// names of companies and capitals, 10 of 2,415 pairs are the same so (41
// at three), and 20 of 25 spellings of one name across desks
// ("Zelenskiy", "Zelenskyy"; 14 at two thirds of the pairs).
const minSharedBits = 4

// maxHeldBits bounds the bigram bits of a word: a value found inside
// another is a word ("Spurs"), not a name of several words, whose bits the
// longer name's mask would hold by chance; a value of more bits is
// compared as a name of several words.
const maxHeldBits = 9

// sameFill reports whether two fills of one place hold the same value (or
// one holds the other: "Spurs" and "San Antonio Spurs"): the same kind (a bare number and a time are compared; two bare numbers are
// figures, which figures.InPlace compares) sharing at least half of their
// bigrams.
func sameFill(a, b uint64) bool { return fillsAgree(a, b, true) }

// fillsAgree is sameFill; held says a word found inside the other value
// counts (only within one place: a short word's few bits lie in a long
// name's mask by chance, and a text has many names to search).
func fillsAgree(a, b uint64, held bool) bool {
	ka, kb := a>>fillKindShift&3, b>>fillKindShift&3
	if ka == fillHour && kb == fillHour {
		return true
	}
	if ka != kb && !(ka == fillHour && kb == fillTime || ka == fillTime && kb == fillHour) {
		return ka == fillHour || kb == fillHour // a number in a name's place is no evidence
	}
	x, y := a&fillValueMask>>fillInitialBits, b&fillValueMask>>fillInitialBits
	both, nx, ny := bits.OnesCount64(x&y), bits.OnesCount64(x), bits.OnesCount64(y)
	ia, ib := a&(1<<fillInitialBits-1), b&(1<<fillInitialBits-1)
	nu := bits.OnesCount64(x | y)
	if (ia != 0 || nx > maxHeldBits) && (ib != 0 || ny > maxHeldBits) {
		// Two names of several words (a value of more bits than a word
		// sets: a name of six words or more keeps no initials), or
		// abbreviations: the same initials, or most of their letter pairs
		// (a name's words in another order, a word added: "E-Systems
		// Inc").
		return ia != 0 && ia == ib || mostPairs(nx, ny, nu)
	}
	if ia == 0 && ib == 0 && 2*both >= nu && (both >= minSharedBits || x == y) {
		return true
	}
	// A word held inside a name of several words (or initials): "Spurs"
	// in "San Antonio Spurs"; a word and a longer name are otherwise two
	// ("Saturday" and "Ólafur Þórðarson" share half of their bits). Not
	// inside another word: a word's few bits lie in another's mask by
	// chance, about one pair of names in thirty ("Sony" in "Danone").
	return held && (nx <= ny && ib != 0 && both == nx && nx <= maxHeldBits && ny <= halfMask || ny <= nx && ia != 0 && both == ny && ny <= maxHeldBits && nx <= halfMask)
}

// maskPairs holds, for each count of bits set in a fill's mask, how many
// distinct letter pairs set them, as many as chance would spread over
// fillMaskBits bits (linear counting: -m ln(1 - k/m)): a name of several
// words sets most bits, many pairs hashed to one, so that the bits two such
// masks share are mostly chance's. A full mask counts as one bit short.
var maskPairs = func() (t [fillMaskBits + 1]float64) {
	for k := range t {
		t[k] = -fillMaskBits * math.Log(1-float64(min(k, fillMaskBits-1))/fillMaskBits)
	}
	return t
}()

// halfMask is half of a fill's mask, in bits: a mask with more set
// holds most letter pairs by chance, and tells neither what lies inside it
// nor, by its bits alone, how many pairs it shares with another.
const halfMask = fillMaskBits / 2

// mostPairs reports whether two masks of nx and ny bits, of which nu are
// set in either, share two thirds of their letter pairs or more: counted
// by their bits while nu is at most halfMask, else by the pairs that many
// bits stand for (maskPairs), as several pairs set one bit by chance.
// "Franklin Pennsylvania Tax-Free Income Fund" and "Franklin Pennsylvania
// Investors U.S. Government Securities Fund" share 17 of 23 bits but about
// 23 of 42 pairs.
func mostPairs(nx, ny, nu int) bool {
	if nu <= halfMask {
		return 3*(nx+ny-nu) >= 2*nu // the bits they share
	}
	u := maskPairs[nu]
	return 3*(maskPairs[nx]+maskPairs[ny]-u) >= 2*u
}

// initials returns a 14-bit hash of the initials of a name of two or more
// words ("American Basketball Association": "aba"; an abbreviation's
// letters are each an initial: "U.S. Officials" is "uso", as "United
// States Officials"), or of the letters of one word of two to five
// capitals and dots ("ABA", "U.N"); 0 for another.
func (s *Scanner) initials(text string, words []analysis.Token) uint64 {
	var h uint64 = 14695981039346656037
	n := 0
	add := func(r rune) {
		h = (h ^ uint64(unicode.ToLower(r))) * 1099511628211
		n++
	}
	if len(words) == 1 {
		w := text[words[0].Start:words[0].End]
		if len(w) > 6 || hasLowerRune(w) {
			return 0
		}
		for _, r := range w {
			if unicode.IsLetter(r) {
				add(r)
			}
		}
	} else {
		for _, t := range words {
			w := text[t.Start:t.End]
			if strings.IndexByte(w, '.') > 0 && !hasLowerRune(w) {
				// An abbreviation's letters are the initials of the words it
				// stands for: "U.S. Officials" and "United States Officials".
				for _, r := range w {
					if unicode.IsLetter(r) {
						add(r)
					}
				}
				continue
			}
			r, _ := utf8.DecodeRuneInString(w)
			add(r)
		}
	}
	if n < 2 || n > 5 {
		return 0
	}
	return max(h&(1<<fillInitialBits-1), 1)
}

// hasLowerRune reports whether w holds a lower-case letter.
func hasLowerRune(w string) bool {
	for _, r := range w {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// heldElsewhere reports whether the value of fill x is among fills, in
// any place: a name the other text holds too, in another place ("in Texas
// or Florida" and "in Florida or Texas"), is no other name.
func heldElsewhere(x uint64, fills []uint64) bool {
	for _, y := range fills {
		if y>>fillKindShift&3 == x>>fillKindShift&3 && fillsAgree(x&(1<<fillPlaceShift-1), y&(1<<fillPlaceShift-1), false) {
			return true
		}
	}
	return false
}

// fillsInPlace compares the places two sorted sets of fills (see
// keepSlotsFills) both fill, and returns how many there are, in how many the
// words differ, and whether a place of the headings holds two times of
// day that differ (compared whole: "12:00" and "12:01" are two reports).
func fillsInPlace(a, b []uint64) (shared, other int, reportTime bool) {
	for i, j := 0, 0; i < len(a) && j < len(b); {
		pa, pb := a[i]>>fillPlaceShift, b[j]>>fillPlaceShift
		switch {
		case pa < pb:
			i++
		case pb < pa:
			j++
		default:
			if (a[i]|b[j])&fillUnframed != 0 {
				i, j = i+1, j+1
				continue
			}
			shared++
			if !sameFill(a[i], b[j]) && !heldElsewhere(a[i], b) && !heldElsewhere(b[j], a) {
				other++
			}
			if pa&headingPlace != 0 && isTime(a[i]) && isTime(b[j]) && ((a[i]^b[j])>>fillKindShift&3 != 0 || !sameTime(a[i], b[j])) {
				reportTime = true
			}
			i, j = i+1, j+1
		}
	}
	return shared, other, reportTime
}

// digitsHash returns a 14-bit hash of the digits of b, never 0: what tells
// two bare hours of one shape apart ("1000" and "1100"), kept where a
// fill keeps a name's initials (see sameTime).
func digitsHash(b []byte) uint64 {
	var h uint64 = 14695981039346656037
	for _, c := range b {
		if isDigit(c) {
			h = (h ^ uint64(c)) * 1099511628211
		}
	}
	return max(h&(1<<fillInitialBits-1), 1)
}

// sameTime reports whether two time fills hold one time, compared whole:
// the same shape, and the same digits when both kept theirs (a bare hour
// read by a binary before digitsHash kept none).
func sameTime(a, b uint64) bool {
	ia, ib := a&(1<<fillInitialBits-1), b&(1<<fillInitialBits-1)
	return a&fillValueMask>>fillInitialBits == b&fillValueMask>>fillInitialBits && (ia == 0 || ib == 0 || ia == ib)
}

// isTime reports whether fill x is a time of day or a bare hour.
func isTime(x uint64) bool {
	k := x >> fillKindShift & 3
	return k == fillTime || k == fillHour
}
