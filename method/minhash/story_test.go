package minhash

import (
	"strings"
	"testing"

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

// storyOptions are the defaults with the same-story rule at its measured
// bound.
func storyOptions() Options {
	o := Defaults()
	o.StoryTitle = 0.25
	return o
}

func deref(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestSameStory pins issue 35 item 6: one story rewritten, whose titles
// name the event in the same words and whose texts share a little, is
// found by its title keys and reported similar, scored by its title words;
// titles that name other companies, or texts that share nothing, are not.
func TestSameStory(t *testing.T) {
	g := enginetest.NewTextGen(31)
	shared := strings.Join(g.Sentences(2), " ")
	story := func(seed uint64, who string) string {
		own := enginetest.NewTextGen(seed).Sentences(12)
		return "The club said on Monday that " + who + " would be unveiled as manager. " +
			strings.Join(own[:6], " ") + " " + shared + " " + strings.Join(own[6:], " ") + " Fans of " + who + " cheered."
	}
	for _, tc := range []struct {
		name string
		a, b core.Document
		want core.Label // "" for no pair
	}{
		{"one story by two newsrooms: similar",
			core.Document{ID: "a", Title: "Wolves appoint Hoddle as manager", Text: story(1, "Wolves chose Hoddle")},
			core.Document{ID: "b", Title: "Hoddle appointed Wolves manager", Text: story(2, "Wolves chose Hoddle")}, core.Similar},
		{"the same title words naming other men: not reported",
			core.Document{ID: "a", Title: "Wolves appoint Hoddle as manager", Text: story(1, "Wolves chose Hoddle")},
			core.Document{ID: "b", Title: "Wolves appoint Redknapp as manager", Text: story(2, "Wolves chose Redknapp")}, ""},
		{"the same title over texts that share nothing: not reported",
			core.Document{ID: "a", Title: "Wolves appoint Hoddle as manager", Text: "Wolves chose Hoddle on Monday. " +
				"The former England coach signed a contract for six months and meets the players at the training ground tomorrow."},
			core.Document{ID: "b", Title: "Hoddle appointed Wolves manager", Text: "Supporters queued outside Molineux all night, " +
				"hoping that Wolves and Hoddle could lift a season of heavy defeats, injuries and empty seats."}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := enginetest.Batch(t, Spec, storyOptions(), []core.Document{tc.a, tc.b})["a~b"]
			if p.Label != tc.want {
				t.Fatalf("label %q, want %q (evidence %+v)", p.Label, tc.want, p.Evidence)
			}
			if !ok {
				return
			}
			ev := p.Evidence.(Evidence)
			if ev.Jaccard >= storyOptions().Similar || ev.Measure != MeasureTitleWords || p.Score != ev.TitleWords {
				t.Errorf("Jaccard %v, measure %q, score %v, title words %v: want a pair below the similar bound scored by its title words",
					ev.Jaccard, ev.Measure, p.Score, ev.TitleWords)
			}
		})
	}
	// Without the rule (the default) the rewritten story is not reported
	// at all.
	o := Defaults()
	a := core.Document{ID: "a", Title: "Wolves appoint Hoddle as manager", Text: story(1, "Wolves chose Hoddle")}
	b := core.Document{ID: "b", Title: "Hoddle appointed Wolves manager", Text: story(2, "Wolves chose Hoddle")}
	if p, ok := enginetest.Batch(t, Spec, o, []core.Document{a, b})["a~b"]; ok {
		t.Errorf("story title off: reported %q (evidence %+v)", p.Label, p.Evidence)
	}
}
