package extracteval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// snippetPage is one entry of a snippet layout's evaldata.json.
type snippetPage struct {
	File    string   `json:"file"`
	With    []string `json:"with"`
	Without []string `json:"without"`
}

// addSnippets appends the pages of the snippet layout in dir: evaldata.json
// maps each page's URL to its file under eval/ and its snippets. A page's
// id is its file name; entries whose file is missing count as
// MissingInput, entries without a snippet are left out.
func (ds *Dataset) addSnippets(dir string, keep map[string]bool) error {
	name := filepath.Join(dir, "evaldata.json")
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var entries map[string]snippetPage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return fmt.Errorf("extracteval: %s: %w", name, err)
	}
	var pages []Page
	for url, e := range entries {
		if e.File == "" || e.File != filepath.Base(e.File) {
			return fmt.Errorf("extracteval: %s: page %q: file %q is not a file name in eval/", name, url, e.File)
		}
		if len(keep) > 0 && !keep[e.File] {
			continue
		}
		if len(e.With)+len(e.Without) == 0 {
			continue
		}
		path := filepath.Join(dir, "eval", e.File)
		if !isFile(path) {
			ds.MissingInput++
			continue
		}
		pages = append(pages, Page{ID: e.File, InputPath: path, URL: url, With: e.With, Without: e.Without})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	ds.Pages = append(ds.Pages, pages...)
	return nil
}

// ScoreSnippets scores a prediction by the passages its text must hold
// (with) and must not hold (without), each looked for with runs of white
// space made one space, in Unicode normalization form C and without soft
// hyphens (U+00AD, an invisible hint where a word may break: the set's
// passages were copied from pages both with and without them), as Tokens
// reads text for the shingle metric: recall is the share of the with passages found,
// precision the share of with passages among all passages found. A
// prediction that holds no passage at all has no precision (like an empty
// prediction under Score); a page without with passages has no recall.
func ScoreSnippets(with, without []string, pred string) PR {
	plain := func(s string) string {
		return strings.Join(strings.Fields(norm.NFC.String(strings.ReplaceAll(s, "\u00ad", ""))), " ")
	}
	text := plain(pred)
	found := func(s string) bool {
		s = plain(s)
		return s != "" && strings.Contains(text, s)
	}
	tp, fp := 0, 0
	for _, s := range with {
		if found(s) {
			tp++
		}
	}
	for _, s := range without {
		if found(s) {
			fp++
		}
	}
	pr := PR{NoPrecision: tp+fp == 0, NoRecall: len(with) == 0}
	if tp+fp > 0 {
		pr.Precision = float64(tp) / float64(tp+fp)
	}
	if len(with) > 0 {
		pr.Recall = float64(tp) / float64(len(with))
	}
	return pr
}
