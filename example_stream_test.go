package neardup_test

import (
	"context"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/sentences"
)

// DedupSeq reads a corpus once from a stream, here JSON Lines: the caller
// holds no document, pairs are handed on as they are given, and a record
// that is no document is counted, not fatal.
func ExampleDedupSeq() {
	input := strings.Join([]string{
		`{"id":"a","text":"` + story + `"}`,
		`{"id":"b","text":"` + story + ` The vote was 31 to 12."}`,
		`{"id":"c","text":""}`,
		`{"id":"d",`,
		`{"id":"e","text":"Heavy rain flooded several streets in the old town overnight, the fire brigade said."}`,
	}, "\n")
	ctx := context.Background()
	res, err := neardup.DedupSeq(ctx, neardup.Read(ctx, "news.jsonl", strings.NewReader(input), neardup.ReadOptions{}), neardup.Options{
		OnPair: func(p neardup.Pair) { fmt.Println(p.A, p.B, p.Label) },
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("kept:", res.Kept)
	fmt.Println("skipped:", res.Stats.Skipped)
	// Output:
	// a b duplicate
	// kept: [false true false false true]
	// skipped: map[empty:1 malformed:1]
}

// ReadFiles reads files as `neardup dedup` does; ranged over again, it
// reads them again, which lets DedupSeq quote the sentences two documents
// share.
func ExampleReadFiles() {
	dir, _ := os.MkdirTemp("", "neardup-example")
	defer os.RemoveAll(dir)
	csv := filepath.Join(dir, "news.csv")
	os.WriteFile(csv, []byte("id,text\n"+
		"a,\""+story+"\"\n"+
		"b,\"NORTHPORT (Wire) - "+story+"\"\n"), 0o644)

	ctx := context.Background()
	docs := func() iter.Seq2[neardup.Document, error] {
		return neardup.ReadFiles(ctx, []string{csv}, neardup.ReadOptions{})
	}
	res, err := neardup.DedupSeq(ctx, docs(), neardup.Options{Method: sentences.Defaults(), Reread: docs})
	if err != nil {
		panic(err)
	}
	for _, p := range res.Pairs {
		fmt.Println(p.A, p.B, p.Label)
		for _, s := range p.Evidence.(sentences.Evidence).Sentences {
			fmt.Println(" ", s)
		}
	}
	// Output:
	// a b duplicate
	//   Construction is expected to cost 412 million euros over six years.
	//   Opponents said the estimate was far too optimistic for such a project.
}
