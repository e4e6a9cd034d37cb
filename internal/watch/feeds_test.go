package watch

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestShownURL: a URL's password is left out of what is shown, and any
// other URL is shown as it is.
func TestShownURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://reader:s3cret@daily.example/rss": "https://reader:xxxxx@daily.example/rss",
		"https://reader@daily.example/rss":        "https://reader@daily.example/rss",
		"https://daily.example/rss?key=1":         "https://daily.example/rss?key=1",
		"%zz":                                     "%zz",
	} {
		if got := ShownURL(in); got != want {
			t.Errorf("ShownURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPasswordNotLogged: a private feed's password shows in no log line
// and no error of a pass: the feed answers 500 once, then holds an item
// whose page fails.
func TestPasswordNotLogged(t *testing.T) {
	s := newSite(t)
	s.handle("/feed", func(rw http.ResponseWriter, r *http.Request) { http.Error(rw, "down", http.StatusInternalServerError) })
	x := newIndex(t)
	u := strings.Replace(s.URL, "http://", "http://reader:s3cret@", 1) + "/feed"
	addFeed(t, x, Feed{URL: u})
	var log bytes.Buffer
	o := testOptions()
	o.Logger = slog.New(slog.NewTextHandler(&log, nil))
	res := once(t, newWatcher(t, x, o))
	if len(res) != 1 || res[0].Err == nil {
		t.Fatalf("results %+v, want the feed failed", res)
	}
	if strings.Contains(log.String(), "s3cret") || strings.Contains(res[0].Err.Error(), "s3cret") {
		t.Errorf("the password shows:\nlog: %s\nerror: %v", log.String(), res[0].Err)
	}
	if !strings.Contains(log.String(), "reader:xxxxx@") {
		t.Errorf("the log does not name the feed:\n%s", log.String())
	}
}

// TestCheckHidesPassword: a private feed's settings error shows its URL
// without the password.
func TestCheckHidesPassword(t *testing.T) {
	f := Feed{URL: "https://reader:s3cret@daily.example/rss", Interval: Duration(time.Second)}
	if err := f.Check(); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Check: %v, want an error without the password", err)
	}
}
