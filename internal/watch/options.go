package watch

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/outbound"
)

// Options control a Watcher. The zero value of a field means the default
// named on it.
type Options struct {
	// UserAgent is the User-Agent of every request; "" means
	// DefaultUserAgent.
	UserAgent string
	// BrowserUserAgent is presented, once, to a site that answers 403 to
	// UserAgent, and from then on to that feed; "" means
	// DefaultBrowserUserAgent, "-" never.
	BrowserUserAgent string
	// HostDelay is the least time between two requests to one host (one is
	// out at a time); 0 means 1 s, negative none.
	HostDelay time.Duration
	// ConnectTimeout bounds connecting, TLS included; 0 means 10 s.
	ConnectTimeout time.Duration
	// Timeout bounds a whole request, its redirects and the body read
	// included, the time a redirect waits for its host's turn (HostDelay,
	// another request to that host) left out; 0 means 30 s.
	Timeout time.Duration
	// MaxRedirects is the most redirects a request follows; 0 means 5.
	MaxRedirects int
	// MaxBytes is the largest feed or page body, both as sent and
	// decompressed; larger ones are errors (feeds) or skipped (pages). 0
	// means 10 MiB.
	MaxBytes int
	// MinChars is the fewest characters of text an article has; shorter
	// pages are skipped as too short. 0 means 500, negative no minimum.
	MinChars int
	// Rules are the site rules of the feeds that have none of their own;
	// nil means none.
	Rules *rules.Set
	// GalleryWords are the URL words that mark a gallery, video or picture
	// page, lower-case: a page whose URL path has one as a segment or as a
	// word of a segment (split at "-", "_", "."): "/video/...",
	// "/news/gallery-photos-3.html", is skipped without being fetched. Nil
	// means DefaultGalleryWords, an empty slice none.
	GalleryWords []string
	// GalleryTextWords mark a gallery page by its text: one whose text
	// starts with one ("Gallery: the week in pictures") is skipped once
	// extracted. Nil means DefaultGalleryTextWords, an empty slice none.
	GalleryTextWords []string
	// Workers is how many feeds are polled at once; 0 means 8.
	Workers int
	// MaxBackoff bounds the wait before a failing feed's next poll, which
	// doubles with each failure from its interval; 0 means 6 h.
	MaxBackoff time.Duration
	// MaxItems is the most items of a feed a poll takes, the newest: by
	// date when every item has one, else the first the feed lists, as
	// feeds list the newest first. The others are left out, a warning of
	// the feed's (Result.Cut, State.Cut), not an error; a feed that lists
	// more than twice as many has all but its first, its last and its
	// latest (by date) MaxItems left out before it is parsed. The items stored of a feed
	// are those it lists and, of those it no longer lists, the
	// ForgetFactor × MaxItems seen last. 0 means 1,000,
	// more than a news feed lists: thousands are a mistake or an attack,
	// each new one a page fetched and a row stored.
	MaxItems int
	// Chunk is how many items of a feed are stored in one transaction; a
	// pass stopped in the middle of a feed keeps the chunks it stored. 0
	// means 20.
	Chunk int
	// AllowPrivate are address ranges requests may go to though the rule
	// of package outbound refuses them (loopback, private, link-local,
	// carrier-grade NAT, unspecified, multicast, local-use NAT64): a site
	// on a private network. nil means none.
	AllowPrivate []netip.Prefix
	// proxy chooses a request's proxy; nil means http.ProxyFromEnvironment
	// (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). Tests set it.
	proxy outbound.ProxyFunc
	// Logger receives a line per poll and per failed item; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Defaults of Options.
const (
	DefaultUserAgent        = "neardup-watch/1 (+https://github.com/neardup/neardup)"
	DefaultBrowserUserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	DefaultHostDelay        = time.Second
	DefaultConnectTimeout   = 10 * time.Second
	DefaultTimeout          = 30 * time.Second
	DefaultMaxRedirects     = 5
	DefaultMaxBytes         = 10 << 20
	DefaultMinChars         = 500
	DefaultWorkers          = 8
	DefaultMaxBackoff       = 6 * time.Hour
	DefaultChunk            = 20
	DefaultMaxItems         = 1000
)

// ForgetFactor is how many times Options.MaxItems items a feed no longer
// lists the index remembers of it, the ones seen last: an item that comes
// back within them (a feed that lists a few items, then others, then the
// first again) is not fetched again, while the rows of a feed whose items
// change on every poll stay bounded (10,000 at the default, a few MB).
const ForgetFactor = 10

// DefaultGalleryWords mark gallery, video and picture pages by their URL:
// each word with its plural, and "photos", but not "photo" or "picture",
// which articles' URLs use for one picture ("photo-finish-...").
var DefaultGalleryWords = []string{"gallery", "galleries", "video", "videos", "pics", "photos", "slideshow"}

// DefaultGalleryTextWords mark gallery pages by the start of their text.
// "Video" is not one: news articles start with it ("Video game makers
// ...").
var DefaultGalleryTextWords = []string{"gallery", "galleries"}

func (o Options) withDefaults() Options {
	o.UserAgent = cmp.Or(o.UserAgent, DefaultUserAgent)
	switch o.BrowserUserAgent {
	case "":
		o.BrowserUserAgent = DefaultBrowserUserAgent
	case "-":
		o.BrowserUserAgent = ""
	}
	switch {
	case o.HostDelay == 0:
		o.HostDelay = DefaultHostDelay
	case o.HostDelay < 0:
		o.HostDelay = 0
	}
	o.ConnectTimeout = cmp.Or(o.ConnectTimeout, DefaultConnectTimeout)
	o.Timeout = cmp.Or(o.Timeout, DefaultTimeout)
	o.MaxRedirects = cmp.Or(o.MaxRedirects, DefaultMaxRedirects)
	o.MaxBytes = cmp.Or(o.MaxBytes, DefaultMaxBytes)
	o.MinChars = cmp.Or(o.MinChars, DefaultMinChars)
	if o.GalleryWords == nil {
		o.GalleryWords = DefaultGalleryWords
	}
	if o.GalleryTextWords == nil {
		o.GalleryTextWords = DefaultGalleryTextWords
	}
	o.Workers = cmp.Or(o.Workers, DefaultWorkers)
	o.MaxBackoff = cmp.Or(o.MaxBackoff, DefaultMaxBackoff)
	o.Chunk = cmp.Or(o.Chunk, DefaultChunk)
	o.MaxItems = cmp.Or(o.MaxItems, DefaultMaxItems)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Check returns an error naming the first option that is out of range.
func (o *Options) Check() error {
	var errs []error
	if o.ConnectTimeout < 0 {
		errs = append(errs, fmt.Errorf("connect timeout %s is negative", o.ConnectTimeout))
	}
	if o.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %s is negative", o.Timeout))
	}
	if o.MaxRedirects < 0 {
		errs = append(errs, fmt.Errorf("max redirects %d is negative", o.MaxRedirects))
	}
	if o.MaxBytes < 0 {
		errs = append(errs, fmt.Errorf("max bytes %d is negative", o.MaxBytes))
	}
	if o.Workers < 0 {
		errs = append(errs, fmt.Errorf("workers %d is negative", o.Workers))
	}
	if o.MaxBackoff < 0 {
		errs = append(errs, fmt.Errorf("max backoff %s is negative", o.MaxBackoff))
	}
	if o.Chunk < 0 {
		errs = append(errs, fmt.Errorf("chunk %d is negative", o.Chunk))
	}
	if o.MaxItems < 0 {
		errs = append(errs, fmt.Errorf("max items %d is negative", o.MaxItems))
	}
	return errors.Join(errs...)
}
