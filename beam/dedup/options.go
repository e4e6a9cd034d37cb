// Package dedup is `neardup dedup` as an Apache Beam pipeline: the same
// stages as the batch, each run over documents spread across workers, with
// the method's own code for every decision (the Stages of package minhash
// or simhash, candidates.VisitBucket, cluster.Linker and
// cluster.Representative), so that its pairs, clusters and kept corpus are
// those of the batch.
//
// The pipeline: read each JSON Lines input (Beam's file systems) and sketch
// its documents → (band key, document) → group by key → the candidate
// pairs of each bucket under the bucket limit → group by the later
// document, which makes them distinct and joins its detail sketch → group
// by the earlier one, joining its detail sketch → verify and label → the
// connected components of the duplicate links (large-star and small-star
// rounds, the few links left unsettled after them joined on one worker) →
// each component's clusters by the linking policy and representative by
// the keep policy → the output files.
package dedup

import (
	"errors"
	"fmt"
	"time"

	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/output"
)

// Options configure a pipeline. Inputs and Out are required; every other
// field's zero value means what `neardup dedup` does by default.
type Options struct {
	// Inputs are JSON Lines files or globs, in any file system Beam has
	// (local paths, gs://, s3://): documents are numbered in the order of
	// the inputs, the files of one glob in byte order of their names.
	Inputs []string
	// Out is the output directory: pairs.jsonl, clusters.jsonl,
	// kept.jsonl, removed.jsonl, rejects.jsonl and stats.json are written
	// there, as `neardup dedup` writes them.
	Out string
	// Stage, when set, is the directory the pipeline writes those files
	// into in place of Out (NewStage names one inside Out), for Publish to
	// move them into Out once the job has succeeded, so that a job that
	// fails leaves Out as it was; empty writes into Out itself.
	Stage string
	// Kept names the de-duplicated corpus in Out, and by its extension its
	// format: kept.jsonl (the default), kept.jsonl.gz or kept.jsonl.zst.
	Kept string
	// Shards, when positive, writes each JSON Lines file as that many
	// shards, NAME-00000-of-0000N.jsonl ..., each written by a worker of
	// its own: concatenated in the order of their names they are the one
	// file (see Merge). 0 writes one file of each, on one worker.
	Shards int
	// Method is the method's options, minhash.Options or simhash.Options
	// (see MethodNames); nil means minhash's defaults.
	Method engine.Config
	// Fields name the JSON keys of each part of a document; empty means
	// id, title, text, url, source and date.
	Fields Fields
	// MaxBytes skips a record larger than this many bytes as too-large; 0
	// means 10 MiB.
	MaxBytes int
	// Keep is the representative policy; "" means longest, minhash's own.
	Keep cluster.Policy
	// Link is how a document joins a cluster; "" means cluster.Any.
	Link cluster.Linking
	// SimilarIsCopy links the documents of a similar pair into clusters
	// as those of a duplicate pair are, so that the representative alone
	// is kept of them, as the batch does (engine.Grouping.SimilarIsCopy;
	// `neardup dedup --profile corpus --similar X`). The pairs keep their
	// labels.
	SimilarIsCopy bool
	// Window, when positive, pairs only documents dated at most this far
	// apart (undated documents pair with any).
	Window time.Duration
	// MinChars is the minimum length of a text compared, in characters
	// (white space not counted), below which a document is skipped as
	// too-short, as the batch does (engine.StubSkip): 0 means
	// analysis.DefaultStubChars, a negative number compares every text.
	MinChars int
	// Rounds is the number of large-star/small-star rounds of the
	// connected components; 0 means DefaultRounds, a negative number none
	// (what neardup-beam's --rounds 0 asks for).
	// Any number gives the same clusters: the links the rounds leave
	// unsettled are joined on one worker, a share that shrinks as the
	// rounds grow.
	Rounds int
}

// Fields name the JSON keys of a document's parts (corpus.Options).
type Fields struct {
	ID, Title, Text, URL, Source, Date string
}

// DefaultRounds is the number of large-star/small-star rounds when
// Options.Rounds is 0: enough for the clusters of news, whose duplicate
// links form small groups of short paths.
const DefaultRounds = 4

// Check reports the first mistake in o that Build would refuse (no input,
// an option out of its range, an unknown policy, a kept file the pipeline
// does not write), without building anything: a command line can be
// checked before a runner starts.
func (o Options) Check() error {
	_, err := o.withDefaults()
	return err
}

// withDefaults returns o with its zero fields filled and checks it.
func (o Options) withDefaults() (Options, error) {
	if len(o.Inputs) == 0 {
		return o, errors.New("dedup: no input")
	}
	if o.Out == "" {
		return o, errors.New("dedup: no output directory")
	}
	mc, err := configOf(o.Method)
	if err != nil {
		return o, err
	}
	if _, err := mc.stages(); err != nil {
		return o, err
	}
	if o.Kept == "" {
		o.Kept = output.KeptFile
	}
	if format, ok := output.KeptFormat(o.Kept); !ok || format == "parquet" || o.Kept != "kept."+format {
		return o, fmt.Errorf("dedup: the kept file is named %q; it may be kept.jsonl, kept.jsonl.gz or kept.jsonl.zst", o.Kept)
	}
	if o.Shards < 0 || o.Shards > maxShards {
		return o, fmt.Errorf("dedup: %d shards; from 0 (one file of each) to %d", o.Shards, maxShards)
	}
	if o.Keep == "" {
		o.Keep = cluster.Longest
	}
	if _, err := cluster.ParsePolicy(string(o.Keep)); err != nil {
		return o, err
	}
	if o.Link == "" {
		o.Link = cluster.Any
	}
	if _, err := cluster.ParseLinking(string(o.Link)); err != nil {
		return o, err
	}
	if o.Window < 0 {
		return o, fmt.Errorf("dedup: window %v is negative", o.Window)
	}
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	o.Rounds = max(o.Rounds, 0)
	return o, nil
}
