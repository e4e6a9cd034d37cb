package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/neardup/neardup/internal/extract"
)

// xorPages are training pages whose blocks are article text exactly when
// one of features 1 and 2 is set but not both (three in six blocks have
// both): no linear model separates them, two levels of a tree do.
func xorPages() []trainPage {
	var pages []trainPage
	for i := range 40 {
		var p trainPage
		for _, j := range []int{0, 1, 2, 3, 3, 3} {
			var b extract.Block
			b.Features[0] = 1
			b.Features[1] = float64(j & 1)
			b.Features[2] = float64(j >> 1)
			b.Features[3] = float64(i%5) / 5 // noise
			p.blocks = append(p.blocks, b)
			p.labels = append(p.labels, float64(j&1^j>>1))
			p.weight = append(p.weight, 1.0/6)
		}
		pages = append(pages, p)
	}
	return pages
}

func TestFitBoostLearnsInteraction(t *testing.T) {
	pages := xorPages()
	lin := extract.BlockModel{Weights: fitLogistic(pages, 1)}
	o := boostOptions{trees: 50, depth: 2, rate: 0.3, l2: 1, minHess: 0.1, maxCuts: 64}
	m := lin
	m.Trees = fitBoost(pages, lin, o)
	if len(m.Trees) == 0 {
		t.Fatal("no tree grown")
	}
	linWrong := 0
	for i, b := range pages[0].blocks {
		label := pages[0].labels[i] == 1
		if lin.Prob(b.Features) >= 0.5 != label {
			linWrong++
		}
		if m.Prob(b.Features) >= 0.5 != label {
			t.Errorf("block %d (label %v): probability %.3f with the trees", i, label, m.Prob(b.Features))
		}
	}
	if linWrong == 0 {
		t.Error("the linear model alone separates the blocks: the test shows nothing")
	}
	again := lin
	again.Trees = fitBoost(pages, lin, o)
	if blockModelSource(m) != blockModelSource(again) {
		t.Error("two fits on the same pages gave different trees")
	}
}

func TestCrossProbsHoldOut(t *testing.T) {
	pages := xorPages()[:8]
	for i := range pages {
		pages[i].id = fmt.Sprint(i)
		pages[i].site = fmt.Sprintf("site%d.example", i/2) // two pages a site
	}
	// A model's weight 3 records the pages it was fitted on (bit i for
	// page i), so a probability shows which pages its model saw.
	mask := func(m extract.BlockModel) int { return int(m.Weights[3]) }
	var models []extract.BlockModel
	fit := func(train []trainPage) extract.BlockModel {
		var m extract.BlockModel
		for _, p := range train {
			var k int
			fmt.Sscan(p.id, &k)
			m.Weights[3] += math.Ldexp(1, k)
		}
		models = append(models, m)
		return m
	}
	const folds = 3
	probs := crossProbs(pages, fit, folds, extract.BlockModel{})
	if len(models) < 2 {
		t.Fatalf("%d models fitted for %d folds", len(models), folds)
	}
	for i, p := range pages {
		k := siteFold(p.site, folds)
		var m extract.BlockModel
		for _, c := range models {
			if mask(c)>>i&1 == 0 {
				m = c
			}
		}
		for j, q := range pages {
			saw := mask(m)>>j&1 == 1
			if want := siteFold(q.site, folds) != k; saw != want {
				t.Errorf("page %d (fold %d): its model saw page %d (fold %d): %v, want %v", i, k, j, siteFold(q.site, folds), saw, want)
			}
		}
		if got, want := probs[i][0], m.Prob(p.blocks[0].Features); got != want {
			t.Errorf("page %d: probability %v, want %v from the model of the other folds", i, got, want)
		}
	}
	one := crossProbs(pages, fit, 1, extract.BlockModel{Threshold: 0.5})
	if one[0][0] != 0.5 {
		t.Errorf("with one fold, probability %v, want the given model's (0.5)", one[0][0])
	}
}
