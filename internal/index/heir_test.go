package index_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
)

// TestCopiesOutliveTheirOriginal: when the document that exact copies
// point to goes (removed, expired, replaced; by this process or another),
// its earliest copy left takes its place: a near duplicate of the story
// added later is its duplicate, the other copies stay in its cluster, and
// an exact copy added later is its copy. Regression: the copies, never
// sketched, stayed stored as copies of nothing, and a near duplicate of
// the story matched none of them.
func TestCopiesOutliveTheirOriginal(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story, other := g.Sentences(10), g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	exact := index.AddOptions{Exact: true}
	for _, tc := range []struct {
		name string
		gone func(t *testing.T, x, y *index.Index) error
	}{
		{"remove", func(t *testing.T, x, _ *index.Index) error {
			_, err := x.Remove(t.Context(), []string{"a"})
			return err
		}},
		{"remove by another process", func(t *testing.T, _, y *index.Index) error {
			_, err := y.Remove(t.Context(), []string{"a"})
			return err
		}},
		{"expire", func(t *testing.T, x, _ *index.Index) error {
			_, err := x.Expire(t.Context(), time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) // a alone is older
			return err
		}},
		{"replace", func(t *testing.T, x, _ *index.Index) error {
			_, err := x.Add(t.Context(), []core.Document{storyDoc("a", other, 1)}, index.AddOptions{Exact: true, Replace: true})
			return err
		}},
		{"replace, a copy after it in the add", func(t *testing.T, x, _ *index.Index) error {
			ms, err := x.Add(t.Context(), []core.Document{storyDoc("a", other, 1), storyDoc("b3", story, 4)}, index.AddOptions{Exact: true, Replace: true})
			if err == nil && (ms[1].Skip != core.SkipExactCopy || len(ms[1].Pairs) != 1 || ms[1].Pairs[0].A != "b") {
				t.Errorf("b3, an exact copy of the story b holds: %+v; want an exact copy of b", ms[1])
			}
			return err
		}},
	} {
		for _, e := range storetest.Engines {
			for _, text := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/texts=%v", tc.name, e, text), func(t *testing.T) {
					dsn := storetest.DSN(t, e)
					x := open(t, dsn, index.OpenOptions{StoreText: text})
					if _, err := x.Add(t.Context(), []core.Document{storyDoc("a", story, 1)}, exact); err != nil {
						t.Fatal(err)
					}
					ms, err := x.Add(t.Context(), []core.Document{storyDoc("b", story, 3), storyDoc("b2", story, 4)}, exact)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range ms {
						if m.Skip != core.SkipExactCopy {
							t.Fatalf("%s: %+v, want an exact copy of a", m.ID, m)
						}
					}
					y := open(t, dsn, index.OpenOptions{})
					if err := tc.gone(t, x, y); err != nil {
						t.Fatal(err)
					}
					ms, err = x.Add(t.Context(), []core.Document{storyDoc("c", near, 5), storyDoc("d", story, 6)}, exact)
					if err != nil {
						t.Fatal(err)
					}
					if c := ms[0]; c.Skip != core.SkipNone || !slices.ContainsFunc(c.Pairs, func(p core.Pair) bool {
						return p.A == "b" && p.Label == core.Duplicate && p.Method != index.ExactMethod
					}) {
						t.Errorf("c, a near duplicate of the story b holds: %+v; want a duplicate of b", c)
					}
					if d := ms[1]; d.Skip != core.SkipExactCopy || len(d.Pairs) != 1 || d.Pairs[0].A != "b" {
						t.Errorf("d, an exact copy of the story b holds: %+v; want an exact copy of b", d)
					}
					for _, id := range []string{"b", "b2"} {
						if got, err := x.Document(t.Context(), id); err != nil || got.Cluster == 0 || got.Cluster != ms[0].Cluster {
							t.Errorf("%s in cluster %d (%v), want c's, %d", id, got.Cluster, err, ms[0].Cluster)
						}
					}
					if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
						t.Errorf("verify: %v %v", faults.List, err)
					}
				})
			}
		}
	}
}

// TestCopiesByURLOutliveTheirOriginal: of the copies a removal leaves, a
// copy by content takes the original's place, with its sketch, before an
// earlier copy by URL of another text, which stays its copy and keeps the
// URL for the copies to come; a copy by URL alone takes it with its own
// sketch when the index keeps texts, else with the original's; a copy of a
// removed copy becomes a copy of the document that one copied.
// Regression: the copies lost their marks and cluster, and the original's
// keys went with it.
func TestCopiesByURLOutliveTheirOriginal(t *testing.T) {
	g := enginetest.NewTextGen(79)
	story, update, later := g.Sentences(10), g.Sentences(10), g.Sentences(10)
	near, nearUpdate := slices.Clone(story), slices.Clone(update)
	near[4], nearUpdate[4] = g.Sentence(), g.Sentence()
	doc := func(id string, text []string, url string, day int) core.Document {
		d := storyDoc(id, text, day)
		d.URL = url
		return d
	}
	const u, u2 = "https://site.example/storm", "https://other.example/storm"
	type want struct {
		of    string // the stored document it is a duplicate of
		exact bool   // as its exact copy
	}
	for _, tc := range []struct {
		name    string
		stored  []core.Document
		removed []string
		add     []core.Document
		want    []want   // by document added
		noText  []want   // in an index without texts, when not want
		cluster []string // documents in the cluster of the first added
	}{
		{"copies by content and by URL", []core.Document{doc("a", story, u, 1), doc("b", update, u, 2), doc("b2", story, u2, 3)}, []string{"a"},
			[]core.Document{doc("c", near, "", 5), doc("d", later, u, 6)},
			[]want{{"b2", false}, {"b", true}}, nil, []string{"b", "b2", "d"}},
		{"a copy by URL alone", []core.Document{doc("a", story, u, 1), doc("b", update, u, 2)}, []string{"a"},
			[]core.Document{doc("c", nearUpdate, "", 5), doc("c2", near, "", 5)},
			[]want{{"b", false}, {"", false}}, []want{{"", false}, {"b", false}}, nil},
		{"copy of a copy", []core.Document{doc("a", story, u, 1), doc("b", story, u2, 2), doc("e", update, u2, 3)}, []string{"b"},
			[]core.Document{doc("f", later, u2, 6)},
			[]want{{"e", true}}, nil, []string{"a", "e"}},
		{"original and copy", []core.Document{doc("a", story, u, 1), doc("b", story, u2, 2), doc("e", update, u2, 3)}, []string{"a", "b"},
			[]core.Document{doc("f", later, u2, 6)},
			[]want{{"e", true}}, nil, []string{"e"}},
	} {
		for _, e := range storetest.Engines {
			for _, text := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/texts=%v", tc.name, e, text), func(t *testing.T) {
					x := open(t, storetest.DSN(t, e), index.OpenOptions{StoreText: text})
					exact := index.AddOptions{Exact: true}
					for _, d := range tc.stored {
						if _, err := x.Add(t.Context(), []core.Document{d}, exact); err != nil {
							t.Fatal(err)
						}
					}
					if _, err := x.Remove(t.Context(), tc.removed); err != nil {
						t.Fatal(err)
					}
					ms, err := x.Add(t.Context(), tc.add, exact)
					if err != nil {
						t.Fatal(err)
					}
					wants := tc.want
					if !text && tc.noText != nil {
						wants = tc.noText
					}
					for i, m := range ms {
						w := wants[i]
						if (m.Skip == core.SkipExactCopy) != w.exact || slices.ContainsFunc(m.Pairs, func(p core.Pair) bool {
							return p.A == w.of && p.Label == core.Duplicate && (p.Method == index.ExactMethod) == w.exact
						}) != (w.of != "") {
							t.Errorf("%s: %+v; want a duplicate of %q (exact: %v)", m.ID, m, w.of, w.exact)
						}
					}
					for _, id := range tc.cluster {
						if got, err := x.Document(t.Context(), id); err != nil || got.Cluster == 0 || got.Cluster != ms[0].Cluster {
							t.Errorf("%s in cluster %d (%v), want %s's, %d", id, got.Cluster, err, ms[0].ID, ms[0].Cluster)
						}
					}
					if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
						t.Errorf("verify: %v %v", faults.List, err)
					}
				})
			}
		}
	}
}

// TestRemovalNeverFailsOnARecordReadForHeirs: a removal reads the records
// of the documents exact marks join to those it removes, and the heir's
// text or the original's sketch, for the heir alone, and the record, text
// and sketch of a near duplicate whose pair with the heir it judges again;
// one that does not match its checksum is left out (the pair keeps the
// mark taken), and the removal goes on. Regression: the
// removal failed on it, where it read none of them before (a record
// stored without its checksum by a writer of version 8, which docs/index.md
// says `index remove` mends), and an expiry failed on the same chunk at
// every try.
func TestRemovalNeverFailsOnARecordReadForHeirs(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story := g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	ordOf := func(id string) string { return `(SELECT ord FROM docs WHERE id = '` + id + `')` }
	remove := func(x *index.Index, t *testing.T, id string) error {
		_, err := x.Remove(t.Context(), []string{id})
		return err
	}
	for _, tc := range []struct {
		name   string
		texts  bool
		damage string
		gone   func(x *index.Index, t *testing.T) error
		mended bool // the removal takes the damage with it
	}{
		{"the original's record, removed", true, `UPDATE docs SET doc_crc = NULL WHERE id = 'a'`,
			func(x *index.Index, t *testing.T) error { return remove(x, t, "a") }, true},
		// Without texts, a copy whose original's record or sketch is
		// damaged has nothing to be sketched from: it is left a copy of
		// nothing, which verify names and index repair mends (removed).
		{"the original's record, expired", false, `UPDATE docs SET doc_crc = NULL WHERE id = 'a'`,
			func(x *index.Index, t *testing.T) error {
				_, err := x.Expire(t.Context(), time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) // a alone is older
				return err
			}, false},
		{"a copy's record, removed", true, `UPDATE docs SET doc_crc = NULL WHERE id = 'b'`,
			func(x *index.Index, t *testing.T) error { return remove(x, t, "b") }, true},
		{"the heir's text", true, `UPDATE texts SET crc = NULL WHERE ord = ` + ordOf("b"),
			func(x *index.Index, t *testing.T) error { return remove(x, t, "a") }, false},
		{"the original's sketch", false, `UPDATE sketch_detail SET crc = NULL WHERE ord = ` + ordOf("a"),
			func(x *index.Index, t *testing.T) error { return remove(x, t, "a") }, false},
		// The pair of the heir and the near duplicate, read to judge it
		// again, keeps the mark the heir took.
		{"a near duplicate's text", true, `UPDATE texts SET crc = NULL WHERE ord = ` + ordOf("y"),
			func(x *index.Index, t *testing.T) error { return remove(x, t, "a") }, false},
	} {
		for _, e := range storetest.Engines {
			t.Run(tc.name+"/"+e, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				x := open(t, dsn, index.OpenOptions{StoreText: tc.texts})
				for i, id := range []string{"a", "b", "y"} {
					d := enginetest.Doc(id, story)
					if id == "y" {
						d = enginetest.Doc(id, near)
					}
					d.Date = time.Date(2026, 3, 1+2*i, 9, 0, 0, 0, time.UTC)
					if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
						t.Fatal(err)
					}
				}
				before := marks(t, dsn)
				storetest.Exec(t, dsn, tc.damage)
				if err := tc.gone(x, t); err != nil {
					t.Fatalf("removing a document beside a damaged record: %v", err)
				}
				if got := marks(t, dsn); tc.name == "a near duplicate's text" && got["b~y"] != before["a~y"] {
					t.Errorf("b~y after the removal: %q, want a~y's, %q", got["b~y"], before["a~y"])
				}
				if faults, err := x.Verify(t.Context(), nil); err != nil || (faults.Total > 0) == tc.mended {
					t.Errorf("verify: %v %v; want faults: %v", faults.List, err, !tc.mended)
				}
			})
		}
	}
}

// TestCopiesLeftAreCopiesOfTheHeir: when the original goes, the copies
// left are marked copies of the one that takes its place, each mark saying
// what the two share (the same content, else the same URL, else what the
// copy shared with the original, said so: "removed"). Regression: they were marked copies of
// the first stored, each mark with the evidence of the one it stood for:
// b2 "the same title and text" as b, an update under the original's URL.
func TestCopiesLeftAreCopiesOfTheHeir(t *testing.T) {
	g := enginetest.NewTextGen(79)
	story, update, other := g.Sentences(10), g.Sentences(10), g.Sentences(10)
	const u1, u2, u3 = "https://site.example/storm", "https://other.example/storm", "https://third.example/storm"
	doc := func(id string, text []string, url string, day int) core.Document {
		d := storyDoc(id, text, day)
		d.URL = url
		return d
	}
	for _, tc := range []struct {
		name   string
		stored []core.Document
		want   map[string]string // exact marks after the removal of a, by their evidence's "by"
	}{
		{"an update first, copies by content after it",
			[]core.Document{doc("a", story, u1, 1), doc("b", update, u1, 2), doc("b2", story, u2, 3), doc("b3", story, u3, 4)},
			map[string]string{"b~b2": "url, removed", "b2~b3": "content"}},
		{"updates alone", []core.Document{doc("a", story, u1, 1), doc("b", update, u1, 2), doc("b2", update, u1, 3), doc("b3", other, u1, 4)},
			map[string]string{"b~b2": "content", "b~b3": "url"}},
	} {
		for _, e := range storetest.Engines {
			t.Run(tc.name+"/"+e, func(t *testing.T) {
				dsn := storetest.DSN(t, e)
				x := open(t, dsn, index.OpenOptions{StoreText: true})
				for _, d := range tc.stored {
					if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, exactMarks(t, dsn)); diff != "" {
					t.Errorf("exact marks (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// exactMarks returns every stored exact mark as "a~b" → its evidence's
// "by", and ", removed" when it was found with a document removed since,
// read through a fresh handle.
func exactMarks(t *testing.T, dsn string) map[string]string {
	t.Helper()
	return storedMarks(t, dsn, func(m *store.Mark) (string, bool, error) {
		var ev index.ExactEvidence
		if m.Method != index.ExactMethod {
			return "", false, nil
		}
		if err := json.Unmarshal(m.Evidence, &ev); err != nil {
			return "", false, err
		}
		if ev.Removed {
			return ev.By + ", removed", true, nil
		}
		return ev.By, true, nil
	})
}

// storedMarks returns what show says of each stored mark it takes, as
// "a~b" → that, read through a fresh handle.
func storedMarks(t *testing.T, dsn string, show func(m *store.Mark) (string, bool, error)) map[string]string {
	t.Helper()
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[string]string{}
	err = st.View(t.Context(), func(r store.Reader) error {
		ids := map[int64]string{}
		if err := r.EachDoc(false, func(d *store.Doc) error { ids[d.Ord] = d.ID; return nil }); err != nil {
			return err
		}
		return r.EachMark(func(m *store.Mark) error {
			v, ok, err := show(m)
			if ok {
				out[ids[m.A]+"~"+ids[m.B]] = v
			}
			return err
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHeirTakesTheNearDuplicatesOfItsOriginal: a near duplicate x of a
// story, marked with its original a, is marked with the copy that takes
// a's place when a goes, with the same label (judged again where the copy
// has a sketch of its own text: see TestHeirIsJudgedAgainByItsOwnDate),
// and is in its cluster, as after a rescore; a copy by URL of another text,
// given its own sketch, takes none of them, as a rescore finds none.
// Regression: x was left out of the story's cluster, its mark gone with
// a, where a rescore put them together.
func TestHeirTakesTheNearDuplicatesOfItsOriginal(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story, update := g.Sentences(10), g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	const u = "https://site.example/storm"
	doc := func(id string, text []string, url string, day int) core.Document {
		d := storyDoc(id, text, day)
		d.URL = url
		return d
	}
	for _, tc := range []struct {
		name     string
		stored   []core.Document
		together bool // b and x in one cluster
	}{
		{"x after the copy", []core.Document{doc("a", story, "", 1), doc("b", story, "", 2), doc("x", near, "", 3)}, true},
		{"x before the copy", []core.Document{doc("a", story, "", 1), doc("x", near, "", 2), doc("b", story, "", 3)}, true},
		{"a copy by URL of another text", []core.Document{doc("a", story, u, 1), doc("x", near, "", 2), doc("b", update, u, 3)}, false},
	} {
		for _, e := range storetest.Engines {
			for _, text := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/texts=%v", tc.name, e, text), func(t *testing.T) {
					together := tc.together || !text // without texts, b takes a's sketch
					dsn := storetest.DSN(t, e)
					x := open(t, dsn, index.OpenOptions{StoreText: text})
					for _, d := range tc.stored {
						if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
							t.Fatal(err)
						}
					}
					before := marks(t, dsn)
					if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
						t.Fatal(err)
					}
					inCluster := func() bool {
						b, errB := x.Document(t.Context(), "b")
						n, errX := x.Document(t.Context(), "x")
						if err := errors.Join(errB, errX); err != nil {
							t.Fatal(err)
						}
						return b.Cluster != 0 && b.Cluster == n.Cluster
					}
					pair := "b~x"
					if tc.stored[1].ID == "x" {
						pair = "x~b"
					}
					after := marks(t, dsn)
					if got := inCluster(); got != together || (after[pair] == before["a~x"]) != together {
						t.Errorf("after the removal: b and x together %v, marks %v (before: %v); want together %v", got, after, before, together)
					}
					if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
						t.Errorf("verify: %v %v", faults.List, err)
					}
					if _, err := x.Rescore(t.Context(), nil); err != nil {
						t.Fatal(err)
					}
					if got := inCluster(); got != together {
						t.Errorf("after a rescore: b and x together %v, want %v, as after the removal", got, together)
					}
				})
			}
		}
	}
}

// bridgeTitle and bridgeBody are a story of wire copy: the body's %s is
// the time of day its session ran into.
const (
	bridgeTitle = "City council approves new harbour bridge"
	bridgeBody  = "The city council voted on Tuesday to approve construction of a new bridge across the northern harbour, " +
		"ending a debate that lasted nearly four years. The project is expected to cost 412 million euros and to take " +
		"six years to complete.\n\nCouncil members backed the plan by 31 votes to 12 after a session that ran late into " +
		"the %s. Supporters said the bridge would cut commuting times for about 60,000 residents of the northern " +
		"districts.\n\nOpponents warned that the cost estimate was too optimistic and that construction would disrupt " +
		"the fishing port for years. The mayor said tenders would be published in the spring."
)

// bridgeDoc is the story of bridgeBody dated March day, its dateline's
// date dateline ("" for none), its session run into word.
func bridgeDoc(id, dateline string, day int, word string) core.Document {
	place := "HARBOURTON"
	if dateline != "" {
		place += ", " + dateline
	}
	return core.Document{ID: id, Title: bridgeTitle, Text: place + " - " + fmt.Sprintf(bridgeBody, word),
		Date: time.Date(2024, 3, day, 10, 0, 0, 0, time.UTC)}
}

// TestHeirIsJudgedAgainByItsOwnDate: a copy by content that takes a
// removed original's place shares its title and text, not its date, which
// the rules of dates read (--date-apart: datelines of other days and dates
// days apart): given a sketch of its own text, its pairs with the
// original's near duplicates are judged again, and the index holds after
// the removal the marks and clusters a rescore makes, on either side of
// the near duplicate in the order stored, by every linking policy.
// Without texts the copy takes the original's sketch, date and all, and
// its marks as they are, which a rescore finds too. Regression: the copy
// took the original's marks unchanged, a duplicate where its own date made
// the pair similar (24 hours apart where it was 120), and the cluster with
// it, where a rescore, a query and dedup found none; and similar where its
// date made a duplicate.
func TestHeirIsJudgedAgainByItsOwnDate(t *testing.T) {
	doc := func(id string, dateline, day int, word string) core.Document {
		return bridgeDoc(id, fmt.Sprintf("March %d", dateline), day, word)
	}
	for _, tc := range []struct {
		name   string
		stored []core.Document // a, the original, first; b its copy by content; y its near duplicate
		want   core.Label      // b~y's label after the removal of a
	}{
		{"the copy dated days before, stored before the near duplicate",
			[]core.Document{doc("a", 5, 5, "evening"), doc("b", 5, 1, "evening"), doc("y", 6, 6, "night")}, core.Similar},
		{"the copy dated days before, stored after the near duplicate",
			[]core.Document{doc("a", 5, 5, "evening"), doc("y", 6, 6, "night"), doc("b", 5, 1, "evening")}, core.Similar},
		{"the original dated days after, its copy the day before",
			[]core.Document{doc("a", 5, 12, "evening"), doc("b", 5, 5, "evening"), doc("y", 6, 6, "night")}, core.Duplicate},
	} {
		for _, e := range storetest.Engines {
			for _, link := range []cluster.Linking{cluster.Any, cluster.Majority, cluster.Anchor} {
				for _, text := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s/%s/%s/texts=%v", tc.name, e, link, text), func(t *testing.T) {
						dsn := storetest.DSN(t, e)
						x := open(t, dsn, index.OpenOptions{StoreText: text, Link: link})
						for _, d := range tc.stored {
							ms, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true})
							if err != nil {
								t.Fatal(err)
							}
							if d.ID == "b" && ms[0].Skip != core.SkipExactCopy {
								t.Fatalf("b: %+v, want an exact copy of a", ms[0])
							}
						}
						if _, err := x.Remove(t.Context(), []string{"a"}); err != nil {
							t.Fatal(err)
						}
						removed, clusters := methodMarks(t, dsn), groups(t, x)
						if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
							t.Errorf("verify: %v %v", faults.List, err)
						}
						if _, err := x.Rescore(t.Context(), nil); err != nil {
							t.Fatal(err)
						}
						if diff := cmp.Diff(methodMarks(t, dsn), removed); diff != "" {
							t.Errorf("marks after the removal (-after a rescore +after the removal):\n%s", diff)
						}
						if got := groups(t, x); got != clusters {
							t.Errorf("clusters after the removal %s, after a rescore %s", clusters, got)
						}
						pair := "b~y"
						if tc.stored[1].ID == "y" {
							pair = "y~b"
						}
						// Without texts b has a's sketch, and its date: the
						// rescore above is its only measure.
						if got := marks(t, dsn)[pair]; text && got != tc.want {
							t.Errorf("%s after the removal: %q, want %q", pair, got, tc.want)
						}
					})
				}
			}
		}
	}
}

// TestRepairJudgesTheHeirWithDocumentsNotLoaded: index repair removes a
// damaged original without loading the index, and its copy by content
// takes its place with a sketch of its own text; the pairs it takes from
// the original are judged again with both documents' sketches, the earlier
// loaded for the match where it is not (minhash; sentences, which counts
// its sentences over the documents loaded, keeps them as taken), so that
// the repair leaves the marks and clusters a rescore makes, on either side
// of the near duplicate in the order stored.
// Regression: a pair whose earlier document was not loaded (the near
// duplicate, stored before the copy) was judged against nothing and lost
// its mark, and the two their cluster.
func TestRepairJudgesTheHeirWithDocumentsNotLoaded(t *testing.T) {
	docs := map[string]core.Document{
		"a": bridgeDoc("a", "", 5, "evening"), "b": bridgeDoc("b", "", 5, "evening"), "y": bridgeDoc("y", "", 6, "night"),
	}
	for _, method := range []string{minhash.Name, sentences.Name} {
		for _, e := range storetest.Engines {
			for _, order := range [][]string{{"a", "y", "b"}, {"a", "b", "y"}} {
				t.Run(fmt.Sprintf("%s/%s/%v", method, e, order), func(t *testing.T) {
					dsn := storetest.DSN(t, e)
					x := open(t, dsn, index.OpenOptions{StoreText: true, MethodName: method})
					for _, id := range order {
						if _, err := x.Add(t.Context(), []core.Document{docs[id]}, index.AddOptions{Exact: true}); err != nil {
							t.Fatal(err)
						}
					}
					before := methodMarks(t, dsn)
					x.Close()
					repairRemovingA(t, dsn)
					repaired := methodMarks(t, dsn)
					if len(repaired) == 0 {
						t.Errorf("no marks after the repair; before it %v", before)
					}
					y := open(t, dsn, index.OpenOptions{})
					clusters := groups(t, y)
					if _, err := y.Rescore(t.Context(), nil); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(methodMarks(t, dsn), repaired); diff != "" {
						t.Errorf("marks after the repair (-after a rescore +after the repair):\n%s", diff)
					}
					if got := groups(t, y); got != clusters {
						t.Errorf("clusters after the repair %s, after a rescore %s", clusters, got)
					}
				})
			}
		}
	}
}

// TestRepairKeepsTheHeirsPairsUnderCounts: a repair under a method that
// weighs by counts over the documents loaded (tfidf, cosine) keeps the
// pairs the heir takes as they were taken, judged by the index's counts at
// the next rescore; the pairs and their labels are a rescore's, and so
// are the clusters. Regression: the pair was judged among the heir and
// its partner alone, every word they share weighing nothing under tfidf,
// and lost.
func TestRepairKeepsTheHeirsPairsUnderCounts(t *testing.T) {
	g := enginetest.NewTextGen(11)
	docs := map[string]core.Document{
		"a": bridgeDoc("a", "", 5, "evening"), "b": bridgeDoc("b", "", 5, "evening"), "y": bridgeDoc("y", "", 6, "night"),
	}
	var fill []core.Document
	for i := range 30 {
		fill = append(fill, core.Document{ID: fmt.Sprintf("f%d", i), Title: g.Sentence(), Text: g.Text(800),
			Source: fmt.Sprintf("s%d", i), Date: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)})
	}
	labels := func(marks map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range marks {
			out[k], _, _ = strings.Cut(v, " ")
		}
		return out
	}
	for _, method := range []string{"tfidf", "cosine"} {
		for _, order := range [][]string{{"a", "y", "b"}, {"a", "b", "y"}} {
			t.Run(fmt.Sprintf("%s/%v", method, order), func(t *testing.T) {
				dsn := storetest.DSN(t, "sqlite")
				x := open(t, dsn, index.OpenOptions{StoreText: true, MethodName: method})
				if _, err := x.Add(t.Context(), fill, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
				for _, id := range order {
					if _, err := x.Add(t.Context(), []core.Document{docs[id]}, index.AddOptions{Exact: true}); err != nil {
						t.Fatal(err)
					}
				}
				if len(methodMarks(t, dsn)) == 0 {
					t.Fatal("no pair before the repair")
				}
				x.Close()
				repairRemovingA(t, dsn)
				repaired := labels(methodMarks(t, dsn))
				y := open(t, dsn, index.OpenOptions{})
				clusters := groups(t, y)
				if _, err := y.Rescore(t.Context(), nil); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(labels(methodMarks(t, dsn)), repaired); diff != "" {
					t.Errorf("pairs after the repair (-after a rescore +after the repair):\n%s", diff)
				}
				if got := groups(t, y); got != clusters {
					t.Errorf("clusters after the repair %s, after a rescore %s", clusters, got)
				}
			})
		}
	}
}

// methodMarks returns the stored marks of the index's method as "a~b" →
// their label, score and evidence, read through a fresh handle.
func methodMarks(t *testing.T, dsn string) map[string]string {
	t.Helper()
	return storedMarks(t, dsn, func(m *store.Mark) (string, bool, error) {
		return fmt.Sprintf("%s %v %s", m.Label, m.Score, m.Evidence), m.Method != index.ExactMethod, nil
	})
}

// TestReplaceReportsTheMarksMadeInItsPlace: an add that replaces an
// original, after a copy and a near duplicate of it in the same add,
// reports for each the pair with the copy that takes the original's
// place, as stored. Regression: their pairs with the original were
// deleted from their results, and the marks stored in their place never
// reported: b3, an exact copy, was reported a copy of nothing.
func TestReplaceReportsTheMarksMadeInItsPlace(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story, other := g.Sentences(10), g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			for _, d := range []core.Document{storyDoc("a", story, 1), storyDoc("b", story, 2)} {
				if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			ms, err := x.Add(t.Context(), []core.Document{storyDoc("b3", story, 4), storyDoc("x", near, 5), storyDoc("a", other, 1)},
				index.AddOptions{Exact: true, Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			stored := marks(t, dsn)
			for i, want := range []struct {
				id     string
				method string
				label  core.Label
			}{{"b3", index.ExactMethod, core.Duplicate}, {"x", minhash.Spec.Name, stored["b~x"]}} {
				m := ms[i]
				if stored["b~"+want.id] == "" || len(m.Pairs) != 1 || m.Pairs[0].A != "b" || m.Pairs[0].Method != want.method ||
					m.Pairs[0].Label != want.label || m.Pairs[0].Evidence == nil {
					t.Errorf("%s: %+v; want its pair with b (%s, %s), as stored: %v", want.id, m, want.method, want.label, stored)
				}
			}
		})
	}
}

// TestReplaceReportsMadeMarksInOrder: the pairs an add reports for a
// document whose original it replaced are listed as every list of pairs
// lists them, duplicates first: the mark made with the heir (a duplicate)
// before a similar pair of a higher score (another report of the same
// template, refused by its figures). Regression: they were ordered by
// score alone.
func TestReplaceReportsMadeMarksInOrder(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story, other := g.Sentences(10), g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	withFigures := func(a, b string) []string {
		return append(slices.Clone(near), "Sales rose "+a+" pct to "+b+" mln dlrs in the quarter, the company said.")
	}
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			for _, d := range []core.Document{storyDoc("a", story, 1), storyDoc("b", story, 2), storyDoc("e", withFigures("5", "10"), 3)} {
				if _, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			ms, err := x.Add(t.Context(), []core.Document{storyDoc("x", withFigures("7", "12"), 5), storyDoc("a", other, 1)},
				index.AddOptions{Exact: true, Replace: true})
			if err != nil {
				t.Fatal(err)
			}
			ps := ms[0].Pairs
			if len(ps) != 2 || ps[0].A != "b" || ps[0].Label != core.Duplicate || ps[1].A != "e" || ps[1].Label != core.Similar {
				t.Fatalf("x's pairs %+v; want its duplicate with b, then its similar pair with e", ps)
			}
			if ps[1].Score <= ps[0].Score {
				t.Errorf("x's similar pair scores %v, its duplicate %v: the test wants the similar one higher", ps[1].Score, ps[0].Score)
			}
		})
	}
}

// TestCatchUpOnAnHeirRemovedSince: a process that catches up on an heir
// given a sketch and removed since loads nothing of it.
func TestCatchUpOnAnHeirRemovedSince(t *testing.T) {
	g := enginetest.NewTextGen(73)
	story := g.Sentences(10)
	near := slices.Clone(story)
	near[4] = g.Sentence()
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{StoreText: true})
			for _, id := range []string{"a", "b"} {
				if _, err := x.Add(t.Context(), []core.Document{enginetest.Doc(id, story)}, index.AddOptions{Exact: true}); err != nil {
					t.Fatal(err)
				}
			}
			y := open(t, dsn, index.OpenOptions{})
			for _, id := range []string{"a", "b"} {
				if _, err := x.Remove(t.Context(), []string{id}); err != nil {
					t.Fatal(err)
				}
			}
			ms, err := y.Add(t.Context(), []core.Document{enginetest.Doc("c", near)}, index.AddOptions{Exact: true})
			if err != nil || len(ms[0].Pairs) != 0 || y.Len() != 1 {
				t.Errorf("c after the story went: %+v %v; %d documents loaded, want 1", ms, err, y.Len())
			}
		})
	}
}

// BenchmarkCatchUpAfterRemovingCopies times another process catching up
// (its next add) on the removal of 1,000 stories of an original and four
// exact copies each: every document expired, or the originals alone
// removed, a copy of each taking its place. Its metric remove-ms/op is the
// removal's own time.
func BenchmarkCatchUpAfterRemovingCopies(b *testing.B) {
	const stories, copies = 1000, 4
	g := enginetest.NewTextGen(5)
	texts := make([][]string, stories)
	for s := range texts {
		texts[s] = g.Sentences(20)
	}
	warm, next := g.Sentences(20), g.Sentences(20)
	openB := func(b *testing.B, dsn string) *index.Index {
		x, err := index.Open(b.Context(), dsn, store.Options{Sync: "normal"}, specs, index.OpenOptions{StoreText: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { x.Close() })
		return x
	}
	for _, e := range storetest.Engines {
		for _, mode := range []string{"expire-all", "remove-originals"} {
			b.Run(e+"/"+mode, func(b *testing.B) {
				var removing time.Duration
				for range b.N {
					b.StopTimer()
					dsn := storetest.DSN(b, e)
					x := openB(b, dsn)
					var docs []core.Document
					var heads []string
					for s, text := range texts {
						for c := range copies + 1 {
							d := enginetest.Doc(fmt.Sprintf("s%d-%d", s, c), text)
							d.Date = time.Date(2026, 1, 1+c, 0, 0, 0, 0, time.UTC)
							docs = append(docs, d)
						}
						heads = append(heads, fmt.Sprintf("s%d-0", s))
					}
					for lo := 0; lo < len(docs); lo += 500 {
						if _, err := x.Add(b.Context(), docs[lo:min(lo+500, len(docs))], index.AddOptions{Exact: true}); err != nil {
							b.Fatal(err)
						}
					}
					y := openB(b, dsn)
					if _, err := y.Add(b.Context(), []core.Document{enginetest.Doc("warm", warm)}, index.AddOptions{}); err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					var err error
					if mode == "expire-all" {
						_, err = x.Expire(b.Context(), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC))
					} else {
						_, err = x.Remove(b.Context(), heads)
					}
					if err != nil {
						b.Fatal(err)
					}
					removing += time.Since(start)
					b.StartTimer()
					if _, err := y.Add(b.Context(), []core.Document{enginetest.Doc("next", next)}, index.AddOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(removing.Milliseconds())/float64(b.N), "remove-ms/op")
			})
		}
	}
}

// BenchmarkRemovalJudgesTheHeirAgain times the removal of a story's
// original, in SQLite, whose copy by content, of another date, takes its
// place and its pairs with 200 near duplicates stored after it, each
// judged again (see TestHeirIsJudgedAgainByItsOwnDate), among 300
// unrelated documents: each near duplicate's record, text and sketch are
// read, and it is verified against the copy alone.
func BenchmarkRemovalJudgesTheHeirAgain(b *testing.B) {
	const near = 200
	g := enginetest.NewTextGen(5)
	story := g.Sentences(20)
	docs := enginetest.Background(g, 300)
	for i := range near + 2 {
		id, text := fmt.Sprint("n", i), slices.Clone(story)
		switch i {
		case 0:
			id = "a"
		case 1:
			id = "b"
		default:
			text[i%len(text)] = g.Sentence()
		}
		d := enginetest.Doc(id, text)
		d.Date = time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC)
		docs = append(docs, d)
	}
	for range b.N {
		b.StopTimer()
		x, err := index.Open(b.Context(), storetest.DSN(b, "sqlite"), store.Options{Sync: "normal"}, specs, index.OpenOptions{StoreText: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := x.Add(b.Context(), docs, index.AddOptions{Exact: true}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := x.Remove(b.Context(), []string{"a"}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		x.Close()
	}
}

// storyDoc is a document of the story text, dated the given day of March
// 2026 at 9:00 UTC.
func storyDoc(id string, text []string, day int) core.Document {
	d := enginetest.Doc(id, text)
	d.Date = time.Date(2026, 3, day, 9, 0, 0, 0, time.UTC)
	return d
}

// TestStoredScoresShowTheirSide: the score an index stores and shows is
// the one dedup writes, with the digits that keep it on its label's side
// of a bound: a cosine of 0.6999876, similar below the threshold of 0.7,
// is 0.69999 after a rescore, not 0.7. Regression: the index rounded every
// score to four decimals.
func TestStoredScoresShowTheirSide(t *testing.T) {
	w := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "%c%c%sak ", "bdfgklmnprstvz"[i%14], "aou"[i/14], prefix)
		}
		return strings.TrimSpace(b.String())
	}
	// A and B share their 38-word bodies; B's title is C's body; C shares
	// A's title, the next four words of the bodies' series. As dedup weighs
	// the three, A and B are at 0.6999876.
	docs := []core.Document{
		{ID: "A", Title: "subabak tubabak vubabak zubabak", Text: w("bab", 38)},
		{ID: "B", Title: w("dab", 33), Text: w("bab", 38)},
		{ID: "C", Title: "subabak tubabak vubabak zubabak", Text: w("dab", 33)},
	}
	similar := func(base engine.Config) (engine.Config, error) {
		o := base.(cosine.Options)
		o.Similar = 0.5
		return o, nil
	}
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{MethodName: cosine.Name, Flags: similar})
	if _, err := x.Add(t.Context(), docs, index.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Rescore(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if got := methodMarks(t, dsn)["A~B"]; got != "similar 0.69999 {}" {
		t.Errorf("A~B stored as %q, want similar 0.69999 {}", got)
	}
}

// repairRemovingA damages document a's text and sketch in the store at dsn, so
// that no sketch can be made again, repairs it and wants a removed.
func repairRemovingA(t *testing.T, dsn string) {
	t.Helper()
	storetest.Exec(t, dsn, `UPDATE texts SET text = 'forged '||text WHERE ord = (SELECT ord FROM docs WHERE id = 'a')`)
	storetest.Exec(t, dsn, damageIndexPart(dsn, "a"))
	if r := repairAt(t, dsn); len(r.Removed) != 1 || r.Removed[0] != "a" {
		t.Fatalf("repair removed %q, want a; it said %q", r.Removed, r.Lines)
	}
}

// pairScores records the score of each pair an export gives, by "a~b".
type pairScores map[string]float64

func (e pairScores) Pair(p *core.Pair) error     { e[p.A+"~"+p.B] = p.Score; return nil }
func (e pairScores) Cluster(*core.Cluster) error { return nil }
func (e pairScores) Kept(*store.Doc) error       { return nil }
func (e pairScores) Rejected(*store.Doc) error   { return nil }

// TestStoredRarewordsScoresShowTheirSide: a rarewords index stores, and
// index add, index query and index export show, the score dedup writes:
// documents sharing 2333 of their 3333 rare words, similar under
// "min>=0.7", have 0.69997, not 0.7.
func TestStoredRarewordsScoresShowTheirSide(t *testing.T) {
	ws := func(prefix string, from, to int) []string {
		var w []string
		for i := from; i < to; i++ {
			w = append(w, fmt.Sprintf("%s%dx", prefix, i))
		}
		return w
	}
	docs := append(enginetest.Filler("A", 25, 0), enginetest.Filler("B", 25, 500)...)
	docs = append(docs, core.Document{ID: "a", Source: "A", Text: enginetest.Join(ws("r", 0, 3333))},
		core.Document{ID: "b", Source: "B", Text: enginetest.Join(ws("r", 0, 2333), ws("s", 2333, 3333))})
	o := rarewords.Defaults()
	o.MinWords, o.Rule = 10, "min>=0.7"
	dsn := storetest.DSN(t, "sqlite")
	x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, []engine.Spec{rarewords.Spec}, index.OpenOptions{Method: o})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	score := func(ms []index.Match, id string) string {
		for _, m := range ms {
			for _, p := range m.Pairs {
				if m.ID == id {
					return fmt.Sprintf("%s %v", p.Label, p.Score)
				}
			}
		}
		return "none"
	}
	ms, err := x.Add(t.Context(), docs, index.AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := score(ms, "b"); got != "similar 0.69997" {
		t.Errorf("add: b's match %s, want similar 0.69997", got)
	}
	if got := methodMarks(t, dsn)["a~b"]; !strings.HasPrefix(got, "similar 0.69997 ") {
		t.Errorf("a~b stored as %q, want similar 0.69997", got)
	}
	ms, err = x.Query(t.Context(), docs[len(docs)-1:])
	if err != nil {
		t.Fatal(err)
	}
	if got := score(ms, "b"); got != "similar 0.69997" {
		t.Errorf("query: b's match %s, want similar 0.69997", got)
	}
	ex := pairScores{}
	if _, err := x.Export(t.Context(), ex); err != nil {
		t.Fatal(err)
	}
	if got := ex["a~b"]; got != 0.69997 {
		t.Errorf("export: a~b of %v, want 0.69997", got)
	}
}
