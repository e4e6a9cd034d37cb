package figures

import (
	"math"
	"math/bits"
	"strings"

	"github.com/neardup/neardup/internal/analysis"
)

// spelledNumbers are the numbers two to ten written as words in German,
// French, Spanish, Polish and Russian, by their values, in the forms news
// writes them: Polish and Russian decline them ("trzy", "trzech",
// "trzem", "trzema"; "три", "трёх", "трём", "тремя", with "е" for "ё"
// too), and write the collective numbers of people ("troje", "трое").
// A Scanner with Languages reads them as figures, in lower case alone
// (see Scanner.Languages). One is left out in every language: German's
// "ein", French's "un" and Spanish's "un", "una" are the indefinite
// article, and Polish "jeden" and Russian "один" are as often "one of",
// "a certain" or "alone" as a count, so that they would put a figure of
// one in nearly every sentence. So are French "sept", which English wire
// copy writes for September ("ended sept 30"), and Russian "семью", the
// accusative of "семья" (family).
var spelledNumbers = [11]string{
	2: "zwei zwo deux dos dwa dwie dwaj dwóch dwu dwom dwóm dwoma dwiema dwoje dwojga " +
		"два две двух двум двумя двое двоих двоим",
	3: "drei trois tres trzy trzej trzech trzem trzema troje trojga " +
		"три трёх трех трём трем тремя трое троих троим",
	4: "vier quatre cuatro cztery czterej czterech czterem czterema czworo czworga " +
		"четыре четырёх четырех четырём четырем четырьмя четверо четверых",
	5:  "fünf cinq cinco pięć pięciu pięcioma pięcioro пять пяти пятью пятеро пятерых",
	6:  "sechs six seis sześć sześciu sześcioma sześcioro шесть шести шестью шестеро шестерых",
	7:  "sieben siete siedem siedmiu siedmioma siedmioro семь семи семеро семерых",
	8:  "acht huit ocho osiem ośmiu ośmioma ośmioro восемь восьми восемью восьмью восьмеро восьмерых",
	9:  "neun neuf nueve dziewięć dziewięciu dziewięcioma dziewięcioro девять девяти девятью девятеро девятерых",
	10: "zehn dix diez dziesięć dziesięciu dziesięcioma dziesięcioro десять десяти десятью десятеро десятерых",
}

// numberDigits are the digits of the values one to ten.
var numberDigits = [11]string{"", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}

// spelledNumber returns the digits of the word w, packed as key (see
// wordAt), when it is one of numberWords in any case or one of
// spelledNumbers in lower case, else "": what a Scanner with Languages
// reads. A word of fewer than eight ASCII letters (key is not 0) is
// looked up in shortNumbers, a longer one or one of letters beyond ASCII
// in spelledLong.
func spelledNumber(key uint64, w string) string {
	if key == 0 {
		return spelledLongOf(w)
	}
	return shortNumbers.of(key, w, true)
}

// A numberTable holds number words of fewer than eight ASCII letters,
// each in the slot numberMagic gives its packed word (see packWord), alone
// there: the packed word in words, and in info its value and, for a word
// of spelledNumbers, which counts in lower case alone and for a Scanner
// with Languages alone, numberLower. The other slots of words hold 0,
// which no word packs to but one of eight letters or more, whose info is
// 0. In place of EqualFold, which every short word would call for each
// number word, a word is looked up in one load, of a table small enough to
// stay in the cache, whatever a Scanner reads.
type numberTable struct {
	words [1 << numberBits]uint64
	info  [1 << numberBits]uint8
}

// shortNumbers holds numberWords and the words of spelledNumbers of fewer
// than eight ASCII letters.
var shortNumbers = func() (t numberTable) {
	add := func(w string, value int, lower uint8) {
		k := packWord(w)
		i := k * numberMagic >> (64 - numberBits)
		if t.words[i] == k {
			return // French "six" is English's
		}
		if t.words[i] != 0 {
			panic("figures: numberMagic gives two number words one slot")
		}
		t.words[i], t.info[i] = k, uint8(value)|lower
	}
	for i, w := range numberWords {
		add(w, i+1, 0)
	}
	for value, words := range spelledNumbers {
		for w := range strings.FieldsSeq(words) {
			if isShortASCII(w) {
				add(w, value, numberLower)
			}
		}
	}
	return t
}()

// numberBits sets the slots of a numberTable; numberLower marks a word of
// spelledNumbers in its info.
const (
	numberBits  = 8
	numberLower = 1 << 7
)

// numberMagic spreads the packed number words over the slots of a
// numberTable, one each, by the top bits of their product with it.
const numberMagic = 0xc1c2c06e1abe7839

// of returns the digits of the word w, packed as key, when it is one of
// numberWords, or, when languages, one of spelledNumbers in lower case;
// else "".
func (t *numberTable) of(key uint64, w string, languages bool) string {
	i := key * numberMagic >> (64 - numberBits)
	if t.words[i] != key {
		return ""
	}
	info := t.info[i]
	if info&numberLower != 0 && (!languages || !isLowerASCII(w)) {
		return ""
	}
	return numberDigits[info&^numberLower]
}

// isLowerASCII reports whether w, a word of ASCII letters, is written in
// lower case.
func isLowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' {
			return false
		}
	}
	return true
}

// isShortASCII reports whether w is a word wordAt packs: fewer than eight
// ASCII letters.
func isShortASCII(w string) bool {
	if len(w) >= 8 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLetter(w[i]) {
			return false
		}
	}
	return true
}

// spelledLong holds the words of spelledNumbers that shortNumbers does
// not, as they are written (in lower case): each word's index in words,
// plus one, in the slot of its hash (see spelledHash) or, when that one
// is taken, the next free one; min and max the bytes of the shortest and
// the longest; and in heads the bit of each one's first four bytes (see
// headBit), two letters of Cyrillic. They are looked up by their bytes,
// none lower-cased, so that a word of Cyrillic letters is read without
// decoding it, and a word whose head has no bit (most words) without
// hashing it. The slots are a quarter full or less, so that a word that is
// none of them meets a free slot at once, mostly.
var spelledLong = func() (t struct {
	slots    [1 << spelledLongBits]uint8
	words    []string
	digits   []string
	min, max int
	heads    [1 << headBits / 64]uint64
}) {
	t.min = math.MaxInt
	for value, words := range spelledNumbers {
		for w := range strings.FieldsSeq(words) {
			if isShortASCII(w) {
				continue
			}
			i := spelledHash(w) >> (64 - spelledLongBits)
			for t.slots[i] != 0 {
				i = (i + 1) & (1<<spelledLongBits - 1)
			}
			t.words, t.digits = append(t.words, w), append(t.digits, numberDigits[value])
			t.slots[i] = uint8(len(t.words))
			t.min, t.max = min(t.min, len(w)), max(t.max, len(w))
			b := headBit(w)
			t.heads[b/64] |= 1 << (b % 64)
		}
	}
	if 4*len(t.words) > len(t.slots) || t.min < 4 {
		panic("figures: spelledLong's slots are more than a quarter full, or a word has fewer than four bytes")
	}
	return t
}()

// spelledLongBits sets the slots of spelledLong, headBits its bits of
// heads.
const (
	spelledLongBits = 9
	headBits        = 10
)

// headBit returns the bit of the first four bytes of w, a word of four or
// more, among spelledLong's heads.
func headBit(w string) uint32 {
	return (uint32(w[0]) | uint32(w[1])<<8 | uint32(w[2])<<16 | uint32(w[3])<<24) * 0x9e3779b1 >> (32 - headBits)
}

// maybeSpelled reports whether the word w can be one of spelledLong's:
// its length is one of theirs, its head one of theirs (see headBit). Most
// words are not, and are passed over without a call.
func maybeSpelled(w string) bool {
	if len(w) < spelledLong.min || len(w) > spelledLong.max {
		return false
	}
	b := headBit(w)
	return spelledLong.heads[b/64]&(1<<(b%64)) != 0
}

// spelledLongOf returns the digits of the word w when it is one of
// spelledLong's, else "".
func spelledLongOf(w string) string {
	if !maybeSpelled(w) {
		return ""
	}
	for i := spelledHash(w) >> (64 - spelledLongBits); ; i = (i + 1) & (1<<spelledLongBits - 1) {
		k := spelledLong.slots[i]
		if k == 0 {
			return ""
		}
		if spelledLong.words[k-1] == w {
			return spelledLong.digits[k-1]
		}
	}
}

// spelledHash hashes the bytes of w for spelledLong: its first eight and
// its last eight (which overlap in a word of fewer than sixteen bytes,
// and are its only ones in one of eight), or its bytes in one of fewer,
// and its length, mixed by one product.
func spelledHash(w string) uint64 {
	var h uint64
	if len(w) >= 8 {
		h = analysis.Load64(w) ^ bits.RotateLeft64(analysis.Load64(w[len(w)-8:]), 29)
	} else {
		for i := 0; i < len(w); i++ {
			h = h<<8 | uint64(w[i])
		}
	}
	return (h ^ uint64(len(w))<<58) * 0x9e3779b97f4a7c15
}
