package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/extracteval"
	"github.com/neardup/neardup/lab/internal/gen"
)

// charsetEvalCmd is `ndlab charset-eval`: how pages and text files that
// declare no charset are read. Real texts are written in a single-byte
// charset, whole and cut short (their first line, their first 100 bytes),
// and each is read back as neardup reads a page (extract.ToUTF8) and as it
// reads a text file (corpus.DecodeText): right when it reads back the text
// written (in the charset written, or in one that reads its bytes alike).
type charsetEvalCmd struct {
	TGNews string `name:"tgnews" required:"" type:"existingfile" help:"A TSV of tgnews-thread-pairs (ru_train_pool.tsv): its titles and texts, written in Windows-1251 and in KOI8-R."`
	BBC    string `name:"bbc" required:"" type:"existingfile" help:"The BBC News archive (bbc.tar.gz): its stories, with curly quotes and dashes, written in Windows-1252."`
	Daniel string `name:"daniel" type:"existingdir" help:"The DAnIEL corpus (Corpus_daniel_v2.1): the reference texts of its Polish pages, written in Windows-1250 and in ISO-8859-2."`
}

// Run reads the texts and prints the table.
func (c *charsetEvalCmd) Run(g *globals) error {
	ru, err := tgnewsTexts(c.TGNews)
	if err != nil {
		return err
	}
	en, err := bbcTexts(c.BBC)
	if err != nil {
		return err
	}
	sets := []charsetSet{
		{"tgnews, Windows-1251", ru, charmap.Windows1251},
		{"tgnews, KOI8-R", ru, charmap.KOI8R},
		{"BBC, Windows-1252", en, charmap.Windows1252},
	}
	if c.Daniel != "" {
		pl, err := danielTexts(c.Daniel, "pl")
		if err != nil {
			return err
		}
		sets = append(sets,
			charsetSet{"DAnIEL pl, Windows-1250", pl, charmap.Windows1250},
			charsetSet{"DAnIEL pl, ISO-8859-2", pl, charmap.ISO8859_2})
	}
	return runCharsetEval(sets, os.Stdout)
}

// charsetSet is texts written in one charset.
type charsetSet struct {
	name  string
	texts [][2]string // title, text
	enc   encoding.Encoding
}

// charsetForms are the cuts of a text charset-eval writes: whole, its
// first line (a title), its first 100 bytes.
var charsetForms = []struct {
	name string
	cut  func(text string) string
}{
	{"whole", func(s string) string { return s }},
	{"first line", func(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }},
	{"100 bytes", func(s string) string { return string([]rune(s)[:min(len([]rune(s)), 100)]) }},
}

// runCharsetEval writes each text of each set, in each form (charsetForms),
// in its charset with no declaration, as a page and as a text file, reads
// them back, and prints per set and form the texts, how many are read
// right as a page and as a text file, and the charsets the others are read
// in. Only texts that hold a byte outside ASCII count: the others are read
// alike in any charset.
func runCharsetEval(sets []charsetSet, out io.Writer) error {
	tw := tabwriter.NewWriter(out, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tform\ttexts\tpage right\tpage read otherwise\ttext right\ttext read otherwise\t")
	for _, s := range sets {
		for _, f := range charsetForms {
			r, err := evalCharsetForm(s, f.cut)
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%s\t\n", s.name, f.name, r.texts,
				r.pageRight, tally(r.pageOther), r.textRight, tally(r.textOther))
		}
	}
	return tw.Flush()
}

// charsetResult counts a set's texts in one form, and those read right as
// a page and as a text file; the others by the charset they are read in.
type charsetResult struct {
	texts, pageRight, textRight int
	pageOther, textOther        map[string]int
}

// evalCharsetForm writes the texts of s cut by cut and reads them back.
func evalCharsetForm(s charsetSet, cut func(string) string) (charsetResult, error) {
	enc := encoding.ReplaceUnsupported(s.enc.NewEncoder())
	r := charsetResult{pageOther: map[string]int{}, textOther: map[string]int{}}
	for _, t := range s.texts {
		title, body, _ := strings.Cut(cut(t[0]+"\n"+t[1]), "\n")
		text, err := enc.String(title + "\n" + body)
		if err != nil {
			return r, err
		}
		if !strings.ContainsFunc(text, func(c rune) bool { return c >= 0x80 }) {
			continue
		}
		r.texts++
		page := "<html><head><title>" + html.EscapeString(title) + "</title></head><body><article><h1>" +
			html.EscapeString(title) + "</h1><p>" + html.EscapeString(body) + "</p></article></body></html>"
		b, err := enc.Bytes([]byte(page))
		if err != nil {
			return r, err
		}
		if got, name, err := extract.ToUTF8(b, ""); err == nil && readAlike(s.enc, b, got) {
			r.pageRight++
		} else {
			r.pageOther[name]++
		}
		if got, err := corpus.DecodeText([]byte(text), ""); err == nil && readAlike(s.enc, []byte(text), []byte(got)) {
			r.textRight++
		} else {
			r.textOther[strings.ToLower(extract.DetectCharset([]byte(text), false))]++
		}
	}
	return r, nil
}

// readAlike reports whether got is b read in enc.
func readAlike(enc encoding.Encoding, b, got []byte) bool {
	want, err := enc.NewDecoder().Bytes(b)
	return err == nil && string(want) == string(got)
}

// tally writes counts by name: "windows-1252 3, iso-8859-2 1".
func tally(m map[string]int) string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%s %d", n, m[n]))
	}
	return strings.Join(out, ", ")
}

// tgnewsTexts reads the titles and texts of both articles of every pair of
// a tgnews-thread-pairs TSV (columns INPUT:first_title, INPUT:second_title,
// INPUT:first_text, INPUT:second_text).
func tgnewsTexts(path string) ([][2]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.FieldsPerRecord = '\t', -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := func(name string) int { return slices.Index(header, name) }
	t1, t2, x1, x2 := col("INPUT:first_title"), col("INPUT:second_title"), col("INPUT:first_text"), col("INPUT:second_text")
	if min(t1, t2, x1, x2) < 0 {
		return nil, fmt.Errorf("%s: want the columns INPUT:first_title, INPUT:second_title, INPUT:first_text and INPUT:second_text", path)
	}
	var out [][2]string
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(row) > max(t1, t2, x1, x2) {
			out = append(out, [2]string{row[t1], row[x1]}, [2]string{row[t2], row[x2]})
		}
	}
}

// danielTexts reads the reference texts of the DAnIEL corpus's pages in a
// language (its ISO 639-1 code): each text's first line (paragraph) as its
// title, the rest as its text.
func danielTexts(dir, lang string) ([][2]string, error) {
	ds, err := extracteval.Open(dir, extracteval.OpenOptions{})
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, p := range ds.Pages {
		if p.Meta == nil || p.Meta.Lang != lang {
			continue
		}
		title, text, _ := strings.Cut(strings.TrimSpace(p.Gold), "\n")
		out = append(out, [2]string{title, strings.TrimSpace(text)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no reference texts in language %q", dir, lang)
	}
	return out, nil
}

// bbcTexts reads the stories of the BBC archive (gen.LoadBBC), whose
// straight apostrophes and spaced hyphens become the curly apostrophes and
// dashes that make a Windows-1252 page hold bytes outside ASCII.
func bbcTexts(path string) ([][2]string, error) {
	bases, err := gen.LoadBBC(path)
	if err != nil {
		return nil, err
	}
	curly := strings.NewReplacer("'", "\u2019", " - ", " \u2013 ")
	out := make([][2]string, len(bases))
	for i, b := range bases {
		out[i] = [2]string{b.Title, curly.Replace(b.Text)}
	}
	return out, nil
}
