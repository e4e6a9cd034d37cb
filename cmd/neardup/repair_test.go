package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store/storetest"
)

// TestIndexRepair damages every kind of record of an index that stores
// texts, in the database of each engine: the index parts of two
// documents' sketches (one of which keeps the index from loading), a
// detail part, a text, a title, a mark, an entry of the change log and a
// text of no document. index repair sketches the first three again from
// their texts, with the sketches an add makes, removes the documents of
// the text and the title, naming them, removes the mark, clears the entry
// and deletes the text; then the index loads, verify finds it sound and a
// check of a repaired document finds its copy as before.
func TestIndexRepair(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 30)
	query := filepath.Join(dir, "query.jsonl")
	if err := os.WriteFile(query, []byte(`{"id": "q", "text": "`+docs[0].Text+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ord := func(id string) string { return `(SELECT ord FROM docs WHERE id = '` + id + `')` }
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			runOK(t, "index", "add", "--store-text", "--db", dsn, corpus)
			before, err := child(t, "-q", "index", "query", "--db", dsn, query).Output()
			if err != nil {
				t.Fatal(err)
			}
			sketches := storetest.Rows(t, dsn, `SELECT ord, sketch FROM docs WHERE id IN ('d0', 'd1', 'd3') ORDER BY ord`)
			details := storetest.Rows(t, dsn, `SELECT ord, data FROM sketch_detail WHERE ord IN (`+ord("d0")+`, `+ord("d1")+`, `+ord("d3")+`) ORDER BY ord`)
			// A mark of two documents left sound, and the ordinal of a
			// document removed.
			mark := storetest.Rows(t, dsn, `SELECT a.id, b.id FROM marks m JOIN docs a ON a.ord = m.a JOIN docs b ON b.ord = m.b `+
				`WHERE a.id NOT IN ('d0', 'd1', 'd3', 'd6', 'd9', 'd12') AND b.id NOT IN ('d0', 'd1', 'd3', 'd6', 'd9', 'd12') ORDER BY m.b`)
			if len(mark) == 0 {
				t.Fatal("no mark between two documents left sound")
			}
			markA, markB := mark[0][0].(string), mark[0][1].(string)
			ords := map[string]int64{}
			for _, row := range storetest.Rows(t, dsn, `SELECT id, ord FROM docs`) {
				id, _ := row[0].(string)
				ords[id], _ = row[1].(int64)
			}
			removed := ords["d12"]
			runOK(t, "index", "remove", "--db", dsn, "d12")
			overwrite := func(table, column, where string) string { return storetest.Overwrite(dsn, table, column, where) }
			storetest.Exec(t, dsn,
				overwrite("docs", "sketch", `id = 'd0'`),
				overwrite("docs", "sketch", `id = 'd1'`),
				overwrite("sketch_detail", "data", `ord = `+ord("d3")),
				overwrite("removals", "data", `ord = (SELECT MAX(ord) FROM removals)`),
				`UPDATE texts SET text = 'A forged text. '||text WHERE ord = `+ord("d6"),
				`UPDATE docs SET title = 'A forged title' WHERE id = 'd9'`,
				`UPDATE marks SET score = score / 2 WHERE b = `+ord(markB)+` AND a = `+ord(markA),
				`INSERT INTO texts(ord, text, crc) VALUES(9999, 'a text of no document', 0)`)
			if out, err := child(t, "-q", "index", "stats", "--db", dsn).CombinedOutput(); err == nil {
				t.Fatalf("stats of the damaged index: %s, want the load to fail", out)
			}
			var stdout, stderr strings.Builder
			cmd := child(t, "index", "repair", "--db", dsn)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("repair: %v\n%s%s", err, stdout.String(), stderr.String())
			}
			doc := func(id string) string { return fmt.Sprintf("document %q (ordinal %d): ", id, ords[id]) }
			for _, want := range []string{
				doc("d0") + "the index part of its sketch does not match its checksum: sketched again from its stored text",
				doc("d1") + "the index part of its sketch does not match its checksum: sketched again from its stored text",
				doc("d3") + "the detail part of its sketch does not match its checksum: sketched again from its stored text",
				doc("d6") + "its text does not match its checksum: removed",
				doc("d9") + "its record does not match its checksum: removed",
				fmt.Sprintf("its mark with document %q (ordinal %d, minhash) does not match its checksum: mark removed", markA, ords[markA]),
				fmt.Sprintf("document of ordinal %d: the index part of its sketch in the removal log does not match its checksum: cleared", removed),
				"document of ordinal 9999: its text is stored, but the document is not: deleted",
			} {
				if !strings.Contains(stdout.String(), want+"\n") {
					t.Errorf("repair said:\n%s\nwant %q", stdout.String(), want)
				}
			}
			if want := "repaired: 3 documents sketched again from their stored texts, 2 documents removed (add them again from their source), " +
				"1 mark mended, 1 entry of the change log cleared, 1 row of no document deleted\nthe index is sound\n"; !strings.HasSuffix(stderr.String(), want) {
				t.Errorf("repair's standard error:\n%s\nwant it to end %q", stderr.String(), want)
			}
			if got := storetest.Rows(t, dsn, `SELECT ord, sketch FROM docs WHERE id IN ('d0', 'd1', 'd3') ORDER BY ord`); !reflect.DeepEqual(got, sketches) {
				t.Error("the index parts sketched again differ from those the add made")
			}
			if got := storetest.Rows(t, dsn, `SELECT ord, data FROM sketch_detail WHERE ord IN (`+ord("d0")+`, `+ord("d1")+`, `+ord("d3")+`) ORDER BY ord`); !reflect.DeepEqual(got, details) {
				t.Error("the detail parts sketched again differ from those the add made")
			}
			if out, err := child(t, "-q", "index", "verify", "--db", dsn).CombinedOutput(); err != nil {
				t.Errorf("verify after the repair: %v\n%s", err, out)
			}
			if after, err := child(t, "-q", "index", "query", "--db", dsn, query).Output(); err != nil || !bytes.Equal(after, before) {
				t.Errorf("a check of d0's text after the repair: %v\n%s\nwant as before:\n%s", err, after, before)
			}
			out, err := child(t, "index", "repair", "--db", dsn).CombinedOutput()
			if err != nil || string(out) != "the index is sound: nothing to repair\n" {
				t.Errorf("a second repair: %v\n%s", err, out)
			}
		})
	}
}

// TestIndexRepairRefusesDamagedPages pins repair of a SQLite index whose
// pages SQLite's own check finds damaged: it mends none of it (no record's
// checksum names such damage), says so and exits 1, and leaves the file
// byte for byte as it was.
func TestIndexRepairRefusesDamagedPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 600)
	db := filepath.Join(dir, "damaged.db")
	runOK(t, "index", "add", "--db", db, corpus)
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	page := int(binary.BigEndian.Uint16(data[16:18])) // past the schema's page
	if page == 1 {
		page = 65536
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 200 {
		data[page+r.IntN(len(data)-page)] ^= 0xFF
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := child(t, "-q", "index", "repair", "--db", db).CombinedOutput()
	if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), "the store's own check finds damage that repair does not mend") {
		t.Errorf("repair: exit code %d, output:\n%s\nwant exit code 1 and the damage refused", code, tail(out, 600))
	}
	if now, err := os.ReadFile(db); err != nil || !bytes.Equal(now, data) {
		t.Errorf("repair changed the file (%v)", err)
	}
}

// TestIndexRepairSaysAnImpossiblePlace: a document whose stored place is 0,
// which no write stores and which matches the checksum of a record without
// a place, is said by verify and repair to hold an impossible place, not
// to fail its checksum (regression: "its record does not match its
// checksum"), and repair clears the place, keeping the document with its
// text, sketch, marks and cluster (regression: repair removed it), after
// which verify is clean.
func TestIndexRepairSaysAnImpossiblePlace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 6)
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			runOK(t, "index", "add", "--db", dsn, corpus)
			// A document with a mark, whose mark and cluster repair keeps;
			// its sketch and text by their lengths and checksums.
			row := storetest.Rows(t, dsn, `SELECT d.id, d.ord FROM docs d JOIN marks m ON m.b = d.ord ORDER BY d.ord LIMIT 1`)[0]
			id, ord := row[0].(string), row[1].(int64)
			stored := func() string {
				return fmt.Sprint(
					storetest.Rows(t, dsn, fmt.Sprintf(`SELECT d.id, d.title, d.cluster, length(d.sketch), d.sketch_crc, length(t.text), t.crc FROM docs d `+
						`LEFT JOIN texts t ON t.ord = d.ord WHERE d.ord = %d`, ord)),
					storetest.Rows(t, dsn, fmt.Sprintf(`SELECT a, b, method, label, score FROM marks WHERE a = %[1]d OR b = %[1]d ORDER BY a, b, method`, ord)),
					storetest.Rows(t, dsn, fmt.Sprintf(`SELECT length(data), crc FROM sketch_detail WHERE ord = %d`, ord)))
			}
			before := stored()
			storetest.Exec(t, dsn, fmt.Sprintf(`UPDATE docs SET place = 0 WHERE ord = %d`, ord))
			want := fmt.Sprintf(`document %q (ordinal %d): its record holds place 0, impossible `+
				`(a place is an ordinal above 0 and below the document's own, %d)`, id, ord, ord)
			out, err := child(t, "-q", "index", "verify", "--db", dsn).CombinedOutput()
			if err == nil || !strings.Contains(string(out), want+"\n") || strings.Contains(string(out), "checksum") {
				t.Errorf("verify: %v\n%s\nwant it to fail saying %q, no word of a checksum", err, out, want)
			}
			var stdout, stderr strings.Builder
			cmd := child(t, "index", "repair", "--db", dsn)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil || stdout.String() != want+": place cleared\n" ||
				!strings.Contains(stderr.String(), "repaired: 1 place cleared\n") {
				t.Errorf("repair: %v\n%s%s\nwant %q alone, and the place cleared in the summary", err, stdout.String(), stderr.String(), want+": place cleared")
			}
			if out, err := child(t, "-q", "index", "verify", "--db", dsn).CombinedOutput(); err != nil {
				t.Errorf("verify after repair: %v\n%s", err, out)
			}
			if place := storetest.Rows(t, dsn, fmt.Sprintf(`SELECT place FROM docs WHERE ord = %d`, ord)); len(place) != 1 || place[0][0] != nil {
				t.Errorf("place of document %q after repair: %v, want none (NULL)", id, place)
			}
			if after := stored(); after != before {
				t.Errorf("document %q after repair:\n%s\nwant as added:\n%s", id, after, before)
			}
		})
	}
}

// TestIndexRepairCountsNoPlaceOfARemovedDocument pins that a document with
// an impossible place and a damaged sketch, in an index without texts to
// sketch it again from, is removed, and repair's summary counts no place
// cleared for it: the lines and the summary agree.
func TestIndexRepairCountsNoPlaceOfARemovedDocument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 4)
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			runOK(t, "index", "add", "--no-store-text", "--db", dsn, corpus)
			storetest.Exec(t, dsn, `UPDATE docs SET place = 0, sketch_crc = sketch_crc + 1 WHERE ord = 2`)
			var stdout, stderr strings.Builder
			cmd := child(t, "index", "repair", "--db", dsn)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			_ = cmd.Run()
			if !strings.Contains(stdout.String(), ": removed\n") || strings.Contains(stdout.String(), "place cleared") {
				t.Errorf("repair's lines:\n%s\nwant the document removed, no place cleared", stdout.String())
			}
			if !strings.Contains(stderr.String(), "1 document removed") || strings.Contains(stderr.String(), "place cleared") {
				t.Errorf("repair's summary:\n%s\nwant 1 document removed and no place cleared", stderr.String())
			}
		})
	}
}
