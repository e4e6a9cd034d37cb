package watch

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup/internal/store"
)

func TestFeedAdmin(t *testing.T) {
	x := newIndex(t)
	st := x.Store()
	ctx := t.Context()
	f := Feed{URL: "https://a.example/rss", Rule: &Rule{Body: "article .story-body", Drop: []string{".related"}}}
	if _, err := AddFeed(ctx, st, f); err != nil {
		t.Fatal(err)
	}
	if _, err := AddFeed(ctx, st, f); !errors.Is(err, store.ErrExists) {
		t.Errorf("a second add: %v", err)
	}
	for _, bad := range []Feed{
		{URL: "ftp://a.example/rss"},
		{URL: "https://b.example/rss", Interval: Duration(time.Second)},
		{URL: "https://b.example/rss", Rule: &Rule{Body: "div[["}},
		{URL: "https://b.example/rss", Rule: &Rule{StripRegex: []string{"("}}},
	} {
		if _, err := AddFeed(ctx, st, bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if err := SetFeed(ctx, st, Feed{URL: f.URL, Interval: Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := SetFeed(ctx, st, Feed{URL: "https://none.example/"}); !errors.Is(err, ErrNoFeed) {
		t.Errorf("setting a missing feed: %v", err)
	}
	feeds, err := Feeds(ctx, st)
	if err != nil || len(feeds) != 1 || feeds[0].Interval != Duration(time.Hour) || feeds[0].Rule != nil {
		t.Fatalf("feeds %+v %v", feeds, err)
	}

	// Export and import round trip.
	if _, _, err := Import(ctx, st, []Feed{{URL: "https://b.example/atom", Interval: Duration(30 * time.Minute),
		Rule: &Rule{Body: "main", DropAttr: []AttrFilter{{Tag: "div", Attr: "class", Match: "^ad"}}}}, f}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Export(ctx, st, &buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "feeds.yaml")
	os.WriteFile(path, buf.Bytes(), 0o644)
	read, err := ReadFile(path)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(read) != 2 || read[0].Interval != Duration(15*time.Minute) || read[0].Rule.Body != "article .story-body" ||
		read[1].Rule.DropAttr[0].Match != "^ad" || read[1].Interval != Duration(30*time.Minute) {
		t.Errorf("read back %+v\n%s", read, buf.String())
	}
	y := newIndex(t)
	added, updated, err := Import(ctx, y.Store(), read)
	if err != nil || added != 2 || updated != 0 {
		t.Errorf("import: %d, %d, %v", added, updated, err)
	}
	var again bytes.Buffer
	Export(ctx, y.Store(), &again)
	if again.String() != buf.String() {
		t.Errorf("export after import:\n%s\nwant\n%s", again.String(), buf.String())
	}

	if err := RemoveFeed(ctx, st, f.URL); err != nil {
		t.Fatal(err)
	}
	if err := RemoveFeed(ctx, st, f.URL); !errors.Is(err, ErrNoFeed) {
		t.Errorf("removing twice: %v", err)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ body, want string }{
		"unknown key":  {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    intervall: 5m\n", "line 4: field intervall not found"},
		"bad interval": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: soon\n", "invalid duration"},
		"short":        {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    interval: 10s\n", "shorter than 1m0s"},
		"no version":   {"feeds: []\n", `no "version: 1" line`},
		"new version":  {"version: 2\nfeeds: []\n", "version 2: this neardup reads version 1"},
		"second feed":  {"version: 1\nfeeds:\n  - url: https://a.example/rss\n  - url: notaurl\n", `feed 2: feed "notaurl"`},
		"bad selector": {"version: 1\nfeeds:\n  - url: https://a.example/rss\n    rule: {body: 'div[['}\n", "body"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
		os.WriteFile(path, []byte(c.body), 0o644)
		_, err := ReadFile(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming %s and %q", name, err, path, c.want)
		}
	}
}

func TestTry(t *testing.T) {
	s := newSite(t)
	st := newStory(3)
	s.serve("/story/1", "text/html", st.page("Daily", s.URL+"/canonical/1"))
	tr, err := Try(t.Context(), s.URL+"/story/1", &Rule{Body: "article", Drop: []string{"h1"}}, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if tr.Canonical != s.URL+"/canonical/1" || tr.Skip != "" || tr.Article.Text != st.text() || tr.Article.Title != st.title {
		t.Errorf("trial %+v", tr)
	}
	if _, err := Try(t.Context(), s.URL+"/story/1", &Rule{Body: "div[["}, testOptions()); err == nil {
		t.Error("a bad rule: no error")
	}
}
