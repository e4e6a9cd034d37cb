package cluster

import (
	"fmt"
	"slices"
	"testing"
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
			l := NewLinker(tc.policy)
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
	l := NewLinker(Majority)
	l.Add(1, []Link{{Other: 0, Score: 0.9}})
	l.Add(3, []Link{{Other: 2, Score: 0.9}})
	l.Add(4, []Link{{Other: 0, Score: 0.5}, {Other: 3, Score: 0.7}})
	want := [][]int32{{0, 1}, {2, 3, 4}}
	if got := l.Groups(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("groups %v, want %v", got, want)
	}
	a := NewLinker(Any)
	a.Add(1, []Link{{Other: 0, Score: 0.9}})
	a.Add(3, []Link{{Other: 2, Score: 0.9}})
	a.Add(4, []Link{{Other: 0, Score: 0.5}, {Other: 3, Score: 0.7}})
	if got := a.Groups(); len(got) != 1 {
		t.Errorf("any: groups %v, want one", got)
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
