package extracteval

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The DAnIEL corpus (news of 2011–2012 in English, Chinese, Russian,
// Greek and Polish, re-annotated for main-text extraction) keeps each page
// in html/<name> beside its reference text in reference/<name>, the files
// without an extension. A name is <yyyymmdd>_<host>_<hash>; a reference is
// the article's paragraphs, each in a <p> element.

// danielName matches a page's file name and captures its host.
var danielName = regexp.MustCompile(`^\d{8}_([A-Za-z0-9.-]+)_[0-9a-f]+$`)

// isDaniel reports whether dir holds html/ beside reference/.
func isDaniel(dir string) bool {
	return isDir(filepath.Join(dir, "html")) && isDir(filepath.Join(dir, "reference"))
}

// danielLanguages are the ISO 639-1 codes of the languages doc_lg.json
// names.
var danielLanguages = map[string]string{"English": "en", "Chinese": "zh", "Russian": "ru", "Greek": "el", "Polish": "pl"}

// addDaniel adds the pages of the DAnIEL layout: every reference with a
// page of the same name. The host in the name becomes the page's URL, so
// that its site, and its half of the split, is the publisher's; a name
// that does not follow the pattern is an error naming the file. The
// language doc_lg.json records for a page, if the file is there, is its
// Meta's.
func (ds *Dataset) addDaniel(dir string, keep map[string]bool) error {
	var langs map[string]string
	if p := filepath.Join(dir, "doc_lg.json"); isFile(p) {
		if err := readJSON(p, &langs); err != nil {
			return err
		}
	}
	refDir := filepath.Join(dir, "reference")
	entries, err := os.ReadDir(refDir)
	if err != nil {
		return fmt.Errorf("extracteval: dataset layout: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || len(keep) > 0 && !keep[name] {
			continue
		}
		m := danielName.FindStringSubmatch(name)
		if m == nil {
			return fmt.Errorf("extracteval: %s: not a page name <yyyymmdd>_<host>_<hash>", filepath.Join(refDir, name))
		}
		in := filepath.Join(dir, "html", name)
		if !isFile(in) {
			ds.MissingInput++
			continue
		}
		raw, err := os.ReadFile(filepath.Join(refDir, name))
		if err != nil {
			return err
		}
		page := Page{ID: name, InputPath: in, URL: "http://" + m[1] + "/", Gold: htmlText(decodeText(raw))}
		if lang := danielLanguages[langs[name]]; lang != "" {
			page.Meta = &Meta{Lang: lang}
		}
		ds.Pages = append(ds.Pages, page)
	}
	return nil
}
