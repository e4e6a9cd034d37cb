package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRowsStartWithOpeningQuote: a paragraph that opens with a quotation
// mark starts its row with the mark, on both sides and in every unit.
// Regression: the mark ended the row before.
func TestRowsStartWithOpeningQuote(t *testing.T) {
	a := "The council met on Monday to vote on the bridge.\n\n\"We know this is disruptive,\" said the mayor.\n\n(The vote was 31 to 12.)"
	b := "The council met on Monday to vote on the new bridge.\n\n\"We know this is disruptive,\" said the mayor.\n\n(The vote was 31 to 12.)"
	for _, by := range []By{ByWord, BySentence, ByLine} {
		d := Compare(a, b, Options{By: by})
		var got [][2]string
		for _, r := range rows(d) {
			got = append(got, [2]string{strings.TrimSpace(a[r.a.Start:r.a.End]), strings.TrimSpace(b[r.b.Start:r.b.End])})
		}
		want := [][2]string{
			{"The council met on Monday to vote on the bridge.", "The council met on Monday to vote on the new bridge."},
			{`"We know this is disruptive," said the mayor.`, `"We know this is disruptive," said the mayor.`},
			{"(The vote was 31 to 12.)", "(The vote was 31 to 12.)"},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("by %s: rows (-want +got)\n%s", by, diff)
		}
	}
}

// TestSentenceTextOneSentenceALine: `neardup diff --by sentence` writes
// each sentence on a line of its own, a replaced one facing its
// replacement on the next line, paragraphs apart. Regression: a paragraph
// was written as one block.
func TestSentenceTextOneSentenceALine(t *testing.T) {
	a := "The council met on Monday. It voted on the bridge. The vote was close.\n\nWork starts in May."
	b := "The council met on Monday. It voted on the new bridge. The vote was close.\n\nWork starts in May."
	var out bytes.Buffer
	if err := WriteText(&out, Compare(a, b, Options{By: BySentence}), TextOptions{}); err != nil {
		t.Fatal(err)
	}
	body := out.String()[strings.Index(out.String(), "\n\n")+2:]
	want := "The council met on Monday.\n[-It voted on the bridge.-]\n{+It voted on the new bridge.+}\nThe vote was close.\n\nWork starts in May.\n"
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestSentenceTextBreaksGluedSentences: by sentence, two sentences with no
// space between them are written on lines of their own too: a full stop
// followed by a capital, and Chinese, which puts no space after "。".
// Regression: they stayed on one line.
func TestSentenceTextBreaksGluedSentences(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{"full stop", "First sentence.Second sentence here.", "First sentence.Second sentence here.",
			"First sentence.\nSecond sentence here.\n"},
		{"edited", "First sentence.Second sentence here.Third one.", "First sentence.Second sentence there.Third one.",
			"First sentence.\n[-Second sentence here.-]\n{+Second sentence there.+}\nThird one.\n"},
		{"Chinese", "中央银行周二宣布提高利率。市场大幅下跌。", "中央银行周二宣布降低利率。市场大幅下跌。",
			"[-中央银行周二宣布提高利率。-]\n{+中央银行周二宣布降低利率。+}\n市场大幅下跌。\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteText(&out, Compare(tc.a, tc.b, Options{By: BySentence}), TextOptions{}); err != nil {
				t.Fatal(err)
			}
			body := out.String()[strings.Index(out.String(), "\n\n")+2:]
			if diff := cmp.Diff(tc.want, body); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
