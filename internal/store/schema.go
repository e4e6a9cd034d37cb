package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// schemaObject is a table, index, view or trigger of a SQLite schema.
type schemaObject struct {
	kind, sql string
}

// sqliteSchema is the schema the migrations make, read from a database in
// memory that they ran in, once.
var sqliteSchema struct {
	once    sync.Once
	objects map[string]schemaObject
	err     error
}

// wantSQLiteSchema returns the objects of the schema the migrations make,
// by name. They are built once, in memory, whatever a caller's context
// (whose end would keep the error for every later caller).
func wantSQLiteSchema() (map[string]schemaObject, error) {
	sqliteSchema.once.Do(func() {
		sqliteSchema.objects, sqliteSchema.err = buildSQLiteSchema(context.Background())
	})
	return sqliteSchema.objects, sqliteSchema.err
}

// buildSQLiteSchema runs the migrations in a database in memory and
// returns the objects of its schema.
func buildSQLiteSchema(ctx context.Context) (map[string]schemaObject, error) {
	drv, err := driver("sqlite")
	if err != nil {
		return nil, err
	}
	db, _, err := drv.Open("file:neardup-schema?mode=memory")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one database: each connection's would be its own
	for _, m := range sqliteMigrations {
		for _, stmt := range splitStatements(m) {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				return nil, fmt.Errorf("store: building the schema: %w", err)
			}
		}
	}
	return schemaObjects(ctx, db)
}

// schemaObjects returns the objects of the schema of the SQLite database
// db, by name, leaving out SQLite's own.
func schemaObjects(ctx context.Context, db interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}) (map[string]schemaObject, error) {
	rows, err := db.QueryContext(ctx, `SELECT type, name, COALESCE(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]schemaObject{}
	for rows.Next() {
		var name string
		var o schemaObject
		if err := rows.Scan(&o.kind, &name, &o.sql); err != nil {
			return nil, err
		}
		out[name] = o
	}
	return out, rows.Err()
}

// schemaFault is a fault of a SQLite index's schema: line says it, with
// the SQL found; short names the object and what is wrong with it.
type schemaFault struct {
	line, short string
}

// sqliteSchemaFaults compares the schema of the SQLite index db, of the
// current schema version, with the one the migrations make, and returns
// its faults, the tables first: each table, index, view or trigger that is
// missing, or whose SQL is not the one neardup wrote (a byte of the schema
// changed). A dropped table or a changed schema is consistent to SQLite's
// integrity check, and fails every statement that reads it with a "SQL
// logic error". The tables FTS5 makes for the full-text index are
// compared by their names, their SQL being the SQLite version's. Objects
// the index holds beyond neardup's are not faults.
func sqliteSchemaFaults(ctx context.Context, db interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}) ([]schemaFault, error) {
	want, err := wantSQLiteSchema()
	if err != nil {
		return nil, err
	}
	have, err := schemaObjects(ctx, db)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	kinds := map[string]int{"table": 0, "view": 1, "index": 2, "trigger": 3}
	sort.Slice(names, func(i, j int) bool {
		a, b := want[names[i]], want[names[j]]
		return kinds[a.kind] < kinds[b.kind] || a.kind == b.kind && names[i] < names[j]
	})
	var faults []schemaFault
	for _, name := range names {
		w := want[name]
		h, ok := have[name]
		switch {
		case !ok:
			short := fmt.Sprintf("%s %s is missing", w.kind, name)
			faults = append(faults, schemaFault{"schema: " + short, short})
		case h.kind != w.kind:
			short := fmt.Sprintf("%s is a %s, where neardup made a %s", name, h.kind, w.kind)
			faults = append(faults, schemaFault{"schema: " + short, short})
		case h.sql != w.sql && !strings.HasPrefix(w.sql, "CREATE TABLE '"): // FTS5's quote their names
			short := fmt.Sprintf("%s %s is changed", w.kind, name)
			faults = append(faults, schemaFault{fmt.Sprintf("schema: %s %s is not as neardup made it: %q", w.kind, name, h.sql), short})
		}
	}
	return faults, nil
}

// schemaDamage returns, for a SQLite store, the error err of a statement
// (a "SQL logic error" SQLite does not map: no such table, an unrecognized
// option of the full-text index) as one of damage, ErrCorrupt, when the
// store's schema is not the one neardup made; nil when it is, or when it
// cannot be read.
func (s *sqlStore) schemaDamage(err error) error {
	if s.d.name != "sqlite" || errCode("sqlite", err) == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), schemaWait)
	defer cancel()
	var faults []schemaFault
	read := func(db *sql.DB) (err error) {
		faults, err = sqliteSchemaFaults(ctx, db)
		return err
	}
	var e error
	if s.file != nil {
		e = s.file.read(ctx, read)
	} else {
		e = read(s.db)
	}
	if e != nil || len(faults) == 0 {
		return nil
	}
	what := make([]string, 0, 3)
	for i, f := range faults {
		if i == 2 {
			what = append(what, fmt.Sprintf("%d more", len(faults)-i))
			break
		}
		what = append(what, f.short)
	}
	return fmt.Errorf("%w: its schema is not as neardup made it (%s); neardup index verify lists its faults",
		ErrCorrupt, strings.Join(what, ", "))
}

// schemaWait bounds the read of the schema that schemaDamage makes.
const schemaWait = 5 * time.Second
