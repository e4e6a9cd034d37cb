package extracteval

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", nil},
		{"punctuation only", " -- !? ", nil},
		{"case is kept, as the benchmark's tokens keep it", "The Cat sat.", []string{"The", "Cat", "sat"}},
		{"digits and underscore are word characters", "a_b 42x, 3.14", []string{"a_b", "42x", "3", "14"}},
		{"unicode letters", "Zażółć GĘŚLĄ jaźń; Привет мир", []string{"Zażółć", "GĘŚLĄ", "jaźń", "Привет", "мир"}},
		{"glued by markup would be one token", "end.Start", []string{"end", "Start"}},
		{"a letter and a combining mark are one letter", "Su\u0308dtirol fu\u0308r", []string{"S\u00fcdtirol", "f\u00fcr"}},
		{"a soft hyphen leaves the word whole", "Brenn\u00adpunkt, fé\u00adlög", []string{"Brennpunkt", "félög"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Tokens(tc.text)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestShinglesOf(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		total int // shingles counted with multiplicity
		kinds int // distinct shingles
	}{
		{"empty", "", 0, 0},
		{"one token is one shingle", "word", 1, 1},
		{"three tokens are one shingle", "a b c", 1, 1},
		{"four tokens", "a b c d", 1, 1},
		{"six tokens", "a b c d e f", 3, 3},
		{"repeats counted", "a b c d a b c d", 5, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ShinglesOf(tc.text)
			total := 0
			for _, c := range s {
				total += c
			}
			if total != tc.total || len(s) != tc.kinds {
				t.Errorf("total %d distinct %d, want %d %d", total, len(s), tc.total, tc.kinds)
			}
		})
	}
}

func TestScore(t *testing.T) {
	approx := cmpopts.EquateApprox(0, 1e-9)
	for _, tc := range []struct {
		name, gold, pred string
		want             PR
	}{
		{"both empty: left out of both means", "", "", PR{NoPrecision: true, NoRecall: true}},
		{"identical but for punctuation", "one two three four five", "one, two: three four five!", PR{1, 1, false, false}},
		{"case differs", "one two three four", "One two three four", PR{}},
		{"empty prediction: no precision, recall 0", "one two three four five", "", PR{NoPrecision: true}},
		{"prediction of empty gold: precision 0, no recall", "", "one two three four five", PR{NoRecall: true}},
		// gold has 3 shingles; pred adds 3 tokens → 6 shingles, 3 shared.
		{"extra boilerplate lowers precision", "a b c d e f", "a b c d e f x y z", PR{0.5, 1, false, false}},
		// pred is the first 4 tokens: 1 shingle, shared.
		{"truncation lowers recall", "a b c d e f", "a b c d", PR{1, 1.0 / 3, false, false}},
		// Multisets: the gold says "a b c d" twice, the prediction once.
		{"multiset overlap", "a b c d a b c d", "a b c d", PR{1, 0.2, false, false}},
		// Gluing two words changes every shingle that spans them.
		{"glued words", "alpha beta gamma delta epsilon", "alpha beta gammadelta epsilon", PR{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Score(tc.gold, tc.pred), approx); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestMean(t *testing.T) {
	var m Mean
	if m.F1() != 0 || m.Precision() != 0 {
		t.Fatal("empty mean not zero")
	}
	m.Add(PR{1, 0.5, false, false})
	m.Add(PR{0.5, 0.5, false, false})
	m.Add(PR{NoPrecision: true})                 // empty prediction: recall 0 counts
	m.Add(PR{NoPrecision: true, NoRecall: true}) // both empty: counts in neither
	p, r := 0.75, 1.0/3
	want := 2 * p * r / (p + r)
	if m.Pages != 4 || m.Precision() != p || m.Recall() != r || math.Abs(m.F1()-want) > 1e-12 {
		t.Errorf("mean P %v R %v F1 %v over %d, want %v %v %v over 4", m.Precision(), m.Recall(), m.F1(), m.Pages, p, r, want)
	}
}

func BenchmarkScore(b *testing.B) {
	gold := ""
	for i := range 2000 {
		gold += []string{"alpha ", "beta ", "gamma ", "delta ", "epsilon "}[i%5]
		if i%7 == 0 {
			gold += "x "
		}
	}
	pred := gold[:len(gold)*3/4] + " menu home contact"
	b.SetBytes(int64(len(gold) + len(pred)))
	for b.Loop() {
		Score(gold, pred)
	}
}

func TestCleanGoldHTML(t *testing.T) {
	got := CleanGold([]byte(`<div id="readability-page-1" class="page"><h2>The ferry</h2><p>First <b>bold</b> words.</p><p>Second<br>line.</p><script>var x;</script></div>`))
	want := "The ferry\n\nFirst bold words.\n\nSecond\nline.\n\n"
	if !strings.HasPrefix(got, want) || strings.Contains(got, "var x") || strings.Contains(got, "readability") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestFoundShare(t *testing.T) {
	f := FoundIn("The ferry returned to the harbour on Monday after the storm.")
	for _, tc := range []struct {
		passage string
		want    float64
	}{
		{"The ferry returned to the harbour", 1},
		{"The ferry returned to the quay", 2.0 / 3}, // 2 of its 3 shingles
		{"after the storm", 1},                      // short: tokens in a row
		{"the storm after", 0},
		{"", 0},
		{"—", 0},
	} {
		if got := f.Share(tc.passage); got != tc.want {
			t.Errorf("Share(%q) = %v, want %v", tc.passage, got, tc.want)
		}
	}
}
