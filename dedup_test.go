package neardup_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
)

// vocab is the words of generated documents.
var vocab = func() []string {
	v := make([]string, 5000)
	for i := range v {
		v[i] = fmt.Sprintf("w%x%c", i, 'a'+rune(i%26))
	}
	return v
}()

// genDoc returns the generated document i of about words words, in
// sentences of 12; every fifth is the one before it with three words
// changed, a near copy.
func genDoc(i, words int) neardup.Document {
	var text string
	if i%5 == 4 {
		prev := strings.Split(genDoc(i-1, words).Text, " ")
		r := rand.New(rand.NewPCG(2, uint64(i)))
		for j := range 3 {
			prev[(j*97+i)%len(prev)] = vocab[r.IntN(len(vocab))]
		}
		text = strings.Join(prev, " ")
	} else {
		r := rand.New(rand.NewPCG(1, uint64(i)))
		var sb strings.Builder
		for j := range words {
			switch {
			case j > 0 && j%12 == 0:
				sb.WriteString(". ")
			case j > 0:
				sb.WriteByte(' ')
			}
			sb.WriteString(vocab[r.IntN(len(vocab))])
		}
		text = sb.String()
	}
	return neardup.Document{ID: fmt.Sprint("d", i), Text: text}
}

// corpus returns the first n generated documents.
func corpus(n, words int) []neardup.Document {
	docs := make([]neardup.Document, n)
	for i := range docs {
		docs[i] = genDoc(i, words)
	}
	return docs
}

// seq yields docs once, as a stream would: it fails the test if ranged
// over twice.
func seq(t *testing.T, docs []neardup.Document) iter.Seq2[neardup.Document, error] {
	used := false
	return func(yield func(neardup.Document, error) bool) {
		if used {
			t.Error("the sequence was read twice")
			return
		}
		used = true
		for _, d := range docs {
			if !yield(d, nil) {
				return
			}
		}
	}
}

// TestDedupSeq: a sequence read once finds what the slice does, with the
// same stats.
func TestDedupSeq(t *testing.T) {
	docs := corpus(200, 120)
	want, err := neardup.Dedup(t.Context(), docs, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Pairs) < 30 || len(want.Clusters) < 30 {
		t.Fatalf("the generated corpus gave %d pairs, %d clusters; want its 39 near copies found", len(want.Pairs), len(want.Clusters))
	}
	got, err := neardup.DedupSeq(t.Context(), seq(t, docs), neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Pairs, want.Pairs) || !reflect.DeepEqual(got.Clusters, want.Clusters) ||
		!reflect.DeepEqual(got.Kept, want.Kept) || !reflect.DeepEqual(got.Skipped, want.Skipped) {
		t.Errorf("DedupSeq differs from Dedup:\n%+v\n%+v", got, want)
	}
	st := got.Stats
	dups := st.Pairs[neardup.Duplicate]
	if st.Method != minhash.Name || st.Read != 200 || st.Documents != 200 || dups != len(got.Pairs) ||
		st.Clusters != len(got.Clusters) || st.Kept != 200-len(got.Clusters) || st.Candidates < dups || st.Bands == "" {
		t.Errorf("Stats = %+v; want 200 read and documents, %d duplicate pairs, %d clusters", st, len(got.Pairs), len(got.Clusters))
	}
	for _, stage := range []string{"read_and_sketch", "candidates_verify_group", "results"} {
		if _, ok := st.Seconds[stage]; !ok {
			t.Errorf("Stats.Seconds has no %q: %v", stage, st.Seconds)
		}
	}
}

// TestDedupSkippedNotKept: a skipped document is not kept, whatever the
// reason (empty text, too short, a record a reader could not read), and
// its reason shows; regression: an empty text was skipped yet kept.
func TestDedupSkippedNotKept(t *testing.T) {
	items := []struct {
		doc neardup.Document
		err error
	}{
		{neardup.Document{ID: "a", Text: story}, nil},
		{neardup.Document{ID: "empty"}, nil},
		{neardup.Document{ID: "dots", Text: "... !!! ---"}, nil},
		{neardup.Document{ID: "bad"}, &neardup.RecordError{Origin: "in.jsonl:4", Reason: "malformed", Msg: "malformed: not JSON"}},
		{neardup.Document{ID: "b", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said."}, nil},
	}
	res, err := neardup.DedupSeq(t.Context(), func(yield func(neardup.Document, error) bool) {
		for _, it := range items {
			if !yield(it.doc, it.err) {
				return
			}
		}
	}, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, false, false, true}; !reflect.DeepEqual(res.Kept, want) {
		t.Errorf("Kept = %v, want %v", res.Kept, want)
	}
	for i, why := range res.Skipped {
		if (why == "") != (i == 0 || i == 4) {
			t.Errorf("item %d skipped %q", i, why)
		}
	}
	if res.Skipped[3] != "malformed" || res.Stats.Read != 5 || res.Stats.Documents != 4 || res.Stats.Kept != 2 ||
		res.Stats.Skipped["malformed"] != 1 || res.Stats.Skipped[res.Skipped[1]] < 1 {
		t.Errorf("Skipped = %q, Stats = %+v", res.Skipped, res.Stats)
	}

	// Any other error ends the run, saying which item.
	_, err = neardup.DedupSeq(t.Context(), func(yield func(neardup.Document, error) bool) {
		_ = yield(neardup.Document{ID: "a", Text: story}, nil) && yield(neardup.Document{}, errors.New("disk on fire"))
	}, neardup.Options{})
	if err == nil || !strings.Contains(err.Error(), "item 2: disk on fire") {
		t.Errorf("a failing sequence: %v", err)
	}
	// A repeated ID names both documents.
	_, err = neardup.Dedup(t.Context(), []neardup.Document{{ID: "x", Text: story}, {ID: "x", Text: story}}, neardup.Options{})
	if err == nil || !strings.Contains(err.Error(), `document 2: id "x" repeats the id of document 1`) {
		t.Errorf("a repeated id: %v", err)
	}
}

// TestDedupRecordErrorWithoutReason: a RecordError a caller's own reader
// yields without a Reason is skipped as "other", not kept; regression: it
// was counted under "" in Stats.Skipped, and its Result.Skipped "" read as
// a document compared.
func TestDedupRecordErrorWithoutReason(t *testing.T) {
	res, err := neardup.DedupSeq(t.Context(), func(yield func(neardup.Document, error) bool) {
		_ = yield(neardup.Document{ID: "a", Text: story}, nil) &&
			yield(neardup.Document{ID: "row 7"}, &neardup.RecordError{Origin: "db:7", Msg: "the row could not be fetched"}) &&
			yield(neardup.Document{ID: "b", Text: story}, nil)
	}, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []neardup.SkipReason{"", "other", ""}; !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("Skipped = %q, want %q", res.Skipped, want)
	}
	if want := map[neardup.SkipReason]int{"other": 1}; !reflect.DeepEqual(res.Stats.Skipped, want) {
		t.Errorf("Stats.Skipped = %v, want %v", res.Stats.Skipped, want)
	}
	if want := []bool{true, false, false}; !reflect.DeepEqual(res.Kept, want) || res.Stats.Read != 3 || res.Stats.Documents != 2 {
		t.Errorf("Kept = %v, Stats = %+v; want %v, 3 read, 2 documents", res.Kept, res.Stats, want)
	}
}

// TestErrorsNameGoOptions: an error of the library names the Go options
// that help, never a command-line flag; regression: rarewords' error of a
// batch without sources said "--source-col" and "--same-source", and
// Export's of a directory holding other files "give -o".
func TestErrorsNameGoOptions(t *testing.T) {
	words := make([]string, 250)
	for i := range words {
		words[i] = vocab[i]
	}
	text := strings.Join(words, " ")
	for _, tc := range []struct {
		name   string
		source string
		want   []string
	}{
		{"no source", "", []string{"neardup.ReadOptions.SourceField", "rarewords.Options.SameSource"}},
		{"one source", "wire", []string{`all 2 documents are of one source ("wire")`, "rarewords.Options.SameSource"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs := []neardup.Document{{ID: "a", Source: tc.source, Text: text}, {ID: "b", Source: tc.source, Text: text}}
			_, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: rarewords.Defaults()})
			var se *rarewords.SourceError
			if !errors.As(err, &se) {
				t.Fatalf("error %v, want a *rarewords.SourceError", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "--") {
				t.Errorf("error %q names a flag", err)
			}
		})
	}
	t.Run("export to a directory of other files", func(t *testing.T) {
		dir := t.TempDir()
		x, err := neardup.Open(t.Context(), filepath.Join(dir, "news.db"), neardup.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		out := filepath.Join(dir, "out")
		os.Mkdir(out, 0o755)
		os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644)
		err = x.Export(t.Context(), out)
		if err == nil || !strings.Contains(err.Error(), "choose a new or empty directory") || strings.Contains(err.Error(), " -o") {
			t.Errorf("Export: %v; want a refusal that names no flag", err)
		}
	})
	// A bad Keep or Link names the option: it said "cluster: unknown
	// representative policy", no option named.
	docs := []neardup.Document{{ID: "a", Text: text}}
	for _, tc := range []struct {
		name string
		o    neardup.Options
	}{
		{"Options.Keep", neardup.Options{Keep: "newest"}},
		{"Options.Link", neardup.Options{Link: "all"}},
	} {
		if _, err := neardup.Dedup(t.Context(), docs, tc.o); err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("Dedup with a bad %s: %v, want an error naming it", tc.name, err)
		}
		x, err := neardup.Open(t.Context(), filepath.Join(t.TempDir(), "news.db"), tc.o)
		if err == nil {
			x.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("Open with a bad %s: %v, want an error naming it", tc.name, err)
		}
	}
}

// TestDedupCallbacks: OnPair is given every pair, in order, in place of
// Result.Pairs; OnProgress each stage in order, ending each with its
// total.
func TestDedupCallbacks(t *testing.T) {
	docs := corpus(3000, 60)
	want, err := neardup.Dedup(t.Context(), docs, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pairs []neardup.Pair
	var stages []string
	last := map[string]neardup.Progress{}
	got, err := neardup.DedupSeq(t.Context(), seq(t, docs), neardup.Options{
		OnPair: func(p neardup.Pair) { pairs = append(pairs, p) },
		OnProgress: func(p neardup.Progress) {
			if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
				stages = append(stages, p.Stage)
			}
			if prev := last[p.Stage]; p.Done < prev.Done {
				t.Errorf("progress went back: %+v after %+v", p, prev)
			}
			last[p.Stage] = p
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Pairs) != 0 || !reflect.DeepEqual(pairs, want.Pairs) {
		t.Errorf("OnPair had %d pairs, Result %d; want the %d of Dedup", len(pairs), len(got.Pairs), len(want.Pairs))
	}
	if !reflect.DeepEqual(stages, []string{"reading", "matching", "results"}) {
		t.Errorf("stages %v", stages)
	}
	for _, s := range stages {
		if p := last[s]; p.Done != 3000 || p.Total != 3000 {
			t.Errorf("stage %s ended at %+v, want 3000 of 3000", s, p)
		}
	}
}

// TestDedupReread: the sentences method quotes the shared sentences from
// a second reading; without one the pairs are the same, unquoted; a
// second reading of other documents is an error, and so is none (nil).
func TestDedupReread(t *testing.T) {
	docs := []neardup.Document{
		{ID: "a", Text: story},
		{ID: "b", Text: story + " The vote was 31 to 12."},
		{ID: "c", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said."},
	}
	o := neardup.Options{Method: sentences.Defaults()}
	once, err := neardup.DedupSeq(t.Context(), seq(t, docs), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Reread = func() iter.Seq2[neardup.Document, error] { return seq(t, docs) }
	twice, err := neardup.DedupSeq(t.Context(), seq(t, docs), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(once.Pairs) != 1 || len(twice.Pairs) != 1 {
		t.Fatalf("pairs %+v and %+v, want a~b", once.Pairs, twice.Pairs)
	}
	quoted := func(p neardup.Pair) int { return len(p.Evidence.(sentences.Evidence).Sentences) }
	if quoted(once.Pairs[0]) != 0 || quoted(twice.Pairs[0]) != 3 || once.Pairs[0].Score != twice.Pairs[0].Score {
		t.Errorf("evidence read once %+v, twice %+v; want the 3 sentences quoted only when read twice", once.Pairs[0].Evidence, twice.Pairs[0].Evidence)
	}
	o.Reread = func() iter.Seq2[neardup.Document, error] { return seq(t, docs[1:]) }
	if _, err := neardup.DedupSeq(t.Context(), seq(t, docs), o); err == nil || !strings.Contains(err.Error(), `rereading item 1 (id "b"): not the document read first there`) {
		t.Errorf("a second reading of other documents: %v", err)
	}
	// Regression: a Reread that returned nil panicked (a nil pointer
	// dereference ranging over it).
	o.Reread = func() iter.Seq2[neardup.Document, error] { return nil }
	_, err = func() (r *neardup.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return neardup.DedupSeq(t.Context(), seq(t, docs), o)
	}()
	if err == nil || !strings.Contains(err.Error(), "Options.Reread returned no sequence") {
		t.Errorf("a Reread of nil: %v; want an error naming Options.Reread", err)
	}
}

// TestDedupCancel cancels a run during each stage and checks that it
// returns the context's error within a bound far above what it takes
// (BenchmarkDedupCancel measures that).
func TestDedupCancel(t *testing.T) {
	docs := corpus(3000, 60)
	// rarewords counts its pairs inside its indexing of the whole batch:
	// documents of two sources, of at least 200 words.
	long := corpus(3000, 240)
	for i := range long {
		long[i].Source = fmt.Sprint("s", i%2)
	}
	const bound = time.Second
	for _, tc := range []struct {
		name, stage string
		method      neardup.MethodOptions
		docs        []neardup.Document
	}{
		{"reading", "reading", sentences.Defaults(), docs},
		{"matching", "matching", sentences.Defaults(), docs},
		{"matching/minhash", "matching", minhash.Defaults(), docs},
		{"matching/rarewords", "matching", rarewords.Defaults(), long},
		{"rereading", "rereading", sentences.Defaults(), docs},
		{"results", "results", sentences.Defaults(), docs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var cancelled time.Time
			o := neardup.Options{
				Method: tc.method,
				OnProgress: func(p neardup.Progress) {
					// Done > 0: within the stage, not at its start.
					if p.Stage == tc.stage && (p.Done > 0 || tc.stage == "results") && cancelled.IsZero() {
						cancelled = time.Now()
						cancel()
					}
				},
				Reread: func() iter.Seq2[neardup.Document, error] { return seq(t, tc.docs) },
			}
			res, err := neardup.DedupSeq(ctx, seq(t, tc.docs), o)
			took := time.Since(cancelled)
			if !errors.Is(err, context.Canceled) || res != nil || cancelled.IsZero() {
				t.Fatalf("cancelled during %s: result %t, %v; want context.Canceled", tc.stage, res != nil, err)
			}
			if took > bound {
				t.Errorf("returned %v after the cancel during %s, over %v", took, tc.stage, bound)
			}
		})
	}
}

// TestOnPairNotCalledAfterCancel pins an OnPair that cancelled the run's
// context and was still handed up to 1,023 more pairs, the context being
// checked every 1,024: it gets none after the cancel, and the run returns
// context.Canceled.
func TestOnPairNotCalledAfterCancel(t *testing.T) {
	docs := corpus(400, 60) // 80 near copies
	for _, at := range []int{1, 10} {
		t.Run(fmt.Sprint("cancel at pair ", at), func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			calls := 0
			res, err := neardup.Dedup(ctx, docs, neardup.Options{OnPair: func(neardup.Pair) {
				if calls++; calls == at {
					cancel()
				}
			}})
			if !errors.Is(err, context.Canceled) || res != nil || calls != at {
				t.Errorf("OnPair called %d times, the run returned %t, %v; want %d calls and context.Canceled", calls, res != nil, err, at)
			}
		})
	}
	res, err := neardup.Dedup(t.Context(), docs, neardup.Options{})
	if err != nil || len(res.Pairs) <= 10 {
		t.Fatalf("without a cancel: %v, %d pairs; want more than 10", err, len(res.Pairs))
	}
}

// TestReadFiles reads JSON Lines and CSV files: each record that is no
// document comes with a RecordError naming its file and line; a missing
// file ends the sequence with an error.
func TestReadFiles(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "a.jsonl")
	csv := filepath.Join(dir, "b.csv")
	writeFile(t, jsonl, `{"id":"a1","text":"one story"}`+"\n"+`{"id":"a2",`+"\n"+`{"id":"a3","text":""}`+"\n")
	writeFile(t, csv, "id,title,text\nb1,Rates,two stories\n")
	type item struct{ id, title, err string }
	var got []item
	for doc, err := range neardup.ReadFiles(t.Context(), []string{jsonl, csv}, neardup.ReadOptions{}) {
		it := item{id: doc.ID, title: doc.Title}
		if err != nil {
			var re *neardup.RecordError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is no RecordError", err)
			}
			it.err = fmt.Sprintf("%s %s", re.Reason, strings.TrimPrefix(re.Origin, dir+string(filepath.Separator)))
		}
		got = append(got, it)
	}
	want := []item{{"a1", "", ""}, {got[1].id, "", "malformed a.jsonl:2"}, {"a3", "", "empty a.jsonl:3"}, {"b1", "Rates", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v\nwant %+v", got, want)
	}
	var errs []error
	for _, err := range neardup.ReadFiles(t.Context(), []string{filepath.Join(dir, "missing.jsonl")}, neardup.ReadOptions{}) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || errs[0] == nil || !strings.Contains(errs[0].Error(), "missing.jsonl") {
		t.Errorf("a missing file: %v", errs)
	}
	// Read takes a stream.
	var ids []string
	for doc, err := range neardup.Read(t.Context(), "in.csv", strings.NewReader("id,text\nx,one\ny,two\n"), neardup.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, doc.ID)
	}
	if !slices.Equal(ids, []string{"x", "y"}) {
		t.Errorf("Read: %v", ids)
	}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDedupMethodName: Options.MethodName chooses Dedup's method with its
// defaults, as it does a new index's; an unknown name is an error, and so
// is a nil sequence for DedupSeq. Regression: Dedup ran minhash whatever
// the name, a misspelled one included, and DedupSeq panicked on nil.
func TestDedupMethodName(t *testing.T) {
	docs := corpus(40, 20)
	res, err := neardup.Dedup(t.Context(), docs, neardup.Options{MethodName: "simhash"})
	if err != nil || res.Stats.Method != "simhash" {
		t.Fatalf("simhash by name: %v, method %q", err, res.Stats.Method)
	}
	if _, err := neardup.Dedup(t.Context(), docs, neardup.Options{MethodName: "bogus"}); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("an unknown method name: %v, want an error naming it", err)
	}
	if _, err := neardup.DedupSeq(t.Context(), nil, neardup.Options{}); err == nil {
		t.Error("DedupSeq of a nil sequence: no error")
	}
}

// TestReadNil is the regression test of Read given a nil io.Reader (a
// request without a body): it panicked inside the reader; it now yields
// one error naming the stream, as DedupSeq does for a nil sequence.
func TestReadNil(t *testing.T) {
	n := 0
	for d, err := range neardup.Read(t.Context(), "upload.jsonl", nil, neardup.ReadOptions{}) {
		n++
		if err == nil || !strings.Contains(err.Error(), "upload.jsonl") || d.ID != "" {
			t.Errorf("yielded %+v, %v; want an error naming upload.jsonl", d, err)
		}
	}
	if n != 1 {
		t.Errorf("%d values yielded, want one error", n)
	}
}

// TestPointerMethodOptions: a pointer to a method's options is those
// options to Dedup, DedupSeq and Open alike (and from Configure); a nil
// pointer is an error naming Options.Method. Regression: Dedup refused
// &mo with "engine: options of minhash given to minhash" while Open took
// it, and a nil pointer panicked in Dedup.
func TestPointerMethodOptions(t *testing.T) {
	docs := corpus(40, 20)
	mo := minhash.Defaults()
	mo.Threshold = 0.6
	want, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: mo})
	if err != nil {
		t.Fatal(err)
	}
	got, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: &mo})
	if err != nil {
		t.Fatalf("Dedup(&mo): %v", err)
	}
	if !reflect.DeepEqual(got.Pairs, want.Pairs) || !reflect.DeepEqual(got.Clusters, want.Clusters) {
		t.Errorf("Dedup(&mo) found %d pairs, Dedup(mo) %d; want the same", len(got.Pairs), len(want.Pairs))
	}
	if _, err := neardup.DedupSeq(t.Context(), seq(t, docs), neardup.Options{Method: &mo}); err != nil {
		t.Errorf("DedupSeq(&mo): %v", err)
	}
	db := filepath.Join(t.TempDir(), "x.db")
	for _, o := range []neardup.Options{
		{Method: &mo},
		{Method: mo},
		{Configure: func(neardup.MethodOptions) (neardup.MethodOptions, error) { return &mo, nil }},
	} {
		x, err := neardup.Open(t.Context(), db, o)
		if err != nil {
			t.Fatalf("Open(%T): %v", o.Method, err)
		}
		_, c, _ := x.Method()
		x.Close()
		if c != mo {
			t.Errorf("the index's options %+v, want %+v", c, mo)
		}
	}
	var nilOptions *minhash.Options
	_, err = func() (r *neardup.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		return neardup.Dedup(t.Context(), docs, neardup.Options{Method: nilOptions})
	}()
	if err == nil || !strings.Contains(err.Error(), "Options.Method is a nil *minhash.Options") {
		t.Errorf("Dedup of a nil *minhash.Options: %v; want an error naming Options.Method", err)
	}
}

// TestReadUnnamedStream: a stream read without a name, or as "-", names
// its records "stdin", as `neardup dedup -` does. Regression: the records
// of a stream named "" were ":1", ":2" (and a whole text ".", its origin
// empty), those of "-" "-:1".
func TestReadUnnamedStream(t *testing.T) {
	jsonl := "{\"text\":\"" + story + "\"}\n{\"id\":\"b\",\"text\":\"" + story + "\"}\n{bad\n"
	for _, name := range []string{"", "-"} {
		var got []string
		for d, err := range neardup.Read(t.Context(), name, strings.NewReader(jsonl), neardup.ReadOptions{Format: "jsonl"}) {
			s := d.ID + " " + d.Origin
			if err != nil {
				s += " " + err.Error()
			}
			got = append(got, s)
		}
		want := []string{"stdin:1 stdin:1", "b stdin:2", "stdin:3 stdin:3 stdin:3: malformed JSON"}
		if len(got) != len(want) {
			t.Fatalf("name %q: %q, want %q", name, got, want)
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("name %q: record %d is %q, want %q", name, i+1, got[i], want[i])
			}
		}
		for d, err := range neardup.Read(t.Context(), name, strings.NewReader(story), neardup.ReadOptions{Format: "txt"}) {
			if err != nil || d.ID != "stdin" || d.Origin != "stdin" {
				t.Errorf("name %q, a text: id %q, origin %q, %v; want stdin", name, d.ID, d.Origin, err)
			}
		}
	}
	for _, err := range neardup.Read(t.Context(), "", nil, neardup.ReadOptions{}) {
		if err == nil || !strings.Contains(err.Error(), "stdin: no stream to read") {
			t.Errorf("a nil stream without a name: %v; want an error naming stdin", err)
		}
	}
}

// TestKeepCentralAndLongestWithSiteMenus pins what README says `--keep`
// picks of an original and its copies one cut, one edited and one given a
// site's menus and footers: `central` (cosine's default) the plain
// original, the text the others hold most of, and `longest` the copy with
// the menus; `central` picks a copy with the menus only when most members
// carry them, and then not the longest of them (one with a paragraph
// more). Each pair scores well above or far below the threshold.
// Regression of the README, which said `central` kept the copy with the
// menus.
func TestKeepCentralAndLongestWithSiteMenus(t *testing.T) {
	menu := "Home News Sport Weather Business Technology Entertainment Health Science Education Video Audio Radio"
	footer := "About the site Contact us Terms of use Privacy Cookies Accessibility help Parental guidance Newsletters"
	withMenus := func(text string) string { return menu + "\n\n" + text + "\n\n" + footer + "\n\n" + menu }
	edit := func(text string, seed uint64) string {
		w := strings.Split(text, " ")
		r := rand.New(rand.NewPCG(3, seed))
		for j := range len(w) / 20 {
			w[(j*31+int(seed))%len(w)] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	var docs []neardup.Document
	for i := range 30 { // unrelated stories, which weigh the words
		if i%5 != 4 {
			docs = append(docs, genDoc(i, 300))
		}
	}
	orig := genDoc(100, 1000).Text
	docs = append(docs,
		neardup.Document{ID: "orig", Text: orig},
		neardup.Document{ID: "menus", Text: withMenus(orig)},
		neardup.Document{ID: "cut", Text: orig[:len(orig)*3/4]},
		neardup.Document{ID: "edited", Text: edit(orig, 1)})
	orig2 := genDoc(200, 1000).Text
	docs = append(docs,
		neardup.Document{ID: "orig2", Text: orig2},
		neardup.Document{ID: "menus2", Text: withMenus(orig2)},
		neardup.Document{ID: "menus2-edited", Text: withMenus(edit(orig2, 2))},
		neardup.Document{ID: "menus2-cut", Text: withMenus(orig2[:len(orig2)*3/4])},
		neardup.Document{ID: "menus2-more", Text: withMenus(orig2 + " " + genDoc(300, 80).Text)})
	for _, tc := range []struct {
		keep        string
		want, want2 string
	}{
		{"", "orig", "menus2"}, // cosine's default: central
		{"central", "orig", "menus2"},
		{"longest", "menus", "menus2-more"},
	} {
		t.Run("keep "+tc.keep, func(t *testing.T) {
			res, err := neardup.Dedup(context.Background(), docs, neardup.Options{MethodName: "cosine", Keep: tc.keep})
			if err != nil {
				t.Fatal(err)
			}
			// Every pair of a cluster is a duplicate well clear of the
			// threshold (0.7); the others score under 0.4.
			if len(res.Pairs) != 6+10 {
				t.Errorf("%d pairs; want the 6 of orig's cluster and the 10 of orig2's", len(res.Pairs))
			}
			for _, p := range res.Pairs {
				if p.Score < 0.75 {
					t.Errorf("%s, %s: cosine %.4f; want 0.75 or more, clear of the threshold", p.A, p.B, p.Score)
				}
			}
			got := map[string]string{}
			for _, c := range res.Clusters {
				got[c.Members[0]] = c.Representative
			}
			if got["orig"] != tc.want || got["orig2"] != tc.want2 {
				t.Errorf("representatives %v; want %s of orig's cluster, %s of orig2's", got, tc.want, tc.want2)
			}
		})
	}
}
