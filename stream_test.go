package neardup_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/minhash"
)

// TestIndexAddSeq adds a stream in chunks through the public API, as
// `neardup index add` does: matches come in input order, each once its
// chunk is stored; a query stores nothing; an error of the stream keeps
// the documents before it. Options.MethodName and Configure make a
// new index's options and see a stored one's; StoreTextIfNew holds for
// a new index only.
func TestIndexAddSeq(t *testing.T) {
	ctx := t.Context()
	db := filepath.Join(t.TempDir(), "news.db")
	var bases []neardup.MethodOptions
	configure := func(th float64) func(neardup.MethodOptions) (neardup.MethodOptions, error) {
		return func(base neardup.MethodOptions) (neardup.MethodOptions, error) {
			bases = append(bases, base)
			o := base.(minhash.Options)
			o.Threshold = th
			return o, nil
		}
	}
	x, err := neardup.Open(ctx, db, neardup.Options{MethodName: minhash.Name, Configure: configure(0.7), StoreTextIfNew: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, o, err := x.Method(); err != nil || o.(minhash.Options).Threshold != 0.7 || len(bases) != 1 || bases[0] != neardup.MethodOptions(minhash.Defaults()) {
		t.Errorf("new index: options %+v (%v) from bases %+v, want minhash's defaults with threshold 0.7", o, err, bases)
	}
	if !x.StoresText() {
		t.Error("StoreTextIfNew: a new index stores no texts")
	}

	docs := []neardup.Document{
		{ID: "a", Text: story},
		{ID: "b", Text: "NORTHPORT (Wire) - " + story},
		{ID: "c", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said on Monday."},
		{ID: "d", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said on Monday morning."},
		{ID: "e", Text: "The regional football final was postponed by a week after the stadium roof was damaged in a storm."},
	}
	var got []string
	var lens []int
	seq := func(ds []neardup.Document, fail error) func(func(neardup.Document, error) bool) {
		return func(yield func(neardup.Document, error) bool) {
			for _, d := range ds {
				if !yield(d, nil) {
					return
				}
			}
			if fail != nil {
				yield(neardup.Document{}, fail)
			}
		}
	}
	var ms []neardup.Match
	err = x.AddSeq(ctx, seq(docs, nil), neardup.AddOptions{Chunk: 2, Workers: 3, OnMatch: func(m neardup.Match) error {
		ms = append(ms, m)
		got = append(got, m.ID)
		lens = append(lens, x.Len())
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Fatalf("matches of %v, want %v in order", got, want)
	}
	// Each document's match comes once its chunk of two is stored.
	if want := []int{2, 2, 4, 4, 5}; !slices.Equal(lens, want) {
		t.Errorf("Len() as each match came: %v, want %v", lens, want)
	}
	if ms[1].Status != neardup.Added || len(ms[1].Pairs) != 1 || ms[1].Pairs[0].A != "a" || ms[1].Pairs[0].Label != neardup.Duplicate {
		t.Errorf("b: %+v, want a duplicate of a", ms[1])
	}
	if len(ms[3].Pairs) != 1 || ms[3].Pairs[0].A != "c" || len(ms[4].Pairs) != 0 {
		t.Errorf("d: %+v, e: %+v; want d a match of c, e none", ms[3], ms[4])
	}

	// A query stores nothing; a stored ID queried or added again exists.
	var statuses []neardup.Status
	on := func(m neardup.Match) error { statuses = append(statuses, m.Status); return nil }
	queried := []neardup.Document{{ID: "f", Text: story}, docs[1]}
	if err := x.AddSeq(ctx, seq(queried, nil), neardup.AddOptions{Query: true, OnMatch: on}); err != nil {
		t.Fatal(err)
	}
	if err := x.AddSeq(ctx, seq(docs[:1], nil), neardup.AddOptions{OnMatch: on}); err != nil {
		t.Fatal(err)
	}
	if want := []neardup.Status{neardup.Checked, neardup.Exists, neardup.Exists}; !slices.Equal(statuses, want) || x.Len() != 5 {
		t.Errorf("query then add again: %v, %d stored; want %v, 5", statuses, x.Len(), want)
	}

	// An error of the stream ends it once the documents before it are
	// stored, the last chunk shorter.
	more := make([]neardup.Document, 5)
	for i := range more {
		more[i] = neardup.Document{ID: fmt.Sprint("m", i), Text: fmt.Sprintf("Story number %d about the local harbour, told in a sentence long enough to compare.", i)}
	}
	broken := errors.New("input.jsonl: unreadable")
	if err := x.AddSeq(ctx, seq(more, broken), neardup.AddOptions{Chunk: 2}); !errors.Is(err, broken) {
		t.Errorf("stream error: %v, want %v", err, broken)
	}
	if n := x.Len(); n != 10 {
		t.Errorf("after a stream error: %d stored, want 10 (the five documents before it)", n)
	}
	// So does an error of OnMatch, after its chunk.
	stop := errors.New("stop")
	calls := 0
	err = x.AddSeq(ctx, seq(more, nil), neardup.AddOptions{Chunk: 1, Replace: true, OnMatch: func(m neardup.Match) error {
		calls++
		if m.Status != neardup.Unchanged { // the same document as stored
			t.Errorf("%s: %s, want unchanged", m.ID, m.Status)
		}
		return stop
	}})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("OnMatch error: %v after %d calls, want stop after 1", err, calls)
	}
	x.Close()

	// Reopened: Configure starts from the stored options, which are
	// fixed; StoreTextIfNew false leaves the stored choice.
	bases = nil
	if z, err := neardup.Open(ctx, db, neardup.Options{Configure: configure(0.8)}); err == nil {
		z.Close()
		t.Error("reopened with threshold 0.8 over the stored 0.7: no error")
	}
	y, err := neardup.Open(ctx, db, neardup.Options{Configure: configure(0.7)})
	if err != nil {
		t.Fatal(err)
	}
	defer y.Close()
	if len(bases) != 2 || bases[0].(minhash.Options).Threshold != 0.7 || bases[1].(minhash.Options).Threshold != 0.7 {
		t.Errorf("reopened: Configure given %+v, want the stored options (threshold 0.7)", bases)
	}
	if !y.StoresText() {
		t.Error("reopened without StoreTextIfNew: the stored choice was lost")
	}
}

// TestAddSeqSkipsBadRecords: a corpus read by ReadFiles with a malformed
// line among good ones is added whole but for that line, which OnSkip is
// told of by file and line, as DedupSeq and `neardup index add` skip it.
// Regression: the bad line ended AddSeq, and the documents read before it,
// in the same chunk, were not stored.
func TestAddSeqSkipsBadRecords(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	var lines []string
	for i := range 5 {
		lines = append(lines, fmt.Sprintf(`{"id":"s%d","text":"Story number %d about the local harbour, told in a sentence long enough to compare."}`, i, i))
	}
	lines[2] = `{"id":"broken","text":`
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := neardup.Open(ctx, filepath.Join(dir, "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var skipped []string
	err = x.AddSeq(ctx, neardup.ReadFiles(ctx, []string{in}, neardup.ReadOptions{}), neardup.AddOptions{
		OnSkip: func(e *neardup.RecordError) error { skipped = append(skipped, e.Origin); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != 4 || !slices.Equal(skipped, []string{in + ":3"}) {
		t.Errorf("%d stored, skipped %q; want 4 stored and line 3 skipped", x.Len(), skipped)
	}
}

// TestAddSeqCallerGetsPanics: AddSeq ranges over its sequence on a
// goroutine of its own; a panic there (of the sequence, or of OnSkip)
// reaches AddSeq's caller, who can recover it, with the chunks before it
// stored. It ended the program. A nil sequence is an error, as it is to
// DedupSeq; it panicked so too.
func TestAddSeqCallerGetsPanics(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "news.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.AddSeq(ctx, nil, neardup.AddOptions{}); err == nil {
		t.Error("AddSeq of a nil sequence: no error")
	}
	seq := func(yield func(neardup.Document, error) bool) {
		for i := range 5 {
			if !yield(neardup.Document{ID: fmt.Sprintf("d%d", i), Text: fmt.Sprintf("%d %s", i, story)}, nil) {
				return
			}
		}
		yield(neardup.Document{}, &neardup.RecordError{Origin: "news.jsonl:6", Reason: "malformed", Msg: "bad"})
		panic("the sequence broke")
	}
	for _, tc := range []struct {
		name string
		o    neardup.AddOptions
		want string
	}{
		{name: "sequence", o: neardup.AddOptions{Chunk: 2}, want: "the sequence broke"},
		{name: "OnSkip", o: neardup.AddOptions{Chunk: 2, Replace: true,
			OnSkip: func(*neardup.RecordError) error { panic("OnSkip broke") }}, want: "OnSkip broke"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got any
			func() {
				defer func() { got = recover() }()
				x.AddSeq(ctx, seq, tc.o)
			}()
			if got != tc.want {
				t.Errorf("recovered %v, want %q", got, tc.want)
			}
			if _, err := x.Document(ctx, "d3"); err != nil {
				t.Errorf("a document of a chunk before the panic: %v", err)
			}
		})
	}
}

// TestAddSeqNamesDocumentByItsPlace: an error naming a document of
// AddSeq's sequence by its position counts from the sequence's first
// document. It counted from the first of the document's chunk: the fifth
// document, in chunks of two, was "document 1".
func TestAddSeqNamesDocumentByItsPlace(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	docs := func(yield func(neardup.Document, error) bool) {
		for i := range 5 {
			d := neardup.Document{ID: fmt.Sprintf("d%d", i), Text: fmt.Sprintf("Story number %d about the local harbour, told in a sentence long enough to compare.", i)}
			if i == 4 {
				d.Title = "a NUL \x00 in the title"
			}
			if !yield(d, nil) {
				return
			}
		}
	}
	err = x.AddSeq(ctx, docs, neardup.AddOptions{Chunk: 2})
	var ue *neardup.UnstorableError
	if !errors.As(err, &ue) || ue.Doc != 5 || !strings.Contains(err.Error(), `document 5 (id "d4")`) {
		t.Errorf("error %v, want one naming document 5 (id \"d4\")", err)
	}
	if x.Len() != 4 {
		t.Errorf("%d stored, want the 4 of the chunks before", x.Len())
	}
}

// TestAddSeqUnstorableErrorAsAdds: the error of AddSeq with a document no
// index stores is Add's, "neardup: " and all; it lacked the prefix.
func TestAddSeqUnstorableErrorAsAdds(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	d := neardup.Document{ID: "d1", Text: "A story about the local harbour, told in a sentence long enough to compare, with a NUL \x00."}
	_, addErr := x.Add(ctx, d)
	if addErr == nil || !strings.HasPrefix(addErr.Error(), "neardup: ") {
		t.Fatalf("Add: %v, want an error starting \"neardup: \"", addErr)
	}
	seqErr := x.AddSeq(ctx, func(yield func(neardup.Document, error) bool) { yield(d, nil) }, neardup.AddOptions{})
	if seqErr == nil || seqErr.Error() != addErr.Error() {
		t.Errorf("AddSeq: %v, want Add's error, %v", seqErr, addErr)
	}
}

// TestAddSeqStopKeepsTheDocumentsBefore: an error of the sequence, or of
// OnSkip, ends AddSeq with every document before it stored and its match
// reported, whatever the chunking. Regression: the documents of the chunk
// being filled were dropped, so that `neardup index add --strict` stored
// none of the 50 good records before a bad 51st with --chunk 100, and all
// 50 with --chunk 10.
func TestAddSeqStopKeepsTheDocumentsBefore(t *testing.T) {
	ctx := t.Context()
	broken := errors.New("news.jsonl:8: unreadable")
	bad := &neardup.RecordError{Origin: "news.jsonl:8", Reason: "malformed", Msg: "bad"}
	seq := func(yield func(neardup.Document, error) bool) {
		for i := range 7 {
			d := neardup.Document{ID: fmt.Sprintf("d%d", i), Text: fmt.Sprintf("Story number %d about the local harbour, told in a sentence long enough to compare.", i)}
			if !yield(d, nil) {
				return
			}
		}
		if !yield(neardup.Document{}, bad) {
			return
		}
		yield(neardup.Document{ID: "after", Text: story}, nil)
	}
	for _, chunk := range []int{1, 2, 3, 7, 100} {
		for _, tc := range []struct {
			name   string
			seq    func(func(neardup.Document, error) bool)
			onSkip func(*neardup.RecordError) error
		}{
			{name: "sequence", seq: func(yield func(neardup.Document, error) bool) {
				for d, err := range seq {
					if errors.Is(err, bad) {
						err = broken
					}
					if !yield(d, err) || err != nil {
						return
					}
				}
			}},
			{name: "OnSkip", seq: seq, onSkip: func(*neardup.RecordError) error { return broken }},
		} {
			t.Run(fmt.Sprintf("%s/chunk%d", tc.name, chunk), func(t *testing.T) {
				x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer x.Close()
				var got []string
				err = x.AddSeq(ctx, tc.seq, neardup.AddOptions{Chunk: chunk, OnSkip: tc.onSkip,
					OnMatch: func(m neardup.Match) error { got = append(got, m.ID); return nil }})
				if !errors.Is(err, broken) {
					t.Errorf("error %v, want %v", err, broken)
				}
				want := []string{"d0", "d1", "d2", "d3", "d4", "d5", "d6"}
				if !slices.Equal(got, want) || x.Len() != len(want) {
					t.Errorf("matches of %v, %d stored; want %v, 7", got, x.Len(), want)
				}
			})
		}
	}
}

// TestAddSeqRefusesNegativeChunkOrWorkers: a negative AddOptions.Chunk or
// Workers, which the docs give no meaning, ran as 0 did, unsaid. It is
// refused, the field named, nothing stored.
func TestAddSeqRefusesNegativeChunkOrWorkers(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	d := neardup.Document{ID: "d1", Text: "A story about the local harbour, told in a sentence long enough to compare."}
	seq := func(yield func(neardup.Document, error) bool) { yield(d, nil) }
	for _, tc := range []struct {
		o    neardup.AddOptions
		want string
	}{
		{neardup.AddOptions{Chunk: -1}, "neardup: AddOptions.Chunk -1: want 0 or more"},
		{neardup.AddOptions{Workers: -2}, "neardup: AddOptions.Workers -2: want 0 or more"},
	} {
		if err := x.AddSeq(ctx, seq, tc.o); err == nil || err.Error() != tc.want {
			t.Errorf("AddSeq with %+v: %v, want %q", tc.o, err, tc.want)
		}
	}
	if x.Len() != 0 {
		t.Errorf("%d stored, want none", x.Len())
	}
}

// TestAddSeqSkipsRecordsNoIndexStores: AddSeq of ReadFiles skips the
// records `neardup index add` skips, an id holding a control character, a
// title over its bound and a URL of another scheme, reporting each to
// OnSkip with its file, line and field, and stores the others. Regression:
// the first such record failed its chunk, and nothing more was stored.
func TestAddSeqSkipsRecordsNoIndexStores(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	story := func(n int) string {
		return fmt.Sprintf("Story number %d about the local harbour, told in a sentence long enough to compare.", n)
	}
	lines := []string{
		fmt.Sprintf(`{"id":"good-1","text":%q}`, story(1)),
		fmt.Sprintf(`{"id":"bad\tid","text":%q}`, story(2)),
		fmt.Sprintf(`{"id":"long-title","title":%q,"text":%q}`, strings.Repeat("x", 5000), story(3)),
		fmt.Sprintf(`{"id":"ftp","url":"ftp://example.com/a","text":%q}`, story(4)),
		fmt.Sprintf(`{"id":"good-2","text":%q}`, story(5)),
	}
	if err := os.WriteFile(in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x, err := neardup.Open(ctx, filepath.Join(dir, "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var skipped []string
	err = x.AddSeq(ctx, neardup.ReadFiles(ctx, []string{in}, neardup.ReadOptions{}), neardup.AddOptions{
		Chunk: 2,
		OnSkip: func(r *neardup.RecordError) error {
			skipped = append(skipped, fmt.Sprintf("%s %s %s", strings.TrimPrefix(r.Origin, dir+string(filepath.Separator)), r.Field, r.Reason))
			return nil
		},
	})
	if err != nil {
		t.Fatalf("AddSeq: %v", err)
	}
	want := []string{"in.jsonl:2 id malformed", "in.jsonl:3 title malformed", "in.jsonl:4 url malformed"}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	st, err := x.Stats(ctx)
	if err != nil || st.Documents != 2 {
		t.Errorf("%d documents stored (%v), want good-1 and good-2", st.Documents, err)
	}
}

// TestAddSeqWaitingEndsTheChunk: a chunk not full ends where Waiting says
// the source waits: the documents before are stored, and their matches
// reported, while the sequence waits for its next item (here, for the
// first document's match).
func TestAddSeqWaitingEndsTheChunk(t *testing.T) {
	ctx := t.Context()
	x, err := neardup.Open(ctx, filepath.Join(t.TempDir(), "x.db"), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	doc := func(i int) neardup.Document {
		return neardup.Document{ID: fmt.Sprintf("s%d", i), Text: fmt.Sprintf("Story number %d about the local harbour, told in a sentence long enough to compare.", i)}
	}
	reported := make(chan string, 2)
	waited := false
	seq := func(yield func(neardup.Document, error) bool) {
		if !yield(doc(0), nil) {
			return
		}
		select { // the source waits, until the first document is reported
		case <-reported:
			waited = true
		case <-time.After(time.Minute):
		}
		yield(doc(1), nil)
	}
	asked := 0
	err = x.AddSeq(ctx, seq, neardup.AddOptions{
		Waiting: func() bool { asked++; return asked == 1 },
		OnMatch: func(m neardup.Match) error { reported <- m.ID; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if !waited || x.Len() != 2 {
		t.Errorf("first document reported while the sequence waited: %v; %d stored, want it so and 2", waited, x.Len())
	}
}
