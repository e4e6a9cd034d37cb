package extracteval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// fundusMeta is a country folder's meta.info: each page file's URL.
type fundusMeta map[string]struct {
	URL string `json:"url"`
}

// fundusBody is the article body a publisher's parser gives for one of its
// versions: the summary (a standfirst) and the sections, each a headline
// and paragraphs.
type fundusBody struct {
	Summary  []string `json:"summary"`
	Sections []struct {
		Headline   []string `json:"headline"`
		Paragraphs []string `json:"paragraphs"`
	} `json:"sections"`
}

// text returns the body as the article's text: its parts in order, a
// blank line between them.
func (b fundusBody) text() string {
	parts := slices.Clone(b.Summary)
	for _, s := range b.Sections {
		parts = append(parts, s.Headline...)
		parts = append(parts, s.Paragraphs...)
	}
	return strings.Join(parts, "\n\n")
}

// isFundus reports whether dir is laid out as fundus's parser test data: a
// folder per country holding meta.info.
func isFundus(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*", "meta.info"))
	return len(m) > 0
}

// addFundus adds the pages of fundus's parser test data: in each country
// folder, <Publisher>.json maps each version of the publisher's parser to
// the article it gives, and <Publisher>_<yyyy>_<mm>_<dd>.html.gz are the
// pages, one per version, the oldest page for the oldest version
// (V1 < V1_1 < V2); meta.info gives each page's URL. A page's gold text is
// the body (summary, section headlines and paragraphs), without the title.
// Its id is <country>/<file name without .html.gz>.
func (ds *Dataset) addFundus(dir string, keep map[string]bool) error {
	metas, err := filepath.Glob(filepath.Join(dir, "*", "meta.info"))
	if err != nil {
		return err
	}
	slices.Sort(metas)
	for _, metaPath := range metas {
		country := filepath.Dir(metaPath)
		var meta fundusMeta
		if err := readJSON(metaPath, &meta); err != nil {
			return err
		}
		cases, err := filepath.Glob(filepath.Join(country, "*.json"))
		if err != nil {
			return err
		}
		slices.Sort(cases)
		for _, c := range cases {
			var versions map[string]struct {
				Body    *fundusBody `json:"body"`
				Title   string      `json:"title"`
				Authors []string    `json:"authors"`
				Date    string      `json:"publishing_date"`
			}
			if err := readJSON(c, &versions); err != nil {
				return err
			}
			publisher := strings.TrimSuffix(filepath.Base(c), ".json")
			pages, err := filepath.Glob(filepath.Join(country, publisher+"_*.html.gz"))
			if err != nil {
				return err
			}
			pages = slices.DeleteFunc(pages, func(p string) bool { return !isDate(strings.TrimPrefix(filepath.Base(p), publisher+"_")) })
			slices.Sort(pages) // by date: the names differ only there
			names := make([]string, 0, len(versions))
			for v := range versions {
				names = append(names, v)
			}
			slices.SortFunc(names, compareVersions)
			if len(names) != len(pages) {
				return fmt.Errorf("extracteval: %s: %d parser versions but %d pages", c, len(names), len(pages))
			}
			for i, p := range pages {
				file := filepath.Base(p)
				id := filepath.Base(country) + "/" + strings.TrimSuffix(file, ".html.gz")
				v := versions[names[i]]
				if len(keep) > 0 && !keep[id] || v.Body == nil || strings.TrimSpace(v.Body.text()) == "" {
					continue
				}
				ds.Pages = append(ds.Pages, Page{ID: id, InputPath: p, URL: meta[file].URL, Gold: v.Body.text(),
					Meta: &Meta{Title: v.Title, Authors: v.Authors, Published: v.Date}})
			}
		}
	}
	return nil
}

// isDate reports whether s is "yyyy_mm_dd.html.gz".
func isDate(s string) bool {
	d, ok := strings.CutSuffix(s, ".html.gz")
	if !ok || len(d) != len("2006_01_02") {
		return false
	}
	for i, r := range d {
		if i == 4 || i == 7 {
			if r != '_' {
				return false
			}
		} else if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// compareVersions orders parser versions "V1" < "V1_1" < "V2" < "V10" by
// their numbers.
func compareVersions(a, b string) int {
	num := func(v string) []int {
		var out []int
		for f := range strings.SplitSeq(strings.TrimPrefix(v, "V"), "_") {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
		return out
	}
	return slices.Compare(num(a), num(b))
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("extracteval: %s: %w", path, err)
	}
	return nil
}
