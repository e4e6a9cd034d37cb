// Package store owns the persistent index: documents, each method's
// sketches, the marks a method put on pairs, clusters and the change log that
// lets several processes share one index. It has two engines behind one
// interface and one conformance suite: SQLite (a single file, pure Go, the
// embedded default) and PostgreSQL (a shared server). The schema carries a
// version; opening an older store migrates it in one transaction, opening a
// newer one fails.
//
// Every write happens in Update, one transaction that first takes the
// index's writer lock: SQLite's write lock (BEGIN IMMEDIATE, waiting up to
// the busy timeout), or a transaction-scoped advisory lock in PostgreSQL.
// Writers therefore commit one at a time, in the order of the ordinals they
// assign, so a process that remembers the last ordinal and removal it has
// seen catches up on every other writer's work by reading what follows them.
package store

import (
	"context"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
)

// Doc is a stored document: everything of it but its sketches.
type Doc struct {
	// Ord is the document's ordinal, assigned in the order of adds, never
	// reused.
	Ord int64
	ID  string
	// Source, URL and Title are as the input gave them.
	Source, URL, Title string
	// Date is the publication time in Unix seconds; 0 when unknown.
	Date int64
	// Added is when the document was stored, in Unix seconds.
	Added int64
	// Lang is the detected language, "" when unknown.
	Lang string
	// Hash is a hash of the normalised title and text: equal hashes mean
	// an exact duplicate.
	Hash uint64
	// Length is the text's length in bytes.
	Length int
	// Skip is why the method did not compare the document, if it did not.
	Skip core.SkipReason
	// Cluster is the document's cluster; 0 when it is in none.
	Cluster int64
	// Place is the ordinal of the stored version of its ID that the
	// document replaced (that version's own Place, when it had one): its
	// place among the documents of its date, which decides the original
	// of a tie (see Rank); 0 when it replaced none.
	Place int64
	// Text is the body, when the index stores texts; "" otherwise.
	Text string
}

// Rank returns the document's place among the documents of its date, as
// cluster.ComparePublished orders them: Place, else its ordinal. A new
// version of a document so keeps the place of the one it replaced.
func (d *Doc) Rank() int64 {
	if d.Place != 0 {
		return d.Place
	}
	return d.Ord
}

// DateTime returns a date the store holds in Unix seconds (Doc.Date,
// ClusterInfo.Latest) as a time in UTC, or the zero time for none: 0, or
// one past year 9999 in UTC (core.PastYear9999), which an index written
// before such dates were refused may hold and which no answer or file can
// write (encoding/json refuses it; RFC 3339 has four figures of a year).
func DateTime(sec int64) time.Time {
	t := time.Unix(sec, 0).UTC()
	if sec == 0 || core.PastYear9999(t) {
		return time.Time{}
	}
	return t
}

// Dated returns the time the news window counts from: the document's own
// date, or when it was stored.
func (d *Doc) Dated() int64 {
	if d.Date != 0 {
		return d.Date
	}
	return d.Added
}

// Mark is a pair a method found, stored: A is the earlier document.
type Mark struct {
	A, B     int64
	Method   string
	Score    float64
	Label    core.Label
	Evidence []byte // the method's evidence as JSON
	At       int64  // Unix seconds
}

// Other returns the document a mark joins to document ord, one of its two.
func (m *Mark) Other(ord int64) int64 {
	if m.A == ord {
		return m.B
	}
	return m.A
}

// Meta is what an index records with its first documents: the method, its
// options and the versions of what its sketches depend on. A later open
// with other settings is refused.
type Meta struct {
	Method      string `json:"method"`
	Options     string `json:"options"` // the method's options as JSON
	Format      int    `json:"sketch_format"`
	HashVersion int    `json:"hash_version"`
	StoreText   bool   `json:"store_text"`
	Link        string `json:"link,omitempty"` // the linking policy (see cluster.Linking); "" is any
	Created     int64  `json:"created"`
}

// Removal is an entry of the change log: a document removed, with the
// index part of its sketch, which another process needs to take it out of
// its own in-memory index; or, with Sketched, a document stored without a
// sketch that was given one (DocWriter.SetSketch), with the index part of
// that sketch, which another process loads into its in-memory index.
type Removal struct {
	Seq int64
	Ord int64
	// Index is nil when no part is logged: the document had no sketch,
	// or its stored part was damaged (see Repairer.Mend).
	Index []byte
	// Sketched is set for a document given a sketch, not removed.
	Sketched bool
}

// Sketch is the two parts of a stored document's sketch (see engine.Codec).
type Sketch struct {
	Index, Detail []byte
}

// Reader reads a consistent view of the index: within Update, the
// transaction's own writes included. It is the union of the store's small
// interfaces, which a part that reads only some of the tables takes. A
// document's record, sketch part, text or mark read that does not match
// its checksum is a *ChecksumError (see checksum.go), never returned as if it were sound.
type Reader interface {
	DocReader
	FeedReader
	SearchReader
}

// DocReader reads the documents, their sketches, marks and clusters.
type DocReader interface {
	// Meta returns the index's settings; ok is false for a store that
	// holds no index yet.
	Meta() (m Meta, ok bool, err error)
	// Head returns the last ordinal assigned and the last removal logged.
	Head() (lastOrd, lastRemoval int64, err error)
	// Indexes calls fn with the ordinal and index part of every document
	// with a sketch whose ordinal is above after, in increasing order.
	Indexes(after int64, fn func(ord int64, index []byte) error) error
	// Removals returns the change log after seq, in order.
	Removals(after int64) ([]Removal, error)
	// Detail returns the detail part of a document's sketch; nil when it
	// has none; ErrNotFound when the document is not stored.
	Detail(ord int64) ([]byte, error)
	// Sketch returns both parts of a document's sketch.
	Sketch(ord int64) (Sketch, error)
	// IndexPart returns the index part of a document's sketch, and reads
	// no more; ErrNotFound when the document is not stored or has no
	// sketch.
	IndexPart(ord int64) ([]byte, error)
	// Docs returns the stored documents of the given ordinals, in the
	// given order, leaving out those not stored.
	Docs(ords []int64) ([]Doc, error)
	// Lookup returns the ordinals of the stored documents with the given
	// IDs, by ID.
	Lookup(ids []string) (map[string]int64, error)
	// Doc returns the document with the given ID, or ErrNotFound.
	Doc(id string) (Doc, error)
	// MarksOf returns the marks of a document, as A or as B.
	MarksOf(ord int64) ([]Mark, error)
	// MethodMarks returns the marks of a method that have one of ords
	// as A or as B, each once, in no order.
	MethodMarks(method string, ords []int64) ([]Mark, error)
	// Members returns the ordinals of a cluster's documents, in order.
	Members(cluster int64) ([]int64, error)
	// First returns the ordinal and the place (Doc.Rank) of a cluster's
	// member first in place order, whatever the dates: the member a
	// cluster.Linker names the cluster by, a new version of a document
	// standing where the version it replaced stood; ErrNotFound when the
	// cluster has no members.
	First(cluster int64) (ord, rank int64, err error)
	// Original returns a cluster's member published first, as
	// cluster.ComparePublished orders them: the earliest date, the dated
	// before the undated, then the first place (Doc.Rank: a new version of
	// a document where the version it replaced was, else where it was
	// stored); ErrNotFound when the cluster has no members.
	Original(cluster int64) (Doc, error)
	// EachDoc calls fn with every stored document in ordinal order, with
	// its text when withText.
	EachDoc(withText bool, fn func(d *Doc) error) error
	// EachMark calls fn with every mark, by B then A.
	EachMark(fn func(m *Mark) error) error
	// Older returns the ordinals of the documents dated before t (Unix
	// seconds; see Doc.Dated), in order. It reads every document: about a
	// second a million.
	Older(t int64) ([]int64, error)
	// Counts returns how many documents, documents skipped by reason, marks
	// by label and clusters the index holds.
	Counts() (Counts, error)
	// Exact returns the documents stored under exact keys (see AddExact).
	Exact(keys []uint64) (map[uint64]int64, error)
}

// FeedReader reads the feeds a watcher polls and the items it dealt with.
type FeedReader interface {
	// Feeds returns every feed, by id.
	Feeds() ([]Feed, error)
	// Feed returns the feed of the given id; ErrNotFound when none is
	// stored. Read in Update, it is the feed as the last write committed
	// left it: writes run one at a time.
	Feed(id int64) (Feed, error)
	// FeedItems returns the items of a feed dealt with, of those named.
	FeedItems(feed int64, items []string) (map[string]FeedItem, error)
	// RecentItems returns the last limit items of a feed dealt with, the
	// latest first.
	RecentItems(feed int64, limit int) ([]FeedItem, error)
	// ItemMembers returns the ordinals, in order, of the members of a
	// cluster that an item of some feed was made into with one of the
	// outcomes given.
	ItemMembers(cluster int64, outcomes []string) ([]int64, error)
	// ItemCounts counts the items dealt with of every feed, by outcome.
	ItemCounts() (map[int64]map[string]int, error)
	// Lookup returns the ordinals of the stored documents with the given
	// IDs, by ID: which items of a feed are stored.
	Lookup(ids []string) (map[string]int64, error)
	// HostPauses returns the hosts whose pause (see PauseHost) ends after
	// now, and when each ends, in Unix seconds.
	HostPauses(now int64) (map[string]int64, error)
}

// SearchReader pages through and searches the stored documents.
type SearchReader interface {
	// Latest returns a page of the documents f selects, the latest added
	// first.
	Latest(f DocFilter, p Page) ([]Doc, error)
	// Clusters returns a page of the clusters f selects, the one with the
	// latest added member first.
	Clusters(f ClusterFilter, p Page) ([]ClusterInfo, error)
	// Search returns a page of the documents whose title or text match q,
	// the best first (of the newest q.Newest, when set), and how many match
	// in all.
	Search(q Query, p Page) (hits []Hit, total int, err error)
}

// Counts summarise an index.
type Counts struct {
	Documents int                     `json:"documents"`
	Skipped   map[core.SkipReason]int `json:"skipped"`
	Marks     map[core.Label]int      `json:"marks"`
	Clusters  int                     `json:"clusters"`
	Clustered int                     `json:"clustered_documents"`
}

// Writer changes the index within one transaction.
type Writer interface {
	Reader
	DocWriter
	FeedWriter
	Repairer
}

// DocWriter stores documents, sketches, marks and clusters.
type DocWriter interface {
	// Init records the settings of a new index: in the transaction of its
	// first documents, so that an index that holds none is bound to no
	// settings. A store that holds settings already refuses it.
	Init(m Meta) error
	// Insert stores a document, its sketch (absent for a skipped document)
	// and its text when the index stores texts, and returns its ordinal.
	// The document's Ord is ignored; its Place, when not 0, must be below
	// the ordinal it is given (the ordinal of an earlier version), else
	// Insert refuses it, as every read would.
	Insert(d *Doc, sk *Sketch) (ord int64, err error)
	// AddMarks stores marks.
	AddMarks(ms []Mark) error
	// NewCluster returns an unused cluster id.
	NewCluster() (int64, error)
	// SetCluster puts documents in a cluster; 0 takes them out of any.
	SetCluster(ords []int64, cluster int64) error
	// MoveCluster puts every member of cluster from into cluster to.
	MoveCluster(from, to int64) error
	// Remove deletes documents with their sketches, texts and marks, and
	// logs each removal with its sketch's index part. It returns the
	// clusters the documents were in.
	Remove(ords []int64) (clusters []int64, err error)
	// DeleteMarks deletes every mark of a method.
	DeleteMarks(method string) error
	// SetSketch gives document ord, stored without a sketch, the sketch
	// sk, or with sk nil no sketch, and skip as its skip reason. A sketch
	// given is logged in the change log, with its index part, as an entry
	// Removals returns with Sketched set: another process loads it into
	// its in-memory index (see package index) without reading the
	// document.
	SetSketch(ord int64, skip core.SkipReason, sk *Sketch) error
	// AddExact stores the exact keys of a document; a key stored already
	// keeps its first document.
	AddExact(keys []uint64, ord int64) error
	// SetExact stores exact keys of a document in place of the documents
	// they named: a slug a site gives a new story (see index.AddOptions.Slug).
	SetExact(keys []uint64, ord int64) error
}

// FeedWriter stores feeds and the items dealt with.
type FeedWriter interface {
	FeedReader
	// AddFeed stores a new feed and returns its id; a feed of the same URL
	// is ErrExists.
	AddFeed(f *Feed) (int64, error)
	// SaveFeed stores a feed's settings and state; a feed not stored is
	// ErrNotFound.
	SaveFeed(f *Feed) error
	// SavePoll stores a feed's state and when it is polled next, and
	// nothing else: what a poll owns, leaving settings changed meanwhile as
	// they are. A feed not stored (removed meanwhile) is ErrNotFound.
	SavePoll(id int64, state []byte, nextPoll int64) error
	// DeleteFeed deletes a feed and its items (not the documents made of
	// them).
	DeleteFeed(id int64) error
	// SaveItems stores items of feeds, replacing what was stored of them.
	// An item of a feed not stored (removed meanwhile) is ErrNotFound, and
	// nothing is stored.
	SaveItems(items []FeedItem) error
	// PruneItems deletes the stored items of a feed that are not listed
	// (the items the feed lists now) beyond the keep of them seen last (by
	// FeedItem.Seen, then by key), and returns how many it deleted, by
	// outcome: the items a feed lists are kept, so that they are not
	// fetched again, and the rows of a feed whose items change stay
	// bounded. It reads the feed's rows only when it holds more than keep.
	PruneItems(feed int64, listed []string, keep int) (map[string]int, error)
	// RelabelItems gives the outcome to the items of every feed made into
	// the documents of the given IDs whose outcome is one of from, and
	// returns how many it changed: a document found to copy one published
	// before it, which arrived later, becomes a duplicate.
	RelabelItems(docs []string, from []string, to string) (int, error)
	// PauseHost stores that host (as a URL writes it, with its port) asked
	// to be left alone until until, in Unix seconds (a Retry-After); a
	// later pause of it stored already is kept. It deletes the pauses of
	// every host that ended at now or before, so that only the hosts
	// paused are kept.
	PauseHost(host string, until, now int64) error
}

// Store is a persistent index. Its methods are safe for concurrent use.
type Store interface {
	// View runs fn in a read-only transaction: a consistent snapshot.
	View(ctx context.Context, fn func(r Reader) error) error
	// Update runs fn in a read-write transaction holding the writer lock,
	// committed when fn returns nil, rolled back otherwise.
	Update(ctx context.Context, fn func(w Writer) error) error
	// Check verifies the store's own integrity (for SQLite, that its
	// schema is the one neardup made, and its pages and indexes) and that
	// every document's record, stored sketch part, text and mark matches
	// its checksum, and returns the faults found. When
	// damage stops it part way, it returns the faults found until then
	// with the error.
	Check(ctx context.Context) (Faults, error)
	// Writable returns nil when this process may write the store, else
	// the error every Update returns: ErrClosed once the store is closed,
	// or one wrapping ErrReadOnly and saying why (a file or directory this
	// process may not write, a store opened read-only).
	Writable() error
	// Close closes the store.
	Close() error
}

// MaxFaults bounds the faults a Faults lists; past it, Add only counts.
const MaxFaults = 100

// Faults is what a check of an index found: the first faults, one line
// each, and how many in all. Its zero value is an empty list.
type Faults struct {
	// List holds the first MaxFaults faults found, one line each, in the
	// order found.
	List []string
	// Total counts every fault found, listed or not; Total-len(List) went
	// unlisted. SQLite's own integrity check reports at most 100,000.
	Total int
	// Engine counts the faults of Total that the engine's own check
	// found (SQLite's integrity check: pages, B-trees, indexes), listed
	// first; the others are records that do not match their checksums
	// (or hold a place no write stores).
	Engine int
}

// Add records the fault line: it is listed while fewer than MaxFaults
// are, and counted always.
func (f *Faults) Add(line string) {
	f.Total++
	if len(f.List) < MaxFaults {
		f.List = append(f.List, line)
	}
}

// Errors a store returns, wrapped with details.
var (
	ErrNotFound = errors.New("store: not found")
	// ErrFeedGone is the ErrNotFound of a write to a feed no longer
	// stored (removed while a pass polled it).
	ErrFeedGone = fmt.Errorf("%w: the feed is no longer stored", ErrNotFound)
	ErrTooNew   = errors.New("store: the index was written by a newer version of neardup")
	ErrNotIndex = errors.New("store: not a neardup index")
	// ErrNoIndex is Open's error, with Options.Existing, of a database
	// or file that holds no index's tables: nothing is written to it.
	ErrNoIndex   = errors.New("store: no index there: it holds none of neardup's tables")
	ErrLocked    = errors.New("store: another process is writing to the index")
	ErrReadOnly  = errors.New("store: the index cannot be written")
	ErrCorrupt   = errors.New("store: the index file is damaged")
	ErrDiskFull  = errors.New("store: the disk is full")
	ErrIO        = errors.New("store: the index file could not be read or written (a full disk, a file size limit or a failing disk)")
	ErrClosed    = errors.New("store: the index is closed")
	errForbidden = errors.New("store: a Reader cannot write")
)

// ErrUnreadable is Open's error of a SQLite file that this process cannot
// read as it is: its log beside it without the shared-memory file SQLite
// reads a log through, in a directory this process may not create that
// file in. Its message says what to do.
var ErrUnreadable = errors.New("store: the index cannot be read")

// ErrLost is the error of a read or write whose connection to the database
// server was lost under it (the server stopped, restarted or out of reach):
// named with the server and database, it wraps the driver's error
// ("unexpected EOF"). Unreachable reports it.
var ErrLost = errors.New("store: the connection to the database server was lost")

// NamedError is an error of the index at Name (a SQLite file's path, or
// "PostgreSQL at" the server, the database and the schema the URL's
// search_path names): a store names its index in every error of damage
// (ErrCorrupt, ErrIO), of a full disk (ErrDiskFull), of another process's
// lock (ErrLocked) and of opening, once however many layers wrap it.
type NamedError struct {
	Name string
	Err  error
}

func (e *NamedError) Error() string {
	return "store: " + e.Name + ": " + strings.TrimPrefix(e.Err.Error(), "store: ")
}

// Unwrap returns the error named.
func (e *NamedError) Unwrap() error { return e.Err }

// named returns err as an error of the index at name, unless it names an
// index already.
func named(name string, err error) error {
	if err == nil || errors.As(err, new(*NamedError)) || errors.As(err, new(*refusal)) {
		return err
	}
	return &NamedError{Name: name, Err: err}
}

// refusal is the error of Options.Accept, which Open returns as it is
// (the caller's, it names the index as the caller does).
type refusal struct{ err error }

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// Options configure Open.
type Options struct {
	// Sync is SQLite's synchronous setting in WAL mode: "full" (the
	// default: a committed add survives a power cut) or "normal" (faster;
	// a power cut may lose the last commits, never corrupt the file).
	// PostgreSQL keeps its server's own setting.
	Sync string
	// BusyTimeoutMillis is how long a writer waits for another process's
	// write lock (SQLite's, PostgreSQL's advisory lock) before failing
	// with ErrLocked.
	BusyTimeoutMillis int
	// ReadOnly opens without writing: no schema migration, Update fails.
	ReadOnly bool
	// Accept, if not nil, judges the index's settings before Open writes
	// anything to it: Open calls it with the settings the store holds (ok
	// false when none) before it opens a store that holds a schema for
	// writing (in SQLite, before even the switch to WAL mode) and again in
	// the transaction that upgrades an older schema, and returns the error
	// Accept returns as it is, having written nothing. When Open creates
	// the schema, it calls Accept with no settings in the transaction that
	// does, which an error rolls back. Open stores no settings: a new
	// index's are stored by the transaction of its first documents
	// (DocWriter.Init), so that an index holds settings once it holds a
	// document, and none before.
	Accept func(m Meta, ok bool) error
	// Existing opens only a store that holds an index's schema: one that
	// holds none (a PostgreSQL database or schema without neardup's
	// tables, an empty SQLite file) is ErrNoIndex, nothing created in it.
	Existing bool
}

// DefaultOptions returns the options Open uses when given none.
func DefaultOptions() Options {
	return Options{Sync: "full", BusyTimeoutMillis: 30000}
}

// Open opens the index at dsn, creating it when missing: a PostgreSQL URL
// ("postgres://" or "postgresql://", in any case) or else the path of a
// SQLite file. A URL CheckURL refuses is its *URLError, before anything
// is connected to or made.
func Open(ctx context.Context, dsn string, o Options) (Store, error) {
	if dsn == "" {
		return nil, errors.New("store: no index: the path or URL is empty")
	}
	if err := CheckURL(dsn); err != nil {
		return nil, err
	}
	if IsPostgres(dsn) {
		return openPostgres(ctx, dsn, o)
	}
	return openSQLite(ctx, dsn, o)
}

// Unreachable reports whether err is a failure to reach the index's
// database (a PostgreSQL server down or restarting): what was asked may
// succeed later.
//
// A network error counts when it is a failed dial, of connecting: one
// under a statement is ErrLost when the server did not answer after it
// (see sqlStore.wrap), and one of the caller's own work inside a
// transaction (a client gone while an export streamed to it) says nothing
// of the database.
func Unreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || errors.Is(err, sqldriver.ErrBadConn) || errors.Is(err, ErrLost) || lost(err)
}

// Redacted returns dsn as it may be shown: a PostgreSQL URL's password,
// given before the host or as its password or sslpassword parameter
// (?password=, which the PostgreSQL driver reads too), replaced by
// "xxxxx". It reads the URL as the driver does (the user name and
// password end at the first @ before the first "/"; see CheckURL), so
// that what it shows as the host is never part of a password; a URL
// CheckURL refuses, mistyped ones included, it shows as
// "postgres://(a URL that cannot be read)".
func Redacted(dsn string) string {
	if !IsPostgres(dsn) && !mistypedPostgres(dsn) {
		return dsn
	}
	if CheckURL(dsn) != nil {
		return "postgres://(a URL that cannot be read)"
	}
	scheme, rest, _ := splitScheme(dsn)
	var b strings.Builder
	b.WriteString(scheme + "://")
	if at := userinfoEnd(rest); at >= 0 {
		user, _, hasPassword := strings.Cut(rest[:at], ":")
		b.WriteString(user)
		if hasPassword {
			b.WriteString(":xxxxx")
		}
		b.WriteByte('@')
		rest = rest[at+1:]
	}
	// Every "key=value" after a "?" or "&" whose key is a password's is
	// masked, wherever the driver's query starts.
	for rest != "" {
		i := strings.IndexAny(rest, "?&")
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i+1])
		rest = rest[i+1:]
		pair := rest
		if j := strings.IndexAny(rest, "?&"); j >= 0 {
			pair = rest[:j]
		}
		key, _, hasValue := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(key); hasValue && err == nil && (k == "password" || k == "sslpassword") {
			b.WriteString(key + "=xxxxx")
			rest = rest[len(pair):]
		}
	}
	return b.String()
}

// IsPostgres reports whether dsn names a PostgreSQL database: a URL
// whose scheme is postgres:// or postgresql://, in any case.
func IsPostgres(dsn string) bool {
	scheme, _, ok := splitScheme(dsn)
	return ok && postgresScheme(scheme)
}
