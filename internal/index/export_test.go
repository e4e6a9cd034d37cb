package index

import "time"

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
