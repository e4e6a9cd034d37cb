package watch

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/neardup/neardup/internal/outbound"
)

// allowOnly are testOptions with only prefix allowed of the ranges the
// outbound rule refuses.
func allowOnly(prefix string) Options {
	o := testOptions()
	o.AllowPrivate = []netip.Prefix{netip.MustParsePrefix(prefix)}
	return o
}

// A feed's items that link to an internal address, directly, by name or
// by a redirect, are refused before any connection to it, and stored with
// the reason refused and the class of the address; a feed at an internal
// address fails. 127.0.0.2 stands for a site allowed by AllowPrivate,
// 127.0.0.3 for an internal service.
func TestRefusedDestinations(t *testing.T) {
	x := newIndex(t)
	allowed, internal := newSiteAt(t, "127.0.0.2"), newSiteAt(t, "127.0.0.3")
	secret := newStory(2)
	internal.serve("/secret", "text/html", secret.page("Internal", ""))
	internal.serve("/feed", "application/rss+xml", rss2(item{title: "x", link: internal.URL + "/secret"}))
	_, port, _ := strings.Cut(strings.TrimPrefix(internal.URL, "http://"), ":")
	allowed.serve("/ok", "text/html", newStory(1).page("Daily", ""))
	allowed.handle("/hop", func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, internal.URL+"/secret", http.StatusFound)
	})
	links := map[string]string{
		"direct":   internal.URL + "/secret",
		"by name":  "http://localhost:" + port + "/secret",
		"redirect": allowed.URL + "/hop",
	}
	items := []item{{title: "ok", link: allowed.URL + "/ok"}}
	for name, l := range links {
		items = append(items, item{title: name, link: l})
	}
	allowed.serve("/feed", "application/rss+xml", rss2(items...))
	addFeed(t, x, Feed{URL: allowed.URL + "/feed", Interval: Duration(3600e9)})
	addFeed(t, x, Feed{URL: internal.URL + "/feed", Interval: Duration(3600e9)})

	res := once(t, newWatcher(t, x, allowOnly("127.0.0.2/32")))
	if r := res[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 || r.Outcomes[OutcomeRefused] != 3 {
		t.Errorf("allowed feed: %+v, want 1 added, 3 refused", r)
	}
	if r := res[1]; r.Status != "error" || !errors.Is(r.Err, outbound.ErrRefused) || !strings.Contains(r.Err.Error(), "loopback") {
		t.Errorf("internal feed: %+v (%v), want an error naming a loopback address", r, r.Err)
	}
	if n := internal.hitsAll(); n != 0 {
		t.Errorf("the internal site got %d requests, want none", n)
	}
	stored := storedItems(t, x, allowed.URL+"/feed")
	for name, l := range links {
		it := stored[Canonical(l)]
		if it.Outcome != OutcomeRefused || !strings.Contains(it.Detail, "refused: the destination is a loopback address") ||
			strings.Contains(it.Detail, "127.0.0.3:"+port+":") || strings.Contains(it.Detail, "dial") {
			t.Errorf("%s: stored %+v, want outcome refused naming the class only", name, it)
		}
		// The detail names the item's link, and the redirect's target
		// refused: it named the target alone.
		want := l + ": refused: "
		if name == "redirect" {
			want = l + ": redirected to " + internal.URL + "/secret: refused: "
		}
		if !strings.HasPrefix(it.Detail, want) {
			t.Errorf("%s: stored detail %q, want it to start %q", name, it.Detail, want)
		}
	}
}

// A link to an IPv6 address keeps its brackets and is fetched when its
// range is allowed.
func TestIPv6Literal(t *testing.T) {
	x := newIndex(t)
	s := newSiteAt(t, "::1")
	if !strings.HasPrefix(s.URL, "http://[::1]:") {
		t.Fatalf("site URL %s", s.URL)
	}
	s.serve("/a", "text/html", newStory(3).page("Six", ""))
	s.serve("/feed", "application/atom+xml", atomFeed(item{title: "a", link: s.URL + "/a"}))
	addFeed(t, x, Feed{URL: s.URL + "/feed", Interval: Duration(3600e9)})
	if r := once(t, newWatcher(t, x, allowOnly("::1/128")))[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 {
		t.Errorf("%+v (%v), want 1 added", r, r.Err)
	}
	if it := storedItems(t, x, s.URL+"/feed")[s.URL+"/a"]; it.Doc != s.URL+"/a" {
		t.Errorf("stored item %+v, want the document %s/a", it, s.URL)
	}
}

// With a proxy, the rule is about the destination: a proxy on an address
// the rule refuses (a private network's proxy) is used, while a
// destination the rule refuses never reaches the proxy. The proxy answers
// itself: nothing goes further than 127.0.0.4.
func TestProxyOnPrivateAddress(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	page := newStory(4).page("Far", "")
	px := startAt(t, "127.0.0.4", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.String())
		mu.Unlock()
		rw.Header().Set("Content-Type", "text/html")
		rw.Write([]byte(page))
	}))
	o := testOptions()
	o.AllowPrivate = nil
	o.proxy = proxyTo(px.URL)
	// 203.0.113.0/24 is a range for documentation: the rule lets it
	// through, and only the proxy is asked for it.
	tr, err := Try(t.Context(), "http://203.0.113.10/news/a", nil, o)
	if err != nil || tr.Article.Title == "" {
		t.Fatalf("through the proxy: %+v, %v", tr, err)
	}
	for _, dest := range []string{"http://127.0.0.3:9200/x", "http://localhost/x", "http://[::1]:9200/x", "http://169.254.169.254/latest/meta-data/"} {
		if _, err := Try(t.Context(), dest, nil, o); !errors.Is(err, outbound.ErrRefused) {
			t.Errorf("%s through the proxy: %v, want refused", dest, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"http://203.0.113.10/news/a"}; !slices.Equal(asked, want) {
		t.Errorf("the proxy was asked for %q, want %q", asked, want)
	}
}

// A feed's item that links straight to the proxy's own address (Go sends
// a request to a loopback address directly) is refused as any link to a
// loopback address, after other items went through the proxy: the
// proxy's address was let through once it had been used, and its own
// page (a cache manager's status, as Squid serves on its port) was stored
// as an article.
func TestProxyOwnPageRefused(t *testing.T) {
	x := newIndex(t)
	var own sync.Mutex
	var ownHits int
	far := newStory(5)
	status := newStory(6)
	var px *httptest.Server
	px = startAt(t, "127.0.0.4", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		switch {
		case !r.URL.IsAbs():
			own.Lock()
			ownHits++
			own.Unlock()
			rw.Write([]byte(status.page("Cache manager", "")))
		case r.URL.Path == "/feed":
			rw.Header().Set("Content-Type", "application/rss+xml")
			rw.Write([]byte(rss2(item{title: "far", link: "http://203.0.113.10/a"},
				item{title: "status", link: px.URL + "/squid-internal-mgr/info"})))
		default:
			rw.Write([]byte(far.page("Far", "")))
		}
	}))
	o := testOptions()
	o.AllowPrivate = nil
	pu, _ := url.Parse(px.URL)
	o.proxy = func(r *http.Request) (*url.URL, error) {
		if ip, err := netip.ParseAddr(r.URL.Hostname()); err == nil && ip.IsLoopback() {
			return nil, nil // as http.ProxyFromEnvironment
		}
		return pu, nil
	}
	addFeed(t, x, Feed{URL: "http://203.0.113.10/feed", Interval: Duration(3600e9)})
	if r := once(t, newWatcher(t, x, o))[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 || r.Outcomes[OutcomeRefused] != 1 {
		t.Errorf("%+v (%v), want 1 added, 1 refused", r, r.Err)
	}
	it := storedItems(t, x, "http://203.0.113.10/feed")[px.URL+"/squid-internal-mgr/info"]
	if it.Outcome != OutcomeRefused || !strings.Contains(it.Detail, "loopback") {
		t.Errorf("the link to the proxy: stored %+v, want refused as loopback", it)
	}
	own.Lock()
	defer own.Unlock()
	if ownHits != 0 {
		t.Errorf("the proxy answered %d requests of its own, want none", ownHits)
	}
}

// proxyTo is a proxy function that sends every request to the proxy at
// u.
func proxyTo(u string) outbound.ProxyFunc {
	pu, _ := url.Parse(u)
	return func(*http.Request) (*url.URL, error) { return pu, nil }
}

// An item linking to no address (no host, http://:PORT/x, which Go dials
// on this machine; a host ending in a number that is no IPv4 address,
// 256.1.1.1) is refused, directly or through a proxy: stored with the
// outcome refused, its detail naming the link and why it is no address,
// and not tried again. It was stored as an error that may pass, and
// fetched again on the next two passes.
func TestNoAddressItemsRefused(t *testing.T) {
	page := newStory(5).page("Here", "")
	for _, tc := range []struct {
		name  string
		proxy bool
	}{{"direct", false}, {"through a proxy", true}} {
		t.Run(tc.name, func(t *testing.T) {
			x := newIndex(t)
			var mu sync.Mutex
			var asked []string
			var links []string
			s := startAt(t, "127.0.0.2", http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				mu.Lock()
				asked = append(asked, r.URL.Path)
				mu.Unlock()
				if r.URL.Path == "/feed" {
					var items []item
					for i, l := range links {
						items = append(items, item{title: fmt.Sprint("item ", i), link: l})
					}
					rw.Header().Set("Content-Type", "application/rss+xml")
					rw.Write([]byte(rss2(items...)))
					return
				}
				rw.Header().Set("Content-Type", "text/html")
				rw.Write([]byte(page))
			}))
			_, port, _ := strings.Cut(strings.TrimPrefix(s.URL, "http://"), ":")
			o, feed := allowOnly("127.0.0.2/32"), s.URL+"/feed"
			links = []string{s.URL + "/news/here", "http://:" + port + "/nohost", "http://256.1.1.1:" + port + "/number"}
			if tc.proxy {
				// The proxy (the site itself) is asked for every URL:
				// 203.0.113.10, a range for documentation, is let through.
				o.proxy = proxyTo(s.URL)
				feed = "http://203.0.113.10/feed"
				links[0] = "http://203.0.113.10/news/here"
			}
			addFeed(t, x, Feed{URL: feed, Interval: Duration(3600e9)})
			w := newWatcher(t, x, o)
			if r := once(t, w)[0]; r.Status != "ok" || r.Outcomes[OutcomeAdded] != 1 || r.Outcomes[OutcomeRefused] != 2 {
				t.Fatalf("%+v (%v), want 1 added, 2 refused", r, r.Err)
			}
			stored := storedItems(t, x, feed)
			for _, l := range links[1:] {
				it := stored[Canonical(l)]
				if it.Outcome != OutcomeRefused || it.Tries != maxTries ||
					!strings.HasPrefix(it.Detail, Canonical(l)+": refused: the destination is no address: ") {
					t.Errorf("%s: stored %+v, want refused for good, naming the link and why it is no address", l, it)
				}
			}
			if r := once(t, w)[0]; r.New != 0 {
				t.Errorf("second pass: %d new items (%v), want none tried again", r.New, r.Outcomes)
			}
			mu.Lock()
			defer mu.Unlock()
			if want := []string{"/feed", "/news/here", "/feed"}; !slices.Equal(asked, want) {
				t.Errorf("the site was asked for %q, want %q", asked, want)
			}
		})
	}
}
