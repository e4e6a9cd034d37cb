package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// Feed is a web feed the index polls, as stored: its settings and its
// polling state, each a JSON document the watcher owns, and when it is due.
type Feed struct {
	ID       int64
	URL      string
	Config   []byte // JSON
	State    []byte // JSON
	NextPoll int64  // Unix seconds
}

// FeedItem is an item of a feed the watcher has dealt with.
type FeedItem struct {
	Feed    int64
	Item    string // the item's GUID, else its link
	Seen    int64  // Unix seconds
	Outcome string // "added", "exists", a skip reason, ...
	Doc     string // the document's id, when one was made of it
	Lang    string // the language of its article, when extracted
	Tries   int    // how many passes failed to fetch it
	Detail  string // what went wrong, for an error
}

// ErrExists is returned when adding what is stored already.
var ErrExists = errors.New("store: already stored")

func (t *txn) Feeds() ([]Feed, error) {
	rows, err := t.query(`SELECT id, url, config, state, next_poll FROM feeds ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Feed
	for rows.Next() {
		var f Feed
		var config, state string
		if err := rows.Scan(&f.ID, &f.URL, &config, &state, &f.NextPoll); err != nil {
			return nil, err
		}
		f.Config, f.State = []byte(config), []byte(state)
		out = append(out, f)
	}
	return out, rows.Err()
}

func (t *txn) Feed(id int64) (Feed, error) {
	f := Feed{ID: id}
	var config, state string
	err := t.tx.QueryRowContext(t.ctx, t.s.d.rebind(`SELECT url, config, state, next_poll FROM feeds WHERE id = ?`), id).
		Scan(&f.URL, &config, &state, &f.NextPoll)
	if errors.Is(err, sql.ErrNoRows) {
		return Feed{}, fmt.Errorf("%w: feed %d", ErrNotFound, id)
	} else if err != nil {
		return Feed{}, err
	}
	f.Config, f.State = []byte(config), []byte(state)
	return f, nil
}

func (t *txn) AddFeed(f *Feed) (int64, error) {
	var n int
	st, err := t.stmt(`SELECT count(*) FROM feeds WHERE url = ?`)
	if err != nil {
		return 0, err
	}
	if err := st.QueryRowContext(t.ctx, f.URL).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, fmt.Errorf("%w: the feed %s", ErrExists, f.URL)
	}
	id, err := t.next("feed")
	if err != nil {
		return 0, err
	}
	err = t.exec(`INSERT INTO feeds(id, url, config, state, next_poll) VALUES(?, ?, ?, ?, ?)`,
		id, f.URL, string(f.Config), string(f.State), f.NextPoll)
	return id, err
}

func (t *txn) SaveFeed(f *Feed) error {
	if !t.write {
		return errForbidden
	}
	res, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`UPDATE feeds SET url = ?, config = ?, state = ?, next_poll = ? WHERE id = ?`),
		f.URL, string(f.Config), string(f.State), f.NextPoll, f.ID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%w: feed %d", ErrNotFound, f.ID)
	}
	return nil
}

func (t *txn) SavePoll(id int64, state []byte, nextPoll int64) error {
	if !t.write {
		return errForbidden
	}
	res, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`UPDATE feeds SET state = ?, next_poll = ? WHERE id = ?`),
		string(state), nextPoll, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return fmt.Errorf("%w: feed %d", ErrFeedGone, id)
	}
	return nil
}

func (t *txn) DeleteFeed(id int64) error {
	if err := t.exec(`DELETE FROM feed_items WHERE feed = ?`, id); err != nil {
		return err
	}
	return t.exec(`DELETE FROM feeds WHERE id = ?`, id)
}

func (t *txn) FeedItems(feed int64, items []string) (map[string]FeedItem, error) {
	out := map[string]FeedItem{}
	for lo := 0; lo < len(items); lo += inChunk {
		part := items[lo:min(lo+inChunk, len(items))]
		args := append([]any{feed}, anys(part)...)
		rows, err := t.tx.QueryContext(t.ctx, t.s.d.rebind(`SELECT feed, item, seen, outcome, doc, lang, tries, detail FROM feed_items WHERE feed = ? AND item IN (`+marks(len(part))+`)`), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var it FeedItem
			if err := rows.Scan(&it.Feed, &it.Item, &it.Seen, &it.Outcome, &it.Doc, &it.Lang, &it.Tries, &it.Detail); err != nil {
				rows.Close()
				return nil, err
			}
			out[it.Item] = it
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (t *txn) ItemMembers(cluster int64, outcomes []string) ([]int64, error) {
	if len(outcomes) == 0 {
		return nil, nil
	}
	if err := t.flushDocs(); err != nil {
		return nil, err
	}
	return t.ords(`SELECT DISTINCT d.ord FROM docs d JOIN feed_items f ON f.doc = d.id WHERE d.cluster = ? AND f.outcome IN (`+
		marks(len(outcomes))+`) ORDER BY d.ord`, append([]any{cluster}, anys(outcomes)...)...)
}

func (t *txn) RecentItems(feed int64, limit int) ([]FeedItem, error) {
	rows, err := t.query(`SELECT feed, item, seen, outcome, doc, lang, tries, detail FROM feed_items WHERE feed = ?
		ORDER BY seen DESC, item LIMIT ?`, feed, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FeedItem
	for rows.Next() {
		var it FeedItem
		if err := rows.Scan(&it.Feed, &it.Item, &it.Seen, &it.Outcome, &it.Doc, &it.Lang, &it.Tries, &it.Detail); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

func (t *txn) ItemCounts() (map[int64]map[string]int, error) {
	rows, err := t.query(`SELECT feed, outcome, count(*) FROM feed_items GROUP BY feed, outcome`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[string]int{}
	for rows.Next() {
		var feed int64
		var outcome string
		var n int
		if err := rows.Scan(&feed, &outcome, &n); err != nil {
			return nil, err
		}
		if out[feed] == nil {
			out[feed] = map[string]int{}
		}
		out[feed][outcome] = n
	}
	return out, rows.Err()
}

func (t *txn) SaveItems(items []FeedItem) error {
	st, err := t.stmt(`SELECT count(*) FROM feeds WHERE id = ?`)
	if err != nil {
		return err
	}
	known := map[int64]bool{}
	for _, it := range items {
		if known[it.Feed] {
			continue
		}
		var n int
		if err := st.QueryRowContext(t.ctx, it.Feed).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: feed %d", ErrFeedGone, it.Feed)
		}
		known[it.Feed] = true
	}
	for _, it := range items {
		if err := t.exec(`INSERT INTO feed_items(feed, item, seen, outcome, doc, lang, tries, detail) VALUES(?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (feed, item) DO UPDATE SET seen = excluded.seen, outcome = excluded.outcome, doc = excluded.doc,
				lang = excluded.lang, tries = excluded.tries, detail = excluded.detail`,
			it.Feed, it.Item, it.Seen, it.Outcome, it.Doc, it.Lang, it.Tries, it.Detail); err != nil {
			return fmt.Errorf("storing item %q of feed %d: %w", it.Item, it.Feed, err)
		}
	}
	return nil
}

func (t *txn) PruneItems(feed int64, listed []string, keep int) (map[string]int, error) {
	if !t.write {
		return nil, errForbidden
	}
	st, err := t.stmt(`SELECT count(*) FROM feed_items WHERE feed = ?`)
	if err != nil {
		return nil, err
	}
	var n int
	if err := st.QueryRowContext(t.ctx, feed).Scan(&n); err != nil {
		return nil, err
	}
	if n <= keep {
		return nil, nil // fewer not listed than keep, whatever is listed
	}
	gone, out, err := t.unlisted(feed, listed, keep)
	if err != nil {
		return nil, err
	}
	for lo := 0; lo < len(gone); lo += inChunk {
		part := gone[lo:min(lo+inChunk, len(gone))]
		args := append([]any{feed}, anys(part)...)
		if _, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`DELETE FROM feed_items WHERE feed = ? AND item IN (`+marks(len(part))+`)`), args...); err != nil {
			return nil, fmt.Errorf("deleting items of feed %d: %w", feed, err)
		}
	}
	return out, nil
}

// unlisted returns the keys of a feed's items that are not listed, past
// the keep of them seen last, and how many they are by outcome.
func (t *txn) unlisted(feed int64, listed []string, keep int) ([]string, map[string]int, error) {
	in := make(map[string]bool, len(listed))
	for _, k := range listed {
		in[k] = true
	}
	rows, err := t.query(`SELECT item, outcome FROM feed_items WHERE feed = ? ORDER BY seen DESC, item`, feed)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var gone []string
	out := map[string]int{}
	kept := 0
	for rows.Next() {
		var item, outcome string
		if err := rows.Scan(&item, &outcome); err != nil {
			return nil, nil, err
		}
		if in[item] {
			continue
		}
		if kept++; kept > keep {
			gone = append(gone, item)
			out[outcome]++
		}
	}
	return gone, out, rows.Err()
}

func (t *txn) RelabelItems(docs []string, from []string, to string) (int, error) {
	if !t.write {
		return 0, errForbidden
	}
	if len(docs) == 0 || len(from) == 0 {
		return 0, nil
	}
	n := 0
	for lo := 0; lo < len(docs); lo += inChunk {
		part := docs[lo:min(lo+inChunk, len(docs))]
		args := append([]any{to}, anys(part)...)
		args = append(args, anys(from)...)
		res, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`UPDATE feed_items SET outcome = ? WHERE doc IN (`+marks(len(part))+
			`) AND outcome IN (`+marks(len(from))+`)`), args...)
		if err != nil {
			return n, fmt.Errorf("relabelling feed items: %w", err)
		}
		k, err := res.RowsAffected()
		if err != nil {
			return n, err
		}
		n += int(k)
	}
	return n, nil
}

func (t *txn) HostPauses(now int64) (map[string]int64, error) {
	rows, err := t.query(`SELECT host, not_before FROM host_pauses WHERE not_before > ?`, now)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var host string
		var until int64
		if err := rows.Scan(&host, &until); err != nil {
			return nil, err
		}
		out[host] = until
	}
	return out, rows.Err()
}

func (t *txn) PauseHost(host string, until, now int64) error {
	if err := t.exec(`DELETE FROM host_pauses WHERE not_before <= ?`, now); err != nil {
		return fmt.Errorf("deleting the pauses ended: %w", err)
	}
	if until <= now {
		return nil
	}
	err := t.exec(`INSERT INTO host_pauses(host, not_before) VALUES(?, ?)
		ON CONFLICT (host) DO UPDATE SET not_before = excluded.not_before WHERE excluded.not_before > host_pauses.not_before`, host, until)
	if err != nil {
		return fmt.Errorf("storing the pause of %s: %w", host, err)
	}
	return nil
}

func (t *txn) Exact(keys []uint64) (map[uint64]int64, error) {
	out := map[uint64]int64{}
	st, err := t.stmt(`SELECT ord FROM exact WHERE key = ?`)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		var ord int64
		switch err := st.QueryRowContext(t.ctx, int64(k)).Scan(&ord); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return nil, err
		default:
			out[k] = ord
		}
	}
	return out, nil
}

func (t *txn) AddExact(keys []uint64, ord int64) error {
	for _, k := range keys {
		if err := t.exec(`INSERT INTO exact(key, ord) VALUES(?, ?) ON CONFLICT (key) DO NOTHING`, int64(k), ord); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) SetExact(keys []uint64, ord int64) error {
	for _, k := range keys {
		if err := t.exec(`INSERT INTO exact(key, ord) VALUES(?, ?) ON CONFLICT (key) DO UPDATE SET ord = excluded.ord`, int64(k), ord); err != nil {
			return err
		}
	}
	return nil
}

// removeExact deletes the exact keys of documents.
func (t *txn) removeExact(in string, args []any) error {
	_, err := t.tx.ExecContext(t.ctx, t.s.d.rebind(`DELETE FROM exact WHERE ord IN `+in), args...)
	return err
}
