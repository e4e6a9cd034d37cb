package neardup_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/sentences"
)

const story = "The city council approved the new harbour bridge on Tuesday evening. " +
	"Construction is expected to cost 412 million euros over six years. " +
	"Opponents said the estimate was far too optimistic for such a project."

// An index checks each article as it arrives against everything stored.
func Example() {
	dir, _ := os.MkdirTemp("", "neardup-example")
	defer os.RemoveAll(dir)
	ctx := context.Background()

	x, err := neardup.Open(ctx, filepath.Join(dir, "news.db"), neardup.Options{}) // minhash, the default
	if err != nil {
		panic(err)
	}
	defer x.Close()
	matches, err := x.Add(ctx,
		neardup.Document{ID: "courier-1", Text: story},
		neardup.Document{ID: "wire-7", Text: "NORTHPORT (Wire) - " + story},
		neardup.Document{ID: "sport-3", Text: "A late header gave United a narrow win over Rovers on Sunday afternoon."},
	)
	if err != nil {
		panic(err)
	}
	for _, m := range matches {
		for _, p := range m.Pairs {
			fmt.Printf("%s matches %s: %s, cluster %d\n", m.ID, p.A, p.Label, m.Cluster)
		}
	}
	// Output:
	// wire-7 matches courier-1: duplicate, cluster 1
}

// Dedup finds every pair and cluster of a corpus in one call.
func ExampleDedup() {
	res, err := neardup.Dedup(context.Background(), []neardup.Document{
		{ID: "a", Text: story},
		{ID: "b", Text: story + " The vote was 31 to 12."},
		{ID: "c", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said."},
	}, neardup.Options{Method: sentences.Defaults()})
	if err != nil {
		panic(err)
	}
	for _, c := range res.Clusters {
		fmt.Println(c.Members, "keep", c.Representative)
	}
	fmt.Println("kept:", res.Kept)
	// Output:
	// [a b] keep b
	// kept: [false true true]
}
