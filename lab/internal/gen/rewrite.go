package gen

import (
	"fmt"
	"strings"
	"unicode"
)

// rewriteTokens applies f to every space-separated token of the title and
// the sentences and reports whether anything changed. f returns the new
// token, or "" with false to keep it.
func rewriteTokens(a *article, f func(tok string) (string, bool)) bool {
	changed := false
	if t, ok := rewriteString(a.title, f); ok {
		a.title, changed = t, true
	}
	for _, p := range a.paras {
		for i, s := range p {
			if t, ok := rewriteString(s, f); ok {
				p[i], changed = t, true
			}
		}
	}
	return changed
}

func rewriteString(s string, f func(tok string) (string, bool)) (string, bool) {
	toks := strings.Split(s, " ")
	changed := false
	for i, tok := range toks {
		if t, ok := f(tok); ok && t != tok {
			toks[i], changed = t, true
		}
	}
	if !changed {
		return s, false
	}
	return strings.Join(toks, " "), true
}

// britishToken rewrites one token from American to British spelling.
func britishToken(tok string) (string, bool) {
	switch tok {
	case "U.S.":
		return "US", true
	case "U.K.":
		return "UK", true
	}
	lead, core, trail := splitToken(tok)
	if c, ok := strings.CutSuffix(core, "'s"); ok { // organization's
		core, trail = c, "'s"+trail
	}
	lower := strings.ToLower(core)
	if uk, ok := usToUK[lower]; ok {
		return lead + caseLike(uk, core) + trail, true
	}
	for _, suf := range []string{"izations", "ization", "izing", "ized", "izes", "ize"} {
		if !strings.HasSuffix(lower, suf) {
			continue
		}
		stem := strings.TrimSuffix(lower, suf)
		if len(stem) < 3 || !isAlpha(stem) || izeExceptions[stem+"ize"] {
			return "", false
		}
		return lead + caseLike(stem+"is"+suf[2:], core) + trail, true
	}
	return "", false
}

// numberStyle is one house style for figures, chosen per copy.
type numberStyle struct {
	dropThousands bool   // 1,000 → 1000 (else 10000 → 10,000)
	pct           string // what "pct" and "percent" become: "%", "per cent" or "percent"
	longUnits     bool   // dlrs → dollars, mln → million, bln → billion, cts → cents
}

var longUnits = map[string]string{
	"dlrs": "dollars", "dlr": "dollar", "mln": "million", "bln": "billion", "cts": "cents",
}

func (e *editor) numberFormat(a *article) bool {
	st := numberStyle{
		dropThousands: e.rng.IntN(4) != 0,
		pct:           []string{"%", "per cent", "percent"}[e.rng.IntN(3)],
		longUnits:     e.rng.IntN(2) == 0,
	}
	changed := false
	if t, ok := st.rewrite(a.title); ok {
		a.title, changed = t, true
	}
	for _, p := range a.paras {
		for i, s := range p {
			if t, ok := st.rewrite(s); ok {
				p[i], changed = t, true
			}
		}
	}
	return changed
}

// rewrite applies the style to one sentence.
func (st numberStyle) rewrite(s string) (string, bool) {
	toks := strings.Split(s, " ")
	out := toks[:0:0]
	changed := false
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		lead, core, trail := splitToken(tok)
		lower := strings.ToLower(core)
		var rep string
		switch {
		case lower == "pct" || lower == "percent":
			if st.pct == "%" && len(out) > 0 && lead == "" && endsInDigit(out[len(out)-1]) {
				out[len(out)-1] += "%" + trail
				changed = true
				continue
			}
			if st.pct != "%" && lower != st.pct {
				rep = lead + st.pct + trail
			}
		case lower == "per" && i+1 < len(toks) && strings.HasPrefix(strings.ToLower(toks[i+1]), "cent") && st.pct == "percent":
			_, _, t2 := splitToken(toks[i+1])
			rep = lead + "percent" + t2
			i++
		case st.longUnits && longUnits[lower] != "":
			rep = lead + caseLike(longUnits[lower], core) + trail
		case isFigure(core):
			rep = lead + st.figure(core) + trail
		}
		if rep != "" && rep != tok {
			tok, changed = rep, true
		}
		out = append(out, tok)
	}
	return strings.Join(out, " "), changed
}

func endsInDigit(s string) bool {
	return s != "" && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// isFigure reports whether s is digits with optional thousands commas.
func isFigure(s string) bool {
	if s == "" || s[0] == ',' {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && c != ',' {
			return false
		}
	}
	return true
}

// figure reformats an integer: thousands commas dropped, or added to
// numbers of five or more digits (four-digit numbers are often years).
func (st numberStyle) figure(s string) string {
	plain := strings.ReplaceAll(s, ",", "")
	if st.dropThousands {
		return plain
	}
	if len(plain) < 5 || plain != s {
		return s
	}
	var b strings.Builder
	for i, c := range plain {
		if i > 0 && (len(plain)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// newHeadline replaces the headline and writes a new dateline. A headline
// made from the first sentence replaces the old one (e.titleReplaced); one
// made of a prefix or suffix around the old one keeps it.
func (e *editor) newHeadline(a *article) bool {
	old := a.title
	if lead := leadHeadline(a); lead != "" && e.rng.IntN(2) == 0 {
		a.title = lead
		e.titleReplaced = lead != old
	} else {
		t := old
		if strings.ToUpper(t) == t {
			t = titleCase(t)
		}
		a.title = headlinePrefixes[e.rng.IntN(len(headlinePrefixes))] + t +
			headlineSuffixes[e.rng.IntN(len(headlineSuffixes))]
	}
	if a.title == old {
		a.title += " - update"
	}
	place := a.place
	if place == "" {
		place = cities[e.rng.IntN(len(cities))]
	}
	a.dateline = fmt.Sprintf("%s, %s %d (%s) -", place, a.date.Month(), a.date.Day(),
		agencies[e.rng.IntN(len(agencies))])
	return true
}

// leadHeadline makes a headline from the first words of the first sentence.
func leadHeadline(a *article) string {
	if len(a.paras) == 0 {
		return ""
	}
	f := strings.Fields(a.paras[0][0])
	if len(f) < 6 {
		return ""
	}
	f = f[:min(len(f), 9)]
	last := strings.TrimRightFunc(f[len(f)-1], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	f[len(f)-1] = last
	return capitalise(strings.Join(f, " "))
}
