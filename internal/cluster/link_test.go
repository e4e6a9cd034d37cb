package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/neardup/neardup/core"
)

func TestLinker(t *testing.T) {
	// A chain: 1 ~ 0, 2 ~ 1, 3 ~ 2, and 4 ~ 0, 4 ~ 1: nothing matches 0
	// with 2 or 3.
	links := map[int32][]Link{
		1: {{Other: 0, Score: 0.9}},
		2: {{Other: 1, Score: 0.8}},
		3: {{Other: 2, Score: 0.7}},
		4: {{Other: 0, Score: 0.6}, {Other: 1, Score: 0.95}},
	}
	name := func(d int32) string { return fmt.Sprint("d", d) }
	for _, tc := range []struct {
		policy Linking
		groups string
		why4   string
	}{
		{Any, "[[0 1 2 3 4]]", "duplicate of d1 (0.95)"},
		// 2 links to 1, not to the first member 0; 3 starts a cluster
		// with 2.
		{Anchor, "[[0 1 4] [2 3]]", "duplicate of the first member d0 (0.6)"},
		// 2 joins {0, 1} through one link of two; 3 has one link to
		// {0, 1, 2}, fewer than half; 4 has two of three.
		{Majority, "[[0 1 2 4]]", "duplicate of 2 of 3 members, best d1 (0.95)"},
	} {
		t.Run(string(tc.policy), func(t *testing.T) {
			l := NewLinker(tc.policy, 0)
			for d := int32(0); d < 5; d++ {
				l.Add(d, links[d])
			}
			groups := l.Groups()
			if got := fmt.Sprint(groups); got != tc.groups {
				t.Fatalf("groups %s, want %s", got, tc.groups)
			}
			g := groups[0]
			if got := l.Why(0, g).Format(tc.policy, name); got != "first member" {
				t.Errorf("why 0: %q, want first member", got)
			}
			if got := l.Why(4, g).Format(tc.policy, name); got != tc.why4 {
				t.Errorf("why 4: %q, want %q", got, tc.why4)
			}
		})
	}
}

func TestLinkerNeverMerges(t *testing.T) {
	// Two clusters {0, 1} and {2, 3}; 4 links to one member of each: with
	// majority it joins the one with the better link, and the two stay apart.
	l := NewLinker(Majority, 0)
	l.Add(1, []Link{{Other: 0, Score: 0.9}})
	l.Add(3, []Link{{Other: 2, Score: 0.9}})
	l.Add(4, []Link{{Other: 0, Score: 0.5}, {Other: 3, Score: 0.7}})
	want := [][]int32{{0, 1}, {2, 3, 4}}
	if got := l.Groups(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("groups %v, want %v", got, want)
	}
	a := NewLinker(Any, 0)
	a.Add(1, []Link{{Other: 0, Score: 0.9}})
	a.Add(3, []Link{{Other: 2, Score: 0.9}})
	a.Add(4, []Link{{Other: 0, Score: 0.5}, {Other: 3, Score: 0.7}})
	if got := a.Groups(); len(got) != 1 {
		t.Errorf("any: groups %v, want one", got)
	}
}

// TestMajorityPastTheBucketLimit: 200 copies of one text, each linked to
// the members a bucket limit of 32 leaves it (the first and the 31
// newest), are one cluster by majority: a cluster of more than 32 members
// admits a document by links to 16 of them. Counted over the whole
// cluster, the 66th copy had 32 links of 65 and started a second cluster,
// and the copies made four (65, 63, 63 and 9).
func TestMajorityPastTheBucketLimit(t *testing.T) {
	const n, limit = 200, 32
	for _, tc := range []struct {
		limit int
		sizes string
	}{
		{limit, "[200]"},
		{0, "[65 63 63 9]"}, // no limit given: half of every member
	} {
		l := NewLinker(Majority, tc.limit)
		for d := int32(1); d < n; d++ {
			var links []Link
			for o := range d {
				if d <= limit || o == 0 || o >= d-(limit-1) {
					links = append(links, Link{Other: o, Score: 1})
				}
			}
			l.Add(d, links)
		}
		var sizes []int
		for _, g := range l.Groups() {
			sizes = append(sizes, len(g))
		}
		if got := fmt.Sprint(sizes); got != tc.sizes {
			t.Errorf("limit %d: clusters of %s, want %s", tc.limit, got, tc.sizes)
		}
	}
}

func TestParseLinking(t *testing.T) {
	for _, s := range []string{"any", "anchor", "majority"} {
		if _, err := ParseLinking(s); err != nil {
			t.Errorf("ParseLinking(%q): %v", s, err)
		}
	}
	if _, err := ParseLinking("half"); err == nil {
		t.Error("ParseLinking(half): no error")
	}
}

// Reasons read as they did when written with fmt's %d, with a score of
// four decimals at most, as encoding/json writes core.Round of it, for any
// score and size, and AppendFormat appends to what
// is there. Regression: the score was written with four significant
// digits (%.4g), so a stored score of 0.012346 read "0.01235" in an
// export's joined, where dedup's read "0.0123", and one below 0.0001 read
// "1.234e-05".
func TestReasonFormatWritesFourDecimals(t *testing.T) {
	name := func(d int32) string { return fmt.Sprint("doc-", d) }
	for _, tc := range []struct {
		score float64
		want  string
	}{
		{0.012346, "0.0123"},
		{0.0567891, "0.0568"},
		{0.00001234, "0"},
		{1e-7, "0"},
		{0.69997, "0.7"},
		{0.123456, "0.1235"},
		{0.30000000000000004, "0.3"},
		{1, "1"},
	} {
		r := Reason{Links: 1, Size: 3, Other: 7, Score: tc.score}
		if got, want := r.Format(Any, name), "duplicate of doc-7 ("+tc.want+")"; got != want {
			t.Errorf("score %v: %q, want %q", tc.score, got, want)
		}
	}
	scores := []float64{0, 1, 0.5, 0.9, 0.123456, 0.99995, 0.00001234, 1e-7, 0.7885, 0.30000000000000004}
	for i := range 200 {
		scores = append(scores, float64(i*7919%10007)/10007)
	}
	for _, s := range scores {
		js, err := json.Marshal(core.Round(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []Reason{{Links: 1, Size: 3, Other: 7, Score: s}, {Links: 12, Size: 40, Other: 1 << 30, Score: s}} {
			want := map[Linking]string{
				Any:      fmt.Sprintf("duplicate of %s (%s)", name(r.Other), js),
				Anchor:   fmt.Sprintf("duplicate of the first member %s (%s)", name(r.Other), js),
				Majority: fmt.Sprintf("duplicate of %d of %d members, best %s (%s)", r.Links, r.Size, name(r.Other), js),
			}
			for policy, w := range want {
				if got := r.Format(policy, name); got != w {
					t.Errorf("%s %+v: %q, want %q", policy, r, got, w)
				}
				if got := string(r.AppendFormat([]byte("x; "), policy, name)); got != "x; "+w {
					t.Errorf("%s %+v appended: %q", policy, r, got)
				}
			}
		}
	}
}

// An exact copy of a member of a cluster of five, with no link to its
// first member, is in it by anchor and majority, and says so.
func TestLinkerCopy(t *testing.T) {
	name := func(d int32) string { return fmt.Sprint("d", d) }
	for _, policy := range []Linking{Anchor, Majority} {
		l := NewLinker(policy, 0)
		for d := int32(1); d < 5; d++ {
			l.Add(d, []Link{{Other: 0, Score: 0.9}, {Other: d - 1, Score: 0.9}})
		}
		l.Add(5, []Link{{Other: 3, Score: 1, Copy: true}})
		g := l.Groups()
		if got := fmt.Sprint(g); got != "[[0 1 2 3 4 5]]" {
			t.Fatalf("%s: groups %s", policy, got)
		}
		if got := l.Why(5, g[0]).Format(policy, name); got != "exact copy of d3 (1)" {
			t.Errorf("%s: why 5: %q", policy, got)
		}
	}
}

// TestLinkerLinkCountsForCopies: a link to a story counts for the exact
// copies that stand for it, directly or through another copy, as a batch
// that compares every document finds the copies' links too. By majority a
// reprint linked to the story alone joins the cluster of the story and its
// four copies (5 links of 5), where the copies, counted as members, left
// it one link of five; a document linked to that reprint alone, then, does
// not join (1 of 6), as in a batch.
func TestLinkerLinkCountsForCopies(t *testing.T) {
	name := func(d int32) string { return fmt.Sprint("d", d) }
	l := NewLinker(Majority, 0)
	l.Add(1, []Link{{Other: 0, Score: 1, Copy: true}})
	l.Add(2, []Link{{Other: 0, Score: 1, Copy: true}})
	l.Add(3, []Link{{Other: 2, Score: 1, Copy: true}}) // a copy of a copy
	l.Add(4, []Link{{Other: 1, Score: 1, Copy: true}})
	l.Add(5, []Link{{Other: 0, Score: 0.9}})
	l.Add(6, []Link{{Other: 5, Score: 0.8}})
	g := l.Groups()
	if got := fmt.Sprint(g); got != "[[0 1 2 3 4 5]]" {
		t.Fatalf("groups %s", got)
	}
	for doc, want := range map[int32]string{
		3: "exact copy of d2 (1)",
		5: "duplicate of 5 of 5 members, best d0 (0.9)",
	} {
		if got := l.Why(doc, g[0]).Format(Majority, name); got != want {
			t.Errorf("why %d: %q, want %q", doc, got, want)
		}
	}
}

func TestChoose(t *testing.T) {
	// Cluster 7 is the oldest; 9 has the most links; 8 is anchored and
	// has the best score.
	cands := []Candidate{
		{Key: 9, Size: 4, Links: 3, Best: 0.8},
		{Key: 7, Size: 5, Links: 1, Best: 0.7},
		{Key: 8, Size: 2, Links: 1, Best: 0.9, Anchored: true},
	}
	for _, tc := range []struct {
		policy Linking
		want   int
	}{
		{Any, 1},      // the oldest: the others merge into it
		{"", 1},       // "" is Any
		{Anchor, 2},   // the only anchored one
		{Majority, 0}, // 3 of 4 and 1 of 2 are admitted; 3 links win over 1
	} {
		if got := Choose(tc.policy, 0, cands); got != tc.want {
			t.Errorf("%q: chose %d, want %d", tc.policy, got, tc.want)
		}
	}
	// Ties on links go to the best score, then to the older cluster.
	tie := []Candidate{{Key: 5, Size: 2, Links: 1, Best: 0.8}, {Key: 3, Size: 2, Links: 1, Best: 0.8}, {Key: 4, Size: 2, Links: 1, Best: 0.9}}
	if got := Choose(Majority, 0, tie); got != 2 {
		t.Errorf("best score: chose %d, want 2", got)
	}
	if got := Choose(Majority, 0, tie[:2]); got != 1 {
		t.Errorf("older: chose %d, want 1", got)
	}
	if got := Choose(Anchor, 0, tie); got != -1 {
		t.Errorf("none anchored: chose %d, want -1", got)
	}
	// Past the bucket limit, half of the limit admits a cluster.
	big := []Candidate{{Key: 1, Size: 100, Links: 16, Best: 0.9}}
	if got := Choose(Majority, 32, big); got != 0 {
		t.Errorf("16 links of 100 members, limit 32: chose %d, want 0", got)
	}
	big[0].Links = 15
	if got := Choose(Majority, 32, big); got != -1 {
		t.Errorf("15 links of 100 members, limit 32: chose %d, want -1", got)
	}
	if got := Choose(Majority, 0, []Candidate{{Key: 1, Size: 100, Links: 49}}); got != -1 {
		t.Errorf("49 links of 100 members, no limit: chose %d, want -1", got)
	}
	// An exact copy of a member joins by any policy.
	copied := []Candidate{{Key: 1, Size: 5, Links: 1, Best: 1, Copy: true}}
	for _, policy := range []Linking{Anchor, Majority} {
		if got := Choose(policy, 0, copied); got != 0 {
			t.Errorf("%s, an exact copy of a member: chose %d, want 0", policy, got)
		}
	}
	if got := Choose(Any, 0, nil); got != -1 {
		t.Errorf("no candidates: chose %d, want -1", got)
	}
}
