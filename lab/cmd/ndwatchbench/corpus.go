package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/sentences"
)

// article is a source text: a headline and paragraphs.
type article struct {
	id    string
	title string
	paras []string
}

// readBBC reads the articles of the BBC News archive (bbc.tar.gz: a
// headline line, a blank line, paragraphs separated by blank lines), in
// path order.
func readBBC(file string) ([]article, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	tr := tar.NewReader(zr)
	var out []article
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if h.Typeflag != tar.TypeReg || path.Ext(h.Name) != ".txt" || strings.HasSuffix(h.Name, "README.TXT") {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, h.Name, err)
		}
		if !utf8.Valid(data) {
			data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		}
		var paras []string
		for _, p := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n\n") {
			if p = strings.Join(strings.Fields(p), " "); p != "" {
				paras = append(paras, p)
			}
		}
		if len(paras) < 3 {
			continue
		}
		out = append(out, article{id: h.Name, title: paras[0], paras: paras[1:]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no articles (want the BBC News bbc.tar.gz)", file)
	}
	return out, nil
}

// distinct leaves out every article that the default method or the
// sentence method finds a duplicate or similar to an earlier one, so that
// the pages made from different articles are truly unrelated: the
// archive holds re-published stories of its own.
func distinct(ctx context.Context, arts []article) ([]article, error) {
	docs := make([]neardup.Document, len(arts))
	for i, a := range arts {
		docs[i] = neardup.Document{ID: a.id, Title: a.title, Text: strings.Join(a.paras, "\n\n")}
	}
	drop := map[string]bool{}
	for _, m := range []neardup.MethodOptions{nil, sentences.Defaults()} {
		res, err := neardup.Dedup(ctx, docs, neardup.Options{Method: m})
		if err != nil {
			return nil, err
		}
		for _, p := range res.Pairs {
			drop[p.B] = true
		}
	}
	var out []article
	for _, a := range arts {
		if !drop[a.id] {
			out = append(out, a)
		}
	}
	return out, nil
}
