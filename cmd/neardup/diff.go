package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/diff"
)

// diffCmd is `neardup diff`: an aligned diff of two documents.
type diffCmd struct {
	A string `arg:"" name:"a" help:"First document: a text file, a JSON object file with title and text, or an id with --corpus."`
	B string `arg:"" name:"b" help:"Second document, like the first."`

	Corpus string `help:"Read A and B as document ids from this corpus (any input neardup dedup reads)."`
	By     string `default:"word" enum:"word,sentence,line" help:"Unit of comparison: ${enum}."`
	Color  string `default:"auto" enum:"auto,always,never" help:"Colour the text format: ${enum} (auto: when standard output is a terminal and NO_COLOR is unset)."`
	JSON   bool   `name:"json" xor:"output" help:"Write the diff as JSON instead of text."`
	HTML   bool   `name:"html" xor:"output" help:"Write the diff as a self-contained side-by-side HTML page instead of text."`

	IDCol    string `name:"id-col" default:"id" help:"With --corpus: field or column holding the document id."`
	TitleCol string `name:"title-col" default:"title" help:"With --corpus: field or column holding the title."`
	TextCol  string `name:"text-col" default:"text" help:"With --corpus: field or column holding the body text."`
}

// diffOptions is what runDiff needs.
type diffOptions struct {
	corpus string         // empty: A and B are files
	read   corpus.Options // how to read the corpus
	by     diff.By
	color  bool
	format string    // text, html or json
	out    io.Writer // the diff
	info   io.Writer // overlap summary for html and json; nil: none
}

// Run turns the flags into diff options.
func (c *diffCmd) Run(g *globals) error {
	by, err := diff.ParseBy(c.By)
	if err != nil {
		return usageError{err.Error()}
	}
	o := diffOptions{corpus: c.Corpus, by: by, format: "text", out: os.Stdout,
		read: corpus.Options{IDField: c.IDCol, TitleField: c.TitleCol, TextField: c.TextCol, SinglePass: true}}
	switch {
	case c.JSON:
		o.format = "json"
	case c.HTML:
		o.format = "html"
	}
	switch c.Color {
	case "always":
		o.color = true
	case "auto":
		o.color = isTerminal(os.Stdout) && os.Getenv("NO_COLOR") == ""
	}
	if !g.quiet {
		o.info = os.Stderr
	}
	return runDiff(g.ctx, o, c.A, c.B)
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runDiff compares documents a and b and writes the diff to o.out.
func runDiff(ctx context.Context, o diffOptions, a, b string) error {
	var docs [2]core.Document
	var err error
	if o.corpus != "" {
		docs, err = lookupDocs(ctx, o.corpus, o.read, a, b)
	} else {
		docs[0], err = readDocFile(a)
		if err == nil {
			docs[1], err = readDocFile(b)
		}
	}
	if err != nil {
		return err
	}
	d := diff.Compare(docs[0].Text, docs[1].Text, diff.Options{By: o.by})
	d.A.ID, d.A.Title = docs[0].ID, docs[0].Title
	d.B.ID, d.B.Title = docs[1].ID, docs[1].Title
	switch o.format {
	case "html":
		err = diff.WriteHTML(o.out, d)
	case "json":
		err = diff.WriteJSON(o.out, d)
	default:
		return diff.WriteText(o.out, d, diff.TextOptions{Color: o.color})
	}
	if err == nil && o.info != nil {
		fmt.Fprintf(o.info, "%s: %.1f%% of %d words shared; %s: %.1f%% of %d words shared\n",
			d.A.ID, 100*d.A.Overlap(), d.A.Words, d.B.ID, 100*d.B.Overlap(), d.B.Words)
	}
	return err
}

// readDocFile reads a document from a file: a JSON object with a text field
// (and optionally id and title), or else the whole file as plain text. The
// document's id is its path unless the object gives one.
func readDocFile(path string) (core.Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return core.Document{}, err
	}
	doc := core.Document{ID: path, Text: string(data)}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		var obj struct {
			ID    json.RawMessage `json:"id"`
			Title string          `json:"title"`
			Text  *string         `json:"text"`
		}
		if err := json.Unmarshal(trimmed, &obj); err != nil {
			return doc, fmt.Errorf("%s: looks like a JSON object but is not one: %w", path, err)
		}
		if obj.Text == nil {
			return doc, fmt.Errorf("%s: JSON object has no \"text\" field", path)
		}
		doc.Title, doc.Text = obj.Title, *obj.Text
		if id := jsonID(obj.ID); id != "" {
			doc.ID = id
		}
	}
	if !utf8.ValidString(doc.Text) || !utf8.ValidString(doc.Title) {
		return doc, fmt.Errorf("%s: not UTF-8 text", path)
	}
	return doc, nil
}

// jsonID returns a JSON string or number as an id, "" for anything else.
func jsonID(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// lookupDocs reads the corpus at path until it has found the documents with
// ids a and b; the first record with an id wins.
func lookupDocs(ctx context.Context, path string, ro corpus.Options, a, b string) ([2]core.Document, error) {
	var docs [2]core.Document
	r, err := corpus.Open([]string{path}, ro)
	if err != nil {
		return docs, err
	}
	defer r.Close()
	found := [2]bool{}
	for !found[0] || !found[1] {
		if err := ctx.Err(); err != nil {
			return docs, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return docs, err
		}
		for i, id := range [2]string{a, b} {
			if found[i] || rec.Doc.ID != id {
				continue
			}
			if rec.Skip != core.SkipNone {
				return docs, fmt.Errorf("document %q in %s cannot be compared (%s): %w", id, path, rec.Skip, rec.Err)
			}
			docs[i], found[i] = rec.Doc, true
		}
	}
	var missing []string
	for i, id := range [2]string{a, b} {
		if !found[i] {
			missing = append(missing, fmt.Sprintf("%q", id))
		}
	}
	if len(missing) > 0 {
		return docs, fmt.Errorf("no document with id %s in %s", strings.Join(missing, " or "), path)
	}
	return docs, nil
}
