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
// path, and a PostgreSQL URL whose user name or password holds an
// unescaped @, which the driver would read as the end of the password
// and send the rest to a name server as the host. It returns nil for a
// path, which holds no "scheme://". Open checks every DSN so; its error
// is a *URLError.
func CheckURL(dsn string) error {
	scheme, rest, ok := splitScheme(dsn)
	switch {
	case !ok:
		return nil
	case !postgresScheme(scheme):
		return &URLError{fmt.Sprintf("%q is not a PostgreSQL URL's scheme: write postgres:// or postgresql:// "+
			"(a SQLite index is named by its file's path)", scheme+"://")}
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if strings.Count(rest, "@") > 1 {
		return &URLError{"the PostgreSQL URL's user name or password holds an @: write it as %40 " +
			"(postgres://user:p%40ss@host/db for the password p@ss)"}
	}
	return nil
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

// urlWhere returns the server and database a PostgreSQL URL names, read
// by net/url, for a URL the driver cannot read (a TLS file missing); ok
// is false when net/url cannot read it either.
func urlWhere(dsn string) (where string, ok bool) {
	u, err := url.Parse(lowerScheme(dsn))
	if err != nil || u.Host == "" {
		return "", false
	}
	host := u.Host
	if u.Port() == "" && !strings.Contains(host, ",") {
		host += ":5432"
	}
	return host + u.Path, true
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
// which it cannot read, naming the server and database when net/url
// reads them, never the URL, which the driver shows with its password
// hidden only as well as it can tell it apart: a TLS file that cannot be
// read is named as such (not wrapping fs.ErrNotExist, which would say the
// index is missing).
func parseError(dsn string, err error) error {
	where, ok := urlWhere(dsn)
	if !ok {
		where = "(a URL that cannot be read)"
	}
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return fmt.Errorf("store: PostgreSQL at %s: %w", where, err)
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
		return fmt.Errorf("store: PostgreSQL at %s: cannot read the TLS file %s (%s in the URL): %v", where, path.Path, param, path.Err)
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
	return fmt.Errorf("store: PostgreSQL at %s: the URL cannot be read: %s", where, msg)
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
