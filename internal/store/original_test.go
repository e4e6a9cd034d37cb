package store_test

import (
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/neardup/neardup/internal/store"
)

// TestOriginal: a cluster's original is its member published first, the
// dated before the undated, ties to the first stored, read inside the
// transaction that stores it.
func TestOriginal(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			var ords []int64
			for _, d := range []*store.Doc{doc("undated", 0), doc("noon", 1200), doc("also-noon", 1200)} {
				ord, err := w.Insert(d, nil)
				if err != nil {
					return err
				}
				ords = append(ords, ord)
			}
			c, err := w.NewCluster()
			if err != nil {
				return err
			}
			if err := w.SetCluster(ords, c); err != nil {
				return err
			}
			if d, err := w.Original(c); err != nil || d.ID != "noon" {
				t.Errorf("original %q %v, want noon (dated before undated, then the first stored)", d.ID, err)
			}
			late, err := w.Insert(doc("ten", 1000), nil)
			if err != nil {
				return err
			}
			if err := w.SetCluster([]int64{late}, c); err != nil {
				return err
			}
			if d, err := w.Original(c); err != nil || d.ID != "ten" {
				t.Errorf("original %q %v once an earlier one is stored, want ten", d.ID, err)
			}
			if _, err := w.Original(c + 1); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the original of no cluster: %v", err)
			}
			return nil
		})
	})
}

// TestOriginalByPlace: a document stored with a Place (a new version of
// one removed, as index add --replace stores it) takes that place among
// the documents of its date, before one stored earlier; the place is read
// back, its record's checksum sound, by a later transaction and by every
// read of documents.
func TestOriginalByPlace(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var c, first int64
		update(t, st, func(w store.Writer) error {
			// The story is stored first, then its reprint of one date;
			// the story is removed and its new version stored in its
			// place (the removed version's ordinal), after the reprint.
			var err error
			if first, err = w.Insert(doc("story", 1200), nil); err != nil {
				return err
			}
			reprint, err := w.Insert(doc("reprint", 1200), nil)
			if err != nil {
				return err
			}
			if _, err := w.Remove([]int64{first}); err != nil {
				return err
			}
			story := doc("story", 1200)
			story.Place = first
			again, err := w.Insert(story, nil)
			if err != nil {
				return err
			}
			if c, err = w.NewCluster(); err != nil {
				return err
			}
			if err := w.SetCluster([]int64{reprint, again}, c); err != nil {
				return err
			}
			if d, err := w.Original(c); err != nil || d.ID != "story" {
				t.Errorf("original %q %v in the transaction, want story (the first place of the date)", d.ID, err)
			}
			return nil
		})
		view(t, st, func(r store.Reader) error {
			if d, err := r.Original(c); err != nil || d.ID != "story" || d.Place != first || d.Rank() != first {
				t.Errorf("original %q (place %d) %v, want story of place %d", d.ID, d.Place, err, first)
			}
			d, err := r.Doc("reprint")
			if err != nil || d.Place != 0 || d.Rank() != d.Ord {
				t.Errorf("reprint: place %d, rank %d, ordinal %d, %v; want no place", d.Place, d.Rank(), d.Ord, err)
			}
			ords, err := r.Members(c)
			if err != nil {
				return err
			}
			docs, err := r.Docs(ords)
			var places []string
			for _, d := range docs {
				places = append(places, fmt.Sprintf("%s %d", d.ID, d.Place))
			}
			if want := []string{"reprint 0", fmt.Sprintf("story %d", first)}; err != nil || !slices.Equal(places, want) {
				t.Errorf("Docs: places %v %v, want %v", places, err, want)
			}
			places = nil
			err = r.EachDoc(true, func(d *store.Doc) error { places = append(places, fmt.Sprintf("%s %d", d.ID, d.Place)); return nil })
			if want := []string{"reprint 0", fmt.Sprintf("story %d", first)}; err != nil || !slices.Equal(places, want) {
				t.Errorf("EachDoc: places %v %v, want %v", places, err, want)
			}
			return nil
		})
		if faults, err := st.Check(t.Context()); err != nil || faults.Total > 0 {
			t.Errorf("check: %q %v", faults.List, err)
		}
	})
}

// TestFirstByPlace: a cluster's first member is the first in place order,
// whatever the dates and the ordinals: a new version stored last, in the
// place of a document stored before every other member, is first, in the
// transaction that stores it and in a later one; a cluster of no members
// has none.
func TestFirstByPlace(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		var c, story, again int64
		update(t, st, func(w store.Writer) error {
			// Dated after the reprints, so that neither date nor
			// ordinal puts the new version first: its place alone.
			var err error
			if story, err = w.Insert(doc("story", 1300), nil); err != nil {
				return err
			}
			var reprints []int64
			for _, id := range []string{"reprint", "reprint-2"} {
				ord, err := w.Insert(doc(id, 1200), nil)
				if err != nil {
					return err
				}
				reprints = append(reprints, ord)
			}
			if _, err := w.Remove([]int64{story}); err != nil {
				return err
			}
			d := doc("story", 1300)
			d.Place = story
			if again, err = w.Insert(d, nil); err != nil {
				return err
			}
			if c, err = w.NewCluster(); err != nil {
				return err
			}
			if err := w.SetCluster(append(reprints, again), c); err != nil {
				return err
			}
			if ord, rank, err := w.First(c); err != nil || ord != again || rank != story {
				t.Errorf("first in the transaction: ordinal %d, place %d, %v; want %d of place %d", ord, rank, err, again, story)
			}
			empty, err := w.NewCluster()
			if err != nil {
				return err
			}
			if _, _, err := w.First(empty); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the first of a cluster of no members: %v, want ErrNotFound", err)
			}
			return nil
		})
		view(t, st, func(r store.Reader) error {
			if ord, rank, err := r.First(c); err != nil || ord != again || rank != story {
				t.Errorf("first: ordinal %d, place %d, %v; want %d of place %d", ord, rank, err, again, story)
			}
			return nil
		})
	})
}

// TestRelabelItems: the items made into given documents take a new
// outcome, in every feed, when their outcome is one of those named.
func TestRelabelItems(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			var feeds []int64
			for _, u := range []string{"https://a.example/rss", "https://b.example/rss"} {
				id, err := w.AddFeed(&store.Feed{URL: u, Config: []byte(`{}`), State: []byte(`{}`)})
				if err != nil {
					return err
				}
				feeds = append(feeds, id)
			}
			if err := w.SaveItems([]store.FeedItem{
				{Feed: feeds[0], Item: "1", Outcome: "added", Doc: "copy"},
				{Feed: feeds[1], Item: "1", Outcome: "similar", Doc: "copy"},
				{Feed: feeds[1], Item: "2", Outcome: "exists", Doc: "copy"},
				{Feed: feeds[1], Item: "3", Outcome: "added", Doc: "other"},
			}); err != nil {
				return err
			}
			n, err := w.RelabelItems([]string{"copy"}, []string{"added", "similar"}, "duplicate")
			if err != nil || n != 2 {
				t.Errorf("relabelled %d: %v, want 2", n, err)
			}
			counts, err := w.ItemCounts()
			if err != nil {
				return err
			}
			if a, b := counts[feeds[0]], counts[feeds[1]]; a["duplicate"] != 1 || b["duplicate"] != 1 || b["exists"] != 1 || b["added"] != 1 {
				t.Errorf("counts %v %v", a, b)
			}
			return nil
		})
	})
}

// TestItemMembers: the members of a cluster that an item of some feed was
// made into with one of the outcomes given, by ordinal, each once.
func TestItemMembers(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			ords := map[string]int64{}
			for _, id := range []string{"wire", "copy", "late", "outside"} {
				ord, err := w.Insert(doc(id, 1000), nil)
				if err != nil {
					return err
				}
				ords[id] = ord
			}
			c, err := w.NewCluster()
			if err != nil {
				return err
			}
			if err := w.SetCluster([]int64{ords["wire"], ords["copy"], ords["late"]}, c); err != nil {
				return err
			}
			var feeds []int64
			for _, u := range []string{"https://a.example/rss", "https://b.example/rss"} {
				id, err := w.AddFeed(&store.Feed{URL: u, Config: []byte(`{}`), State: []byte(`{}`)})
				if err != nil {
					return err
				}
				feeds = append(feeds, id)
			}
			if err := w.SaveItems([]store.FeedItem{
				{Feed: feeds[0], Item: "1", Outcome: "added", Doc: "wire"},
				{Feed: feeds[1], Item: "1", Outcome: "similar", Doc: "wire"},
				{Feed: feeds[0], Item: "2", Outcome: "duplicate", Doc: "copy"},
				{Feed: feeds[1], Item: "2", Outcome: "added", Doc: "late"},
				{Feed: feeds[1], Item: "3", Outcome: "added", Doc: "outside"},
			}); err != nil {
				return err
			}
			got, err := w.ItemMembers(c, []string{"added", "similar"})
			if want := []int64{ords["wire"], ords["late"]}; err != nil || !slices.Equal(got, want) {
				t.Errorf("ItemMembers = %v, %v; want %v", got, err, want)
			}
			if got, err := w.ItemMembers(c, []string{"duplicate"}); err != nil || !slices.Equal(got, []int64{ords["copy"]}) {
				t.Errorf("ItemMembers of duplicates = %v, %v; want [%d]", got, err, ords["copy"])
			}
			return nil
		})
	})
}

// TestFeedItemsByDocMigration upgrades a store of schema version 5 to
// version 6, which indexes feed items by document, and on, on both
// engines.
func TestFeedItemsByDocMigration(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			id, err := w.AddFeed(&store.Feed{URL: "https://a.example/rss", Config: []byte(`{}`), State: []byte(`{}`)})
			if err != nil {
				return err
			}
			return w.SaveItems([]store.FeedItem{{Feed: id, Item: "1", Outcome: "added", Doc: "copy"}})
		})
		st.Close()
		driver, count := "sqlite", `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'feed_items_doc'`
		if store.IsPostgres(dsn) {
			driver, count = "pgx", `SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'feed_items_doc'`
		}
		db, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range []string{`DROP INDEX feed_items_doc`, `DROP TABLE host_pauses`, `ALTER TABLE docs DROP COLUMN doc_crc`, `ALTER TABLE docs DROP COLUMN place`, `UPDATE schema_version SET version = 5`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		st = open(t, dsn)
		var n, version int
		if err := db.QueryRow(count).Scan(&n); err != nil || n != 1 {
			t.Errorf("after the upgrade, %d indexes feed_items_doc: %v", n, err)
		}
		if err := db.QueryRow(`SELECT version FROM schema_version`).Scan(&version); err != nil || version != store.SchemaVersion {
			t.Errorf("schema version %d, want %d: %v", version, store.SchemaVersion, err)
		}
		update(t, st, func(w store.Writer) error {
			if n, err := w.RelabelItems([]string{"copy"}, []string{"added"}, "duplicate"); n != 1 || err != nil {
				t.Errorf("relabelled %d after the upgrade: %v", n, err)
			}
			return nil
		})
	})
}
