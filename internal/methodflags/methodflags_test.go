package methodflags

import (
	"testing"

	"github.com/neardup/neardup/internal/flagopts"
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
