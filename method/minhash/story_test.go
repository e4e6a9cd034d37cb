package minhash

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/enginetest"
)

// TestFollowUp pins issue 35 item 3: a story and its follow-up, the same
// background paragraphs under another lead with new figures (before and
// after an auction), are similar, not duplicates; a reprint that keeps its
// lead stays a duplicate, and so does a story marked as sent again.
func TestFollowUp(t *testing.T) {
	background := strings.Join(enginetest.NewTextGen(21).Sentences(4), " ")
	before := "The six tapes of the recording sessions go under the hammer on Sunday, valued at up to 50,000 dollars. " +
		"Highlights of the collection get their public debut at the auction house on Saturday, a spokesman said. " +
		"The family of the engineer who made them kept the reels in a cupboard for decades. "
	after := "Four suits worn on the album cover sold for 110,000 dollars at the two-day sale on Monday. " +
		"Recordings of the early sessions failed to meet their reserve price of 30,000 dollars and were withdrawn. " +
		"A signed photograph of the singer fetched 2,115 dollars from a private buyer. "
	with := func(f func(o *Options)) Options {
		o := Defaults()
		f(&o)
		return o
	}
	for _, tc := range []struct {
		name   string
		opts   Options
		a, b   core.Document
		want   core.Label
		follow bool // the evidence says the leads differ (not read with the rule off)
	}{
		{"before and after the auction: a follow-up, similar", Defaults(),
			core.Document{ID: "a", Text: before + background}, core.Document{ID: "b", Text: after + background}, core.Similar, true},
		{"the follow-up rule off: a duplicate", with(func(o *Options) { o.FollowUp = false }),
			core.Document{ID: "a", Text: before + background}, core.Document{ID: "b", Text: after + background}, core.Duplicate, false},
		{"a story sent again under a new lead stays a duplicate", Defaults(),
			core.Document{ID: "a", Title: "Tapes go on sale", Text: before + background},
			core.Document{ID: "b", Title: "UPDATE 1-Tapes go on sale", Text: after + background}, core.Duplicate, true},
		{"a truncated reprint keeps its lead: a duplicate", Defaults(),
			core.Document{ID: "a", Text: before + background}, core.Document{ID: "b", Text: before + background[:len(background)/2]}, core.Duplicate, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := enginetest.Batch(t, Spec, tc.opts, []core.Document{tc.a, tc.b})["a~b"]
			ev, _ := p.Evidence.(Evidence)
			if p.Label != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", p.Label, tc.want, ev)
			}
			if ev.Jaccard < tc.opts.Threshold {
				t.Errorf("Jaccard %v below the threshold: the case tests nothing", ev.Jaccard)
			}
			if got := ev.isFollowUp(); got != tc.follow {
				t.Errorf("leads differ %v, want %v (lead_ab %v, lead_ba %v)", got, tc.follow, deref(ev.LeadAB), deref(ev.LeadBA))
			}
		})
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

// sameStoryDocs are two reports of one event by two newsrooms: titles that
// name it in the same words, texts that share two sentences and the name of
// the man, each with a dozen sentences of its own.
func sameStoryDocs(who, otherWho string) (a, b core.Document) {
	g := enginetest.NewTextGen(31)
	shared := strings.Join(g.Sentences(2), " ")
	story := func(seed uint64, who string) string {
		own := enginetest.NewTextGen(seed).Sentences(12)
		return "The club said on Monday that " + who + " would be unveiled as manager. " +
			strings.Join(own[:6], " ") + " " + shared + " " + strings.Join(own[6:], " ") + " Fans of " + who + " cheered."
	}
	a = core.Document{ID: "a", Title: "Wolves appoint " + who + " as manager", Text: story(1, "Wolves chose "+who)}
	b = core.Document{ID: "b", Title: otherWho + " appointed Wolves manager", Text: story(2, "Wolves chose "+otherWho)}
	return a, b
}

// TestSameStory pins issue 35 item 6: one story rewritten, whose titles
// name the event in the same words and whose texts share a little, is
// found by its title keys and reported similar, scored by its title words,
// when both are undated or dated within the story window (48 hours); not
// when they are days apart, one is dated and the other not, the titles
// name other men or share one word only, or the texts share nothing; nor
// with the rule off.
func TestSameStory(t *testing.T) {
	monday := time.Date(2004, 11, 8, 9, 30, 0, 0, time.UTC)
	noWindow := Defaults()
	noWindow.StoryWindow = 0
	off := Defaults()
	off.StoryTitle = 0
	apart := func(d time.Duration, undated bool) func(a, b *core.Document) {
		return func(a, b *core.Document) {
			a.Date, b.Date = monday, monday.Add(d)
			if undated {
				b.Date = time.Time{}
			}
		}
	}
	for _, tc := range []struct {
		name  string
		opts  Options
		other string                    // the man the second report names
		edit  func(a, b *core.Document) // nil: undated
		want  core.Label                // "" for no pair
	}{
		{"one story by two newsrooms, undated: similar", Defaults(), "Hoddle", nil, core.Similar},
		{"the second report ten hours later: similar", Defaults(), "Hoddle", apart(10*time.Hour, false), core.Similar},
		{"the second report 47 hours earlier: similar", Defaults(), "Hoddle", apart(-47*time.Hour, false), core.Similar},
		{"the same title five days later: not reported", Defaults(), "Hoddle", apart(5*24*time.Hour, false), ""},
		{"a dated and an undated report: not reported", Defaults(), "Hoddle", apart(0, true), ""},
		{"five days apart with no window: similar", noWindow, "Hoddle", apart(5*24*time.Hour, false), core.Similar},
		{"the rule off: not reported", off, "Hoddle", nil, ""},
		{"the same title words naming other men: not reported", Defaults(), "Redknapp", nil, ""},
		{"titles of one word in common: not reported", Defaults(), "Hoddle", func(a, b *core.Document) {
			a.Title, b.Title = "Wolves 1", "Wolves 7"
		}, ""},
		{"the same title over texts that share nothing: not reported", Defaults(), "Hoddle", func(a, b *core.Document) {
			a.Text = "Wolves chose Hoddle on Monday. " +
				"The former England coach signed a contract for six months and meets the players at the training ground tomorrow."
			b.Text = "Supporters queued outside Molineux all night, " +
				"hoping that Wolves and Hoddle could lift a season of heavy defeats, injuries and empty seats."
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := sameStoryDocs("Hoddle", tc.other)
			if tc.edit != nil {
				tc.edit(&a, &b)
			}
			p, ok := enginetest.Batch(t, Spec, tc.opts, []core.Document{a, b})["a~b"]
			if p.Label != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
			if !ok {
				return
			}
			ev := p.Evidence.(Evidence)
			if ev.Jaccard >= tc.opts.Similar || ev.Measure != MeasureTitleWords || p.Score != ev.TitleWords {
				t.Errorf("Jaccard %v, measure %q, score %v, title words %v: want a pair below the similar bound scored by its title words",
					ev.Jaccard, ev.Measure, p.Score, ev.TitleWords)
			}
		})
	}
}

// TestSameStoryOfOneTemplate pins the fault where two reports of one
// template were similar as one story rewritten, by their titles' words,
// while their evidence read them as one template filled in twice
// ("MIDWEST GRAIN FUTURES 10:50 EDT" and "12:30 EDT", report_time; "WORLD
// BANK LOANS MEXICO 400 MLN DLRS" and "PAKISTAN 220 MLN",
// title_figures_disjoint): they are not reported; a title marked as sent
// again keeps the pair similar, and so do the rules that read them turned
// off (a clock in a title is a figure too).
func TestSameStoryOfOneTemplate(t *testing.T) {
	noSlots := Defaults()
	noSlots.Slots, noSlots.Template = false, false
	noTemplate := Defaults()
	noTemplate.Template = false
	for _, tc := range []struct {
		name           string
		opts           Options
		titleA, titleB string
		want           core.Label // "" for no pair
	}{
		{"the same titles: similar", Defaults(), "Wolves appoint Hoddle as manager", "Wolves appoint Hoddle as manager", core.Similar},
		{"two hours in the titles: not reported", Defaults(),
			"Wolves appoint Hoddle as manager 10:50 GMT", "Wolves appoint Hoddle as manager 12:30 GMT", ""},
		{"two hours, the slots and template rules off: similar", noSlots,
			"Wolves appoint Hoddle as manager 10:50 GMT", "Wolves appoint Hoddle as manager 12:30 GMT", core.Similar},
		{"two hours, one sent again: similar", Defaults(),
			"Wolves appoint Hoddle as manager 10:50 GMT", "RPT-Wolves appoint Hoddle as manager 12:30 GMT", core.Similar},
		{"the titles' figures disjoint: not reported", Defaults(),
			"Wolves pay 400,000 stg for Hoddle as manager", "Wolves pay 220,000 stg for Hoddle as manager", ""},
		{"the titles' figures disjoint, the template rule off: similar", noTemplate,
			"Wolves pay 400,000 stg for Hoddle as manager", "Wolves pay 220,000 stg for Hoddle as manager", core.Similar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := sameStoryDocs("Hoddle", "Hoddle")
			a.Title, b.Title = tc.titleA, tc.titleB
			p := enginetest.Batch(t, Spec, tc.opts, []core.Document{a, b})["a~b"]
			if p.Label != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
		})
	}
}

// TestSameStoryOfAnotherDay pins that an item run under one title on other
// days ("PROPOSED OFFERINGS RECENTLY FILED WITH THE SEC" of March 9 and of
// March 11) is not similar as one story rewritten when its datelines name
// other days, its dates are a day or more apart and its figures changed: a
// column filled again. The same day's datelines, unchanged figures, a
// rewrite an hour later across midnight, titles both marked as sent again
// (the same title still) keep it similar, and so does the template rule
// turned off.
func TestSameStoryOfAnotherDay(t *testing.T) {
	noTemplate := Defaults()
	noTemplate.Template = false
	const title = "Proposed offerings recently filed with the Wolves board"
	evening := time.Date(1987, 3, 9, 23, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name           string
		opts           Options
		titleA, titleB string
		dayB, figuresB string
		after          time.Duration // b's date after a's (evening), 0 for both undated
		want           core.Label    // "" for no pair
	}{
		{"the same day, other figures: similar", Defaults(), title, title, "March 9", "480,000", 0, core.Similar},
		{"another day, the same figures: similar", Defaults(), title, title, "March 11", "3.2 mln", 0, core.Similar},
		{"another day, other figures: not reported", Defaults(), title, title, "March 11", "480,000", 0, ""},
		{"another day, other figures, dated 40 hours apart: not reported", Defaults(), title, title, "March 11", "480,000", 40 * time.Hour, ""},
		{"the next day an hour later, other figures: similar", Defaults(), title, title, "March 10", "480,000", 70 * time.Minute, core.Similar},
		{"another day, other figures, both sent again: similar", Defaults(), "RPT-" + title, "RPT-" + title, "March 11", "480,000", 0, core.Similar},
		{"another day, other figures, the template rule off: similar", noTemplate, title, title, "March 11", "480,000", 0, core.Similar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := sameStoryDocs("Hoddle", "Hoddle")
			a.Title, b.Title = tc.titleA, tc.titleB
			if tc.after != 0 {
				a.Date, b.Date = evening, evening.Add(tc.after)
			}
			a.Text = "WOLVERHAMPTON, March 9 - Angio Medical filed for 3.2 mln shares. " + a.Text
			b.Text = "WOLVERHAMPTON, " + tc.dayB + " - Minnetonka Bank listed " + tc.figuresB + " units. " + b.Text
			p := enginetest.Batch(t, Spec, tc.opts, []core.Document{a, b})["a~b"]
			if p.Label != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
			if ev, ok := p.Evidence.(Evidence); ok && !ev.SameTitle {
				t.Errorf("the titles are not read as one (evidence %+v)", ev)
			}
		})
	}
}

// TestSameStoryChannel pins that the same-story pairs are found by the
// title keys, not by chance in the LSH bands: the two reports share no band
// key but share a title key, and only while they are within the window.
func TestSameStoryChannel(t *testing.T) {
	m, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	monday := time.Date(2004, 11, 8, 9, 30, 0, 0, time.UTC)
	a, b := sameStoryDocs("Hoddle", "Hoddle")
	keys := func(d core.Document) (band, title []uint32) {
		sk, reason := m.NewSketcher().Sketch(&d)
		if sk == nil {
			t.Fatalf("%s skipped: %v", d.ID, reason)
		}
		return sk.Keys[:m.bands.B], sk.Keys[m.bands.B:]
	}
	for _, tc := range []struct {
		name   string
		da, db time.Time
		want   bool
	}{
		{"undated", time.Time{}, time.Time{}, true},
		{"the same hour", monday, monday.Add(time.Minute), true},
		{"a day apart", monday, monday.AddDate(0, 0, 1), true},
		{"five days apart", monday, monday.AddDate(0, 0, 5), false},
		{"dated and undated", monday, time.Time{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.Date, b.Date = tc.da, tc.db
			bandA, titleA := keys(a)
			bandB, titleB := keys(b)
			if n := shared(bandA, bandB); n != 0 {
				t.Fatalf("the reports share %d band keys: the case tests nothing", n)
			}
			if got := shared(titleA, titleB) > 0; got != tc.want {
				t.Errorf("share a title key %v, want %v (title keys %x and %x)", got, tc.want, titleA, titleB)
			}
		})
	}
}

// shared counts the keys of a that b holds.
func shared(a, b []uint32) int {
	n := 0
	for _, k := range a {
		if slices.Contains(b, k) {
			n++
		}
	}
	return n
}

// TestTitleKeysWindow pins the grids of titleKeys: two titles sharing their
// least words share a key when dated at most the window apart, wherever the
// two dates fall between the periods' edges, and none when dated more than
// twice the window apart; undated titles share keys with undated ones only;
// with no window, the dates do not count.
func TestTitleKeysWindow(t *testing.T) {
	const hour = 3600
	const window = 48 * hour
	title := []uint32{11, 22, 33, 44, 55}
	meet := func(da, db, w int64) bool {
		return shared(titleKeys(title, da, w, nil), titleKeys(title[:3], db, w, nil)) > 0
	}
	start := int64(1_100_000_000) // in 2004
	for off := int64(0); off < 2*window; off += 7 * hour / 2 {
		for _, apart := range []int64{0, 1, hour, window / 2, window - 1, window} {
			if da := start + off; !meet(da, da+apart, window) || !meet(da+apart, da, window) {
				t.Fatalf("dates %d and %d, %d s apart, share no key", da, da+apart, apart)
			}
		}
		if da := start + off; meet(da, da+2*window+1, window) {
			t.Fatalf("dates %d and %d, more than twice the window apart, share a key", da, da+2*window+1)
		}
	}
	for _, tc := range []struct {
		name   string
		da, db int64
		w      int64
		want   bool
	}{
		{"both undated", 0, 0, window, true},
		{"dated and undated", start, 0, window, false},
		{"before 1970, an hour apart", -5*hour - 1, -6 * hour, window, true},
		{"no window, years apart", start, start + 3*365*24*hour, 0, true},
		{"no window, dated and undated", start, 0, 0, true},
	} {
		if got := meet(tc.da, tc.db, tc.w); got != tc.want {
			t.Errorf("%s: share a key %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := titleKeys([]uint32{7}, start, window, nil); len(got) != 0 {
		t.Errorf("a one-word title has keys %x, want none", got)
	}
}

// BenchmarkTitleKeys is the title's share of sketching a document with the
// same-story rule on: its words stemmed and hashed (titleOf) and its keys
// (titleKeys), for a wire headline and a Cyrillic one.
func BenchmarkTitleKeys(b *testing.B) {
	m, err := newMethod(Defaults())
	if err != nil {
		b.Fatal(err)
	}
	s := m.NewSketcher().(*sketcher)
	date := time.Date(1987, 3, 3, 14, 0, 0, 0, time.UTC)
	for _, title := range []string{"FEDERAL RESERVE SETS TWO-DAY SYSTEM REPURCHASES, FED SAYS", "Госдума приняла закон о бюджете на 2020 год"} {
		doc := &core.Document{Title: title, Date: date}
		b.Run(strings.Fields(title)[0], func(b *testing.B) {
			var keys []uint32
			for b.Loop() {
				var sk Sketch
				sk.Date = date.Unix()
				s.titleOf(doc, &sk)
				keys = titleKeys(sk.TitleWords, sk.Date, m.o.storyWindow(), keys[:0])
			}
		})
	}
}

// TestAlnum checks the count of a dateline's letters and digits, read
// byte by byte in ASCII, against unicode's reading of every rune.
func TestAlnum(t *testing.T) {
	for _, s := range []string{"", "NEW YORK, March 3 - ", "SAN MATEO, Calif., March 2 -", "[@`{~] _09azAZ", "SÃO PAULO, 3 марта. /ТАСС/. ", "ab\xffcd", "Zürich 12"} {
		want := 0
		for _, r := range s {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				want++
			}
		}
		if got := alnum(s); got != want {
			t.Errorf("alnum(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestTitleWordsASCII checks that a title's words read the same whether
// its letters go through the ASCII path or the general one: the title in
// capitals, in lower case, and with one word beyond ASCII.
func TestTitleWordsASCII(t *testing.T) {
	m, err := newMethod(Defaults())
	if err != nil {
		t.Fatal(err)
	}
	s := m.NewSketcher().(*sketcher)
	words := func(title string) []uint32 {
		var sk Sketch
		s.titleOf(&core.Document{Title: title}, &sk)
		return slices.Clone(sk.TitleWords)
	}
	a, b := words("GENERAL ALLOYS SETS 1990 STAKE IN MERIDIAN DON'T"), words("general alloys sets 1990 stake in meridian dont")
	if !slices.Equal(a, b) || len(a) != 6 {
		t.Errorf("title words %v and %v, want the same six", a, b)
	}
	if c := words("Général alloys sets 1990 stake in meridian dont"); slices.Equal(c, a) || len(c) != 6 {
		t.Errorf("title words with Général %v, want six, one of them another", c)
	}
}
