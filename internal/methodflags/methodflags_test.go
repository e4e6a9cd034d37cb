package methodflags

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// TestHelp: a flag's help gives each method's default; methods whose
// options of one name mean different things are described each with its
// own meaning, values and default. Regression: --weighting listed cosine's
// "tfidf, pmi" and then "Default: cosine tfidf; simhash tf".
func TestHelp(t *testing.T) {
	threshold := func(method string, v float64) use {
		return use{method: method, field: flagopts.Field{Name: "threshold", Help: "Similarity at or above which a pair is a duplicate", Value: v}}
	}
	for _, tc := range []struct {
		name string
		uses []use
		want string
	}{
		{"one meaning", []use{threshold("minhash", 0.45), threshold("sentences", 0.5)},
			"Similarity at or above which a pair is a duplicate. Default: minhash 0.45; sentences 0.5."},
		{"two meanings", []use{
			{method: "cosine", field: flagopts.Field{Help: "Term weighting", Enum: []string{"tfidf", "pmi"}, Value: "tfidf"}},
			{method: "simhash", field: flagopts.Field{Help: "Weight of a feature", Enum: []string{"binary", "tf", "logtf"}, Value: "tf"}},
		}, "cosine: Term weighting: tfidf, pmi. Default: tfidf. simhash: Weight of a feature: binary, tf, logtf. Default: tf."},
		{"two meanings, one shared", []use{
			{method: "a", field: flagopts.Field{Help: "X", Value: 1}},
			{method: "b", field: flagopts.Field{Help: "Y", Value: 2}},
			{method: "c", field: flagopts.Field{Help: "X", Value: 3}},
		}, "a, c: X. Default: a 1; c 3. b: Y. Default: 2."},
		{"empty default", []use{{method: "a", field: flagopts.Field{Help: "Z", Value: ""}}}, `Z. Default: a "".`},
	} {
		if got := help(tc.uses); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestOutOfRangeNamesFlag pins the bug where an option out of range was
// refused in the words of the Go options, never naming the flag to change:
// "minhash: MinHash size 7 is not in 8..4096" for --hashes 7, "common
// document share 2" for --common-df 2. The message now starts with the
// flags whose values are wrong, and only those, and says what is wrong
// with their values only. Regression: --bands 0x0 and 2x-1 "needed" 0 and
// -2 signature values, and --char-shingle 0 named the word shingle size
// too ("shingle sizes 0 characters, 3 words are not in 1..32").
func TestOutOfRangeNamesFlag(t *testing.T) {
	specs := []engine.Spec{minhash.Spec, rarewords.Spec, sentences.Spec, simhash.Spec}
	for _, tc := range []struct {
		name   string
		method engine.Spec
		given  map[string]any
		want   string // the message's start; "" for no error
	}{
		{"hashes", minhash.Spec, map[string]any{"hashes": 7}, "--hashes: minhash: MinHash size 7"},
		{"common-df", rarewords.Spec, map[string]any{"common-df": 2.0, "min-words": 50}, "--common-df: rarewords: common document share 2"},
		{"two flags that disagree", minhash.Spec, map[string]any{"hashes": 64, "bands": "30x3", "threshold": 0.5}, "--hashes, --bands: minhash: bands: 30x3"},
		{"two wrong, the first told", minhash.Spec, map[string]any{"threshold": 2.0, "similar": -1.0}, "--threshold: minhash: threshold 2"},
		{"not a number", sentences.Spec, map[string]any{"threshold": math.NaN()}, "--threshold: sentences: threshold NaN is not a finite number"},
		{"no bands", minhash.Spec, map[string]any{"bands": "0x0"},
			"--bands: minhash: bands: 0x0: the bands and the rows must be positive, BxR as in 20x3 (or auto)"},
		{"negative rows", minhash.Spec, map[string]any{"bands": "2x-1"},
			"--bands: minhash: bands: 2x-1: the bands and the rows must be positive, BxR as in 20x3 (or auto)"},
		{"bands past an int", minhash.Spec, map[string]any{"bands": "3037000500x3037000500"},
			"--bands: minhash: bands: 3037000500x3037000500 needs 9223372037000250000 signature values, have 128 (or auto)"},
		{"character shingle", minhash.Spec, map[string]any{"char-shingle": 0}, "--char-shingle: minhash: character shingle size 0 is not in 1..32"},
		{"word shingle", minhash.Spec, map[string]any{"word-shingle": 33}, "--word-shingle: minhash: word shingle size 33 is not in 1..32"},
		{"simhash character shingle", simhash.Spec, map[string]any{"char-shingle": 40}, "--char-shingle: simhash: character shingle size 40 is not in 1..32"},
		{"in range", sentences.Spec, map[string]any{"threshold": 0.5, "max-sentence-docs": 3}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mf := New(specs)
			for name, v := range tc.given {
				i := slices.Index(mf.names, name)
				p := reflect.New(reflect.TypeOf(v))
				p.Elem().Set(reflect.ValueOf(v))
				mf.ptr.Elem().Field(i).Set(p.Convert(mf.ptr.Elem().Field(i).Type()))
			}
			_, err := mf.Apply(tc.method.Defaults(), specs)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				return
			}
			var ue UsageError
			if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Apply: %v (%T); want a UsageError starting %q", err, err, tc.want)
			}
		})
	}
}

// TestSimilarAboveThreshold pins --similar given above the threshold in
// force taken silently (minhash --similar 0.95 under --threshold 0.45:
// no pair below the threshold similar, and the duplicates a rule refuses
// under 0.95 left out). Apply now refuses it, naming both flags and
// values, for every method with both options; a similar at most the
// threshold, a threshold given below the default similar, a method
// without a threshold (tfidf) and ApplyOwn, which a sweep of thresholds
// uses, take it.
func TestSimilarAboveThreshold(t *testing.T) {
	specs := methods.All
	for _, tc := range []struct {
		name   string
		method engine.Spec
		given  map[string]any
		want   string // the message's start; "" for no error
	}{
		{"minhash", minhash.Spec, map[string]any{"similar": 0.95}, "--similar 0.95 is above --threshold 0.45: "},
		{"simhash", simhash.Spec, map[string]any{"similar": 0.46}, "--similar 0.46 is above --threshold 0.45: "},
		{"sentences", sentences.Spec, map[string]any{"similar": 0.4}, "--similar 0.4 is above --threshold 0.35: "},
		{"cosine", cosine.Spec, map[string]any{"similar": 0.8}, "--similar 0.8 is above --threshold 0.7: "},
		{"both given", minhash.Spec, map[string]any{"similar": 0.3, "threshold": 0.2}, "--similar 0.3 is above --threshold 0.2: "},
		{"out of range told first", minhash.Spec, map[string]any{"similar": 1.5}, "--similar: minhash: similar 1.5 is not in [0, 1]"},
		{"equal", minhash.Spec, map[string]any{"similar": 0.45}, ""},
		{"below", cosine.Spec, map[string]any{"similar": 0.5}, ""},
		{"off", sentences.Spec, map[string]any{"similar": 0.0}, ""},
		{"threshold below the default similar", minhash.Spec, map[string]any{"threshold": 0.2}, ""},
		{"no threshold", tfidf.Spec, map[string]any{"similar": 0.95}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mf := New(specs)
			for name, v := range tc.given {
				i := slices.Index(mf.names, name)
				p := reflect.New(reflect.TypeOf(v))
				p.Elem().Set(reflect.ValueOf(v))
				mf.ptr.Elem().Field(i).Set(p.Convert(mf.ptr.Elem().Field(i).Type()))
			}
			_, err := mf.Apply(tc.method.Defaults(), specs)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				return
			}
			var ue UsageError
			if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("Apply: %v (%T); want a UsageError starting %q", err, err, tc.want)
			}
			if _, err := mf.ApplyOwn(tc.method.Defaults()); err != nil && strings.Contains(err.Error(), "is above --threshold") {
				t.Errorf("ApplyOwn: %v; want the similar above the threshold taken", err)
			}
		})
	}
}
