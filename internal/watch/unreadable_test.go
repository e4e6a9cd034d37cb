package watch

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// syncBuffer is a log's output, written by the polls at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// polled counts the polls w made.
func polled(w *Watcher) int {
	n := 0
	for _, c := range w.Totals().Polls {
		n += c
	}
	return n
}

// TestUnreadableFeedFailsAlone: a feed whose stored settings or state do
// not decode, or whose stored site rule does not compile (its row edited
// by hand), is that feed's failure, unfetched, logged and stored as its
// status, naming the feed and the column, and backed off as any failing
// feed's; the other feeds are polled. It ended Run with exit
// 1, at its first read of the feeds, and Feeds failed with it, so that
// feeds list showed none.
func TestUnreadableFeedFailsAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	x := newIndexAt(t, path)
	good := newSite(t)
	good.serve("/feed", "application/rss+xml", rss2(publish(good, "Daily", 1, 2)...))
	addFeed(t, x, Feed{URL: good.URL + "/feed", Interval: Duration(time.Hour)})
	bad := []struct {
		name, column, value string
		want                []string // in the error
	}{
		{"settings not JSON", "config", `garbage`, []string{"its settings (feeds.config) do not decode", "invalid character"}},
		{"an interval no duration", "config", `{"interval": "soon"}`, []string{"feeds.config", `"interval": invalid duration "soon"`}},
		{"a rule of the wrong type", "config", `{"interval": "1h", "rule": {"drop": "aside"}}`, []string{"feeds.config", `"rule": json: cannot unmarshal`}},
		// It decodes, but does not compile: the feed was fetched, and
		// the rule's error ended Run (and watch --once) as the feed's
		// items were dealt with, its state unsaved.
		{"a rule that does not compile", "config", `{"rule": {"strip_regex": ["("]}}`,
			[]string{"its site rule (feeds.config) does not compile", `strip_regex: bad regexp "(": error parsing regexp`}},
		{"state not JSON", "state", `{"polls": 3,`, []string{"its state (feeds.state) does not decode", "unexpected end of JSON input"}},
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sites := make([]*site, len(bad))
	for i, b := range bad {
		sites[i] = newSite(t)
		sites[i].serve("/feed", "application/rss+xml", rss2(publish(sites[i], b.name, uint64(10+i), 1)...))
		addFeed(t, x, Feed{URL: sites[i].URL + "/feed", Interval: Duration(time.Hour)})
		if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET `+b.column+` = ? WHERE url = ?`, b.value, sites[i].URL+"/feed"); err != nil {
			t.Fatal(err)
		}
	}

	var log syncBuffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	w := newWatcher(t, x, o)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- w.Run(ctx) }()
	for deadline := time.Now().Add(10 * time.Second); polled(w) < 1+len(bad) && time.Now().Before(deadline); {
		select {
		case err := <-done:
			t.Fatalf("Run returned %v before the good feed was polled", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if x.Len() != 2 || good.hit("/feed") != 1 {
		t.Errorf("the good feed: polled %d times, %d documents stored; want 1 and 2", good.hit("/feed"), x.Len())
	}
	if tot := w.Totals(); tot.Polls["error"] != len(bad) || tot.Polls["ok"] != 1 {
		t.Errorf("totals %+v, want %d errors and 1 ok", tot, len(bad))
	}

	stored, err := Feeds(t.Context(), x)
	if err != nil || len(stored) != 1+len(bad) {
		t.Fatalf("Feeds: %d, %v; want %d feeds listed", len(stored), err, 1+len(bad))
	}
	for i, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			s := stored[1+i]
			if sites[i].hitsAll() != 0 {
				t.Errorf("its site was asked %d times; its settings were not read", sites[i].hitsAll())
			}
			// An id, its feed's URL and the column in the log and the status.
			want := append([]string{"feed " + s.URL + " (id " + strconv.FormatInt(s.ID, 10) + ")"}, b.want...)
			var line string
			for l := range strings.Lines(log.String()) {
				if strings.Contains(l, "feed failed") && strings.Contains(l, s.URL) {
					line = l
				}
			}
			for _, w := range want {
				if !strings.Contains(s.State.Status, w) {
					t.Errorf("status %q lacks %q", s.State.Status, w)
				}
				if !strings.Contains(line, strings.ReplaceAll(w, `"`, `\"`)) {
					t.Errorf("the log's line %q lacks %q", line, w)
				}
			}
			if !strings.HasPrefix(s.State.Status, "error: ") || s.State.Failures != 1 {
				t.Errorf("stored state %+v, want the error and 1 failure", s.State)
			}
			// Backed off from its interval, the default one when its
			// settings are not known, with up to 20 % jitter.
			every := DefaultInterval
			if b.column == "state" {
				every = time.Hour
			}
			if next := s.NextPoll.Sub(start); next < every*8/10-time.Second || next > every*12/10+time.Minute {
				t.Errorf("next poll in %s, want %s ± 20 %%", next, every)
			}
		})
	}

	// A pass: the settings are still unreadable, the state was replaced by
	// the failure's, and now reads.
	res, err := w.Once(t.Context())
	if err != nil {
		t.Fatalf("Once: %v", err)
	}
	for i, r := range res {
		wantStatus := "error"
		if i == 0 || i == len(bad) {
			wantStatus = "ok"
		}
		if r.Status != wantStatus {
			t.Errorf("%s: status %s (%v), want %s", r.Feed, r.Status, r.Err, wantStatus)
		}
	}
}

// TestUnreadableFeedListed: a feed whose settings do not decode is listed
// as failing before it is polled, and its settings are what could be read
// (none); an export of the feeds leaves it out, naming it.
func TestUnreadableFeedListed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	x := newIndexAt(t, path)
	addFeed(t, x, Feed{URL: "https://daily.example/rss", Interval: Duration(time.Hour)})
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET config = '{"interval": 60}'`); err != nil {
		t.Fatal(err)
	}
	stored, err := Feeds(t.Context(), x)
	if err != nil || len(stored) != 1 {
		t.Fatalf("Feeds: %v, %v", stored, err)
	}
	want := `error: feed https://daily.example/rss (id 1): its settings (feeds.config) do not decode: "interval": json: cannot unmarshal number`
	if s := stored[0]; !strings.HasPrefix(s.State.Status, want) || s.Interval != 0 || s.Rule != nil {
		t.Errorf("listed as %+v, status %q; want no settings and the status %q...", s.Feed, s.State.Status, want)
	}
	var out strings.Builder
	if err := Export(t.Context(), x, &out); err == nil || !strings.Contains(err.Error(), "feed https://daily.example/rss (id 1)") {
		t.Errorf("Export: %v; wrote %q", err, out.String())
	}
}

// TestStoredIntervalNotAboveZero: a feed whose stored settings decode
// without an interval, or with one not above 0 (its row edited by hand),
// is polled again after the default interval. It was due again at once,
// and Run polled it each time it read the feeds, once a second.
func TestStoredIntervalNotAboveZero(t *testing.T) {
	for _, config := range []string{`{}`, `null`, `{"interval": "0s"}`, `{"interval": "-1h"}`} {
		t.Run(config, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "news.db")
			x := newIndexAt(t, path)
			s := newSite(t)
			s.serve("/feed", "application/rss+xml", rss2(publish(s, "Daily", 1, 1)...))
			addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(time.Hour)})
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET config = ?`, config); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if res := once(t, newWatcher(t, x, testOptions())); res[0].Status != "ok" {
				t.Fatalf("poll %+v, want ok", res[0])
			}
			stored, err := Feeds(t.Context(), x)
			if err != nil {
				t.Fatal(err)
			}
			if next := stored[0].NextPoll.Sub(start); next < DefaultInterval-time.Second || next > DefaultInterval+time.Minute {
				t.Errorf("next poll in %s, want %s", next, DefaultInterval)
			}
		})
	}
}

// TestExportLeavesOutUnreadableFeeds pins an export that failed whole, and
// wrote nothing, when one stored feed's settings did not decode, and one
// that wrote a site rule that does not compile (or an interval below 1m),
// which made a file import refused whole: the other feeds are written, in
// a file that imports, and an *ExportError names each feed left out, its
// id and why. A stored interval not above 0 is left out (the default
// interval, as the watcher polls it; an interval of 0s given is refused),
// and a state that does not decode
// does not matter. An import of other feeds, or of readable ones, into the
// index that holds them goes on.
func TestExportLeavesOutUnreadableFeeds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "news.db")
	x := newIndexAt(t, path)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var wantLeft []string
	for i, tc := range []struct {
		column, value string
		why           string // in the error of a feed left out; "" when it is written
	}{
		{"config", `{"interval": "1h"}`, ""},
		{"config", `garbage`, "its settings (feeds.config) do not decode: invalid character"},
		{"config", `{"interval": "soon"}`, `its settings (feeds.config) do not decode: "interval": invalid duration "soon"`},
		{"config", `{"interval": "1h", "rule": {"strip_regex": ["("]}}`, `its site rule (feeds.config) does not compile: strip_regex: bad regexp "("`},
		{"config", `{"interval": "30s"}`, "its settings (feeds.config) would not import: interval 30s is shorter than 1m"},
		{"config", `{"interval": "-1h"}`, ""},
		{"state", `{"polls": 3,`, ""},
	} {
		u := fmt.Sprintf("https://f%d.example/rss", i)
		addFeed(t, x, Feed{URL: u, Interval: Duration(2 * time.Hour)})
		if _, err := db.ExecContext(t.Context(), `UPDATE feeds SET `+tc.column+` = ? WHERE url = ?`, tc.value, u); err != nil {
			t.Fatal(err)
		}
		if tc.why != "" {
			wantLeft = append(wantLeft, fmt.Sprintf("feed %s (id %d): %s", u, i+1, tc.why))
		}
	}
	var out strings.Builder
	err = Export(t.Context(), x, &out)
	var ee *ExportError
	if !errors.As(err, &ee) || ee.Written != 3 || len(ee.Left) != len(wantLeft) {
		t.Fatalf("Export: %v, want an *ExportError of 3 feeds written and %d left out", err, len(wantLeft))
	}
	for i, w := range wantLeft {
		if got := ee.Left[i].Error(); !strings.HasPrefix(got, w) {
			t.Errorf("left out: %q, want %q...", got, w)
		}
	}
	file := filepath.Join(t.TempDir(), "feeds.yaml")
	if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	feeds, err := ReadFile(file)
	if err != nil {
		t.Fatalf("the export does not read back: %v\n%s", err, out.String())
	}
	want := []Feed{
		{URL: "https://f0.example/rss", Interval: Duration(time.Hour)},
		{URL: "https://f5.example/rss"},
		{URL: "https://f6.example/rss", Interval: Duration(2 * time.Hour)},
	}
	if diff := cmp.Diff(want, feeds); diff != "" {
		t.Errorf("exported (-want +got):\n%s", diff)
	}
	if _, _, err := Import(t.Context(), newIndex(t), feeds); err != nil {
		t.Errorf("importing the export into a new index: %v", err)
	}
	feeds = append(feeds, Feed{URL: "https://new.example/rss"})
	// The three exported are as stored: none is updated.
	if added, updated, err := Import(t.Context(), x, feeds); err != nil || added != 1 || updated != 0 {
		t.Errorf("importing feeds beside unreadable ones: %d added, %d updated, %v; want 1 and 0", added, updated, err)
	}
}
