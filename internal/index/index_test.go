package index_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/tfidf"
)

var specs = []engine.Spec{minhash.Spec, sentences.Spec, tfidf.Spec, cosine.Spec}

func open(t testing.TB, dsn string, o index.OpenOptions) *index.Index {
	t.Helper()
	x, err := index.Open(t.Context(), dsn, store.Options{Sync: "normal"}, specs, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// eachEngine runs test on an empty index of each store engine, with a
// text generator of seed.
func eachEngine(t *testing.T, seed uint64, test func(t *testing.T, x *index.Index, g *enginetest.TextGen)) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			test(t, open(t, storetest.DSN(t, e), index.OpenOptions{}), enginetest.NewTextGen(seed))
		})
	}
}

func add(t *testing.T, x *index.Index, docs ...core.Document) []index.Match {
	t.Helper()
	ms, err := x.Add(t.Context(), docs, index.AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// marks returns every stored mark as "a~b label", read through a fresh
// handle.
func marks(t *testing.T, dsn string) map[string]core.Label {
	t.Helper()
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out := map[string]core.Label{}
	err = st.View(t.Context(), func(r store.Reader) error {
		ids := map[int64]string{}
		if err := r.EachDoc(false, func(d *store.Doc) error { ids[d.Ord] = d.ID; return nil }); err != nil {
			return err
		}
		return r.EachMark(func(m *store.Mark) error {
			out[ids[m.A]+"~"+ids[m.B]] = m.Label
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Two writers on one index, each with its own in-memory index, add the two
// halves of many near-duplicate pairs at the same time: every pair is
// marked, whichever writer stored which half first.
func TestConcurrentWritersPairEverything(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			a, b := open(t, dsn, index.OpenOptions{}), open(t, dsn, index.OpenOptions{})
			g := enginetest.NewTextGen(21)
			var left, right []core.Document
			for i := range 60 {
				s := g.Sentences(10)
				left = append(left, enginetest.Doc(fmt.Sprint("l", i), s))
				s[3] = g.Sentence()
				right = append(right, enginetest.Doc(fmt.Sprint("r", i), s))
			}
			var wg sync.WaitGroup
			for _, w := range []struct {
				x    *index.Index
				docs []core.Document
			}{{a, left}, {b, right}} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range w.docs {
						if _, err := w.x.Add(t.Context(), w.docs[i:i+1], index.AddOptions{}); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			got := marks(t, dsn)
			for i := range 60 {
				l, r := fmt.Sprint("l", i), fmt.Sprint("r", i)
				if got[l+"~"+r] != core.Duplicate && got[r+"~"+l] != core.Duplicate {
					t.Errorf("%s and %s, added at once by two writers, were not paired", l, r)
				}
			}
			if len(got) != 60 {
				t.Errorf("%d marks, want 60", len(got))
			}
		})
	}
}

// A writer catches up on what another removed: a copy of a removed document
// finds no match, a copy of a kept one does.
func TestCatchUpOnRemovals(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	a, b := open(t, dsn, index.OpenOptions{}), open(t, dsn, index.OpenOptions{})
	g := enginetest.NewTextGen(22)
	gone, kept := g.Sentences(10), g.Sentences(10)
	add(t, a, enginetest.Doc("gone", gone), enginetest.Doc("kept", kept))
	if removed, err := b.Remove(t.Context(), []string{"gone"}); err != nil || len(removed) != 1 {
		t.Fatalf("remove: %v %v", removed, err)
	}
	ms := add(t, a, enginetest.Doc("gone-copy", gone), enginetest.Doc("kept-copy", kept))
	if len(ms[0].Pairs) != 0 {
		t.Errorf("a copy of a removed document matched %+v", ms[0].Pairs)
	}
	if len(ms[1].Pairs) != 1 || ms[1].Pairs[0].A != "kept" {
		t.Errorf("a copy of a kept document matched %+v", ms[1].Pairs)
	}
	if faults, err := a.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}

// TestExpireNeverRemovesWhatIsAfterTheCutOff: dates are stored in whole
// seconds, rounded down, so a stored second stands for any time within it;
// Expire removes only what is surely before its cut-off. A document dated
// after the cut-off, in its second, stays; one dated a second or more
// before it goes. (Rounding the cut-off up removed the first: a removal
// cannot be undone, so a document in the cut-off's second is kept.)
func TestExpireNeverRemovesWhatIsAfterTheCutOff(t *testing.T) {
	eachEngine(t, 31, func(t *testing.T, x *index.Index, g *enginetest.TextGen) {
		at := time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)
		early, late := enginetest.Doc("early", g.Sentences(10)), enginetest.Doc("late", g.Sentences(10))
		early.Date, late.Date = at.Add(-time.Second), at.Add(700*time.Millisecond)
		add(t, x, early, late)
		if n, err := x.Expire(t.Context(), at.Add(300*time.Millisecond)); err != nil || n != 1 {
			t.Fatalf("Expire(10:00:00.3) = %d, %v; want 1 (the story of 09:59:59)", n, err)
		}
		if _, err := x.Document(t.Context(), "late"); err != nil {
			t.Errorf("the story dated 10:00:00.7, after the cut-off, was removed: %v", err)
		}
	})
}

// Cluster ids stay put as clusters grow, merge into the older id, and
// split when a member that held them together is removed.
func TestClusterIDsAreStable(t *testing.T) {
	x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{})
	g := enginetest.NewTextGen(23)
	s1, s2 := g.Sentences(8), g.Sentences(8)
	both := append(append([]string{}, s1...), s2...)
	cluster := func(ms []index.Match) int64 { return ms[0].Cluster }
	add(t, x, enginetest.Doc("a", s1))
	c1 := cluster(add(t, x, enginetest.Doc("b", s1)))
	if c1 == 0 {
		t.Fatal("a copy joined no cluster")
	}
	if c := cluster(add(t, x, enginetest.Doc("c", s1))); c != c1 {
		t.Errorf("a growing cluster changed id: %d → %d", c1, c)
	}
	add(t, x, enginetest.Doc("x", s2))
	c2 := cluster(add(t, x, enginetest.Doc("y", s2)))
	if c2 == c1 || c2 == 0 {
		t.Fatalf("a second story's cluster: %d (first %d)", c2, c1)
	}
	// z contains both stories whole: a duplicate of each by containment.
	if c := cluster(add(t, x, enginetest.Doc("z", both))); c != c1 {
		t.Errorf("a merge kept id %d, want the older %d", c, c1)
	}
	if removed, err := x.Remove(t.Context(), []string{"z"}); err != nil || len(removed) != 1 {
		t.Fatal(err)
	}
	st, err := x.Stats(t.Context())
	if err != nil || st.Clusters != 2 || st.Clustered != 5 {
		t.Errorf("after the split: %+v %v", st.Counts, err)
	}
	ms, err := x.Query(t.Context(), []core.Document{enginetest.Doc("q", s1)})
	if err != nil || len(ms[0].Pairs) != 3 {
		t.Errorf("query after the split: %+v %v", ms, err)
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}

// An index keeps the method and options its first document was stored
// with; asking for others is refused with a message naming what differs.
func TestOptionsAreFixed(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{})
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(20).Sentences(8)))
	x.Close()
	other := minhash.Defaults()
	other.Threshold = 0.5
	for _, tc := range []struct {
		name string
		o    index.OpenOptions
		want string
	}{
		{"other threshold", index.OpenOptions{Method: other}, "threshold 0.45 → 0.5"},
		{"other method", index.OpenOptions{Method: sentences.Defaults()}, "uses method minhash, not sentences"},
		{"texts", index.OpenOptions{StoreText: true}, "created without storing texts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := index.Open(t.Context(), dsn, store.Options{}, specs, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	same := open(t, dsn, index.OpenOptions{Method: minhash.Defaults()})
	if same.Meta().Method != minhash.Name {
		t.Error("the same options were refused")
	}
}

// A store of feeds alone (made before any document, as neardup feeds add
// makes one) has no method yet: Existing refuses it and writes nothing,
// so the first open without Existing still chooses the method and the
// texts. Regression: index stats on such a file gave it minhash without
// texts, and the watcher's articles were then stored without their texts.
func TestExistingLeavesAStoreOfFeedsUnset(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Update(t.Context(), func(w store.Writer) error {
		_, err := w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := index.Open(t.Context(), dsn, store.Options{}, specs, index.OpenOptions{Existing: true}); !errors.Is(err, index.ErrNoMethod) {
		t.Fatalf("Existing opened a store of no index: %v, want ErrNoMethod", err)
	}
	x := open(t, dsn, index.OpenOptions{MethodName: sentences.Name, StoreTextIfNew: true})
	if m := x.Meta(); m.Method != sentences.Name || !m.StoreText {
		t.Errorf("the first add's open made method %q, texts %v; want sentences, texts stored", m.Method, m.StoreText)
	}
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(20).Sentences(8)))
	x.Close()
	if y := open(t, dsn, index.OpenOptions{Existing: true}); y.Meta().Method != sentences.Name {
		t.Errorf("Existing opened method %q, want the stored sentences", y.Meta().Method)
	}
}

// Documents are stored with what was read of them, skipped ones with their
// reason, but for those without text, and an id is never stored twice;
// Replace replaces.
func TestAddStatuses(t *testing.T) {
	x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{StoreText: true})
	g := enginetest.NewTextGen(24)
	d := enginetest.Doc("a", g.Sentences(6))
	d.Date = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	ms := add(t, x, d, core.Document{ID: "empty"}, core.Document{ID: "short", Text: "Too short."}, d)
	if ms[0].Status != index.Added || ms[1].Status != index.Skipped || ms[1].Skip != core.SkipEmpty ||
		ms[2].Status != index.Added || ms[2].Skip != core.SkipTooShort || ms[3].Status != index.Exists {
		t.Errorf("statuses %+v", ms)
	}
	d2 := enginetest.Doc("a", g.Sentences(6))
	ms, err := x.Add(t.Context(), []core.Document{d2}, index.AddOptions{Replace: true})
	if err != nil || ms[0].Status != index.Replaced {
		t.Fatalf("replace: %+v %v", ms, err)
	}
	st, _ := x.Stats(t.Context())
	if st.Documents != 2 || st.Skipped[core.SkipTooShort] != 1 {
		t.Errorf("stats %+v", st.Counts)
	}
}

// A queried document whose ID is stored is reported Exists, as Add reports
// it, and matched with the other stored documents only, by methods that
// check beside the writer (minhash) and those that check with the index to
// themselves (sentences), on both engines. Regression: its own stored copy
// was listed as its match, a duplicate scoring 1, and it was "checked".
func TestQueryOfAStoredIDIsNotItsOwnMatch(t *testing.T) {
	for _, method := range []string{minhash.Name, sentences.Name} {
		for _, e := range storetest.Engines {
			t.Run(method+"/"+e, func(t *testing.T) {
				x := open(t, storetest.DSN(t, e), index.OpenOptions{MethodName: method})
				g := enginetest.NewTextGen(27)
				story := g.Sentences(12)
				stored := []core.Document{enginetest.Doc("a", story), enginetest.Doc("b", story),
					enginetest.Doc("c", g.Sentences(12))}
				add(t, x, stored...)
				queried := append(slices.Clone(stored), enginetest.Doc("new", story))
				ms, err := x.Query(t.Context(), queried)
				if err != nil {
					t.Fatal(err)
				}
				want := []string{
					"a exists: a~b duplicate (original a)",
					"b exists: a~b duplicate (original a)",
					"c exists:",
					"new checked: a~new duplicate (original a) b~new duplicate (original b)",
				}
				var got []string
				for _, m := range ms {
					line := fmt.Sprintf("%s %s:", m.ID, m.Status)
					for _, p := range m.Pairs {
						a, b := min(p.A, p.B), max(p.A, p.B)
						line += fmt.Sprintf(" %s~%s %s (original %s)", a, b, p.Label, p.Original)
					}
					got = append(got, line)
				}
				slices.Sort(got)
				if diff := strings.Join(got, "\n"); diff != strings.Join(want, "\n") {
					t.Errorf("query of stored ids:\ngot\n%s\nwant\n%s", diff, strings.Join(want, "\n"))
				}
			})
		}
	}
}

// A sentence that removals bring back within --max-sentence-docs proposes
// candidates again in the index that removed them, as in an index opened
// afterwards. Regression: A, X and Y share a sentence, over the limit of 2
// when Y came, so it was not posted for Y; with A and X replaced by texts
// without it, Q, which holds it, was paired with Y by a process that read
// the index afresh (a later index add, dedup) but not by the one that
// replaced them (one index add of the whole sequence, serve).
func TestSentenceBackWithinTheLimitAfterRemovals(t *testing.T) {
	o := sentences.Defaults()
	o.MaxDocs = 2
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			dsn := storetest.DSN(t, e)
			x := open(t, dsn, index.OpenOptions{Method: o})
			g := enginetest.NewTextGen(43)
			shared := g.Sentence()
			for _, id := range []string{"A", "X", "Y"} {
				add(t, x, enginetest.Doc(id, []string{shared, g.Sentence()}))
			}
			replaced := []core.Document{enginetest.Doc("A", g.Sentences(2)), enginetest.Doc("X", g.Sentences(2))}
			if _, err := x.Add(t.Context(), replaced, index.AddOptions{Replace: true}); err != nil {
				t.Fatal(err)
			}
			q := enginetest.Doc("Q", []string{shared, g.Sentence()})
			afresh, err := open(t, dsn, index.OpenOptions{}).Query(t.Context(), []core.Document{q})
			if err != nil {
				t.Fatal(err)
			}
			got := add(t, x, q)[0].Pairs
			for name, ps := range map[string][]core.Pair{"an index opened afresh": afresh[0].Pairs, "the index that removed": got} {
				if len(ps) != 1 || ps[0].A != "Y" || ps[0].Label != core.Similar {
					t.Errorf("%s pairs Q with %+v, want Y, similar", name, ps)
				}
			}
		})
	}
}

// Replacing a batch of documents that duplicate one another marks each new
// version once against each other document stored, and keeps them in one
// cluster: each pair is reported once, by the later of its new versions
// (a pair found with a version replaced later in the add is not stored).
func TestReplaceMutualDuplicates(t *testing.T) {
	for _, kind := range storetest.Engines {
		t.Run(kind, func(t *testing.T) {
			x := open(t, storetest.DSN(t, kind), index.OpenOptions{})
			g := enginetest.NewTextGen(26)
			base := g.Sentences(12)
			var docs []core.Document
			for i := range 4 {
				docs = append(docs, enginetest.Doc(fmt.Sprintf("d%d", i), append(slices.Clone(base), g.Sentence())))
			}
			add(t, x, docs...)
			for round := range 2 {
				for i := range docs { // another version of each: replaced, not left as stored
					docs[i].URL = fmt.Sprintf("https://example.com/%s/v%d", docs[i].ID, round)
				}
				ms, err := x.Add(t.Context(), docs, index.AddOptions{Replace: true})
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				for i, m := range ms {
					var others []string
					for _, p := range m.Pairs {
						others = append(others, p.A)
					}
					slices.Sort(others)
					var want []string // the new versions before it; each later one reports its pair with it
					for _, d := range docs[:i] {
						want = append(want, d.ID)
					}
					if m.Status != index.Replaced || !slices.Equal(others, want) ||
						m.Cluster == 0 || m.Cluster != ms[0].Cluster {
						t.Errorf("round %d: %s: status %s, pairs with %v, want %v, cluster %d", round, docs[i].ID, m.Status, others, want, m.Cluster)
					}
					checkFinal(t, x, m)
				}
			}
			if st, _ := x.Stats(t.Context()); st.Documents != len(docs) {
				t.Errorf("%d documents stored, want %d", st.Documents, len(docs))
			}
		})
	}
}

// With Exact, a copy of a stored document by content or by URL is marked
// its duplicate without being compared, joins its cluster, and survives a
// rescore; Then writes in the same transaction.
func TestExactCopies(t *testing.T) {
	x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{})
	g := enginetest.NewTextGen(25)
	a := enginetest.Doc("a", g.Sentences(8))
	a.URL = "https://site.example/a"
	content := a
	content.ID, content.URL = "a-again", "https://mirror.example/a"
	content.Text = "  " + strings.ToUpper(a.Text[:1]) + a.Text[1:] // case and white space aside, the same
	byURL := enginetest.Doc("a-updated", g.Sentences(8))
	byURL.URL = a.URL
	other := enginetest.Doc("other", g.Sentences(8))
	thenCalls := 0
	ms, err := x.Add(t.Context(), []core.Document{a, content, byURL, other}, index.AddOptions{Exact: true,
		Then: func(w store.FeedWriter, ms []index.Match) error {
			thenCalls++
			if len(ms) != 4 {
				t.Errorf("Then saw %d matches", len(ms))
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"", "content", "url", ""} {
		m := ms[i]
		if want == "" {
			if m.Skip != core.SkipNone || (i == 0 && len(m.Pairs) != 0) {
				t.Errorf("%s: %+v", m.ID, m)
			}
			continue
		}
		if m.Skip != core.SkipExactCopy || len(m.Pairs) != 1 || m.Pairs[0].A != "a" || m.Pairs[0].Method != index.ExactMethod ||
			m.Pairs[0].Evidence.(index.ExactEvidence).By != want || m.Cluster == 0 {
			t.Errorf("%s: %+v, want an exact copy of a by %s", m.ID, m, want)
		}
	}
	if thenCalls != 1 || ms[1].Cluster != ms[2].Cluster {
		t.Errorf("Then called %d times; clusters %d %d", thenCalls, ms[1].Cluster, ms[2].Cluster)
	}
	boom := errors.New("boom")
	_, err = x.Add(t.Context(), []core.Document{enginetest.Doc("lost", g.Sentences(8))}, index.AddOptions{
		Then: func(store.FeedWriter, []index.Match) error { return boom }})
	if !errors.Is(err, boom) {
		t.Errorf("a failing Then: %v", err)
	}
	if _, err := x.Rescore(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	st, err := x.Stats(t.Context())
	if err != nil || st.Documents != 4 || st.Clusters != 1 || st.Clustered != 3 || st.Skipped[core.SkipExactCopy] != 2 {
		t.Errorf("after rescore: %+v %v", st.Counts, err)
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}

// TestNoCopiesOfASkippedDocument: a document the method skipped (too
// short) is no document's original with Exact. A later document of its
// title and text is skipped too short in its turn, and one of its URL with
// a text of its own is compared, each in no cluster; they were stored as
// its exact copies, never compared, in a cluster with it, where dedup of
// the same documents rejects the short ones and compares the other.
func TestNoCopiesOfASkippedDocument(t *testing.T) {
	g := enginetest.NewTextGen(27)
	stub := core.Document{ID: "stub", Title: "Brief", Text: "too short", URL: "https://site.example/brief"}
	again := stub
	again.ID, again.URL = "stub-again", "https://mirror.example/brief"
	full := enginetest.Doc("full", g.Sentences(8))
	full.URL = stub.URL
	for _, link := range []cluster.Linking{cluster.Any, cluster.Majority} {
		t.Run(string(link), func(t *testing.T) {
			x := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{Link: link})
			var ms []index.Match
			for _, d := range []core.Document{stub, again, full} {
				m, err := x.Add(t.Context(), []core.Document{d}, index.AddOptions{Exact: true})
				if err != nil {
					t.Fatal(err)
				}
				ms = append(ms, m[0])
			}
			for i, want := range []core.SkipReason{core.SkipTooShort, core.SkipTooShort, core.SkipNone} {
				if m := ms[i]; m.Skip != want || m.Cluster != 0 || len(m.Pairs) != 0 {
					t.Errorf("%s: %+v, want %q in no cluster", m.ID, m, want)
				}
			}
			st, err := x.Stats(t.Context())
			if err != nil || st.Clusters != 0 || st.Skipped[core.SkipTooShort] != 2 || st.Skipped[core.SkipExactCopy] != 0 {
				t.Errorf("stats: %+v %v", st.Counts, err)
			}
		})
	}
}

// TestVerifyFindsFaults damages a stored index behind its back, as a
// failing disk or a hand-made edit would: a sketch's detail part gone, a
// document moved to a cluster of its own; and, as a bug would, through the
// store (a mark edited in SQL no longer matches its checksum), a mark to a
// document that is not there. Verify names each, on both engines.
func TestVerifyFindsFaults(t *testing.T) {
	for _, eng := range storetest.Engines {
		t.Run(eng, func(t *testing.T) {
			dsn := storetest.DSN(t, eng)
			x := open(t, dsn, index.OpenOptions{})
			g := enginetest.NewTextGen(31)
			a, b := g.Sentences(10), g.Sentences(10)
			add(t, x, enginetest.Doc("a", a), enginetest.Doc("a-copy", a), enginetest.Doc("b", b))
			if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
				t.Fatalf("verify of a sound index: %v %v", faults, err)
			}
			x.Close()
			storetest.Exec(t, dsn,
				`DELETE FROM sketch_detail WHERE ord = (SELECT ord FROM docs WHERE id = 'b')`,
				`UPDATE docs SET cluster = 999999 WHERE id = 'a-copy'`)
			st, err := store.Open(t.Context(), dsn, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = st.Update(t.Context(), func(w store.Writer) error {
				ords, err := w.Lookup([]string{"a"})
				if err != nil {
					return err
				}
				return w.AddMarks([]store.Mark{{A: ords["a"], B: 424242, Label: core.Duplicate, Score: 0.9, Method: "minhash", Evidence: []byte("{}")}})
			})
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			faults, err := open(t, dsn, index.OpenOptions{}).Verify(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(faults.List, "\n")
			for _, want := range []string{`document "b": the detail part of its sketch is missing`,
				`duplicates "a" and "a-copy" are in clusters 1 and 999999`, `~424242 names a document that is not stored`} {
				if !strings.Contains(all, want) {
					t.Errorf("no fault says %q:\n%s", want, all)
				}
			}
		})
	}
}

// TestVerifyNamesClusterFaults: a document taken out of its duplicate's
// cluster is said to be in none, not "in cluster 0", and a cluster that
// holds documents no duplicate marks join to the others names them, a few
// and how many more. Regression: "duplicates "a" and "a-1" are in clusters
// 1 and 0", and "cluster 1 holds documents no duplicate marks join",
// naming none.
func TestVerifyNamesClusterFaults(t *testing.T) {
	for _, eng := range storetest.Engines {
		t.Run(eng, func(t *testing.T) {
			dsn := storetest.DSN(t, eng)
			x := open(t, dsn, index.OpenOptions{})
			g := enginetest.NewTextGen(32)
			a, b := g.Sentences(10), g.Sentences(10)
			var docs []core.Document
			for i := range 7 {
				docs = append(docs, enginetest.Doc(fmt.Sprintf("a-%d", i), a))
			}
			for i := range 5 {
				docs = append(docs, enginetest.Doc(fmt.Sprintf("b-%d", i), b))
			}
			add(t, x, docs...)
			x.Close()
			storetest.Exec(t, dsn,
				`UPDATE docs SET cluster = (SELECT cluster FROM docs WHERE id = 'a-0') WHERE id LIKE 'b-%'`,
				`UPDATE docs SET cluster = 0 WHERE id = 'a-1'`)
			faults, err := open(t, dsn, index.OpenOptions{}).Verify(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(faults.List, "\n")
			for _, want := range []string{`duplicates "a-0" and "a-1" are in cluster 1 and in none`,
				`cluster 1 holds documents no duplicate marks join to "a-0": "b-0", "b-1", "b-2" and 2 more`} {
				if !strings.Contains(all, want) {
					t.Errorf("no fault says %q:\n%s", want, all)
				}
			}
			if strings.Contains(all, "clusters 1 and 0") || strings.Contains(all, "cluster 0") {
				t.Errorf("a fault names cluster 0:\n%s", all)
			}
		})
	}
}

// TestSketchedAddKeepsItsSketch pins a bug: a document sketched by a
// Batch's Sketcher and given to AddSketched was stored without its sketch,
// so that after reopening it was not loaded, a copy of it was not found,
// and Verify reported the sketch missing. AddSketched now takes only the
// sketches of an Index's Sketcher, which carry their encoding.
func TestSketchedAddKeepsItsSketch(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x := open(t, dsn, index.OpenOptions{})
	g := enginetest.NewTextGen(41)
	text := g.Sentences(10)
	d := enginetest.Doc("a", text)
	if _, err := x.AddSketched(t.Context(), []core.Document{d}, []index.Sketch{x.NewSketcher().Sketch(&d)}, index.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	x.Close()
	x = open(t, dsn, index.OpenOptions{})
	if x.Len() != 1 {
		t.Errorf("after reopening %d documents loaded, want 1", x.Len())
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
	ms := add(t, x, enginetest.Doc("a-copy", text))
	if len(ms[0].Pairs) != 1 || ms[0].Pairs[0].A != "a" {
		t.Errorf("the copy's matches %+v, want a", ms[0].Pairs)
	}
	if _, err := x.AddSketched(t.Context(), []core.Document{d}, []index.Sketch{{}}, index.AddOptions{Replace: true}); err == nil {
		t.Error("a sketch no Sketcher made was stored")
	}
	// A sketch is its index's: another index of the same method, maybe
	// with other options, refuses it, and stores nothing.
	other := open(t, storetest.DSN(t, "sqlite"), index.OpenOptions{})
	b, before := enginetest.Doc("b", g.Sentences(10)), x.Len()
	if _, err := x.AddSketched(t.Context(), []core.Document{b}, []index.Sketch{other.NewSketcher().Sketch(&b)}, index.AddOptions{}); err == nil || !strings.Contains(err.Error(), "another index") {
		t.Errorf("a sketch of another index: %v, want it refused", err)
	}
	if x.Len() != before {
		t.Errorf("%d documents after a refused sketch, want %d", x.Len(), before)
	}
}

// Flags apply over the stored index's own options (a command's method
// flags), so that a flag given again with its stored value opens the
// index, and one with another value is refused; a new index takes them
// over the method's defaults, and StoreTextIfNew stores texts only in a
// new index.
func TestFlagsMergeOverStoredOptions(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	threshold := func(v float64) func(engine.Config) (engine.Config, error) {
		return func(base engine.Config) (engine.Config, error) {
			o := base.(minhash.Options)
			o.Threshold = v
			return o, nil
		}
	}
	x := open(t, dsn, index.OpenOptions{Flags: threshold(0.6), StoreTextIfNew: true})
	if m := x.Meta(); m.Method != minhash.Name || !strings.Contains(m.Options, `"threshold":0.6`) || !m.StoreText {
		t.Errorf("a new index with flags: %+v", m)
	}
	add(t, x, enginetest.Doc("a", enginetest.NewTextGen(20).Sentences(8)))
	x.Close()
	open(t, dsn, index.OpenOptions{Flags: threshold(0.6), StoreTextIfNew: true}).Close()
	open(t, dsn, index.OpenOptions{MethodName: minhash.Name}).Close()
	if _, err := index.Open(t.Context(), dsn, store.Options{}, specs, index.OpenOptions{Flags: threshold(0.5)}); err == nil ||
		!strings.Contains(err.Error(), "threshold 0.6 → 0.5") {
		t.Errorf("another threshold: %v", err)
	}
	if _, err := index.Open(t.Context(), dsn, store.Options{}, specs, index.OpenOptions{MethodName: sentences.Name}); err == nil ||
		!strings.Contains(err.Error(), "not sentences") {
		t.Errorf("another method: %v", err)
	}
}

// TestFlagsMakeOptionsOfTheMethodAsked: Flags (the library's Configure)
// returning another method's options made an index of that method, though
// MethodName named another, and opened a stored index of that method under
// a MethodName of another; returning nil made the first method's defaults.
// Each is refused.
func TestFlagsMakeOptionsOfTheMethodAsked(t *testing.T) {
	made := func(c engine.Config) func(engine.Config) (engine.Config, error) {
		return func(engine.Config) (engine.Config, error) { return c, nil }
	}
	stored := storetest.DSN(t, "sqlite")
	open(t, stored, index.OpenOptions{MethodName: minhash.Name}).Close()
	for _, tc := range []struct {
		name, dsn string
		o         index.OpenOptions
		want      string
	}{
		{"new index, another method's options", storetest.DSN(t, "sqlite"),
			index.OpenOptions{MethodName: minhash.Name, Flags: made(sentences.Defaults())}, "made for method minhash are of method sentences"},
		{"new index, nil", storetest.DSN(t, "sqlite"),
			index.OpenOptions{MethodName: sentences.Name, Flags: made(nil)}, "made for method sentences are nil"},
		{"stored index, options of its method under another name", stored,
			index.OpenOptions{MethodName: sentences.Name, Flags: made(minhash.Defaults())}, "made for method sentences are of method minhash"},
		{"stored index, nil", stored,
			index.OpenOptions{Flags: made(nil)}, "made for method minhash are nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := index.Open(t.Context(), tc.dsn, store.Options{}, specs, tc.o)
			if err == nil {
				x.Close()
				t.Fatalf("opened, method %s", x.Meta().Method)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
}
