package neardup

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sync"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/index"
)

// AddOptions configure Index.AddSeq and Index.AddSketched.
type AddOptions struct {
	// Replace makes a document whose ID is stored replace it, as Replace
	// does.
	Replace bool
	// Query checks the documents without storing them, as Query does.
	Query bool
	// Exact checks each document first for an exact copy among the
	// documents added with Exact: the same title and text, or the same
	// URL, which should then be the canonical form of the address the
	// document was fetched from (a crawler's documents): two documents of
	// one URL are taken for one page fetched twice, their texts never
	// compared, so a URL a document names itself (a page's
	// <link rel="canonical"> or og:url), which may be any, another site's
	// or another article's, must not be given as it. An index written
	// before schema version 11 keeps, of a document whose URL is not its
	// ID, its content's key alone: the URL may be such a claim (see
	// docs/index.md). A copy is stored and marked a duplicate of the
	// first (method ExactMethod) without being sketched or compared, in
	// the first's cluster by every linking policy. A document the method
	// skipped (too short, no units) is no first: a copy of it is added as
	// any document, skipped for its own reason or compared. When the first
	// is removed, a copy left takes its place, sketched (see
	// docs/index.md).
	Exact bool
	// Slug, with Exact, returns the article slug of a document's ID or
	// URL ("" for none): a document whose ID or URL has the slug of a
	// stored one's on the same site (host, "www." aside), published within
	// two days of it (or either undated), is an exact copy of it too;
	// another site's story under the headline, or the site's headline a
	// week on, is compared as any document. A slug counts only when it is
	// made of the words of the document's title (at least three, and two
	// thirds of its words): a section's name beside an id
	// ("/news/uk-england-london-68473622") is no headline. Nil means no
	// slugs.
	Slug func(url string) string
	// Then, if not nil, runs in each transaction that adds documents, after
	// them, with their matches: what it writes of the feed tables commits
	// with them, or nothing does. A panic in it (or in Slug) rolls the
	// transaction back as an error does, and is raised again.
	Then func(w FeedWriter, ms []Match) error
	// Chunk is how many documents one transaction adds; 0 means
	// DefaultChunk, and a negative one is an error of AddSeq.
	Chunk int
	// Workers is the number of goroutines that analyse the documents
	// while the previous chunk is added; 0 means GOMAXPROCS, and a
	// negative one is an error of AddSeq.
	Workers int
	// Waiting, when set, is asked after each document put in a chunk, and
	// after each record skipped: true ends the chunk there, full or not,
	// so that the documents read so far are added (and their matches
	// reported) while the sequence's source waits for more, as `neardup
	// index add` does of standard input that pauses. It is called on the goroutine that ranges over the
	// sequence, right after the document's item.
	Waiting func() bool
	// OnMatch, when set, is called with each document's Match, in the
	// order of the sequence, once its chunk is committed, on the calling
	// goroutine. An error it returns ends AddSeq with that error.
	OnMatch func(Match) error
	// OnSkip, when set, is called with each record of the sequence that
	// could not be read (an item whose error is a *RecordError, as
	// ReadFiles yields for a malformed line) or that no index stores (see
	// AddSeq), in the order of the sequence, on a goroutine of AddSeq's.
	// The record is skipped either way, as DedupSeq and `neardup index add`
	// skip it; an error OnSkip returns ends AddSeq with that error.
	OnSkip func(*RecordError) error
}

// DefaultChunk is AddOptions.Chunk when it is 0: the documents of one
// transaction of AddSeq.
const DefaultChunk = 1000

// ExactMethod is the method named by the marks of the exact copies
// AddOptions.Exact finds.
const ExactMethod = index.ExactMethod

// index returns the options of the index's add.
func (o *AddOptions) index() index.AddOptions {
	io := index.AddOptions{Replace: o.Replace, Exact: o.Exact, Slug: o.Slug}
	if then := o.Then; then != nil {
		io.Then = func(w FeedWriter, ms []index.Match) error {
			out, _ := matches(ms, nil)
			return then(w, out)
		}
	}
	return io
}

// AddSeq adds the documents of a sequence, as Add does, in chunks of
// o.Chunk documents, each chunk in one transaction: a long stream, such as
// a corpus read by ReadFiles, is analysed in parallel while the chunk
// before it is stored, and never held whole. A record the sequence could
// not read (a *RecordError) is skipped (see AddOptions.OnSkip); any other
// error of the sequence, or of OnSkip, ends it once the documents before
// it are added, whatever the chunking (the last chunk is shorter), and is
// returned. A record read from an input (a document with an Origin, as
// ReadFiles and Read yield) with a field no index stores (an id no stored
// document can have, as one holding a control character; a title, URL or
// source longer than its bound; a URL of another scheme than http or
// https: see UnstorableError) is skipped too, as `neardup index add` skips
// it, as a *RecordError of Reason "malformed" whose Field names the
// Document's field ("id", "title", "url", "source"); with Query it is
// checked. A document without an Origin that no index stores fails its
// chunk, as Add fails. An error of a chunk or of OnMatch ends it too: the
// chunks committed before stay stored.
//
// The sequence is ranged over on a goroutine of AddSeq's, beside OnMatch
// on the calling goroutine; a panic there is raised again on the calling
// goroutine once the chunks read before it are dealt with.
func (x *Index) AddSeq(ctx context.Context, docs iter.Seq2[Document, error], o AddOptions) error {
	if docs == nil {
		return errors.New("neardup: AddSeq: no sequence of documents (nil)")
	}
	switch {
	case o.Chunk < 0:
		return fmt.Errorf("neardup: AddOptions.Chunk %d: want 0 or more", o.Chunk)
	case o.Workers < 0:
		return fmt.Errorf("neardup: AddOptions.Workers %d: want 0 or more", o.Workers)
	}
	if o.Chunk == 0 {
		o.Chunk = DefaultChunk
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	chunks := make(chan sketched, 1)
	var readErr error
	var readPanic any
	go func() {
		defer close(chunks)
		defer func() { readPanic = recover() }()
		readErr = x.sketchChunks(ctx, docs, o, chunks)
	}()
	var err error
	for c := range chunks {
		if err == nil {
			err = x.apply(ctx, c, o)
		}
		if err != nil {
			cancel() // and drain, so that the reader ends
		}
	}
	if readPanic != nil {
		panic(readPanic)
	}
	if err != nil {
		return err
	}
	return readErr
}

// sketched is a chunk of documents with their sketches.
type sketched struct {
	docs  []Document
	sks   []index.Sketch
	first int // the position of docs[0] among the sequence's documents, from 0
}

// sketchChunks reads docs into chunks, sketches each with o.Workers
// goroutines and sends it on out.
func (x *Index) sketchChunks(ctx context.Context, docs iter.Seq2[Document, error], o AddOptions, out chan<- sketched) error {
	sketchers := make([]*index.Sketcher, o.Workers)
	for i := range sketchers {
		sketchers[i] = x.x.NewSketcher()
	}
	sent := 0 // documents sent before
	send := func(c []Document) bool {
		sks := make([]index.Sketch, len(c))
		var wg sync.WaitGroup
		for w, sk := range sketchers {
			wg.Go(func() {
				for i := w; i < len(c); i += len(sketchers) {
					sks[i] = sk.Sketch(&c[i])
				}
			})
		}
		wg.Wait()
		select {
		case out <- sketched{c, sks, sent}:
			sent += len(c)
			return true
		case <-ctx.Done():
			return false
		}
	}
	c := make([]Document, 0, o.Chunk)
	// stop ends the sequence at err, once the documents of it before err
	// are sent: what is stored does not depend on the chunking. A
	// cancelled context sends nothing more.
	stop := func(err error) error {
		if len(c) > 0 && ctx.Err() == nil && !send(c) {
			return ctx.Err()
		}
		return err
	}
	for d, err := range docs {
		var re *RecordError
		if err == nil && !o.Query {
			re = refusal(&d)
		}
		switch {
		case re != nil || errors.As(err, &re):
			if o.OnSkip != nil {
				if err := o.OnSkip(re); err != nil {
					return stop(err)
				}
			}
			if len(c) > 0 && o.Waiting != nil && o.Waiting() {
				if !send(c) {
					return ctx.Err()
				}
				c = make([]Document, 0, o.Chunk)
			}
			continue
		case err != nil:
			return stop(err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		c = append(c, d)
		if waits := o.Waiting != nil && o.Waiting(); len(c) == o.Chunk || waits {
			if !send(c) {
				return ctx.Err()
			}
			c = make([]Document, 0, o.Chunk)
		}
	}
	if len(c) > 0 && !send(c) {
		return ctx.Err()
	}
	return nil
}

// refusal returns the *RecordError of a record read from an input (a
// document with an Origin) with a field no index stores, nil for any other
// document.
func refusal(d *Document) *RecordError {
	if d.Origin == "" {
		return nil
	}
	var u *index.UnstorableError
	if !errors.As(index.CheckStorable([]Document{*d}), &u) {
		return nil
	}
	return &RecordError{Origin: d.Origin, Field: u.Field, Reason: core.SkipMalformed, Msg: "an index stores no " + u.Field + " that " + u.Why}
}

// apply adds (or checks) one chunk and reports its matches.
func (x *Index) apply(ctx context.Context, c sketched, o AddOptions) error {
	var ms []index.Match
	var err error
	if o.Query {
		ms, err = x.x.QuerySketched(ctx, c.docs, c.sks)
	} else {
		io := o.index()
		io.First = c.first // an error names a document by its place in the sequence
		ms, err = x.x.AddSketched(ctx, c.docs, c.sks, io)
		err = unstorable(err)
	}
	if err != nil {
		return err
	}
	if o.OnMatch == nil {
		return nil
	}
	out, _ := matches(ms, nil)
	for _, m := range out {
		if err := o.OnMatch(m); err != nil {
			return err
		}
	}
	return nil
}
