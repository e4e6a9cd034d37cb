package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
)

// A PostgreSQL URL whose search_path names a schema that exists but that
// its user may not use is refused saying so, with the GRANT that lets it:
// the error said no schema the search_path names existed, and to create it.
func TestPostgresSchemaWithoutUsage(t *testing.T) {
	dsn := storetest.PostgresDSN(t) // a schema of the test's, made by the superuser: PUBLIC may not use it
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := u.Query().Get("search_path")
	role := fmt.Sprintf("test_nousage_%d", rand.Uint64()>>1)
	if err := superuser(fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD 'pw'", role)); err != nil {
		t.Skipf("%v (the test needs a superuser in $NEARDUP_TEST_POSTGRES)", err)
	}
	t.Cleanup(func() {
		if err := superuser("DROP OWNED BY "+role, "DROP ROLE "+role); err != nil {
			t.Error(err)
		}
	})
	u.User = url.UserPassword(role, "pw")
	q := u.Query()
	q.Del("user")
	q.Del("password")
	u.RawQuery = q.Encode()

	st, err := store.Open(t.Context(), u.String(), store.Options{})
	if err == nil {
		st.Close()
		t.Fatal("Open: no error")
	}
	for _, want := range []string{
		"the user " + role + " lacks USAGE on the schema " + schema,
		"GRANT USAGE ON SCHEMA " + schema + " TO " + role,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Open: %v\nwant %q in it", err, want)
		}
	}
	if strings.Contains(err.Error(), "no schema that the search_path") {
		t.Errorf("Open: %v\nsays the schema does not exist", err)
	}

	// The grant it names is enough.
	if err := superuser(fmt.Sprintf("GRANT USAGE, CREATE ON SCHEMA %s TO %s", schema, role)); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(t.Context(), u.String(), store.Options{})
	if err != nil {
		t.Fatalf("Open after the grant: %v", err)
	}
	st.Close()
}

// superuser runs statements as the user of $NEARDUP_TEST_POSTGRES.
func superuser(stmts ...string) error {
	db, err := sql.Open("pgx", os.Getenv("NEARDUP_TEST_POSTGRES"))
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// A connection to PostgreSQL lost under a read or a write (the server
// stopped, restarted or out of reach, here a proxy in front of it cut) is
// an error that names the server and database and says the connection was
// lost, never the password, and that Unreachable reports, so that the
// watcher waits it out. Regression: it was the driver's "unexpected EOF"
// alone, which named nothing and which the watcher took for a fault.
func TestLostConnectionNamesTheServer(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(st store.Store, p *proxy) error
	}{
		{"reading, cut under it", func(st store.Store, p *proxy) error {
			return st.View(context.Background(), func(r store.Reader) error {
				p.cut()
				_, _, err := r.Head()
				return err
			})
		}},
		{"writing, cut under it", func(st store.Store, p *proxy) error {
			return st.Update(context.Background(), func(w store.Writer) error {
				p.cut()
				_, err := w.Insert(doc("lost", 0), nil)
				return err
			})
		}},
		{"reading, cut before", func(st store.Store, p *proxy) error {
			p.cut()
			return st.View(context.Background(), func(r store.Reader) error {
				_, _, err := r.Head()
				return err
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(storetest.PostgresDSN(t))
			if err != nil {
				t.Fatal(err)
			}
			p := startProxy(t, u.Host)
			u.Host = p.ln.Addr().String()
			password, ok := u.User.Password()
			if !ok { // the test server trusts its users: a password given is not asked for
				password = "hunter2-secret"
				u.User = url.UserPassword(u.User.Username(), password)
			}
			st, err := store.Open(t.Context(), u.String(), store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			err = tc.run(st, p)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			want := "store: PostgreSQL at " + u.Host + u.Path + ", schema " + u.Query().Get("search_path") + ": the connection to the database server was lost while "
			if !strings.HasPrefix(msg, want) || !store.Unreachable(err) {
				t.Errorf("got %q (unreachable: %v), want it to start %q, unreachable", msg, store.Unreachable(err), want)
			}
			if strings.Contains(msg, password) {
				t.Errorf("%q shows the password", msg)
			}
		})
	}
}

// An EOF or a network error of the caller's own work inside a
// transaction (a client gone while an export streamed to it), with the
// server answering, is not a lost connection: it is returned as it is, not
// as ErrLost naming the server, and the store is not unreachable.
func TestCallersNetworkErrorIsNotALostConnection(t *testing.T) {
	st := open(t, storetest.PostgresDSN(t))
	gone := &net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}
	for name, run := range map[string]func(fn func() error) error{
		"reading": func(fn func() error) error {
			return st.View(t.Context(), func(store.Reader) error { return fn() })
		},
		"writing": func(fn func() error) error {
			return st.Update(t.Context(), func(store.Writer) error { return fn() })
		},
	} {
		for _, want := range []error{gone, io.EOF} {
			err := run(func() error { return want })
			if !errors.Is(err, want) || errors.Is(err, store.ErrLost) || strings.Contains(err.Error(), "was lost") || store.Unreachable(err) {
				t.Errorf("%s: the callback's %v came back as %v (unreachable: %v)", name, want, err, store.Unreachable(err))
			}
		}
	}
	// The same with every other connection of the pool held by reads under
	// way (a server streaming exports): the server is asked on the
	// failed read's own connection, released first, not taken for lost.
	release := make(chan struct{})
	var inside, done sync.WaitGroup
	for range store.PostgresMaxConns - 1 {
		inside.Add(1)
		done.Go(func() {
			st.View(t.Context(), func(store.Reader) error {
				inside.Done()
				<-release
				return nil
			})
		})
	}
	inside.Wait()
	err := st.View(t.Context(), func(r store.Reader) error {
		if _, _, err := r.Head(); err != nil { // the transaction holds its connection
			return err
		}
		return io.EOF
	})
	close(release)
	done.Wait()
	if !errors.Is(err, io.EOF) || errors.Is(err, store.ErrLost) {
		t.Errorf("with the pool busy, the callback's EOF came back as %v", err)
	}
}

// proxy forwards the TCP connections made to ln to a server until cut: a
// server out of reach, without stopping it.
type proxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	done  bool
}

// startProxy starts a proxy to the server at addr (host:port), cut when t
// ends.
func startProxy(t *testing.T, addr string) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			if !p.track(c, s) {
				return
			}
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return p
}

// track keeps conns to close when the proxy is cut; false, having closed
// them, when it is cut already.
func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		for _, c := range conns {
			c.Close()
		}
		return false
	}
	p.conns = append(p.conns, conns...)
	return true
}

// cut closes the listener and every connection forwarded.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
	p.ln.Close()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A write by a PostgreSQL user that may read the index but not write it
// fails naming the server and database, as a SQLite file the process may
// not write names the file. Regression: "writing to the index: store: the
// index cannot be written (… permission denied for table …)" named none.
func TestPostgresWriteWithoutRightsNamesTheIndex(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	schema := u.Query().Get("search_path")
	role := fmt.Sprintf("test_reader_%d", rand.Uint64()>>1)
	if err := superuser(fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD 'pw'", role)); err != nil {
		t.Skipf("%v (the test needs a superuser in $NEARDUP_TEST_POSTGRES)", err)
	}
	t.Cleanup(func() {
		if err := superuser("DROP OWNED BY "+role, "DROP ROLE "+role); err != nil {
			t.Error(err)
		}
	})
	if err := superuser(fmt.Sprintf("GRANT USAGE ON SCHEMA %s TO %s", schema, role),
		fmt.Sprintf("GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s", schema, role)); err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(role, "pw")
	q := u.Query()
	q.Del("user")
	q.Del("password")
	u.RawQuery = q.Encode()
	ro, err := store.Open(t.Context(), u.String(), store.Options{})
	if err != nil {
		t.Fatalf("Open by a reader: %v", err)
	}
	defer ro.Close()
	err = ro.Update(t.Context(), func(w store.Writer) error {
		_, err := w.Insert(doc("denied", 0), nil)
		return err
	})
	if !errors.Is(err, store.ErrReadOnly) || !strings.Contains(err.Error(), "PostgreSQL at "+u.Host) || strings.Contains(err.Error(), "pw") {
		t.Errorf("a write without rights: %v\nwant ErrReadOnly naming PostgreSQL at %s, without the password", err, u.Host)
	}
}

// A PostgreSQL writer waits for another session's writer lock as long as
// the busy timeout says, then fails with ErrLocked naming the index, as a
// SQLite writer does; it waited without end and without a word. The
// bound is the lock's alone: once it is taken, the transaction's other
// statements wait as the session's settings say (lock_timeout as it was),
// so that a write or a schema upgrade behind another session's long read
// goes on waiting.
func TestPostgresWriterWaitsForTheLockBounded(t *testing.T) {
	dsn := storetest.PostgresDSN(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	holder, err := store.Open(ctx, dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	waiter, err := store.Open(ctx, dsn, store.Options{BusyTimeoutMillis: 200})
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	holding, release, held := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		held <- holder.Update(ctx, func(w store.Writer) error {
			close(holding)
			<-release
			_, err := w.Insert(doc("held", 0), nil)
			return err
		})
	}()
	<-holding
	err = waiter.Update(ctx, func(w store.Writer) error {
		_, err := w.Insert(doc("waited", 0), nil)
		return err
	})
	close(release)
	if !errors.Is(err, store.ErrLocked) || !strings.HasPrefix(err.Error(), "store: PostgreSQL at ") {
		t.Errorf("a write while another holds the lock: %v, want ErrLocked naming the index", err)
	}
	if err := <-held; err != nil {
		t.Errorf("the write holding the lock: %v", err)
	}

	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The session's own setting, as a pooler's SET makes it, and the
	// server's default.
	for _, set := range []string{"SET lock_timeout = '9s'", "RESET lock_timeout"} {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, set); err != nil {
			t.Fatal(err)
		}
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var before, after string
		if err := tx.QueryRowContext(ctx, "SHOW lock_timeout").Scan(&before); err != nil {
			t.Fatal(err)
		}
		if err := store.LockPostgres(ctx, tx, 200*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if err := tx.QueryRowContext(ctx, "SHOW lock_timeout").Scan(&after); err != nil {
			t.Fatal(err)
		}
		if after != before {
			t.Errorf("%s: lock_timeout after the writer lock: %s, want the session's %s", set, after, before)
		}
		tx.Rollback()
		conn.ExecContext(ctx, "RESET lock_timeout")
		conn.Close()
	}
}

// The bound of the wait for the writer lock is for other processes': the
// writes of one process wait for each other as long as they take, on
// PostgreSQL as on SQLite. A write waiting behind the process's own longer
// one failed saying another process was writing.
func TestOwnWritersWaitForEachOther(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			st, err := store.Open(t.Context(), storetest.DSN(t, e), store.Options{BusyTimeoutMillis: 100})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			holding, held := make(chan struct{}), make(chan error, 1)
			go func() {
				held <- st.Update(t.Context(), func(w store.Writer) error {
					close(holding)
					time.Sleep(500 * time.Millisecond) // five times the wait
					_, err := w.Insert(doc("first", 0), nil)
					return err
				})
			}()
			<-holding
			err = st.Update(t.Context(), func(w store.Writer) error {
				_, err := w.Insert(doc("second", 0), nil)
				return err
			})
			if err != nil {
				t.Errorf("a write behind the process's own: %v", err)
			}
			if err := <-held; err != nil {
				t.Errorf("the first write: %v", err)
			}
		})
	}
}
