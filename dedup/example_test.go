package dedup_test

import (
	"context"
	"fmt"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/dedup"
)

// An Index checks each document as it arrives against everything before it.
func ExampleIndex() {
	x, err := dedup.NewIndex(dedup.Options{Method: dedup.MethodSentences})
	if err != nil {
		panic(err)
	}
	story := "The city council approved the new harbour bridge on Tuesday evening. " +
		"Construction is expected to cost 412 million euros over six years. " +
		"Opponents said the estimate was far too optimistic for such a project."
	for _, d := range []core.Document{
		{ID: "courier-1", Text: story},
		{ID: "wire-7", Text: "NORTHPORT (Wire) - " + story},
		{ID: "sport-3", Text: "A late header gave United a narrow win over Rovers on Sunday afternoon."},
	} {
		pairs, _, err := x.Add(d)
		if err != nil {
			panic(err)
		}
		for _, p := range pairs {
			fmt.Printf("%s matches %s: %s %.2f\n", p.B, p.A, p.Label, p.Score)
		}
	}
	// Output:
	// wire-7 matches courier-1: duplicate 0.50
}

// A Batch sketches a whole corpus, then finds every pair and cluster.
func ExampleBatch() {
	b, err := dedup.NewBatch(dedup.Options{}) // minhash, the default
	if err != nil {
		panic(err)
	}
	sk := b.NewSketcher() // one per goroutine
	text := "Shares of the mining group rose sharply after it reported record copper output " +
		"for the third quarter, beating forecasts by analysts polled before the results."
	for _, d := range []core.Document{
		{ID: "a", Text: text},
		{ID: "b", Text: text + " Trading volume was twice the daily average."},
		{ID: "c", Text: "Heavy rain flooded several streets in the old town overnight, the fire brigade said."},
	} {
		if err := b.Add(&d, sk.Sketch(&d)); err != nil {
			panic(err)
		}
	}
	res, err := b.Finish(context.Background(), nil)
	if err != nil {
		panic(err)
	}
	for _, c := range res.Clusters {
		fmt.Println(c.Members, "keep", c.Representative)
	}
	// Output:
	// [a b] keep b
}
