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

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/cluster"
)

// The method names Options.Method accepts.
const (
	MethodMinHash   = "minhash"   // MinHash/LSH over word shingles, verified by exact shingle Jaccard
	MethodSentences = "sentences" // shared sentence fingerprints, verified by sentence-set Jaccard
)

// Methods lists the method names in the order help texts show them.
var Methods = []string{MethodMinHash, MethodSentences}

// Options configure a Batch or an Index. The zero value is the default
// configuration; Defaults fills each zero field.
type Options struct {
	// Method is the detection method; "" means minhash.
	Method string
	// Threshold is the score at or above which a pair is a duplicate
	// (Jaccard for both methods). 0 means the method's default.
	Threshold float64
	// Similar is the score at or above which a pair below Threshold is
	// reported as similar. 0 means 0.3; a negative value reports duplicates
	// only.
	Similar float64
	// Keep chooses each cluster's representative: "longest" (default),
	// "earliest", "first" or "central".
	Keep string
	// Seed seeds every hash function. 0 is a valid seed; sketches made
	// with different seeds are not comparable.
	Seed uint64

	// Shingle is the number of words in a minhash shingle; 0 means 3.
	Shingle int
	// Hashes is the number of MinHash values per document; 0 means 128.
	Hashes int
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
}

// Method defaults. The thresholds were chosen by measurement on generated
// news corpora (see the README's quality section).
const (
	defaultMinHashThreshold   = 0.5
	defaultSentencesThreshold = 0.5
	defaultSimilar            = 0.3
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
	case MethodSentences:
		o.Threshold = orDefault(o.Threshold, defaultSentencesThreshold)
	default:
		return o, fmt.Errorf("dedup: unknown method %q (want one of %v)", o.Method, Methods)
	}
	o.Similar = orDefault(o.Similar, defaultSimilar)
	if o.Similar > o.Threshold {
		o.Similar = o.Threshold
	}
	if o.Keep == "" {
		o.Keep = string(cluster.Longest)
	}
	if _, err := cluster.ParsePolicy(o.Keep); err != nil {
		return o, fmt.Errorf("dedup: keep: %w", err)
	}
	o.Shingle = int(orDefault(float64(o.Shingle), 3))
	o.Hashes = int(orDefault(float64(o.Hashes), 128))
	o.BucketLimit = int(orDefault(float64(o.BucketLimit), 32))
	o.MaxSentenceDocs = int(orDefault(float64(o.MaxSentenceDocs), 10))
	o.MinSentenceChars = int(orDefault(float64(o.MinSentenceChars), 20))
	switch {
	case o.Threshold <= 0 || o.Threshold > 1:
		return o, fmt.Errorf("dedup: threshold %v is not in (0, 1]", o.Threshold)
	case o.Shingle < 1 || o.Shingle > 16:
		return o, fmt.Errorf("dedup: shingle size %d is not in 1..16", o.Shingle)
	case o.Hashes < 8 || o.Hashes > 4096:
		return o, fmt.Errorf("dedup: MinHash size %d is not in 8..4096", o.Hashes)
	case o.BucketLimit < 2 || o.MaxSentenceDocs < 1 || o.MinSentenceChars < 0:
		return o, fmt.Errorf("dedup: bucket limit %d, max sentence docs %d or min sentence chars %d out of range",
			o.BucketLimit, o.MaxSentenceDocs, o.MinSentenceChars)
	}
	return o, nil
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// label grades a score by the thresholds; ok is false below both.
func (o *Options) label(score float64) (l neardup.Label, ok bool) {
	switch {
	case score >= o.Threshold:
		return neardup.Duplicate, true
	case o.Similar > 0 && score >= o.Similar:
		return neardup.Similar, true
	}
	return "", false
}
