package analysis

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestAppendUnspaced pins the terms of text in scripts written without
// spaces: overlapping pairs of their letters, a letter alone without a
// neighbour of its script, other runs of letters and digits from minRun
// bytes, punctuation and symbols left out.
func TestAppendUnspaced(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		minRun     int
		want       []string
	}{
		{"pairs", "中国经济", 1, []string{"中国", "国经", "经济"}},
		{"punctuation ends a run", "稳中，有升。", 1, []string{"稳中", "有升"}},
		{"a letter alone", "中 x 国", 1, []string{"中", "x", "国"}},
		{"other runs, from minRun bytes", "苹果iPhone与5G手机", 3, []string{"苹果", "iPhone", "与", "手机"}},
		{"other runs of any length", "苹果iPhone与5G手机", 1, []string{"苹果", "iPhone", "与", "5G", "手机"}},
		{"kana and the prolonged sound mark", "コーヒー", 1, []string{"コー", "ーヒ", "ヒー"}},
		{"Thai, marks included", "ข่าว", 1, []string{"ข่", "่า", "าว"}},
		{"a combining mark in a run, as Thai's (kana in NFD)", "か\u3099っこう", 1, []string{"か\u3099", "\u3099っ", "っこ", "こう"}},
		{"a variation selector in a run", "葛\U000E0100城", 1, []string{"葛\U000E0100", "\U000E0100城"}},
		{"a combining mark after other letters stays theirs", "cafe\u0301中文", 1, []string{"cafe\u0301", "中文"}},
		{"a combining mark alone", "\u3099中", 1, []string{"\u3099", "中"}},
		{"halfwidth kana and their voiced sound mark", "ｶﾞｯｺｳ", 1, []string{"ｶﾞ", "ﾞｯ", "ｯｺ", "ｺｳ"}},
		{"〇, a Han numeral letter", "二〇一二年", 1, []string{"二〇", "〇一", "一二", "二年"}},
		{"nothing unspaced", "plain text", 1, []string{"plain", "text"}},
		{"empty", "", 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []uint64
			for _, w := range tc.want {
				want = append(want, HashWord([]byte(w)))
			}
			if diff := cmp.Diff(want, AppendUnspaced(nil, []byte(tc.text), tc.minRun)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	for text, want := range map[string]bool{"中文": true, "ひらがな": true, "ไทย": true, "한국어": false, "English, Русский": false, "": false} {
		if got := HasUnspaced([]byte(text)); got != want {
			t.Errorf("HasUnspaced(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzAppendUnspaced: any bytes, UTF-8 or not, give terms without a panic,
// at most one a byte of the text.
func FuzzAppendUnspaced(f *testing.F) {
	for _, s := range []string{"中国经济", "苹果iPhone与5G手机", "コーヒー", "ข่าว", "中\xff国", "\xe4\xb8", "x中\x80"} {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, text []byte, minRun uint8) {
		if terms := AppendUnspaced(nil, text, int(minRun)); len(terms) > len(text) {
			t.Errorf("%d terms of %d bytes", len(terms), len(text))
		}
	})
}

// hasUnspacedRunes is HasUnspaced read rune by rune, as it is defined.
func hasUnspacedRunes(text []byte) bool {
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		if Unspaced(r) {
			return true
		}
		text = text[n:]
	}
	return false
}

// TestHasUnspacedSkips: HasUnspaced, which decodes only the bytes that
// begin a rune of three bytes or more and passes over eight bytes without
// one at once, finds a letter at every place in texts of other letters,
// and none among runes of three bytes that are not.
func TestHasUnspacedSkips(t *testing.T) {
	for _, around := range []string{"a", "é", "ж", "—", "\xff", "\xe4\xb8"} {
		for n := range 20 {
			text := strings.Repeat(around, n)
			if HasUnspaced([]byte(text)) {
				t.Errorf("HasUnspaced(%q) = true", text)
			}
			for _, letter := range []string{"中", "ก", "𠀋"} {
				for i := 0; i <= n; i++ {
					text := strings.Repeat(around, i) + letter + strings.Repeat(around, n-i)
					if !HasUnspaced([]byte(text)) {
						t.Errorf("HasUnspaced(%q) = false", text)
					}
				}
			}
		}
	}
}

// FuzzHasUnspaced: HasUnspaced is its rune-by-rune definition on any bytes.
func FuzzHasUnspaced(f *testing.F) {
	for _, s := range []string{"plain ascii text here", "Правительство — 中", "naïve “quotes” ข่าว", "\xe4\xb8\xe4\xb8\xad", "12345678中"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if got, want := HasUnspaced(text), hasUnspacedRunes(text); got != want {
			t.Errorf("HasUnspaced(%q) = %v, want %v", text, got, want)
		}
	})
}

// TestAppendTokenPairs pins the terms of Words' tokens, some left out: a
// run of one-letter tokens of a script written without spaces, each beside
// the next, gives pairs; a letter alone, or one whose neighbour was left
// out, its own hash; other tokens their own.
func TestAppendTokenPairs(t *testing.T) {
	var a Analyzer
	for _, tc := range []struct {
		name, text string
		drop       string // a token left out, as a stop word is
		want       []string
	}{
		{"pairs", "中国经济", "", []string{"中国", "国经", "经济"}},
		{"other tokens whole", "苹果 iPhone 手机", "", []string{"苹果", "iphone", "手机"}},
		{"a letter alone", "中 x", "", []string{"中", "x"}},
		{"a token left out breaks the run", "我的书", "的", []string{"我", "书"}},
		{"Latin text as Words gives it", "The cat sat", "", []string{"the", "cat", "sat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var toks []Token
			for _, tok := range a.Words(tc.text) {
				if tc.text[tok.Start:tok.End] != tc.drop {
					toks = append(toks, tok)
				}
			}
			var want []uint64
			for _, w := range tc.want {
				want = append(want, HashWordString(w))
			}
			if diff := cmp.Diff(want, AppendTokenPairs(nil, tc.text, toks)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
