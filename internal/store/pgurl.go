package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// postgresConnectTimeout is how long connecting to a PostgreSQL server
// waits for it to answer, the TLS handshake and the login included, when
// neither the URL's connect_timeout (in seconds, 0 waiting for ever, as
// libpq reads it) nor $PGCONNECT_TIMEOUT sets the wait: a server that
// takes the connection and never answers (a stuck server, a port of
// something else) is an error that names it, not a wait without end.
// A variable for tests.
var postgresConnectTimeout = 10 * time.Second

// URLError is the error of an index named by a URL the store refuses
// before connecting to anything (see CheckURL): a mistake in how it is
// written, which its message says how to mend. It never holds the
// URL's password.
type URLError struct{ msg string }

func (e *URLError) Error() string { return "store: " + e.msg }

// CheckURL refuses an index named by a URL the store would misread,
// without connecting: one with a scheme other than postgres:// or
// postgresql:// (in any case), which would be taken for a SQLite file's
// path; a postgres: or postgresql: prefix without its "//", a mistyped
// URL that would be taken for one too; and a PostgreSQL URL the driver
// would read a password's part of as the server. The driver (as libpq)
// takes all before the first @ that comes before the first "/" for the
// user name and password, even a "?" and the query after it: a second @
// there, an unescaped @ of the password, or an @ after a "?" there (a
// URL without a path whose query holds an @, or a password holding a
// "?"), would send the rest to a name server as the host. It returns nil
// for a path, which holds no "scheme://". Open checks every DSN so; its
// error is a *URLError.
func CheckURL(dsn string) error {
	scheme, rest, ok := splitScheme(dsn)
	switch {
	case !ok && mistypedPostgres(dsn):
		return &URLError{"the index looks like a mistyped PostgreSQL URL: write postgres://user:password@host/db " +
			"(a SQLite index is named by its file's path: write ./postgres:… for a file so named)"}
	case !ok:
		return nil
	case !postgresScheme(scheme):
		return &URLError{fmt.Sprintf("%q is not a PostgreSQL URL's scheme: write postgres:// or postgresql:// "+
			"(a SQLite index is named by its file's path)", scheme+"://")}
	}
	if end := strings.IndexByte(rest, '/'); end >= 0 {
		rest = rest[:end]
	}
	switch at := strings.IndexByte(rest, '@'); {
	case strings.Count(rest, "@") > 1:
		return &URLError{"the PostgreSQL URL's user name or password holds an @: write it as %40 " +
			"(postgres://user:p%40ss@host/db for the password p@ss)"}
	case at >= 0 && strings.Contains(rest[:at], "?"):
		return &URLError{"the PostgreSQL URL has an @ after a ? and before any /, which the driver reads as the " +
			"end of a password: write an @ of the query as %40 and a ? of the password as %3F, or give the " +
			"database's path (postgres://host/db?password=p%40ss)"}
	}
	return nil
}

// mistypedPostgres reports whether dsn starts as a PostgreSQL URL, in any
// case, with fewer than the two slashes after its colon
// ("postgres:/user:pw@host/db", "postgresql:user:pw@host"): what SQLite
// would open as a file's path, showing its password in any error.
func mistypedPostgres(dsn string) bool {
	scheme, _, ok := strings.Cut(dsn, ":")
	return ok && postgresScheme(scheme) && !strings.HasPrefix(dsn[len(scheme)+1:], "//")
}

// userinfoEnd returns the index in rest, a PostgreSQL URL after its
// "://", of the @ that ends its user name and password as the driver
// reads it (libpq's rule: the first @ before the first "/"), or -1 for
// a URL without one.
func userinfoEnd(rest string) int {
	if i := strings.IndexAny(rest, "@/"); i >= 0 && rest[i] == '@' {
		return i
	}
	return -1
}

// splitScheme splits a URL's scheme (RFC 3986: a letter, then letters,
// digits, "+", "-" or ".") from what follows its "://"; ok is false for
// a string that starts with no such scheme.
func splitScheme(dsn string) (scheme, rest string, ok bool) {
	i := strings.Index(dsn, "://")
	if i <= 0 {
		return "", "", false
	}
	for j, c := range []byte(dsn[:i]) {
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (j == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return dsn[:i], dsn[i+3:], true
}

// postgresScheme reports whether scheme is PostgreSQL's, in any case.
func postgresScheme(scheme string) bool {
	return strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql")
}

// lowerScheme returns a PostgreSQL URL with its scheme in lower case, the
// only case the driver reads as a URL.
func lowerScheme(dsn string) string {
	scheme, rest, _ := splitScheme(dsn)
	return strings.ToLower(scheme) + "://" + rest
}

// Name returns how messages name the index at dsn: a SQLite file's path
// as given, or "PostgreSQL at" the server, the database and the schema
// of a PostgreSQL URL (see postgresWhere), never its password.
func Name(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	if CheckURL(dsn) != nil {
		return "PostgreSQL at (a URL that cannot be read)"
	}
	if cfg, err := postgresConfig(dsn); err == nil {
		return "PostgreSQL at " + postgresWhere(cfg)
	}
	if where, ok := urlWhere(dsn); ok {
		return "PostgreSQL at " + where
	}
	return "PostgreSQL at (a URL that cannot be read)"
}

// urlWhere returns the server and database a PostgreSQL URL names, for
// a URL the driver cannot read (a TLS file missing), read as the driver
// reads its parts (see userinfoEnd), so that no part of a password is
// taken for the server; ok is false when it names no server.
func urlWhere(dsn string) (where string, ok bool) {
	_, rest, _ := splitScheme(dsn)
	if at := userinfoEnd(rest); at >= 0 {
		rest = rest[at+1:]
	}
	end, bracket := len(rest), false
scan:
	for i, c := range []byte(rest) {
		switch {
		case c == '[' || c == ']':
			bracket = c == '['
		case !bracket && (c == '/' || c == '?'):
			end = i
			break scan
		}
	}
	host, rest := rest[:end], rest[end:]
	if host == "" {
		return "", false
	}
	if colon := strings.LastIndexByte(host, ':'); !strings.Contains(host, ",") && colon <= strings.LastIndexByte(host, ']') {
		host += ":5432"
	}
	db, _, _ := strings.Cut(rest, "?")
	if u, err := url.PathUnescape(db); err == nil {
		db = u
	}
	return host + db, true
}

// explicitTimeout reports whether dsn's connect_timeout or
// $PGCONNECT_TIMEOUT sets how long connecting waits.
func explicitTimeout(dsn string) bool {
	if os.Getenv("PGCONNECT_TIMEOUT") != "" {
		return true
	}
	u, err := url.Parse(lowerScheme(dsn))
	return err == nil && u.Query().Has("connect_timeout")
}

// parseError returns the driver's error err of the PostgreSQL URL dsn,
// which it cannot read, naming the server and database when urlWhere
// reads them (a *NamedError then), never the URL, which the driver shows
// with its password hidden only as well as it can tell it apart: a TLS
// file that cannot be read is named as such (not wrapping
// fs.ErrNotExist, which would say the index is missing).
func parseError(dsn string, err error) error {
	where, ok := urlWhere(dsn)
	if !ok {
		where = "(a URL that cannot be read)"
	}
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return &NamedError{Name: "PostgreSQL at " + where, Err: err}
	}
	var path *fs.PathError
	if errors.As(err, &path) {
		param := "sslcert"
		switch msg := err.Error(); {
		case strings.Contains(msg, "CA file"):
			param = "sslrootcert"
		case strings.Contains(msg, "sslkey"):
			param = "sslkey"
		}
		return &NamedError{Name: "PostgreSQL at " + where,
			Err: fmt.Errorf("cannot read the TLS file %s (%s in the URL): %v", path.Path, param, path.Err)}
	}
	msg := pe.Error()
	if i := strings.Index(msg, "`: "); strings.HasPrefix(msg, "cannot parse `") && i >= 0 {
		msg = msg[i+3:]
	}
	if inner := errors.Unwrap(pe); inner != nil {
		msg = strings.TrimSuffix(msg, " ("+inner.Error()+")")
		var ue *url.Error
		if errors.As(inner, &ue) {
			inner = ue.Err // net/url's error quotes the whole URL
		}
		msg += ": " + inner.Error()
	}
	if !ok {
		return fmt.Errorf("store: the PostgreSQL URL cannot be read: %s", msg)
	}
	return &NamedError{Name: "PostgreSQL at " + where, Err: fmt.Errorf("the URL cannot be read: %s", msg)}
}

// connectError is the error of a failed connection to a PostgreSQL
// server, on one line: the driver's joins the errors of several attempts
// (each address of the host) by line ends, often the same error twice.
type connectError struct {
	msg string
	err error
}

func (e *connectError) Error() string { return e.msg }
func (e *connectError) Unwrap() error { return e.err }

// connectFailure returns err, the failure of ctx's connection to a
// server, as a connectError that says what failed: the server that did
// not answer in time, or the driver's reasons on one line.
func connectFailure(ctx context.Context, err error) error {
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return &connectError{fmt.Sprintf("no answer within %s (the URL's connect_timeout sets the wait, in seconds)", ce.Config.ConnectTimeout), err}
	}
	var reasons []string
	if inner := errors.Unwrap(ce); inner != nil {
		for _, line := range strings.Split(inner.Error(), "\n") {
			if line = strings.TrimSpace(line); line != "" && !slices.ContainsFunc(reasons, func(r string) bool { return strings.Contains(r, line) }) {
				reasons = append(reasons, line)
			}
		}
	}
	return &connectError{strings.Join(reasons, "; "), err}
}
