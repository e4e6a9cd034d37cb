package diff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// TestTextReadsAsBothTexts: the text rendering of two texts, by word,
// gives back the first when every {+…+} is removed and every [-…-]
// unwrapped, and the second the other way round; in colour, the red runs
// are the first's and the green the second's. White space may differ,
// nothing else: the rendering writes the space between two pieces from
// one side. Regression: the punctuation next to a word inserted or
// deleted was written from one side alone, unmarked, so that a mark of
// one side read as shared and the other's was lost ("The vote passed,
// [-the speaker said-]" against "The vote passed!"); the punctuation
// before a replacement was written twice; and a word the texts spell
// otherwise (PRESIDENT, president), which the comparison matches, was
// written as the first spells it, unmarked.
func TestTextReadsAsBothTexts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const pairs = 300
	failed := 0
	for n := range pairs {
		a := randomText(rng)
		b := a.edited(rng)
		ta, tb := a.String(), b.String()
		for _, color := range []bool{false, true} {
			var out strings.Builder
			if err := WriteText(&out, Compare(ta, tb, Options{}), TextOptions{Color: color}); err != nil {
				t.Fatal(err)
			}
			body := strings.SplitN(out.String(), "\n", 4)[3]
			gotA, gotB := readMarked(body, color)
			if withoutSpace(gotA) != withoutSpace(ta) || withoutSpace(gotB) != withoutSpace(tb) {
				failed++
				if failed <= 5 {
					t.Errorf("pair %d, colour %v:\na   %q\nb   %q\nout %q\ngives a %q\n  and b %q", n, color, ta, tb, body, gotA, gotB)
				}
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d renderings do not give back both texts", failed, 2*pairs)
	}
}

// readMarked returns the two texts a rendering of WriteText holds: the
// first without the text only in the second, and the reverse.
func readMarked(out string, color bool) (a, b string) {
	type mark struct {
		open, close string
		a           bool // the text of A, else of B
	}
	marks := []mark{{"[-", "-]", true}, {"{+", "+}", false}}
	if color {
		marks = []mark{{ansiRed, ansiReset, true}, {ansiGreen, ansiReset, false},
			{ansiFaintRed, ansiReset, true}, {ansiFaintGreen, ansiReset, false}}
	}
	var ba, bb strings.Builder
	for out != "" {
		var in *strings.Builder // the side that holds the next piece alone
		var m mark
		for _, mk := range marks {
			if strings.HasPrefix(out, mk.open) {
				in, m = &bb, mk
				if mk.a {
					in = &ba
				}
			}
		}
		if in == nil {
			next := len(out)
			for _, mk := range marks {
				if i := strings.Index(out, mk.open); i >= 0 {
					next = min(next, i)
				}
			}
			ba.WriteString(out[:next])
			bb.WriteString(out[:next])
			out = out[next:]
			continue
		}
		out = out[len(m.open):]
		end := strings.Index(out, m.close)
		if end < 0 {
			end = len(out)
		}
		in.WriteString(out[:end])
		out = out[min(end+len(m.close), len(out)):]
	}
	return ba.String(), bb.String()
}

// piece is a word of a random text with the text before it.
type piece struct{ before, word string }

// randomDoc is a short random text: pieces and the text after the last.
type randomDoc struct {
	pieces []piece
	after  string
}

// The words and the spacing and punctuation of random texts. They hold
// no brackets or braces, which would read as marks, and no control
// characters, which are written escaped.
var (
	randomWords = []string{"the", "vote", "passed", "speaker", "said", "quietly", "no", "prices", "rose",
		"bridge", "Nowak", "3.5", "don't", "well", "known", "公园", "散步", "今天", "café", "Zürich", "34", "ＡＢＣ"}
	randomGaps = []string{" ", " ", " ", " ", " ", ", ", ". ", "! ", "? ", "; ", ": ", " (", ") ", ` "`, `" `,
		" - ", "… ", "\n", "\n\n", ` "`, `", `, " 👍🏽 ", " 👨\u200d👩\u200d👧 ", "。", "", "'", "...", " & ", " <", "> "}
)

func randomText(rng *rand.Rand) randomDoc {
	var d randomDoc
	for range rng.IntN(10) {
		d.pieces = append(d.pieces, randomPiece(rng))
	}
	if rng.IntN(3) == 0 {
		d.after = randomGaps[rng.IntN(len(randomGaps))]
	}
	if len(d.pieces) > 0 && rng.IntN(2) == 0 {
		d.pieces[0].before = ""
	}
	return d
}

func randomPiece(rng *rand.Rand) piece {
	return piece{randomGaps[rng.IntN(len(randomGaps))], randomWords[rng.IntN(len(randomWords))]}
}

// edited returns a copy of d with words deleted, inserted and replaced,
// and other punctuation before some words and at the end.
func (d randomDoc) edited(rng *rand.Rand) randomDoc {
	var e randomDoc
	for _, p := range d.pieces {
		switch rng.IntN(10) {
		case 0: // deleted
		case 1: // replaced
			e.pieces = append(e.pieces, piece{p.before, randomWords[rng.IntN(len(randomWords))]})
		case 2: // inserted before
			e.pieces = append(e.pieces, randomPiece(rng), p)
		case 3: // other punctuation
			e.pieces = append(e.pieces, piece{randomGaps[rng.IntN(len(randomGaps))], p.word})
		case 4, 5: // spelt otherwise
			e.pieces = append(e.pieces, piece{p.before, respell(rng, p.word)})
		default:
			e.pieces = append(e.pieces, p)
		}
	}
	e.after = d.after
	if rng.IntN(4) == 0 {
		e.after = randomGaps[rng.IntN(len(randomGaps))]
	}
	if rng.IntN(4) == 0 {
		e.pieces = append(e.pieces, randomPiece(rng))
	}
	return e
}

// respell returns w spelt in one of the ways that normalisation folds:
// upper, lower or title case, full-width, a curly apostrophe, accents
// apart or composed.
func respell(rng *rand.Rand, w string) string {
	switch rng.IntN(7) {
	case 0:
		return strings.ToUpper(w)
	case 1:
		return strings.ToLower(w)
	case 2:
		r, n := utf8.DecodeRuneInString(w)
		return string(unicode.ToUpper(r)) + w[n:]
	case 3:
		return strings.Map(func(r rune) rune {
			if r > ' ' && r < 0x7f {
				return r + 0xfee0 // the full-width form
			}
			return r
		}, w)
	case 4:
		return strings.ReplaceAll(w, "'", "\u2019")
	case 5:
		return norm.NFD.String(w)
	}
	return norm.NFKC.String(w)
}

func (d randomDoc) String() string {
	var b strings.Builder
	for _, p := range d.pieces {
		fmt.Fprintf(&b, "%s%s", p.before, p.word)
	}
	b.WriteString(d.after)
	return b.String()
}

// TestTextMarksPunctuationBesideAnEdit: the punctuation next to a word
// only one side holds is marked with it when the other side lacks it, and
// the other side's is marked too. Regression: it was written as shared,
// and the other side's was left out.
func TestTextMarksPunctuationBesideAnEdit(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{"deleted before other punctuation", "The vote passed, the speaker said", "The vote passed!",
			"The vote passed[-, the speaker said-]{+!+}"},
		{"inserted before other punctuation", "The vote passed!", "The vote passed, the speaker said",
			"The vote passed[-!-]{+, the speaker said+}"},
		{"deleted in brackets", "He said (quietly) no", "He said no", "He said [-(quietly)-] no"},
		{"inserted in brackets", "He said no", "He said (quietly) no", "He said {+(quietly)+} no"},
		{"all deleted", "Prices rose.", "", "[-Prices rose.-]"},
		{"all inserted", "", "Prices rose.", "{+Prices rose.+}"},
		{"shared full stop", "Rates rose. Markets fell. Gold was flat.", "Rates rose. Gold was flat.",
			"Rates rose. [-Markets fell.-] Gold was flat."},
		{"quotes around a replacement, once", `He said "yes" today`, `He said "no" today`,
			`He said "[-yes-] {+no+}" today`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, false); got != tc.want {
				t.Errorf("%q against %q:\n got %s\nwant %s", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// TestTextSeparatesReplacementWithSpaceOfTheTexts: a replaced word and its
// replacement are separated by a space only where the texts hold white
// space; Chinese and Japanese put none between words. Regression: a space
// stood between them that is in neither text (今天我们去公园[-散-] {+跑+}步。),
// in colour between the red and the green.
func TestTextSeparatesReplacementWithSpaceOfTheTexts(t *testing.T) {
	tests := []struct {
		name, a, b string
		color      bool
		want       string
	}{
		{"Chinese", "今天我们去公园散步。", "今天我们去公园跑步。", false, "今天我们去公园[-散-]{+跑+}步。"},
		{"Chinese in colour", "今天我们去公园散步。", "今天我们去公园跑步。", true,
			"今天我们去公园" + ansiRed + "散" + ansiReset + ansiGreen + "跑" + ansiReset + "步。"},
		{"Japanese", "今日は公園を散歩します。", "今日は公園を走ります。", false, "今日は公園を[-散歩し-]{+走り+}ます。"},
		{"Chinese quotation", "他说“散步”。", "他说“跑步”。", false, "他说“[-散-]{+跑+}步”。"},
		{"Chinese at a paragraph's end", "同比上涨0.1%\n\n国家统计局发布数据。", "同比上涨0.3%\n\n国家统计局发布数据。", false,
			"同比上涨[-0.1-]{+0.3+}%\n\n国家统计局发布数据。"},
		{"English wrapped", "the cat\nsat", "the dog\nsat", false, "the [-cat-] {+dog+}\nsat"},
		{"English at a line's end", "Sunny.\nWind from the west.", "Cloudy.\nWind from the west.", false,
			"[-Sunny-] {+Cloudy+}.\nWind from the west."},
		{"Chinese wrapped", "价格上涨\n百分之十。", "价格下跌\n百分之十。", false, "价格[-上涨-]{+下跌+}\n百分之十。"},
		{"figures at a line's end", "Tel. (0)5\nNext", "Tel. (0)6\nNext", false, "Tel. (0)[-5-] {+6+}\nNext"},
		{"English", "the cat sat", "the dog sat", false, "the [-cat-] {+dog+} sat"},
		{"English at the ends", "cat sat", "cat stood", false, "cat [-sat-] {+stood+}"},
		{"English in quotes", `«Alpha beta»`, `«Gamma delta»`, false, `«[-Alpha beta-] {+Gamma delta+}»`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, tc.color); got != tc.want {
				t.Errorf("%q against %q:\n got %q\nwant %q", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// TestTextMarksWholeGraphemeClusters: the punctuation and symbols the
// texts hold differently are marked by whole grapheme clusters, as their
// reader sees the characters. Regression: the marks fell between code
// points, colouring a skin tone without its thumb and leaving a joiner
// dangling from a ZWJ sequence (the family of three against four marked
// a joiner and a boy).
func TestTextMarksWholeGraphemeClusters(t *testing.T) {
	red := func(s string) string { return ansiRed + s + ansiReset }
	green := func(s string) string { return ansiGreen + s + ansiReset }
	tests := []struct {
		name, a, b string
		color      bool
		want       string
	}{
		{"skin tone", "I love 👍🏽 and more", "I love 👍🏿 and more", true, "I love " + red("👍🏽") + green("👍🏿") + " and more"},
		{"skin tone, plain", "I love 👍🏽 and more", "I love 👍🏿 and more", false, "I love [-👍🏽-]{+👍🏿+} and more"},
		{"ZWJ family", "fam 👨\u200d👩\u200d👧 here", "fam 👨\u200d👩\u200d👧\u200d👦 here", false,
			"fam [-👨\u200d👩\u200d👧-]{+👨\u200d👩\u200d👧\u200d👦+} here"},
		{"ZWJ flags", "flag 🏳️\u200d🌈 here", "flag 🏳️\u200d⚧️ here", true,
			"flag " + red("🏳️\u200d🌈") + green("🏳️\u200d⚧️") + " here"},
		{"regional indicators", "flags 🇵🇱🇩🇪 here", "flags 🇵🇱🇫🇷 here", false, "flags 🇵🇱[-🇩🇪-]{+🇫🇷+} here"},
		{"beside a deleted word", "I love 👍🏽 it", "I love 👍🏿", false, "I love [-👍🏽 it-]{+👍🏿+}"},
		{"combining mark", "one -\u0301 two", "one -\u0300 two", false, "one [--\u0301-]{+-\u0300+} two"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, tc.color); got != tc.want {
				t.Errorf("%q against %q:\n got %q\nwant %q", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

// TestTextJoinsMarksSideBySide: two pieces of one side written side by
// side, the punctuation before a replaced word and the word, make one
// mark. Regression: they made two ([-<-][-script>…-]), in colour two red
// runs.
func TestTextJoinsMarksSideBySide(t *testing.T) {
	a, b := "Cyclists on </script><b>at all hours</b>.", "Cyclists on <except at night>."
	tests := []struct {
		name  string
		color bool
		want  string
	}{
		{"plain", false, "Cyclists on <[-/script><b>at all hours</b-] {+except at night+}>."},
		{"colour", true, "Cyclists on <" + ansiRed + "/script><b>at all hours</b" + ansiReset + " " + ansiGreen + "except at night" + ansiReset + ">."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, a, b, tc.color); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// textBody returns the text output of a against b, colour as given, without
// its three heading lines and its last line end.
func textBody(t *testing.T, a, b string, color bool) string {
	t.Helper()
	var out strings.Builder
	if err := WriteText(&out, Compare(a, b, Options{}), TextOptions{Color: color}); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(strings.SplitN(out.String(), "\n", 4)[3], "\n")
}

// TestTextShowsOtherSpellings: a word both texts hold but spell otherwise
// (another case, full-width digits, an accent composed in one and apart in
// the other, a curly apostrophe), which the comparison matches by its
// normalised form, is written as a replacement is, A's spelling then B's,
// in faint colours, and still counts as shared. Regression: it was written
// once as A spells it, so that the view read as A where B differs
// ("100.0% shared" and no mark for PRESIDENT against president).
func TestTextShowsOtherSpellings(t *testing.T) {
	faintRed := func(s string) string { return ansiFaintRed + s + ansiReset }
	faintGreen := func(s string) string { return ansiFaintGreen + s + ansiReset }
	tests := []struct {
		name, a, b string
		color      bool
		want       string
		inserted   int // words only B holds; every other word is shared
	}{
		{"case", "the PRESIDENT will visit", "the president will visit", false, "the [-PRESIDENT-] {+president+} will visit", 0},
		{"case in colour", "the PRESIDENT will visit", "the president will visit", true,
			"the " + faintRed("PRESIDENT") + " " + faintGreen("president") + " will visit", 0},
		{"full-width digits", "turnout was 34 percent", "turnout was \uff13\uff14 percent", false,
			"turnout was [-34-] {+\uff13\uff14+} percent", 0},
		{"accent composed and apart", "the caf\u00e9 opened", "the cafe\u0301 opened", false,
			"the [-caf\u00e9-] {+cafe\u0301+} opened", 0},
		{"curly apostrophe in a word", "we don't know yet", "we don\u2019t know yet", false,
			"we [-don't-] {+don\u2019t+} know yet", 0},
		{"a run, with the punctuation both hold", "said PARIS, MONDAY: rates rose", "said paris, monday: rates rose", false,
			"said [-PARIS, MONDAY-] {+paris, monday+}: rates rose", 0},
		{"a run cut at punctuation only one holds", "said PARIS, MONDAY: rates rose", "said paris; monday: rates rose", false,
			"said [-PARIS-] {+paris+}[-,-]{+;+} [-MONDAY-] {+monday+}: rates rose", 0},
		{"at both ends", "Rates rose in PARIS", "rates rose in Paris", false, "[-Rates-] {+rates+} rose in [-PARIS-] {+Paris+}", 0},
		{"beside an edit", "the Old bridge closed", "the old Harbour bridge closed", false,
			"the [-Old-] {+old+} {+Harbour+} bridge closed", 1},
		{"without spaces", "今天ＡＢＣ公园", "今天ABC公园", false, "今天[-ＡＢＣ-]{+ABC+}公园", 0},
		{"a soft hyphen is a spelling, shown", "die Bundes\u00adregierung sagt", "die Bundesregierung sagt", false,
			`die [-Bundes\u00adregierung-] {+Bundesregierung+} sagt`, 0},
		{"the tester's texts", "Officials said the PRESIDENT will visit Paris on Monday; turnout was 34 percent.\n",
			"Officials said the president will visit paris on monday; turnout was \uff13\uff14 percent.\n", false,
			"Officials said the [-PRESIDENT-] {+president+} will visit [-Paris-] {+paris+} on [-Monday-] {+monday+}; " +
				"turnout was [-34-] {+\uff13\uff14+} percent.", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := textBody(t, tc.a, tc.b, tc.color); got != tc.want {
				t.Errorf("%q against %q:\n got %q\nwant %q", tc.a, tc.b, got, tc.want)
			}
			// The comparison is as before: the words spelt otherwise are shared.
			d := Compare(tc.a, tc.b, Options{})
			if d.A.Shared != d.A.Words || d.B.Shared != d.B.Words-tc.inserted || d.A.Overlap() != 1 {
				t.Errorf("shared %d of %d, %d of %d words (overlap %.3f); want all but the %d inserted",
					d.A.Shared, d.A.Words, d.B.Shared, d.B.Words, d.A.Overlap(), tc.inserted)
			}
		})
	}
}

// A share of words is never written as all or none when it is not: 99,990
// words of 100,000 read "100.0% shared", as identical texts do.
func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{1, "100.0%"}, {0.9999, "99.9%"}, {0.9996, "99.9%"}, {0.812, "81.2%"}, {0.00001, "0.1%"}, {0, "0.0%"},
	} {
		if got := Percent(tc.f); got != tc.want {
			t.Errorf("Percent(%v) = %s, want %s", tc.f, got, tc.want)
		}
	}
	a := strings.Repeat("word ", 1999) + "end"
	b := strings.Repeat("word ", 1999) + "fin"
	var out strings.Builder
	if err := WriteText(&out, Compare(a, b, Options{}), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "100.0% shared") || !strings.Contains(out.String(), "99.9% shared") {
		t.Errorf("a diff of texts that differ in a word:\n%.300s", out.String())
	}
}
