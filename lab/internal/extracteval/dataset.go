package extracteval

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/net/html/charset"
)

// Dataset is a folder of pages with gold text: input/<id>.html (or .htm)
// beside GoldStandard/<id>.txt. Only ids with a gold file are pages.
type Dataset struct {
	// Name labels the dataset in tables.
	Name string
	// Dir is the folder the dataset was opened from.
	Dir string
	// Pages are in id order.
	Pages []Page
	// MissingInput counts gold files without an input page; they are not
	// in Pages.
	MissingInput int
}

// Page is one input page and its cleaned gold text, or the snippets its
// text must and must not hold.
type Page struct {
	ID        string
	InputPath string
	Gold      string
	// URL is the page's address when the dataset lists it apart from the
	// page (the snippet layout), else empty.
	URL string
	// Meta is the page's title, authors and date when the dataset records
	// them (fundus, WCXB), else nil.
	Meta *Meta
	// With and Without, in the snippet layout, are passages the article
	// text must hold and must not hold; the page is then scored by them
	// (ScoreSnippets), not by Gold.
	With, Without []string
}

// Snippets reports whether the page is scored by snippets.
func (p Page) Snippets() bool { return len(p.With)+len(p.Without) > 0 }

// Score scores a prediction for the page: by the shingle metric against
// its gold text, or by its snippets.
func (p Page) Score(pred string) PR {
	if p.Snippets() {
		return ScoreSnippets(p.With, p.Without, pred)
	}
	return Score(p.Gold, pred)
}

// OpenOptions restrict and name a dataset. The zero value takes every page
// and names the dataset after its folder.
type OpenOptions struct {
	// Name labels the dataset; empty means the folder's base name.
	Name string
	// IDs, when not empty, keeps only these ids (e.g. a test split).
	IDs []string
}

// Open reads the gold files of the dataset in dir. dir is the folder that
// holds input/ and GoldStandard/, or a folder of such folders (CleanEval's
// dev and final sets side by side), whose pages then have ids
// "<subfolder>/<id>". Two other layouts are read too: html/<id>.html beside
// txt/<id>.txt (newspaper4k's test pages), and evaldata.json beside eval/
// (trafilatura's evaluation pages: a JSON object mapping each page's URL
// to its file in eval/ and the snippets its text must and must not hold),
// and ground-truth/<id>.json beside html/<id>.html.gz (WCXB, the Web
// Content eXtraction Benchmark: each JSON holds the page's URL, its type
// and its main content; only the pages typed "article" are taken),
// fundus's parser test data (addFundus), html/<name> beside
// reference/<name> (the DAnIEL corpus: addDaniel), the Article Extraction
// Benchmark's ground-truth.json beside html/ (addArticleBench), and a
// subset's folder of the combined layout, <root>/html/<subset> beside
// <root>/ground-truth/<subset>.jsonl (addCombined).
func Open(dir string, opts OpenOptions) (*Dataset, error) {
	name := opts.Name
	if name == "" {
		name = filepath.Base(filepath.Clean(dir))
	}
	keep := make(map[string]bool, len(opts.IDs))
	for _, id := range opts.IDs {
		keep[id] = true
	}
	ds := &Dataset{Name: name, Dir: dir}
	var err error
	truth := combinedTruth(dir)
	subsets := combinedSubsets(dir)
	switch {
	case isArticleBench(dir):
		err = ds.addArticleBench(dir, keep)
	case truth != "":
		err = ds.addCombined(dir, truth, keep)
	case len(subsets) > 0:
		return nil, fmt.Errorf("extracteval: %s holds the combined layout's subsets (%s): give one subset's folder, %s",
			dir, strings.Join(subsets, ", "), filepath.Join(dir, "html", subsets[0]))
	case isFile(filepath.Join(dir, "evaldata.json")):
		err = ds.addSnippets(dir, keep)
	case isDir(filepath.Join(dir, "html")) && isDir(filepath.Join(dir, "ground-truth")):
		err = ds.addWCXB(dir, keep)
	case isFundus(dir):
		err = ds.addFundus(dir, keep)
	case isDaniel(dir):
		err = ds.addDaniel(dir, keep)
	case isDir(filepath.Join(dir, "html")) && isDir(filepath.Join(dir, "txt")):
		err = ds.addFolders(filepath.Join(dir, "html"), filepath.Join(dir, "txt"), "", keep)
	default:
		err = ds.addParts(dir, keep)
	}
	if err != nil {
		return nil, err
	}
	if len(ds.Pages) == 0 {
		return nil, fmt.Errorf("extracteval: no page with gold text and input in %s", dir)
	}
	return ds, nil
}

// addParts adds the pages of the input/ + GoldStandard/ layout.
func (ds *Dataset) addParts(dir string, keep map[string]bool) error {
	parts, err := layoutParts(dir)
	if err != nil {
		return err
	}
	for _, part := range parts {
		d := filepath.Join(dir, part)
		if err := ds.addFolders(filepath.Join(d, "input"), filepath.Join(d, "GoldStandard"), part, keep); err != nil {
			return err
		}
	}
	return nil
}

// layoutParts returns "" when dir itself holds input/, else the names of
// its subfolders that do.
func layoutParts(dir string) ([]string, error) {
	if isDir(filepath.Join(dir, "input")) {
		return []string{""}, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("extracteval: dataset layout: %w", err)
	}
	var parts []string
	for _, e := range entries {
		if e.IsDir() && isDir(filepath.Join(dir, e.Name(), "input")) {
			parts = append(parts, e.Name())
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("extracteval: dataset layout: no input/ folder in %s or its subfolders", dir)
	}
	return parts, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// addFolders appends the pages of a folder of pages beside a folder of gold
// texts of the same names, their ids prefixed with part.
func (ds *Dataset) addFolders(inputDir, goldDir, part string, keep map[string]bool) error {
	inputs, err := stems(inputDir, ".html", ".htm")
	if err != nil {
		return err
	}
	golds, err := stems(goldDir, ".txt")
	if err != nil {
		return err
	}
	for _, stem := range sortedKeys(golds) {
		id := path.Join(part, stem)
		if len(keep) > 0 && !keep[id] && !keep[stem] {
			continue
		}
		in, ok := inputs[stem]
		if !ok {
			ds.MissingInput++
			continue
		}
		raw, err := os.ReadFile(golds[stem])
		if err != nil {
			return err
		}
		ds.Pages = append(ds.Pages, Page{ID: id, InputPath: in, Gold: CleanGold(raw)})
	}
	return nil
}

// stems maps each file's name without extension to its path, for files in
// dir ending in one of exts.
func stems(dir string, exts ...string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("extracteval: dataset layout: %w", err)
	}
	m := make(map[string]string, len(entries))
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		for _, want := range exts {
			if !e.IsDir() && strings.EqualFold(ext, want) {
				m[strings.TrimSuffix(e.Name(), ext)] = filepath.Join(dir, e.Name())
			}
		}
	}
	return m, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ReadIDs reads a split file: one id per line, blank lines ignored.
func ReadIDs(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if id := strings.TrimSpace(sc.Text()); id != "" {
			ids = append(ids, id)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(ids) == 0 {
		return nil, errors.New("extracteval: empty id list " + path)
	}
	return ids, nil
}

// Input is one page handed to a System.
type Input struct {
	// ID is the page's id in the dataset.
	ID string
	// Path is the input file the page was read from.
	Path string
	// URL is the page's address when the dataset records it, else empty.
	URL string
	// ContentType is a Content-Type header value carrying the charset the
	// dataset records for the page, else empty.
	ContentType string
	// Body is the page's HTML as stored.
	Body []byte
}

var envelopeAttr = regexp.MustCompile(`(\w+)="([^"]*)"`)

// ReadInput reads a page. A CleanEval envelope line
// (<text id="URL" title="..." encoding="...">) is removed from the body; its
// id becomes the URL and a known encoding becomes the charset; the closing
// </text> is removed too.
func ReadInput(p Page) (Input, error) {
	body, err := os.ReadFile(p.InputPath)
	if err != nil {
		return Input{}, err
	}
	if strings.HasSuffix(p.InputPath, ".gz") {
		if body, err = gunzip(body); err != nil {
			return Input{}, fmt.Errorf("extracteval: %s: %w", p.InputPath, err)
		}
	}
	in := Input{ID: p.ID, Path: p.InputPath, URL: p.URL, Body: body}
	if !bytes.HasPrefix(body, []byte("<text ")) {
		return in, nil
	}
	end := bytes.IndexByte(body, '>')
	if end < 0 {
		return in, nil
	}
	for _, m := range envelopeAttr.FindAllSubmatch(body[:end], -1) {
		switch string(m[1]) {
		case "id":
			in.URL = string(m[2])
		case "encoding":
			if enc, name := charset.Lookup(string(m[2])); enc != nil {
				in.ContentType = "text/html; charset=" + name
			}
		}
	}
	body = bytes.TrimRight(body[end+1:], " \t\r\n")
	in.Body = bytes.TrimSuffix(bytes.TrimLeft(body, "\r\n"), []byte("</text>"))
	return in, nil
}
