package engine

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// Batch finds every duplicate pair and cluster of a corpus.
//
// Lifecycle: Spec.NewBatch, then Sketch (from any number of goroutines, each
// with its own Sketcher) and Add (from one goroutine, in input order) for
// every document, then Finish. After Finish, a second reading of the input
// may call Explain for each document whose NeedsText is true, which completes
// evidence that quotes text; Result then shows it.
type Batch interface {
	// NewSketcher returns a Sketcher for one goroutine.
	NewSketcher() *Sketcher
	// Add appends a sketched document. A document whose ID was added before
	// is an error naming both origins, and is not added.
	Add(doc *core.Document, s Sketch) error
	// AddStored appends a document an index stored: its sketch's encoded
	// parts (none for a document skipped) decoded, its text's length
	// given, as a rescore of the index adds its documents.
	AddStored(doc *core.Document, length int, skip core.SkipReason, index, detail []byte) error
	// Len returns the number of documents added.
	Len() int
	// ID returns the id of the document of ordinal ord (its position among
	// the documents added), as Result names it.
	ID(ord int) string
	// Finish runs candidates → verify → group over everything added.
	// progress, if not nil, is called now and then with the documents
	// matched so far. A second call does nothing.
	Finish(ctx context.Context, progress func(done int)) error
	// Result returns the pairs and clusters found; valid after Finish.
	Result() *Result
	// EachResult calls pair with each pair of Result and then cluster
	// with each cluster, in their order, building one at a time, and
	// stops at the first error either returns: a large result is written
	// out without being held in memory. The values passed are not kept
	// by the batch, nor valid after the call returns. Valid after Finish.
	EachResult(pair func(*core.Pair) error, cluster func(*core.Cluster) error) error
	// EachFound calls fn with each pair of Result, its documents named by
	// their ordinals, and stops at the first error fn returns. Valid after
	// Finish.
	EachFound(fn func(a, b int, score float64, label core.Label, ev core.Evidence) error) error
	// Shown returns a pair's score as EachResult writes it, given its
	// exact score and evidence, as EachFound passes them (Method.Shown).
	Shown(score float64, ev core.Evidence) float64
	// Kept reports whether the document of ordinal ord (its position
	// among the documents added) belongs in the de-duplicated corpus: the
	// method compared it (it skipped none it was given: too short, no
	// units), and it is in no cluster or is its cluster's representative.
	Kept(ord int) bool
	// NeedsText reports whether evidence or statistics quote the text of
	// the document of ordinal ord. Valid after Finish.
	NeedsText(ord int) bool
	// MayNeedText reports whether NeedsText may report true for ord, now
	// or after the texts of documents before it are given: unlike
	// NeedsText it is safe for concurrent use with Explain, so that
	// records can be chosen for decoding ahead of it. Valid after Finish.
	MayNeedText(ord int) bool
	// Explain gives that text; doc must be the document added at ord.
	Explain(ord int, doc *core.Document)
	// Stats returns the run's statistics as they stand.
	Stats() Stats
	// Encode returns the two parts of sk's encoding (see Codec), to be
	// given back to Decode: sk must be a sketch of this Batch's method, not
	// yet added (Add may drop parts of it); a skipped document's are nil.
	Encode(sk Sketch) (index, detail []byte, err error)
	// Decode returns the sketch Encode's parts hold, of a document whose
	// text was length bytes long and which the method skipped for skip
	// (core.SkipNone for none): Add takes that length instead of its
	// document's, for a document given without its text.
	Decode(length int, skip core.SkipReason, index, detail []byte) (Sketch, error)
	// Close releases the files the Batch spilled to (see
	// Grouping.Memory); it may be called more than once. The Batch is not
	// usable after.
	Close() error
}

// Result is what a Batch found.
type Result struct {
	// Pairs are the reported pairs in discovery order: by the later
	// document's input position, then the earlier one's.
	Pairs []core.Pair
	// Clusters are the groups of duplicates, ordered by first member,
	// numbered from 1.
	Clusters []core.Cluster
}

// batch is the Batch of a method with sketches S and evidence E.
type batch[S any, E core.Evidence] struct {
	name     string
	maker    *maker // of the batch's sketches
	m        Method[S, E]
	keep     cluster.Policy
	link     cluster.Linking
	window   int64                 // seconds; 0 for none
	minChars int                   // the minimum length of a text compared (see StubSkip)
	links    func(core.Label) bool // whether a pair of the label links documents (Grouping.SimilarIsCopy)
	linker   *cluster.Linker
	docs     docTable
	sketches []*S
	stats    Stats
	found    foundList[E]
	byB      []int32 // after Finish: found's pairs byB[b] to byB[b+1]-1 are those of later document b
	groups   [][]int32
	kept     []bool
	// skipped are the ordinals of the documents the method skipped (too
	// short, no units), in order: never compared, they are not kept.
	skipped []int32
	done    bool
	// spill holds what went to disk under a memory budget; nil without
	// one. sketches then holds only the sketches kept in memory.
	spill *spiller[S, E]
	// copies, under the method's Copies stage, holds the first ordinal
	// of each CopyKey added and how many documents have it, and copyOf,
	// for each document, 1 + the ordinal of the first of the earlier
	// documents it copies when it has Copies.BucketLimit of them or more
	// (0 otherwise); both nil without the stage.
	copies map[CopyKey]copyCount
	copyOf []int32
}

// copyCount is the first ordinal of a CopyKey and how many documents have
// it.
type copyCount struct{ first, n int32 }

func newBatch[S any, E core.Evidence](name string, m Method[S, E], g Grouping) *batch[S, E] {
	links := func(l core.Label) bool { return l == core.Duplicate }
	if g.SimilarIsCopy {
		links = func(l core.Label) bool { return l == core.Duplicate || l == core.Similar }
	}
	b := &batch[S, E]{name: name, maker: newMaker("batch", name), m: m, keep: g.Keep, link: g.Link, window: int64(g.Window / time.Second),
		minChars: g.MinChars, links: links, stats: newStats(name)}
	// Under the other linkings a document joins a cluster by its pairs
	// with the members: a copy needs its own.
	if m.Copies != nil && m.Copies.BucketLimit() > 0 && (g.Link == cluster.Any || g.Link == "") {
		b.copies = map[CopyKey]copyCount{}
	}
	return b
}

// outside reports whether documents a and b are dated farther apart than
// the window.
func (b *batch[S, E]) outside(a, c int32) bool {
	return b.window > 0 && FarApart(b.docs.dates[a], b.docs.dates[c], b.window)
}

// source returns the Source for matching document ord: the batch, or under
// a window one that rules out the candidates outside it (see Outside).
func (b *batch[S, E]) source(ord int32) Source[S] {
	if b.window <= 0 {
		return b
	}
	return windowSource[S, E]{b, ord}
}

func newStats(method string) Stats {
	return Stats{Method: method, Skipped: map[core.SkipReason]int{}, Pairs: map[core.Label]int{}}
}

func (b *batch[S, E]) NewSketcher() *Sketcher {
	sk := b.m.NewSketcher()
	return &Sketcher{sketch: func(doc *core.Document) Sketch {
		if skip := StubSkip(doc, b.minChars); skip != core.SkipNone {
			return Sketch{by: b.maker, skip: skip}
		}
		s, skip := sk.Sketch(doc)
		if skip != core.SkipNone {
			return Sketch{by: b.maker, skip: skip}
		}
		if b.copies != nil {
			return Sketch{v: typed[S]{s}, by: b.maker, copy: CopyKeyOf(doc), keyed: true}
		}
		return Sketch{v: typed[S]{s}, by: b.maker}
	}}
}

func (b *batch[S, E]) Add(doc *core.Document, sk Sketch) error {
	if b.done {
		return fmt.Errorf("engine: Add after Finish")
	}
	s, err := unwrap[S](sk.v, sk.by, b.maker)
	if err != nil {
		return fmt.Errorf("%s: %w", doc.Origin, err)
	}
	var key *CopyKey
	if sk.keyed {
		key = &sk.copy
	}
	if sk.length > 0 {
		return b.addLength(doc, sk.length-1, s, sk.skip, key)
	}
	return b.add(doc, s, sk.skip, key)
}

// addLength adds a document given without its text, that text's length
// given.
func (b *batch[S, E]) addLength(doc *core.Document, length int, s *S, skip core.SkipReason, key *CopyKey) error {
	if err := b.add(doc, s, skip, key); err != nil {
		return err
	}
	b.docs.lengths[len(b.docs.lengths)-1] = int32(min(length, 1<<31-1))
	return nil
}

func (b *batch[S, E]) Encode(sk Sketch) (index, detail []byte, err error) {
	s, err := unwrap[S](sk.v, sk.by, b.maker)
	if err != nil || s == nil {
		return nil, nil, err
	}
	return b.m.AppendIndex(nil, s), b.m.AppendDetail(nil, s), nil
}

func (b *batch[S, E]) Decode(length int, skip core.SkipReason, index, detail []byte) (Sketch, error) {
	sk := Sketch{by: b.maker, skip: skip, length: length + 1}
	if skip != core.SkipNone {
		return sk, nil
	}
	s, err := b.m.DecodeSketch(index, detail)
	if err != nil {
		return Sketch{}, err
	}
	sk.v = typed[S]{s}
	return sk, nil
}

// add appends a document with its typed sketch (nil when skipped) and,
// under the method's Copies stage, its CopyKey (nil when unknown: a
// document an index stored is never taken for a copy).
func (b *batch[S, E]) add(doc *core.Document, s *S, skip core.SkipReason, key *CopyKey) error {
	ord, err := b.docs.add(doc)
	if err != nil {
		return err
	}
	b.stats.Documents++
	if skip != core.SkipNone {
		b.stats.Skipped[skip]++
		b.skipped = append(b.skipped, ord)
	}
	b.m.Add(ord, s)
	copied := b.noteCopy(ord, s, key)
	if b.spill != nil {
		if held, err := b.spillAdd(ord, doc.ID, s, copied); err != nil || !held {
			return err
		}
	}
	b.sketches = append(b.sketches, s)
	return nil
}

// noteCopy records whether document ord, of sketch s and CopyKey key, is
// to be verified against the first of its earlier copies alone, and
// reports whether it is.
func (b *batch[S, E]) noteCopy(ord int32, s *S, key *CopyKey) bool {
	if b.copies == nil {
		return false
	}
	if s != nil && key != nil {
		c, ok := b.copies[*key]
		if !ok {
			c.first = ord
		}
		c.n++
		b.copies[*key] = c
		if int(c.n) > b.m.Copies.BucketLimit() {
			b.copyOf = append(b.copyOf, c.first+1)
			b.stats.Copies++
			return true
		}
	}
	b.copyOf = append(b.copyOf, 0)
	return false
}

// firstCopy returns the first of document ord's earlier copies when it is
// verified against it alone (see noteCopy); false otherwise.
func (b *batch[S, E]) firstCopy(ord int32) (int32, bool) {
	if int(ord) >= len(b.copyOf) || b.copyOf[ord] == 0 {
		return 0, false
	}
	return b.copyOf[ord] - 1, true
}

func (b *batch[S, E]) AddStored(doc *core.Document, length int, skip core.SkipReason, index, detail []byte) error {
	if b.done {
		return fmt.Errorf("engine: Add after Finish")
	}
	var s *S
	if skip == core.SkipNone {
		var err error
		if s, err = b.m.DecodeSketch(index, detail); err != nil {
			return fmt.Errorf("%s: %w", doc.Origin, err)
		}
	}
	return b.addLength(doc, length, s, skip, nil)
}

func (b *batch[S, E]) EachFound(fn func(a, b int, score float64, label core.Label, ev core.Evidence) error) error {
	for _, c := range b.found.chunks {
		for _, f := range c {
			if err := fn(int(f.A), int(f.B), f.Score, f.Label, f.Ev); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *batch[S, E]) Shown(score float64, ev core.Evidence) float64 {
	e, _ := ev.(E)
	return b.shown(score, e)
}

// shown is Shown of the method's evidence type.
func (b *batch[S, E]) shown(score float64, ev E) float64 { return b.m.shownScore(score, ev) }

func (b *batch[S, E]) Len() int { return len(b.docs.ids) }

func (b *batch[S, E]) ID(ord int) string { return b.docs.ids[ord] }

// Sketch is the batch's Source: a sketch in memory, or one spilled read
// back.
func (b *batch[S, E]) Sketch(ord int32) (*S, error) {
	if b.spill.spilling(ord) {
		return b.spill.read(b.m, ord)
	}
	return b.sketches[ord], nil
}

func (b *batch[S, E]) Close() error { return b.spill.close() }

func (b *batch[S, E]) Finish(ctx context.Context, progress func(done int)) error {
	if b.done {
		return nil
	}
	// The context is looked at between the steps of preparing, matching
	// and grouping, and within matching: a cancelled run ends within a
	// step's slice of work.
	if err := ctx.Err(); err != nil {
		return err
	}
	n := b.Len()
	if b.m.Corpus.Seal != nil {
		if err := b.m.Corpus.Seal(ctx); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.spill.started() {
		if err := b.matchSpilled(ctx, runtime.GOMAXPROCS(0), progress); err != nil {
			return err
		}
	} else if pm := b.m.Parallel; pm != nil {
		if err := b.matchParallel(ctx, pm, runtime.GOMAXPROCS(0), progress); err != nil {
			return err
		}
	} else {
		for ord := range n {
			if ord%ctxEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if ord%4096 == 0 && progress != nil {
				progress(ord)
			}
			if err := b.match(int32(ord)); err != nil {
				return err
			}
		}
	}
	if b.m.Pairs.Select != nil {
		kept := b.m.Pairs.Select(b.found.flat(), false)
		b.found = foundList[E]{}
		b.found.addChunk(kept)
	}
	b.found.sortByB(b.m.shownScore)
	for _, c := range b.found.chunks {
		for _, f := range c {
			b.stats.Pairs[f.Label]++
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.indexByB()
	b.group()
	b.done = true
	if progress != nil {
		progress(n)
	}
	return nil
}

// match verifies document ord against the documents before it, then
// indexes it.
func (b *batch[S, E]) match(ord int32) error {
	s := b.sketches[ord]
	if s == nil {
		return nil
	}
	emit := emitter(b.m, &ord, b.outside, b.found.add, &b.stats.Candidates)
	if first, ok := b.firstCopy(ord); ok {
		return b.m.Copies.Verify([]int32{first}, s, b.source(ord), emit)
	}
	err := b.m.Match(ord, s, b.source(ord), emit)
	b.m.Index(ord, s)
	return err
}

// ctxEvery is how many documents are matched between two looks at the
// context: a look costs far less than matching them.
const ctxEvery = 32

// matchBlock is how many consecutive documents a goroutine of
// matchParallel matches at a time: enough to make handing out blocks cheap,
// few enough that the goroutines finish together.
const matchBlock = 512

// block is what one block of matchParallel found, in the serial order.
type block[E any] struct {
	found      []Found[E]
	candidates int
	err        error
}

// matchParallel indexes every document, then matches blocks of documents
// on workers goroutines, each document against those before it, and
// appends what each block found in block order: the pairs and their order
// are those of matching one document after another.
func (b *batch[S, E]) matchParallel(ctx context.Context, pm Parallel[S, E], workers int, progress func(done int)) error {
	// A method that matches as it indexes reports the progress itself, and
	// its matchers only emit.
	reported := false
	var indexing func(done int)
	if progress != nil {
		indexing = func(done int) { reported = true; progress(done) }
	}
	ss := b.sketches
	if b.stats.Copies > 0 { // a copy is not indexed: nil as a skipped document's
		ss = slices.Clone(ss)
		for ord := range ss {
			if _, ok := b.firstCopy(int32(ord)); ok {
				ss[ord] = nil
			}
		}
	}
	if err := pm.IndexAll(ctx, ss, indexing); err != nil {
		return err
	}
	if reported {
		progress = nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n := b.Len()
	blocks := make([]block[E], (n+matchBlock-1)/matchBlock)
	var next atomic.Int64
	done := make(chan int, len(blocks))
	var wg sync.WaitGroup
	for range max(1, min(workers, len(blocks))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mt := pm.NewMatcher()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(blocks) || ctx.Err() != nil {
					return
				}
				blocks[i] = b.matchBlock(ctx, mt, i*matchBlock, min(n, (i+1)*matchBlock))
				done <- i
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	finished := 0
	for range done {
		if finished++; progress != nil && finished%8 == 0 {
			progress(min(n, finished*matchBlock))
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, bl := range blocks {
		if bl.err != nil {
			return bl.err
		}
	}
	for i := range blocks {
		b.found.addChunk(blocks[i].found)
		b.stats.Candidates += blocks[i].candidates
		blocks[i] = block[E]{}
	}
	return nil
}

// matchBlock matches the documents from lo to hi with mt, looking at ctx
// every ctxEvery documents: a block can take a second on a busy machine.
func (b *batch[S, E]) matchBlock(ctx context.Context, mt Matcher[S, E], lo, hi int) block[E] {
	var bl block[E]
	var ord int32
	emit := emitter(b.m, &ord, b.outside, func(f Found[E]) { bl.found = append(bl.found, f) }, &bl.candidates)
	var first [1]int32
	for ord = int32(lo); ord < int32(hi); ord++ {
		if (int(ord)-lo)%ctxEvery == ctxEvery-1 {
			if bl.err = ctx.Err(); bl.err != nil {
				return bl
			}
		}
		if s := b.sketches[ord]; s != nil {
			if f, ok := b.firstCopy(ord); ok {
				first[0] = f
				if bl.err = b.m.Copies.Verify(first[:], s, b.source(ord), emit); bl.err != nil {
					return bl
				}
				continue
			}
			if bl.err = mt.Match(ord, s, b.source(ord), emit); bl.err != nil {
				return bl
			}
		}
	}
	return bl
}

// indexByB records where each later document's pairs start in b.found,
// which holds them in discovery order, by B.
func (b *batch[S, E]) indexByB() {
	b.byB = make([]int32, b.Len()+1)
	for _, c := range b.found.chunks {
		for _, f := range c {
			b.byB[f.B+1]++
		}
	}
	for i := 1; i < len(b.byB); i++ {
		b.byB[i] += b.byB[i-1]
	}
}

// group unions the duplicate pairs (and the similar ones, under
// Grouping.SimilarIsCopy) and marks every member but the
// representative of each group as not kept.
func (b *batch[S, E]) group() {
	b.linker = cluster.NewLinker(b.link, b.m.BucketLimit)
	var links []cluster.Link
	for _, c := range b.found.chunks { // a document's pairs are in one chunk
		for i, f := range c {
			if b.links(f.Label) {
				links = append(links, cluster.Link{Other: f.A, Score: core.Round(f.Score), Similar: f.Label == core.Similar})
			}
			if last := i+1 == len(c) || c[i+1].B != f.B; last && len(links) > 0 {
				b.linker.Add(f.B, links)
				links = links[:0]
			}
		}
	}
	b.groups = b.linker.Groups()
	b.mostLinked()
	b.kept = make([]bool, b.Len())
	for i := range b.kept {
		b.kept[i] = true
	}
	var members []cluster.Member
	for _, g := range b.groups {
		var rep int32
		rep, _, members = b.representative(g, members)
		for _, id := range g {
			b.kept[id] = id == rep
		}
	}
	for _, ord := range b.skipped {
		b.kept[ord] = false
	}
}

// mostLinked finds the member of the largest cluster with the most links
// to other members (Stats.Hub) and how many links its members have at
// the median, for the run's warning of clusters that
// chain other stories together: a text many documents hold, a page of
// boilerplate, links them to itself.
func (b *batch[S, E]) mostLinked() {
	var largest []int32
	for _, g := range b.groups {
		if len(g) > len(largest) {
			largest = g
		}
	}
	if len(largest) == 0 {
		return
	}
	in := make(map[int32]int32, len(largest)) // member → its links
	for _, m := range largest {
		in[m] = 0
	}
	for _, c := range b.found.chunks {
		for _, f := range c {
			_, inA := in[f.A]
			_, inB := in[f.B]
			if inA && inB && b.links(f.Label) {
				in[f.A]++
				in[f.B]++
			}
		}
	}
	counts := make([]int32, 0, len(largest))
	hub := largest[0]
	for _, m := range largest { // the first of equals, in reading order
		counts = append(counts, in[m])
		if in[m] > in[hub] {
			hub = m
		}
	}
	slices.Sort(counts)
	b.stats.HubMedian = int(counts[len(counts)/2])
	b.stats.Hub, b.stats.HubLinks = b.docs.ids[hub], int(in[hub])
}

// representative returns the representative of group g and why it was
// chosen; members is scratch space, returned for the next call.
func (b *batch[S, E]) representative(g []int32, members []cluster.Member) (int32, string, []cluster.Member) {
	members = slices.Grow(members[:0], len(g))
	for _, id := range g {
		members = append(members, b.docs.member(id))
	}
	rep, why := cluster.Representative(members, b.keep, func(x, y int32) float64 {
		s, _ := b.m.Similarity(x, y, b) // a Batch's Source does not fail
		return s
	})
	return rep.Ord, why, members
}

func (b *batch[S, E]) Result() *Result {
	res := &Result{Pairs: make([]core.Pair, 0, b.found.n), Clusters: make([]core.Cluster, 0, len(b.groups))}
	b.EachResult(func(p *core.Pair) error {
		res.Pairs = append(res.Pairs, *p)
		return nil
	}, func(c *core.Cluster) error {
		k := *c
		k.Members, k.Joined = slices.Clone(c.Members), slices.Clone(c.Joined)
		res.Clusters = append(res.Clusters, k)
		return nil
	})
	return res
}

func (b *batch[S, E]) EachResult(pair func(*core.Pair) error, each func(*core.Cluster) error) error {
	var p core.Pair // reused: a new one per pair would be garbage, ten million times at a million documents
	for _, c := range b.found.chunks {
		for _, f := range c {
			p = core.Pair{A: b.docs.ids[f.A], B: b.docs.ids[f.B], Method: b.name,
				Score: b.shown(f.Score, f.Ev), Label: f.Label, Evidence: f.Ev}
			if f.Label == core.Duplicate {
				p.Original = b.docs.ids[b.docs.original(f.A, f.B)]
			}
			if err := pair(&p); err != nil {
				return err
			}
		}
	}
	// One cluster's slices are reused for the next, and the reasons its
	// members joined are one string: at a million documents a cluster's
	// allocations each were hundreds of megabytes for the collector.
	var (
		c       core.Cluster
		members []cluster.Member
		why     []byte
		ends    []int
	)
	name := func(d int32) string { return b.docs.ids[d] }
	for i, g := range b.groups {
		var rep int32
		rep, c.Why, members = b.representative(g, members)
		c.ID, c.Representative, c.Linking = int64(i+1), b.docs.ids[rep], string(b.link)
		c.Original = b.docs.ids[cluster.Original(members).Ord]
		c.Members, c.Joined = slices.Grow(c.Members[:0], len(g)), slices.Grow(c.Joined[:0], len(g))
		why, ends = why[:0], slices.Grow(ends[:0], len(g))
		for _, id := range g {
			c.Members = append(c.Members, b.docs.ids[id])
			why = b.linker.Why(id, g).AppendFormat(why, b.link, name)
			ends = append(ends, len(why))
		}
		joined, start := string(why), 0
		for _, end := range ends {
			c.Joined = append(c.Joined, joined[start:end])
			start = end
		}
		if err := each(&c); err != nil {
			return err
		}
	}
	return nil
}

func (b *batch[S, E]) Kept(ord int) bool { return b.done && ord < len(b.kept) && b.kept[ord] }

func (b *batch[S, E]) NeedsText(ord int) bool {
	if !b.done || ord >= b.Len() {
		return false
	}
	if b.m.Pairs.Explain != nil && b.byB[ord+1] > b.byB[ord] {
		return true
	}
	return b.m.Corpus.NeedsText != nil && b.m.Corpus.NeedsText(int32(ord))
}

func (b *batch[S, E]) MayNeedText(ord int) bool {
	if !b.done || ord >= b.Len() {
		return false
	}
	if b.m.Pairs.Explain != nil && b.byB[ord+1] > b.byB[ord] {
		return true
	}
	// A method's statistics change as they are given texts.
	return b.m.Corpus.NeedsText != nil
}

func (b *batch[S, E]) Explain(ord int, doc *core.Document) {
	if !b.done || ord >= b.Len() {
		return
	}
	if explain := b.m.Pairs.Explain; explain != nil {
		for i := b.byB[ord]; i < b.byB[ord+1]; i++ {
			explain(&b.found.at(int(i)).Ev, doc)
		}
	}
	if c := b.m.Corpus; c.NeedsText != nil && c.NeedsText(int32(ord)) {
		c.SeeText(int32(ord), doc)
	}
}

func (b *batch[S, E]) Stats() Stats {
	st := b.stats
	st.Skipped = maps.Clone(b.stats.Skipped)
	st.Pairs = maps.Clone(b.stats.Pairs)
	if b.m.Corpus.Report != nil {
		b.m.Corpus.Report(&st)
	}
	if b.spill.started() {
		st.Spilled = b.Len() - int(b.spill.from)
	}
	st.Clusters = len(b.groups)
	for _, g := range b.groups {
		st.Clustered += len(g)
		st.LargestCluster = max(st.LargestCluster, len(g))
	}
	for _, k := range b.kept {
		if k {
			st.Kept++
		}
	}
	return st
}
