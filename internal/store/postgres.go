package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// postgresMigrations build the PostgreSQL schema, step for step the
// SQLite one's (see sqliteMigrations). Version 3's search index is a table
// of tsvectors (the title weighted above the text, of which the first
// 100,000 characters count) with a GIN index, kept in step by triggers. Documents, sketches and marks are
// keyed by ordinal, so a distributed deployment (Citus) can shard them by
// it; see docs/index.md.
var postgresMigrations = []string{`
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (0);
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
INSERT INTO counters VALUES ('ord', 0), ('removal', 0), ('cluster', 0);
CREATE TABLE docs (
	ord BIGINT PRIMARY KEY,
	id TEXT NOT NULL UNIQUE,
	source TEXT NOT NULL,
	url TEXT NOT NULL,
	title TEXT NOT NULL,
	date BIGINT,
	added BIGINT NOT NULL,
	lang TEXT NOT NULL,
	hash BIGINT NOT NULL,
	length INTEGER NOT NULL,
	skip TEXT NOT NULL,
	cluster BIGINT,
	sketch BYTEA
);
CREATE INDEX docs_cluster ON docs (cluster) WHERE cluster IS NOT NULL;
CREATE TABLE texts (ord BIGINT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE sketch_detail (ord BIGINT PRIMARY KEY, data BYTEA NOT NULL);
CREATE TABLE marks (
	a BIGINT NOT NULL,
	b BIGINT NOT NULL,
	method TEXT NOT NULL,
	score DOUBLE PRECISION NOT NULL,
	label TEXT NOT NULL,
	evidence TEXT NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (b, a, method)
);
CREATE INDEX marks_a ON marks (a);
CREATE TABLE removals (seq BIGINT PRIMARY KEY, ord BIGINT NOT NULL, data BYTEA)
`, `
CREATE TABLE feeds (
	id BIGINT PRIMARY KEY,
	url TEXT NOT NULL UNIQUE,
	config TEXT NOT NULL,
	state TEXT NOT NULL,
	next_poll BIGINT NOT NULL
);
CREATE TABLE feed_items (
	feed BIGINT NOT NULL,
	item TEXT NOT NULL,
	seen BIGINT NOT NULL,
	outcome TEXT NOT NULL,
	doc TEXT NOT NULL,
	lang TEXT NOT NULL,
	tries BIGINT NOT NULL,
	detail TEXT NOT NULL,
	PRIMARY KEY (feed, item)
);
CREATE TABLE exact (key BIGINT PRIMARY KEY, ord BIGINT NOT NULL);
INSERT INTO counters VALUES ('feed', 0)
`, `
CREATE TABLE search (ord BIGINT PRIMARY KEY, doc tsvector NOT NULL);
INSERT INTO search SELECT d.ord, setweight(to_tsvector('simple', d.title), 'A') ||
	setweight(to_tsvector('simple', left(COALESCE(t.text, ''), 100000)), 'B') FROM docs d LEFT JOIN texts t ON t.ord = d.ord;
CREATE INDEX search_doc ON search USING gin (doc);
CREATE FUNCTION search_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search VALUES (NEW.ord,
	setweight(to_tsvector('simple', NEW.title), 'A') || setweight(to_tsvector('simple',
	left(COALESCE((SELECT text FROM texts WHERE ord = NEW.ord), ''), 100000)), 'B')); RETURN NULL; END $$;
CREATE FUNCTION search_delete() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM search WHERE ord = OLD.ord; RETURN NULL; END $$;
CREATE TRIGGER docs_search_insert AFTER INSERT ON docs FOR EACH ROW EXECUTE FUNCTION search_insert();
CREATE TRIGGER docs_search_delete AFTER DELETE ON docs FOR EACH ROW EXECUTE FUNCTION search_delete()
`, `
CREATE INDEX docs_source ON docs (source, ord)
`, `
ALTER TABLE docs ADD COLUMN sketch_crc INTEGER;
ALTER TABLE sketch_detail ADD COLUMN crc INTEGER;
ALTER TABLE texts ADD COLUMN crc INTEGER;
ALTER TABLE marks ADD COLUMN crc INTEGER;
ALTER TABLE removals ADD COLUMN crc INTEGER
`, `
CREATE INDEX feed_items_doc ON feed_items (doc)
`, `
CREATE OR REPLACE FUNCTION search_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search VALUES (NEW.ord,
	setweight(to_tsvector('simple', translate(NEW.title, '<>&', '   ')), 'A') || setweight(to_tsvector('simple',
	translate(left(COALESCE((SELECT text FROM texts WHERE ord = NEW.ord), ''), 100000), '<>&', '   ')), 'B')); RETURN NULL; END $$;
UPDATE search s SET doc = setweight(to_tsvector('simple', translate(d.title, '<>&', '   ')), 'A') ||
	setweight(to_tsvector('simple', translate(left(COALESCE(t.text, ''), 100000), '<>&', '   ')), 'B')
	FROM docs d LEFT JOIN texts t ON t.ord = d.ord WHERE s.ord = d.ord
`, `
CREATE TABLE host_pauses (host TEXT PRIMARY KEY, not_before BIGINT NOT NULL)
`, `
ALTER TABLE docs ADD COLUMN doc_crc INTEGER
`, `
CREATE OR REPLACE FUNCTION search_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO search VALUES (NEW.ord,
	setweight(to_tsvector('simple', translate(NEW.title, ` + postgresPunct + `)), 'A') || setweight(to_tsvector('simple',
	translate(left(COALESCE((SELECT text FROM texts WHERE ord = NEW.ord), ''), 100000), ` + postgresPunct + `)), 'B')); RETURN NULL; END $$;
UPDATE search s SET doc = setweight(to_tsvector('simple', translate(d.title, ` + postgresPunct + `)), 'A') ||
	setweight(to_tsvector('simple', translate(left(COALESCE(t.text, ''), 100000), ` + postgresPunct + `)), 'B')
	FROM docs d LEFT JOIN texts t ON t.ord = d.ord WHERE s.ord = d.ord
`, claimedURLKeys, `
ALTER TABLE docs ADD COLUMN place BIGINT
`}

// postgresPunct are the arguments of translate() that make every ASCII
// punctuation mark a space in PostgreSQL's search, in the documents (from
// schema version 10) and in the query (postgresMatch), as SQLite's
// tokenizer reads them: its parser keeps a path, an e-mail address, a
// host or a number with its sign or decimals whole ("bank/north",
// "jane.doe@reuters.com", "-1.5") and leaves out the words inside them,
// and reads "<...>" as a tag and "&amp;" as an entity. The question mark
// is chr(63), which no rebinding reads as a parameter, and the backslash
// chr(92), read alike whatever standard_conforming_strings says.
const postgresPunct = `'!"#$%&''()*+,-./:;<=>@[]^_` + "`" + `{|}~' || chr(63) || chr(92), '                                '`

// postgresMaxConns is how many connections a store keeps to its server
// at most.
const postgresMaxConns = 8

// postgresLock is the advisory lock every writer of one index takes, keyed
// by the schema the index lives in, so several indexes can share a
// database in schemas of their own (search_path in the URL). Its wait for
// another session's lock is bounded by a lock_timeout of its own (%d
// milliseconds), the transaction's setting before it kept aside and put
// back at once, whether it came from the server, the role, the URL or a
// SET of the session (a pooler's): a write's other statements wait as that
// setting says (a schema upgrade behind a long read goes on waiting).
const postgresLock = `SELECT set_config('neardup.lock_timeout', current_setting('lock_timeout'), true), set_config('lock_timeout', '%d', true); ` +
	`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.neardup')); ` +
	`SELECT set_config('lock_timeout', current_setting('neardup.lock_timeout'), true)`

var postgresDialect = dialect{
	name:       "postgres",
	migrations: postgresMigrations,
	rebind:     rebindDollar,
	lock: func(ctx context.Context, tx *sql.Tx, wait time.Duration) error {
		_, err := tx.ExecContext(ctx, fmt.Sprintf(postgresLock, min(max(wait.Milliseconds(), 1), math.MaxInt32)))
		return err
	},
	mapErr: postgresErr,
	check:  func(context.Context, *sql.DB) ([]string, error) { return nil, nil },
	tables: func(ctx context.Context, db *sql.DB) ([]string, error) {
		return stringRows(ctx, db, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`)
	},
	hasVersionTable: `SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_version'`,
	match:           postgresMatch,
	search:          postgresSearch,
	searchCount:     postgresSearchCount,
	searchFloor:     postgresSearchFloor,
}

func openPostgres(ctx context.Context, dsn string, o Options) (Store, error) {
	drv, err := driver("postgres")
	if err != nil {
		return nil, err
	}
	db, where, err := drv.Open(dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(postgresMaxConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, &NamedError{Name: "PostgreSQL at " + where, Err: fmt.Errorf("connecting to the server: %w", connectFailure(ctx, err))}
	}
	s := &sqlStore{name: "PostgreSQL at " + where, db: db, d: &postgresDialect, readOnly: o.ReadOnly, accept: o.Accept, existing: o.Existing,
		lockWait: time.Duration(busyMillis(o)) * time.Millisecond}
	if err := checkSchema(ctx, db); err != nil {
		db.Close()
		return nil, named(s.name, s.wrap("opening the index", err))
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, named(s.name, err)
	}
	return s, nil
}

// checkSchema refuses a database whose search_path names no schema that
// exists (a search_path in the URL with a schema's name mistyped, or one
// not created yet), or only schemas the user may not use, where the index's
// tables would have nowhere to be. PostgreSQL's current_schema() is NULL in
// both cases; pg_namespace tells them apart.
func checkSchema(ctx context.Context, db *sql.DB) error {
	var schema sql.NullString
	var path, user string
	if err := db.QueryRowContext(ctx, `SELECT current_schema(), current_setting('search_path'), current_user`).Scan(&schema, &path, &user); err != nil {
		return err
	}
	switch {
	case schema.Valid:
		return nil
	case strings.TrimSpace(path) == "" || path == `""`:
		return errors.New("the search_path is empty: name the index's schema in the URL (search_path=)")
	}
	var name, grant string
	err := db.QueryRowContext(ctx, `SELECT n.nspname, 'GRANT USAGE ON SCHEMA ' || quote_ident(n.nspname) || ' TO ' || quote_ident(current_user)
		FROM unnest($1::text[]) WITH ORDINALITY AS p(name, i) JOIN pg_namespace n ON n.nspname = p.name
		WHERE NOT has_schema_privilege(n.oid, 'USAGE') ORDER BY p.i LIMIT 1`,
		searchPathNames(path, user)).Scan(&name, &grant)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("no schema that the search_path (%s) names exists: create it (CREATE SCHEMA), or name another in the URL (search_path=)", path)
	case err != nil:
		return err
	}
	return fmt.Errorf("the user %s lacks USAGE on the schema %s, which the search_path (%s) names: %s (and CREATE too, for an index not made yet), or name another schema in the URL (search_path=)", user, name, path, grant)
}

// searchPathNames returns the schemas a search_path setting names, in
// order, as PostgreSQL reads it: names separated by commas, unquoted ones
// folded to lower case (ASCII letters only), "$user" the user's own.
func searchPathNames(path, user string) []string {
	var names []string
	for rest := strings.TrimSpace(path); rest != ""; {
		var name string
		if rest[0] == '"' {
			var b strings.Builder
			i := 1
			for ; i < len(rest); i++ {
				if rest[i] == '"' {
					if i+1 < len(rest) && rest[i+1] == '"' {
						b.WriteByte('"')
						i++
						continue
					}
					break
				}
				b.WriteByte(rest[i])
			}
			name, rest = b.String(), rest[min(i+1, len(rest)):]
		} else {
			end := strings.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			name, rest = strings.Map(asciiLower, strings.TrimSpace(rest[:end])), rest[end:]
		}
		if name == "$user" {
			name = user
		}
		names = append(names, name)
		rest = strings.TrimSpace(rest)
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ","))
	}
	return names
}

func asciiLower(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

// rebindDollar rewrites ? placeholders as $1, $2, ...: the queries of this
// package hold no ? inside strings.
func rebindDollar(q string) string {
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// postgresErr maps PostgreSQL error codes to the package's errors.
func postgresErr(err error) error {
	switch errCode("postgres", err) {
	case "53100":
		return ErrDiskFull
	case "25006", "42501":
		return ErrReadOnly
	case "55P03":
		return ErrLocked
	case "XX001", "XX002":
		return ErrCorrupt
	}
	return nil
}
