// Package dedup is the public Go API of neardup: it finds duplicate and
// near-duplicate documents with a choice of methods that share one pipeline,
// analyse → sketch → candidates → verify → group.
//
// Two modes run the same stages. A Batch takes a whole corpus (sketches are
// made concurrently, documents are added in input order) and returns every
// pair and cluster. An Index takes documents one at a time and answers what
// each new document matches among those added before.
package dedup

import (
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/similarity"
	"github.com/neardup/neardup/internal/sketch"
)

// The method names Options.Method accepts.
const (
	MethodMinHash   = "minhash"   // MinHash/LSH over character or word shingles, verified by shingle Jaccard and containment
	MethodSentences = "sentences" // shared sentence fingerprints, verified by sentence-set Jaccard
	MethodTFIDF     = "tfidf"     // title and body TF-IDF cosines, decided by a rule
	MethodRareWords = "rarewords" // containment of rare words, best match per other source
	MethodCosine    = "cosine"    // cosine of word and bigram vectors, grouped by connected components
)

// The shingle units Options.ShingleUnit accepts.
const (
	ShingleChars = "chars" // letters and digits of the words, spaces and punctuation left out
	ShingleWords = "words" // consecutive words
)

// Methods lists the method names in the order help texts show them.
var Methods = []string{MethodMinHash, MethodSentences, MethodTFIDF, MethodRareWords, MethodCosine}

// Options configure a Batch or an Index. The zero value is the default
// configuration; Defaults fills each zero field.
type Options struct {
	// Method is the detection method; "" means minhash.
	Method string
	// Threshold is the score at or above which a pair is a duplicate
	// (Jaccard for minhash and sentences, cosine for cosine). For
	// rarewords it is the share of a document's rare words its best match
	// must hold to be reported (default 0.1); tfidf decides by Rule and
	// takes none. 0 means the method's default.
	Threshold float64
	// Similar is the score at or above which a pair below Threshold is
	// reported as similar. 0 means 0.3; a negative value reports duplicates
	// only. For tfidf, whose rule decides duplicates, a pair is similar
	// when its body cosine reaches Similar. For tfidf, and for cosine
	// without a Matrix, 0 means none: finding similar pairs takes an exact
	// join at that low a cosine, several times the cost of the rule's or
	// the threshold's own.
	Similar float64
	// Keep chooses each cluster's representative: "longest" (default;
	// "central" for cosine), "earliest", "first" or "central".
	Keep string
	// Seed seeds every hash function. 0 is a valid seed; sketches made
	// with different seeds are not comparable.
	Seed uint64

	// ShingleUnit is what a minhash shingle is made of: ShingleChars (the
	// default), consecutive letters and digits of the words, which a
	// damaged character, a split or glued word or another way of writing a
	// figure changes only locally; or ShingleWords, consecutive words,
	// cheaper and half the memory, for clean text.
	ShingleUnit string
	// Shingle is the length of a minhash shingle in ShingleUnit; 0 means
	// 6 characters or 3 words.
	Shingle int
	// SampleSize bounds the shingle fingerprints minhash keeps per
	// document for verification: a document with more than SampleSize
	// keeps the smallest max(SampleSize, n/4) of its n fingerprints, a
	// consistent sample on which the scores of two documents are computed
	// over the hash range both kept (see similarity.ScoresBelow). Shorter
	// documents keep all and are scored exactly. 0 means 256; a negative
	// value keeps every fingerprint.
	SampleSize int
	// Bands is the LSH banding of minhash, "BxR": B bands of R signature
	// values each (B·R ≤ Hashes). "" chooses it from the lowest reporting
	// threshold (see sketch.ChooseBands), with at least 3 rows for
	// character shingles.
	Bands string
	// Hashes is the number of MinHash values per document; 0 means 128.
	Hashes int
	// Containment: minhash also marks a pair duplicate when the smaller
	// document lies at least this share inside the larger (truncated
	// reprints, a story inside a round-up). 0 means 0.7; above 1 turns it
	// off.
	Containment float64
	// NumberAgreement: when both documents of a minhash pair hold at least
	// two distinct figures (years left out) and they share less than this
	// share of the smaller set, the pair is not a duplicate (templated
	// reports of different companies or days share words, not figures).
	// 0 means 0.5; a negative value turns the check off.
	NumberAgreement float64
	// BucketLimit caps how many members of one LSH bucket or sentence
	// posting list a new document is compared with: beyond it, the first
	// member (the anchor) and the newest ones. 0 means 32.
	BucketLimit int

	// MaxSentenceDocs: a sentence found in more documents than this is
	// boilerplate and ignored by the sentences method. 0 means 10.
	MaxSentenceDocs int
	// MinSentenceChars: sentences shorter than this many characters are
	// ignored by the sentences method. 0 means 20.
	MinSentenceChars int
	// Weighted makes the sentences method weigh each sentence by its
	// length times its rarity, log(1 + N/df), instead of counting it once.
	Weighted bool

	// Rule decides duplicates for tfidf and rarewords (see
	// similarity.Rule): "" means DefaultTFIDFRule over the title and body
	// cosines, or DefaultRareWordsRule over min and max, the smaller and
	// the larger containment. Other methods take none.
	Rule string
	// TitlesCSV, for tfidf, is a file Finish writes with the titles of the
	// duplicate pairs, two CSV columns title_a, title_b. "" writes none.
	TitlesCSV string

	// MinWords: rarewords skips documents of fewer words (SkipTooShort).
	// 0 means 200.
	MinWords int
	// CommonDF: rarewords drops a word from the documents of a source
	// when more than this share of the source's documents (and at least
	// two) hold it. 0 means 0.05; 1 keeps every word.
	CommonDF float64
	// SameSource makes rarewords compare documents of the same source too.
	SameSource bool

	// Weighting weighs the cosine method's terms: WeightTFIDF ("", the
	// default) or WeightPMI.
	Weighting string
	// Matrix, for cosine, is a JSON file Finish writes with the similarity
	// matrix (see matrixFile); "" writes none. A Batch with Matrix set
	// refuses more than MatrixLimit documents.
	Matrix string
}

// Method defaults. The thresholds were chosen by measurement on generated
// news corpora (see the README's quality section).
const (
	defaultMinHashThreshold   = 0.45
	defaultContainment        = 0.7
	defaultCharShingle        = 6
	defaultWordShingle        = 3
	defaultSampleSize         = 256
	defaultNumberAgreement    = 0.5
	defaultSentencesThreshold = 0.35
	defaultSimilar            = 0.3
	defaultRareWordsThreshold = 0.1
	defaultCosineThreshold    = 0.7
)

// Defaults returns o with every zero field set to its default, or an error
// naming the first field that is out of range.
func (o Options) Defaults() (Options, error) {
	if o.Method == "" {
		o.Method = MethodMinHash
	}
	switch o.Method {
	case MethodMinHash:
		o.Threshold = orDefault(o.Threshold, defaultMinHashThreshold)
		o.Containment = orDefault(o.Containment, defaultContainment)
		o.NumberAgreement = orDefault(o.NumberAgreement, defaultNumberAgreement)
	case MethodSentences:
		o.Threshold = orDefault(o.Threshold, defaultSentencesThreshold)
	case MethodTFIDF:
		if o.Threshold != 0 {
			return o, fmt.Errorf("dedup: tfidf decides duplicates by its rule, not a threshold")
		}
	case MethodRareWords:
		o.Threshold = orDefault(o.Threshold, defaultRareWordsThreshold)
	case MethodCosine:
		o.Threshold = orDefault(o.Threshold, defaultCosineThreshold)
	default:
		return o, fmt.Errorf("dedup: unknown method %q (want one of %v)", o.Method, Methods)
	}
	if (o.Method == MethodTFIDF || o.Method == MethodCosine && o.Matrix == "") && o.Similar == 0 {
		o.Similar = -1 // similar pairs cost an exact join at a low cosine
	}
	o.Similar = orDefault(o.Similar, defaultSimilar)
	if o.Threshold > 0 && o.Similar > o.Threshold {
		o.Similar = o.Threshold
	}
	if o.Keep == "" {
		o.Keep = string(cluster.Longest)
		if o.Method == MethodCosine {
			o.Keep = string(cluster.Central)
		}
	}
	if _, err := cluster.ParsePolicy(o.Keep); err != nil {
		return o, fmt.Errorf("dedup: keep: %w", err)
	}
	if err := o.shingleDefaults(); err != nil {
		return o, err
	}
	o.BucketLimit = int(orDefault(float64(o.BucketLimit), 32))
	o.MaxSentenceDocs = int(orDefault(float64(o.MaxSentenceDocs), 10))
	o.MinSentenceChars = int(orDefault(float64(o.MinSentenceChars), 20))
	if err := o.ruleAndMethodDefaults(); err != nil {
		return o, err
	}
	switch {
	case o.Method != MethodTFIDF && (o.Threshold <= 0 || o.Threshold > 1):
		return o, fmt.Errorf("dedup: threshold %v is not in (0, 1]", o.Threshold)
	case o.BucketLimit < 2 || o.MaxSentenceDocs < 1 || o.MinSentenceChars < 0:
		return o, fmt.Errorf("dedup: bucket limit %d, max sentence docs %d or min sentence chars %d out of range",
			o.BucketLimit, o.MaxSentenceDocs, o.MinSentenceChars)
	}
	return o, nil
}

// shingleDefaults fills and checks the minhash shingling, sampling and
// banding options.
func (o *Options) shingleDefaults() error {
	switch o.ShingleUnit {
	case "":
		o.ShingleUnit = ShingleChars
	case ShingleChars, ShingleWords:
	default:
		return fmt.Errorf("dedup: unknown shingle unit %q (want %s or %s)", o.ShingleUnit, ShingleChars, ShingleWords)
	}
	switch {
	case o.Shingle != 0:
	case o.ShingleUnit == ShingleChars:
		o.Shingle = defaultCharShingle
	default:
		o.Shingle = defaultWordShingle
	}
	o.SampleSize = int(orDefault(float64(o.SampleSize), defaultSampleSize))
	o.Hashes = int(orDefault(float64(o.Hashes), 128))
	switch {
	case o.Shingle < 1 || o.Shingle > 32:
		return fmt.Errorf("dedup: shingle size %d is not in 1..32", o.Shingle)
	case o.Hashes < 8 || o.Hashes > 4096:
		return fmt.Errorf("dedup: MinHash size %d is not in 8..4096", o.Hashes)
	}
	if o.Bands != "" {
		if _, err := sketch.ParseBands(o.Bands, o.Hashes); err != nil {
			return fmt.Errorf("dedup: bands: %w", err)
		}
	}
	return nil
}

// ruleAndMethodDefaults fills and checks the options of the tfidf,
// rarewords and cosine methods, and refuses them for other methods.
func (o *Options) ruleAndMethodDefaults() error {
	fields := map[string][]string{MethodTFIDF: tfidfFields, MethodRareWords: rareWordsFields}[o.Method]
	switch {
	case o.Method == MethodTFIDF && o.Rule == "":
		o.Rule = DefaultTFIDFRule
	case o.Method == MethodRareWords && o.Rule == "":
		o.Rule = DefaultRareWordsRule
	case fields == nil && o.Rule != "":
		return fmt.Errorf("dedup: a rule applies to the tfidf and rarewords methods, not %s", o.Method)
	}
	if fields != nil {
		rule, err := similarity.ParseRule(o.Rule, fields...)
		if err != nil {
			return fmt.Errorf("dedup: %w", err)
		}
		if o.Method == MethodTFIDF {
			if _, err := joinThresholds(rule, o.Similar, tfidfBody, tfidfTitle); err != nil {
				return err
			}
		}
	}
	o.MinWords = int(orDefault(float64(o.MinWords), 200))
	o.CommonDF = orDefault(o.CommonDF, 0.05)
	if o.Weighting == "" {
		o.Weighting = WeightTFIDF
	}
	switch {
	case o.MinWords < 0 || o.CommonDF < 0 || o.CommonDF > 1:
		return fmt.Errorf("dedup: min words %d or common document share %v out of range", o.MinWords, o.CommonDF)
	case o.Weighting != WeightTFIDF && o.Weighting != WeightPMI:
		return fmt.Errorf("dedup: unknown weighting %q (want %s or %s)", o.Weighting, WeightTFIDF, WeightPMI)
	case o.TitlesCSV != "" && o.Method != MethodTFIDF:
		return fmt.Errorf("dedup: the title pairs file is written by the tfidf method, not %s", o.Method)
	case o.Matrix != "" && o.Method != MethodCosine:
		return fmt.Errorf("dedup: the similarity matrix is written by the cosine method, not %s", o.Method)
	}
	return nil
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// label grades a score by the thresholds; ok is false below both.
func (o *Options) label(score float64) (l core.Label, ok bool) {
	switch {
	case score >= o.Threshold:
		return core.Duplicate, true
	case o.Similar > 0 && score >= o.Similar:
		return core.Similar, true
	}
	return "", false
}
