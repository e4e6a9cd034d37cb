package gen

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
)

// templateHeads start the table lines of templated Reuters reports
// (earnings, dividends): "Shr 1.20 dlrs vs 1.10 dlrs", "Net 12.6 mln vs ...".
var templateHeads = map[string]bool{
	"shr": true, "net": true, "revs": true, "avg": true, "oper": true, "sales": true,
	"qtly": true, "record": true, "pay": true, "div": true, "loss": true, "profit": true,
	"assets": true, "deposits": true, "loans": true, "shrs": true,
}

// isTemplated reports whether paragraphs look like a templated report:
// at least two table lines and mostly short lines.
func isTemplated(paras [][]string) bool {
	heads, short := 0, 0
	for _, p := range paras {
		line := strings.Join(p, " ")
		if len(line) < 80 {
			short++
		}
		if f := strings.Fields(line); len(f) > 1 && templateHeads[strings.ToLower(f[0])] {
			heads++
		}
	}
	return heads >= 2 && short*2 >= len(paras)
}

// titleStops end the company part of a templated headline.
var titleStops = map[string]bool{
	"1ST": true, "2ND": true, "3RD": true, "4TH": true, "YEAR": true, "QTR": true,
	"NET": true, "SETS": true, "RAISES": true, "CUTS": true, "REPORTS": true,
	"DIVIDEND": true, "QUARTERLY": true, "PAYOUT": true, "OMITS": true, "SAYS": true,
	"INITIAL": true,
}

// companySuffixes are legal-form words kept out of the distinctive name.
var companySuffixes = map[string]bool{
	"INC": true, "CORP": true, "CO": true, "LTD": true, "PLC": true, "GROUP": true,
	"CORPORATION": true, "COMPANY": true, "LP": true, "&": true, "THE": true,
}

// companyOf returns the distinctive words of the company a templated headline
// names ("COBANCO INC <CBCO> YEAR NET" → ["COBANCO"]) and its ticker.
func companyOf(title string) (name []string, ticker string) {
	for _, f := range strings.Fields(title) {
		if strings.HasPrefix(f, "<") {
			ticker = strings.Trim(f, "<>")
			break
		}
		if titleStops[strings.ToUpper(f)] {
			break
		}
		if !companySuffixes[strings.ToUpper(f)] {
			name = append(name, f)
		}
	}
	return name, ticker
}

var syllables = []string{
	"ka", "lo", "ver", "den", "tra", "mi", "sol", "ax", "cor", "bel", "nor", "va",
	"tek", "ri", "mon", "gal", "zen", "pra", "lu", "dor", "fin", "tar", "ex", "qua",
}

// fakeWord makes a pronounceable upper-case name of two or three syllables.
func fakeWord(rng *rand.Rand) string {
	var b strings.Builder
	for range 2 + rng.IntN(2) {
		b.WriteString(syllables[rng.IntN(len(syllables))])
	}
	return strings.ToUpper(b.String())
}

// templateNegative rewrites a templated story as another company's report:
// the company's name and ticker and every figure change, the wording stays.
func templateNegative(a *article, rng *rand.Rand) {
	name, ticker := companyOf(a.title)
	repl := map[string]string{}
	for _, w := range name {
		repl[strings.ToLower(w)] = fakeWord(rng)
	}
	if ticker != "" {
		repl[strings.ToLower(ticker)] = fakeWord(rng)[:3]
	}
	f := func(tok string) (string, bool) {
		lead, core, trail := splitToken(tok)
		lower := strings.ToLower(core)
		if r, ok := repl[lower]; ok {
			return lead + caseLike(strings.ToLower(r), core) + trail, true
		}
		if i := slices.Index(numberWords, lower); i >= 0 {
			// Wire copy spells small figures out ("Qtly div seven cts").
			n := numberWords[(i+1+rng.IntN(len(numberWords)-1))%len(numberWords)]
			return lead + caseLike(n, core) + trail, true
		}
		return "", false
	}
	rewriteTokens(a, f)
	a.title = randomDigits(a.title, rng)
	for _, p := range a.paras {
		for i, s := range p {
			p[i] = randomDigits(s, rng)
		}
	}
}

// numberWords are the figures wire copy spells out; a templated negative
// replaces each with another.
var numberWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve"}

// randomDigits replaces every number in s with another of the same shape
// (digit count, separators). Four-digit years 1900..2099, ordinals ("4TH")
// and crop seasons ("1986/87") stay.
func randomDigits(s string, rng *rand.Rand) string {
	return string(appendRandomDigits(nil, s, rng))
}

// appendRandomDigits appends s to dst with its numbers replaced as
// randomDigits does.
func appendRandomDigits(dst []byte, s string, rng *rand.Rand) []byte {
	start := len(dst)
	dst = append(dst, s...)
	b := dst[start:]
	for i := 0; i < len(b); {
		if b[i] < '0' || b[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(b) && (isDigit(b[j]) || (b[j] == ',' || b[j] == '.') && j+1 < len(b) && isDigit(b[j+1])) {
			j++
		}
		ordinal := j < len(b) && unicode.IsLetter(rune(b[j]))   // 4TH QTR, 1ST HALF
		season := i >= 5 && b[i-1] == '/' && isYear(b[i-5:i-1]) // 1986/87
		if !isYear(b[i:j]) && !ordinal && !season {
			newNumber(b[i:j], rng)
		}
		i = j
	}
	return dst
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isYear(n []byte) bool {
	return len(n) == 4 && (string(n[:2]) == "19" || string(n[:2]) == "20")
}

// newNumber overwrites the digits of n in place so that the number differs;
// a leading digit stays non-zero.
func newNumber(n []byte, rng *rand.Rand) {
	var keep [64]byte
	old := keep[:copy(keep[:], n)]
	for try := 0; try < 4 && string(n) == string(old); try++ {
		for k, c := range n {
			if !isDigit(c) {
				continue
			}
			lo := 0
			if k == 0 && len(n) > 1 {
				lo = 1
			}
			n[k] = byte('0' + lo + rng.IntN(10-lo))
		}
	}
}
