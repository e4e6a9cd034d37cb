package store_test

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// damage is a way to change a stored record behind the store's back: the
// SQL of each engine, the part Check names and what its fault says of it,
// and a read that must fail.
type damage struct {
	sqlite, postgres string
	part             string
	// fault is what the fault says of the part: "does not match its
	// checksum" when "".
	fault string
	read  func(r store.Reader, ord int64) error
}

// The records damaged belong to document "b": sixteen bytes from the ninth
// on are overwritten, as a failing disk or a hand-made edit would.
var damages = map[string]damage{
	"sketch index part": {
		sqlite:   `UPDATE docs SET sketch = CAST(substr(sketch, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(sketch, 25) AS BLOB) WHERE id = 'b'`,
		postgres: `UPDATE docs SET sketch = overlay(sketch placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16) WHERE id = 'b'`,
		part:     "the index part of its sketch",
		read: func(r store.Reader, ord int64) error {
			if _, err := r.Sketch(ord); err == nil {
				return errors.New("Sketch read the damaged part")
			} else if !damagedB(err) {
				return err
			}
			if index, err := r.IndexPart(ord); err == nil || index != nil {
				return errors.New("IndexPart read the damaged part")
			} else if !damagedB(err) {
				return err
			}
			return r.Indexes(0, func(int64, []byte) error { return nil })
		},
	},
	"sketch detail": {
		sqlite:   `UPDATE sketch_detail SET data = CAST(substr(data, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(data, 25) AS BLOB) WHERE ord = (SELECT ord FROM docs WHERE id = 'b')`,
		postgres: `UPDATE sketch_detail SET data = overlay(data placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16) WHERE ord = (SELECT ord FROM docs WHERE id = 'b')`,
		part:     "the detail part of its sketch",
		read: func(r store.Reader, ord int64) error {
			if _, err := r.Sketch(ord); err == nil {
				return errors.New("Sketch read the damaged part")
			} else if !damagedB(err) {
				return err
			}
			_, err := r.Detail(ord)
			return err
		},
	},
	"text": {
		sqlite:   `UPDATE texts SET text = substr(text, 1, 8) || 'XXXXXXXXXXXXXXXX' || substr(text, 25) WHERE ord = (SELECT ord FROM docs WHERE id = 'b')`,
		postgres: `UPDATE texts SET text = overlay(text placing 'XXXXXXXXXXXXXXXX' from 9 for 16) WHERE ord = (SELECT ord FROM docs WHERE id = 'b')`,
		part:     "its text",
		read: func(r store.Reader, ord int64) error {
			if _, err := r.Doc("b"); err == nil {
				return errors.New("Doc read the damaged text")
			} else if !damagedB(err) {
				return err
			}
			return r.EachDoc(true, func(*store.Doc) error { return nil })
		},
	},
	"record": {
		sqlite:   `UPDATE docs SET title = 'A forged title' WHERE id = 'b'`,
		postgres: `UPDATE docs SET title = 'A forged title' WHERE id = 'b'`,
		part:     "its record",
		read:     readDamagedRecord,
	},
	// Regression: a place of 0 (a write stores none as NULL) matched the
	// checksum of a record without one, which Doc.Rank reads it as, while
	// SQL's order of publication put it before every document of its date.
	"place 0": {
		sqlite:   `UPDATE docs SET place = 0 WHERE id = 'b'`,
		postgres: `UPDATE docs SET place = 0 WHERE id = 'b'`,
		part:     "its record",
		fault:    "holds place 0, impossible",
		read:     readDamagedRecord,
	},
	"mark": {
		sqlite:   `UPDATE marks SET evidence = '{"shared":["a forged sentence"]}' WHERE b = (SELECT ord FROM docs WHERE id = 'b')`,
		postgres: `UPDATE marks SET evidence = '{"shared":["a forged sentence"]}' WHERE b = (SELECT ord FROM docs WHERE id = 'b')`,
		part:     `its mark with document "a"`,
		read: func(r store.Reader, ord int64) error {
			if _, err := r.MarksOf(ord); err == nil {
				return errors.New("MarksOf read the damaged mark")
			} else if !damagedB(err) {
				return err
			}
			return r.EachMark(func(*store.Mark) error { return nil })
		},
	},
}

// damagedB reports whether err is the ChecksumError of document "b".
func damagedB(err error) bool {
	var ce *store.ChecksumError
	return errors.As(err, &ce) && ce.ID == "b" && errors.Is(err, store.ErrCorrupt)
}

// checksumFixture stores documents a, b (a near copy of a, marked as its
// duplicate) and c (removed), each with a sketch of both parts and a text,
// and returns the ordinal of b.
func checksumFixture(t *testing.T, st store.Store) int64 {
	t.Helper()
	var b int64
	update(t, st, func(w store.Writer) error {
		sk := func(n byte) *store.Sketch {
			return &store.Sketch{Index: bytes.Repeat([]byte{n, 1, 2, 3}, 20), Detail: bytes.Repeat([]byte{n, 7}, 200)}
		}
		var ords []int64
		for i, id := range []string{"a", "b", "c"} {
			d := doc(id, 0)
			d.Text = strings.Repeat("The text of document "+id+" runs on. ", 20)
			ord, err := w.Insert(d, sk(byte(i+1)))
			if err != nil {
				return err
			}
			ords = append(ords, ord)
		}
		b = ords[1]
		if err := w.AddMarks([]store.Mark{{A: ords[0], B: b, Method: "minhash", Score: 0.9, Label: core.Duplicate,
			Evidence: []byte(`{"shared":["a sentence"]}`), At: 7}}); err != nil {
			return err
		}
		_, err := w.Remove(ords[2:])
		return err
	})
	return b
}

// TestChecksumsFindDamage overwrites sixteen bytes inside a stored sketch
// part, a text and a mark, directly in the database: Check names the
// document and the part, and reading the record is a ChecksumError naming
// the document instead of different evidence.
func TestChecksumsFindDamage(t *testing.T) {
	for name, dmg := range damages {
		t.Run(name, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, dsn string) {
				st := open(t, dsn)
				b := checksumFixture(t, st)
				if faults, err := st.Check(t.Context()); faults.Total > 0 || err != nil {
					t.Fatalf("check before the damage: %q %v", faults.List, err)
				}
				q := dmg.sqlite
				if store.IsPostgres(dsn) {
					q = dmg.postgres
				}
				storetest.Exec(t, dsn, q)
				faults, err := st.Check(t.Context())
				fault := cmp.Or(dmg.fault, "does not match its checksum")
				if err != nil || faults.Total != 1 || len(faults.List) != 1 || !strings.Contains(faults.List[0], `document "b"`) ||
					!strings.Contains(faults.List[0], dmg.part) || !strings.Contains(faults.List[0], fault) {
					t.Errorf("check after the damage: %q %v, want one fault naming document \"b\" and %s and saying %q", faults.List, err, dmg.part, fault)
				}
				view(t, st, func(r store.Reader) error {
					err := dmg.read(r, b)
					if !damagedB(err) {
						t.Errorf("reading the damaged record: %v, want a ChecksumError naming document \"b\"", err)
					}
					// Regression: it ended "the index is damaged", naming
					// neither verify nor repair, as the schema's damage did.
					if err != nil && (!strings.Contains(err.Error(), "neardup index verify") || !strings.Contains(err.Error(), "neardup index repair")) {
						t.Errorf("reading the damaged record: %q, want it to name neardup index verify and neardup index repair", err)
					}
					return nil
				})
			})
		})
	}
}

// TestCheckCountsEveryFault damages more texts than Check lists: the
// faults past store.MaxFaults are counted in Total, not written as a
// closing "and N more" line that a caller had to parse back.
func TestCheckCountsEveryFault(t *testing.T) {
	const n = store.MaxFaults + 30
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		update(t, st, func(w store.Writer) error {
			for i := range n {
				d := doc(fmt.Sprintf("d%d", i), 0)
				d.Text = strings.Repeat("The text of document "+d.ID+" runs on. ", 4)
				if _, err := w.Insert(d, nil); err != nil {
					return err
				}
			}
			return nil
		})
		storetest.Exec(t, dsn, `UPDATE texts SET text = text || ' edited'`)
		faults, err := st.Check(t.Context())
		if err != nil || faults.Total != n || len(faults.List) != store.MaxFaults {
			t.Fatalf("check: %d faults, %d listed, %v; want %d, %d listed", faults.Total, len(faults.List), err, n, store.MaxFaults)
		}
		for _, f := range faults.List {
			if !strings.HasSuffix(f, "its text does not match its checksum") {
				t.Errorf("fault %q, want a text that does not match its checksum", f)
			}
		}
	})
}

// A removal logged keeps the checksum of the removed sketch's index part:
// damage to it is an error of the change log, not a different removal.
func TestChecksumOfRemovals(t *testing.T) {
	forEachEngine(t, func(t *testing.T, dsn string) {
		st := open(t, dsn)
		checksumFixture(t, st)
		q := `UPDATE removals SET data = CAST(substr(data, 1, 8) || x'A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5A5' || substr(data, 25) AS BLOB)`
		if store.IsPostgres(dsn) {
			q = `UPDATE removals SET data = overlay(data placing '\xa5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5'::bytea from 9 for 16)`
		}
		view(t, st, func(r store.Reader) error {
			if rs, err := r.Removals(0); err != nil || len(rs) != 1 {
				t.Errorf("removals before the damage: %v %v", rs, err)
			}
			return nil
		})
		storetest.Exec(t, dsn, q)
		faults, err := st.Check(t.Context())
		if err != nil || faults.Total != 1 || len(faults.List) != 1 || !strings.Contains(faults.List[0], "removal log") {
			t.Errorf("check after the damage: %q %v", faults.List, err)
		}
		view(t, st, func(r store.Reader) error {
			if _, err := r.Removals(0); !errors.Is(err, store.ErrCorrupt) {
				t.Errorf("removals after the damage: %v", err)
			}
			return nil
		})
	})
}

// TestChecksumFindsDamageInTheFile overwrites sixteen bytes of a text in
// the SQLite file itself, where SQLite's own integrity check sees a
// well-formed page.
func TestChecksumFindsDamageInTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.db")
	st, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checksumFixture(t, st)
	st.Close() // the log is copied into the file
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(data, []byte("The text of document b runs on."))
	if at < 0 {
		t.Fatal("the text of b is not in the file")
	}
	copy(data[at+8:], "XXXXXXXXXXXXXXXX")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st = open(t, path)
	faults, err := st.Check(t.Context())
	if err != nil || faults.Total != 1 || len(faults.List) != 1 || !strings.Contains(faults.List[0], `document "b" (ordinal 2): its text does not match its checksum`) {
		t.Errorf("check: %q %v", faults.List, err)
	}
	err = st.View(t.Context(), func(r store.Reader) error {
		_, err := r.Doc("b")
		return err
	})
	if !damagedB(err) || !strings.HasPrefix(err.Error(), "store: "+path+": ") {
		t.Errorf("reading the damaged text: %v, want a ChecksumError naming document \"b\" and the file", err)
	}
}

// TestInsertRefusesAPlaceNoReadTakes: a document whose place is negative or
// not below the ordinal it is given is refused by Insert, naming the place
// and the ordinal, and nothing of it is stored. Regression: Insert stored
// place 99 on ordinal 1, the commit succeeded, and every read then found the
// record damaged.
func TestInsertRefusesAPlaceNoReadTakes(t *testing.T) {
	for _, place := range []int64{-1, 1, 99} {
		t.Run(fmt.Sprint(place), func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, dsn string) {
				st := open(t, dsn)
				d := doc("a", 0)
				d.Place = place
				err := st.Update(t.Context(), func(w store.Writer) error {
					_, err := w.Insert(d, nil)
					return err
				})
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("place %d", place)) || !strings.Contains(err.Error(), "its own, 1") {
					t.Errorf("Insert of place %d on ordinal 1: %v, want an error naming the place and the ordinal", place, err)
				}
				view(t, st, func(r store.Reader) error {
					n := 0
					if err := r.EachDoc(false, func(*store.Doc) error { n++; return nil }); err != nil || n != 0 {
						t.Errorf("after the refused insert: %d documents stored, %v", n, err)
					}
					return nil
				})
			})
		})
	}
}

// TestChecksumsFindAPlaceNoWriteStores: a record whose checksum is sound
// but whose place is 0, negative, the document's own ordinal or above it,
// is damage to Check and to every read, said as an impossible place, not as
// a checksum that does not match (regression: "its record does not match
// its checksum" of a record whose checksum matched).
func TestChecksumsFindAPlaceNoWriteStores(t *testing.T) {
	for _, tc := range []struct {
		name  string
		place func(ord int64) int64
	}{
		{"zero", func(int64) int64 { return 0 }},
		{"negative", func(int64) int64 { return -1 }},
		{"its own ordinal", func(ord int64) int64 { return ord }},
		{"above its ordinal", func(ord int64) int64 { return ord + 97 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, dsn string) {
				st := open(t, dsn)
				b := checksumFixture(t, st)
				var d store.Doc
				view(t, st, func(r store.Reader) (err error) {
					d, err = r.Doc("b")
					return err
				})
				d.Place = tc.place(b)
				storetest.Exec(t, dsn, fmt.Sprintf(`UPDATE docs SET place = %d, doc_crc = %d WHERE id = 'b'`, d.Place, store.RecordSum(&d)))
				faults, err := st.Check(t.Context())
				if err != nil || faults.Total != 1 || len(faults.List) != 1 || !strings.Contains(faults.List[0], `document "b"`) ||
					!strings.Contains(faults.List[0], "its record") {
					t.Errorf("check of place %d on ordinal %d: %q %v, want one fault naming document \"b\" and its record",
						d.Place, b, faults.List, err)
				}
				want := fmt.Sprintf("its record holds place %d, impossible (a place is an ordinal above 0 and below the document's own, %d)", d.Place, b)
				if len(faults.List) != 1 || !strings.Contains(faults.List[0], want) || strings.Contains(faults.List[0], "checksum") {
					t.Errorf("check of place %d on ordinal %d: %q, want the fault %q, no word of a checksum", d.Place, b, faults.List, want)
				}
				view(t, st, func(r store.Reader) error {
					if _, err := r.Doc("b"); !damagedB(err) || !strings.Contains(err.Error(), want) {
						t.Errorf("Doc of place %d on ordinal %d: %v, want a ChecksumError naming document \"b\" and saying %q", d.Place, b, err, want)
					}
					if err := r.EachDoc(false, func(*store.Doc) error { return nil }); !damagedB(err) {
						t.Errorf("EachDoc of place %d on ordinal %d: %v, want a ChecksumError naming document \"b\"", d.Place, b, err)
					}
					return nil
				})
			})
		})
	}
}

// readDamagedRecord reads document b's damaged record, by id and in a walk
// of every record: the read by id must refuse it as damage.
func readDamagedRecord(r store.Reader, _ int64) error {
	if _, err := r.Doc("b"); err == nil {
		return errors.New("Doc read the damaged record")
	} else if !damagedB(err) {
		return err
	}
	return r.EachDoc(false, func(*store.Doc) error { return nil })
}

// TestClearPlaceMendsAPlaceNoWriteStores: a record whose checksum matches
// but whose place is impossible is listed by Damage as a place, not as a
// damaged record, and ClearPlace stores no place for it and its checksum
// again, keeping every other field: Check is clean after, and the document
// reads as it was written (regression: repair removed such a document). A
// record that does not match its checksum is refused and left as it is.
func TestClearPlaceMendsAPlaceNoWriteStores(t *testing.T) {
	for _, tc := range []struct {
		name  string
		place func(ord int64) int64
		sum   bool // the checksum written for the record with its place
	}{
		{"zero", func(int64) int64 { return 0 }, true},
		{"negative", func(int64) int64 { return -1 }, true},
		{"its own ordinal", func(ord int64) int64 { return ord }, true},
		{"above its ordinal", func(ord int64) int64 { return ord + 97 }, true},
		{"record damaged too", func(ord int64) int64 { return ord + 97 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachEngine(t, func(t *testing.T, dsn string) {
				st := open(t, dsn)
				b := checksumFixture(t, st)
				var was store.Doc
				view(t, st, func(r store.Reader) (err error) {
					was, err = r.Doc("b")
					return err
				})
				d := was
				d.Place = tc.place(b)
				if !tc.sum {
					d.Title = "another title"
				}
				storetest.Exec(t, dsn, fmt.Sprintf(`UPDATE docs SET place = %d, doc_crc = %d WHERE id = 'b'`, d.Place, store.RecordSum(&d)))
				err := st.Update(t.Context(), func(w store.Writer) error {
					dmg, err := w.Damage()
					if err != nil {
						return err
					}
					if len(dmg.Docs) != 1 || dmg.Docs[0].Ord != b || dmg.Docs[0].Record != !tc.sum || (dmg.Docs[0].Place != "") != tc.sum {
						t.Errorf("Damage: %+v, want document %d with its place (%v) or its record (%v) damaged", dmg.Docs, b, tc.sum, !tc.sum)
					}
					return w.ClearPlace(b)
				})
				if !tc.sum {
					if !damagedB(err) {
						t.Errorf("ClearPlace of a damaged record: %v, want a ChecksumError naming document \"b\"", err)
					}
					if faults, err := st.Check(t.Context()); err != nil || faults.Total != 1 {
						t.Errorf("check after the refused ClearPlace: %q %v, want the damaged record still", faults.List, err)
					}
					return
				}
				if err != nil {
					t.Fatalf("ClearPlace of place %d on ordinal %d: %v", d.Place, b, err)
				}
				if faults, err := st.Check(t.Context()); err != nil || faults.Total != 0 {
					t.Errorf("check after ClearPlace: %q %v, want none", faults.List, err)
				}
				view(t, st, func(r store.Reader) error {
					now, err := r.Doc("b")
					if err != nil || !reflect.DeepEqual(now, was) {
						t.Errorf("document b after ClearPlace: %+v %v, want as written: %+v", now, err, was)
					}
					return nil
				})
			})
		})
	}
}
