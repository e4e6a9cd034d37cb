// Package index is the persistent index: each document added is checked
// against every document stored before it, marked, and stored. It owns its
// store: it opens it, catches up with what other processes write to it,
// and is the only way to its documents, sketches, marks and clusters; its
// clients (the CLI, the server, the web UI, the feed watcher) get the few
// things they read of it from its methods. The method's in-memory
// candidate index is an engine.Live, which this package keeps in step with
// the store.
package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// Index is a persistent index. Its method keeps an in-memory candidate
// index, rebuilt from the stored sketches when the Index opens and kept up
// to date with what other processes write to the same store (see package
// store). Its methods are safe for concurrent use.
//
// Writes (Add, Remove, Expire, Rescore) run one at a time. Checks (Query)
// of a method with a Check stage (engine.Checker) run beside each other and beside
// the writes: each reads the store in a snapshot of its own and the
// in-memory index only while it gathers its candidates, and a write changes
// the in-memory index only for as long as each change takes, not for its
// transaction. A check sees every document whose add returned before it
// began, and no document whose add has not committed. The other methods
// (and checks of other methods) have the Index to themselves.
type Index struct {
	lk locks
	// meta is the index's settings; metaMu guards it for Meta, as bind
	// may change it (under lk.write and lk.mem).
	meta   store.Meta
	metaMu sync.Mutex
	// bind, while the store holds no settings (no document was ever
	// stored), judges the settings another process's first add stores
	// before this Index's first add does, and returns those it takes (see
	// binder; for an Index opened with OpenOptions.Existing on a store
	// that held nothing, it refuses them: changedUnder); nil once the store
	// holds settings. meta is then
	// what this Index's first add stores, in its transaction, with its
	// documents (see firstWriter). It is read and changed under lk.write.
	bind func(stored store.Meta) (store.Meta, error)
	// name is what Open's errors call the index (its DSN, redacted), which
	// bound's call it too; "" for an Index of OpenIndex.
	name string
	spec engine.Spec
	cfg  engine.Config
	keep cluster.Policy
	link cluster.Linking
	st   store.Store
	// window is the news window SetWindow set, for Rescore's batch (the
	// live index keeps its own copy); 0 for none.
	window time.Duration
	// owned is set when Close closes st (an Index made by Open); closed
	// once it has.
	owned, closed bool

	// live is the method's in-memory index. It, lastOrd and lastRemoval
	// are changed only by a goroutine holding lk.write, under lk.mem held
	// exclusively (see changing); a check reads them under lk.mem shared.
	live engine.Live
	// lastOrd and lastRemoval are how far this process has read the
	// store: the in-memory index holds every document up to lastOrd, less
	// those removed up to lastRemoval.
	lastOrd, lastRemoval int64
	// dirty is set while the in-memory index is ahead of the store, in a
	// write that may yet fail.
	dirty bool
	// partial is set by Repair, whose in-memory index holds none of the
	// stored documents but those its writes load (see judgeAgain).
	partial bool
	// exclusive is set while lk.mem is held exclusively by the goroutine
	// holding lk.write: changing then does not take it again. Only that
	// goroutine reads it.
	exclusive bool
	pool      sync.Pool // of *engine.LiveSketcher

	counts counts // for RecentStats
}

// locks are an Index's locks.
type locks struct {
	// write is held by each write for its whole time, and by whatever
	// needs the in-memory index not to change.
	write sync.Mutex
	// mem guards the in-memory index: held exclusively while a write
	// changes it (and by the methods that have the Index to themselves),
	// shared while a check gathers candidates from it.
	mem sync.RWMutex
	// open is held shared by each check, exclusively by Close, which
	// waits for the checks under way to be done with the store.
	open sync.RWMutex
}

// exclusively runs fn with the Index to itself: no write and no check runs
// meanwhile.
func (x *Index) exclusively(fn func()) {
	x.lk.write.Lock()
	defer x.lk.write.Unlock()
	x.lk.mem.Lock()
	defer x.lk.mem.Unlock()
	x.exclusive = true
	defer func() { x.exclusive = false }()
	fn()
}

// changing runs fn, which changes the in-memory index, holding lk.mem
// exclusively, unless the caller holds it so already. The caller holds
// lk.write (or is alone with the index, as while it opens).
func (x *Index) changing(fn func() error) error {
	if x.exclusive {
		return fn()
	}
	x.lk.mem.Lock()
	x.exclusive = true
	defer func() {
		x.exclusive = false
		x.lk.mem.Unlock()
	}()
	return fn()
}

// AddOptions change how Add treats a document.
type AddOptions struct {
	// Replace removes a stored document of the same ID first, unless the
	// two are the same (title, URL, source, date and text: see
	// Index.unchanged) and Exact is not set, when the stored one is left as
	// it is, in its place among the documents of its date, and reported
	// Unchanged (with Exact it is stored anew, with its exact keys). Without
	// Replace a stored document of the same ID is left as it is: the
	// document is reported Exists when it is the same (title, URL, source,
	// date and text, as Index.differs compares them), else Conflict, not
	// stored.
	Replace bool
	// Exact checks each document first for an exact copy among the
	// documents added with Exact: the same title and text (ContentHash) or
	// the same URL, which should then be the canonical form of the address
	// the document was fetched from (a crawler's documents): two documents
	// of one URL are taken for one page fetched twice, their texts never
	// compared, so a URL a document names itself (a page's
	// <link rel="canonical">), which may be any, must not be given as it.
	// An index opened at schema version 11 or later has no URL or slug key
	// of a document whose URL is not its ID stored before (the store's
	// migration claimedURLKeys). A copy is stored and marked a duplicate of the first (method
	// "exact") without being sketched or compared, in the first's cluster
	// by every linking policy (see cluster.Link.Copy). A document the
	// method skipped (too short, no units) is no first: a copy of it is
	// added as any document, skipped for its own reason or compared. When
	// the first is removed, a copy left takes its place, sketched (see
	// heirs).
	Exact bool
	// Slug, with Exact, returns the article slug of a document's ID or URL
	// ("" for none): a document whose ID or URL has the slug of a stored
	// one's on the same site (its host, "www." aside), published within
	// two days of it (or either undated), is an exact copy of it too. A
	// slug counts only when it is made
	// of the words of the document's title (at least three, and two thirds
	// of its words): a section's name beside an id is no headline. Nil
	// means no slugs.
	Slug func(url string) string
	// Then, if not nil, runs in the transaction of the add, after every
	// document: what it writes of the feed tables commits with them, or
	// nothing does. A panic in it (or in Slug) rolls the add back as an
	// error does (see update), and is raised again.
	Then func(w store.FeedWriter, ms []Match) error
	// First is the position, from 0, of the first of the documents in
	// the caller's whole add when they are one chunk of it (AddSeq's): an
	// error names a document by its position in the whole. 0 for an add
	// of its own.
	First int
}

// Status says what became of a document given to Add or Query.
type Status string

// The statuses of a Match.
const (
	// Added is a document stored, with its matches, whose ID was not
	// stored before the add (an earlier document of the add of its ID,
	// which it replaced, is Superseded).
	Added Status = "added"
	// Replaced is a document stored in place of a document of the same
	// ID stored before the add.
	Replaced Status = "replaced"
	Exists   Status = "exists" // not stored: a document of the same ID is (Query: matched with the others)
	// Conflict is a document given without Replace whose ID is stored
	// with other content (Match.Differs names the fields): not stored, the
	// stored one left as it is. Query reports such a document so too,
	// matched with the others, with no cluster and no original: the
	// stored one's are another document's.
	Conflict Status = "conflict"
	// Unchanged is a document given with Replace that is the one stored
	// under its ID (see AddOptions.Replace): left as stored.
	Unchanged Status = "unchanged"
	Checked   Status = "checked" // matched by Query, not stored
	// Superseded is a document given with Replace that a later document
	// of the same add, of its ID, replaced: not stored in the end (the
	// later one's Match says what is), with no cluster and no matches.
	Superseded Status = "superseded"
	// Skipped is a document without text (Match.Skip is core.SkipEmpty):
	// not stored, as the readers of package corpus skip it, nor compared;
	// a stored document of its ID is left as it is.
	Skipped Status = "skipped"
)

// Match is what adding or checking one document found: its status and its
// matches among the stored documents.
type Match struct {
	ID     string          `json:"id"`
	Status Status          `json:"status"`
	Skip   core.SkipReason `json:"skipped,omitempty"`
	// Cluster is the cluster the document is in once the add commits (a
	// later document of the same add may merge clusters); 0 for none.
	Cluster int64 `json:"cluster,omitempty"`
	// Original is the ID of that cluster's original, its member published
	// first (see cluster.Published), once the add commits: the document's
	// own ID when it was published before every member.
	Original string `json:"original,omitempty"`
	// Pairs are the document's matches among the stored documents, best
	// first, each as an export writes it: A is the one of the two placed
	// first (store.Doc.Rank), the stored document unless this one is
	// stored and placed before it (a new version where the version it
	// replaced stood; a stored document checked again, Exists); the
	// evidence is read that way round.
	Pairs []core.Pair `json:"matches"`
	// Differs, for a Conflict, names the fields in which the document
	// differs from the stored one of its ID: "title", "url", "source",
	// "date", "text".
	Differs []string `json:"differs,omitempty"`
	// Copies, when the document is the original of a cluster stored
	// before it (published first, arrived later), are the IDs of the
	// cluster's other members, which copy it, matched with it or not.
	Copies []string `json:"-"`
}

// rebuilt returns err, the error of a change to the in-memory index, with
// rerr, the error of rebuilding it from the store after, on the same line;
// err alone when the rebuild succeeded, or was refused as err was: the
// settings another process stored since the Index opened
// (ErrSettingsChanged), which the rebuild reads again, or another refusal
// of them the same word for word (binder's, of another method).
func rebuilt(err, rerr error) error {
	if rerr == nil || errors.Is(err, ErrSettingsChanged) && errors.Is(rerr, ErrSettingsChanged) || rerr.Error() == err.Error() {
		return err
	}
	return fmt.Errorf("%w; rebuilding the in-memory index: %w", err, rerr)
}

// restore rebuilds the method's in-memory index from the store.
func (x *Index) restore(ctx context.Context) error {
	return x.changing(func() error {
		if err := x.live.Reset(); err != nil {
			return err
		}
		x.lastOrd, x.lastRemoval = 0, 0
		return x.st.View(ctx, func(r store.Reader) error { return x.catchUp(r) })
	})
}

// catchUp applies what the store holds beyond lastOrd and lastRemoval to
// the in-memory index: removals first (a document added and removed since
// is never loaded), then documents in order.
func (x *Index) catchUp(r store.Reader) error {
	if err := x.bound(r); err != nil {
		return err
	}
	lastOrd, lastRemoval, err := r.Head()
	if err != nil {
		return err
	}
	if err := x.forgetRemoved(r, lastRemoval, x.lastOrd); err != nil {
		return err
	}
	if lastOrd <= x.lastOrd {
		return nil
	}
	return x.changing(func() error {
		err := x.live.Load(func(yield func(ord int64, index []byte) error) error {
			return r.Indexes(x.lastOrd, yield)
		})
		if err != nil {
			return err
		}
		x.lastOrd = lastOrd
		return nil
	})
}

// bound binds an Index opened on a store without settings to those r
// holds, once a first add stored them, another process's or its own: it
// refuses settings it cannot add with (see binder) before anything stored
// with them is loaded.
func (x *Index) bound(r store.Reader) error {
	if x.bind == nil {
		return nil
	}
	m, ok, err := r.Meta()
	if err != nil || !ok {
		return err
	}
	if m, err = x.bind(m); err != nil {
		if x.name != "" {
			err = fmt.Errorf("%s: %w", x.name, err) // as Open names a refusal
		}
		return err
	}
	x.bind = nil
	return x.changing(func() error {
		x.metaMu.Lock()
		defer x.metaMu.Unlock()
		x.meta, x.link = m, linkingOf(m)
		return nil
	})
}

// forgetRemoved takes the documents removed after lastRemoval, up to
// removal upTo, out of the in-memory index, which holds the documents
// stored up to ordinal loaded. A document the log names as given a sketch
// where it had none (store.DocWriter.SetSketch: see heirs) and stored up
// to loaded is loaded now, from the log, as the latest document, unless
// the log removes it later; a later one is loaded with the documents after
// loaded.
func (x *Index) forgetRemoved(r store.Reader, upTo, loaded int64) error {
	if upTo <= x.lastRemoval {
		return nil
	}
	rs, err := r.Removals(x.lastRemoval)
	if err != nil {
		return err
	}
	return x.changing(func() error {
		sketched := map[int64][]byte{}
		var order []int64
		for _, rm := range rs {
			if rm.Sketched {
				if rm.Ord <= loaded && rm.Index == nil {
					return x.reload(r) // its part was damaged (store.Repairer.Mend)
				}
				if rm.Ord <= loaded {
					sketched[rm.Ord], order = rm.Index, append(order, rm.Ord)
				}
				continue
			}
			delete(sketched, rm.Ord) // given a sketch, then removed: never loaded
			err := x.live.Forget(rm.Ord, rm.Index)
			if errors.Is(err, engine.ErrNoIndexPart) {
				return x.reload(r)
			}
			if err != nil {
				return err
			}
		}
		if err := x.loadSketched(order, sketched); err != nil {
			return err
		}
		x.lastRemoval = upTo
		return nil
	})
}

// reload loads the in-memory index again from r, for a change the log
// cannot tell it by: a document it holds removed, or one given a sketch,
// whose logged index part was damaged and cleared (store.Repairer.Mend,
// store.DocWriter.Remove). The caller holds the in-memory index
// exclusively.
func (x *Index) reload(r store.Reader) error {
	if err := x.live.Reset(); err != nil {
		return err
	}
	x.lastOrd, x.lastRemoval = 0, 0
	return x.catchUp(r)
}

// loadSketched loads into the in-memory index, in the order ords gives
// them, the documents of ords that sketched holds, with their sketches'
// index parts.
func (x *Index) loadSketched(ords []int64, sketched map[int64][]byte) error {
	if len(sketched) == 0 {
		return nil
	}
	return x.live.Load(func(yield func(ord int64, index []byte) error) error {
		for _, ord := range ords {
			index, ok := sketched[ord]
			if !ok {
				continue
			}
			delete(sketched, ord) // logged once: loaded once
			if err := yield(ord, index); err != nil {
				return err
			}
		}
		return nil
	})
}

// readDatesChunk is how many documents' dates readDates asks the store for
// at once.
const readDatesChunk = 1000

// readDates gives the in-memory index the dates of the documents loaded
// from the store since the last call, under a window: the window rules
// candidates out by date before they are verified.
func (x *Index) readDates(r store.Reader) error {
	if !x.live.NeedsDates() {
		return nil
	}
	return x.changing(func() error {
		ords := x.live.Undated()
		dates := make(map[int64]int64, len(ords))
		for len(ords) > 0 {
			chunk := ords[:min(len(ords), readDatesChunk)]
			docs, err := r.Docs(chunk)
			if err != nil {
				return err
			}
			for _, d := range docs {
				dates[d.Ord] = d.Date
			}
			ords = ords[len(chunk):]
		}
		x.live.SetDates(dates)
		return nil
	})
}

// update runs fn in a write transaction after catching up; when the
// transaction fails after fn changed the in-memory index, the index is
// rebuilt from the store. A panic in the transaction (of a caller's
// function that fn runs, such as AddOptions.Then or Slug) rolls it back as
// an error does, the in-memory index rebuilt, and is raised again.
func (x *Index) update(ctx context.Context, fn func(w store.Writer) error) (err error) {
	defer func() {
		p := recover()
		if (err != nil || p != nil) && x.dirty {
			if rerr := x.restore(context.WithoutCancel(ctx)); err != nil {
				err = rebuilt(err, rerr)
			}
		}
		x.dirty = false
		if p != nil {
			panic(p)
		}
	}()
	return x.st.Update(ctx, func(w store.Writer) error {
		// Settings stored meanwhile that this Index refuses are refused
		// before anything of them is loaded: nothing to rebuild.
		if err := x.bound(w); err != nil {
			return err
		}
		x.dirty = true // catching up may fail half way too
		if err := x.catchUp(w); err != nil {
			return err
		}
		if err := fn(w); err != nil {
			return err
		}
		lastOrd, lastRemoval, err := w.Head()
		if err != nil {
			return err
		}
		// Before the commit: a check that finds the commit in its
		// snapshot must not take it for another process's write.
		return x.changing(func() error {
			x.lastOrd, x.lastRemoval = lastOrd, lastRemoval
			return nil
		})
	})
}

// details reads the parts of stored sketches in a transaction or snapshot:
// the details a match verifies with, the index parts Central weighs again,
// and what Judge loads (engine.Stored).
type details struct{ r store.Reader }

func (d details) Detail(ord int64) ([]byte, error) {
	b, err := d.r.Detail(ord)
	if errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("%w: %w", err, engine.ErrNotStored)
	}
	return b, err
}

func (d details) IndexPart(ord int64) ([]byte, error) { return d.r.IndexPart(ord) }

func (d details) Date(ord int64) (int64, error) {
	docs, err := d.r.Docs([]int64{ord})
	if err != nil {
		return 0, err
	}
	if len(docs) == 0 {
		return 0, fmt.Errorf("document %d: %w", ord, store.ErrNotFound)
	}
	return docs[0].Date, nil
}

// placedBefore is the details of a match of a document placed at place
// (store.Doc.Rank), before documents stored (a new version where the
// version it replaced stood, or a stored document checked again): it
// gives the text of each stored document placed after it, which explains
// their pair (see engine.LaterTexts), when the index stores texts.
type placedBefore struct {
	details
	place int64
	texts bool
}

// detailsAt returns the details of a match of the document at me: a
// document checked and not stored is placed after every stored one, and a
// stored one checked again (Exists) where it is stored.
func (x *Index) detailsAt(r store.Reader, me published) engine.Details {
	if me.ord == math.MaxInt64 {
		return details{r}
	}
	return placedBefore{details{r}, cmp.Or(me.place, me.ord), x.meta.StoreText}
}

func (d placedBefore) LaterText(ord int64) (*core.Document, error) {
	if !d.texts {
		return nil, nil
	}
	docs, err := d.r.Docs([]int64{ord})
	if err != nil || len(docs) == 0 || docs[0].Rank() <= d.place {
		return nil, err
	}
	stored, err := d.r.Doc(docs[0].ID)
	if err != nil {
		return nil, err
	}
	doc := storedDocument(&stored)
	return &doc, nil
}

// Sketch is a document analysed by an Index's Sketcher, ready for
// AddSketched or QuerySketched: its method's sketch, encoded, and what
// the store keeps of it besides (its language and content hash).
type Sketch struct {
	sk   engine.LiveSketch
	lang analysis.Lang
	hash uint64
}

// Skip is the reason the method will not compare the document, if any.
func (s Sketch) Skip() core.SkipReason { return s.sk.Skip() }

// Sketcher analyses documents for an Index, for one goroutine; it is not
// safe for concurrent use.
type Sketcher struct{ sk *engine.LiveSketcher }

// Sketch analyses doc. The result keeps no reference to doc's text.
func (s *Sketcher) Sketch(doc *core.Document) Sketch {
	return Sketch{sk: s.sk.Sketch(doc), lang: analysis.DetectLang(doc.Text), hash: engine.ContentHash(doc)}
}

// NewSketcher returns a Sketcher of the index's method for one goroutine,
// to sketch documents for AddSketched.
func (x *Index) NewSketcher() *Sketcher { return &Sketcher{sk: x.live.NewSketcher()} }

// sketchAll analyses docs, in parallel when there are many.
func (x *Index) sketchAll(docs []core.Document) []Sketch {
	out := make([]Sketch, len(docs))
	workers := max(1, min(runtime.GOMAXPROCS(0), (len(docs)+15)/16))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sk, ok := x.pool.Get().(*engine.LiveSketcher)
			if !ok {
				sk = x.live.NewSketcher()
			}
			defer x.pool.Put(sk)
			s := Sketcher{sk: sk}
			for i := w; i < len(docs); i += workers {
				out[i] = s.Sketch(&docs[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// sketches returns given, checked against docs (as many, each made for
// its document: of its title and text), or sketches docs.
func (x *Index) sketches(docs []core.Document, given []Sketch) ([]Sketch, error) {
	if given == nil {
		return x.sketchAll(docs), nil
	}
	if len(given) != len(docs) {
		return nil, fmt.Errorf("index: %d sketches for %d documents", len(given), len(docs))
	}
	for i := range given {
		// A Sketch no Sketcher made (hash 0) is left to the engine, which
		// refuses it as empty.
		if h := given[i].hash; h != 0 && h != engine.ContentHash(&docs[i]) {
			return nil, fmt.Errorf("%s: index: a sketch made for another document (of another title or text)", named(i, &docs[i]))
		}
	}
	return given, nil
}

// unixOrZero returns a document's date in Unix seconds, 0 when it has none
// (or one that stands for none: core.NoDate).
func unixOrZero(d *core.Document) int64 {
	if d.Date.IsZero() || core.NoDate(d.Date) {
		return 0
	}
	return d.Date.Unix()
}

// now is when a document is stored, in Unix seconds.
func now() int64 { return time.Now().Unix() }
