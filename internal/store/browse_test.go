package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
)

// browseFixture stores five documents: a, b and c one cluster (a~b
// duplicate, a~c duplicate, b~c similar), d similar to a, e alone; d is
// stored without text.
func browseFixture(t *testing.T, st store.Store) map[string]int64 {
	ords := map[string]int64{}
	texts := map[string]string{
		"a": "The central bank raised interest rates on Tuesday, surprising the markets.",
		"b": "The central bank raised interest rates on Tuesday; markets were surprised.",
		"c": "Zentralbank: the central bank raised interest rates again, said Łukasz Nowak.",
		"e": "A football club in Kraków won the cup final on penalties.",
	}
	update(t, st, func(w store.Writer) error {
		if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1}); err != nil {
			return err
		}
		for i, id := range []string{"a", "b", "c", "d", "e"} {
			d := doc(id, int64(1000*(i+1)))
			d.Text = texts[id]
			if id == "d" {
				d.Title, d.Source = "Rates decision by the Central Bank", "agency"
			}
			ord, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}})
			if err != nil {
				return err
			}
			ords[id] = ord
		}
		c, err := w.NewCluster()
		if err != nil {
			return err
		}
		mk := func(a, b string, l core.Label) store.Mark {
			return store.Mark{A: ords[a], B: ords[b], Method: "minhash", Score: 0.9, Label: l, Evidence: []byte("{}")}
		}
		if err := w.AddMarks([]store.Mark{mk("a", "b", core.Duplicate), mk("a", "c", core.Duplicate),
			mk("b", "c", core.Similar), mk("a", "d", core.Similar)}); err != nil {
			return err
		}
		return w.SetCluster([]int64{ords["a"], ords["b"], ords["c"]}, c)
	})
	return ords
}

func ids(docs []store.Doc) []string {
	out := []string{}
	for _, d := range docs {
		out = append(out, d.ID)
	}
	return out
}

func TestLatest(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		browseFixture(t, st)
		for _, tc := range []struct {
			name string
			f    store.DocFilter
			p    store.Page
			want []string
		}{
			{"all", store.DocFilter{}, store.Page{Limit: 10}, []string{"e", "d", "c", "b", "a"}},
			{"paged", store.DocFilter{}, store.Page{Offset: 1, Limit: 2}, []string{"d", "c"}},
			{"past the end", store.DocFilter{}, store.Page{Offset: 9, Limit: 2}, []string{}},
			{"source", store.DocFilter{Source: "agency"}, store.Page{Limit: 10}, []string{"d"}},
			{"since", store.DocFilter{Since: 3000}, store.Page{Limit: 10}, []string{"e", "d", "c"}},
			{"until", store.DocFilter{Until: 3000}, store.Page{Limit: 10}, []string{"b", "a"}},
			{"window", store.DocFilter{Since: 2000, Until: 4000}, store.Page{Limit: 10}, []string{"c", "b"}},
			{"duplicate", store.DocFilter{Label: core.Duplicate}, store.Page{Limit: 10}, []string{"c", "b", "a"}},
			{"similar", store.DocFilter{Label: core.Similar}, store.Page{Limit: 10}, []string{"d", "c", "b", "a"}},
			{"similar wire", store.DocFilter{Label: core.Similar, Source: "wire", Since: 2500}, store.Page{Limit: 10}, []string{"c"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				view(t, st, func(r store.Reader) error {
					got, err := r.Latest(tc.f, tc.p)
					if err != nil {
						return err
					}
					if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
						t.Errorf("(-want +got)\n%s", diff)
					}
					return nil
				})
			})
		}
	})
}

func TestClusters(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		ords := browseFixture(t, st)
		var second int64
		update(t, st, func(w store.Writer) (err error) {
			if second, err = w.NewCluster(); err != nil {
				return err
			}
			return w.SetCluster([]int64{ords["d"], ords["e"]}, second)
		})
		var first int64
		view(t, st, func(r store.Reader) error {
			d, err := r.Doc("a")
			first = d.Cluster
			return err
		})
		for _, tc := range []struct {
			name string
			f    store.ClusterFilter
			want []store.ClusterInfo
		}{
			{"all", store.ClusterFilter{}, []store.ClusterInfo{
				{ID: second, Size: 2, First: ords["d"], Last: ords["e"], Latest: 5000},
				{ID: first, Size: 3, First: ords["a"], Last: ords["c"], Latest: 3000}}},
			{"min size", store.ClusterFilter{MinSize: 3}, []store.ClusterInfo{
				{ID: first, Size: 3, First: ords["a"], Last: ords["c"], Latest: 3000}}},
			{"source", store.ClusterFilter{Source: "agency"}, []store.ClusterInfo{
				{ID: second, Size: 2, First: ords["d"], Last: ords["e"], Latest: 5000}}},
			{"until", store.ClusterFilter{Until: 1500}, []store.ClusterInfo{
				{ID: first, Size: 3, First: ords["a"], Last: ords["c"], Latest: 3000}}},
			{"since", store.ClusterFilter{Since: 3500}, []store.ClusterInfo{
				{ID: second, Size: 2, First: ords["d"], Last: ords["e"], Latest: 5000}}},
			{"similar inside", store.ClusterFilter{Label: core.Similar}, []store.ClusterInfo{
				{ID: first, Size: 3, First: ords["a"], Last: ords["c"], Latest: 3000}}},
			{"none", store.ClusterFilter{MinSize: 4}, []store.ClusterInfo{}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				view(t, st, func(r store.Reader) error {
					got, err := r.Clusters(tc.f, store.Page{Limit: 10})
					if err != nil {
						return err
					}
					if diff := cmp.Diff(tc.want, got); diff != "" {
						t.Errorf("(-want +got)\n%s", diff)
					}
					return nil
				})
			})
		}
	})
}

// search runs q; newest, when given, is the query's Newest.
func search(t *testing.T, st store.Store, q string, p store.Page, newest ...int) ([]string, int, []store.Hit) {
	t.Helper()
	query, err := store.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	if len(newest) > 0 {
		query.Newest = newest[0]
	}
	var hits []store.Hit
	var total int
	view(t, st, func(r store.Reader) (err error) {
		hits, total, err = r.Search(query, p)
		return err
	})
	var got []string
	view(t, st, func(r store.Reader) error {
		for _, h := range hits {
			ds, err := r.Docs([]int64{h.Ord})
			if err != nil {
				return err
			}
			got = append(got, ds[0].ID)
		}
		return nil
	})
	return got, total, hits
}

func TestSearch(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		ords := browseFixture(t, st)
		all := store.Page{Limit: 10}
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"football", []string{"e"}},
			{"KRAKÓW", []string{"e"}}, // case ignored
			{"łukasz", []string{"c"}},
			{"decision", []string{"d"}},          // a title, of a document stored without text
			{`"interest rates"`, nil},            // checked below: a, b, c in some order
			{`"rates interest"`, []string{}},     // a phrase keeps its order
			{`bank -surprised -surprising`, nil}, // checked below: c, d
			{"nothing-like-this", []string{}},
			{`AND OR NOT "`, []string{}}, // no syntax leaks through
		} {
			got, total, _ := search(t, st, tc.q, all)
			if tc.want == nil {
				continue
			}
			if diff := cmp.Diff(tc.want, got, cmpEmpty); diff != "" || total != len(tc.want) {
				t.Errorf("%s: total %d (-want +got)\n%s", tc.q, total, diff)
			}
		}
		if !store.IsPostgres(dsn) { // SQLite folds accents too
			if got, _, _ := search(t, st, "krakow", all); len(got) != 1 {
				t.Errorf("krakow: %v", got)
			}
		}
		got, total, _ := search(t, st, `"interest rates"`, all)
		if diff := cmp.Diff([]string{"a", "b", "c"}, sorted(got)); diff != "" || total != 3 {
			t.Errorf("phrase: total %d (-want +got)\n%s", total, diff)
		}
		got, _, _ = search(t, st, `bank -surprised -surprising`, all)
		if diff := cmp.Diff([]string{"c", "d"}, sorted(got)); diff != "" {
			t.Errorf("negation (-want +got)\n%s", diff)
		}
		// The title counts more than the text: d names the bank in its
		// title only, the others in their texts; ranks fall.
		got, total, hits := search(t, st, "central bank", all)
		if total != 4 || got[0] != "d" {
			t.Errorf("central bank: %v of %d, want d first of 4", got, total)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Rank > hits[i-1].Rank {
				t.Errorf("ranks rise: %+v", hits)
			}
		}
		for i, h := range hits {
			if !strings.Contains(strings.ToLower(h.Snippet), store.HitStart+"bank"+store.HitEnd) {
				t.Errorf("snippet %q does not mark bank", h.Snippet)
			}
			// A short text is quoted whole, its short words at the ends too
			// (PostgreSQL's headline left out "The").
			if got[i] == "a" && !strings.HasPrefix(h.Snippet, "The ") {
				t.Errorf("snippet of a %q, want it from its first word", h.Snippet)
			}
		}
		page, total, _ := search(t, st, "central bank", store.Page{Offset: 1, Limit: 2})
		if diff := cmp.Diff(got[1:3], page); diff != "" || total != 4 {
			t.Errorf("second page: total %d (-want +got)\n%s", total, diff)
		}
		// Newest ranks only the latest matches: a, b, c and d were added in
		// that order; every match is counted, and pages hold c and d only.
		got, total, _ = search(t, st, "central bank", all, 2)
		if diff := cmp.Diff([]string{"d", "c"}, got); diff != "" || total != 4 {
			t.Errorf("newest 2: total %d (-want +got)\n%s", total, diff)
		}
		if got, _, _ := search(t, st, "central bank", store.Page{Offset: 2, Limit: 10}, 2); len(got) != 0 {
			t.Errorf("newest 2, a page past them: %v", got)
		}
		if got, total, _ := search(t, st, "central bank", all, 4); len(got) != 4 || total != 4 {
			t.Errorf("newest 4: %v of %d", got, total)
		}
		// A removed document is no longer found.
		update(t, st, func(w store.Writer) error {
			_, err := w.Remove([]int64{ords["e"], ords["d"]})
			return err
		})
		if got, total, _ := search(t, st, "football", all); len(got) != 0 || total != 0 {
			t.Errorf("removed document found: %v", got)
		}
		if got, _, _ := search(t, st, "decision", all); len(got) != 0 {
			t.Errorf("removed document found: %v", got)
		}
		if faults, err := st.Check(t.Context()); err != nil || faults.Total > 0 {
			t.Errorf("check: %v %v", faults, err)
		}
	})
}

var cmpEmpty = cmp.Transformer("nilEmpty", func(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
})

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestParseQuery(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      bool
	}{
		{"  rates  bank ", "rates bank", false},
		{`"interest   rates" -"stock market" -bonds`, `"interest rates" -"stock market" -bonds`, false},
		{`"unclosed phrase`, `"unclosed phrase"`, false},
		{`--- !!! "" - ok`, "ok", false},
		{"", "", false},
		{"-only -excluded", "", true},
		{strings.Repeat("w ", 17), "", true},
		{strings.Repeat("x", store.MaxQueryBytes+1), "", true},
		{"bad \xff utf8", "", true},
		// Marks are not syntax: kept in their words, and a query of
		// marks only is refused, not run as a search for nothing
		// (regression: a lone quote gave no terms and no error).
		{`title:rates rate* NEAR(a b)`, `title:rates rate* NEAR(a b)`, false},
		{`rates "`, "rates", false},
		{`"`, "", true},
		{` * `, "", true},
		{`-"`, "", true},
		{`"" - :`, "", true},
	} {
		q, err := store.ParseQuery(tc.in)
		if tc.err {
			if !errors.Is(err, store.ErrQuery) {
				t.Errorf("%q: error %v, want ErrQuery", tc.in, err)
			}
			continue
		}
		if err != nil || q.String() != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, q.String(), err, tc.want)
		}
	}
}

// TestSearchSyntaxIsText: what FTS5 or tsquery would read as syntax is
// searched as the text it is, alike on both engines: no prefix search, no
// column filter, no operators; a query of marks only is an ErrQuery that
// quotes it.
func TestSearchSyntaxIsText(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1}); err != nil {
				return err
			}
			for i, text := range []string{
				"Election title: Xylophone makers back the new tariff, said the union.",
				"Xylophones AND drums: a NEAR miss for the orchestra, critics* said.",
			} {
				d := doc(string(rune('a'+i)), int64(1000*(i+1)))
				d.Title, d.Text = "", text
				if _, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}}); err != nil {
					return err
				}
			}
			return nil
		})
		all := store.Page{Limit: 10}
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{`title:xylophone`, []string{"a"}}, // the words title and xylophone, in a row
			{`title:drums`, []string{}},        // no column filter
			{`xylo*`, []string{}},              // no prefix search
			{`xylophone*`, []string{"a"}},      // the word xylophone
			{`critics*`, []string{"b"}},
			{`NEAR(xylophones miss)`, []string{}}, // NEAR is a word, the phrase not in the text
			{`near miss`, []string{"b"}},
			{`xylophones AND drums`, []string{"b"}},
			{`xylophone OR drums`, []string{}}, // OR is a word, in neither text
			{`^union`, []string{"a"}},
			{`{title}:tariff`, []string{}},
			{`"tariff said`, []string{"a"}}, // a quote left open runs to the end
			{`tariff "`, []string{"a"}},     // a lone quote among words is dropped
		} {
			got, total, _ := search(t, st, tc.q, all)
			if diff := cmp.Diff(tc.want, sorted(got), cmpEmpty); diff != "" || total != len(tc.want) {
				t.Errorf("%s: total %d (-want +got)\n%s", tc.q, total, diff)
			}
		}
		for _, q := range []string{`"`, `*`, `-`, `"" : *`} {
			_, err := store.ParseQuery(q)
			if !errors.Is(err, store.ErrQuery) || !strings.Contains(err.Error(), fmt.Sprintf("%q has no word", q)) {
				t.Errorf("%s: %v, want an ErrQuery quoting it", q, err)
			}
		}
	})
}

// TestSearchMigration upgrades a store of schema version 2 holding
// documents: the upgrade makes them searchable (and adds version 4's index
// on sources, version 5's checksums, version 6's index of feed items and
// version 8's host pauses).
func TestSearchMigration(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		browseFixture(t, st)
		st.Close()
		driver, src := "sqlite", dsn
		drop := []string{`DROP TRIGGER docs_search_insert`, `DROP TRIGGER docs_search_delete`, `DROP TABLE search`,
			`DROP VIEW search_source`, `DROP INDEX docs_source`, `DROP INDEX feed_items_doc`, `DROP TABLE host_pauses`, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 2`}
		if store.IsPostgres(dsn) {
			driver = "pgx"
			drop = []string{`DROP TABLE search`, `DROP TRIGGER docs_search_insert ON docs`, `DROP TRIGGER docs_search_delete ON docs`,
				`DROP FUNCTION search_insert`, `DROP FUNCTION search_delete`, `DROP INDEX docs_source`, `DROP INDEX feed_items_doc`, `DROP TABLE host_pauses`, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 2`}
		}
		for _, table := range []string{"docs DROP COLUMN sketch_crc", "sketch_detail DROP COLUMN crc", "texts DROP COLUMN crc",
			"marks DROP COLUMN crc", "removals DROP COLUMN crc"} {
			drop = append([]string{"ALTER TABLE " + table}, drop...)
		}
		db, err := sql.Open(driver, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range drop {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		db.Close()
		st = open(t, dsn)
		if got, total, _ := search(t, st, "football", store.Page{Limit: 5}); total != 1 || got[0] != "e" {
			t.Errorf("after the upgrade: %v of %d", got, total)
		}
		if got, _, _ := search(t, st, "decision", store.Page{Limit: 5}); len(got) != 1 {
			t.Errorf("a title after the upgrade: %v", got)
		}
		if faults, err := st.Check(t.Context()); faults.Total > 0 || err != nil {
			t.Errorf("check after the upgrade: %q %v", faults.List, err)
		}
	})
}

// TestFixtureVersion1Search: documents of a version 1 index are found by
// their titles once it is upgraded.
func TestFixtureVersion1Search(t *testing.T) {
	st := openFixture(t, 1)
	if got, total, _ := search(t, st, "second", store.Page{Limit: 5}); total != 1 || got[0] != "fixture-2" {
		t.Errorf("%v of %d", got, total)
	}
}

// reopenAfter closes st, runs the statements on its PostgreSQL database
// (an older schema's state, made by hand), and opens it again, which
// migrates it.
func reopenAfter(t *testing.T, st store.Store, dsn string, statements ...string) store.Store {
	t.Helper()
	st.Close()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range statements {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return open(t, dsn)
}

// TestSearchMarkup: words between "<" and ">" and in "&amp;" are found on
// both engines. PostgreSQL's text-search parser reads them as a tag and
// an entity and left them out ("profits <5% and costs >10%" held no
// "costs"), where SQLite's tokenizer keeps them.
func TestSearchMarkup(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1}); err != nil {
				return err
			}
			d := doc("m", 1000)
			d.Title = "Margins <script>alert</script> &amp; more"
			d.Text = "Profits <5% and costs >10% this quarter, said the fund."
			_, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}})
			return err
		})
		for _, q := range []string{"costs", "script", "alert", "amp", `"and costs"`} {
			if got, total, _ := search(t, st, q, store.Page{Limit: 5}); total != 1 || got[0] != "m" {
				t.Errorf("%s: %v of %d, want m", q, got, total)
			}
		}
		if !store.IsPostgres(dsn) {
			return
		}
		// An index of schema version 6 holds the parser's vectors: the
		// upgrade makes them again.
		st = reopenAfter(t, st, dsn, `UPDATE search SET doc = to_tsvector('simple', 'Margins <script>alert</script> &amp; more')`,
			`DROP TABLE host_pauses`, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 6`)
		if got, total, _ := search(t, st, "script", store.Page{Limit: 5}); total != 1 || got[0] != "m" {
			t.Errorf("script after the upgrade from version 6: %v of %d, want m", got, total)
		}
	})
}

// TestSearchWordsInsidePunctuation: the words of a path, an e-mail
// address, a host and a range of numbers are found on both engines, and
// a query of a number with decimals finds it. PostgreSQL's text-search
// parser keeps such a run whole ("bank/north", "jane.doe@reuters.com",
// "-1.5") and left the words inside it out, where SQLite's tokenizer reads
// each; an index of schema version 9 makes its vectors again.
func TestSearchWordsInsidePunctuation(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1}); err != nil {
				return err
			}
			d := doc("p", 1000)
			d.Title = "Midlantic National Bank/North raises its prime rate"
			d.Text = "Write to jane.doe@reuters.com or visit www.reuters.com for a gain of 1.0-1.5 pct, it said (C:\\data\\rates)."
			_, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}})
			return err
		})
		queries := []string{"north", "bank", "doe", "reuters", `"1.5 pct"`, "1.5", "data", `"Bank/North raises"`}
		check := func(when string) {
			t.Helper()
			for _, q := range queries {
				if got, total, _ := search(t, st, q, store.Page{Limit: 5}); total != 1 || got[0] != "p" {
					t.Errorf("%s: %s: %v of %d, want p", when, q, got, total)
				}
			}
			if _, total, _ := search(t, st, "bank -north", store.Page{Limit: 5}); total != 0 {
				t.Errorf("%s: bank -north: %d, want none", when, total)
			}
		}
		// A term of punctuation is marked in the snippet.
		for _, q := range []string{"jane.doe@reuters.com", "www.reuters.com"} {
			if _, _, hits := search(t, st, q, store.Page{Limit: 5}); len(hits) != 1 || !strings.Contains(hits[0].Snippet, store.HitStart) {
				t.Errorf("%s: hits %+v, want the snippet to mark it", q, hits)
			}
		}
		check("stored")
		if !store.IsPostgres(dsn) {
			return
		}
		// An index of schema version 9 holds the parser's vectors: the
		// upgrade makes them again.
		st = reopenAfter(t, st, dsn, `UPDATE search SET doc = to_tsvector('simple', translate('Midlantic National Bank/North raises', '<>&', '   '))`,
			`ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 9`)
		queries = []string{"north", "bank", `"Bank/North raises"`}
		check("upgraded from version 9")
	})
}

// A long text that holds the word searched many times is found in
// milliseconds: SQLite's snippet compares each place the text holds a
// word of the query with every other one, and a search for a word a 1 MB
// text holds 70,000 times took half a minute, and minutes for more, with
// the reader waiting and its context not looked at. A long text is quoted
// from its opening (from its title when the title holds a word of the
// query); a short one as before.
func TestSearchLongText(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		long := "Opening words. " + strings.Repeat("harbour bridge ", 1<<20/15)
		update(t, st, func(w store.Writer) error {
			if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1, StoreText: true}); err != nil {
				return err
			}
			for i, d := range []struct{ title, text string }{
				{"", long},
				{"The harbour bridge", long},
				{"", "The council approved the new harbour bridge on Tuesday."},
			} {
				doc := doc(string(rune('a'+i)), int64(1000*(i+1)))
				doc.Title, doc.Text = d.title, d.text
				if _, err := w.Insert(doc, &store.Sketch{Index: []byte{1}, Detail: []byte{1}}); err != nil {
					return err
				}
			}
			return nil
		})
		got, total, hits := search(t, st, "harbour", store.Page{Limit: 10})
		if diff := cmp.Diff([]string{"a", "b", "c"}, sorted(got)); diff != "" || total != 3 {
			t.Fatalf("total %d (-want +got)\n%s", total, diff)
		}
		for i, h := range hits {
			// The long text without the word in its title is quoted from
			// its opening (on SQLite: PostgreSQL quotes the words), the
			// others around the word.
			opening := strings.HasPrefix(h.Snippet, "Opening words.")
			if marked := strings.Contains(h.Snippet, store.HitStart+"harbour"+store.HitEnd); !marked && !opening ||
				got[i] != "a" && !marked || got[i] == "a" && !store.IsPostgres(dsn) && !opening {
				t.Errorf("%s: snippet %.100q", got[i], h.Snippet)
			}
			if len(h.Snippet) > 1000 {
				t.Errorf("%s: snippet of %d bytes", got[i], len(h.Snippet))
			}
		}
	})
}

// A search's page is quoted alone: SQLite computed the snippet of every
// match it ranked, so that a page of 10 hits of a word that 2,000 articles
// of 20,000 bytes hold 380 times each took seconds (10,000 matches, the
// most ranked: 20 s), the snippets of all but 10 thrown away.
//
// The time is BenchmarkSearchManyMatches's; the test checks the page.
func TestSearchManyMatches(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		storeMatches(t, st, 2000)
		got, total, hits := search(t, st, "harbour", store.Page{Limit: 10, Offset: 20})
		if len(got) != 10 || total != 2000 {
			t.Fatalf("%d hits of %d, want 10 of 2000", len(got), total)
		}
		for i, h := range hits {
			if !strings.Contains(h.Snippet, store.HitStart+"harbour"+store.HitEnd) {
				t.Errorf("%s: snippet %.100q marks no harbour", got[i], h.Snippet)
			}
			if want := fmt.Sprint("d", 1999-20-i); got[i] != want { // equal ranks: the newest first
				t.Errorf("hit %d is %s, want %s", i, got[i], want)
			}
		}
	})
}

// storeMatches stores n documents of 20,000 bytes each, d0 to d<n-1>,
// that hold "harbour" 385 times each.
func storeMatches(tb testing.TB, st store.Store, n int) {
	tb.Helper()
	text := strings.Repeat("harbour ferry tide pier quay berth dock wharf jetty ", 385)[:19990]
	err := st.Update(tb.Context(), func(w store.Writer) error {
		if err := w.Init(store.Meta{Method: "minhash", Options: "{}", Format: 1, HashVersion: 1, StoreText: true}); err != nil {
			return err
		}
		for i := range n {
			d := doc(fmt.Sprint("d", i), int64(1000+i))
			d.Text = text
			if _, err := w.Insert(d, &store.Sketch{Index: []byte{1}, Detail: []byte{1}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkSearchManyMatches times a page of 10 hits, with their snippets,
// of a word that 2,000 stored articles of 20,000 bytes each hold 385 times
// (SQLite). An op is one page.
func BenchmarkSearchManyMatches(b *testing.B) {
	st, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "index.db"), store.Options{Sync: "normal"})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	storeMatches(b, st, 2000)
	q, err := store.ParseQuery("harbour")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		err := st.View(b.Context(), func(r store.Reader) error {
			hits, _, err := r.Search(q, store.Page{Limit: 10, Offset: 20})
			if err == nil && len(hits) != 10 {
				err = fmt.Errorf("%d hits", len(hits))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
