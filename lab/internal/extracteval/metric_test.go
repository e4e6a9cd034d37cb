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
		{"lower-cased words", "The Cat sat.", []string{"the", "cat", "sat"}},
		{"digits and underscore are word characters", "a_b 42x, 3.14", []string{"a_b", "42x", "3", "14"}},
		{"unicode letters", "Zażółć GĘŚLĄ jaźń; Привет мир", []string{"zażółć", "gęślą", "jaźń", "привет", "мир"}},
		{"glued by markup would be one token", "end.Start", []string{"end", "start"}},
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
		{"both empty", "", "", PR{1, 1}},
		{"identical", "one two three four five", "One, two: three four five!", PR{1, 1}},
		{"empty prediction", "one two three four five", "", PR{0, 0}},
		{"prediction of empty gold", "", "one two three four five", PR{0, 0}},
		// gold has 3 shingles; pred adds 3 tokens → 6 shingles, 3 shared.
		{"extra boilerplate lowers precision", "a b c d e f", "a b c d e f x y z", PR{0.5, 1}},
		// pred is the first 4 tokens: 1 shingle, shared.
		{"truncation lowers recall", "a b c d e f", "a b c d", PR{1, 1.0 / 3}},
		// Multisets: the gold says "a b c d" twice, the prediction once.
		{"multiset overlap", "a b c d a b c d", "a b c d", PR{1, 0.2}},
		// Gluing two words changes every shingle that spans them.
		{"glued words", "alpha beta gamma delta epsilon", "alpha beta gammadelta epsilon", PR{0, 0}},
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
	m.Add(PR{1, 0.5})
	m.Add(PR{0.5, 0.5})
	p, r := 0.75, 0.5
	want := 2 * p * r / (p + r)
	if m.Pages != 2 || m.Precision() != p || m.Recall() != r || math.Abs(m.F1()-want) > 1e-12 {
		t.Errorf("mean P %v R %v F1 %v over %d, want %v %v %v over 2", m.Precision(), m.Recall(), m.F1(), m.Pages, p, r, want)
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
