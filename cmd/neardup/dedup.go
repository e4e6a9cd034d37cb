package main

import (
	"context"
	"fmt"
	"os"

	"github.com/neardup/neardup/dedup"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/extract/rules"
	"github.com/neardup/neardup/internal/job"
)

// dedupCmd is `neardup dedup`: batch near-duplicate detection.
type dedupCmd struct {
	Inputs []string `arg:"" name:"input" help:"JSONL, CSV/TSV, .txt/.md files, HTML pages, WARC files, directories, .zip or .gz archives; - for stdin."`
	Out    string   `short:"o" default:"out" help:"Output directory for pairs.jsonl, clusters.jsonl, kept.jsonl and stats.json."`

	Method    string   `default:"minhash" enum:"minhash,sentences,tfidf,rarewords,cosine" help:"Detection method: ${enum}."`
	Threshold float64  `help:"Score at or above which a pair is a duplicate (default: the method's own, see README)."`
	Similar   *float64 `help:"Score at or above which a pair is reported as similar (for tfidf: the body cosine); 0 reports duplicates only. Default 0.3; for tfidf, and cosine without --matrix: none (similar pairs cost an exact join at a low cosine)."`
	Keep      string   `default:"" enum:",longest,earliest,first,central" help:"Which member represents a cluster: longest (default; central for cosine), earliest, first or central."`
	Seed      uint64   `help:"Seed of every hash function."`

	ShingleUnit     string  `name:"shingle-unit" default:"chars" enum:"chars,words" help:"minhash: shingles of characters (letters and digits of the words; robust to OCR damage, split and glued words, number formats) or of words (cheaper, for clean text): ${enum}."`
	Shingle         int     `help:"minhash: shingle length in --shingle-unit (default 6 characters or 3 words)."`
	SampleSize      int     `name:"sample-size" default:"256" help:"minhash: a document with more shingles keeps the smallest max(N, n/4) of its n fingerprints, a consistent sample that bounds memory; 0 keeps all."`
	Bands           string  `help:"minhash: LSH banding BxR, B bands of R MinHash values (default: chosen from the threshold, at least 3 rows for characters)."`
	Containment     float64 `default:"0.7" help:"minhash: also a duplicate when the smaller document is at least this share inside the larger; above 1 turns it off."`
	NumberAgreement float64 `default:"0.5" help:"minhash: not a duplicate when both documents have 2+ figures and share less than this share of them; negative turns it off."`
	Hashes          int     `default:"128" help:"minhash: MinHash values per document."`
	BucketLimit     int     `default:"32" help:"Members of one LSH bucket or sentence posting list a document is compared with (beyond it: the first and the newest)."`

	MaxSentenceDocs  int  `default:"10" help:"sentences: a sentence in more documents than this is boilerplate and ignored."`
	MinSentenceChars int  `default:"20" help:"sentences: ignore sentences shorter than this many characters."`
	Weighted         bool `help:"sentences: weigh sentences by length and rarity (IDF)."`

	Rule      string `help:"tfidf, rarewords: duplicate rule, clauses joined by | of conditions joined by & (tfidf default: 'title>0.2 & body>=0.2 | title>=0.1 & body>=0.7 | body>=0.85' over the title and body cosines; rarewords: 'min>=0.7' over the smaller and larger containment)."`
	TitlesCSV string `name:"titles-csv" help:"tfidf: also write the titles of the duplicate pairs to this CSV file (title_a,title_b)."`

	MinWords   int     `name:"min-words" default:"200" help:"rarewords: skip documents of fewer words."`
	CommonDF   float64 `name:"common-df" default:"0.05" help:"rarewords: drop a word from a source's documents when more than this share of them hold it."`
	SameSource bool    `name:"same-source" help:"rarewords: also compare documents of the same source."`

	Weighting string `default:"tfidf" enum:"tfidf,pmi" help:"cosine: term weights, ${enum}."`
	Matrix    string `help:"cosine: also write the similarity matrix with row labels to this JSON file (at most 20000 documents)."`

	Format      string `enum:",jsonl,csv,tsv,txt,html,warc" default:"" help:"Input format; default: by extension and content."`
	IDCol       string `name:"id-col" default:"id" help:"Field or column holding the document id."`
	TitleCol    string `name:"title-col" default:"title" help:"Field or column holding the title."`
	TextCol     string `name:"text-col" default:"text" help:"Field or column holding the body text."`
	URLCol      string `name:"url-col" default:"url" help:"Field or column holding the URL."`
	SourceCol   string `name:"source-col" default:"source" help:"Field or column holding the source (publisher)."`
	DateCol     string `name:"date-col" default:"date" help:"Field or column holding the date."`
	MaxBytes    int    `default:"10485760" help:"Skip documents larger than this many bytes."`
	Rules       string `type:"existingfile" help:"HTML and WARC inputs: site rules (YAML) for article extraction, as for neardup extract."`
	MinChars    int    `name:"min-chars" default:"500" help:"HTML and WARC inputs: skip pages with less article text than this many characters as too short; 0 keeps them."`
	Strict      bool   `help:"Stop at the first bad record instead of skipping it."`
	Workers     int    `help:"Sketching goroutines (default: one per CPU)."`
	MaxWarnings int    `default:"20" help:"Warn about at most this many skipped records on stderr."`
	Report      string `help:"Also write an HTML report of the clusters with side-by-side diffs to this file."`
	CPUProfile  string `name:"cpuprofile" hidden:"" help:"Write a CPU profile to this file."`
}

// Run turns the flags into job options.
func (c *dedupCmd) Run(g *globals) error {
	similar := 0.0 // the method's default
	if c.Similar != nil {
		if similar = *c.Similar; similar == 0 {
			similar = -1 // the flag's 0 means "none"; the library's 0 means "default"
		}
	}
	if similar > 1 || similar < 0 && similar != -1 || c.Threshold < 0 || c.Threshold > 1 {
		return usageError{fmt.Sprintf("--threshold %v and --similar %v must be between 0 and 1", c.Threshold, similar)}
	}
	o := job.Options{
		Inputs: c.Inputs,
		Out:    c.Out,
		Corpus: corpus.Options{Format: c.Format, IDField: c.IDCol, TitleField: c.TitleCol, TextField: c.TextCol,
			URLField: c.URLCol, SourceField: c.SourceCol, DateField: c.DateCol, MaxBytes: c.MaxBytes},
		Dedup: dedup.Options{Method: c.Method, Threshold: c.Threshold, Similar: similar, Keep: c.Keep, Seed: c.Seed,
			ShingleUnit: c.ShingleUnit, Shingle: c.Shingle, SampleSize: sampleSize(c.SampleSize), Bands: c.Bands,
			Hashes: c.Hashes, BucketLimit: c.BucketLimit,
			Containment: c.Containment, NumberAgreement: c.NumberAgreement,
			MaxSentenceDocs: c.MaxSentenceDocs, MinSentenceChars: c.MinSentenceChars, Weighted: c.Weighted,
			Rule: c.Rule, TitlesCSV: c.TitlesCSV, MinWords: c.MinWords, CommonDF: c.CommonDF, SameSource: c.SameSource,
			Weighting: c.Weighting, Matrix: c.Matrix},
		Strict:      c.Strict,
		Workers:     c.Workers,
		Warn:        os.Stderr,
		MaxWarnings: c.MaxWarnings,
		Report:      c.Report,
	}
	if !g.quiet {
		o.Progress = os.Stderr
	}
	if _, err := (o.Dedup).Defaults(); err != nil {
		return usageError{err.Error()}
	}
	if err := c.extractOptions(&o.Corpus.Extract); err != nil {
		return err
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return err
		}
		defer stop()
	}
	return runDedup(g.ctx, o)
}

// sampleSize maps the flag's 0 ("keep all") to the library's negative value
// (its 0 means the default).
func sampleSize(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// extractOptions sets how HTML pages become documents from the flags.
func (c *dedupCmd) extractOptions(o *extract.Options) error {
	if c.MinChars < 0 {
		return usageError{"--min-chars must be ≥ 0"}
	}
	o.MinChars = c.MinChars
	if o.MinChars == 0 {
		o.MinChars = -1 // the flag's 0 keeps short pages; the library's 0 means its default
	}
	if c.Rules != "" {
		rs, err := rules.Load(c.Rules)
		if err != nil {
			return usageError{err.Error()}
		}
		o.Rules = rs
	}
	return nil
}

// runDedup runs the job and prints a one-line summary on stderr.
func runDedup(ctx context.Context, o job.Options) error {
	st, err := job.Run(ctx, o)
	if err != nil {
		return err
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "%d documents, %d duplicate and %d similar pairs, %d clusters, %d kept → %s\n",
			st.Documents, st.Pairs["duplicate"], st.Pairs["similar"], st.Clusters, st.Kept, o.Out)
	}
	return nil
}
