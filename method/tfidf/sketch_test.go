package tfidf

import (
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
)

// TestWordsFormat2Fixtures: the options of an index of format 2 with
// words read a narrow no-break space between figures and a zero-width
// space inside a word as that format did ("180\u202f000" one word,
// "ra\u200bte" two): its sketches of enginetest.NarrowSpaceDoc and
// ZeroWidthSpaceDoc are the bytes the binary of that format wrote.
// Regression (a reviewer's finding): the words of every format changed.
func TestWordsFormat2Fixtures(t *testing.T) {
	o := Defaults()
	o.Terms = TermsWords
	c, ok := older(2, o)
	if !ok {
		t.Fatal("Spec's Older refuses format 2")
	}
	m, err := newMethod(c.(Options))
	if err != nil {
		t.Fatal(err)
	}
	narrow, zwsp := enginetest.NarrowSpaceDoc(), enginetest.ZeroWidthSpaceDoc()
	narrow.Source, zwsp.Source = "wire", "wire"
	enginetest.FormatFixture[Sketch](t, "testdata/narrow-words-format2.hex", m, narrow)
	enginetest.FormatFixture[Sketch](t, "testdata/zwsp-words-format2.hex", m, zwsp)
}
