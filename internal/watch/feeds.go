// Package watch owns the feed watcher: web feeds (RSS, Atom, JSON Feed)
// polled on their intervals, politely (conditional requests, one request
// at a time per host, Retry-After and backoff), each new item's page
// fetched, its article extracted with the feed's site rule and added to the
// index, where it is checked against everything stored on arrival. Feeds,
// their polling state and the items seen are kept in the index's store, so
// a restart or a reordered feed never adds an article twice.
package watch

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/span"
)

// Feed is a feed's settings.
type Feed struct {
	// URL is the feed's address.
	URL string `json:"url" yaml:"url"`
	// Interval is how often it is polled; 0 in a feeds file, where it is
	// left out, for none given.
	Interval Duration `json:"interval" yaml:"interval,omitempty"`
	// Rule is the site rule its pages are extracted with; nil means the
	// extractor's own choice of the article.
	Rule *Rule `json:"rule,omitempty" yaml:"rule,omitempty"`
}

// Rule is a site rule for one feed's pages, with the keys of the site rules
// file (see package rules) but hosts and url: it applies to every page of
// the feed.
type Rule struct {
	Body       string       `json:"body,omitempty" yaml:"body,omitempty"`
	Drop       []string     `json:"drop,omitempty" yaml:"drop,omitempty"`
	DropAttr   []AttrFilter `json:"drop_attr,omitempty" yaml:"drop_attr,omitempty"`
	Strip      []string     `json:"strip,omitempty" yaml:"strip,omitempty"`
	StripRegex []string     `json:"strip_regex,omitempty" yaml:"strip_regex,omitempty"`
	ArticleURL string       `json:"article_url,omitempty" yaml:"article_url,omitempty"`
}

// AttrFilter drops elements by an attribute pattern (see rules.AttrFilter).
type AttrFilter struct {
	Tag   string `json:"tag,omitempty" yaml:"tag,omitempty"`
	Attr  string `json:"attr" yaml:"attr"`
	Match string `json:"match" yaml:"match"`
}

// ParseAttrFilter reads a filter written TAG[ATTR]=REGEXP, the tag left out
// for any: "div[class]=^ad", "[id]=promo", as the feeds commands' flag
// --drop-attr and the web UI's feed form take it. The regexp is checked
// with the rest of the rule (Feed.Check).
func ParseAttrFilter(s string) (AttrFilter, error) {
	sel, match, ok := strings.Cut(s, "=")
	tag, attr, bracket := strings.Cut(sel, "[")
	attr, closed := strings.CutSuffix(attr, "]")
	if !ok || !bracket || !closed || attr == "" || match == "" ||
		strings.ContainsAny(tag, "[] \t") || strings.ContainsAny(attr, "[] \t") {
		return AttrFilter{}, fmt.Errorf("%q: want TAG[ATTR]=REGEXP, e.g. div[class]=^ad, or [ATTR]=REGEXP for any tag", s)
	}
	return AttrFilter{Tag: tag, Attr: attr, Match: match}, nil
}

// String writes f as ParseAttrFilter reads it.
func (f AttrFilter) String() string { return f.Tag + "[" + f.Attr + "]=" + f.Match }

// Duration is a time.Duration written as "15m".
type Duration time.Duration

// MarshalText writes d as time.Duration.String does, without zero
// minutes or seconds: "15m", "1h", "1h30m".
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// String writes d as MarshalText does.
func (d Duration) String() string {
	s := time.Duration(d).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// UnmarshalText reads a span of time as span.Parse does: Go's durations
// ("15m", "1h30m") and days, weeks and months ("2d", "1w", "1mo"), as
// index expire --older-than takes them.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := span.Parse(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q: %w", b, err)
	}
	*d = Duration(v)
	return nil
}

// UnmarshalYAML reads a feeds file's interval as UnmarshalText does; a
// value that is no duration is a *durationError with its line.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := span.Parse(n.Value)
	if err != nil {
		return &durationError{line: n.Line, value: n.Value, err: err}
	}
	*d = Duration(v)
	return nil
}

// durationError is an interval of a feeds file that is no duration.
type durationError struct {
	line  int
	value string
	err   error // span.Parse's
}

func (e *durationError) Error() string {
	return fmt.Sprintf("line %d: %s", e.line, e.msg())
}

// msg says what is wrong without the line.
func (e *durationError) msg() string {
	return fmt.Sprintf("interval %q is not a duration: %v", e.value, e.err)
}

func (e *durationError) Unwrap() error { return e.err }

// MinInterval is the shortest interval a feed may have.
const MinInterval = time.Minute

// Check returns an error naming the first setting that is wrong, the site
// rule's errors included.
func (f *Feed) Check() error {
	if _, err := FeedURL(f.URL); err != nil {
		return err
	}
	if time.Duration(f.Interval) < MinInterval {
		return fmt.Errorf("feed %s: interval %s is shorter than %s", ShownURL(f.URL), time.Duration(f.Interval), MinInterval)
	}
	_, err := f.rules()
	return err
}

// FeedURL returns the form of a feed's URL that is stored and compared, so
// that one feed is stored once however its URL is written: scheme and host
// lower-cased, the port written as a number (:080 is :80), a default port
// (:80 for http, :443 for https) and the fragment left out, the rest as given (its parameters may select the
// feed). A URL that is not an http or https URL with a host, has a port
// out of 1-65535 or a raw space is an error naming it.
func FeedURL(raw string) (string, error) {
	u, err := webURL("feed", raw)
	if err != nil {
		return "", err
	}
	u.Host, u.Fragment, u.RawFragment = hostKey(u), "", ""
	return u.String(), nil
}

// PageURL returns the URL of a page to fetch (feeds test, the web UI's
// trial of a rule) without the white space around it, or an error naming
// what is wrong with it, as FeedURL names it of a feed's: no http or https
// URL with a host, a port out of 1-65535, a raw space or line break, or
// what does not parse.
func PageURL(raw string) (string, error) {
	if _, err := webURL("page", raw); err != nil {
		return "", err
	}
	return strings.TrimSpace(raw), nil
}

// webURL parses raw, the URL of a feed or a page (what), its scheme
// lower-cased, and returns an error naming what is wrong with it (see
// PageURL).
func webURL(what, raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if strings.ContainsAny(raw, "\r\n") {
		return nil, fmt.Errorf("%s %q: a line break in the URL (two URLs in one? give each %s its own)", what, ShownURL(raw), what)
	}
	if strings.ContainsAny(raw, " \t") {
		return nil, fmt.Errorf("%s %q: a space in the URL (write it %%20)", what, ShownURL(raw))
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s %q: %w", what, ShownURL(raw), parseError(raw))
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		return nil, fmt.Errorf("%s %q: want an http or https URL", what, ShownURL(raw))
	case u.Hostname() == "":
		// A host of a port alone ("http://:8080/x") or of a user alone
		// ("http://@/x") is none.
		return nil, fmt.Errorf("%s %q: the URL names no host", what, ShownURL(raw))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("%s %q: port %s is out of range (1-65535)", what, ShownURL(raw), p)
		}
	}
	return u, nil
}

// ShownURL returns a feed's URL as pages and listings show it: with the
// password of a URL that carries one ("https://reader:xxxxx@example.com/feed")
// left out, as a private feed's URL may carry it. What is stored and
// exported keeps it. A URL that does not parse, or gives no scheme
// ("reader:secret@example.com/feed"), has what stands for a password left
// out all the same: what follows the first colon of the part before its
// last "@" (its first, when it parses), after the scheme's "//".
func ShownURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return hidePassword(raw, strings.LastIndexByte(raw, '@'))
	case u.User != nil:
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
	case u.Opaque != "":
		return hidePassword(raw, strings.IndexByte(raw, '@'))
	}
	return raw
}

// hidePassword returns raw with "xxxxx" for what follows the first colon
// of its user part, which ends at at (the index of an "@"; none when
// negative) and begins after the scheme's "//", or at the start. When
// what follows the "//" up to the first "/", "\", "?" or "#" before the
// "@" is a host and a port (http://127.0.0.2:18080\@127.0.0.1:18081/x,
// which a browser reads as 127.0.0.2:18080 and the path /@127.0.0.1...),
// there is no user part: raw is returned as it is, where its port was
// shown as a password ("http://127.0.0.2:xxxxx@...").
func hidePassword(raw string, at int) string {
	if at < 0 {
		return raw
	}
	start := 0
	if i := strings.Index(raw[:at], "//"); i >= 0 {
		start = i + 2
		if end := strings.IndexAny(raw[start:at], "/\\?#"); end >= 0 && hostAndPort(raw[start:start+end]) {
			return raw
		}
	}
	colon := strings.IndexByte(raw[start:at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon+1] + "xxxxx" + raw[at:]
}

// hostAndPort reports whether s reads as a host and a port of digits
// (example.com:8080, [::1]:8080), where no password can be.
func hostAndPort(s string) bool {
	i := strings.LastIndexByte(s, ':')
	host, port := s[:max(i, 0)], s[i+1:]
	if strings.HasPrefix(host, "[") != strings.HasSuffix(host, "]") || strings.Contains(strings.Trim(host, "[]"), "[") {
		return false
	}
	return i > 0 && port != "" && strings.Trim(port, "0123456789") == "" && !strings.ContainsAny(host, "@ ") &&
		(strings.HasPrefix(host, "[") || !strings.Contains(host, ":"))
}

// parseError returns why raw does not parse as a URL without quoting raw,
// as url.Parse's error does, password included: the error of the URL
// shown (ShownURL), which names the part at fault, or when that one parses
// (the password was at fault), how to write a password.
func parseError(raw string) error {
	_, err := url.Parse(ShownURL(raw))
	var ue *url.Error
	switch {
	case errors.As(err, &ue):
		return ue.Err
	case err != nil:
		return err
	}
	return errors.New("its user and password do not parse (write /, ?, # and @ in a password as %2F, %3F, %23 and %40)")
}

// canonicalURL sets the feed's URL to its FeedURL, when it has one.
func (f *Feed) canonicalURL() {
	if u, err := FeedURL(f.URL); err == nil {
		f.URL = u
	}
}

// checkGiven checks the settings a feeds file gives: an Interval of 0, not
// given, is checked as DefaultInterval.
func (f Feed) checkGiven() error {
	if f.Interval == 0 {
		f.Interval = Duration(DefaultInterval)
	}
	return f.Check()
}

// rules compiles the feed's rule as a set of one rule for every page.
func (f *Feed) rules() (*rules.Set, error) {
	return compileRule(f.Rule, f.URL)
}

// compileRule compiles a feed's rule (the feed's URL, "" for a rule tried
// on a page) as a set of one rule for every page; nil for no rule.
func compileRule(r *Rule, feed string) (*rules.Set, error) {
	if r == nil {
		return nil, nil
	}
	name := "the site rule"
	if feed != "" {
		name += " of feed " + ShownURL(feed)
	}
	body, err := yaml.Marshal(map[string]any{"version": 1, "rules": []any{namedRule{name, r}}})
	if err != nil {
		return nil, err
	}
	set, err := rules.Parse(body, "")
	var re *rules.Error
	if errors.As(err, &re) {
		key, msg, _ := strings.Cut(re.Msg, ": ")
		return nil, &RuleError{Feed: feed, Key: key, Msg: msg}
	}
	return set, err
}

// namedRule is a feed's rule with the name its messages give it.
type namedRule struct {
	Name  string `yaml:"name"`
	*Rule `yaml:",inline"`
}

// RuleError is a mistake in a feed's site rule: Key is the rule's key
// (body, drop, strip, strip_regex, article_url, drop_attr), Msg what is
// wrong with its value.
type RuleError struct {
	Feed string // the feed's URL, as stored (its password included); "" for a rule tried on a page
	Key  string
	Msg  string
}

// Error returns "feed URL: site rule: key: message", the URL without its
// password (ShownURL), and without the feed for a rule tried on a page.
func (e *RuleError) Error() string {
	if e.Feed == "" {
		return fmt.Sprintf("site rule: %s: %s", e.Key, e.Msg)
	}
	return fmt.Sprintf("feed %s: site rule: %s: %s", ShownURL(e.Feed), e.Key, e.Msg)
}

// State is what the watcher remembers of a feed between polls.
type State struct {
	ETag         string         `json:"etag,omitempty"`
	LastModified string         `json:"last_modified,omitempty"`
	LastPoll     time.Time      `json:"last_poll,omitzero"` // zero, left out, for a feed never polled
	Status       string         `json:"status,omitempty"`   // "ok", "not modified", "paused: " and the host's pause, or the last error
	Failures     int            `json:"failures,omitempty"`
	BrowserUA    bool           `json:"browser_user_agent,omitempty"` // the site refused the configured User-Agent
	Polls        int            `json:"polls"`
	LastNew      int            `json:"last_new"`       // new items of the last poll
	Last         map[string]int `json:"last,omitempty"` // the last poll's new items by outcome
	// RuleMisses counts the pages, since the feed was added, on which its
	// site rule's body selector matched nothing (each then extracted
	// without it); RuleMiss says so for the latest of them.
	RuleMisses int    `json:"rule_misses,omitempty"`
	RuleMiss   string `json:"rule_miss,omitempty"`
	// Retries counts the items whose page failed, at the last poll that
	// read the feed, for a reason that may pass, or that its host's pause
	// put off (OutcomePaused), and which a later pass tries again. While
	// there are some, the feed is fetched without its ETag and
	// Last-Modified, so that a 304 does not hold them back.
	Retries int `json:"retries,omitempty"`
	// Cut counts the items the last poll that read the feed left out, its
	// oldest, past Options.MaxItems: the feed lists more than the watcher
	// takes, a warning of the feed's (0: none left out).
	Cut int `json:"cut,omitempty"`
	// Forgotten counts, by outcome, the items the index no longer keeps
	// of the feed (see ForgetFactor): the counts of its items (Stored.Items)
	// include them, so that they stay what the feed gave since it was
	// added.
	Forgotten map[string]int `json:"forgotten,omitempty"`
	// PageHost is the host (and port) the feed's pages are fetched from,
	// as the last poll that read links found: the host of more than half
	// of them, or "*" when they are on many hosts. The feeds of one host
	// of pages share half the workers (see Watcher.Run); "" until a poll
	// has read a link.
	PageHost string `json:"page_host,omitempty"`
}

// File is a YAML file of feeds, as `neardup feeds import` reads and
// `neardup feeds export` writes.
type File struct {
	Version int    `yaml:"version"`
	Feeds   []Feed `yaml:"feeds"`
}

// maxFeedsFile bounds the size of a feeds file.
const maxFeedsFile = 16 << 20

// ReadFile reads a feeds file and checks every feed: a YAML file as
// `neardup feeds export` writes, or an OPML subscription list as feed
// readers export (its feeds with no interval and no site rule). A feed
// whose entry gives no interval has Interval 0, no rule a nil Rule: Import
// then keeps a stored feed's own, and gives a new one DefaultInterval.
func ReadFile(path string) ([]Feed, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(fd, maxFeedsFile+1))
	fd.Close()
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", path, err)
	case len(data) > maxFeedsFile:
		return nil, fmt.Errorf("%s: over %d MiB, too large for a feeds file", path, maxFeedsFile>>20)
	}
	return parseFeeds(path, data)
}

// parseFeeds reads the feeds of a file's data (see ReadFile); path names
// it in errors.
func parseFeeds(path string, data []byte) ([]Feed, error) {
	data, wasUTF16 := fromUTF16(data)
	if isXML(data) {
		return readOPML(path, data, wasUTF16)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	switch err := dec.Decode(&doc); {
	case errors.Is(err, io.EOF), err == nil && (len(doc.Content) == 0 || isNull(doc.Content[0])):
		return nil, fmt.Errorf("%s: empty: a feeds file starts with a \"version: 1\" line, as neardup feeds export writes", path)
	case err != nil:
		return nil, syntaxError(path, err)
	}
	if err := checkFile(path, &doc); err != nil {
		return nil, err
	}
	var f File
	var de *durationError
	switch err := doc.Decode(&f); {
	case errors.As(err, &de):
		return nil, fmt.Errorf("%s:%d: %s", path, de.line, de.msg())
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := oneDocument(path, dec); err != nil {
		return nil, err
	}
	switch f.Version {
	case 1:
	case 0:
		return nil, fmt.Errorf("%s: no \"version: 1\" line: a feeds file starts with it, as neardup feeds export writes", path)
	default:
		return nil, fmt.Errorf("%s: version %d: this neardup reads version 1", path, f.Version)
	}
	first := map[string]int{} // by URL, the index of the feed that lists it
	for i := range f.Feeds {
		if err := f.Feeds[i].checkGiven(); err != nil {
			return nil, fmt.Errorf("%s:%d: feed %d: %w", path, feedLine(data, i, err), i+1, err)
		}
		f.Feeds[i].canonicalURL()
		if j, ok := first[f.Feeds[i].URL]; ok {
			return nil, fmt.Errorf("%s:%d: feed %d: %s is feed %d already (line %d): list a feed once, with its settings",
				path, feedLine(data, i, nil), i+1, ShownURL(f.Feeds[i].URL), j+1, feedLine(data, j, nil))
		}
		first[f.Feeds[i].URL] = i
	}
	return f.Feeds, nil
}

// oneDocument refuses a feeds file that holds a second YAML document
// after the one dec read (after a "---" line, as two files joined): its
// feeds would go unread.
func oneDocument(path string, dec *yaml.Decoder) error {
	var next yaml.Node
	err := dec.Decode(&next)
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return syntaxError(path, err)
	case len(next.Content) == 0 || next.Content[0].Tag == "!!null":
		return nil // an empty document, as a last "---" makes
	}
	return fmt.Errorf("%s:%d: a second YAML document, after a \"---\" line: a feeds file is one, its feeds one list under \"feeds:\"", path, next.Content[0].Line)
}

// DefaultInterval is a feed's interval when its file entry gives none.
const DefaultInterval = 15 * time.Minute

func marshalJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the types of this file always marshal
	}
	return b
}

// feedLine returns the line of the i-th feed of a feeds file's data, or of
// the key of its rule that err, a *RuleError, names.
func feedLine(data []byte, i int, err error) int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	feeds := mapValue(doc.Content[0], "feeds")
	if feeds == nil || feeds.Kind != yaml.SequenceNode || i >= len(feeds.Content) {
		return 0
	}
	feed := feeds.Content[i]
	var re *RuleError
	if errors.As(err, &re) {
		if v := mapValue(mapValue(feed, "rule"), re.Key); v != nil {
			return v.Line
		}
	}
	return feed.Line
}

// mapValue returns the value of key in a YAML mapping node; nil when n is
// not a mapping or has no such key.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		if n.Content[j].Value == key {
			return n.Content[j+1]
		}
	}
	return nil
}
