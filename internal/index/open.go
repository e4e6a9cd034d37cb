package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// OpenOptions say what index to open.
type OpenOptions struct {
	// Method is the method's options. For a new index nil means the
	// first of the specs with its defaults; for a stored one nil means its
	// own, and anything else must equal them.
	Method engine.Config
	// MethodName, when Method is nil, names the method of the options
	// Flags makes: "" means the stored index's, else the first spec's.
	MethodName string
	// Flags, when not nil and Method is nil, makes the options from base:
	// the stored index's own when it uses that method, else the method's
	// defaults; as a command's flags apply over them. Options of another
	// method than base's, or nil, are an error. Nil with MethodName ""
	// asks for the stored index's own options.
	Flags func(base engine.Config) (engine.Config, error)
	// Keep is the representative policy of exported clusters ("" means
	// the method's own).
	Keep cluster.Policy
	// StoreText creates an index that stores each document's text; asking
	// it of a stored index created without is an error.
	StoreText bool
	// MinChars is the minimum length of a text compared, in characters
	// (see StubSkip); 0 means analysis.DefaultStubChars, negative none. It
	// is not stored with the index.
	MinChars int
	// StoreTextIfNew creates a new index storing texts; a stored one
	// keeps its own choice (for a server or a watcher, whose documents
	// live nowhere else).
	StoreTextIfNew bool
	// Link is the linking policy of a new index ("" means cluster.Any);
	// a stored index keeps its own, and asking it for another is an error.
	Link cluster.Linking
	// Existing opens only an index whose settings are stored: a missing
	// SQLite file is an error (fs.ErrNotExist), not created, a database or
	// file without the index's tables is store.ErrNoIndex, and a store
	// that holds no settings yet (one made for feeds alone) is ErrNoMethod,
	// nothing written to it, so that a command that reads or maintains an
	// index leaves the choice of method and texts to the first add. A
	// store that holds nothing, no settings, no document and no feed (as
	// a first add that stored nothing leaves it, or a creation cut short by
	// an older binary), opens as an empty index whose Meta names no method,
	// its settings not written either; adding to it is ErrNoSettings, and
	// once another process's first add gives it a method, its checks,
	// adds and pings are ErrSettingsChanged: it must be opened again.
	Existing bool
	// BindOnOpen stores a new index's settings (those the options above
	// ask for) when it opens, in a transaction of their own, rather than
	// with its first documents: for a process that runs long (a server, a
	// watcher), which could not change them once it has loaded the index.
	// Another process's first add that asks for others is then refused when
	// it opens, not this process's adds later. It does nothing with
	// Existing, or to a store that holds settings.
	BindOnOpen bool
}

// ErrNoMethod is the error of opening with OpenOptions.Existing a store
// that holds no index settings yet but feeds: no method was chosen, no
// document added. A store that holds nothing at all opens as an empty
// index of no method (see OpenIndex).
var ErrNoMethod = errors.New("index: no method chosen yet: the store holds feeds alone, no document")

// merge resolves the options o asks for against meta, the stored index's
// settings (ok false: none stored yet): Flags over the stored options.
func (o OpenOptions) merge(specs []engine.Spec, meta store.Meta, ok bool) (OpenOptions, error) {
	if o.StoreTextIfNew && !ok {
		o.StoreText = true
	}
	if o.Link != "" {
		if _, err := cluster.ParseLinking(string(o.Link)); err != nil {
			return o, err
		}
	}
	if ok && o.Link != "" && o.Link != linkingOf(meta) {
		return o, fmt.Errorf("the index links by %s, not %s: build a new index to change it", linkingOf(meta), o.Link)
	}
	if o.Method != nil && nilConfig(o.Method) {
		return o, fmt.Errorf("the method's options are a nil %T", o.Method)
	}
	if o.Method != nil || o.MethodName == "" && o.Flags == nil {
		return o, nil
	}
	name := o.MethodName
	switch {
	case name == "" && ok:
		name = meta.Method
	case name == "":
		name = specs[0].Name
	}
	spec, err := lookup(specs, name)
	if err != nil {
		return o, err
	}
	base := spec.Defaults()
	if ok && meta.Method == spec.Name {
		if base, err = spec.DecodeOptions([]byte(meta.Options)); err != nil {
			return o, err
		}
	}
	if o.Flags != nil {
		if base, err = o.Flags(base); err != nil {
			return o, err
		}
		switch {
		case nilConfig(base):
			return o, fmt.Errorf("the options made for method %s are nil", spec.Name)
		case base.Method() != spec.Name:
			return o, fmt.Errorf("the options made for method %s are of method %s: a method is chosen by name, not by its options", spec.Name, base.Method())
		}
	}
	o.Method = base
	return o, nil
}

// Open opens the store at dsn (see store.Open) and the index it holds, or
// creates one; the Index owns the store and closes it with Close. A new
// index's settings (those o asks for) are stored by its first add that
// stores a document, in that add's transaction: an index that holds no
// document is bound to none, and opens with any options (see
// Index.Meta).
func Open(ctx context.Context, dsn string, so store.Options, specs []engine.Spec, o OpenOptions) (*Index, error) {
	if o.Existing && !store.IsPostgres(dsn) {
		if _, err := os.Stat(dsn); err != nil { // opening would create it
			return nil, fmt.Errorf("%s: no index there: %w", dsn, err)
		}
	}
	// Settings this binary or the caller refuses are refused before
	// anything is written (an older schema is not upgraded); a new index's
	// are stored by its first add, with its first documents (see bind).
	var refused error
	o.Flags = once(o.Flags) // the caller's, called once for both
	if !o.Existing && !store.IsPostgres(dsn) {
		if _, err := os.Stat(dsn); errors.Is(err, fs.ErrNotExist) {
			// A new SQLite index: its settings are checked before its
			// file is made, which a refusal would leave with no tables
			// (a PostgreSQL database's schema rolls back with them).
			if err := accept(specs, o, store.Meta{}, false); err != nil {
				return nil, fmt.Errorf("%s: %w", dsn, err)
			}
		}
	}
	so.Accept = func(m store.Meta, ok bool) error {
		err := accept(specs, o, m, ok)
		if err != nil {
			refused = err
		}
		return err
	}
	so.Existing = so.Existing || o.Existing
	st, err := store.Open(ctx, dsn, so)
	if refused != nil && errors.Is(err, refused) {
		return nil, fmt.Errorf("%s: %w", store.Name(dsn), err)
	}
	if err != nil {
		return nil, err
	}
	x, err := OpenIndex(ctx, st, specs, o)
	if err != nil {
		st.Close()
		if errors.As(err, new(*store.NamedError)) {
			return nil, err // the store named the index
		}
		return nil, fmt.Errorf("%s: %w", store.Name(dsn), err)
	}
	x.owned, x.name = true, store.Name(dsn)
	return x, nil
}

// Close closes the store of an Index made by Open; a second call does
// nothing.
func (x *Index) Close() error {
	x.counts.stop()
	x.lk.open.Lock()
	defer x.lk.open.Unlock()
	var err error
	x.exclusively(func() {
		if x.owned && !x.closed {
			err = x.st.Close()
			x.closed = true
		}
	})
	return err
}

// OpenIndex opens the index st holds, or creates one, and rebuilds its
// in-memory candidate index. specs are the methods the binary knows.
func OpenIndex(ctx context.Context, st store.Store, specs []engine.Spec, o OpenOptions) (*Index, error) {
	x, err := build(ctx, st, specs, o)
	if err != nil {
		return nil, err
	}
	if err := x.restore(ctx); err != nil {
		return nil, fmt.Errorf("loading the index: %w", err)
	}
	return x, nil
}

// build is OpenIndex but that its in-memory index is left empty.
func build(ctx context.Context, st store.Store, specs []engine.Spec, o OpenOptions) (*Index, error) {
	meta, ok, err := readMeta(ctx, st)
	if err != nil {
		return nil, err
	}
	if !ok && o.BindOnOpen && !o.Existing {
		// Stored now: the settings o asks for, or those another process
		// stored first, which o is judged against below, as an open after
		// it would be.
		if meta, err = create(ctx, st, specs, o); err != nil {
			return nil, err
		}
		ok = true
	}
	asked := o
	if o, err = o.merge(specs, meta, ok); err != nil {
		return nil, err
	}
	var spec engine.Spec
	var c engine.Config
	switch {
	case !ok && o.Existing:
		// A store that holds nothing, as a first add that stored nothing
		// leaves it (or an older binary's creation cut short, which
		// committed the schema and the settings apart), is an empty index
		// of no method yet, which the first add chooses; one that holds
		// feeds alone is refused.
		if spec, c, err = blank(ctx, st, specs, o); err != nil {
			return nil, err
		}
	case !ok:
		// A new index, or one whose first adds stored nothing: its
		// settings are stored by its first add that stores a document.
		if meta, err = newMeta(specs, o); err != nil {
			return nil, err
		}
		fallthrough
	default:
		if spec, c, err = settle(specs, meta, o); err != nil {
			return nil, err
		}
	}
	live, err := spec.NewLive(c)
	if err != nil {
		return nil, err
	}
	x := &Index{meta: meta, spec: spec, cfg: c, keep: spec.Keep, link: linkingOf(meta), st: st, live: live}
	if o.Keep != "" {
		x.keep = o.Keep
	}
	x.live.SetMinChars(o.MinChars)
	switch {
	case !ok && !o.Existing:
		x.bind = binder(specs, asked, c, meta)
	case !ok:
		x.bind = changedUnder
	}
	return x, nil
}

// changedUnder is the bind of an Index opened with OpenOptions.Existing on
// a store that held nothing (see blank): it chose no method, sketches with
// none stored, and loads none of what another process's first add stores
// with its own: it refuses them, saying to open the index again.
func changedUnder(m store.Meta) (store.Meta, error) {
	return m, fmt.Errorf("%w: another process's first add gave the index method %s since this one opened it, "+
		"empty: open it again to read it", ErrSettingsChanged, m.Method)
}

// blankSince returns, for an Index opened with OpenOptions.Existing on a
// store that held nothing (it chose no method, and never takes one), the
// error changedUnder gives once r holds settings another process's first
// add stored; nil for any other Index, or while r holds none.
func (x *Index) blankSince(r store.Reader) error {
	if x.Meta().Method != "" {
		return nil
	}
	m, ok, err := r.Meta()
	if err != nil || !ok {
		return err
	}
	_, err = changedUnder(m)
	if x.name != "" {
		err = fmt.Errorf("%s: %w", x.name, err) // as Open names a refusal
	}
	return err
}

// ErrSettingsChanged is the error of an Index opened with
// OpenOptions.Existing on a store that held nothing, once another
// process's first add stored its settings: it must be opened again.
var ErrSettingsChanged = errors.New("index: the index was given its settings since it was opened")

func readMeta(ctx context.Context, st store.Store) (store.Meta, bool, error) {
	var meta store.Meta
	var ok bool
	err := st.View(ctx, func(r store.Reader) (err error) {
		meta, ok, err = r.Meta()
		return err
	})
	return meta, ok, err
}

// once returns flags (nil: nil), called again only with a base other than
// its last base and its last result: Open resolves the options a caller's
// flags make before the store is written (accept) and again after
// (OpenIndex), over the settings a new index was just given, which are
// that result; the caller's function is called once, as before.
func once(flags func(base engine.Config) (engine.Config, error)) func(base engine.Config) (engine.Config, error) {
	if flags == nil {
		return nil
	}
	var last, made []byte
	var c engine.Config
	var err error
	return func(base engine.Config) (engine.Config, error) {
		b, e := json.Marshal(base)
		if e == nil && last != nil && (bytes.Equal(b, last) || err == nil && bytes.Equal(b, made)) {
			return c, err
		}
		last = b
		c, err = flags(base)
		made, _ = json.Marshal(c)
		return c, err
	}
}

// AcceptStored returns a store.Options.Accept for a caller that opens a
// store without its index (the feed tables alone): it refuses the stored
// settings Open would refuse whatever it is asked (sketches of a format
// this binary does not read), so that such a store is left as it is, its
// schema not upgraded.
func AcceptStored(specs []engine.Spec) func(m store.Meta, ok bool) error {
	return func(m store.Meta, ok bool) error {
		if !ok {
			return nil
		}
		return accept(specs, OpenOptions{Existing: true}, m, ok)
	}
}

// accept is the store.Options.Accept of Open with o: it refuses the
// settings m (ok false: none stored) that OpenIndex would refuse, those of
// a new index included.
func accept(specs []engine.Spec, o OpenOptions, m store.Meta, ok bool) error {
	o, err := o.merge(specs, m, ok)
	if err != nil {
		return err
	}
	if !ok {
		if !o.Existing {
			_, err = newMeta(specs, o)
		}
		return err
	}
	_, _, err = settle(specs, m, o)
	return err
}

// blank returns the method an Index of a store that holds no settings
// opens with, in memory alone, when the store holds nothing else either (no
// document was ever stored, no feed is): the one o asks for, else the
// first of specs, with its defaults. Otherwise it returns ErrNoMethod.
func blank(ctx context.Context, st store.Store, specs []engine.Spec, o OpenOptions) (engine.Spec, engine.Config, error) {
	empty := false
	err := st.View(ctx, func(r store.Reader) error {
		ord, removal, err := r.Head()
		if err != nil || ord != 0 || removal != 0 {
			return err
		}
		feeds, err := r.Feeds()
		empty = len(feeds) == 0
		return err
	})
	if err != nil {
		return engine.Spec{}, nil, err
	}
	if !empty {
		return engine.Spec{}, nil, ErrNoMethod
	}
	c := o.Method
	if c == nil {
		c = specs[0].Defaults()
	}
	spec, err := lookup(specs, c.Method())
	return spec, c, err
}

// create stores the settings of a new index opened with o, unless another
// process stored some first, and returns those stored.
func create(ctx context.Context, st store.Store, specs []engine.Spec, o OpenOptions) (store.Meta, error) {
	o, err := o.merge(specs, store.Meta{}, false)
	if err != nil {
		return store.Meta{}, err
	}
	meta, err := newMeta(specs, o)
	if err != nil {
		return meta, err
	}
	err = st.Update(ctx, func(w store.Writer) error {
		got, ok, err := w.Meta()
		if ok || err != nil {
			meta = got
			return err
		}
		return w.Init(meta)
	})
	return meta, err
}

// binder returns the bind of an Index opened with o (as the caller asked,
// before merge) on a store that held no settings, which sketches with c and
// whose first add would store meta. It judges the settings another
// process's first add stored meanwhile as Open judges a stored index's:
// another method, other options or another linking asked for, or texts
// asked of an index without, are refused with Open's errors; the choices o
// leaves to a stored index (texts with StoreTextIfNew, a linking not
// asked for) are taken from them. Settings that sketch otherwise than meta
// (a format an older binary makes) are refused too: the Index sketches as
// meta says.
func binder(specs []engine.Spec, o OpenOptions, c engine.Config, meta store.Meta) func(m store.Meta) (store.Meta, error) {
	o.Method, o.MethodName, o.Flags = c, "", nil
	return func(m store.Meta) (store.Meta, error) {
		o, err := o.merge(specs, m, true)
		if err != nil {
			return m, err
		}
		if _, _, err := settle(specs, m, o); err != nil {
			return m, err
		}
		if m.Format != meta.Format || m.HashVersion != meta.HashVersion {
			return m, fmt.Errorf("the index was created meanwhile, by another process, with %s sketches of format %d and hash version %d, "+
				"where this one makes format %d, hash version %d: open it again to add to it", m.Method, m.Format, m.HashVersion,
				meta.Format, meta.HashVersion)
		}
		return m, nil
	}
}

// newMeta returns the settings of a new index opened with o.
func newMeta(specs []engine.Spec, o OpenOptions) (store.Meta, error) {
	c := o.Method
	if c == nil {
		c = specs[0].Defaults()
	}
	spec, err := lookup(specs, c.Method())
	if err != nil {
		return store.Meta{}, err
	}
	if err := engine.CheckConfig(c); err != nil {
		return store.Meta{}, err
	}
	opts, err := json.Marshal(c)
	if err != nil {
		return store.Meta{}, err
	}
	meta := store.Meta{Method: spec.Name, Options: string(opts), Format: spec.Format,
		HashVersion: analysis.HashVersion, StoreText: o.StoreText, Created: time.Now().Unix()}
	if o.Link != cluster.Any {
		meta.Link = string(o.Link)
	}
	return meta, nil
}

// settle checks a stored index's settings against the binary and the
// caller's, and returns its method and options.
func settle(specs []engine.Spec, meta store.Meta, o OpenOptions) (engine.Spec, engine.Config, error) {
	spec, err := lookup(specs, meta.Method)
	if err != nil {
		return spec, nil, fmt.Errorf("the index uses method %q: %w", meta.Method, err)
	}
	c, err := spec.DecodeOptions([]byte(meta.Options))
	if err != nil {
		return spec, nil, err
	}
	older := false
	if meta.Format != spec.Format && spec.Older != nil {
		c, older = spec.Older(meta.Format, c)
	}
	if meta.Format > spec.Format || meta.HashVersion > analysis.HashVersion {
		return spec, nil, fmt.Errorf("%w: it holds %s sketches of format %d and hash version %d, this binary makes format %d "+
			"and hash version %d at most: open it with the neardup that made it, or a newer one", store.ErrTooNew, meta.Method,
			meta.Format, meta.HashVersion, spec.Format, analysis.HashVersion)
	}
	if meta.Format != spec.Format && !older || meta.HashVersion != analysis.HashVersion {
		return spec, nil, fmt.Errorf("the index holds %s sketches of format %d and hash version %d; this binary makes format %d, "+
			"hash version %d, which cannot be compared with them: build a new index of its documents "+
			"(docs/index.md, \"What is stored\", shows how to read them out of this one, which is left as it was)", meta.Method, meta.Format,
			meta.HashVersion, spec.Format, analysis.HashVersion)
	}
	if o.Method != nil {
		if o.Method.Method() != meta.Method {
			return spec, nil, fmt.Errorf("the index uses method %s, not %s; its method is fixed when it is created", meta.Method, o.Method.Method())
		}
		if diff := optionsDiff(c, o.Method); diff != "" {
			return spec, nil, fmt.Errorf("the index was created with other %s options (%s); they are fixed when it is created", meta.Method, diff)
		}
	}
	if o.StoreText && !meta.StoreText {
		return spec, nil, fmt.Errorf("the index was created without storing texts, and StoreText asks for them: an index " +
			"keeps the choice it was created with, so open it without StoreText (StoreTextIfNew keeps an existing " +
			"index's choice), or add the documents to a new index to store their texts")
	}
	return spec, c, nil
}

// optionsDiff names the options of b that differ from a's: "threshold 0.45
// → 0.5, ...", or "" when they are equal.
func optionsDiff(a, b engine.Config) string {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		return ""
	}
	var ma, mb map[string]any
	json.Unmarshal(ja, &ma)
	json.Unmarshal(jb, &mb)
	var diffs []string
	for k, va := range ma {
		if vb := mb[k]; fmt.Sprint(va) != fmt.Sprint(vb) {
			diffs = append(diffs, fmt.Sprintf("%s %v → %v", k, va, vb))
		}
	}
	slices.Sort(diffs)
	return fmt.Sprint(diffs)
}

// nilConfig reports whether c is nil, or a nil pointer, whose methods
// would panic.
func nilConfig(c engine.Config) bool {
	v := reflect.ValueOf(c)
	return !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil()
}

func lookup(specs []engine.Spec, name string) (engine.Spec, error) {
	var names []string
	for _, s := range specs {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return engine.Spec{}, fmt.Errorf("unknown method %q (this binary knows %v)", name, names)
}

// Meta returns the index's settings: for an index that holds no settings
// yet, those its first add stores, unless another process's first add
// stores others first (see bind).
func (x *Index) Meta() store.Meta {
	x.metaMu.Lock()
	defer x.metaMu.Unlock()
	return x.meta
}

// Writable returns nil when this process may write the index, else the
// error its writes return (see store.Store's Writable).
func (x *Index) Writable() error { return x.st.Writable() }

// Spec returns the index's method.
func (x *Index) Spec() engine.Spec { return x.spec }

// Config returns the options the index's method runs with: those stored,
// which make sketches of the index's own format (see engine.Spec.Older).
func (x *Index) Config() engine.Config { return x.cfg }

// Add checks each document against everything stored and stores it, in
// one transaction: all documents are stored, or none. In that transaction
// the feed items made into stored documents that an added one was
// published before, its copies, change from added or similar to duplicate
// (after AddOptions.Then).
func (x *Index) Add(ctx context.Context, docs []core.Document, o AddOptions) ([]Match, error) {
	return x.AddSketched(ctx, docs, nil, o)
}

// AddSketched is Add of documents sketched already by a Sketcher of the
// Index: sks[i] is docs[i]'s. sks nil sketches them.
func (x *Index) AddSketched(ctx context.Context, docs []core.Document, sks []Sketch, o AddOptions) ([]Match, error) {
	x.lk.write.Lock()
	defer x.lk.write.Unlock()
	return x.add(ctx, docs, sks, o)
}

// SetWindow makes Add, Query and Rescore pair a document only with stored documents
// dated at most d from it, as a Batch of Grouping.Window does; a document
// without a date, or a stored one without, pairs with any. 0 (the default)
// pairs with every stored document. Candidates outside the window are ruled
// out before verification (see engine.Outside); the stored documents' dates
// are read once into memory. It is not stored with the index.
func (x *Index) SetWindow(d time.Duration) {
	x.exclusively(func() {
		x.window = d
		x.live.SetWindow(int64(d / time.Second))
	})
}

// Query checks each document against everything stored, storing nothing.
// A document whose ID is stored is reported Exists, as Add reports it, and
// matched with the other stored documents: its stored copy is never its own
// match.
// It sees every document whose add returned before it began.
func (x *Index) Query(ctx context.Context, docs []core.Document) ([]Match, error) {
	return x.query(ctx, docs, nil)
}

// QuerySketched is Query of documents sketched already by a Sketcher of
// the Index.
func (x *Index) QuerySketched(ctx context.Context, docs []core.Document, sks []Sketch) ([]Match, error) {
	return x.query(ctx, docs, sks)
}

// Remove removes the stored documents of the given IDs with their sketches
// and marks, and returns the IDs it removed. In its transaction, as in
// Expire's and an add's with Replace, the feed items made into a document
// left whose marks or cluster the removal changes take the outcome of its
// role then (see relabelJudged): the heir of a removed original, a copy of
// nothing stored published before it, is similar or added, and a document
// whose pair with it is judged again a duplicate is a duplicate. Like an
// add, it keeps other writes waiting, not checks: those run beside it,
// while it waits for another process's writer lock too.
func (x *Index) Remove(ctx context.Context, ids []string) ([]string, error) {
	x.lk.write.Lock()
	defer x.lk.write.Unlock()
	return x.remove(ctx, ids)
}

// Expire removes the documents dated before t (their own date, else when
// they were stored) and returns how many, in transactions of expireChunk
// documents: with an error, how many the transactions before it removed.
// Checks run beside it, as beside Remove.
func (x *Index) Expire(ctx context.Context, before time.Time) (int, error) {
	x.lk.write.Lock()
	defer x.lk.write.Unlock()
	return x.expire(ctx, before)
}

// Rescore judges every pair again with the statistics of the whole index,
// as a batch run over the stored documents would (under the window
// SetWindow set, none by default), and replaces the marks and clusters.
// Unlike a batch run it matches every copy of a document however many
// there are (engine.Method.Copies): its pairs are a batch's but for those
// of the copies past the bucket limit. In its transaction the feed items
// made into the documents take the outcome of their document's role then
// (see relabelJudged).
func (x *Index) Rescore(ctx context.Context, progress func(done int)) (engine.Stats, error) {
	var st engine.Stats
	var err error
	x.exclusively(func() { st, err = x.rescore(ctx, progress) })
	return st, err
}

// Verify checks the index and returns the faults it found: the first
// store.MaxFaults listed, and how many in all; when damage stops the check
// part way, those found until then with the error.
func (x *Index) Verify(ctx context.Context, progress func(done int)) (store.Faults, error) {
	var faults store.Faults
	var err error
	x.exclusively(func() { faults, err = x.verify(ctx, progress) })
	return faults, err
}

// Export sends the index's pairs, clusters and kept documents to e, and
// returns the index's stats as of the same read: they count what e
// received, whatever another process stores meanwhile.
func (x *Index) Export(ctx context.Context, e Exporter) (IndexStats, error) {
	var st IndexStats
	var err error
	x.exclusively(func() { st, err = x.export(ctx, e) })
	return st, err
}

// Len returns the number of compared documents in the in-memory index.
func (x *Index) Len() int {
	x.lk.mem.RLock()
	defer x.lk.mem.RUnlock()
	return x.live.Len()
}

// IndexStats describe a stored index.
type IndexStats struct {
	store.Counts
	Method  string          `json:"method"`
	Options json.RawMessage `json:"options"`
	// Loaded counts the documents in this process's in-memory index.
	Loaded    int  `json:"loaded_documents"`
	StoreText bool `json:"store_text"`
	// Created is when the index was created, in UTC (RFC 3339 in JSON).
	Created time.Time `json:"created"`
	// SketchFormat is the sketch format of the index's method it holds and
	// goes on making: an index made by an earlier binary may hold an older
	// format, which reads as that binary read it (docs/upgrades.md). Zero
	// for an empty index of no method yet.
	SketchFormat int `json:"sketch_format,omitempty"`
	// BinaryFormat is the sketch format this binary's method makes for a
	// new index; zero for an empty index of no method yet.
	BinaryFormat int `json:"binary_sketch_format,omitempty"`
	// HashVersion is the hashing scheme (analysis.HashVersion) of the
	// hashes the index holds, which is this binary's: a binary of another
	// refuses the index (of a newer one with store.ErrTooNew), stats too.
	// Zero for an empty index of no method yet.
	HashVersion int `json:"hash_version,omitempty"`
}

// Stats counts what the index holds.
func (x *Index) Stats(ctx context.Context) (IndexStats, error) {
	st := x.stats(x.Len())
	err := x.st.View(ctx, func(r store.Reader) (err error) {
		st.Counts, err = r.Counts()
		return err
	})
	return st, err
}

// stats returns the index's stats but its counts, loaded of its
// documents in memory.
func (x *Index) stats(loaded int) IndexStats {
	meta := x.Meta()
	st := IndexStats{Method: meta.Method, Loaded: loaded, StoreText: meta.StoreText}
	if meta.Method != "" { // else an empty index, of no method yet (see OpenIndex)
		st.Options, st.Created = json.RawMessage(meta.Options), time.Unix(meta.Created, 0).UTC()
		st.SketchFormat, st.BinaryFormat = meta.Format, x.spec.Format
		st.HashVersion = meta.HashVersion
	}
	return st
}

// linkingOf returns the linking policy a stored index records.
func linkingOf(meta store.Meta) cluster.Linking {
	if meta.Link == "" {
		return cluster.Any
	}
	return cluster.Linking(meta.Link)
}
