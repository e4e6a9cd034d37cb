package similarity

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const tieredRule = "title>0.2 & body>=0.2 | title>=0.1 & body>=0.7 | body>=0.85"

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []Clause
	}{
		{"tiered", tieredRule, []Clause{
			{{0, Above, 0.2}, {1, AtLeast, 0.2}},
			{{0, AtLeast, 0.1}, {1, AtLeast, 0.7}},
			{{1, AtLeast, 0.85}},
		}},
		{"no spaces", "body>=.5|title<1", []Clause{{{1, AtLeast, 0.5}}, {{0, Below, 1}}}},
		{"spaces everywhere", "  body  <=  0.3  &  title  >  0  ", []Clause{{{1, AtMost, 0.3}, {0, Above, 0}}}},
		{"integers", "body>=1", []Clause{{{1, AtLeast, 1}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRule(tc.src, "title", "body")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.Clauses); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestParseRuleErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		column    int
		token     string
	}{
		{"empty", "", 1, ""},
		{"only spaces", "   ", 4, ""},
		{"unknown field", "title>0.2 & bdy>=0.2", 13, "bdy"},
		{"missing operator", "title 0.2", 7, "0.2"},
		{"reversed operator", "body=>0.2", 5, "="},
		{"equals is no operator", "body==0.2", 5, "="},
		{"unicode operator", "body≥0.2", 5, "≥"},
		{"missing number", "body>=", 7, ""},
		{"number above one", "body>=1.5", 7, "1.5"},
		{"negative number", "body>=-0.5", 7, "-0.5"},
		{"exponent without digits", "body>=1e-", 7, "1e-"},
		{"two points", "body>=0.2.1", 7, "0.2.1"},
		{"field as number", "body>=title", 7, "title"},
		{"dangling and", "title>0.2 &", 12, ""},
		{"dangling or", "body>=0.85 |", 13, ""},
		{"double or", "body>0.1 || title>0.1", 11, "|"},
		{"missing connective", "body>0.1 title>0.1", 10, "title"},
		{"parenthesis", "(body>0.1)", 1, "("},
		{"column counts characters", "body>=0.2 & ŧitle>0.1", 13, "ŧ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRule(tc.src, "title", "body")
			var re *RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error %v, want a *RuleError", err)
			}
			if re.Column != tc.column || re.Token != tc.token {
				t.Errorf("error at column %d token %q, want column %d token %q (%v)", re.Column, re.Token, tc.column, tc.token, err)
			}
		})
	}
}

func TestRuleStringRoundTrips(t *testing.T) {
	r, err := ParseRule(" title > 0.2&body>=0.20 |body>=.85", "title", "body")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.String(), "title>0.2 & body>=0.2 | body>=0.85"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	again, err := ParseRule(r.String(), "title", "body")
	if err != nil || !cmp.Equal(r, again) {
		t.Errorf("round trip gave %v, %v", again, err)
	}
}

// TestTieredRuleMatchesDirectEvaluation checks the parsed default rule
// against the three clauses written out as code, on a grid that hits every
// boundary and on random scores.
func TestTieredRuleMatchesDirectEvaluation(t *testing.T) {
	r, err := ParseRule(tieredRule, "title", "body")
	if err != nil {
		t.Fatal(err)
	}
	direct := func(title, body float64) bool {
		return (title > 0.2 && body >= 0.2) || (title >= 0.1 && body >= 0.7) || body >= 0.85
	}
	var points []float64
	for _, b := range []float64{0, 0.1, 0.2, 0.7, 0.85, 1} {
		points = append(points, b, b-1e-9, b+1e-9)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		points = append(points, rng.Float64())
	}
	for _, title := range points {
		for _, body := range points {
			got := r.Eval([]float64{title, body}) >= 0
			if want := direct(title, body); got != want {
				t.Fatalf("title %v body %v: rule says %v, direct evaluation %v", title, body, got, want)
			}
		}
	}
}

func TestClauseLowerBound(t *testing.T) {
	r, err := ParseRule("title>0.2 & body>=0.2 & body>0.3 & body<0.9 | title<0.5", "title", "body")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		clause, field int
		want          float64
		ok            bool
	}{
		{"largest of two", 0, 1, 0.3, true},
		{"strict bound", 0, 0, 0.2, true},
		{"upper bound only", 1, 0, 0, false},
		{"field absent", 1, 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := r.Clauses[tc.clause].LowerBound(tc.field)
			if v != tc.want || ok != tc.ok {
				t.Errorf("got %v %v, want %v %v", v, ok, tc.want, tc.ok)
			}
		})
	}
}

// Every number a rule prints is read back: very small ones print with an
// exponent.
func TestRuleNumbers(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want float64
		ok   bool
	}{
		{"body>=1e-05", 1e-05, true},
		{"body>=1E-5", 1e-05, true},
		{"body>=2.5e-3", 0.0025, true},
		{"body>=1e0", 1, true},
		{"body>=1e+0", 1, true},
		{"body>=.5", 0.5, true},
		{"body>=1e", 0, false},
		{"body>=1e+-5", 0, false},
		{"body>=e5", 0, false},
		{"body>=1e5", 0, false}, // above 1
		{"body>=0x1p-2", 0, false},
		{"body>=1.e-2.5", 0, false},
		{"body>=-0.5", 0, false},
	} {
		r, err := ParseRule(tc.src, "title", "body")
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.src, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		if got := r.Clauses[0][0].Value; got != tc.want {
			t.Errorf("%q: %v, want %v", tc.src, got, tc.want)
		}
		again, err := ParseRule(r.String(), "title", "body")
		if err != nil || !cmp.Equal(r, again) {
			t.Errorf("%q: printed as %q, read back: %v", tc.src, r.String(), err)
		}
	}
	r, _ := ParseRule("body>=0.00001", "title", "body")
	if r.String() != "body>=1e-05" {
		t.Errorf("printed as %q", r.String())
	}
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{tieredRule, "body>=.5|title<1", "x", "body>=", "(body>0.1)", "body≥0.2", "body>=1e-05", "title>0.00001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		r, err := ParseRule(src, "title", "body")
		if err != nil {
			var re *RuleError
			if !errors.As(err, &re) || re.Column < 1 {
				t.Fatalf("%q: bad error %v", src, err)
			}
			return
		}
		again, err := ParseRule(r.String(), "title", "body")
		if err != nil || !cmp.Equal(r, again) {
			t.Fatalf("%q: canonical form %q does not round-trip: %v", src, r.String(), err)
		}
	})
}

// TestRuleSlack: with a Slack, a score within it of a condition's number
// counts as that number, on both sides: it meets >= and <= and fails >
// and <; past it, it is compared as without.
func TestRuleSlack(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		score float64
		want  int
	}{
		{"x>=0.85", 0.85 - Tolerance(0.85)/2, 0},
		{"x>=0.85", 0.85 - 2*Tolerance(0.85), -1},
		{"x>0.2", 0.2 + Tolerance(0.2)/2, -1},
		{"x>0.2", 0.2 + 2*Tolerance(0.2), 0},
		{"x<0.5", 0.5 - Tolerance(0.5)/2, -1},
		{"x<=0.5", 0.5 + Tolerance(0.5)/2, 0},
		// The slack is relative: no rounding of 32-bit weights takes an
		// exact cosine from 0.2 to 0.1999999, which misses 0.2; near 1
		// such a gap is rounding.
		{"x>=0.2", 0.1999999, -1},
		{"x>0.2", 0.2000001, 0},
		{"x>=0.9999999", 0.9999998, 0},
	} {
		r, err := ParseRule(tc.rule, "x")
		if err != nil {
			t.Fatal(err)
		}
		r.Slack = Slack
		if got := r.Eval([]float64{tc.score}); got != tc.want {
			t.Errorf("%s at %v with slack: clause %d, want %d", tc.rule, tc.score, got, tc.want)
		}
	}
}
