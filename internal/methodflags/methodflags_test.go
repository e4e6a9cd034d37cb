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
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
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
// flags whose values are wrong, and only those.
func TestOutOfRangeNamesFlag(t *testing.T) {
	specs := []engine.Spec{minhash.Spec, rarewords.Spec, sentences.Spec}
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
