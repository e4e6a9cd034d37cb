package extracteval

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// wcxbPage is the part of a WCXB ground-truth file the evaluation reads.
type wcxbPage struct {
	URL      string `json:"url"`
	Internal struct {
		PageType struct {
			Primary string `json:"primary"`
		} `json:"page_type"`
	} `json:"_internal"`
	GroundTruth struct {
		MainContent string `json:"main_content"`
		Title       string `json:"title"`
		Author      string `json:"author"`
		PublishDate string `json:"publish_date"`
	} `json:"ground_truth"`
}

// wcxbType is the page type taken from WCXB: news and blog articles, what
// neardup extracts; its product pages, forums, listings, collections,
// documentation and service pages are left out.
const wcxbType = "article"

// addWCXB adds the article pages of the WCXB layout: ground-truth/<id>.json
// beside html/<id>.html.gz. A page's gold text is its main content; ground
// truth without a page counts as MissingInput.
func (ds *Dataset) addWCXB(dir string, keep map[string]bool) error {
	golds, err := stems(filepath.Join(dir, "ground-truth"), ".json")
	if err != nil {
		return err
	}
	for _, id := range sortedKeys(golds) {
		if len(keep) > 0 && !keep[id] {
			continue
		}
		raw, err := os.ReadFile(golds[id])
		if err != nil {
			return err
		}
		var gt wcxbPage
		if err := json.Unmarshal(raw, &gt); err != nil {
			return fmt.Errorf("extracteval: %s: %w", golds[id], err)
		}
		if gt.Internal.PageType.Primary != wcxbType || strings.TrimSpace(gt.GroundTruth.MainContent) == "" {
			continue
		}
		in := filepath.Join(dir, "html", id+".html.gz")
		if !isFile(in) {
			ds.MissingInput++
			continue
		}
		m := &Meta{Title: gt.GroundTruth.Title, Published: gt.GroundTruth.PublishDate}
		if a := strings.TrimSpace(gt.GroundTruth.Author); a != "" {
			m.Authors = []string{a}
		}
		ds.Pages = append(ds.Pages, Page{ID: id, InputPath: in, URL: gt.URL, Gold: gt.GroundTruth.MainContent, Meta: m})
	}
	return nil
}

// maxGunzip bounds an inflated page (a gzip bomb stops there).
const maxGunzip = 64 << 20

// gunzip inflates a gzip-compressed page.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxGunzip+1))
	if err != nil {
		return nil, err
	}
	if len(out) > maxGunzip {
		return nil, fmt.Errorf("inflates past %d bytes", maxGunzip)
	}
	return out, nil
}
