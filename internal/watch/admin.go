package watch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/extract/rules"
)

// Stored is a feed as the index keeps it: its settings, its state, when it
// is polled next and what became of its items.
type Stored struct {
	ID int64 `json:"id"`
	Feed
	State State `json:"state"`
	// NextPoll is when the feed is polled next; zero (left out of JSON)
	// for a feed never scheduled, polled as soon as a watcher runs.
	NextPoll time.Time `json:"next_poll,omitzero"`
	// Items counts the feed's items dealt with, by outcome: those the
	// index keeps, and those it no longer keeps (State.Forgotten).
	Items map[string]int `json:"items"`
	// IntervalUnreadable is true when the stored settings do not decode
	// (their row edited by hand): the feed's interval is not known, and the
	// watcher tries it again as a failing feed, unfetched, after a backoff
	// from DefaultInterval, what Every gives.
	IntervalUnreadable bool `json:"interval_unreadable,omitempty"`
	// unreadable is why the stored settings or state do not decode (see
	// readStored); nil when they do.
	unreadable error
}

// Every is how often the watcher polls the feed: its Interval, or
// DefaultInterval when that is not above 0 (none given); of a feed whose
// settings are unreadable (IntervalUnreadable), DefaultInterval, the
// interval its backoff as a failing feed starts from. Listings show it
// rather than Interval.
func (s Stored) Every() Duration {
	return Duration(every(&s.Feed))
}

// ErrNoFeed is returned for a feed URL the index does not hold.
var ErrNoFeed = errors.New("watch: no such feed")

// Feeds returns the feeds of st, by id. A feed whose stored settings or
// state do not decode (its row edited by hand) is listed all the same, as
// failing: its State.Status is the error, which names the feed and the
// column, and the column that does not decode reads as none (see
// readStored).
func Feeds(ctx context.Context, st Tables) ([]Stored, error) {
	var out []Stored
	err := st.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		feeds, err := r.Feeds()
		if err != nil {
			return err
		}
		counts, err := r.ItemCounts()
		if err != nil {
			return err
		}
		for _, f := range feeds {
			s := Stored{ID: f.ID}
			if f.NextPoll != 0 {
				s.NextPoll = time.Unix(f.NextPoll, 0).UTC()
			}
			s.Feed, s.State, s.unreadable = readStored(&f)
			if s.unreadable != nil {
				s.State.Status = "error: " + s.unreadable.Error()
				var se *storedError
				s.IntervalUnreadable = errors.As(s.unreadable, &se) && se.column == "config"
			}
			s.Items = counts[f.ID]
			if s.Items == nil {
				s.Items = map[string]int{}
			}
			for outcome, n := range s.State.Forgotten {
				s.Items[outcome] += n
			}
			out = append(out, s)
		}
		return nil
	})
	return out, err
}

// readStored returns a stored feed's settings and state. A column that does
// not decode is a *storedError, the settings' first: its settings are then
// none but the URL, its state a new one, as nothing read of them is
// trusted. The watcher fails such a feed with the error, and its failure
// writes a new state.
func readStored(f *neardup.Feed) (Feed, State, error) {
	feed, err := readSettings(f)
	var state State
	if key, serr := unmarshalColumn(f.State, &state); serr != nil {
		state = State{}
		if err == nil {
			err = &storedError{id: f.ID, url: f.URL, column: "state", key: key, err: serr}
		}
	}
	return feed, state, err
}

// readSettings returns a stored feed's settings; a *storedError when they
// do not decode, with the settings of the URL alone.
func readSettings(f *neardup.Feed) (Feed, error) {
	var feed Feed
	key, err := unmarshalColumn(f.Config, &feed)
	if err != nil {
		return Feed{URL: f.URL}, &storedError{id: f.ID, url: f.URL, column: "config", key: key, err: err}
	}
	feed.URL = f.URL
	return feed, nil
}

// storedRule compiles the site rule of a stored feed's settings f; nil for
// none. A rule that does not compile (its row edited by hand: a rule is
// checked before it is stored) is a *storedError of the settings, which
// wraps the *RuleError.
func storedRule(sf *neardup.Feed, f *Feed) (*rules.Set, error) {
	rs, err := f.rules()
	if err != nil {
		return nil, &storedError{id: sf.ID, url: sf.URL, column: "config", err: err}
	}
	return rs, nil
}

// unmarshalColumn decodes a stored JSON column into v. When it does not
// decode and is a JSON object, key is the first of its keys, in sorted
// order, whose value does not decode alone, which err may not name (an
// interval that is no duration gives time's error alone); "" when the
// column is no JSON object, or each of its keys decodes alone.
func unmarshalColumn[T any](data []byte, v *T) (key string, err error) {
	if err = json.Unmarshal(data, v); err == nil {
		return "", nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return "", err
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		var one T
		if json.Unmarshal(marshalJSON(map[string]json.RawMessage{k: fields[k]}), &one) != nil {
			return k, err
		}
	}
	return "", err
}

// storedError is a feed whose stored settings or state do not decode (its
// row edited by hand, or written by another program): that feed's
// failure, not the watcher's, which polls the others.
type storedError struct {
	id     int64
	url    string
	column string // of the feeds table: "config", the settings, or "state"
	key    string // the key of the column's object whose value does not decode; "" when not known
	err    error
}

// Error returns `feed URL (id N): its settings (feeds.config) do not
// decode: "key": error`, or, for a site rule that does not compile, `feed
// URL (id N): its site rule (feeds.config) does not compile: key: error`.
func (e *storedError) Error() string {
	what := "its settings (feeds.config) do not decode"
	if e.column == "state" {
		what = "its state (feeds.state) does not decode"
	}
	var re *RuleError
	if errors.As(e.err, &re) {
		return fmt.Sprintf("feed %s (id %d): its site rule (feeds.config) does not compile: %s: %s", ShownURL(e.url), e.id, re.Key, re.Msg)
	}
	msg := fmt.Sprintf("feed %s (id %d): %s: ", ShownURL(e.url), e.id, what)
	if e.key != "" {
		msg += strconv.Quote(e.key) + ": "
	}
	return msg + e.err.Error()
}

func (e *storedError) Unwrap() error { return e.err }

// AddFeed checks f and stores it under its FeedURL, due at once. A feed of
// that URL stored already is neardup.ErrExists.
func AddFeed(ctx context.Context, st Tables, f Feed) (int64, error) {
	if f.Interval == 0 {
		f.Interval = Duration(DefaultInterval)
	}
	if err := f.Check(); err != nil {
		return 0, err
	}
	f.canonicalURL()
	var id int64
	err := st.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		if old, err := find(w, f.URL); err == nil {
			return fmt.Errorf("%w: the feed %s (stored as %s)", neardup.ErrExists, ShownURL(f.URL), ShownURL(old.URL))
		} else if !errors.Is(err, ErrNoFeed) {
			return err
		}
		var err error
		id, err = w.AddFeed(&neardup.Feed{URL: f.URL, Config: marshalJSON(f), State: marshalJSON(State{})})
		return err
	})
	return id, err
}

// SetFeed replaces the settings of the feed of f.URL (compared as
// FeedURL), keeping its state.
func SetFeed(ctx context.Context, st Tables, f Feed) error {
	if f.Interval == 0 {
		f.Interval = Duration(DefaultInterval)
	}
	if err := f.Check(); err != nil {
		return err
	}
	return st.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		old, err := find(w, f.URL)
		if err != nil {
			return err
		}
		old.Config = marshalJSON(f)
		return w.SaveFeed(old)
	})
}

// UpdateFeed changes the settings of the feed of feedURL (compared as
// FeedURL) with change, in one transaction that holds the index's writer
// lock from the read to the write: a feeds import, another UpdateFeed or a
// watch pass meanwhile either commits before the read, and change sees what
// it wrote, or waits for the write. change gets the stored settings and
// changes them in place (the URL stays the stored one); an error it returns
// is UpdateFeed's, and nothing is written. The settings changed are checked
// (Feed.Check) before they are written; the feed's state is kept.
func UpdateFeed(ctx context.Context, st Tables, feedURL string, change func(f *Feed) error) error {
	return st.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		old, err := find(w, feedURL)
		if err != nil {
			return err
		}
		cur, err := readSettings(old)
		if err != nil {
			return err
		}
		if err := change(&cur); err != nil {
			return err
		}
		cur.URL = old.URL
		if err := cur.Check(); err != nil {
			return err
		}
		old.Config = marshalJSON(cur)
		return w.SaveFeed(old)
	})
}

// RemoveFeed removes the feed of a URL (compared as FeedURL) and the
// record of its items; the articles added from it stay in the index.
func RemoveFeed(ctx context.Context, st Tables, feedURL string) error {
	return st.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		f, err := find(w, feedURL)
		if err != nil {
			return err
		}
		return w.DeleteFeed(f.ID)
	})
}

// find returns the stored feed of a URL, the two compared as FeedURL: a
// feed stored before URLs were made canonical is found too.
func find(r neardup.FeedReader, feedURL string) (*neardup.Feed, error) {
	feeds, err := r.Feeds()
	if err != nil {
		return nil, err
	}
	key := feedKey(feedURL)
	for i := range feeds {
		if feedKey(feeds[i].URL) == key {
			return &feeds[i], nil
		}
	}
	return nil, fmt.Errorf("%w: %s", ErrNoFeed, ShownURL(feedURL))
}

// feedKey is the FeedURL of a URL, else the URL as it is.
func feedKey(u string) string {
	if c, err := FeedURL(u); err == nil {
		return c
	}
	return u
}

// Import stores feeds, in one transaction: new ones are added, at
// DefaultInterval when their Interval is 0; those of a URL stored already
// get the settings given and keep the others: an Interval of 0 keeps the
// stored interval, a nil Rule the stored rule (an OPML list, which gives
// neither, changes nothing of a known feed). updated counts the stored
// feeds whose settings change; one given as stored is left as it is. A
// URL given twice is added with the first settings and updated with the
// second.
func Import(ctx context.Context, st Tables, feeds []Feed) (added, updated int, err error) {
	for _, f := range feeds {
		if err := f.checkGiven(); err != nil {
			return 0, 0, err
		}
	}
	feeds = slices.Clone(feeds)
	for i := range feeds {
		feeds[i].canonicalURL()
	}
	err = st.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		added, updated = 0, 0
		stored, err := w.Feeds()
		if err != nil {
			return err
		}
		byURL := map[string]*neardup.Feed{}
		for i := range stored {
			byURL[feedKey(stored[i].URL)] = &stored[i]
		}
		for _, f := range feeds {
			if old := byURL[f.URL]; old != nil {
				cur, err := readSettings(old)
				if err != nil {
					return err
				}
				was := marshalJSON(cur)
				if f.Interval != 0 {
					cur.Interval = f.Interval
				}
				if f.Rule != nil {
					cur.Rule = f.Rule
				}
				config := marshalJSON(cur)
				if bytes.Equal(config, was) {
					continue // nothing of it changes
				}
				old.Config = config
				if err := w.SaveFeed(old); err != nil {
					return err
				}
				updated++
				continue
			}
			if f.Interval == 0 {
				f.Interval = Duration(DefaultInterval)
			}
			sf := &neardup.Feed{URL: f.URL, Config: marshalJSON(f), State: marshalJSON(State{})}
			if sf.ID, err = w.AddFeed(sf); err != nil {
				return err
			}
			byURL[f.URL] = sf
			added++
		}
		return nil
	})
	return added, updated, err
}

// Export writes the feeds of st as a feeds file (see ReadFile) that
// Import reads back. A feed whose stored settings do not decode, or would
// not import (a site rule that does not compile, an interval shorter than
// MinInterval: its row edited by hand), is left out, as its settings are
// not known or the file would be refused whole; the others are written,
// and then an *ExportError names each one left out. A stored interval not
// above 0, which the watcher polls at DefaultInterval, is left out, as
// Import reads none given. Any other error is of reading the feeds or of
// writing to out, and what out holds then is not a whole file.
func Export(ctx context.Context, st Tables, out io.Writer) error {
	stored, err := Feeds(ctx, st)
	if err != nil {
		return err
	}
	file := File{Version: 1, Feeds: []Feed{}}
	var left []error
	for _, s := range stored {
		f, err := exportable(&s)
		if err != nil {
			left = append(left, err)
			continue
		}
		file.Feeds = append(file.Feeds, f)
	}
	enc := yaml.NewEncoder(out)
	enc.SetIndent(2)
	if err := enc.Encode(file); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if len(left) > 0 {
		return &ExportError{Written: len(file.Feeds), Left: left}
	}
	return nil
}

// exportable returns the settings of a stored feed as Export writes them,
// or why it leaves the feed out.
func exportable(s *Stored) (Feed, error) {
	if se, ok := s.unreadable.(*storedError); ok && se.column == "config" {
		return Feed{}, se
	}
	f := s.Feed
	f.Interval = max(f.Interval, 0)
	err := f.checkGiven()
	var re *RuleError
	switch {
	case errors.As(err, &re):
		return Feed{}, &storedError{id: s.ID, url: s.URL, column: "config", err: re}
	case err != nil:
		// Check's error names the feed, as this one does first.
		why := strings.TrimPrefix(err.Error(), "feed "+ShownURL(f.URL)+": ")
		return Feed{}, fmt.Errorf("feed %s (id %d): its settings (feeds.config) would not import: %s", ShownURL(s.URL), s.ID, why)
	}
	return f, nil
}

// An ExportError is an export that left feeds out (see Export), after
// writing the others.
type ExportError struct {
	// Written counts the feeds written.
	Written int
	// Left holds why each feed left out was, in the order of the feeds'
	// ids; each error names its feed and id.
	Left []error
}

// Error says how many feeds were left out, then why each was, a line each
// (Lines).
func (e *ExportError) Error() string { return strings.Join(e.Lines(), "\n") }

// Lines returns the lines of Error, without their line ends: how many
// feeds were left out, then why each was, indented. A terminal shows each
// alone, its control characters escaped.
func (e *ExportError) Lines() []string {
	lines := []string{fmt.Sprintf("%d of %d feeds left out of the export (the others are written):",
		len(e.Left), e.Written+len(e.Left))}
	for _, err := range e.Left {
		lines = append(lines, "  "+err.Error())
	}
	return lines
}
