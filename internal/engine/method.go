// Package engine drives the stages every detection method shares, analyse →
// sketch → candidates → verify → group, in two modes over the same code: a
// Batch over a whole corpus and a Live index that checks each document as it
// arrives against everything stored. It knows methods only through the
// Method struct of this file, which each method package (minhash,
// sentences, tfidf, rarewords, cosine, simhash) fills in and registers with
// Register.
package engine

import (
	"context"

	"github.com/neardup/neardup/core"
)

// Method is one detection method's stages, over its sketch type S (a document
// analysed into what the method compares) and its evidence type E, wired by
// the method's build function into this plain struct.
//
// Every method has three stages: Sketching (analyse a document and encode
// its sketch), Matching (find a document's candidates and verify them) and
// Label (grade a verified pair). The other fields are optional stages; a nil
// one (or a nil func of Pairs or Corpus) is a stage the method lacks, which
// the engine does without, as each field says.
//
// Documents are numbered by ordinal (dense int32s, in the order they are
// added). The engine calls, for every document in order: Add; then, in a
// Batch once every document is added (and Corpus.Seal called), or in a Live
// index at once: Match, then Index. A document the method skipped comes with
// a nil sketch; it is added, never matched or indexed.
type Method[S any, E core.Evidence] struct {
	Sketching[S]
	Matching[S, E]
	// Label grades a verified pair; ok false drops it. Under a Parallel
	// or Check stage it is called from many goroutines at once.
	Label func(score float64, ev E) (l core.Label, ok bool)
	// Shown, if not nil, is a pair's score as a Batch's results write it
	// (pairs.jsonl, the titles and the matrix), given the exact score and
	// the pair's evidence: with four decimals, or more where four would put
	// it on the other side of a bound that decided its label (see the func
	// Shown). Without it a score is written with four decimals (core.Round).
	// It is called from one goroutine.
	Shown func(score float64, ev E) float64

	// Parallel lets a Batch match on many goroutines at once; without it
	// a Batch matches one document after another.
	Parallel Parallel[S, E]
	// Check lets a Live index check documents beside its writer; without
	// it checks run one at a time, between writes. A method with a Check
	// stage explains no pairs (Pairs.Explain): a check beside the writer
	// quotes nothing from the stored texts.
	Check Checker[S, E]
	// Recount lets a Live index check a document in place of the stored
	// one of its ID with the corpus statistics counting the document once;
	// a method with statistics (document frequencies) that lacks it counts
	// both while it checks.
	Recount Recounter[S]
	// Restore, if not nil, rebuilds the candidate index from many stored
	// documents at once, faster than an Index of each (as an index opens):
	// it is called instead of Index for every document of ords, after
	// their Adds, on a method that has indexed nothing yet.
	Restore func(ords []int32, ss []*S)
	// Admit, if not nil, checks that a Live index can compare the documents
	// it holds once those of ss are added (a nil one is a document the
	// method skipped): an error says it cannot, as Corpus.Seal's does of
	// a Batch (a method comparing documents of different sources, given
	// documents of none), and the add is refused before anything changes.
	// It reads the method's statistics and changes nothing.
	Admit func(ss []*S) error
	// Reweigh, for a method whose Similarity reads what each document was
	// made into when it was matched, by the corpus statistics as they
	// stood then (a vector's weights, a set of rare words), scores
	// documents by the statistics as they stand: as Similarity of them
	// does in a Batch of the documents added, once sealed. ss are the
	// sketches of documents added (what DecodeIndex restores; nil for one
	// not added, which scores 0 with every other); the func returned
	// scores ss[i] against ss[j], reading the statistics as they stood
	// when Reweigh was called, and must not be called after the method
	// changes. A Live index chooses its central representatives with it,
	// as a Batch would. A method whose Similarity reads nothing fixed by
	// earlier statistics lacks it: Similarity serves.
	Reweigh func(ss []*S) func(i, j int) float64
	// Spill lets a Batch keep a memory budget (Grouping.Memory); without
	// it a Batch refuses a budget.
	Spill Spiller[S, E]
	// Copies, for a method whose sketch reads nothing of a document but
	// its title, text and date, bounds the work of many documents equal
	// in those (a page crawled a million times): under cluster.Any
	// linking, a document with BucketLimit or more such earlier copies
	// is verified against the first of them alone and made a candidate
	// of no other. The candidates it would have met are mostly its
	// copies, whose pairs with the first stand for its own; a million
	// copies give a million pairs, not the bucket limit times as many.
	// Without it every copy is matched.
	Copies Copier[S, E]
	// BucketLimit, for a method that compares a document with at most so
	// many members of one bucket of its candidate index (the first and the
	// newest; see candidates.VisitBucket), is that limit; 0 for a method
	// that compares it with every candidate. Under cluster.Majority
	// linking a cluster of more members than it admits a document by
	// links to half of that many (see cluster.Choose).
	BucketLimit int
	// Pairs finishes one document's verified pairs.
	Pairs Pairs[E]
	// Corpus are the steps over a Batch's whole corpus.
	Corpus Corpus
}

// Sketching is the stage that analyses documents into sketches and encodes
// them.
type Sketching[S any] interface {
	// NewSketcher returns a DocSketcher for one goroutine.
	NewSketcher() DocSketcher[S]
	Codec[S]
}

// Matching is the stage that keeps a method's candidate index and corpus
// statistics, and finds and verifies a document's candidates.
type Matching[S any, E core.Evidence] interface {
	// Add counts document ord into the method's corpus statistics
	// (document frequencies). s may be nil.
	Add(ord int32, s *S)
	// Match finds the indexed documents that can match ord (the
	// candidates), verifies each exactly against s, and calls emit for
	// each scoring at least the lowest reporting threshold, in increasing
	// ordinal order. src gives other documents' sketches to a method that
	// keeps none of its own; its errors are Match's.
	Match(ord int32, s *S, src Source[S], emit func(other int32, score float64, ev E)) error
	// Index makes ord a candidate of the documents matched after it. It
	// may drop the parts of s that only indexing reads.
	Index(ord int32, s *S)
	// Remove undoes Add and, if it was called, Index. s holds at least what
	// DecodeIndex restores; it may be nil.
	Remove(ord int32, s *S)
	// Similarity returns the exact score of two indexed documents, for the
	// representative policy "central" (a Live index calls Reweigh instead,
	// where the method has it).
	Similarity(a, b int32, src Source[S]) (float64, error)
}

// DocSketcher analyses documents for one goroutine; it need not be safe for
// concurrent use. The sketch keeps no reference to the document's text.
type DocSketcher[S any] interface {
	Sketch(doc *core.Document) (*S, core.SkipReason)
}

// Source returns the sketch of an added document, complete enough to verify
// a pair (the detail part included). A Batch keeps every sketch in memory; an
// Index reads them from its store.
type Source[S any] interface {
	Sketch(ord int32) (*S, error)
}

// Codec is the versioned binary encoding of a method's sketches, in two
// parts: the index part, what Add, Index and Remove read, which an Index
// reads back for every stored document when it opens; and the detail part,
// what only verification reads, which it reads on demand. A method whose
// verification reads only its own state has no detail part. Each part
// starts with a version byte; a decoder refuses versions it does not know.
// The methods read only their arguments: they are safe for concurrent use.
type Codec[S any] interface {
	AppendIndex(dst []byte, s *S) []byte
	AppendDetail(dst []byte, s *S) []byte
	// DecodeIndex reads an index part: a sketch holding what Add, Index
	// and Remove read.
	DecodeIndex(b []byte) (*S, error)
	// DecodeDetail reads a detail part: a sketch holding what Match and
	// Similarity read of another document.
	DecodeDetail(b []byte) (*S, error)
	// DecodeSketch reads both parts into a whole sketch.
	DecodeSketch(index, detail []byte) (*S, error)
}

// Parallel is the stage that lets a Batch match on many goroutines at once.
// Once every document is added (and Corpus.Seal called), IndexAll indexes
// them all in place of Index for each; then Matchers, one per goroutine,
// match each document against the documents before it only, finding,
// verifying and emitting exactly what Match would with those documents
// alone indexed, in the same order. The Batch's pairs are then the same, in
// the same order, whatever the number of goroutines. A Pairs.Select may be
// given fewer pairs than Match would emit, provided it then keeps and
// marks the same pairs.
type Parallel[S any, E core.Evidence] interface {
	// IndexAll indexes every document: ss[ord] is the sketch of ordinal
	// ord, nil for a document the method skipped. A method whose IndexAll
	// does most of the matching's work calls progress, if not nil, now and
	// then with that share of work done as a number of documents (of
	// len(ss)), on the calling goroutine, and stops soon after ctx is done,
	// returning its error (the method is then left unusable); the Batch
	// then leaves progress to it. Others may ignore ctx and progress.
	IndexAll(ctx context.Context, ss []*S, progress func(done int)) error
	// NewMatcher returns a Matcher for one goroutine.
	NewMatcher() Matcher[S, E]
}

// Matcher matches the documents of a Batch indexed by Parallel.IndexAll:
// Match is Matching.Match against the documents before ord. Matchers of one
// method run concurrently, each on its own goroutine; one Matcher is not
// safe for concurrent use. Match may drop the parts of s that only its own
// matching reads, as Index may.
type Matcher[S any, E core.Evidence] interface {
	Match(ord int32, s *S, src Source[S], emit func(other int32, score float64, ev E)) error
}

// Checker is the stage that lets a Live index check documents (Query) on
// many goroutines at once, beside its writer: Match split in two, finding
// the candidates, which only reads the method's index, and verifying them,
// which reads nothing of the method's state.
type Checker[S any, E core.Evidence] interface {
	// Candidates appends to dst the indexed documents Match would verify
	// s against, in any order, maybe more than once. It only reads: calls
	// may run at once, though not with Add, Index or Remove.
	Candidates(dst []int32, s *S) []int32
	// Verify verifies s against cands, which it may sort, and emits what
	// Match would of them, in increasing ordinal order. It may run at once
	// with any other method call.
	Verify(cands []int32, s *S, src Source[S], emit func(other int32, score float64, ev E)) error
}

// Copier is the stage that lets a Batch verify a copy against the
// first of its copies alone (see Method.Copies).
type Copier[S any, E core.Evidence] interface {
	// Verify verifies s against cands, which it may sort, and emits what
	// Match would of them, in increasing ordinal order (as
	// Checker.Verify). Calls run at once on many goroutines, beside no
	// Add, Index or Remove.
	Verify(cands []int32, s *S, src Source[S], emit func(other int32, score float64, ev E)) error
	// BucketLimit is how many earlier copies a copy is matched with
	// before it is verified against the first alone; 0 for no bound.
	BucketLimit() int
}

// Recounter is the stage of a method with corpus statistics that lets a
// Live index check a document that stands for an indexed one (a query of a
// stored ID, Live.Probe) against the other documents, with statistics
// that count the document checked and not the indexed one: the check is
// added, Uncount takes the indexed one's counts off, the check is matched,
// Recount puts the counts back, and the check is removed. The indexed
// document stays indexed meanwhile, as it was weighed; the method is then
// exactly as it was before the check was added.
type Recounter[S any] interface {
	// Uncount takes indexed document ord's counts off the statistics,
	// leaving it in the candidate index, a candidate with its weights and
	// rare words unchanged. s holds what DecodeIndex restores of it.
	// Between Uncount and Recount the method sees only the Match of a
	// document added before Uncount and removed after Recount.
	Uncount(ord int32, s *S)
	// Recount puts back what Uncount of ord and s took off.
	Recount(ord int32, s *S)
}

// Found is a verified pair of ordinals, A < B.
type Found[E any] struct {
	A, B  int32
	Score float64
	Label core.Label
	Ev    E
}

// Pairs is the stage that finishes one document's verified and labelled
// pairs; either func may be nil.
type Pairs[E any] struct {
	// Select, for a method that reports only the best of the pairs it
	// verified, known only once every pair is (rarewords: each document's
	// best match per source), returns the pairs kept, in order. In a
	// Batch fs holds every pair and every document's view counts; in a
	// Live index (newest true) fs holds the newest document's pairs and
	// only its view counts. Under a Parallel stage it is called on one
	// goroutine.
	Select func(fs []Found[E], newest bool) []Found[E]
	// Explain, for a method whose evidence quotes text that sketches do
	// not keep, completes ev from the text of the pair's later document
	// b, which holds what both share.
	Explain func(ev *E, b *core.Document)
}

// Corpus are a method's steps over a Batch's whole corpus; each func may be
// nil.
type Corpus struct {
	// Seal is called once a Batch has added every document, before any
	// match: the method's statistics are final, which lets it prepare
	// matching once. An error says the method cannot compare the
	// documents as they are (a method comparing documents of different
	// sources, given documents of one source) and ends the run saying why
	// instead of finding nothing. It stops soon after ctx is done,
	// returning its error (the method is then left unusable).
	Seal func(ctx context.Context) error
	// Report adds statistics of the method's own to a run's.
	Report func(st *Stats)
	// NeedsText and SeeText are for a method whose statistics quote text
	// (the sentences method's most frequent boilerplate): a Batch's second
	// reading gives SeeText the text of each document for which NeedsText
	// is true. Both or neither are set.
	NeedsText func(ord int32) bool
	SeeText   func(ord int32, doc *core.Document)
}

// shownScore is a pair's score as the method shows it (Shown), with four
// decimals when it has no Shown.
func (m *Method[S, E]) shownScore(score float64, ev E) float64 {
	if m.Shown == nil {
		return core.Round(score)
	}
	return m.Shown(score, ev)
}
