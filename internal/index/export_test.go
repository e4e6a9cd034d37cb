package index

import (
	"context"
	"time"

	"github.com/neardup/neardup/internal/store"
)

// PretendSlowCount makes x's counts look taken age ago by a count that took
// a second, as on an index of a million documents.
func PretendSlowCount(x *Index, age time.Duration) {
	x.counts.mu.Lock()
	x.counts.at, x.counts.took = time.Now().Add(-age), time.Second
	x.counts.mu.Unlock()
}

// WaitCounts waits for a count in the background.
func WaitCounts(x *Index) { x.counts.wg.Wait() }

// PretendQuickCount makes x's last count look quick, as on an idle machine,
// so that the next RecentStats counts afresh however long the last one took.
func PretendQuickCount(x *Index) {
	x.counts.mu.Lock()
	x.counts.took = 0
	x.counts.mu.Unlock()
}

// RelabelAll gives the feed items of every stored document of x the
// outcome of its document's role, read afresh.
func RelabelAll(ctx context.Context, x *Index) error {
	return x.st.Update(ctx, func(w store.Writer) error {
		var ords []int64
		if err := w.EachDoc(false, func(d *store.Doc) error { ords = append(ords, d.Ord); return nil }); err != nil {
			return err
		}
		return relabelJudged(w, ords)
	})
}
