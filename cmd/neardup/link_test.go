package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/store"
)

// index add --link stores the policy with a new index; the index keeps it,
// and asking it for another, or for none that exists, fails.
func TestIndexAddLink(t *testing.T) {
	dir := t.TempDir()
	path, _ := writeCorpus(t, dir, 6)
	db := filepath.Join(dir, "x.db")
	runOK(t, "index", "add", "--db", db, "--link", "majority", path)
	runOK(t, "index", "add", "--db", db, path) // its own
	st, err := store.Open(t.Context(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	err = st.View(t.Context(), func(r store.Reader) error {
		m, _, err := r.Meta()
		if m.Link != "majority" {
			t.Errorf("stored link %q, want majority", m.Link)
		}
		return err
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		link string
		code int
	}{{"anchor", 1}, {"bogus", 2}} {
		if code := run(t.Context(), []string{"-q", "index", "add", "--db", db, "--link", tc.link, path}); code != tc.code {
			t.Errorf("--link %s: exit code %d, want %d", tc.link, code, tc.code)
		}
	}
}

// serve and watch take --link as index add does: the policy of the index
// they create; an existing index keeps its own, and another is refused.
func TestServeAndWatchLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	storedLink := func(db string) string {
		t.Helper()
		st, err := store.Open(t.Context(), db, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var link string
		if err := st.View(t.Context(), func(r store.Reader) error {
			m, _, err := r.Meta()
			link = m.Link
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return link
	}

	// watch: the feeds' store exists before the index does.
	watched := filepath.Join(dir, "watched.db")
	a := newNewsSite(t, "The A Times")
	a.publish("/news/1", "One", paragraphs(enginetest.NewTextGen(7)))
	runOK(t, "feeds", "add", "--db", watched, a.URL+"/rss.xml", "--allow-private", "127.0.0.1")
	runOK(t, "watch", "--db", watched, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1", "--link", "anchor")
	if got := storedLink(watched); got != "anchor" {
		t.Errorf("watch --link anchor: stored %q", got)
	}
	for link, want := range map[string]int{"anchor": 0, "majority": 1, "bogus": 2} {
		if code := run(t.Context(), []string{"-q", "watch", "--db", watched, "--once", "--host-delay", "0", "--allow-private", "127.0.0.1", "--link", link}); code != want {
			t.Errorf("watch --link %s on an anchor index: exit code %d, want %d", link, code, want)
		}
	}

	// serve creates its index, when it takes writes, and stores its
	// settings as it opens it.
	served, tokens := filepath.Join(dir, "served.db"), filepath.Join(dir, "tokens.txt")
	if err := os.WriteFile(tokens, []byte("s3cret-token-for-tests\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, stop := serveInProcess(t, "--db", served, "--link", "majority", "--token-file", tokens)
	text := strings.Join(enginetest.NewTextGen(8).Sentences(10), " ")
	r, _ := http.NewRequest("POST", base+"/v1/documents", strings.NewReader(fmt.Sprintf(`{"id": "a", "text": %q}`, text)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer s3cret-token-for-tests")
	if resp, err := http.DefaultClient.Do(r); err != nil || resp.StatusCode != 200 {
		t.Errorf("post: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if c := stop(); c != 0 {
		t.Errorf("serve exit code %d", c)
	}
	if got := storedLink(served); got != "majority" {
		t.Errorf("serve --link majority: stored %q", got)
	}
	if c := run(t.Context(), []string{"-q", "serve", "--db", served, "--addr", "127.0.0.1:0", "--link", "any"}); c != 1 {
		t.Errorf("serve --link any on a majority index: exit code %d, want 1", c)
	}
}
