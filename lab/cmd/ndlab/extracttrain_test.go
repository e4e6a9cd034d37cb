package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/extracteval"
)

// promoArticle is a page whose article holds a newsletter box and a share
// line that its gold text leaves out, and its gold text.
func promoArticle(i int) (page, gold string) {
	var b, g strings.Builder
	fmt.Fprintf(&b, `<html><head><title>Story %d</title><link rel="canonical" href="https://site%d.example/story"></head><body><article>`, i, i)
	for j := range 5 {
		p := fmt.Sprintf("Paragraph %d of story %d. The harbour authority said on Monday that the new ferry line would start in spring, linking the two islands.", j, i)
		fmt.Fprintf(&b, "<p>%s</p>", p)
		g.WriteString(p + "\n\n")
		if j == 2 {
			b.WriteString(`<div class="promo"><p>Subscribe to our newsletter</p></div><p><a href="/share">Share this story</a></p>`)
		}
	}
	b.WriteString("</article></body></html>")
	return b.String(), g.String()
}

func TestExtractTrain(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		page, gold := promoArticle(i)
		files[fmt.Sprintf("gold/input/%d.html", i)] = page
		files[fmt.Sprintf("gold/GoldStandard/%d.txt", i)] = gold
	}
	dir := writeTree(t, files)
	ds := []evalDataset{{name: "promo", dir: filepath.Join(dir, "gold")}}
	m, pages, err := trainBlocks(context.Background(), ds, trainOptions{half: "all", l2: 1, maxLoss: 0.001, folds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 12 {
		t.Fatalf("trained on %d pages, want 12", len(pages))
	}
	for _, p := range pages {
		for i, b := range p.blocks {
			boiler := strings.Contains(b.Text, "newsletter") || strings.Contains(b.Text, "Share this")
			if boiler != (p.labels[i] == 0) {
				t.Errorf("%s: block %q labelled %v", p.id, b.Text, p.labels[i])
			}
			if keep := m.Prob(b.Features) >= m.Threshold; keep == boiler {
				t.Errorf("%s: block %q kept %v by the model trained (threshold %v)", p.id, b.Text, keep, m.Threshold)
			}
		}
	}
	again, _, err := trainBlocks(context.Background(), ds, trainOptions{half: "all", l2: 1, maxLoss: 0.001, folds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if blockModelSource(m) != blockModelSource(again) {
		t.Error("two trainings on the same pages gave different models")
	}
	if src := blockModelSource(m); !strings.Contains(src, "var DefaultBlockModel = BlockModel{") || !strings.Contains(src, "DO NOT EDIT") {
		t.Errorf("model source:\n%s", src)
	}
	pinned, _, err := trainBlocks(context.Background(), ds, trainOptions{half: "all", l2: 1, maxLoss: 0.001, pin: 0.42, folds: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pinned.Threshold != 0.42 || pinned.Weights != m.Weights {
		t.Errorf("with the threshold given: threshold %v, weights the same %v; want 0.42 and the same weights", pinned.Threshold, pinned.Weights == m.Weights)
	}
	if _, _, err := trainBlocks(context.Background(), ds, trainOptions{half: "report", l2: 1, maxLoss: 0.001, folds: 1}, nil); err == nil && !anyReport(t, dir) {
		t.Error("no page of the report half, yet training did not fail")
	}
}

// anyReport reports whether a page of the test set falls in the report half.
func anyReport(t *testing.T, dir string) bool {
	ds, err := extracteval.Open(filepath.Join(dir, "gold"), extracteval.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ds.Pages {
		in, err := extracteval.ReadInput(p)
		if err != nil {
			t.Fatal(err)
		}
		if extracteval.SplitHalf(extracteval.Site(in)) == extracteval.Report {
			return true
		}
	}
	return false
}

func TestBalance(t *testing.T) {
	page := func(ds string, weights ...float64) trainPage { return trainPage{ds: ds, weight: weights} }
	pages := []trainPage{page("big", 0.5, 0.5), page("big", 1), page("big", 0.25, 0.75), page("small", 0.4, 0.6)}
	balance(pages)
	total := map[string]float64{}
	for _, p := range pages {
		for _, w := range p.weight {
			total[p.ds] += w
		}
	}
	// Four pages in all, two datasets: each weighs two pages' worth.
	if math.Abs(total["big"]-2) > 1e-9 || math.Abs(total["small"]-2) > 1e-9 {
		t.Errorf("weights by dataset %v, want 2 each", total)
	}
	if got := pages[0].weight[0] / pages[0].weight[1]; got != 1 {
		t.Errorf("a page's blocks changed their ratio: %v", got)
	}
}

func TestSnippetLabels(t *testing.T) {
	p := extracteval.Page{With: []string{"ferry  line"}, Without: []string{"Impressum"}}
	blocks := []extract.Block{{Text: "The ferry line opens."}, {Text: "Impressum"}, {Text: "Other text"}, {Text: "ferry line Impressum"}}
	tp := labelSnippetPage(p, blocks)
	if fmt.Sprint(tp.labels) != "[1 0 0 0]" || fmt.Sprint(tp.weight) != "[0.5 0.5 0 0]" {
		t.Errorf("labels %v weights %v, want [1 0 0 0] and [0.5 0.5 0 0]", tp.labels, tp.weight)
	}
}

func TestExtractTrainBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, flag := range []string{"--trees=-1", "--depth=0", "--depth=9", "--rate=0", "--rate=1.5", "--min-leaf=-1", "--folds=0", "--l-2=-1", "--threshold=1", "--threshold=-0.1"} {
		args := []string{"extract-train", "-q", "--gold", dir, flag}
		if code := run(context.Background(), args); code != 2 {
			t.Errorf("%s: exit code %d, want 2 (bad usage)", flag, code)
		}
	}
}

func TestChooseThresholdFlat(t *testing.T) {
	// One page: its story (the longest block, always kept), a paragraph of
	// it scored 0.7 and a share line scored 0.5. Every threshold above 0.5
	// and up to 0.7 removes the share line alone, for the same F1: the
	// boldest of them is chosen. Above 0.7 the paragraph goes too, and the
	// F1 falls by more than flatF1.
	story := "The council approved the budget on Tuesday after a debate that lasted well into the night and ended with a narrow vote. " +
		"Opposition members argued that the tax increase was larger than promised, and the mayor defended the proposal, saying the repairs could not wait. " +
		"Residents will see the changes in their bills from the first of March."
	para := "Officials said the plan would fund road repairs and two new libraries in the north of the town."
	share := "Share this story on social media"
	page := trainPage{id: "1", ds: "d", gold: extracteval.ShinglesOf(story + "\n\n" + para),
		blocks: []extract.Block{{Text: story}, {Text: para}, {Text: share}}}
	probs := [][]float64{{0.9, 0.7, 0.5}}
	if got := chooseThreshold([]trainPage{page}, probs, 0, 1, nil); got != 0.7 {
		t.Errorf("threshold %.2f, want 0.70: the boldest of equal F1", got)
	}
}
