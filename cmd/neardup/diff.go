package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/diff"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/job"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/store"
)

// diffCmd is `neardup diff`: an aligned diff of two documents.
type diffCmd struct {
	A string `arg:"" name:"a" help:"First document: a text file (UTF-8, or converted from the charset detected or given with --charset), a file holding one document in any format neardup dedup reads (a JSON object, an HTML page whose article is extracted …; a file of no known name by its content: text that only starts with [, { or < is text), - for standard input, or an id with --corpus. --format says which format both documents are in."`
	B string `arg:"" name:"b" help:"Second document, like the first."`

	Corpus []string `sep:"none" placeholder:"INPUT" help:"Read A and B as document ids from this input (any input neardup dedup reads); repeatable, for the inputs of a run: they are read as neardup dedup reads the same inputs in the same order, so that A and B are the ids that run gave (d1/news.jsonl:1 for a record without an id, wire#2 under --on-duplicate-id rename). An index (a SQLite file neardup index add made, or a PostgreSQL URL), given alone: A and B are ids stored in it, diffed from their stored texts."`
	By     string   `default:"word" enum:"word,sentence,line" help:"Unit of comparison: ${enum}."`
	Color  string   `default:"auto" enum:"auto,always,never" help:"Colour the text format: ${enum} (auto: when standard output is a terminal and NO_COLOR is unset)."`
	JSON   bool     `name:"json" xor:"output" help:"Write the diff as JSON instead of text."`
	HTML   bool     `name:"html" xor:"output" help:"Write the diff as a self-contained side-by-side HTML page instead of text."`

	formatFlags

	IDCol    string `name:"id-col" default:"id" help:"With --corpus: field or column holding the document id."`
	TitleCol string `name:"title-col" default:"title" help:"With --corpus: field or column holding the title."`
	TextCol  string `name:"text-col" default:"text" help:"With --corpus: field or column holding the body text."`

	OnDuplicateID string `name:"on-duplicate-id" default:"fail" enum:"fail,skip,rename" help:"With --corpus: ids as neardup dedup --on-duplicate-id gave them: fail (an id two records hold names neither), skip (the first of them), rename (the first; the later ones are ID#2, ID#3 ...)."`
	IDScope       string `name:"id-scope" default:"run" enum:"run,file" help:"With --corpus: ids as neardup dedup --id-scope gave them: run, or file (FILE#ID, FILE the file's path relative to the directory holding its input, as neardup dedup names it whether the input was given by an absolute or a relative path)."`

	readFlags
}

// diffOptions is what runDiff needs.
type diffOptions struct {
	corpora []string       // the inputs, as dedup is given them; none: A and B are files
	read    corpus.Options // how to read the corpus
	ids     job.IDNamer    // how the corpus's documents are named
	by      diff.By
	color   bool
	format  string    // text, html or json
	out     io.Writer // the diff
	info    io.Writer // overlap summary for html and json; nil: none
	warn    io.Writer // warnings (an incomplete alignment); nil: none
	stdin   io.Reader // what a document named "-" reads
	reading []string  // the reading flags on the command line (--format …), which an index refuses
}

// readingFlags are the flags that say how an input is read: an index's
// stored documents are diffed as stored, and refuse them.
var readingFlags = []string{"format", "charset", "id-col", "title-col", "text-col", "on-duplicate-id", "id-scope",
	"max-bytes", "max-inflate", "max-ratio", "rules"}

// Run turns the flags into diff options.
func (c *diffCmd) Run(g *globals, kctx *kong.Context) error {
	by, err := diff.ParseBy(c.By)
	if err != nil {
		return usageError{err.Error()}
	}
	o := diffOptions{corpora: c.Corpus, by: by, format: "text", out: os.Stdout, stdin: os.Stdin, warn: os.Stderr,
		read: corpus.Options{IDField: c.IDCol, TitleField: c.TitleCol, TextField: c.TextCol, SinglePass: true, Exclude: output.Earlier},
		ids:  job.IDNamer{Scope: c.IDScope, OnDuplicate: c.OnDuplicateID}}
	for _, name := range readingFlags {
		if onCommandLine(kctx, name) {
			o.reading = append(o.reading, "--"+name)
		}
	}
	c.formatFlags.apply(&o.read)
	if err := c.readFlags.apply(&o.read); err != nil {
		return err
	}
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
	given := o.corpora
	if len(given) == 0 {
		given = []string{a, b}
	}
	for _, p := range given {
		if len(o.corpora) > 0 && store.IsPostgres(p) {
			continue // an index, read by indexAmong
		}
		if err := givenInput(p); err != nil {
			return err
		}
	}
	index, err := indexAmong(o.corpora)
	if err != nil {
		return err
	}
	if index != "" && len(o.reading) > 0 {
		return usageError{fmt.Sprintf("diff: --corpus %s is an index, whose stored documents are diffed as stored, not read as an input: drop %s",
			shellWord(store.Redacted(index)), strings.Join(o.reading, ", "))}
	}
	switch {
	case index != "":
		docs, err = storedDocs(ctx, index, a, b)
	case len(o.corpora) > 0:
		docs, err = lookupDocs(ctx, o.corpora, o.read, o.ids, a, b)
	default:
		if a == "-" && b == "-" {
			return usageError{"diff: standard input (-) can hold one of the two documents, not both"}
		}
		docs[0], err = readDocFile(ctx, a, o.read, o.stdin)
		if err == nil {
			docs[1], err = readDocFile(ctx, b, o.read, o.stdin)
		}
	}
	if err != nil {
		return err
	}
	d := diff.Compare(docs[0].Text, docs[1].Text, diff.Options{By: o.by})
	d.A.ID, d.A.Title = docs[0].ID, docs[0].Title
	d.B.ID, d.B.Title = docs[1].ID, docs[1].Title
	if d.Incomplete && o.warn != nil {
		fmt.Fprintf(o.warn, "neardup: warning: %s and %s repeat their words too often to be aligned in full: "+
			"parts left unaligned show as replaced, and the overlap may be lower than what they share\n", diff.VisibleLine(d.A.ID), diff.VisibleLine(d.B.ID))
	}
	switch o.format {
	case "html":
		err = diff.WriteHTML(o.out, d)
	case "json":
		err = diff.WriteJSON(o.out, d)
	default:
		return diff.WriteText(o.out, d, diff.TextOptions{Color: o.color})
	}
	if err == nil && o.info != nil {
		fmt.Fprintf(o.info, "%s: %s of %s shared; %s: %s of %s shared\n",
			diff.VisibleLine(d.A.ID), diff.Percent(d.A.Overlap()), count(d.A.Words, "word", "words"),
			diff.VisibleLine(d.B.ID), diff.Percent(d.B.Overlap()), count(d.B.Words, "word", "words"))
	}
	return err
}

// indexAmong returns the index among the inputs of --corpus, "" when
// there is none: a PostgreSQL URL, or a SQLite file by its first bytes
// (an index, whatever its name), which neardup dedup would read as one
// binary document. An index is the documents' store, read alone: given
// with other inputs it is an error.
func indexAmong(corpora []string) (string, error) {
	var index string
	for _, p := range corpora {
		if store.IsPostgres(p) || sqliteFile(p) {
			index = p
			break
		}
	}
	if index != "" && len(corpora) > 1 {
		return "", usageError{fmt.Sprintf("diff: --corpus %s is an index, whose stored documents are diffed: give it alone",
			shellWord(store.Redacted(index)))}
	}
	return index, nil
}

// sqliteFile reports whether path names a regular file that starts as a
// SQLite database does.
func sqliteFile(path string) bool {
	if path == "-" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return false // a named pipe is read once, by the reader
	}
	var head [100]byte
	n, _ := io.ReadFull(f, head[:])
	return store.SQLiteHeader(head[:n])
}

// storedDocs reads the documents of ids a and b, with their texts, from
// the index at db (a SQLite file or a PostgreSQL URL), opened read-only as
// neardup index verify opens a damaged one: a diff writes nothing, neither
// upgrading an older schema (refused: open it once for writing) nor
// loading the sketches, so that an index of an older sketch format, which
// a query refuses, has its texts diffed. An index that stores no texts
// (--no-store-text) cannot be diffed, and says where the texts are.
func storedDocs(ctx context.Context, db string, a, b string) ([2]core.Document, error) {
	var docs [2]core.Document
	so := store.DefaultOptions()
	so.ReadOnly, so.Existing = true, true
	st, err := store.Open(ctx, db, so)
	if noIndex(err) {
		return docs, fmt.Errorf("%w (neardup index add creates one)", err)
	}
	if err != nil {
		return docs, err
	}
	defer st.Close()
	var missing []string
	err = st.View(ctx, func(r store.Reader) error {
		m, ok, err := r.Meta()
		if err != nil {
			return err
		}
		if ok && !m.StoreText {
			return fmt.Errorf("%s is an index that stores no texts (made with index add --no-store-text): "+
				"diff the documents from the inputs they were added from, neardup diff --corpus INPUT %s %s",
				store.Name(db), shellWord(a), shellWord(b))
		}
		for i, id := range [2]string{a, b} {
			d, err := r.Doc(id)
			if errors.Is(err, store.ErrNotFound) {
				missing = append(missing, strconv.Quote(id))
				continue
			}
			if err != nil {
				return err
			}
			docs[i] = core.Document{ID: d.ID, Title: d.Title, Text: d.Text}
		}
		return nil
	})
	if err != nil {
		return docs, err
	}
	if len(missing) > 0 {
		return docs, fmt.Errorf("no document with id %s in the index %s", strings.Join(missing, " or "), store.Name(db))
	}
	return docs, nil
}

// readDocFile reads the document a file holds, or stdin for "-". A text
// file (by --format txt, by its name, or a file of no known name that is
// no JSON, page or other format, see plainText) is the document whole, its
// first line too (where dedup takes it for the title), its path the id; so
// is one compressed or in an archive (a.txt.gz, gzipped standard input, a
// zip holding a.txt alone: ro.TextWhole), as the reader finds it, in
// ro.Charset or UTF-8 or converted from the charset detected as neardup
// dedup converts a text file, and refused when larger than ro.MaxBytes as
// dedup skips it; any other file is read as neardup dedup reads it (an
// HTML page's article, a JSON object's fields, a feed's item …, in the
// format ro.Format names if any) and must hold exactly one document.
func readDocFile(ctx context.Context, path string, ro corpus.Options, stdin io.Reader) (core.Document, error) {
	// At most limit+1 bytes are read here, so that a file too large is
	// refused without being held: a text file over the limit is, and any
	// other file is read on by the reader, with its own bounds.
	limit := cmp.Or(ro.MaxBytes, corpus.DefaultMaxBytes)
	// Standard input, or a named pipe, that waits for input gives up
	// when ctx ends (a signal).
	stdin = container.Interruptible(ctx, stdin)
	in := stdin
	if path != "-" {
		f, err := container.OpenInterruptible(ctx, path)
		if err != nil {
			return core.Document{}, err
		}
		defer f.Close()
		in = container.Interruptible(ctx, f)
	}
	data, err := io.ReadAll(io.LimitReader(in, int64(limit)+1))
	if err != nil {
		return core.Document{}, err
	}
	if plainText(path, data, ro.Format) {
		if len(data) > limit {
			return core.Document{}, fmt.Errorf("%s cannot be compared: too large: over %d bytes (--max-bytes)", path, limit)
		}
		text, err := corpus.DecodeText(data, ro.Charset)
		if err != nil {
			return core.Document{}, fmt.Errorf("%s: %w", path, err)
		}
		return core.Document{ID: path, Text: text}, nil
	}
	ro.Extract.MinChars = -1 // a short page is compared all the same
	ro.TextWhole = true      // a compressed text file, or an archive's, as the file itself
	var r *corpus.Reader
	if path == "-" {
		r, err = corpus.OpenReader(path, io.MultiReader(bytes.NewReader(data), stdin), ro)
	} else {
		r, err = corpus.Open([]string{path}, ro)
	}
	if err != nil {
		return core.Document{}, err
	}
	defer r.Close()
	r.StopWith(ctx)
	var docs []core.Document
	var skipped error
	for {
		if err := ctx.Err(); err != nil {
			return core.Document{}, err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return core.Document{}, err
		}
		if rec.Skip != core.SkipNone {
			skipped = cmp.Or(skipped, rec.Err)
			continue
		}
		docs = append(docs, rec.Doc)
	}
	switch {
	case len(docs) == 1:
		return docs[0], nil
	case len(docs) > 1:
		return core.Document{}, fmt.Errorf("%s holds %d documents: compare two of them with neardup diff --corpus %s ID ID", path, len(docs), path)
	case skipped != nil:
		return core.Document{}, fmt.Errorf("%s cannot be compared: %w", path, skipped)
	}
	return core.Document{}, fmt.Errorf("%s holds no document", path)
}

// plainText reports whether a file is compared as plain text: no
// compressed file or archive by its content, whatever its name says (the
// reader reads what it holds, a text file whole, see readDocFile), and by
// --format txt; without --format, a .txt or .md file, or one of no known
// name (and standard input) that is not of another format by its content:
// no other format of a magic number, no JSON (a
// value that parses whole, or a first line that does, JSON Lines) and no
// HTML page. Text that merely starts with "[", "{" or "<" ("[UPDATE 1]
// Shares rose") is text.
func plainText(path string, data []byte, format string) bool {
	switch container.Magic(data) {
	case container.Gzip, container.Zstd, container.Bzip2, container.Zip, container.Tar,
		container.XZ, container.SevenZip, container.RAR:
		return false // what it holds is read, or it is refused, as by dedup
	}
	if format != "" {
		return format == container.Text.String()
	}
	switch container.ByName(path) {
	case container.Text, container.Markdown:
		return true
	case container.Unknown:
		t := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\ufeff")), " \t\r\n")
		switch {
		case len(t) == 0:
			return true
		case container.Magic(t) != container.Unknown:
			return false
		case t[0] == '{' || t[0] == '[':
			line, _, _ := bytes.Cut(t, []byte("\n"))
			return !json.Valid(t) && !json.Valid(line)
		case t[0] == '<':
			return !extract.LooksHTML(t, "") && !container.IsSitemap(t)
		}
		return true
	}
	return false
}

// lookupDocs reads the inputs at paths, in their order, for the documents
// with ids a and b, named as neardup dedup named the documents of the same
// inputs: a record without an id of its own by its origin relative to the
// inputs (corpus.Open), and as ids names them (as neardup dedup's
// --id-scope and --on-duplicate-id did). It reads them whole: under
// --on-duplicate-id fail, an id that two records hold names neither, as
// neardup dedup refuses to tell them apart.
func lookupDocs(ctx context.Context, paths []string, ro corpus.Options, ids job.IDNamer, a, b string) ([2]core.Document, error) {
	var docs [2]core.Document
	path := strings.Join(paths, ", ") // for the errors
	ro.Extract.MinChars = -1          // a short page is compared all the same, as one given by its file is
	r, err := corpus.Open(paths, ro)
	if err != nil {
		return docs, err
	}
	defer r.Close()
	r.StopWith(ctx) // a signal ends a wait for standard input or a named pipe too
	ids.Reader = r
	found := [2]bool{}
	var skipped [2]*corpus.Record // a record of the id that cannot be compared
	repeats := map[string]bool{}  // ids that repeat in the corpus
	unread, firstUnread := 0, ""  // malformed records, whose own ids were not read
	for {
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
		id, kept, repeat := ids.Name(&rec)
		if repeat {
			repeats[id] = true
		}
		if rec.Skip == core.SkipMalformed { // named by its place: its own id not read
			if unread++; firstUnread == "" {
				firstUnread = rec.Doc.Origin
			}
		}
		for i, want := range [2]string{a, b} {
			switch {
			case id != want:
				continue
			case rec.Skip != core.SkipNone:
				if skipped[i] == nil {
					skipped[i] = &rec
				}
			case !kept:
			case found[i]:
				return docs, fmt.Errorf("id %q repeats in %s (%s and %s): which of the two is meant cannot be told "+
					"(--on-duplicate-id rename or skip names them as neardup dedup did)", id, path, docs[i].Origin, rec.Doc.Origin)
			default:
				rec.Doc.ID = id
				docs[i], found[i] = rec.Doc, true
			}
		}
	}
	var missing []string
	hint := ""
	for i, id := range [2]string{a, b} {
		switch {
		case found[i]:
		case skipped[i] != nil:
			return docs, fmt.Errorf("document %q in %s cannot be compared (%s): %w", id, path, skipped[i].Skip, skipped[i].Err)
		default:
			missing = append(missing, fmt.Sprintf("%q", id))
			if base, ok := renamedFrom(id); ok && repeats[base] && ids.OnDuplicate != job.DuplicateRename && hint == "" {
				hint = fmt.Sprintf(" (%q repeats in it: the %s that neardup dedup --on-duplicate-id rename gave is found with the same flag)", base, id)
			}
		}
	}
	if len(missing) > 0 && unread > 0 && hint == "" {
		hint = fmt.Sprintf(" (%s not read, malformed, the first at %s: it may be one of them)", count(unread, "record", "records"), firstUnread)
	}
	if len(missing) > 0 {
		return docs, fmt.Errorf("no document with id %s in %s%s", strings.Join(missing, " or "), path, hint)
	}
	return docs, nil
}

// renamedFrom returns the id that --on-duplicate-id rename renamed to id,
// ID for ID#2, ID#3 ...; ok is false for an id of another form.
func renamedFrom(id string) (base string, ok bool) {
	i := strings.LastIndexByte(id, '#')
	if i <= 0 {
		return "", false
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n < 2 || strconv.Itoa(n) != id[i+1:] {
		return "", false
	}
	return id[:i], true
}
