package neardup

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/tempfile"
)

// Result is what Dedup and DedupSeq found.
type Result struct {
	// Pairs are the reported pairs, by the later document's position;
	// the pairs of one document duplicates first, then by score, highest
	// first, then by the earlier document's position, as `neardup dedup`
	// lists them in pairs.jsonl. It stays empty when Options.OnPair is
	// set.
	Pairs []Pair
	// Clusters are the groups of duplicates, ordered by first member.
	Clusters []Cluster
	// Kept says, for each item of the input in order, whether it belongs
	// in the de-duplicated corpus: a document the method compared that is
	// in no cluster or represents its cluster. A skipped document, and a
	// record that could not be read (a *RecordError), is not kept.
	Kept []bool
	// Skipped says, for each item of the input in order, why it was not
	// compared, if it was not.
	Skipped []SkipReason
	// Stats count what was read, skipped, paired and clustered, and how
	// long each stage took.
	Stats Stats
}

// Progress is where a Dedup run stands, as Options.OnProgress is told.
type Progress struct {
	// Stage is "reading" (reading and sketching each document),
	// "matching" (candidates, verification and grouping), "rereading"
	// (the second reading of Options.Reread) or "results" (choosing each
	// cluster's representative and handing on the pairs).
	Stage string
	// Done counts the documents of the stage done so far.
	Done int
	// Total is the stage's number of documents; 0 while reading, when
	// it is not known.
	Total int
}

// Dedup finds the duplicate and near-duplicate pairs and clusters of docs,
// compared in order: DedupSeq over the slice, which it reads again where
// evidence quotes text (Options.Reread is ignored). IDs must be unique.
func Dedup(ctx context.Context, docs []Document, o Options) (*Result, error) {
	all := func() iter.Seq2[Document, error] {
		return func(yield func(Document, error) bool) {
			for i := range docs {
				if !yield(docs[i], nil) {
					return
				}
			}
		}
	}
	o.Reread = all
	return DedupSeq(ctx, all(), o)
}

// DedupSeq is Dedup over a sequence of documents, read once: it keeps each
// document's sketch, ID, length and date, never its text, so a caller need
// not hold the corpus in memory. IDs must be unique.
//
// An item whose error is a *RecordError (a record a reader could not read
// as a document: ReadFiles yields them) is counted as skipped for its
// reason, and the run goes on; any other error ends it, returned wrapped.
//
// Most methods' evidence is complete after one reading. The sentences
// method's quotes the shared sentences, and its statistics the most
// frequent boilerplate, which only the text holds: DedupSeq reads the
// documents again from Options.Reread when it is set, and otherwise leaves
// those quotes empty (the pairs, scores, labels and clusters are the same
// either way). A sequence cannot in general be replayed, and spooling the
// texts to disk would cost as much as a second reading of a file: the
// caller, who knows where the documents come from, says how to read them
// again.
//
// Cancelling ctx stops the run at any stage within milliseconds, returning
// ctx's error; Options.OnPair is not called again once the cancellation is
// seen, which is before the next pair when OnPair itself cancels ctx.
func DedupSeq(ctx context.Context, docs iter.Seq2[Document, error], o Options) (res *Result, err error) {
	if docs == nil {
		return nil, errors.New("neardup: DedupSeq: no sequence of documents (nil)")
	}
	b, done, err := o.batch()
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, done()) }()
	d := &deduper{o: o, b: b, res: &Result{}, seconds: map[string]float64{}, skipped: map[SkipReason]int{}}
	if err := d.read(ctx, docs); err != nil {
		return nil, err
	}
	if err := d.match(ctx); err != nil {
		return nil, err
	}
	if err := d.reread(ctx); err != nil {
		return nil, err
	}
	if err := d.results(ctx); err != nil {
		return nil, err
	}
	return d.res, nil
}

// batch makes the batch Dedup runs; done closes it and removes what it
// spilled.
func (o Options) batch() (b engine.Batch, done func() error, err error) {
	var c MethodOptions = methods.Default()
	method, err := o.method()
	if err != nil {
		return nil, nil, err
	}
	switch {
	case method != nil:
		c = method
	case o.MethodName != "":
		spec, err := methods.Lookup(o.MethodName)
		if err != nil {
			return nil, nil, err
		}
		c = spec.Defaults()
	}
	spec, err := methods.Lookup(c.Method())
	if err != nil {
		return nil, nil, err
	}
	keep, err := o.keep()
	if err != nil {
		return nil, nil, err
	}
	link, err := o.link()
	if err != nil {
		return nil, nil, err
	}
	g := engine.Grouping{Keep: keep, Link: link, Window: o.Window, MinChars: o.MinChars}
	if o.Memory > 0 {
		// A folder that cannot hold the files is said before the reading,
		// not once the budget is met, every document read.
		probe, err := tempfile.Create(o.WorkDir, "neardup-spill-probe-*")
		if err != nil {
			return nil, nil, fmt.Errorf("neardup: the work directory of Memory: %w", err)
		}
		probe.Close()
		g.Memory = o.Memory
		g.Spill = func(name string) (engine.SpillFile, error) {
			return tempfile.Create(o.WorkDir, "neardup-spill-"+name+"-*")
		}
	}
	if b, err = spec.NewBatchWith(c, g); err != nil {
		return nil, nil, err
	}
	return b, b.Close, nil
}

// deduper carries a DedupSeq run between its stages.
type deduper struct {
	o       Options
	b       engine.Batch
	res     *Result
	seconds map[string]float64
	skipped map[SkipReason]int // records that could not be read, by reason
	// bad are the positions in the input of the records that could not
	// be read, in order: the batch numbers only the documents.
	bad []int
	// ids holds a hash of each document's ID, by ordinal, to check that
	// a second reading yields the same documents.
	ids  []uint64
	seed maphash.Seed
}

// progressEvery is how many documents a stage handles between two calls
// of Options.OnProgress, and between two looks at the context where one
// costs more than the work.
const progressEvery = 1024

func (d *deduper) progress(stage string, done, total int) {
	if d.o.OnProgress != nil {
		d.o.OnProgress(Progress{Stage: stage, Done: done, Total: total})
	}
}

// read sketches and adds each document of docs.
func (d *deduper) read(ctx context.Context, docs iter.Seq2[Document, error]) error {
	start := time.Now()
	d.seed = maphash.MakeSeed()
	d.progress("reading", 0, 0)
	sk := d.b.NewSketcher()
	n := 0
	for doc, err := range docs {
		// A sketch takes microseconds to milliseconds: the context is
		// looked at before each.
		if err := ctx.Err(); err != nil {
			return err
		}
		n++
		if err != nil {
			var re *RecordError
			if !errors.As(err, &re) {
				return fmt.Errorf("neardup: reading item %d: %w", n, err)
			}
			why := cmp.Or(re.Reason, core.SkipOther) // "" would read as compared
			d.bad = append(d.bad, n-1)
			d.skipped[why]++
			d.res.Skipped = append(d.res.Skipped, why)
			continue
		}
		if doc.Origin == "" {
			doc.Origin = fmt.Sprintf("document %d", n)
		}
		s := sk.Sketch(&doc)
		if err := d.b.Add(&doc, s); err != nil {
			return fmt.Errorf("neardup: %w", err)
		}
		d.ids = append(d.ids, maphash.String(d.seed, doc.ID))
		d.res.Skipped = append(d.res.Skipped, s.Skip())
		if n%progressEvery == 0 {
			d.progress("reading", n, 0)
		}
	}
	d.progress("reading", n, n)
	d.seconds["read_and_sketch"] = time.Since(start).Seconds()
	return ctx.Err()
}

// match runs candidates → verify → group.
func (d *deduper) match(ctx context.Context) error {
	start := time.Now()
	n := d.b.Len()
	d.progress("matching", 0, n)
	err := d.b.Finish(ctx, func(done int) { d.progress("matching", done, n) })
	d.seconds["candidates_verify_group"] = time.Since(start).Seconds()
	return err
}

// reread gives the batch the texts its evidence and statistics quote,
// from a second reading of Options.Reread.
func (d *deduper) reread(ctx context.Context) error {
	n := d.b.Len()
	if d.o.Reread == nil || !d.mayNeedText() {
		return nil
	}
	start := time.Now()
	docs := d.o.Reread()
	if docs == nil {
		return errors.New("neardup: DedupSeq: Options.Reread returned no sequence of documents (nil)")
	}
	d.progress("rereading", 0, n)
	item, ord, bad := 0, 0, d.bad
	for doc, err := range docs {
		if err := ctx.Err(); err != nil {
			return err
		}
		item++
		if len(bad) > 0 && bad[0] == item-1 {
			bad = bad[1:]
			continue
		}
		if err != nil {
			return fmt.Errorf("neardup: rereading item %d: %w", item, err)
		}
		if ord >= n || maphash.String(d.seed, doc.ID) != d.ids[ord] {
			return fmt.Errorf("neardup: rereading item %d (id %q): not the document read first there", item, doc.ID)
		}
		if d.b.NeedsText(ord) {
			if doc.Origin == "" {
				doc.Origin = fmt.Sprintf("document %d", item)
			}
			d.b.Explain(ord, &doc)
		}
		if ord++; ord%progressEvery == 0 {
			d.progress("rereading", ord, n)
		}
	}
	if ord != n {
		return fmt.Errorf("neardup: rereading: %d documents, %d the first time", ord, n)
	}
	d.progress("rereading", n, n)
	d.seconds["reread"] = time.Since(start).Seconds()
	return nil
}

// mayNeedText reports whether any document's text may be quoted.
func (d *deduper) mayNeedText() bool {
	for ord := range d.b.Len() {
		if d.b.MayNeedText(ord) {
			return true
		}
	}
	return false
}

// results builds the clusters, hands on or collects the pairs, and fills
// Kept and Stats.
func (d *deduper) results(ctx context.Context) error {
	start := time.Now()
	res, n := d.res, d.b.Len()
	d.progress("results", 0, n)
	err := d.b.EachResult(func(p *Pair) error {
		// Checked before every pair, so that none is handed on once the
		// run is cancelled (by OnPair itself, say): a cancellable
		// context's Err is an atomic load, set before cancel returns
		// (BenchmarkPairLoop).
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.o.OnPair != nil {
			d.o.OnPair(*p)
		} else {
			res.Pairs = append(res.Pairs, *p)
		}
		return nil
	}, func(c *Cluster) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := *c
		k.Members, k.Joined = slices.Clone(c.Members), slices.Clone(c.Joined)
		res.Clusters = append(res.Clusters, k)
		return nil
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	res.Kept = make([]bool, len(res.Skipped))
	ord, bad := 0, d.bad
	kept := 0
	for i := range res.Kept {
		if len(bad) > 0 && bad[0] == i {
			bad = bad[1:]
			continue
		}
		res.Kept[i] = res.Skipped[i] == "" && d.b.Kept(ord)
		if res.Kept[i] {
			kept++
		}
		ord++
	}
	st := statsOf(d.b.Stats())
	st.Read = len(res.Skipped)
	for r, c := range d.skipped {
		st.Skipped[r] += c
	}
	st.Kept = kept
	d.seconds["results"] = time.Since(start).Seconds()
	st.Seconds = d.seconds
	res.Stats = st
	d.progress("results", n, n)
	return nil
}
