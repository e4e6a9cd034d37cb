package store

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"strings"
	"testing"
	"time"
)

// TestCheckURL: a URL whose scheme is not PostgreSQL's, and a PostgreSQL
// URL whose password holds an unescaped @, are refused before anything is
// connected to, never showing the password; PostgreSQL's schemes are read
// in any case; a path is left to SQLite. Regressions: POSTGRES:// and
// postgresql+psycopg2:// URLs were SQLite paths, the password printed in
// the error; "hunter@TopSecret99" made the driver look up the host
// "TopSecret99@127.0.0.1", printed in the error.
func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		name, dsn string
		postgres  bool
		refused   string // what the message says, "" for none
	}{
		{"postgres", "postgres://ann:S3cretPW@db.example/news", true, ""},
		{"postgresql", "postgresql://ann@db.example/news", true, ""},
		{"capitals", "POSTGRES://ann:S3cretPW@db.example/news", true, ""},
		{"mixed case", "PostgreSQL://ann:S3cretPW@db.example/news", true, ""},
		{"encoded @", "postgres://ann:hunter%40S3cretPW@db.example/news", true, ""},
		{"@ in the query", "postgres://ann@db.example/news?application_name=a@b", true, ""},
		{"psycopg2", "postgresql+psycopg2://ann:S3cretPW@db.example/news", false, `"postgresql+psycopg2://" is not`},
		{"typo", "postgress://ann:S3cretPW@db.example/news", false, `"postgress://" is not`},
		{"pg", "pg://ann:S3cretPW@db.example/news", false, `"pg://" is not`},
		{"file URI", "file:///tmp/S3cretPW.db", false, `"file://" is not`},
		{"@ in the password", "postgres://ann:hunter@S3cretPW@db.example:5432/news", true, "write it as %40"},
		{"@ in the password, capitals", "POSTGRES://ann:hunter@S3cretPW@db.example/news", true, "write it as %40"},
		// Regressions: the driver, as libpq, reads the user name and
		// password up to the first @ before the first "/", a "?" and
		// the query after it included: the tail of the password was
		// looked up and printed as the host.
		{"@ in the password after a ?", "postgres://neardup:p?s@S3cretPW@127.0.0.1:55432/r3", true, "write it as %40"},
		{"@ in the query, no path", "postgres://127.0.0.1:55432?user=neardup&password=p@S3cretPW&sslmode=disable", true, "an @ after a ?"},
		{"? in the password", "postgres://neardup:p?S3cretPW@127.0.0.1:55432/r3", true, "an @ after a ?"},
		{"# in the password", "postgres://neardup:p#S3cretPW@127.0.0.1:55432/r3", true, ""},
		// Regressions: a mistyped scheme was a SQLite path, the password
		// printed in the error.
		{"one slash", "postgres:/neardup:S3cretPW@db.example/r3", false, "mistyped PostgreSQL URL"},
		{"no slash", "postgresql:neardup:S3cretPW@db.example/r3", false, "mistyped PostgreSQL URL"},
		{"no slash, capitals", "PostgreSQL:neardup:S3cretPW@db.example/r3", false, "mistyped PostgreSQL URL"},
		{"path", "news.db", false, ""},
		{"path starting postgres", "postgres.db", false, ""},
		{"path with a colon", "./a:b.db", false, ""},
		{"path like a URL, not one", "./x/postgres://S3cretPW", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsPostgres(tc.dsn); got != tc.postgres {
				t.Errorf("IsPostgres(%q) = %v, want %v", tc.dsn, got, tc.postgres)
			}
			err := CheckURL(tc.dsn)
			if tc.refused == "" {
				if err != nil {
					t.Errorf("CheckURL(%q): %v", tc.dsn, err)
				}
				return
			}
			if !errors.As(err, new(*URLError)) || !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("CheckURL(%q) = %v, want a *URLError saying %q", tc.dsn, err, tc.refused)
			}
			if strings.Contains(err.Error(), "S3cretPW") {
				t.Errorf("CheckURL(%q) shows the password: %v", tc.dsn, err)
			}
			// Open refuses it before connecting, or making a file.
			if st, err := Open(t.Context(), tc.dsn, DefaultOptions()); err == nil || !errors.As(err, new(*URLError)) {
				if st != nil {
					st.Close()
				}
				t.Errorf("Open(%q) = %v, want the *URLError", tc.dsn, err)
			}
		})
	}
}

// The connection's wait is bounded unless the URL sets it: by
// postgresConnectTimeout, or by connect_timeout (0 waiting for ever, as
// libpq reads it).
func TestPostgresConnectTimeout(t *testing.T) {
	t.Setenv("PGCONNECT_TIMEOUT", "")
	for _, tc := range []struct {
		query string
		want  time.Duration
	}{
		{"", postgresConnectTimeout},
		{"&connect_timeout=3", 3 * time.Second},
		{"&connect_timeout=0", 0},
	} {
		cfg, err := postgresConfig("POSTGRES://ann@db.example/news?sslmode=disable" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.ConnectTimeout != tc.want {
			t.Errorf("%q: connect timeout %v, want %v", tc.query, cfg.ConnectTimeout, tc.want)
		}
	}
}

// A server that takes the connection and never answers is an error that
// names it once the connect timeout has passed. Regression: Open waited
// for ever (neardup index stats hung; serve never started).
func TestOpenSilentServerTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn // taken, never answered
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	defer func(d time.Duration) { postgresConnectTimeout = d }(postgresConnectTimeout)
	postgresConnectTimeout = 200 * time.Millisecond
	t.Setenv("PGCONNECT_TIMEOUT", "")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a generous bound: the test fails, not hangs
	defer cancel()
	st, err := Open(ctx, "postgres://ann@"+ln.Addr().String()+"/news?sslmode=disable", DefaultOptions())
	if err == nil {
		st.Close()
		t.Fatal("Open of a silent server: no error")
	}
	if ctx.Err() != nil {
		t.Fatalf("Open waited past a minute: %v", err)
	}
	want := "PostgreSQL at " + ln.Addr().String() + "/news: connecting to the server: no answer within 200ms"
	if !strings.Contains(err.Error(), want) || !Unreachable(err) {
		t.Errorf("Open: %v\nwant it to say %q, and Unreachable", err, want)
	}
}

// A failed connection is said on one line, each reason once. Regression:
// the driver's reasons were joined by line ends, which the command line
// printed as a literal \n\t.
func TestOpenConnectFailureOneLine(t *testing.T) {
	var ports []string
	for range 2 { // ports nothing listens on
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, ln.Addr().String())
		ln.Close()
	}
	for _, dsn := range []string{
		"postgres://ann@" + strings.Join(ports, ",") + "/news?sslmode=disable&connect_timeout=30",
	} {
		st, err := Open(t.Context(), dsn, DefaultOptions())
		if err == nil {
			st.Close()
			t.Fatalf("Open(%q): no error", dsn)
		}
		if msg := err.Error(); strings.ContainsAny(msg, "\n\t") || !strings.HasPrefix(msg, "store: PostgreSQL at ") || !strings.Contains(msg, ": connecting to the server: ") || !Unreachable(err) {
			t.Errorf("Open(%q): %q, want one line naming the server, Unreachable", dsn, msg)
		}
	}
}

// A TLS file the URL names that cannot be read is said so, naming the
// file, and is no missing index. Regression: "cannot parse `postgres://…`:
// failed to configure TLS (unable to read CA file: …)", which wrapped
// fs.ErrNotExist, and the command line said index add would create it.
func TestOpenMissingTLSFile(t *testing.T) {
	missing := t.TempDir() + "/ca.pem"
	st, err := Open(t.Context(), "postgres://ann:S3cretPW@127.0.0.1:1/news?sslmode=verify-full&sslrootcert="+missing, DefaultOptions())
	if err == nil {
		st.Close()
		t.Fatal("Open: no error")
	}
	msg := err.Error()
	want := "store: PostgreSQL at 127.0.0.1:1/news: cannot read the TLS file " + missing + " (sslrootcert in the URL): "
	if !strings.HasPrefix(msg, want) || strings.Contains(msg, "S3cretPW") || strings.Contains(msg, "cannot parse") || Unreachable(err) {
		t.Errorf("Open: %q, want it to start %q", msg, want)
	}
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open: %q wraps fs.ErrNotExist, which reads as a missing index", msg)
	}
}

// A URL the driver cannot read is said without the URL, whose password
// the driver hides only as well as it can tell it apart.
func TestOpenUnreadableURLHidesIt(t *testing.T) {
	st, err := Open(t.Context(), "postgres://ann:S3cretPW@db.example:port/news", DefaultOptions())
	if err == nil {
		st.Close()
		t.Fatal("Open: no error")
	}
	if msg := err.Error(); strings.Contains(msg, "S3cretPW") || strings.Contains(msg, "postgres://") || !strings.Contains(msg, "URL cannot be read") {
		t.Errorf("Open: %q", msg)
	}
}

// Name names a PostgreSQL index as messages do, with its schema, never
// the password; a SQLite file by its path.
func TestName(t *testing.T) {
	for dsn, want := range map[string]string{
		"news.db": "news.db",
		"postgres://ann:S3cretPW@db.example:5433/news?sslmode=disable&search_path=wire":        "PostgreSQL at db.example:5433/news, schema wire",
		"POSTGRES://ann@db.example/news?sslmode=disable&password=S3cretPW&search_path=wire":    "PostgreSQL at db.example:5432/news, schema wire",
		"postgres://ann@db.example/news?sslmode=verify-full&sslrootcert=/nonexistent/S3cretPW": "PostgreSQL at db.example:5432/news",
		"postgres://ann:hunter@S3cretPW@db.example/news":                                       "PostgreSQL at (a URL that cannot be read)",
		"postgres://[::1]:55432/news?sslmode=disable":                                          "PostgreSQL at [::1]:55432/news",
		// Regressions: the tail of a password was named as the server.
		"postgres://neardup:p?s@S3cretPW@127.0.0.1:55432/r3":                                        "PostgreSQL at (a URL that cannot be read)",
		"postgres://127.0.0.1:55432?user=neardup&password=p@S3cretPW&sslmode=disable":               "PostgreSQL at (a URL that cannot be read)",
		"postgres://ann:1234#S3cretPW@db.example/news?sslmode=verify-full&sslrootcert=/nonexistent": "PostgreSQL at db.example:5432/news",
	} {
		if got := Name(dsn); got != want {
			t.Errorf("Name(%q) = %q, want %q", dsn, got, want)
		}
	}
}
