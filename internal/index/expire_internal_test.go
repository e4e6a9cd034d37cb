package index

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/store"
	"github.com/neardup/neardup/internal/store/storetest"
	"github.com/neardup/neardup/method/minhash"
)

// TestExpireCountsWhatCommitted: an expiry whose third step fails (a
// trigger refuses to delete one document) reports the documents of the
// two steps that committed, not of the one rolled back. Regression: the
// failed step's documents were counted as expired too ("6 documents
// expired" while 4 were removed).
func TestExpireCountsWhatCommitted(t *testing.T) {
	defer func(n int) { expireChunk = n }(expireChunk)
	expireChunk = 2
	dsn := storetest.DSN(t, "sqlite")
	x, err := Open(context.Background(), dsn, store.Options{Sync: "normal"}, []engine.Spec{minhash.Spec}, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	g := enginetest.NewTextGen(7)
	var docs []core.Document
	for i := range 6 {
		d := enginetest.Doc(fmt.Sprintf("d%d", i+1), g.Sentences(8))
		d.Date = time.Date(2020, 1, 1+i, 0, 0, 0, 0, time.UTC)
		docs = append(docs, d)
	}
	if _, err := x.Add(t.Context(), docs, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	storetest.Exec(t, dsn, `CREATE TRIGGER keep_d5 BEFORE DELETE ON docs WHEN old.id = 'd5' BEGIN SELECT RAISE(ABORT, 'd5 is kept'); END`)
	n, err := x.Expire(t.Context(), time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC))
	if err == nil || n != 4 {
		t.Errorf("Expire = %d, %v; want 4 and the third step's error", n, err)
	}
	st, err := x.Stats(t.Context())
	if err != nil || st.Documents != 2 {
		t.Errorf("%d documents stored, %v; want 2", st.Documents, err)
	}
}
