package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/store"
)

// Index is a persistent index: each document added is checked against
// every document stored before it, marked, and stored. Its method keeps an
// in-memory candidate index, rebuilt from the stored sketches when the Index
// opens and kept up to date with what other processes write to the same
// store (see package store). Its methods are safe for concurrent use.
//
// Writes (Add, Remove, Expire, Rescore) run one at a time. Checks (Query)
// of a method that is a Checker run beside each other and beside the
// writes: each reads the store in a snapshot of its own and the in-memory
// index only while it gathers its candidates, and a write changes the
// in-memory index only for as long as each change takes, not for its
// transaction. A check sees every document whose add returned before it
// began, and no document whose add has not committed. The other methods
// (and checks of other methods) have the Index to themselves.
type Index struct {
	lk   *locks
	impl indexer
	meta store.Meta
	spec Spec
	st   store.Store // owned, when made by Open
	data store.Store // the store, owned or not

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
	x.impl.setExclusive(true)
	defer x.impl.setExclusive(false)
	fn()
}

// indexer is an Index's method-typed part.
type indexer interface {
	restore(ctx context.Context) error
	add(ctx context.Context, docs []core.Document, sks []Sketch, o AddOptions) ([]Match, error)
	newSketcher() *Sketcher
	query(ctx context.Context, docs []core.Document, sks []Sketch) ([]Match, error)
	remove(ctx context.Context, ids []string) (removed []string, err error)
	expire(ctx context.Context, before time.Time) (int, error)
	rescore(ctx context.Context, progress func(done int)) (Stats, error)
	verify(ctx context.Context, progress func(done int)) ([]string, error)
	export(ctx context.Context, e Exporter) error
	documents() int
	setWindow(seconds int64)
	cluster(ctx context.Context, id int64) (Cluster, error)
	view(ctx context.Context, fn func(r store.Reader) error) error
	setExclusive(on bool)
}

// AddOptions change how Add treats a document.
type AddOptions struct {
	// Replace removes a stored document of the same ID first; without it
	// such a document is left as it is and reported as existing.
	Replace bool
	// StoreText stores each document's text with it.
	StoreText bool
	// Exact checks each document first for an exact copy among the
	// documents added with Exact: the same title and text (ContentHash) or
	// the same URL, which should then be canonical (a crawler's documents).
	// A copy is stored and marked a duplicate of the first (method
	// "exact") without being sketched or compared.
	Exact bool
	// Slug, with Exact, returns the article slug of a document's ID or URL
	// ("" for none): a document whose ID or URL has the slug of a stored
	// one's is an exact copy of it too. Nil means no slugs.
	Slug func(url string) string
	// Then, if not nil, runs in the transaction of the add, after every
	// document: what it writes commits with them, or nothing does.
	Then func(w store.Writer, ms []Match) error
}

// Status says what became of a document given to Add or Query.
type Status string

// The statuses of an Match.
const (
	Added    Status = "added"    // stored, with its matches
	Replaced Status = "replaced" // stored in place of a document of the same ID
	Exists   Status = "exists"   // not stored: a document of the same ID is
	Checked  Status = "checked"  // matched by Query, not stored
)

// Match is what adding or checking one document found: its status and its
// matches among the stored documents.
type Match struct {
	ID     string          `json:"id"`
	Status Status          `json:"status"`
	Skip   core.SkipReason `json:"skipped,omitempty"`
	// Cluster is the cluster the document joined; 0 for none.
	Cluster int64 `json:"cluster,omitempty"`
	// Pairs are the document's matches among the stored documents, best
	// first: A is the stored document, B this one.
	Pairs []core.Pair `json:"matches"`
}

// Settings are what an index is created with and reopened with.
type Settings struct {
	// Keep is the representative policy of clusters ("" means the
	// method's own).
	Keep cluster.Policy
	// StoreText keeps each document's text (for export and search).
	StoreText bool
}

// openIndex restores an Index of method m over st.
func openIndex[S any, E core.Evidence](spec Spec, build func() (Method[S, E], error), st store.Store, meta store.Meta) (*Index, error) {
	m, err := build()
	if err != nil {
		return nil, err
	}
	lk := &locks{}
	x := &index[S, E]{spec: spec, build: build, m: m, st: st, meta: meta, keep: spec.Keep,
		cache: newDetailCache[S](detailCacheSize), lk: lk}
	x.codec.Store(&methodRef[S, E]{m})
	return &Index{lk: lk, impl: x, meta: meta, spec: spec, data: st}, nil
}

// methodRef holds an index's method for goroutines that hold none of its
// locks (see index.codec).
type methodRef[S any, E core.Evidence] struct{ m Method[S, E] }

// detailCacheSize is how many decoded sketch details an index keeps (a
// minhash detail takes about 1 KiB): the documents added last are the
// likeliest candidates of the next ones.
const detailCacheSize = 1 << 17

// index is the Index of a method with sketches S and evidence E.
type index[S any, E core.Evidence] struct {
	spec  Spec
	build func() (Method[S, E], error)
	m     Method[S, E]
	st    store.Store
	meta  store.Meta
	keep  cluster.Policy
	// minChars is the minimum length of a text compared (see stubSkip).
	minChars int

	// ords maps the method's ordinals to stored ones; mem the reverse.
	// An ordinal whose document was removed, or that a Query used, maps
	// to 0.
	ords []int64
	mem  map[int64]int32
	// lastOrd and lastRemoval are how far this process has read the
	// store: its in-memory index holds every document up to lastOrd, less
	// those removed up to lastRemoval.
	lastOrd, lastRemoval int64
	// dirty is set while the in-memory index is ahead of the store, in a
	// write that may yet fail.
	dirty bool
	cache *detailCache[S]
	pool  sync.Pool // of DocSketcher[S]

	// lk are the Index's locks. The in-memory index (m, ords, mem, dates,
	// undated, lastOrd, lastRemoval, window, cache as a field) is changed
	// only by a goroutine holding lk.write, under lk.mem held
	// exclusively (see changing); a check reads it under lk.mem shared.
	lk *locks
	// exclusive is set while lk.mem is held exclusively by the goroutine
	// holding lk.write: changing then does not take it again. Only that
	// goroutine reads it.
	exclusive bool
	// codec is m, for what sketches documents on any goroutine (restore
	// replaces m; sketching reads only its options).
	codec atomic.Pointer[methodRef[S, E]]
	// window, when positive, is the most seconds apart two dated
	// documents may be to pair (see Index.SetWindow).
	window int64
	// dates are the documents' own dates by method ordinal (Unix seconds,
	// 0 unknown); undated lists the ordinals loaded from the store whose
	// dates are not read yet (see readDates).
	dates   []int64
	undated []int32
}

func (x *index[S, E]) setWindow(seconds int64) { x.window = seconds }

func (x *index[S, E]) setExclusive(on bool) { x.exclusive = on }

// changing runs fn, which changes the in-memory index, holding lk.mem
// exclusively, unless the caller holds it so already. The caller holds
// lk.write (or is alone with the index, as while it opens).
func (x *index[S, E]) changing(fn func() error) error {
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

// readDatesChunk is how many documents' dates readDates asks the store for
// at once.
const readDatesChunk = 1000

// readDates reads the dates of the documents loaded from the store since
// the last call, under a window: the window rules candidates out by date
// before they are verified.
func (x *index[S, E]) readDates(r store.Reader) error {
	if x.window <= 0 || len(x.undated) == 0 {
		return nil
	}
	for len(x.undated) > 0 {
		chunk := x.undated[:min(len(x.undated), readDatesChunk)]
		ords := make([]int64, 0, len(chunk))
		for _, mem := range chunk {
			if o := x.ords[mem]; o != 0 {
				ords = append(ords, o)
			}
		}
		docs, err := r.Docs(ords)
		if err != nil {
			return err
		}
		for _, d := range docs {
			if mem, ok := x.mem[d.Ord]; ok {
				x.dates[mem] = d.Date
			}
		}
		x.undated = x.undated[len(chunk):]
	}
	x.undated = nil
	return nil
}

func (x *index[S, E]) documents() int {
	x.lk.mem.RLock()
	defer x.lk.mem.RUnlock()
	return len(x.mem)
}

func (x *index[S, E]) view(ctx context.Context, fn func(r store.Reader) error) error {
	return x.st.View(ctx, fn)
}

// restore rebuilds the method's in-memory index from the store.
func (x *index[S, E]) restore(ctx context.Context) error {
	m, err := x.build()
	if err != nil {
		return err
	}
	return x.changing(func() error {
		x.m, x.ords, x.mem, x.lastOrd, x.lastRemoval = m, nil, map[int64]int32{}, 0, 0
		x.dates, x.undated = nil, nil
		x.cache = newDetailCache[S](detailCacheSize)
		x.codec.Store(&methodRef[S, E]{m})
		return x.st.View(ctx, func(r store.Reader) error {
			last, _, err := r.Head()
			if err != nil {
				return err
			}
			_, bulk := x.m.(Restorer[S])
			if rs, ok := x.m.(Reserver); ok && !bulk {
				rs.Reserve(int(last))
			}
			return x.catchUp(r)
		})
	})
}

// catchUp applies what the store holds beyond lastOrd and lastRemoval to
// the in-memory index: removals first (a document added and removed since
// is never loaded), then documents in order.
func (x *index[S, E]) catchUp(r store.Reader) error {
	lastOrd, lastRemoval, err := r.Head()
	if err != nil {
		return err
	}
	if err := x.forgetRemoved(r, lastRemoval); err != nil {
		return err
	}
	if lastOrd <= x.lastOrd {
		return nil
	}
	return x.changing(func() error {
		if err := x.load(r); err != nil {
			return err
		}
		x.lastOrd = lastOrd
		return nil
	})
}

// forgetRemoved takes the documents removed after lastRemoval, up to
// removal upTo, out of the in-memory index.
func (x *index[S, E]) forgetRemoved(r store.Reader, upTo int64) error {
	if upTo <= x.lastRemoval {
		return nil
	}
	rs, err := r.Removals(x.lastRemoval)
	if err != nil {
		return err
	}
	return x.changing(func() error {
		for _, rm := range rs {
			if err := x.forget(rm.Ord, rm.Index); err != nil {
				return err
			}
		}
		x.lastRemoval = upTo
		return nil
	})
}

// load adds the documents stored after lastOrd to the in-memory index, all
// at once through the method's Restorer when the index is empty.
func (x *index[S, E]) load(r store.Reader) error {
	rs, bulk := x.m.(Restorer[S])
	bulk = bulk && len(x.ords) == 0
	var mems []int32
	var ss []*S
	err := r.Indexes(x.lastOrd, func(ord int64, data []byte) error {
		s, err := x.m.DecodeIndex(data)
		if err != nil {
			return fmt.Errorf("document %d: %w", ord, err)
		}
		mem := x.assign(ord, 0)
		x.m.Add(mem, s)
		if bulk {
			mems, ss = append(mems, mem), append(ss, s)
		} else {
			x.m.Index(mem, s)
		}
		return nil
	})
	if err == nil && bulk {
		rs.Restore(mems, ss)
	}
	return err
}

// assign gives stored ordinal ord (0 for a document being added or
// queried) the next method ordinal; date is the document's own date (Unix
// seconds, 0 unknown), unread for a stored document.
func (x *index[S, E]) assign(ord int64, date int64) int32 {
	mem := int32(len(x.ords))
	x.ords = append(x.ords, ord)
	x.dates = append(x.dates, date)
	if ord != 0 {
		x.mem[ord] = mem
		x.undated = append(x.undated, mem)
	}
	return mem
}

// forget takes a removed document out of the in-memory index; index is its
// sketch's index part, nil for a document without one.
func (x *index[S, E]) forget(ord int64, data []byte) error {
	mem, ok := x.mem[ord]
	if !ok {
		return nil // never loaded: skipped, or added and removed since
	}
	var s *S
	if data != nil {
		var err error
		if s, err = x.m.DecodeIndex(data); err != nil {
			return fmt.Errorf("removed document %d: %w", ord, err)
		}
	}
	x.m.Remove(mem, s)
	delete(x.mem, ord)
	x.ords[mem] = 0
	x.cache.drop(ord)
	return nil
}

// update runs fn in a write transaction after catching up; when the
// transaction fails after fn changed the in-memory index, the index is
// rebuilt from the store.
func (x *index[S, E]) update(ctx context.Context, fn func(w store.Writer) error) error {
	err := x.st.Update(ctx, func(w store.Writer) error {
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
	if err != nil && x.dirty {
		if rerr := x.restore(context.WithoutCancel(ctx)); rerr != nil {
			err = errors.Join(err, fmt.Errorf("rebuilding the in-memory index: %w", rerr))
		}
	}
	x.dirty = false
	return err
}

// sketched is a document analysed for an Index.
type sketched[S any] struct {
	s    *S
	skip core.SkipReason
	info docInfo
}

// docInfo is what an Index computes of a document besides its sketch,
// while sketching, in parallel: its language, its content hash and its
// sketch's encoding.
type docInfo struct {
	lang    analysis.Lang
	hash    uint64
	encoded *store.Sketch
}

// sketch analyses doc with sk, a sketcher of m.
func sketchDoc[S any, E core.Evidence](m Method[S, E], sk DocSketcher[S], doc *core.Document, minChars int) sketched[S] {
	var s *S
	skip := stubSkip(doc, minChars)
	if skip == core.SkipNone {
		s, skip = sk.Sketch(doc)
	}
	out := sketched[S]{s: s, skip: skip, info: docInfo{lang: analysis.DetectLang(doc.Text), hash: ContentHash(doc)}}
	if skip == core.SkipNone {
		out.info.encoded = &store.Sketch{Index: m.AppendIndex(nil, s), Detail: m.AppendDetail(nil, s)}
	}
	return out
}

func (x *index[S, E]) newSketcher() *Sketcher {
	m := x.codec.Load().m
	sk := m.NewSketcher()
	return &Sketcher{sketch: func(doc *core.Document) Sketch {
		s := sketchDoc(m, sk, doc, x.minChars)
		if s.skip != core.SkipNone {
			return Sketch{skip: s.skip, info: s.info}
		}
		return Sketch{v: s.s, info: s.info}
	}}
}

// typed returns the sketches of a Sketcher of this index's method.
func (x *index[S, E]) typed(sks []Sketch) ([]sketched[S], error) {
	out := make([]sketched[S], len(sks))
	for i, sk := range sks {
		out[i].skip, out[i].info = sk.skip, sk.info
		if sk.skip == core.SkipNone {
			var ok bool
			if out[i].s, ok = sk.v.(*S); !ok {
				return nil, fmt.Errorf("engine: a sketch of another method given to %s", x.spec.Name)
			}
		}
	}
	return out, nil
}

// sketchAll analyses docs, in parallel when there are many.
func (x *index[S, E]) sketchAll(docs []core.Document) []sketched[S] {
	out := make([]sketched[S], len(docs))
	workers := min(runtime.GOMAXPROCS(0), (len(docs)+15)/16)
	m := x.codec.Load().m
	var wg sync.WaitGroup
	for w := range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sk := x.sketcher(m)
			defer x.pool.Put(sk)
			for i := w; i < len(docs); i += max(workers, 1) {
				out[i] = sketchDoc(m, sk, &docs[i], x.minChars)
			}
		}()
	}
	wg.Wait()
	return out
}

func (x *index[S, E]) sketcher(m Method[S, E]) DocSketcher[S] {
	if sk, ok := x.pool.Get().(DocSketcher[S]); ok {
		return sk
	}
	return m.NewSketcher()
}

func (x *index[S, E]) add(ctx context.Context, docs []core.Document, given []Sketch, o AddOptions) ([]Match, error) {
	sks, err := x.sketches(docs, given)
	if err != nil {
		return nil, err
	}
	var outs []Match
	err = x.update(ctx, func(w store.Writer) error {
		outs = make([]Match, len(docs))
		ids := make([]string, len(docs))
		for i := range docs {
			ids[i] = docs[i].ID
		}
		stored, err := w.Lookup(ids)
		if err != nil {
			return err
		}
		var ex *exactKeys
		if o.Exact {
			if ex, err = newExactKeys(w, docs, sks, o.Slug); err != nil {
				return err
			}
		}
		now := time.Now().Unix()
		for i := range docs {
			d := &docs[i]
			outs[i] = Match{ID: d.ID, Status: Added, Pairs: []core.Pair{}}
			if prev, ok := stored[d.ID]; ok {
				if !o.Replace {
					outs[i].Status = Exists
					continue
				}
				if err := x.removeOrds(w, []int64{prev}); err != nil {
					return err
				}
				outs[i].Status = Replaced
			}
			var ord int64
			if orig, ev := ex.copyOf(i); orig != 0 {
				ord, err = x.addCopy(w, d, sks[i], now, o.StoreText, orig, ev, &outs[i])
			} else {
				ord, err = x.addOne(w, d, sks[i], now, o.StoreText, &outs[i])
			}
			if err != nil {
				return fmt.Errorf("%s: %w", d.Origin, err)
			}
			stored[d.ID] = ord
			if err := ex.stored(w, i, ord); err != nil {
				return err
			}
		}
		if o.Then != nil {
			return o.Then(w, outs)
		}
		return nil
	})
	return outs, err
}

// addOne matches, stores and indexes one document.
func (x *index[S, E]) addOne(w store.Writer, d *core.Document, sk sketched[S], now int64, storeText bool, out *Match) (int64, error) {
	row := docRow(d, sk.info, now, storeText)
	if sk.skip != core.SkipNone {
		row.Skip, out.Skip = sk.skip, sk.skip
		return w.Insert(row, nil)
	}
	// The writer alone changes the in-memory index: it reads it (match)
	// without a lock, and changes it under one, which checks wait for.
	var mem int32
	x.changing(func() error {
		mem = x.assign(0, unixOrZero(d))
		x.m.Add(mem, sk.s)
		return nil
	})
	found, err := x.match(mem, sk.s, w, d)
	if err != nil {
		return 0, err
	}
	ord, err := w.Insert(row, sk.info.encoded)
	if err != nil {
		return 0, err
	}
	x.changing(func() error {
		x.ords[mem], x.mem[ord] = ord, mem
		x.m.Index(mem, sk.s)
		return nil
	})
	x.cache.put(ord, sk.s)
	return ord, x.mark(w, ord, found, out)
}

// docRow is what the store keeps of a document.
func docRow(d *core.Document, info docInfo, now int64, storeText bool) *store.Doc {
	row := &store.Doc{ID: d.ID, Source: d.Source, URL: d.URL, Title: d.Title, Date: unixOrZero(d), Added: now,
		Lang: string(info.lang), Hash: info.hash, Length: len(d.Text)}
	if storeText {
		row.Text = d.Text
	}
	return row
}

// match verifies document mem against the index, selects and explains its
// pairs, best first.
func (x *index[S, E]) match(mem int32, s *S, r store.Reader, d *core.Document) ([]Found[E], error) {
	var found []Found[E]
	if x.window > 0 && len(x.undated) > 0 {
		if err := x.changing(func() error { return x.readDates(r) }); err != nil {
			return nil, err
		}
	}
	src := Source[S](source[S, E]{x, r})
	if x.window > 0 {
		src = indexWindowSource[S, E]{source[S, E]{x, r}, mem}
	}
	err := x.m.Match(mem, s, src, func(other int32, score float64, ev E) {
		if FarApart(x.dates[other], x.dates[mem], x.window) {
			return // a method that does not ask Outside
		}
		if l, ok := x.m.Label(score, ev); ok {
			found = append(found, Found[E]{A: other, B: mem, Score: score, Label: l, Ev: ev})
		}
	})
	if err != nil {
		return nil, err
	}
	if sel, ok := x.m.(Selector[E]); ok {
		found = sel.Select(found, true)
	}
	if ex, ok := x.m.(Explainer[E]); ok {
		for i := range found {
			ex.Explain(&found[i].Ev, d)
		}
	}
	slices.SortStableFunc(found, bestFirst[E])
	return found, nil
}

// mark stores the marks of document ord, puts it in the cluster of its
// duplicates, and fills out.
func (x *index[S, E]) mark(w store.Writer, ord int64, found []Found[E], out *Match) error {
	if len(found) == 0 {
		return nil
	}
	others := make([]int64, len(found))
	marks := make([]store.Mark, len(found))
	now := time.Now().Unix()
	for i, f := range found {
		others[i] = x.ords[f.A]
		ev, err := json.Marshal(f.Ev)
		if err != nil {
			return err
		}
		marks[i] = store.Mark{A: others[i], B: ord, Method: x.spec.Name, Score: Round(f.Score), Label: f.Label,
			Evidence: ev, At: now}
	}
	if err := w.AddMarks(marks); err != nil {
		return err
	}
	docs, err := w.Docs(others)
	if err != nil {
		return err
	}
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	var dups []*store.Doc
	for i, f := range found {
		od := byOrd[others[i]]
		if od == nil {
			return fmt.Errorf("matched document %d is not stored", others[i])
		}
		out.Pairs = append(out.Pairs, core.Pair{A: od.ID, B: out.ID, Method: x.spec.Name, Score: Round(f.Score),
			Label: f.Label, Evidence: f.Ev})
		if f.Label == core.Duplicate {
			dups = append(dups, od)
		}
	}
	var err2 error
	out.Cluster, err2 = join(w, ord, dups)
	return err2
}

// join puts document ord in one cluster with its duplicates: the oldest of
// their clusters, into which the others merge, or a new one.
func join(w store.Writer, ord int64, dups []*store.Doc) (int64, error) {
	if len(dups) == 0 {
		return 0, nil
	}
	target := int64(0)
	for _, d := range dups {
		if d.Cluster != 0 && (target == 0 || d.Cluster < target) {
			target = d.Cluster
		}
	}
	if target == 0 {
		var err error
		if target, err = w.NewCluster(); err != nil {
			return 0, err
		}
	}
	set := []int64{ord}
	moved := map[int64]bool{}
	for _, d := range dups {
		switch {
		case d.Cluster == 0:
			set = append(set, d.Ord)
		case d.Cluster != target && !moved[d.Cluster]:
			moved[d.Cluster] = true
			if err := w.MoveCluster(d.Cluster, target); err != nil {
				return 0, err
			}
		}
	}
	return target, w.SetCluster(set, target)
}

// sketches returns given as the method's sketches, or sketches docs.
func (x *index[S, E]) sketches(docs []core.Document, given []Sketch) ([]sketched[S], error) {
	if given == nil {
		return x.sketchAll(docs), nil
	}
	if len(given) != len(docs) {
		return nil, fmt.Errorf("engine: %d sketches for %d documents", len(given), len(docs))
	}
	return x.typed(given)
}

// query checks docs: beside the writer when the method is a Checker and the
// in-memory index holds what the store does, else with the Index to
// itself.
func (x *index[S, E]) query(ctx context.Context, docs []core.Document, given []Sketch) ([]Match, error) {
	sks, err := x.sketches(docs, given)
	if err != nil {
		return nil, err
	}
	outs, ok, err := x.check(ctx, docs, sks)
	if ok || err != nil {
		return outs, err
	}
	x.lk.write.Lock()
	defer x.lk.write.Unlock()
	x.lk.mem.Lock()
	defer x.lk.mem.Unlock()
	x.exclusive = true
	defer func() { x.exclusive = false }()
	return x.queryAlone(ctx, docs, sks)
}

// queryAlone checks docs with the Index to itself, catching up with the
// store first.
func (x *index[S, E]) queryAlone(ctx context.Context, docs []core.Document, sks []sketched[S]) ([]Match, error) {
	outs := make([]Match, len(docs))
	err := x.st.View(ctx, func(r store.Reader) error {
		if err := x.catchUp(r); err != nil {
			if rerr := x.restore(context.WithoutCancel(ctx)); rerr != nil { // it may have failed half way
				err = errors.Join(err, fmt.Errorf("rebuilding the in-memory index: %w", rerr))
			}
			return err
		}
		for i := range docs {
			outs[i] = Match{ID: docs[i].ID, Status: Checked, Skip: sks[i].skip, Pairs: []core.Pair{}}
			if sks[i].skip != core.SkipNone {
				continue
			}
			mem := x.assign(0, unixOrZero(&docs[i]))
			x.m.Add(mem, sks[i].s)
			found, err := x.match(mem, sks[i].s, r, &docs[i])
			x.m.Remove(mem, sks[i].s)
			if err != nil {
				return err
			}
			if err := x.pairs(r, &outs[i], found); err != nil {
				return err
			}
		}
		return nil
	})
	return outs, err
}

// pairs fills out's pairs from found, reading the matched documents' IDs.
func (x *index[S, E]) pairs(r store.Reader, out *Match, found []Found[E]) error {
	others := make([]int64, len(found))
	for i, f := range found {
		others[i] = x.ords[f.A]
	}
	docs, err := r.Docs(others)
	if err != nil {
		return err
	}
	ids := map[int64]string{}
	for _, d := range docs {
		ids[d.Ord] = d.ID
	}
	for i, f := range found {
		out.Pairs = append(out.Pairs, core.Pair{A: ids[others[i]], B: out.ID, Method: x.spec.Name,
			Score: Round(f.Score), Label: f.Label, Evidence: f.Ev})
	}
	return nil
}

// source reads other documents' sketch details for Match: from the cache,
// else from the store through r.
type source[S any, E core.Evidence] struct {
	x *index[S, E]
	r store.Reader
}

// indexWindowSource is an Index's Source for matching document mem under
// a window (see Outside).
type indexWindowSource[S any, E core.Evidence] struct {
	source[S, E]
	mem int32
}

func (w indexWindowSource[S, E]) Outside(other int32) bool {
	x := w.x
	return FarApart(x.dates[other], x.dates[w.mem], x.window)
}

func (src source[S, E]) Sketch(mem int32) (*S, error) {
	ord := src.x.ords[mem]
	if s := src.x.cache.get(ord); s != nil {
		return s, nil
	}
	data, err := src.r.Detail(ord)
	if err != nil {
		return nil, err
	}
	s, err := src.x.m.DecodeDetail(data)
	if err != nil {
		return nil, fmt.Errorf("document %d: %w", ord, err)
	}
	src.x.cache.put(ord, s)
	return s, nil
}

// detailCache keeps decoded sketch details of recent documents, evicting
// the oldest entry when full. It is safe for concurrent use.
type detailCache[S any] struct {
	mu    sync.Mutex
	max   int
	items map[int64]*S
	order []int64
	next  int
}

func newDetailCache[S any](max int) *detailCache[S] {
	return &detailCache[S]{max: max, items: make(map[int64]*S)}
}

func (c *detailCache[S]) get(ord int64) *S {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[ord]
}

func (c *detailCache[S]) put(ord int64, s *S) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[ord]; ok {
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, ord)
	} else {
		delete(c.items, c.order[c.next])
		c.order[c.next] = ord
		c.next = (c.next + 1) % c.max
	}
	c.items[ord] = s
}

func (c *detailCache[S]) drop(ord int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.items, ord)
}
