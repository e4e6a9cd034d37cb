package gen

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
)

// testGenerator prepares the test bases with default options.
func testGenerator(t *testing.T) *generator {
	t.Helper()
	opts := Options{N: 100}
	opts.setDefaults()
	g, err := newGenerator(testBases(), &opts)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// testArticle returns a fresh article of the base with the given id.
func testArticle(t *testing.T, g *generator, id string) (*article, int) {
	t.Helper()
	for i, b := range g.bases {
		if b.id == id {
			a := &article{title: b.title, place: b.place, date: b.date, paras: b.paras}
			return a.clone(), i
		}
	}
	t.Fatalf("no base %s", id)
	return nil, 0
}

func flat(a *article) []string {
	var out []string
	for _, p := range a.paras {
		out = append(out, p...)
	}
	return out
}

func body(a *article) string { return string(a.appendText(nil)) }

// isSubsequence reports whether sub appears in seq in order.
func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

var datelineRE = regexp.MustCompile(`^[A-Z][A-Z ]+, [A-Z][a-z]+ \d{1,2} \([A-Za-z ]+\) - `)

func TestOps(t *testing.T) {
	g := testGenerator(t)
	tests := []struct {
		op    Op
		base  string
		check func(t *testing.T, before, after *article)
	}{
		{Truncate, "t:oil", func(t *testing.T, before, after *article) {
			if len(after.paras) >= len(before.paras) || len(after.paras) == 0 {
				t.Fatalf("paragraphs %d -> %d", len(before.paras), len(after.paras))
			}
			if diff := cmp.Diff(before.paras[:len(after.paras)], after.paras); diff != "" {
				t.Errorf("kept paragraphs are not a prefix (-want +got):\n%s", diff)
			}
			if 2*len(body(after)) < len(body(before)) {
				t.Errorf("kept %d of %d bytes, want at least half", len(body(after)), len(body(before)))
			}
		}},
		{DeleteSentence, "t:harbor", func(t *testing.T, before, after *article) {
			n, m := len(flat(before)), len(flat(after))
			if m != n-1 && m != n-2 {
				t.Errorf("sentences %d -> %d, want one or two fewer", n, m)
			}
			if !isSubsequence(flat(after), flat(before)) {
				t.Errorf("remaining sentences are not the original's in order")
			}
		}},
		{SwapSentences, "t:grain", func(t *testing.T, before, after *article) {
			b, a := flat(before), flat(after)
			var moved []int
			for i := range b {
				if b[i] != a[i] {
					moved = append(moved, i)
				}
			}
			if len(moved) != 2 || moved[1] != moved[0]+1 || b[moved[0]] != a[moved[1]] || b[moved[1]] != a[moved[0]] {
				t.Errorf("want two neighbouring sentences exchanged, changed positions %v", moved)
			}
		}},
		{InsertSentence, "t:bank", func(t *testing.T, before, after *article) {
			b, a := flat(before), flat(after)
			if len(a) != len(b)+1 && len(a) != len(b)+2 {
				t.Fatalf("sentences %d -> %d, want one or two more", len(b), len(a))
			}
			if !isSubsequence(b, a) {
				t.Errorf("original sentences not kept in order")
			}
			for _, s := range a {
				if !slices.Contains(b, s) && !strings.Contains(allBaseText(g), s) {
					t.Errorf("inserted sentence %q is from no base", s)
				}
			}
		}},
		{Spelling, "t:harbor", func(t *testing.T, before, after *article) {
			text := body(after) + after.title
			for _, want := range []string{"organisation's", "programme", "US Department", "analyse", "licence", "HARBOUR"} {
				if !strings.Contains(text, want) {
					t.Errorf("missing %q in %q", want, text)
				}
			}
		}},
		{NumberFormat, "t:harbor", func(t *testing.T, before, after *article) {
			if body(after) == body(before) {
				t.Fatal("nothing changed")
			}
			digits := func(s string) string {
				return strings.Map(func(r rune) rune {
					if unicode.IsDigit(r) || r == ' ' {
						return r
					}
					return -1
				}, s)
			}
			if strings.Fields(digits(body(after)))[0] != "1250" && !strings.Contains(body(after), "1,250") {
				t.Errorf("figure lost: %q", body(after))
			}
			if got, want := strings.Join(strings.Fields(digits(strings.ReplaceAll(body(after), ",", ""))), ""),
				strings.Join(strings.Fields(digits(strings.ReplaceAll(body(before), ",", ""))), ""); got != want {
				t.Errorf("figures changed value: %s, want %s", got, want)
			}
		}},
		{Glue, "t:oil", func(t *testing.T, before, after *article) {
			if len(after.paras) >= len(before.paras) {
				t.Errorf("paragraphs %d -> %d, want fewer", len(before.paras), len(after.paras))
			}
			if noSpace(body(after)) != noSpace(body(before)) {
				t.Errorf("glue changed more than whitespace")
			}
			if !regexp.MustCompile(`[.")][A-Z"]`).MatchString(body(after)) {
				t.Errorf("no glued sentence boundary in %q", body(after))
			}
		}},
		{NewHeadline, "t:grain", func(t *testing.T, before, after *article) {
			if after.title == before.title {
				t.Errorf("headline unchanged: %q", after.title)
			}
			text := body(after)
			if !datelineRE.MatchString(text) {
				t.Errorf("no new dateline at the start of %q", text[:60])
			}
			if rest := datelineRE.ReplaceAllString(text, ""); rest != body(before) {
				t.Errorf("body changed beyond the dateline")
			}
		}},
		{OCRLight, "t:oil", func(t *testing.T, before, after *article) {
			r := editRatio(body(before), body(after))
			if r == 0 || r > 0.03 {
				t.Errorf("edit ratio %.3f, want in (0, 0.03]", r)
			}
		}},
		{OCRHeavy, "t:oil", func(t *testing.T, before, after *article) {
			r := editRatio(body(before), body(after))
			if r < 0.02 || r > 0.15 {
				t.Errorf("edit ratio %.3f, want in [0.02, 0.15]", r)
			}
		}},
		{Boilerplate, "t:bank", func(t *testing.T, before, after *article) {
			lines := append(slices.Clone(after.head), after.foot...)
			if len(lines) < 1 || len(after.foot) < 1 {
				t.Fatalf("no boilerplate lines: head %q foot %q", after.head, after.foot)
			}
			for _, l := range lines {
				if !slices.Contains(sites[0].boilerplate, l) {
					t.Errorf("line %q is not the site's", l)
				}
			}
			if !strings.Contains(body(after), body(before)) {
				t.Errorf("body changed")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(string(tc.op), func(t *testing.T) {
			for seed := range uint64(20) {
				before, self := testArticle(t, g, tc.base)
				after := before.clone()
				before.dateline = "" // the test articles have no dateline
				e := editor{rng: rand.New(rand.NewPCG(seed, 1)), g: g, self: self, site: &sites[0]}
				if !e.apply(tc.op, after) {
					t.Fatalf("seed %d: op did not apply", seed)
				}
				tc.check(t, before, after)
				if t.Failed() {
					t.Fatalf("failed at seed %d", seed)
				}
			}
		})
	}
}

func allBaseText(g *generator) string {
	var b strings.Builder
	for _, p := range g.bases {
		for _, para := range p.paras {
			b.WriteString(strings.Join(para, " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// editRatio is the Levenshtein distance of a and b over the length of a.
func editRatio(a, b string) float64 {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(b)]) / float64(len(a))
}

func TestOpsNotApplicable(t *testing.T) {
	g := testGenerator(t)
	one := &article{title: "T", paras: [][]string{{"Only one sentence here."}}}
	e := editor{rng: rand.New(rand.NewPCG(1, 1)), g: g, self: -1, site: &sites[0]}
	for _, op := range []Op{Truncate, DeleteSentence, SwapSentences, Glue} {
		a := one.clone()
		if e.apply(op, a) {
			t.Errorf("%s applied to a one-sentence article: %q", op, body(a))
		}
		if diff := cmp.Diff(body(one), body(a)); diff != "" {
			t.Errorf("%s changed an article it does not fit (-want +got):\n%s", op, diff)
		}
	}
}

func TestChooseAndApply(t *testing.T) {
	g := testGenerator(t)
	for seed := range uint64(200) {
		a, self := testArticle(t, g, "t:oil")
		e := editor{rng: rand.New(rand.NewPCG(seed, 2)), g: g, self: self, site: &sites[1]}
		ops := e.chooseAndApply(a, AllOps(), 3)
		if len(ops) < 1 || len(ops) > 3 {
			t.Fatalf("seed %d: %d ops %v, want 1..3", seed, len(ops), ops)
		}
		if !slices.IsSortedFunc(ops, func(x, y Op) int { return opRank(x) - opRank(y) }) {
			t.Errorf("seed %d: ops %v not in application order", seed, ops)
		}
		if slices.Contains(ops, OCRLight) && slices.Contains(ops, OCRHeavy) {
			t.Errorf("seed %d: both OCR levels", seed)
		}
	}
}

func TestParseOps(t *testing.T) {
	got, err := ParseOps("truncate, glue,,ocr-heavy")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Op{Truncate, Glue, OCRHeavy}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := ParseOps("truncate,shout"); err == nil {
		t.Error("unknown op accepted")
	}
}

func TestTemplateNegative(t *testing.T) {
	g := testGenerator(t)
	a, _ := testArticle(t, g, "t:acme")
	before := a.clone()
	templateNegative(a, rand.New(rand.NewPCG(3, 3)))
	if strings.Contains(a.title, "ACME") || strings.Contains(a.title, "<ACW>") {
		t.Errorf("company kept in %q", a.title)
	}
	if !strings.Contains(a.title, "4TH QTR NET") {
		t.Errorf("template words lost in %q", a.title)
	}
	bw, aw := flat(before), flat(a)
	for i := range bw {
		if bw[i] == aw[i] && strings.ContainsAny(bw[i], "0123456789") {
			t.Errorf("line %q kept its figures", bw[i])
		}
		if nonDigits(bw[i]) != nonDigits(aw[i]) {
			t.Errorf("line %q became %q: more than figures changed", bw[i], aw[i])
		}
	}
}

func nonDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return '#'
		}
		return r
	}, s)
}

func TestRandomDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct{ name, in, keep string }{
		{"figures", "Net 12,500,000 vs 11.4 mln", ""},
		{"year", "in 1987 and 2004", "in 1987 and 2004"},
		{"ordinal", "4TH QTR and 1ST HALF", "4TH QTR and 1ST HALF"},
		{"season", "the 1986/87 crop", "the 1986/87 crop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := randomDigits(tc.in, rng)
			if tc.keep != "" && got != tc.keep {
				t.Errorf("got %q, want %q", got, tc.keep)
			}
			if tc.keep == "" && (got == tc.in || nonDigits(got) != nonDigits(tc.in)) {
				t.Errorf("got %q from %q, want the same shape with other digits", got, tc.in)
			}
		})
	}
}

// A dividend notice whose figures are all spelled out used to come out of
// templateNegative with its body unchanged: only digits were replaced.
func TestTemplateNegativeSpelledFigures(t *testing.T) {
	a := &article{title: "FRIEDMAN INDUSTRIES INC <FRD> QUARTERLY DIV",
		paras: [][]string{{"Qtly div seven cts vs seven cts prior"}, {"Pay June one"}, {"Record May Four"}}}
	before := a.clone()
	templateNegative(a, rand.New(rand.NewPCG(5, 5)))
	bw, aw := flat(before), flat(a)
	for i := range bw {
		if bw[i] == aw[i] {
			t.Errorf("line %q kept its figures", bw[i])
		}
	}
	if !strings.HasPrefix(aw[0], "Qtly div ") || !strings.HasPrefix(aw[2], "Record May ") {
		t.Errorf("template words lost: %q", aw)
	}
	if w := strings.Fields(aw[2])[2]; w[0] < 'A' || w[0] > 'Z' {
		t.Errorf("capitalised number word became %q", w)
	}
}

// An inserted sentence never comes from a short story, so a copy never holds
// most of an unrelated story.
func TestInsertSentenceDonorsAreLong(t *testing.T) {
	g := testGenerator(t)
	short := map[string]bool{}
	for _, b := range g.bases {
		if b.sentences() < minDonorSentences {
			for _, p := range b.paras {
				for _, s := range p {
					short[s] = true
				}
			}
		}
	}
	for seed := range uint64(200) {
		a, self := testArticle(t, g, "t:bank")
		before := flat(a)
		e := editor{rng: rand.New(rand.NewPCG(seed, 1)), g: g, self: self}
		e.insertSentence(a)
		for _, s := range flat(a) {
			if short[s] && !slices.Contains(before, s) {
				t.Fatalf("seed %d: inserted %q from a story of fewer than %d sentences", seed, s, minDonorSentences)
			}
		}
	}
}

// TestOpsListOnlyChangesCarried pins a spelling change made to the title
// alone and then thrown away by a new headline from the first sentence: the
// copy listed spelling with nothing of it left.
func TestOpsListOnlyChangesCarried(t *testing.T) {
	g := testGenerator(t)
	orig := &article{title: "U.S. port plans new terminal", place: "BALTIMORE",
		paras: [][]string{{"The port said it will build a new container terminal at the inner harbour."},
			{"Officials said traffic rose last year."}}}
	replaced := 0
	for seed := range uint64(100) {
		a := orig.clone()
		e := editor{rng: rand.New(rand.NewPCG(seed, 3)), g: g, self: -1, site: &sites[0]}
		ops := e.chooseAndApply(a, []Op{Spelling, NewHeadline}, 2)
		carried := strings.Contains(a.title+" "+body(a), "US ")
		if slices.Contains(ops, Spelling) != carried {
			t.Errorf("seed %d: ops %v, title %q: spelling listed %v, carried %v",
				seed, ops, a.title, slices.Contains(ops, Spelling), carried)
		}
		if slices.Contains(ops, NewHeadline) && !carried {
			replaced++
		}
	}
	if replaced == 0 {
		t.Error("no seed gave a new headline in place of the spelled title")
	}
}
