package extracteval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Predictions is a System that looks the pages of ds up in a JSON-lines
// file of {"id": …, "text": …} records, such as `neardup extract` writes,
// instead of extracting them. A record matches a page when its id is the
// path of the page's input file (compared as absolute paths from the
// working directory); else when the id is that file's path relative to the
// dataset's folder (ds.Dir) or ends in it after a "/" (`neardup extract
// DIR/html` writes "html/a1.html.gz", relative to DIR); else when the id's
// file name is the page's id without folder or its input file's name; else
// when that file name without its compression extensions (.gz, .bz2, .xz,
// .zst, .br) and then one more extension is the page's id or input file
// name so shortened. Each rule takes a record only when no other record
// fits it as well (DAnIEL's files have no extension, and
// "20111103_www.express.gr_00432316" would lose ".gr_00432316" as one). A
// page without a record predicts empty text; missing lists the ids of
// those pages, in dataset order. Blank lines are skipped. An id given
// twice with one text is one record; with two texts it is an error naming
// both lines.
func Predictions(name, path string, ds *Dataset) (sys System, missing []string, err error) {
	recs, err := readPredictions(path)
	if err != nil {
		return System{}, nil, err
	}
	ix := indexPredictions(recs)
	dir, _ := filepath.Abs(ds.Dir)
	texts := make(map[string]string, len(ds.Pages))
	for _, p := range ds.Pages {
		if i, ok := ix.match(p, dir); ok {
			texts[p.ID] = recs[i].text
		} else {
			missing = append(missing, p.ID)
		}
	}
	return System{Name: name, Extract: func(_ context.Context, in Input) (string, error) {
		return texts[in.ID], nil
	}}, missing, nil
}

// predRecord is one distinct record of a predictions file.
type predRecord struct {
	id, text string
	line     int
}

// readPredictions reads the records of a predictions file in file order,
// an id given twice alike once.
func readPredictions(path string) ([]predRecord, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []predRecord
	seen := map[string]int{} // id → index in recs
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct{ ID, Text string }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if i, ok := seen[rec.ID]; ok {
			if recs[i].text != rec.Text {
				return nil, fmt.Errorf("%s:%d: id %q given again, with another text than on line %d", path, line, rec.ID, recs[i].line)
			}
			continue
		}
		seen[rec.ID] = len(recs)
		recs = append(recs, predRecord{rec.ID, rec.Text, line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return recs, nil
}

// predIndex finds records by the keys Predictions matches pages with; each
// key maps to the indexes of the records that have it.
type predIndex struct {
	byPath, bySuffix, byBase, byStem map[string][]int
}

func indexPredictions(recs []predRecord) predIndex {
	ix := predIndex{map[string][]int{}, map[string][]int{}, map[string][]int{}, map[string][]int{}}
	for i, r := range recs {
		if abs, err := filepath.Abs(r.id); err == nil {
			ix.byPath[abs] = append(ix.byPath[abs], i)
		}
		id := filepath.ToSlash(filepath.Clean(r.id))
		for suffix := id; ; {
			ix.bySuffix[suffix] = append(ix.bySuffix[suffix], i)
			_, rest, ok := strings.Cut(suffix, "/")
			if !ok || rest == "" {
				break
			}
			suffix = rest
		}
		base := filepath.Base(r.id)
		ix.byBase[base] = append(ix.byBase[base], i)
		stem := stemOf(r.id)
		ix.byStem[stem] = append(ix.byStem[stem], i)
	}
	return ix
}

// match returns the record of page p, whose dataset's folder is the
// absolute path dir, by the first of Predictions' rules that one record
// alone fits.
func (ix predIndex) match(p Page, dir string) (int, bool) {
	abs, err := filepath.Abs(p.InputPath)
	if err != nil {
		abs = p.InputPath
	}
	rel := ""
	if r, err := filepath.Rel(dir, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		rel = filepath.ToSlash(r)
	}
	for _, try := range []struct {
		m    map[string][]int
		keys []string
	}{
		{ix.byPath, []string{abs}},
		{ix.bySuffix, []string{rel}},
		{ix.byBase, []string{filepath.Base(p.ID), filepath.Base(p.InputPath)}},
		{ix.byStem, []string{stemOf(p.ID), stemOf(p.InputPath)}},
	} {
		for _, k := range try.keys {
			if recs := try.m[k]; k != "" && len(recs) == 1 {
				return recs[0], true
			}
		}
	}
	return 0, false
}

// compressions are the extensions of compressed files stemOf removes.
var compressions = []string{".gz", ".bz2", ".xz", ".zst", ".br"}

// stemOf returns the last path element of id without its compression
// extensions and then one more extension: "a1" of "html/a1.html.gz".
func stemOf(id string) string {
	base := filepath.Base(id)
	for trimmed := true; trimmed; {
		trimmed = false
		for _, ext := range compressions {
			if len(base) > len(ext) && strings.EqualFold(filepath.Ext(base), ext) {
				base, trimmed = base[:len(base)-len(ext)], true
			}
		}
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}
