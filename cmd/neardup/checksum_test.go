package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// TestVerifyFindsDamagedRecords overwrites sixteen bytes inside a stored
// sketch part or text of document d0, directly in the database of each
// engine: index verify names d0 and the part and exits 1, and a query that
// d0 is a candidate of (or an export that reads its text) fails naming d0
// instead of answering with different evidence.
func TestVerifyFindsDamagedRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 30)
	q, _ := json.Marshal(map[string]string{"id": "q", "text": docs[0].Text + " One more sentence closes this version of it."})
	query := filepath.Join(dir, "query.jsonl")
	if err := os.WriteFile(query, append(q, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	const d0 = `(SELECT ord FROM docs WHERE id = 'd0')`
	for _, tc := range []struct {
		name, part       string
		sqlite, postgres string
		fails            []string // a command that must fail naming d0
		says             string   // the fault, when not a mismatch
	}{
		{"sketch index part", "the index part of its sketch",
			`UPDATE docs SET sketch = CAST(substr(sketch, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(sketch, 25) AS BLOB) WHERE id = 'd0'`,
			`UPDATE docs SET sketch = overlay(sketch placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16) WHERE id = 'd0'`,
			[]string{"index", "query", query}, ""},
		{"sketch detail", "the detail part of its sketch",
			`UPDATE sketch_detail SET data = CAST(substr(data, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(data, 25) AS BLOB) WHERE ord = ` + d0,
			`UPDATE sketch_detail SET data = overlay(data placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16) WHERE ord = ` + d0,
			[]string{"index", "query", query}, ""},
		{"text", "its text",
			`UPDATE texts SET text = substr(text, 1, 8) || 'XXXXXXXXXXXXXXXX' || substr(text, 25) WHERE ord = ` + d0,
			`UPDATE texts SET text = overlay(text placing 'XXXXXXXXXXXXXXXX' from 9 for 16) WHERE ord = ` + d0,
			[]string{"index", "export", "-o", filepath.Join(dir, "out")}, ""},
		// A title changed: the record's checksum finds it, and export,
		// which reads every record, fails.
		{"record", "its record",
			`UPDATE docs SET title = 'A forged title' WHERE id = 'd0'`,
			`UPDATE docs SET title = 'A forged title' WHERE id = 'd0'`,
			[]string{"index", "export", "-o", filepath.Join(dir, "out3")}, ""},
		// A text row deleted was taken for a document without text: verify
		// found the index sound and export wrote d0 without its text.
		{"text deleted", "its text",
			`DELETE FROM texts WHERE ord = ` + d0,
			`DELETE FROM texts WHERE ord = ` + d0,
			[]string{"index", "export", "-o", filepath.Join(dir, "out2")}, "is missing"},
	} {
		for _, engine := range storetest.Engines {
			t.Run(tc.name+"/"+engine, func(t *testing.T) {
				dsn := storetest.DSN(t, engine)
				runOK(t, "index", "add", "--store-text", "--db", dsn, corpus)
				if out, err := child(t, "-q", "index", "query", "--db", dsn, query).Output(); err != nil || !strings.Contains(string(out), `"d0"`) {
					t.Fatalf("query before the damage: %v\n%s", err, out)
				}
				sql := tc.sqlite
				if store.IsPostgres(dsn) {
					sql = tc.postgres
				}
				storetest.Exec(t, dsn, sql)
				out, err := child(t, "-q", "index", "verify", "--db", dsn).CombinedOutput()
				says := tc.says
				if says == "" {
					says = "does not match its checksum"
				}
				want := `document "d0" (ordinal 1): ` + tc.part + ` ` + says
				if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), want) {
					t.Errorf("verify: exit code %d, output:\n%s\nwant exit code 1 and %q", code, out, want)
				}
				out, err = child(t, append(append([]string{"-q"}, tc.fails...), "--db", dsn)...).CombinedOutput()
				if err == nil || !strings.Contains(string(out), want) {
					t.Errorf("%s after the damage: %v, output:\n%s\nwant a failure saying %q", strings.Join(tc.fails[:2], " "), err, out, want)
				}
			})
		}
	}
}

// TestVerifyNamesAMissingDetailPart deletes the detail part of d0's sketch
// in the database of each engine: index verify says it is missing, of d0,
// and nothing else, and exits 1. Regression: the line went on "(minhash:
// sketch format 0, this binary reads 3 to 8: codec: sketch of another
// format: codec: corrupt data)", the method's error of decoding no bytes,
// which told of a format mismatch there is not.
func TestVerifyNamesAMissingDetailPart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 10)
	for _, engine := range storetest.Engines {
		t.Run(engine, func(t *testing.T) {
			dsn := storetest.DSN(t, engine)
			runOK(t, "index", "add", "--db", dsn, corpus)
			storetest.Exec(t, dsn, `DELETE FROM sketch_detail WHERE ord = (SELECT ord FROM docs WHERE id = 'd0')`)
			var stdout, stderr strings.Builder
			cmd := child(t, "-q", "index", "verify", "--db", dsn)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			want := `document "d0": the detail part of its sketch is missing` + "\n"
			if code := exitCodeOf(err); code != 1 || stdout.String() != want {
				t.Errorf("verify: exit code %d, standard output %q (standard error %q); want 1, %q", code, stdout.String(), stderr.String(), want)
			}
		})
	}
}

// exitCodeOf returns the exit code of a child that ended with err.
func exitCodeOf(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestVerifyCountsEveryFault pins a count that took the closing "and N
// more" line of a list cut at 100 for one fault ("faults: 101" for
// 130): verify's message counts every fault and says how many it listed.
// It pins too a count read back from that line's text: the count is the
// one Verify returns (Faults.Total), and standard output holds the faults
// listed and nothing else, one a line.
func TestVerifyCountsEveryFault(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 100) // 134 documents
	for _, tc := range []struct {
		name, sql string
		want      int
	}{
		{"texts edited", `UPDATE texts SET text = text || ' edited'`, len(docs)},
		{"ordinal counter lowered", `UPDATE counters SET value = 4 WHERE name = 'ord'`, len(docs) - 4},
		{"a few", `UPDATE counters SET value = 130 WHERE name = 'ord'`, len(docs) - 130},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "x.db")
			runOK(t, "index", "add", "--db", db, corpus)
			storetest.Exec(t, db, tc.sql)
			var stdout, stderr strings.Builder
			cmd := child(t, "-q", "index", "verify", "--db", db)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			listed := min(tc.want, 100)
			want := fmt.Sprintf("the index has faults: %d\n", tc.want)
			if tc.want > listed {
				want = fmt.Sprintf("the index has faults: %d (%d listed)\n", tc.want, listed)
			}
			if code := exitCodeOf(err); code != 1 || !strings.HasSuffix(stderr.String(), want) {
				t.Errorf("verify: exit code %d, standard error:\n%s\nwant exit code 1 and %q", code, stderr.String(), want)
			}
			lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if len(lines) != listed {
				t.Errorf("verify printed %d lines, want the %d faults listed; the last:\n%s", len(lines), listed, tail([]byte(stdout.String()), 200))
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "document ") {
					t.Errorf("verify printed %q, want only faults naming a document", l)
					break
				}
			}
		})
	}
}

// tail returns the last n bytes of b at most.
func tail(b []byte, n int) []byte { return b[max(0, len(b)-n):] }

// TestVerifyFindsStrayRows pins two faults verify passed: a cluster of one
// member (a document put in a cluster no duplicate mark supports), and the
// text and detail part left behind by a document deleted without them.
func TestVerifyFindsStrayRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 12)
	for _, tc := range []struct {
		name, sql string
		want      []string
	}{
		{"a cluster of one", `UPDATE docs SET cluster = 99999 WHERE id = 'd1'`,
			[]string{`cluster 99999 has one member, "d1"`}},
		{"rows of a deleted document", `DELETE FROM docs WHERE id = 'd1'`,
			[]string{"its text is stored, but the document is not", "the detail part of its sketch is stored, but the document is not"}},
	} {
		for _, engine := range storetest.Engines {
			t.Run(tc.name+"/"+engine, func(t *testing.T) {
				dsn := storetest.DSN(t, engine)
				runOK(t, "index", "add", "--store-text", "--db", dsn, corpus)
				storetest.Exec(t, dsn, tc.sql)
				out, err := child(t, "-q", "index", "verify", "--db", dsn).CombinedOutput()
				if code := exitCodeOf(err); code != 1 {
					t.Errorf("verify: exit code %d, want 1; output:\n%s", code, out)
				}
				for _, w := range tc.want {
					if !strings.Contains(string(out), w) {
						t.Errorf("verify said:\n%s\nwant %q", out, w)
					}
				}
			})
		}
	}
}

// fileDamages are ways a SQLite index file is damaged outside neardup:
// cut short (by a whole page or not) or overwritten in place.
var fileDamages = []struct {
	name   string
	damage func(data []byte) []byte
}{
	{"cut by 1000 bytes", func(d []byte) []byte { return d[:len(d)-1000] }},
	{"cut by a page", func(d []byte) []byte { return d[:len(d)-4096] }},
	{"cut off a page in the middle", func(d []byte) []byte { return d[:len(d)/2+123] }},
	{"junk mid-file", func(d []byte) []byte {
		at := len(d) / 2 / 8192 * 8192
		copy(d[at:], bytes.Repeat([]byte{0xA5}, 8192))
		return d
	}},
	{"200 scattered flips", func(d []byte) []byte {
		r := rand.New(rand.NewPCG(7, 11))
		for range 200 {
			d[100+r.IntN(len(d)-100)] ^= 0xFF // past the header
		}
		return d
	}},
}

// TestDamageErrorsNameTheFile pins an index cut to a length that is not a
// whole number of pages, which verify reported as "checking the index:
// store: the index file is damaged (database disk image is malformed
// (11))", naming no file, and stats and export of it, which failed with
// "sql: Scan error on column index 0, name "label": converting NULL to
// string is unsupported": every command that fails on a damaged index
// says the file it names is damaged.
func TestDamageErrorsNameTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 600)
	clean := filepath.Join(dir, "clean.db")
	runOK(t, "index", "add", "--db", clean, corpus)
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fileDamages {
		t.Run(d.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "damaged.db")
			damaged := d.damage(bytes.Clone(data))
			if err := os.WriteFile(db, damaged, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"index", "verify"}, {"index", "stats"}, {"index", "export", "-o", filepath.Join(t.TempDir(), "out")},
				{"index", "query", corpus},
			} {
				out, err := child(t, append(append([]string{"-q"}, args...), "--db", db)...).CombinedOutput()
				code := exitCodeOf(err)
				if args[1] == "verify" && code != 1 {
					t.Errorf("verify: exit code %d, want 1; output:\n%s", code, tail(out, 400))
				}
				if now, err := os.ReadFile(db); args[1] == "verify" && (err != nil || !bytes.Equal(now, damaged)) {
					t.Errorf("verify changed the file (%v)", err)
				}
				last := string(out[bytes.LastIndexByte(bytes.TrimSuffix(out, []byte("\n")), '\n')+1:])
				if code != 0 && (!strings.Contains(last, db) || !strings.Contains(last, "damaged")) {
					t.Errorf("%s: %q, want an error saying %s is damaged", args[1], last, db)
				}
			}
		})
	}
}

// TestSchemaDamageNamesTheFile damages a SQLite index's schema (a table
// dropped, two bytes of the full-text index's SQL changed), which SQLite's
// integrity check passes and which fails every statement that reads it
// with a "SQL logic error": verify lists what is missing or changed (exit
// 1), and each command that fails names the file and says it is damaged,
// where they printed SQLite's error alone (`neardup: SQL logic error: no
// such table: marks (1)`) or, of index add, blamed the input's record.
func TestSchemaDamageNamesTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, docs := writeCorpus(t, dir, 60)
	data, _ := os.ReadFile(corpus)
	lines := bytes.SplitAfter(data, []byte("\n"))
	first, later := filepath.Join(dir, "first.jsonl"), filepath.Join(dir, "later.jsonl")
	os.WriteFile(first, bytes.Join(lines[:40], nil), 0o644)
	os.WriteFile(later, bytes.Join(lines[40:], nil), 0o644)
	clean := filepath.Join(dir, "clean.db")
	runOK(t, "index", "add", "--db", clean, first)
	for _, tc := range []struct {
		name, damage, fault string
		fails               []string // a command the damage fails
	}{
		{"marks dropped", "DROP TABLE marks", "schema: table marks is missing", []string{"index", "stats"}},
		{"texts dropped", "DROP TABLE texts", "schema: table texts is missing", []string{"index", "add", later}},
		{"search SQL changed", "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'content_rowid', 'c\xa1\xfctent_rowid') WHERE name = 'search'",
			"schema: table search is not as neardup made it", []string{"index", "remove", docs[0].ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "damaged.db")
			data, err := os.ReadFile(clean)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(db, data, 0o644); err != nil {
				t.Fatal(err)
			}
			storetest.Exec(t, db, tc.damage)
			for _, args := range [][]string{{"index", "verify"}, tc.fails} {
				out, err := child(t, append(append([]string{"-q"}, args[:2]...), append([]string{"--db", db}, args[2:]...)...)...).CombinedOutput()
				code := exitCodeOf(err)
				last := string(out[bytes.LastIndexByte(bytes.TrimSuffix(out, []byte("\n")), '\n')+1:])
				if code != 1 || !strings.Contains(last, db) || !strings.Contains(last, "damaged") {
					t.Errorf("%s: exit code %d, %q; want 1 and an error saying %s is damaged", args[1], code, last, db)
				}
				if args[1] == "verify" && !strings.Contains(string(out), "\n"+tc.fault) && !strings.HasPrefix(string(out), tc.fault) {
					t.Errorf("verify does not list %q:\n%s", tc.fault, tail(out, 600))
				}
			}
		})
	}
}

// TestVerifyListsFaultsOfAnIndexThatDoesNotLoad pins verify of an index
// whose damage (bytes flipped here and there) also keeps it from loading,
// which printed the load's error alone: it lists what SQLite's integrity
// check and the checksums find, says that the index does not load, exits
// 1, and leaves the file byte for byte as it was, with nothing beside it.
func TestVerifyListsFaultsOfAnIndexThatDoesNotLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	corpus, _ := writeCorpus(t, dir, 600)
	db := filepath.Join(dir, "damaged.db")
	runOK(t, "index", "add", "--db", db, corpus)
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	// Bytes of the pages after the first, which holds the schema: an index
	// whose schema is damaged does not open at all (verify fails, exit 1,
	// naming the file and "malformed database schema"); this test damages
	// what the tables hold. Flips anywhere past the header hit the schema
	// once the minhash sketches grew (format 8).
	page := int(binary.BigEndian.Uint16(data[16:18]))
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
	var stdout, stderr strings.Builder
	cmd := child(t, "-q", "index", "verify", "--db", db)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if code := exitCodeOf(err); code != 1 || !strings.Contains(stderr.String(), "the index has faults: ") ||
		!strings.Contains(stderr.String(), "; the index does not load: ") {
		t.Errorf("verify: exit code %d, standard error:\n%s\nwant exit code 1, the faults counted and the load's error", code, stderr.String())
	}
	if stdout.Len() == 0 {
		t.Error("verify listed no fault")
	}
	for line := range strings.Lines(stdout.String()) {
		if strings.HasPrefix(line, "*** ") {
			t.Errorf("verify listed %q, which names the database, as a fault", line)
		}
	}
	if now, err := os.ReadFile(db); err != nil || !bytes.Equal(now, data) {
		t.Errorf("verify changed the file (%v)", err)
	}
	for _, side := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Stat(db + side); err == nil {
			t.Errorf("verify left %s beside the index", side)
		}
	}
}
