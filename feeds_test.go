package neardup_test

import (
	"context"
	"net"
	"path/filepath"
	"strings"
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

// The feed tables of a PostgreSQL index that cannot be reached name it
// once. Regression: "PostgreSQL at 127.0.0.1:1/r3: store: connecting to
// PostgreSQL at 127.0.0.1:1/r3: …", the store's own naming not seen.
func TestOpenFeedsNamesAnUnreachableIndexOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port nothing listens on
	_, err = neardup.OpenStoredFeeds(context.Background(), "postgres://ann@"+addr+"/r3?sslmode=disable")
	if err == nil {
		t.Fatal("no error")
	}
	if n := strings.Count(err.Error(), addr+"/r3"); n != 1 {
		t.Errorf("the index named %d times: %v", n, err)
	}
}
