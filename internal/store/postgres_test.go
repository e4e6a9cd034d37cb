package store_test

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"

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
