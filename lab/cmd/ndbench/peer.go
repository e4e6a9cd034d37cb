package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	minhashlsh "github.com/ekzhu/minhash-lsh"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/output"
)

// The peer: github.com/ekzhu/minhash-lsh, the Go MinHash LSH package, used
// as its documentation shows, run as a child of kind kindPeer on the same
// corpus, reader and cores as neardup, so that anyone can rerun the ratio.
const (
	kindPeer = "peer"
	// PeerName names the peer's row in the tables.
	peerName = "ekzhu/minhash-lsh"
	// peerHashes and peerThreshold are the peer's MinHash size and LSH
	// threshold; a pair is reported when the share of equal signature
	// values, its Jaccard estimate, reaches the threshold.
	peerHashes    = 128
	peerThreshold = 0.5
	// peerShingle is the peer's shingle: this many consecutive lower-cased
	// words (letters and digits).
	peerShingle = 5
	peerSeed    = 1
)

// peerDoc is a document's id and MinHash signature.
type peerDoc struct {
	id  string
	sig []uint64
}

// runPeer reads the inputs as the baseline does (NextRaw on this
// goroutine, decoding and the peer's MinHash signatures on workers), adds
// every signature to the peer's LSH index, queries each document in input
// order, and writes the pairs whose estimate reaches the threshold and
// their connected groups as pairs.jsonl and clusters.jsonl in spec.Out.
func runPeer(ctx context.Context, spec childSpec) (childResult, error) {
	r, err := corpus.Open(spec.Inputs, corpus.Options{})
	if err != nil {
		return childResult{}, err
	}
	defer r.Close()
	workers := max(spec.Workers, 2)
	type chunkOut struct {
		seq  int
		docs []peerDoc
		res  childResult
	}
	chunks := make(chan []corpus.Raw, 2*workers)
	outs := make(chan chunkOut, 2*workers)
	var wg sync.WaitGroup
	var seq sync.Mutex // chunks are numbered as they are taken, in input order
	next := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				seq.Lock()
				c, ok := <-chunks
				n := next
				next++
				seq.Unlock()
				if !ok {
					return
				}
				o := chunkOut{seq: n}
				for _, raw := range c {
					rec := r.Decode(raw)
					o.res.add(rec)
					if rec.Skip == core.SkipNone {
						o.docs = append(o.docs, peerDoc{rec.Doc.ID, peerSignature(rec.Doc.Title + "\n" + rec.Doc.Text)})
					}
				}
				outs <- o
			}
		}()
	}
	var feedErr error
	go func() {
		feedErr = feed(ctx, r, chunks)
		close(chunks)
		wg.Wait()
		close(outs)
	}()
	byChunk := map[int]chunkOut{}
	for o := range outs {
		byChunk[o.seq] = o
	}
	if feedErr != nil {
		return childResult{}, feedErr
	}
	var docs []peerDoc
	var total childResult
	for i := range len(byChunk) {
		o := byChunk[i]
		docs = append(docs, o.docs...)
		total.Records += o.res.Documents + o.res.Skipped
		total.Documents += o.res.Documents
		total.Skipped += o.res.Skipped
	}
	pairs := peerPairs(docs)
	return total, writePeerOutput(spec.Out, docs, pairs)
}

// peerSignature is the peer's MinHash signature of text's word shingles.
func peerSignature(text string) []uint64 {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	mh := minhashlsh.NewMinhash(peerSeed, peerHashes)
	if len(words) < peerShingle {
		mh.Push([]byte(strings.Join(words, " ")))
		return mh.Signature()
	}
	for i := 0; i+peerShingle <= len(words); i++ {
		mh.Push([]byte(strings.Join(words[i:i+peerShingle], " ")))
	}
	return mh.Signature()
}

// peerPairs indexes every signature, then queries each, keeping the pairs
// of an earlier document whose estimated Jaccard reaches the threshold.
func peerPairs(docs []peerDoc) [][2]int32 {
	lsh := minhashlsh.NewMinhashLSH64(peerHashes, peerThreshold)
	for i, d := range docs {
		lsh.Add(int32(i), d.sig)
	}
	lsh.Index()
	var pairs [][2]int32
	for i, d := range docs {
		for _, k := range lsh.Query(d.sig) {
			if j := k.(int32); j < int32(i) && estimate(docs[j].sig, d.sig) >= peerThreshold {
				pairs = append(pairs, [2]int32{j, int32(i)})
			}
		}
	}
	return pairs
}

// estimate is the share of equal values of two signatures.
func estimate(a, b []uint64) float64 {
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / float64(len(a))
}

// writePeerOutput writes the pairs (all duplicates) and their connected
// groups as a dedup run would, for the scorer.
func writePeerOutput(dir string, docs []peerDoc, pairs [][2]int32) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var uf cluster.UnionFind
	uf.Grow(len(docs))
	err := writeLines(filepath.Join(dir, output.PairsFile), func(w *bufio.Writer, enc *json.Encoder) error {
		for _, p := range pairs {
			uf.Union(p[0], p[1])
			if err := enc.Encode(core.Pair{A: docs[p[0]].id, B: docs[p[1]].id, Method: peerName, Label: core.Duplicate}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeLines(filepath.Join(dir, output.ClustersFile), func(w *bufio.Writer, enc *json.Encoder) error {
		for i, g := range uf.Groups() {
			c := core.Cluster{ID: int64(i + 1), Representative: docs[g[0]].id, Why: "first"}
			for _, m := range g {
				c.Members = append(c.Members, docs[m].id)
			}
			if err := enc.Encode(c); err != nil {
				return err
			}
		}
		return nil
	})
}

func writeLines(path string, fill func(*bufio.Writer, *json.Encoder) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := fill(w, json.NewEncoder(w)); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
