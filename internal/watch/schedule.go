package watch

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/neardup/neardup"
)

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// slots hands feeds to the polls under way: at most workers at once, and
// the feeds whose pages are fetched from one host (see slotHost) to at
// most half of them, at least one. A host answers one request at a time
// (the host gate): more polls fetching from it would hold workers waiting
// for their turn there, while the feeds of other hosts waited. It is used
// by one goroutine.
type slots struct {
	workers, perHost int
	busy             map[int64]string // the feeds being polled, and their hosts
	hosts            map[string]int   // how many polls under way each host has
	keys             map[int64]string // the feeds' slotHost, read from their state once until their poll is done
}

func newSlots(workers int) *slots {
	return &slots{workers: workers, perHost: max(1, workers/2), busy: map[int64]string{}, hosts: map[string]int{},
		keys: map[int64]string{}}
}

// take marks busy the feeds of pending that may start now, in order, and
// returns them and the others, still in order.
func (s *slots) take(pending []neardup.Feed) (start, rest []neardup.Feed) {
	for i, f := range pending {
		if len(s.busy) >= s.workers {
			return start, append(rest, pending[i:]...)
		}
		h, ok := s.keys[f.ID]
		if !ok {
			h = slotHost(&f)
			s.keys[f.ID] = h
		}
		if s.hosts[h] >= s.perHost {
			rest = append(rest, f)
			continue
		}
		s.busy[f.ID] = h
		s.hosts[h]++
		start = append(start, f)
	}
	return start, rest
}

// done frees the slot of the feed's poll, and forgets its host: the poll
// may have learnt another (State.PageHost).
func (s *slots) done(feed int64) {
	h := s.busy[feed]
	delete(s.busy, feed)
	delete(s.keys, feed)
	if s.hosts[h]--; s.hosts[h] <= 0 {
		delete(s.hosts, h)
	}
}

// slotHost is the host a feed's polls count against in slots: the host
// its pages are fetched from, as its last poll that read links found
// (State.PageHost); the feed itself when they are on many hosts (an
// aggregator's), whose poll waits at no one host's turn; and until a
// poll has read its links, or when its state does not decode, the host of
// its URL. The feed's URL alone stood for its pages' host: the feeds of an
// aggregator shared half the workers, their pages on a hundred hosts, while
// the feeds of several hosts linking to one site took them all, waiting
// for that site's turn.
func slotHost(f *neardup.Feed) string {
	var st struct {
		PageHost string `json:"page_host"`
	}
	if json.Unmarshal(f.State, &st) != nil || st.PageHost == "" {
		return feedHost(f.URL)
	}
	if st.PageHost == manyHosts {
		return "feed " + strconv.FormatInt(f.ID, 10) // a space: no host's
	}
	return st.PageHost
}

// manyHosts is State.PageHost of a feed whose links are on many hosts, no
// one of them holding more than half.
const manyHosts = "*"

// pagesHost is the host (and port) that more than half of the entries'
// pages are fetched from, manyHosts when no host is, and was when no
// entry has a link.
func pagesHost(es []entry, was string) string {
	count := map[string]int{}
	linked := 0
	for _, e := range es {
		if u, err := url.Parse(e.fetch); err == nil && u.Host != "" {
			count[hostKey(u)]++
			linked++
		}
	}
	if linked == 0 {
		return was
	}
	for h, n := range count {
		if 2*n > linked {
			return h
		}
	}
	return manyHosts
}

// due returns the feeds due at now that are not being polled, the longest
// due first (so that, with more feeds due than workers, none waits behind
// others due again and again), and how long until the next of the others
// is due (at most rescanWait, so that a feed added meanwhile waits no
// longer).
func due(feeds []neardup.Feed, busy map[int64]string, now int64) ([]neardup.Feed, time.Duration) {
	var out []neardup.Feed
	next := rescanWait
	for _, f := range feeds {
		_, polling := busy[f.ID]
		switch {
		case polling:
		case f.NextPoll <= now:
			out = append(out, f)
		default:
			next = min(next, time.Duration(f.NextPoll-now)*time.Second)
		}
	}
	slices.SortStableFunc(out, func(a, b neardup.Feed) int { return cmp.Compare(a.NextPoll, b.NextPoll) })
	return out, next
}

// ceilUnix is t in whole seconds since the epoch, rounded up.
func ceilUnix(t time.Time) int64 {
	if t.Nanosecond() > 0 {
		return t.Unix() + 1
	}
	return t.Unix()
}

// feedHost is the host (and port) of a feed's URL, stored canonical (see
// Canonical), as the host gate keys its requests; "" when the URL does not
// parse.
func feedHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return hostKey(u)
}
