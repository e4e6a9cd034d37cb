package diff

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// punctCases are texts that differ in punctuation and symbols between
// their words, with the marks WriteText makes of them (--color never).
var punctCases = []struct {
	name, a, b string
	text       string     // WriteText's rendering
	marked     [][]string // the texts WriteHTML marks nd-a, nd-b, in order
	edits      [][3]string
	spelt      bool // words spelt otherwise, in which "equal" ops differ
}{
	{
		name:   "minus and currency",
		a:      "Overnight the temperature fell to -15 degrees, costing $5 million.",
		b:      "Overnight the temperature fell to 15 degrees, costing €5 million.",
		text:   "Overnight the temperature fell to [---]15 degrees, costing [-$-]{+€+}5 million.",
		marked: [][]string{{"-", "$"}, {"€"}},
		edits:  [][3]string{{"delete", "-", ""}, {"replace", "$", "€"}},
	},
	{
		name:   "punctuation beside a deletion",
		a:      "Last year, officials said the bill passed, the speaker said.",
		b:      "Last year; officials said the bill passed!",
		text:   "Last year[-,-]{+;+} officials said the bill passed[-, the speaker said.-]{+!+}",
		marked: [][]string{{",", ", the speaker said."}, {";", "!"}},
		edits:  [][3]string{{"replace", ",", ";"}, {"replace", ", the speaker said.", "!"}},
	},
	{
		name:   "punctuation alone",
		a:      "!!! ... ???",
		b:      "... !!!",
		text:   "[-!!! ... ???-]{+... !!!+}",
		marked: [][]string{{"!!! ... ???"}, {"... !!!"}},
		edits:  [][3]string{{"replace", "!!! ... ???", "... !!!"}},
	},
	{
		name:   "replacement between changed punctuation",
		a:      "He said: red, green.",
		b:      "He said; blue! green.",
		text:   "He said[-:-]{+;+} [-red-] {+blue+}[-,-]{+!+} green.",
		marked: [][]string{{":", "red,"}, {";", "blue!"}},
		edits:  [][3]string{{"replace", ": red,", "; blue!"}},
	},
	{
		// Regression: the JSON replace took in B's " - " before it but not
		// A's, so the text outside the ops differed.
		name:   "symbol before punctuation both hold before a replacement",
		a:      "The price rose - the council said.",
		b:      "The price rose$ - a council said.",
		text:   "The price rose{+$+} - [-the-] {+a+} council said.",
		marked: [][]string{{"the"}, {"$", "a"}},
		edits:  [][3]string{{"insert", "", "$"}, {"replace", "the", "a"}},
	},
	{
		name:   "replacement before punctuation both hold before a symbol",
		a:      "The council said the - price rose.",
		b:      "The council said a - $price rose.",
		text:   "The council said [-the-] {+a+} - {+$+}price rose.",
		marked: [][]string{{"the"}, {"a", "$"}},
		edits:  [][3]string{{"replace", "the", "a"}, {"insert", "", "$"}},
	},
	{
		// Regression: punctuation between two words spelt otherwise was
		// written whole with them, never marked: the row was nd-same and
		// the JSON one "equal" op.
		name:   "punctuation between words spelt otherwise",
		a:      "We met in PARIS, LONDON and Rome.",
		b:      "We met in paris; london and Rome.",
		text:   "We met in [-PARIS-] {+paris+}[-,-]{+;+} [-LONDON-] {+london+} and Rome.",
		marked: [][]string{{","}, {";"}},
		edits:  [][3]string{{"replace", ",", ";"}},
		spelt:  true,
	},
	{
		name:   "minus between words spelt otherwise",
		a:      "The temperature fell TO -15 degrees.",
		b:      "The temperature fell to \uff11\uff15 degrees.",
		text:   "The temperature fell [-TO-] {+to+} [---][-15-] {+\uff11\uff15+} degrees.",
		marked: [][]string{{"-"}, nil},
		edits:  [][3]string{{"delete", "-", ""}},
		spelt:  true,
	},
}

// TestHTMLAndJSONMarkPunctuationTheTextMarks wants --html and --json to
// show the punctuation and symbols between words that only one text holds,
// as the text output marks them. Regression: a dropped minus sign, "$"
// facing "€" or "," facing ";" was marked in the text output, but the HTML
// row was of class nd-same with both cells unmarked, the JSON one "equal"
// op whose a_text and b_text differed, and two texts of punctuation alone
// had no op at all.
func TestHTMLAndJSONMarkPunctuationTheTextMarks(t *testing.T) {
	for _, tc := range punctCases {
		t.Run(tc.name, func(t *testing.T) {
			d := Compare(tc.a, tc.b, Options{})
			checkMarkedOps(t, d)
			var out strings.Builder
			if err := WriteText(&out, d, TextOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, got, _ := strings.Cut(strings.TrimSuffix(out.String(), "\n"), "\n\n"); got != tc.text {
				t.Errorf("text:\n got %s\nwant %s", got, tc.text)
			}

			marked := [][]string{nil, nil}
			for n := range parseHTML(t, d).Descendants() {
				if n.Type == html.ElementNode && n.Data == "tr" && attr(n, "class") == "nd-same" {
					t.Errorf("a row is of class nd-same")
				}
				if n.Type != html.ElementNode || n.Data != "span" || n.Parent.Data != "td" {
					continue
				}
				switch attr(n, "class") {
				case "nd-a":
					marked[0] = append(marked[0], n.FirstChild.Data)
				case "nd-b":
					marked[1] = append(marked[1], n.FirstChild.Data)
				}
			}
			if diff := cmp.Diff(tc.marked, marked); diff != "" {
				t.Errorf("HTML marks (-want +got):\n%s", diff)
			}

			var b bytes.Buffer
			if err := WriteJSON(&b, d); err != nil {
				t.Fatal(err)
			}
			var j struct {
				Ops []struct {
					Op    string
					A, B  [2]int
					AText string `json:"a_text"`
					BText string `json:"b_text"`
				}
			}
			if err := json.Unmarshal(b.Bytes(), &j); err != nil {
				t.Fatal(err)
			}
			var edits [][3]string
			for _, op := range j.Ops {
				if op.Op == "equal" {
					if op.AText != op.BText && !tc.spelt {
						t.Errorf("equal op of %q and %q", op.AText, op.BText)
					}
					continue
				}
				edits = append(edits, [3]string{op.Op, op.AText, op.BText})
				if tc.a[op.A[0]:op.A[1]] != op.AText || tc.b[op.B[0]:op.B[1]] != op.BText {
					t.Errorf("op %v %v does not cover %q, %q", op.A, op.B, op.AText, op.BText)
				}
			}
			if diff := cmp.Diff(tc.edits, edits); diff != "" {
				t.Errorf("JSON edits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSentencePunctuationIsNotCompared pins what the docs say of --by
// sentence and --by line: a sentence or line is matched by its words
// alone, so one that differs only in its punctuation and symbols is shared,
// its row in the HTML of class nd-same and its JSON op "equal".
func TestSentencePunctuationIsNotCompared(t *testing.T) {
	a := "Snow came early. It fell to -15 degrees, costing $5 million. Roads shut."
	b := "Snow came early. It fell to 15 degrees; costing €5 million. Roads shut."
	for _, by := range []By{BySentence, ByLine} {
		t.Run(by.String(), func(t *testing.T) {
			d := Compare(a, b, Options{By: by})
			checkMarkedOps(t, d)
			if ops := d.markedOps(); len(ops) != 1 || ops[0].Kind != Equal {
				t.Errorf("marked ops %v, want one equal op", ops)
			}
			for n := range parseHTML(t, d).Descendants() {
				if n.Type == html.ElementNode && n.Data == "tr" && n.Parent.Data == "tbody" && attr(n, "class") != "nd-same" {
					t.Errorf("a row is not of class nd-same")
				}
			}
		})
	}
}

// TestBytesNotUTF8BesideASpaceAreMarked: the text between two words that
// holds a byte that is not UTF-8 beside a space is compared byte for byte.
// Regression: such bytes compared as U+FFFD, so that "\xcd" facing "\xfe"
// showed as A's alone, in an equal op, unmarked (found by FuzzCompare: a
// gap of "\xcd " facing one of "\xcd" read as differing).
func TestBytesNotUTF8BesideASpaceAreMarked(t *testing.T) {
	d := Compare("Rates rose \xcd sharply.", "Rates rose \xfe sharply.", Options{})
	checkMarkedOps(t, d)
	var edits [][3]string
	for _, op := range d.markedOps() {
		if op.Kind != Equal {
			edits = append(edits, [3]string{op.Kind.String(), d.A.Text[op.A.Start:op.A.End], d.B.Text[op.B.Start:op.B.End]})
		}
	}
	if diff := cmp.Diff([][3]string{{"replace", "\xcd", "\xfe"}}, edits); diff != "" {
		t.Errorf("marked ops (-want +got):\n%s", diff)
	}
	var out strings.Builder
	if err := WriteText(&out, d, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, got, _ := strings.Cut(strings.TrimSuffix(out.String(), "\n"), "\n\n"); got != `Rates rose [-\xcd-]{+\xfe+} sharply.` {
		t.Errorf("text: got %s", got)
	}
}
