// Package neardup finds duplicate and near-duplicate documents, above all
// news articles, with a choice of methods (package method/...) that share
// one pipeline: analyse → sketch → candidates → verify → group.
//
// Two calls cover most uses. Dedup finds every pair and cluster of a corpus
// in memory. Open opens a persistent index (a SQLite file, or a PostgreSQL
// database shared by several processes) whose Add checks each new document
// against everything stored, marks it, and stores it: the way a news
// crawler checks each article on arrival.
package neardup

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"reflect"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/index"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/store"
)

// The shared types, defined in package core.
type (
	// Document is one input document.
	Document = core.Document
	// Pair is two documents a method found alike, with its evidence.
	Pair = core.Pair
	// Cluster is a group of duplicates with its representative.
	Cluster = core.Cluster
	// Label grades a pair: Duplicate or Similar.
	Label = core.Label
	// SkipReason says why a document was not compared.
	SkipReason = core.SkipReason
	// Evidence is a method's reasons for a pair.
	Evidence = core.Evidence
)

// The labels of pairs.
const (
	Duplicate = core.Duplicate
	Similar   = core.Similar
)

// Methods returns the names of the methods, the default first.
func Methods() []string { return methods.Names() }

// Options configure Dedup and Open. The zero value is the default method
// with its defaults.
type Options struct {
	// Method is the detection method and its options, e.g.
	// minhash.Defaults(); a pointer to them (&mo) is the same options to
	// Dedup, DedupSeq and Open, and a nil pointer is an error. nil means
	// minhash's defaults for Dedup and for a new index, and a stored
	// index's own for an existing one (whose method and options are fixed
	// by its first add that stores a document: other ones are an error;
	// an index that holds none takes any).
	Method MethodOptions
	// MethodName, when Method is nil, names the method of Dedup (with its
	// defaults) and of a new index ("" means minhash), or the one an
	// existing index must use ("" means its own), as Configure makes its
	// options. An unknown name is an error.
	MethodName string
	// Configure, when set and Method is nil, makes the options of an
	// index opened from base: the stored index's own when it uses that
	// method, else the method's defaults; as a command's method flags
	// apply over them. It must return options of base's method, the one
	// MethodName names (or the stored index's): options of another method,
	// or nil, are an error. A stored index's options are fixed: other ones
	// are an error.
	Configure func(base MethodOptions) (MethodOptions, error)
	// Keep chooses each cluster's representative: "longest", "earliest",
	// "first" or "central"; "" means the method's own (central for
	// cosine, longest for the others).
	Keep string
	// StoreText makes a new index keep each document's text, for export
	// and search. It cannot change once the index exists: asking it of an
	// existing index created without texts is an error, which says so
	// (StoreTextIfNew opens either).
	StoreText bool
	// StoreTextIfNew makes a new index keep each document's text, as
	// StoreText does, while an existing one keeps its own choice.
	StoreTextIfNew bool
	// Existing makes Open open only an index whose method is chosen: a
	// missing SQLite file is an error (fs.ErrNotExist), not created, and a
	// store that holds no method yet (made by OpenFeeds for its feeds
	// alone) is ErrNoMethod, and Open writes nothing to it, leaving the
	// method and the choice of texts to the first Open without Existing. A
	// store that holds nothing (no method, document or feed: a first add
	// that stored nothing, or a creation cut short) opens as an empty index
	// of no method, which the first add of an Open without Existing
	// chooses. A PostgreSQL database without the index's
	// tables, or an empty SQLite file, is ErrNoIndex, nothing created in it.
	Existing bool
	// BindOnOpen makes Open store a new index's method, options and choice
	// of texts when it opens it, rather than with its first documents (the
	// default, under which a first Add that stores nothing leaves the index
	// new). It is for a process that keeps the index open long, as
	// neardup serve and watch do: another process's first add that asks
	// for other settings is then refused when it opens the index, not this
	// Index's adds once it stores first. Without it, an Index whose
	// index holds no document yet has its adds refused once another
	// process stores a document with other settings (open it again to
	// take them).
	BindOnOpen bool
	// Sync is a SQLite index's durability: "full" (the default: an add
	// that returned survives a power cut) or "normal" (faster; a power cut
	// may lose the last adds, never corrupt the file).
	Sync string
	// LockWait is how long an Index's write waits for the writer lock
	// another process holds (SQLite's write lock, PostgreSQL's advisory
	// lock) before it fails with ErrLocked; 0 means 30 s, and the longest
	// is 2^31-1 ms (24 days). The process's own writes wait for each other
	// without a bound.
	LockWait time.Duration
	// Link is how Dedup, and a new index, let a document join a cluster:
	// "any" (the default: clusters are the connected groups of duplicate
	// pairs), "anchor" (through a duplicate of the cluster's first member)
	// or "majority" (duplicates of at least half of its members). An
	// existing index keeps the policy it was created with; another is an
	// error.
	Link string
	// Window, when positive, pairs only documents dated at most this far
	// apart; an undated document pairs with any. An Index takes it from
	// Index.SetWindow.
	Window time.Duration
	// MinChars is the minimum length of a text compared, in characters,
	// white space not counted: a shorter one, and a gallery or video
	// caption, is skipped (SkipTooShort, "gallery"). 0 means 30, negative
	// compares every document. An Index is opened with it; it is not
	// stored.
	MinChars int
	// Memory, when positive, is about how many bytes Dedup and DedupSeq
	// may hold for the documents they compare (minhash and simhash; the
	// other methods refuse it): once the document table and the sketches
	// held would take half of it, the sketches of the documents after, and
	// every band key, go to files in WorkDir, and matching reads them back
	// a share at a time. The results are those of a run without it. It
	// bounds what the run keeps, not the process's heap: the collector's
	// limit (debug.SetMemoryLimit, GOMEMLIMIT) is the caller's to set,
	// about Memory for a program that holds little else. A run outgrows a
	// budget by about 250 bytes a document besides its ID (the document
	// table and the pairs found, which are not spilled). 0 means none.
	Memory int64
	// WorkDir is the directory Memory's files are written in, their names
	// removed as they are made where the system allows (Unix: a run killed
	// leaves none), else when the run returns; "" means os.TempDir().
	WorkDir string
	// OnPair, when set, is called by Dedup and DedupSeq with each pair
	// found, in the order of Result.Pairs, which then stays empty: the
	// pairs of a large corpus are handed on, not held. It is called on the
	// calling goroutine, and not again once the run's context is seen
	// cancelled: the context is checked before each call, so an OnPair
	// that cancels it (its sink failed) gets no pair after.
	OnPair func(Pair)
	// OnProgress, when set, is called by Dedup and DedupSeq as each stage
	// starts and now and then within it, on the calling goroutine.
	OnProgress func(Progress)
	// Reread, when set, gives DedupSeq the documents of its sequence a
	// second time, in the same order, to quote the text its evidence or
	// statistics show (the sentences method's shared sentences and
	// boilerplate); see DedupSeq. A nil sequence from it, when DedupSeq
	// reads again, is an error.
	Reread func() iter.Seq2[Document, error]
}

// method is o.Method with a pointer to options replaced by the options it
// points to (see deref); a nil pointer is an error.
func (o Options) method() (MethodOptions, error) {
	if v := reflect.ValueOf(o.Method); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("neardup: Options.Method is a nil %T: give the options, or nil for the defaults", o.Method)
	}
	return deref(o.Method), nil
}

// deref returns the options a non-nil pointer c points to, as the methods
// take them (minhash.Options, not *minhash.Options), and any other c as it
// is.
func deref(c MethodOptions) MethodOptions {
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return c
	}
	if e, ok := v.Elem().Interface().(MethodOptions); ok {
		return e
	}
	return c
}

func (o Options) keep() (cluster.Policy, error) {
	if o.Keep == "" {
		return "", nil
	}
	p, err := cluster.ParsePolicy(o.Keep)
	if err != nil {
		return "", fmt.Errorf("neardup: Options.Keep: %w", err)
	}
	return p, nil
}

// link is o.Link checked: Any when it is "".
func (o Options) link() (cluster.Linking, error) {
	if o.Link == "" {
		return cluster.Any, nil
	}
	l, err := cluster.ParseLinking(o.Link)
	if err != nil {
		return "", fmt.Errorf("neardup: Options.Link: %w", err)
	}
	return l, nil
}

// Index is a persistent index. Its methods are safe for concurrent use.
type Index struct {
	x *index.Index
}

// Open opens the index at path, creating it when missing: a PostgreSQL URL
// ("postgres://user@host/db") or the path of a SQLite file. Options it
// refuses for a new index (a method's options out of range, nil ones) are
// an error before anything is created. A new index's method and options
// are stored with its first documents, by the Add that stores one: until
// then (an Add that failed, or stored nothing) the index takes any.
func Open(ctx context.Context, path string, o Options) (*Index, error) {
	keep, err := o.keep()
	if err != nil {
		return nil, err
	}
	if _, err := o.link(); err != nil {
		return nil, err // "": the stored index's own
	}
	so, err := o.storeOptions()
	if err != nil {
		return nil, err
	}
	method, err := o.method()
	if err != nil {
		return nil, err
	}
	oo := index.OpenOptions{Method: method, MethodName: o.MethodName, Keep: keep, StoreText: o.StoreText,
		StoreTextIfNew: o.StoreTextIfNew, MinChars: o.MinChars, Link: cluster.Linking(o.Link), Existing: o.Existing,
		BindOnOpen: o.BindOnOpen}
	if o.Configure != nil {
		oo.Flags = func(base engine.Config) (engine.Config, error) {
			c, err := o.Configure(base)
			return deref(c), err
		}
	}
	x, err := index.Open(ctx, path, so, methods.All, oo)
	if err != nil {
		return nil, err
	}
	return &Index{x: x}, nil
}

// storeOptions returns the store's options o asks for: Sync and LockWait.
func (o Options) storeOptions() (store.Options, error) {
	so := store.DefaultOptions()
	switch o.Sync {
	case "":
	case "full", "normal":
		so.Sync = o.Sync
	default:
		return so, fmt.Errorf("neardup: Options.Sync %q: want full or normal", o.Sync)
	}
	switch {
	case o.LockWait < 0:
		return so, fmt.Errorf("neardup: Options.LockWait %v: want 0 or more", o.LockWait)
	case o.LockWait > 0:
		// Both engines take at most 2^31-1 ms (24 days): longer waits as long.
		so.BusyTimeoutMillis = int(min(max(o.LockWait.Milliseconds(), 1), math.MaxInt32))
	}
	return so, nil
}

// Add checks each document against everything stored and stores it, in one
// transaction: when Add returns nil every document is stored, or reported
// Exists (the same document is stored under its ID) or Conflict (another
// one is: a stored document's ID is never stored twice, and never
// replaced by Add), otherwise none is. It returns one Match a document, in order. A document with a field
// that is not UTF-8 or holds a NUL character, or a title, URL or source
// longer than core.MaxTitleBytes, MaxURLBytes or MaxSourceBytes, which no
// index stores, is an error naming it, and nothing is stored. So is an add
// to an index of rarewords (made without rarewords.Options.SameSource)
// after which no document it compares has a source (Document.Source, or a
// URL to take the host from): a *rarewords.SourceError, as Dedup's of such
// documents, since the index would find nothing.
func (x *Index) Add(ctx context.Context, docs ...Document) ([]Match, error) {
	return x.add(ctx, docs, index.AddOptions{})
}

// Replace is Add, except that a document whose ID is stored replaces it.
func (x *Index) Replace(ctx context.Context, docs ...Document) ([]Match, error) {
	return x.add(ctx, docs, index.AddOptions{Replace: true})
}

func (x *Index) add(ctx context.Context, docs []Document, o index.AddOptions) ([]Match, error) {
	ms, err := x.x.Add(ctx, docs, o)
	return matches(ms, unstorable(err))
}

// UnstorableError is the error (wrapped) of an add with a document that
// has a field no index stores, not UTF-8 or holding a NUL character, a
// title, URL or source longer than its bound, or a URL of another scheme
// than http or https: it names the document by its Origin ("file:line")
// when it has one, else by its position, and by its ID, and the field.
type UnstorableError = index.UnstorableError

// unstorable names the package in the error of a document no index
// stores.
func unstorable(err error) error {
	if u := (*index.UnstorableError)(nil); errors.As(err, &u) {
		return fmt.Errorf("neardup: %w", err)
	}
	return err
}

// Query checks each document against everything stored without storing it.
// A document whose ID is stored is reported as Add reports it, Exists when
// it is the stored one, else Conflict (with Match.Differs, and no cluster
// and no original: the stored one's are another document's), and matched
// with the other stored documents as if it replaced the stored one: that
// one is never its own match.
func (x *Index) Query(ctx context.Context, docs ...Document) ([]Match, error) {
	return matches(x.x.Query(ctx, docs))
}

// Remove removes the documents of the given IDs, with their sketches and
// marks, in one transaction, and returns the IDs it found and removed; an
// ID not stored is left out, and is no error.
func (x *Index) Remove(ctx context.Context, ids ...string) ([]string, error) {
	return x.x.Remove(ctx, ids)
}

// Expire removes the documents dated before t (their own date, else when
// they were stored), as a news window does, and returns how many. It
// removes them in transactions of up to 10,000 documents, in the order
// stored: with an error it returns how many the transactions before it
// removed, which stay removed.
func (x *Index) Expire(ctx context.Context, before time.Time) (int, error) {
	return x.x.Expire(ctx, before)
}

// Method returns the name of the index's method and its options, those
// with which it makes its sketches: given to Dedup, they make the terms the
// index makes, those of its sketch format where it is an older one. The
// error is always nil.
func (x *Index) Method() (string, MethodOptions, error) {
	return x.x.Meta().Method, x.x.Config(), nil
}

// Writable returns nil when this process may write the index, else the
// error its writes (Add, Remove, Expire, the feed tables' changes) return:
// ErrClosed once Close was called, or one wrapping ErrReadOnly and saying
// why (an index file or directory this process may not write). A server of another user's index shows it so,
// rather than offering writes that fail.
func (x *Index) Writable() error { return x.x.Writable() }

// Close closes the index. A second call does nothing.
func (x *Index) Close() error { return x.x.Close() }

// ErrLocked is returned (wrapped) when another process holds the index's
// writer lock for longer than a writer waits.
var ErrLocked = store.ErrLocked
