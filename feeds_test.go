package neardup_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/neardup/neardup"
)

// TestOpenFeeds: the feed tables opened alone keep what they are given, and
// an index opened on the same file afterwards reads the same feeds.
func TestOpenFeeds(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "feeds.db")
	ft, err := neardup.OpenFeeds(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	err = ft.UpdateFeeds(ctx, func(w neardup.FeedWriter) error {
		_, err := w.AddFeed(&neardup.Feed{URL: "http://127.0.0.1/feed.xml", Config: []byte(`{}`), State: []byte(`{}`)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ft.Close(); err != nil {
		t.Fatal(err)
	}

	x, err := neardup.Open(ctx, path, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var urls []string
	err = x.ViewFeeds(ctx, func(r neardup.FeedReader) error {
		fs, err := r.Feeds()
		for _, f := range fs {
			urls = append(urls, f.URL)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(urls) != 1 || urls[0] != "http://127.0.0.1/feed.xml" {
		t.Fatalf("feeds after reopening: %q, want the one added", urls)
	}
}
