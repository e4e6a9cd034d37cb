package extracteval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Two more layouts are read so that the sets the project never tunes on
// can be scored with the same command and metric by whoever holds them:
// the Article Extraction Benchmark's (ground-truth.json beside html/) and
// the combined layout of the Web Content Extraction Benchmark of
// Bevendorff et al. (ground-truth/<subset>.jsonl beside html/<subset>/),
// which holds L3S-GN1, CleanPortalEval and others.

// isArticleBench reports whether dir is laid out as the Article Extraction
// Benchmark: ground-truth.json beside html/.
func isArticleBench(dir string) bool {
	return isFile(filepath.Join(dir, "ground-truth.json")) && isDir(filepath.Join(dir, "html"))
}

// addArticleBench adds the pages of the Article Extraction Benchmark's
// layout: ground-truth.json maps each page's id to its articleBody and url
// (and, when the set records them, its headline, author and datePublished:
// the page's Meta); the page is html/<id>.html.gz (or .html). Ground truth
// without a page counts as MissingInput. A page whose articleBody is empty
// or absent is a page, as the benchmark's evaluate.py scores every id of
// ground-truth.json: it has no recall, and precision 0 when anything is
// predicted.
func (ds *Dataset) addArticleBench(dir string, keep map[string]bool) error {
	path := filepath.Join(dir, "ground-truth.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var truth map[string]struct {
		ArticleBody   string `json:"articleBody"`
		URL           string `json:"url"`
		Headline      string `json:"headline"`
		Author        string `json:"author"`
		DatePublished string `json:"datePublished"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		return fmt.Errorf("extracteval: %s: %w", path, err)
	}
	for _, id := range sortedKeys(truth) {
		if len(keep) > 0 && !keep[id] {
			continue
		}
		if id == "" || strings.ContainsAny(id, `/\`) || id == ".." {
			return fmt.Errorf("extracteval: %s: id %q: want a file name", path, id)
		}
		t := truth[id]
		in := firstFile(filepath.Join(dir, "html", id+".html.gz"), filepath.Join(dir, "html", id+".html"))
		if in == "" {
			ds.MissingInput++
			continue
		}
		page := Page{ID: id, InputPath: in, URL: t.URL, Gold: t.ArticleBody}
		if t.Headline != "" || t.Author != "" || t.DatePublished != "" {
			page.Meta = &Meta{Title: t.Headline, Published: t.DatePublished}
			if t.Author != "" {
				page.Meta.Authors = []string{t.Author}
			}
		}
		ds.Pages = append(ds.Pages, page)
	}
	return nil
}

// combinedTruth returns the ground-truth file of dir when dir is a subset's
// folder of the combined layout: <root>/html/<subset> beside
// <root>/ground-truth/<subset>.jsonl; "" otherwise.
func combinedTruth(dir string) string {
	dir = filepath.Clean(dir)
	if filepath.Base(filepath.Dir(dir)) != "html" {
		return ""
	}
	truth := filepath.Join(filepath.Dir(filepath.Dir(dir)), "ground-truth", filepath.Base(dir)+".jsonl")
	if !isFile(truth) {
		return ""
	}
	return truth
}

// maxTruthLine bounds one line of a combined ground-truth file.
const maxTruthLine = 64 << 20

// addCombined adds the pages of one subset of the combined layout: each
// line of truth is a JSON object with the page's page_id, its plaintext
// (the gold text) and, for some subsets, its url; the page is
// <dir>/<page_id>.html. Ground truth without a page counts as
// MissingInput; a line whose plaintext is empty is left out.
func (ds *Dataset) addCombined(dir, truth string, keep map[string]bool) error {
	f, err := os.Open(truth)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxTruthLine)
	golds := map[string]Page{}
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var t struct {
			PageID    string `json:"page_id"`
			Plaintext string `json:"plaintext"`
			URL       string `json:"url"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			return fmt.Errorf("extracteval: %s:%d: %w", truth, line, err)
		}
		if t.PageID == "" || strings.ContainsAny(t.PageID, `/\`) {
			return fmt.Errorf("extracteval: %s:%d: page_id %q: want a file name", truth, line, t.PageID)
		}
		if (len(keep) > 0 && !keep[t.PageID]) || strings.TrimSpace(t.Plaintext) == "" {
			continue
		}
		golds[t.PageID] = Page{ID: t.PageID, URL: t.URL, Gold: t.Plaintext}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("extracteval: %s: %w", truth, err)
	}
	for _, id := range sortedKeys(golds) {
		p := golds[id]
		p.InputPath = filepath.Join(dir, id+".html")
		if !isFile(p.InputPath) {
			ds.MissingInput++
			continue
		}
		ds.Pages = append(ds.Pages, p)
	}
	return nil
}

// combinedSubsets returns the subsets of dir when dir is the root of the
// combined layout (ground-truth/<subset>.jsonl beside html/), sorted; nil
// otherwise. Open asks for one subset's folder then.
func combinedSubsets(dir string) []string {
	if !isDir(filepath.Join(dir, "html")) {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "ground-truth", "*.jsonl"))
	var subsets []string
	for _, f := range files {
		subsets = append(subsets, strings.TrimSuffix(filepath.Base(f), ".jsonl"))
	}
	slices.Sort(subsets)
	return subsets
}

// firstFile returns the first of paths that is a file, or "".
func firstFile(paths ...string) string {
	for _, p := range paths {
		if isFile(p) {
			return p
		}
	}
	return ""
}
