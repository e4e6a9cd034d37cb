package store

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// The latest documents of one source are read through the index on
// sources, newest first, not by scanning every document.
func TestLatestOfASourceUsesItsIndex(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "news.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, m := range sqliteMigrations {
		for _, stmt := range splitStatements(m) {
			if _, err := db.Exec(stmt); err != nil {
				t.Fatal(err)
			}
		}
	}
	q, args := latestQuery(DocFilter{Source: "wire"})
	rows, err := db.Query(`EXPLAIN QUERY PLAN `+q, append(args, 20, 0)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	got := strings.Join(plan, "; ")
	if !strings.Contains(got, "USING INDEX docs_source") || strings.Contains(got, "TEMP B-TREE") {
		t.Errorf("plan %q: want the rows of docs_source in their order", got)
	}
}
