package store

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// searchPathNames reads a search_path as PostgreSQL does.
func TestSearchPathNames(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		want       []string
	}{
		{"default", `"$user", public`, []string{"ann", "public"}},
		{"one", "news", []string{"news"}},
		{"unquoted folded", " News , Wire2 ", []string{"news", "wire2"}},
		{"quoted kept", `"News", "a,b", "say ""hi"""`, []string{"News", "a,b", `say "hi"`}},
		{"unquoted user", "$user", []string{"ann"}},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, searchPathNames(tc.path, "ann")); diff != "" {
				t.Errorf("searchPathNames(%q) (-want +got):\n%s", tc.path, diff)
			}
		})
	}
}

// An index in PostgreSQL is named by its server, database and schema, as
// the URL's search_path gives it, never by the password. Regression:
// indexes in two schemas of one database were both "PostgreSQL at
// HOST/DB" in every message.
func TestPostgresNameGivesTheSchema(t *testing.T) {
	const base = "postgres://ann:hunter2@db.example:5433/news?sslmode=disable"
	for _, tc := range []struct{ name, query, want string }{
		{"no search_path", "", "db.example:5433/news"},
		{"one schema", "&search_path=wire", "db.example:5433/news, schema wire"},
		{"folded as PostgreSQL reads it", "&search_path=Wire", "db.example:5433/news, schema wire"},
		{"quoted", "&search_path=%22Wire%202%22", "db.example:5433/news, schema Wire 2"},
		{"the user's", "&search_path=$user", "db.example:5433/news, schema ann"},
		{"several", "&search_path=wire,public", "db.example:5433/news, search_path wire,public"},
		{"empty", "&search_path=", "db.example:5433/news"},
		{"password as a parameter", "&password=hunter2&search_path=wire", "db.example:5433/news, schema wire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, where, err := postgresOpen(base + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			if where != tc.want || strings.Contains(where, "hunter2") {
				t.Errorf("where %q, want %q", where, tc.want)
			}
		})
	}
}
