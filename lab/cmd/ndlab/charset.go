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

	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/lab/internal/gen"
)

// charsetEvalCmd is `ndlab charset-eval`: how pages that declare no charset
// are read. Real texts are written as such pages in a single-byte charset,
// and each page is read back as neardup reads pages (extract.ToUTF8): in
// the charset it names, right when that is the charset written.
type charsetEvalCmd struct {
	TGNews string `name:"tgnews" required:"" type:"existingfile" help:"A TSV of tgnews-thread-pairs (ru_train_pool.tsv): its titles and texts, written in Windows-1251 and in KOI8-R."`
	BBC    string `name:"bbc" required:"" type:"existingfile" help:"The BBC News archive (bbc.tar.gz): its stories, with curly quotes and dashes, written in Windows-1252."`
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
	return runCharsetEval([]charsetSet{
		{"tgnews, Windows-1251", ru, charmap.Windows1251, "windows-1251"},
		{"tgnews, KOI8-R", ru, charmap.KOI8R, "koi8-r"},
		{"BBC, Windows-1252", en, charmap.Windows1252, "windows-1252"},
	}, os.Stdout)
}

// charsetSet is texts written in one charset, by the name ToUTF8 gives it.
type charsetSet struct {
	name  string
	texts [][2]string // title, text
	enc   encoding.Encoding
	want  string
}

// runCharsetEval writes each text of each set as a page in its charset with
// no declaration, reads it back, and prints per set the pages, how many are
// read in the charset written, and the charsets the others are read in.
// Only pages that hold a byte outside ASCII count: the others are read
// alike in any charset.
func runCharsetEval(sets []charsetSet, out io.Writer) error {
	tw := tabwriter.NewWriter(out, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "set\tpages\tread right\tread otherwise\t")
	for _, s := range sets {
		enc := encoding.ReplaceUnsupported(s.enc.NewEncoder())
		pages, right := 0, 0
		other := map[string]int{}
		for _, t := range s.texts {
			page := "<html><head><title>" + html.EscapeString(t[0]) + "</title></head><body><article><h1>" +
				html.EscapeString(t[0]) + "</h1><p>" + html.EscapeString(t[1]) + "</p></article></body></html>"
			b, err := enc.Bytes([]byte(page))
			if err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
			if !slices.ContainsFunc(b, func(c byte) bool { return c >= 0x80 }) {
				continue
			}
			pages++
			if _, name, err := extract.ToUTF8(b, ""); err == nil && name == s.want {
				right++
			} else {
				other[name]++
			}
		}
		var others []string
		for _, n := range slices.Sorted(maps.Keys(other)) {
			others = append(others, fmt.Sprintf("%s %d", n, other[n]))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", s.name, pages, right, strings.Join(others, ", "))
	}
	return tw.Flush()
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
