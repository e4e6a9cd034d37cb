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

// Predictions is a System that looks pages up in a JSON-lines file of
// {"id": …, "text": …} records, such as `neardup extract` writes, instead
// of extracting them. A record matches a page when its id is the path of
// the page's input file (compared as absolute paths), or else when its id's
// file name is the page's id without folder, or else when that file name
// without extension is (each if only one record has that name: DAnIEL's
// files have no extension, and "20111103_www.express.gr_00432316" would
// lose ".gr_00432316" as one). A page without a record predicts empty text.
// Blank lines are skipped. An id given twice with one text is one record;
// with two texts it is an error naming both lines.
func Predictions(name, path string) (System, error) {
	f, err := os.Open(path)
	if err != nil {
		return System{}, err
	}
	defer f.Close()
	byPath := map[string]string{}
	byBase := map[string][]string{}
	byStem := map[string][]string{}
	type given struct {
		text string
		line int
	}
	seen := map[string]given{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct{ ID, Text string }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return System{}, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if first, ok := seen[rec.ID]; ok {
			if first.text != rec.Text {
				return System{}, fmt.Errorf("%s:%d: id %q given again, with another text than on line %d", path, line, rec.ID, first.line)
			}
			continue
		}
		seen[rec.ID] = given{rec.Text, line}
		if abs, err := filepath.Abs(rec.ID); err == nil {
			byPath[abs] = rec.Text
		}
		base := filepath.Base(rec.ID)
		byBase[base] = append(byBase[base], rec.Text)
		stem := stemOf(rec.ID)
		byStem[stem] = append(byStem[stem], rec.Text)
	}
	if err := sc.Err(); err != nil {
		return System{}, fmt.Errorf("reading %s: %w", path, err)
	}
	return System{Name: name, Extract: func(_ context.Context, in Input) (string, error) {
		if abs, err := filepath.Abs(in.Path); err == nil {
			if text, ok := byPath[abs]; ok {
				return text, nil
			}
		}
		if texts := byBase[filepath.Base(in.ID)]; len(texts) == 1 {
			return texts[0], nil
		}
		if texts := byStem[stemOf(in.ID)]; len(texts) == 1 {
			return texts[0], nil
		}
		return "", nil
	}}, nil
}

// stemOf returns the last path element of id without its extension.
func stemOf(id string) string {
	base := filepath.Base(id)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
