package corpus

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/extract"
)

func TestDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"corpus/b.txt":          "B title\nb body",
		"corpus/a/z.md":         "# Z\nz body",
		"corpus/a/y.jsonl":      `{"text":"y"}`,
		"corpus/c.csv":          "text\nc\n",
		"corpus/d.tsv":          "text\nd\n",
		"corpus/e.jsonl.gz":     gz(t, `{"text":"e"}`),
		"corpus/f.zip":          zipOf(t, member{"in/g.txt", "G\ng body"}),
		"corpus/ignored.xml":    "<p>no</p>",
		"corpus/.hidden.txt":    "H\nh",
		"corpus/.git/x.txt":     "X\nx",
		"corpus/a/README":       "no extension",
		"corpus/sub/h.ndjson":   `{"text":"h"}`,
		"corpus/sub/i.MARKDOWN": "I\ni body",
	})
	t.Chdir(dir)
	got, err := readAll(t, []string{"corpus"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{
		{ID: "corpus/a/y.jsonl:1", Text: "y", Origin: "corpus/a/y.jsonl:1", Raw: `{"text":"y"}`},
		{ID: "corpus/a/z.md", Title: "Z", Text: "z body", Origin: "corpus/a/z.md", Raw: `{"id":"corpus/a/z.md","title":"Z","text":"z body"}`},
		{ID: "corpus/b.txt", Title: "B title", Text: "b body", Origin: "corpus/b.txt", Raw: `{"id":"corpus/b.txt","title":"B title","text":"b body"}`},
		{ID: "corpus/c.csv:2", Text: "c", Origin: "corpus/c.csv:2", Raw: `{"text":"c"}`},
		{ID: "corpus/d.tsv:2", Text: "d", Origin: "corpus/d.tsv:2", Raw: `{"text":"d"}`},
		{ID: "corpus/e.jsonl.gz:1", Text: "e", Origin: "corpus/e.jsonl.gz:1", Raw: `{"text":"e"}`},
		{ID: "corpus/f.zip/in/g.txt", Title: "G", Text: "g body", Origin: "corpus/f.zip/in/g.txt", Raw: `{"id":"corpus/f.zip/in/g.txt","title":"G","text":"g body"}`},
		{ID: "corpus/sub/h.ndjson:1", Text: "h", Origin: "corpus/sub/h.ndjson:1", Raw: `{"text":"h"}`},
		{ID: "corpus/sub/i.MARKDOWN", Title: "I", Text: "i body", Origin: "corpus/sub/i.MARKDOWN", Raw: `{"id":"corpus/sub/i.MARKDOWN","title":"I","text":"i body"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"empty/x.xml": "", "ok.txt": "a"})
	t.Chdir(dir)
	for _, tc := range []struct {
		name  string
		paths []string
		opts  Options
		want  string
	}{
		{"missing path", []string{"ok.txt", "nope.jsonl"}, Options{}, "nope.jsonl: no such file or directory"},
		{"stdin twice", []string{"-", "-"}, Options{}, "corpus: an input is given twice: standard input (-)"},
		{"unknown format", []string{"ok.txt"}, Options{Format: "xml"}, `corpus: unknown format "xml" (want jsonl, json, csv, tsv, parquet, txt, html, warc, sgml or feed)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := open(tc.paths, nil, tc.opts, config{stdin: strings.NewReader("")})
			if errString(err) != tc.want {
				t.Errorf("error %q, want %q", errString(err), tc.want)
			}
			// Standard input twice is an input given twice: a mistake in
			// the command line (exit 2), as a file given twice is.
			if tc.name == "stdin twice" && !errors.Is(err, ErrGivenTwice) {
				t.Errorf("error %v, want an ErrGivenTwice", err)
			}
		})
	}
}

// TestGivenTwiceByListing: a file that two paths given list (a directory
// and a file in it, or a directory and another holding a link to it) is
// an input given twice, refused before anything is read; a file inside a
// directory given that the directory's walk does not read (a name not
// read, a hidden file, an excluded one) is read once when given by its own
// path. Regression: a directory and a file in it read the file twice (its
// ids repeated, the run failed on them).
func TestGivenTwiceByListing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		link  [2]string // a symbolic link to make: from, to
		paths []string
		opts  Options
		want  string // the error, "" for a read of every record once
	}{
		{"a file in a directory given", nil, [2]string{}, []string{"in", "in/a.jsonl"}, Options{},
			"corpus: an input is given twice: in/a.jsonl, read from in and from in/a.jsonl"},
		{"a directory holding a file given", nil, [2]string{}, []string{"in/a.jsonl", "in"}, Options{},
			"corpus: an input is given twice: in/a.jsonl, read from in/a.jsonl and from in"},
		{"a directory linked in another given", map[string]string{"other/o.jsonl": `{"id":"o","text":"three"}` + "\n"},
			[2]string{"../other", "in/lnk"}, []string{"in", "other"}, Options{},
			"corpus: an input is given twice: in/lnk/o.jsonl, read from in and from other"},
		{"a name not read", map[string]string{"in/items": `{"id":"b","text":"two"}` + "\n"}, [2]string{},
			[]string{"in", "in/items"}, Options{}, ""},
		{"a hidden file", map[string]string{"in/.b.jsonl": `{"id":"b","text":"two"}` + "\n"}, [2]string{},
			[]string{"in", "in/.b.jsonl"}, Options{}, ""},
		{"an excluded file", map[string]string{"in/b.jsonl": `{"id":"b","text":"two"}` + "\n"}, [2]string{},
			[]string{"in", "in/b.jsonl"}, Options{Exclude: func(p string) bool { return p == "in/b.jsonl" }}, ""},
		// Two names of one file in one directory are that walk's own
		// matter, read as with the directory given alone: once, the
		// second name refused.
		{"a link beside its file, another input given", map[string]string{"x.jsonl": `{"id":"x","text":"two"}` + "\n"},
			[2]string{"a.jsonl", "in/latest.jsonl"}, []string{"in", "x.jsonl"}, Options{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"in/a.jsonl": `{"id":"a","text":"one"}` + "\n"}
			maps.Copy(files, tc.files)
			writeFiles(t, dir, files)
			if tc.link[0] != "" {
				if err := os.Symlink(tc.link[0], filepath.Join(dir, tc.link[1])); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			got, err := readAll(t, tc.paths, tc.opts, config{})
			switch {
			case tc.want != "":
				if !errors.Is(err, ErrGivenTwice) || err.Error() != tc.want {
					t.Errorf("error %v, want %q", err, tc.want)
				}
			case err != nil:
				t.Errorf("refused: %v", err)
			case tc.link[1] == "in/latest.jsonl" && (len(got) != 3 || got[1].Skip != "refused"):
				t.Errorf("%+v, want a.jsonl's record, its second name refused, and x.jsonl's", got)
			case tc.link[1] != "in/latest.jsonl" && len(got) != 2:
				t.Errorf("%d records, want 2, each once", len(got))
			}
		})
	}
}

// Regression (reviewer's finding): a directory given that holds no file
// to read (empty, or only files of names not read) failed the whole run,
// the other inputs unread. It is told (EmptyDirs), its files counted as not
// read, and the other inputs are read.
func TestDirectoryWithoutInputs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"feeds/site.xml": "<urlset/>", "feeds/logo.png": "x", "ok.txt": "a"})
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	r, err := open([]string{"empty", "ok.txt", "feeds"}, nil, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := drain(t, r)
	if err != nil || len(got) != 1 || got[0].ID != "ok.txt" {
		t.Errorf("records %+v, error %v; want ok.txt's", got, err)
	}
	exts := ".jsonl, .ndjson, .json, .csv, .tsv, .txt, .md, .markdown, .html, .htm, .warc, .sgm, .sgml, .rss, .atom, .gz, .tgz, .zst, .zstd, .tzst, .bz2, .tbz2, .tbz, .zip, .tar or .parquet"
	if diff := cmp.Diff([]string{"empty: no " + exts + " files", "feeds: no " + exts + " files"}, r.EmptyDirs()); diff != "" {
		t.Errorf("EmptyDirs (-want +got)\n%s", diff)
	}
	if n, _ := r.Unlisted(); n != 2 {
		t.Errorf("Unlisted %d, want 2 (site.xml, logo.png)", n)
	}
}

func TestGzip(t *testing.T) {
	jsonl := "{\"text\":\"a\"}\n{\"text\":\"b\"}\n{\"text\":\"c\"}\n"
	for _, tc := range []struct {
		name    string
		file    string
		content string
		want    []rec
		wantErr string
	}{
		{
			name:    "jsonl inside",
			file:    "x.jsonl.gz",
			content: gz(t, jsonl),
			want: []rec{
				{ID: "x.jsonl.gz:1", Text: "a", Origin: "x.jsonl.gz:1", Raw: `{"text":"a"}`},
				{ID: "x.jsonl.gz:2", Text: "b", Origin: "x.jsonl.gz:2", Raw: `{"text":"b"}`},
				{ID: "x.jsonl.gz:3", Text: "c", Origin: "x.jsonl.gz:3", Raw: `{"text":"c"}`},
			},
		},
		{
			name:    "concatenated members",
			file:    "x.txt.GZ",
			content: gz(t, "Title\n") + gz(t, "body"),
			want:    []rec{{ID: "x.txt.GZ", Title: "Title", Text: "body", Origin: "x.txt.GZ", Raw: `{"id":"x.txt.GZ","title":"Title","text":"body"}`}},
		},
		{
			name:    "csv inside, BOM",
			file:    "x.csv.gz",
			content: gz(t, "\ufefftext\nq\n"),
			want:    []rec{{ID: "x.csv.gz:2", Text: "q", Origin: "x.csv.gz:2", Raw: `{"text":"q"}`}},
		},
		{
			name:    "unknown inside is sniffed",
			file:    "x.gz",
			content: gz(t, "id\ttext\n1\tz\n"),
			want:    []rec{{ID: "1", Text: "z", Origin: "x.gz:2", Raw: `{"id":"1","text":"z"}`}},
		},
		{
			name:    "not gzip",
			file:    "x.jsonl.gz",
			content: "{\"text\":\"a\"}\n",
			wantErr: "reading x.jsonl.gz: gzip header: gzip: invalid header",
		},
		{ // a JSON Lines file cut short stops the run, wherever the cut falls
			name:    "empty",
			file:    "x.jsonl.gz",
			content: "",
			wantErr: "reading x.jsonl.gz: an empty file (0 bytes), not a complete gzip stream",
		},
		{
			name:    "cut in its header",
			file:    "x.jsonl.gz",
			content: gz(t, jsonl)[:5],
			wantErr: "reading x.jsonl.gz: not a complete gzip stream: it ends after 5 bytes, inside the gzip header",
		},
		{
			name:    "zip inside",
			file:    "x.zip.gz",
			content: gz(t, zipOf(t, member{"a.txt", "A\nbody"})),
			want:    []rec{{ID: "x.zip.gz/a.txt", Title: "A", Text: "body", Origin: "x.zip.gz/a.txt", Raw: `{"id":"x.zip.gz/a.txt","title":"A","text":"body"}`}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.content})
			t.Chdir(dir)
			got, err := readAll(t, []string{tc.file}, Options{}, config{})
			if errString(err) != tc.wantErr {
				t.Errorf("error %q, want %q", errString(err), tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestTruncatedGzip pins that a cut gzip stream is a fatal error saying how
// far reading got: the lines delivered, or the bytes of a text file.
func TestTruncatedGzip(t *testing.T) {
	content := strings.Repeat("{\"text\":\"line\"}\n", 2000)
	whole := gz(t, content)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"x.jsonl.gz": whole[:len(whole)-12],
		"x.txt.gz":   whole[:len(whole)-12],
	})
	t.Chdir(dir)
	got, err := readAll(t, []string{"x.jsonl.gz"}, Options{}, config{})
	m := regexp.MustCompile(`^reading x\.jsonl\.gz: unexpected EOF after line (\d+)$`).FindStringSubmatch(errString(err))
	if m == nil {
		t.Fatalf("error %q", errString(err))
	}
	if n, _ := strconv.Atoi(m[1]); n != len(got) || n >= 2000 {
		t.Errorf("error says line %s, %d records read of 2000", m[1], len(got))
	}
	_, err = readAll(t, []string{"x.txt.gz"}, Options{}, config{})
	m = regexp.MustCompile(`^reading x\.txt\.gz: unexpected EOF after (\d+) bytes$`).FindStringSubmatch(errString(err))
	if m == nil {
		t.Fatalf("error %q", errString(err))
	}
	if n, _ := strconv.Atoi(m[1]); n >= len(content) {
		t.Errorf("error says %d bytes of %d", n, len(content))
	}
}

// TestGzipStrayBytes is the regression test of a .jsonl.gz, .csv.gz or
// .txt.gz whose compressed stream is followed by stray bytes (zero padding
// from a tape or disk copy, a few junk bytes): reading stopped, "reading
// x.jsonl.gz: unexpected EOF after line 2" for a few bytes, "...: gzip:
// invalid header after line 2" for more, and so did dedup. gzip(1) reads
// such a file and warns "trailing garbage ignored". Now every record of the
// whole members is read, the next input too, and the file is counted with
// its bytes (StrayBytes), on the first pass only; a member cut short after
// a whole one stays an error naming the file.
func TestGzipStrayBytes(t *testing.T) {
	lines := "{\"text\":\"a\"}\n{\"text\":\"b\"}\n"
	after := rec{ID: "after.jsonl:1", Text: "next", Origin: "after.jsonl:1", Raw: `{"text":"next"}`}
	for _, tc := range []struct {
		name, file, content string
		want                []rec
		stray               string // what StrayBytes names first
		err                 string
	}{
		{"zero padding", "x.jsonl.gz", gz(t, lines) + strings.Repeat("\x00", 4096), []rec{
			{ID: "x.jsonl.gz:1", Text: "a", Origin: "x.jsonl.gz:1", Raw: `{"text":"a"}`},
			{ID: "x.jsonl.gz:2", Text: "b", Origin: "x.jsonl.gz:2", Raw: `{"text":"b"}`}, after}, "x.jsonl.gz, 4096 bytes", ""},
		{"a few junk bytes after two members", "x.csv.gz", gz(t, "id,text\n1,a\n") + gz(t, "2,b\n") + "junk", []rec{
			{ID: "1", Text: "a", Origin: "x.csv.gz:2", Raw: `{"id":"1","text":"a"}`},
			{ID: "2", Text: "b", Origin: "x.csv.gz:3", Raw: `{"id":"2","text":"b"}`}, after}, "x.csv.gz, 4 bytes", ""},
		{"a line end", "x.txt.gz", gz(t, "Title\nbody") + "\n", []rec{
			{ID: "x.txt.gz", Title: "Title", Text: "body", Origin: "x.txt.gz", Raw: `{"id":"x.txt.gz","title":"Title","text":"body"}`}, after},
			"x.txt.gz, 1 byte", ""},
		{"a second member cut short", "x.jsonl.gz", gz(t, lines) + gz(t, lines)[:12], []rec{
			{ID: "x.jsonl.gz:1", Text: "a", Origin: "x.jsonl.gz:1", Raw: `{"text":"a"}`},
			{ID: "x.jsonl.gz:2", Text: "b", Origin: "x.jsonl.gz:2", Raw: `{"text":"b"}`}}, "", "reading x.jsonl.gz: unexpected EOF after line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{tc.file: tc.content, "after.jsonl": `{"text":"next"}`})
			t.Chdir(dir)
			r, err := open([]string{tc.file, "after.jsonl"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for pass := 1; pass <= 2; pass++ {
				got, err := drain(t, r)
				if errString(err) != tc.err {
					t.Errorf("pass %d: error %q, want %q", pass, errString(err), tc.err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("pass %d: (-want +got)\n%s", pass, diff)
				}
				if n, first := r.StrayBytes(container.Gzip); first != tc.stray || n != min(len(tc.stray), 1) {
					t.Errorf("pass %d: StrayBytes() = %d, %q; want %q", pass, n, first, tc.stray)
				}
				if err := r.Rewind(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestZip(t *testing.T) {
	archive := zipOf(t,
		member{"b.txt", "B\nb body"},
		member{"dir/", ""},
		member{"a.jsonl", "{\"text\":\"one\"}\n\n{\"id\":\"x\",\"text\":\"two\"}\n"},
		member{"c.csv", "text\nthree\n"},
		member{"d.jsonl.gz", gz(t, `{"text":"four"}`)},
		member{"__MACOSX/._b.txt", "\x00\x05\x16\x07"},
		member{"dir/.DS_Store", "\x00\x00"},
		member{"e.xml", "<p>"},
		member{"inner.zip", zipOf(t, member{"z.txt", "Z\nz body"})},
	)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"news.zip": archive,
	})
	t.Chdir(dir)
	got, err := readAll(t, []string{"news.zip"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{
		{ID: "news.zip/b.txt", Title: "B", Text: "b body", Origin: "news.zip/b.txt", Raw: `{"id":"news.zip/b.txt","title":"B","text":"b body"}`},
		{ID: "news.zip/a.jsonl:1", Text: "one", Origin: "news.zip/a.jsonl:1", Raw: `{"text":"one"}`},
		{ID: "x", Text: "two", Origin: "news.zip/a.jsonl:3", Raw: `{"id":"x","text":"two"}`},
		{ID: "news.zip/c.csv:2", Text: "three", Origin: "news.zip/c.csv:2", Raw: `{"text":"three"}`},
		{ID: "news.zip/d.jsonl.gz:1", Text: "four", Origin: "news.zip/d.jsonl.gz:1", Raw: `{"text":"four"}`},
		{ID: "news.zip/inner.zip/z.txt", Title: "Z", Text: "z body", Origin: "news.zip/inner.zip/z.txt", Raw: `{"id":"news.zip/inner.zip/z.txt","title":"Z","text":"z body"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestSymlinkedFileInDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"real/a.txt": "A\na body"})
	if err := os.MkdirAll(filepath.Join(dir, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "real", "a.txt"), filepath.Join(dir, "corpus", "link.txt")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	t.Chdir(dir)
	got, err := readAll(t, []string{"corpus"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{{ID: "corpus/link.txt", Title: "A", Text: "a body", Origin: "corpus/link.txt", Raw: `{"id":"corpus/link.txt","title":"A","text":"a body"}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func tarOf(t *testing.T, ms ...member) string {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, m := range ms {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.content)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(m.content))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestTarGz pins that a .tar.gz of articles (as the BBC corpus comes) is
// read, member by member, ids qualified by the archive's path, so that the
// same archive under two names gives no repeated id; and that members
// whose names leave the archive are skipped records that say so.
func TestTarGz(t *testing.T) {
	archive := gz(t, tarOf(t,
		member{"bbc/business/001.txt", "Ad sales boost\n\nProfits rose."},
		member{"bbc/business/002.txt", "Dollar gains\n\nThe dollar rose."},
		member{"../evil.txt", "Evil\n\nEscapes."},
		member{"bbc/README.TXT.bak", "not read"},
	))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/bbc.tar.gz": archive, "b/bbc.tgz": archive})
	t.Chdir(dir)
	got, err := readAll(t, []string{"a/bbc.tar.gz", "b"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	// An id starts with the name of the input given (bbc.tar.gz, b);
	// the origin is the path as given.
	doc := func(id, origin, title, text string) rec {
		return rec{ID: id, Title: title, Text: text, Origin: origin,
			Raw: `{"id":"` + id + `","title":"` + title + `","text":"` + text + `"}`}
	}
	refused := func(id, origin, archive string) rec {
		return rec{ID: id, Origin: origin, Skip: "refused",
			Err: origin + `: ` + archive + `: refused: the member name "../evil.txt" is absolute or holds "..", which could leave the archive`}
	}
	want := []rec{
		doc("bbc.tar.gz/bbc/business/001.txt", "a/bbc.tar.gz/bbc/business/001.txt", "Ad sales boost", "Profits rose."),
		doc("bbc.tar.gz/bbc/business/002.txt", "a/bbc.tar.gz/bbc/business/002.txt", "Dollar gains", "The dollar rose."),
		refused("bbc.tar.gz/../evil.txt", "a/bbc.tar.gz/../evil.txt", "a/bbc.tar.gz"),
		doc("b/bbc.tgz/bbc/business/001.txt", "b/bbc.tgz/bbc/business/001.txt", "Ad sales boost", "Profits rose."),
		doc("b/bbc.tgz/bbc/business/002.txt", "b/bbc.tgz/bbc/business/002.txt", "Dollar gains", "The dollar rose."),
		refused("b/bbc.tgz/../evil.txt", "b/bbc.tgz/../evil.txt", "b/bbc.tgz"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestFormatOnly pins Options.FormatOnly, as the Beam pipeline reads its
// inputs (Format "jsonl"): the JSON Lines members of an archive are read,
// and one whose name says another format (a CSV file, a JSON array, a
// text file), which Format alone reads as JSON Lines, each line but a
// blank one a malformed record, is not read and counted as a file not read; a stream
// whose name says no format is read as JSON Lines.
func TestFormatOnly(t *testing.T) {
	line := `{"id":"a","text":"One story."}` + "\n"
	archive := gz(t, tarOf(t,
		member{"news/a.jsonl", line},
		member{"news/b.csv", "id,text\nb,Two stories.\n"},
		member{"news/c.json", `[{"id":"c","text":"Three."}]`},
		member{"news/d.txt", "Four\n\nA text."},
	))
	for _, only := range []bool{false, true} {
		r, err := OpenReader("in/news.tar.gz", strings.NewReader(archive), Options{Format: "jsonl", FormatOnly: only, SinglePass: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := drain(t, r)
		if err != nil {
			t.Fatal(err)
		}
		n, first := r.Unlisted()
		r.Close()
		var ids []string
		for _, g := range got {
			ids = append(ids, g.ID+" "+g.Skip)
		}
		want, wantN, wantFirst := []string{"a ", "news.tar.gz/news/b.csv:1 malformed", "news.tar.gz/news/b.csv:2 malformed",
			"news.tar.gz/news/c.json:1 malformed", "news.tar.gz/news/d.txt:1 malformed", "news.tar.gz/news/d.txt:3 malformed"}, 0, ""
		if only {
			want, wantN, wantFirst = []string{"a "}, 3, "in/news.tar.gz/news/b.csv"
		}
		if diff := cmp.Diff(want, ids); diff != "" || n != wantN || first != wantFirst {
			t.Errorf("FormatOnly %v: records (-want +got)\n%s\nfiles not read %d (%q), want %d (%q)", only, diff, n, first, wantN, wantFirst)
		}
	}
	// A stream whose name says no format is read as Format says.
	r, err := OpenReader("part-00000", strings.NewReader(line), Options{Format: "jsonl", FormatOnly: true, SinglePass: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := drain(t, r); err != nil || len(got) != 1 || got[0].ID != "a" {
		t.Errorf("part-00000: %v, %v; want the record a", got, err)
	}
}

// TestGzipCutInItsHeader pins the error of a gzip file that ends before
// its first member's header is whole, empty or cut there: an empty
// .html.gz said "unexpected EOF after 0 bytes" (of a page never read), and
// an empty .tar.gz blamed the tar archive ("tar archive: an empty file, no
// gzip header: unexpected EOF"). Now each says of the file, named as the
// Reader's other errors name it, that it is empty or not a complete gzip
// stream. It stops the run as before, a file of a directory too, after
// the records before it.
func TestGzipCutInItsHeader(t *testing.T) {
	page := gz(t, "<html><body><p>A page.</p></body></html>")
	for _, tc := range []struct {
		name, file, content string
		want                string
	}{
		{"empty html", "a.html.gz", "", "reading a.html.gz: an empty file (0 bytes), not a complete gzip stream"},
		{"empty tar", "a.tar.gz", "", "reading a.tar.gz: an empty file (0 bytes), not a complete gzip stream"},
		{"empty tgz", "a.tgz", "", "reading a.tgz: an empty file (0 bytes), not a complete gzip stream"},
		{"empty text", "a.txt.gz", "", "reading a.txt.gz: an empty file (0 bytes), not a complete gzip stream"},
		{"empty, of a tar archive", "a.tar", tarOf(t, member{"b.html.gz", ""}), "reading a.tar/b.html.gz: an empty file (0 bytes), not a complete gzip stream"},
		{"html cut in its header", "a.html.gz", page[:4], "reading a.html.gz: not a complete gzip stream: it ends after 4 bytes, inside the gzip header"},
		{"tar cut in its header", "a.tar.gz", page[:2], "reading a.tar.gz: not a complete gzip stream: it ends after 2 bytes, inside the gzip header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"in/0.txt": "Before\n\nRead first.", "in/" + tc.file: tc.content})
			t.Chdir(dir)
			got, err := readAll(t, []string{"in"}, Options{}, config{})
			want := "reading in/" + strings.TrimPrefix(tc.want, "reading ")
			if errString(err) != want || !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("error %q, want %q, wrapping io.ErrUnexpectedEOF", errString(err), want)
			}
			if len(got) != 1 || got[0].Text != "Read first." {
				t.Errorf("records %+v, want the one before it", got)
			}
		})
	}
}

// TestGzipBomb pins that a small gzip file inflating a thousand times its
// size is refused as a skipped record once past the ratio, not inflated to
// its end, and the next input is read.
func TestGzipBomb(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bomb.html.gz": gz(t, "<html><body><p>"+strings.Repeat(" ", 4<<20)),
		"ok.txt":       "T\nbody",
	})
	t.Chdir(dir)
	got, err := readAll(t, []string{"bomb.html.gz", "ok.txt"}, Options{Extract: extract.Options{MaxBytes: 64 << 20}}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Skip != "refused" || !strings.Contains(got[0].Err, "inflates to over 100 times its compressed size") || got[1].Text != "body" {
		t.Errorf("got %+v", got)
	}
}

// Files of one name in two inputs (d1/a.txt, d2/a.txt) are two documents
// with two ids: a whole file is named by its path as found.
func TestSameNamesInTwoInputs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"d1/a.txt": "One\nfirst body", "d2/a.txt": "Two\nsecond body"})
	t.Chdir(dir)
	for _, inputs := range [][]string{{"d1", "d2"}, {"d1/a.txt", "d2/a.txt"}} {
		got, err := readAll(t, inputs, Options{}, config{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != "d1/a.txt" || got[1].ID != "d2/a.txt" {
			t.Errorf("%v: %+v, want the ids d1/a.txt and d2/a.txt", inputs, got)
		}
	}
}

// TestOpenReaderNamed wants each of several inputs read apart, each with
// OpenReaderNamed and its name among them (container.IDNames), to name its
// records as Open names them reading them all: OpenReader named a record
// without an id by the input's base name alone, "x.jsonl:1" of both
// d1/x.jsonl and d2/x.jsonl (the Beam pipeline reads each input apart).
func TestOpenReaderNamed(t *testing.T) {
	dir := t.TempDir()
	line := `{"text":"A story without an id."}` + "\n"
	writeFiles(t, dir, map[string]string{"d1/x.jsonl": line + line, "d2/x.jsonl": line, "d2/a.txt": "A title\nA text."})
	t.Chdir(dir)
	inputs := []string{"d1/x.jsonl", "d2/x.jsonl", filepath.Join(dir, "d2", "a.txt")}
	want, err := readAll(t, inputs, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []rec
	for i, name := range container.IDNames(inputs) {
		b, err := os.ReadFile(inputs[i])
		if err != nil {
			t.Fatal(err)
		}
		r, err := OpenReaderNamed(inputs[i], name, bytes.NewReader(b), Options{SinglePass: true})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := drain(t, r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, recs...)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read apart (-read together +apart):\n%s", diff)
	}
	if len(got) != 4 || got[0].ID != "d1/x.jsonl:1" || got[2].ID != "d2/x.jsonl:1" || got[3].ID != "a.txt" {
		t.Errorf("ids %q, %q, %q; want d1/x.jsonl:1, d2/x.jsonl:1, a.txt", got[0].ID, got[2].ID, got[3].ID)
	}
}

// TestUnreachableFileInDirectory pins that a link to nothing in a
// directory is a record skipped as refused, naming it, and the other files
// are read; it used to stop the run before the first record.
func TestUnreachableFileInDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"corpus/a.txt": "A\na body", "corpus/c.txt": "C\nc body"})
	if err := os.Symlink("/nonexistent/b.txt", filepath.Join(dir, "corpus", "b.txt")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got, err := readAll(t, []string{"corpus"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{
		{ID: "corpus/a.txt", Title: "A", Text: "a body", Origin: "corpus/a.txt", Raw: `{"id":"corpus/a.txt","title":"A","text":"a body"}`},
		{ID: "corpus/b.txt", Origin: "corpus/b.txt", Skip: "refused", Err: "corpus/b.txt: stat corpus/b.txt: no such file or directory"},
		{ID: "corpus/c.txt", Title: "C", Text: "c body", Origin: "corpus/c.txt", Raw: `{"id":"corpus/c.txt","title":"C","text":"c body"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestFileReachedTwiceInOneInput pins the bug where a file reached twice
// in one directory's walk, by a symbolic link to it (latest.txt ->
// real/wire.txt) or a second hard link (b.txt of a.txt), was read twice and
// became its own duplicate. It is read once, by its own path rather than
// a link's wherever the walk meets them (so that its id does not move when
// the link is pointed elsewhere), of two hard links by the first met, and
// the other path is a record skipped as refused, naming the one read, as a
// directory walked already is.
func TestFileReachedTwiceInOneInput(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"corpus/a.txt": "A\na body", "corpus/real/wire.txt": "W\nwire", "corpus/real/unrelated.txt": "U\nother",
	})
	if err := os.Symlink("real/wire.txt", filepath.Join(dir, "corpus", "latest.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "corpus", "a.txt"), filepath.Join(dir, "corpus", "b.txt")); err != nil {
		t.Skip("no hard links:", err)
	}
	t.Chdir(dir)
	got, err := readAll(t, []string{"corpus"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(name, title, text string) rec {
		return rec{ID: "corpus/" + name, Title: title, Text: text, Origin: "corpus/" + name,
			Raw: `{"id":"corpus/` + name + `","title":"` + title + `","text":"` + text + `"}`}
	}
	refused := func(name, first string) rec {
		return rec{ID: "corpus/" + name, Origin: "corpus/" + name, Skip: "refused", Err: "corpus/" + name +
			": the file corpus/" + first + ", read already: not read again (a symbolic link to it, or a second hard link to one file)"}
	}
	want := []rec{
		doc("a.txt", "A", "a body"),
		refused("b.txt", "a.txt"),
		doc("real/wire.txt", "W", "wire"),
		doc("real/unrelated.txt", "U", "other"),
		refused("latest.txt", "real/wire.txt"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestFileNamesNotUTF8 pins the bug where the text files of a directory
// whose names are not UTF-8 (Latin-1 "été.txt", "étà.txt") were dropped as
// "field "id": invalid UTF-8", so that a run of them ended "no documents".
// They are read, each byte of the name that is not UTF-8 shown as \xHH in
// origin and id, the two names kept apart.
func TestFileNamesNotUTF8(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"d/\xe9t\xe9.txt": "Summer\nsun", "d/\xe9t\xe0.txt": "Winter\nsnow"})
	t.Chdir(dir)
	got, err := readAll(t, []string{"d"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{
		{ID: `d/\xe9t\xe0.txt`, Title: "Winter", Text: "snow", Origin: `d/\xe9t\xe0.txt`, Raw: `{"id":"d/\\xe9t\\xe0.txt","title":"Winter","text":"snow"}`},
		{ID: `d/\xe9t\xe9.txt`, Title: "Summer", Text: "sun", Origin: `d/\xe9t\xe9.txt`, Raw: `{"id":"d/\\xe9t\\xe9.txt","title":"Summer","text":"sun"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestFileNameLikeAnEscapeKeepsItsOwnID pins the bug where a file whose
// name holds the characters of the escape of a byte that is not UTF-8
// (`caf\xe9.txt`, as typed) got the id of the Latin-1 file "caf\xe9.txt"
// beside it, so that dedup stopped at an id repeated ("id
// "d/caf\\xe9.txt" repeats the id of d/caf\xe9.txt"), naming two files
// alike. The name that holds "\x" is written with its backslash doubled:
// each file has an id and an origin of its own.
func TestFileNameLikeAnEscapeKeepsItsOwnID(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{`d/caf\xe9.txt`: "Typed\nby hand", "d/caf\xe9.txt": "Latin\none"})
	t.Chdir(dir)
	got, err := readAll(t, []string{"d"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	want := []rec{
		{ID: `d/caf\\xe9.txt`, Title: "Typed", Text: "by hand", Origin: `d/caf\\xe9.txt`, Raw: `{"id":"d/caf\\\\xe9.txt","title":"Typed","text":"by hand"}`},
		{ID: `d/caf\xe9.txt`, Title: "Latin", Text: "one", Origin: `d/caf\xe9.txt`, Raw: `{"id":"d/caf\\xe9.txt","title":"Latin","text":"one"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestIDsEscapeTheWorkingDirectory is the regression test of ids that
// took the working directory's name raw: the paths given were escaped
// before container.IDNames made them absolute. In a directory named
// "cw\xe9" (Latin-1), "x.txt" read beside "../other/x.txt" had the id
// "cw\xe9/x.txt", not UTF-8, which dedup skipped (`field "id": invalid
// UTF-8`); in a directory named `caf\xe9` as typed, "x.txt" took the id of
// its Latin-1 twin's "x.txt".
func TestIDsEscapeTheWorkingDirectory(t *testing.T) {
	for _, tc := range []struct {
		name, cwd string
		paths     []string
		want      []string
	}{
		{"not UTF-8", "cw\xe9", []string{"x.txt", "../other/x.txt"}, []string{`cw\xe9/x.txt`, "other/x.txt"}},
		{"typed escape beside its Latin-1 twin", `caf\xe9`, []string{"x.txt", "../caf\xe9/x.txt"},
			[]string{`caf\\xe9/x.txt`, `caf\xe9/x.txt`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := os.MkdirTemp(t.TempDir(), "ids")
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, root, map[string]string{tc.cwd + "/x.txt": "Here\nbody", "other/x.txt": "There\nbody",
				"caf\xe9/x.txt": "Latin\nbody"})
			t.Chdir(filepath.Join(root, tc.cwd))
			got, err := readAll(t, tc.paths, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("ids (-want +got)\n%s", diff)
			}
		})
	}
}

// TestUnlistedNamedAsRead pins that a file not read for its name is named
// in files_not_read_example as a file read is (container.PathName), once:
// a name that holds "\x" with its backslash doubled, and an archive
// member's name not UTF-8, which the walk writes escaped, not escaped
// again.
func TestUnlistedNamedAsRead(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{`d/caf\xe9.png`: "x", "d/a.txt": "A\nbody"})
	t.Chdir(dir)
	r, err := open([]string{"d"}, nil, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, r)
	n, first := r.Unlisted()
	r.Close()
	if want := `d/caf\\xe9.png`; n != 1 || first != want {
		t.Errorf("directory: files not read %d (%q), want 1 (%q)", n, first, want)
	}
	r, err = OpenReader("t.tar", strings.NewReader(tarOf(t, member{"\xe9.png", "x"}, member{"a.txt", "A\nbody"})), Options{})
	if err != nil {
		t.Fatal(err)
	}
	drain(t, r)
	n, first = r.Unlisted()
	r.Close()
	if want := `t.tar/\xe9.png`; n != 1 || first != want {
		t.Errorf("tar: files not read %d (%q), want 1 (%q)", n, first, want)
	}
}

// TestFileNotOpenedInDirectory pins the bug where a file met in a
// directory that could not be opened (not readable, or gone since the
// directory was walked) stopped the whole run ("open d/b.jsonl: permission
// denied"), where a directory not readable is skipped: it is a record
// skipped as refused, naming it, and the other files are read. A file of
// mode 000 is readable to root, as CI runs; a link to itself is not.
func TestFileNotOpenedInDirectory(t *testing.T) {
	cases := []struct {
		name    string
		spoil   func(t *testing.T, path string) // makes path a file that cannot be opened
		wantErr string
	}{
		{"gone since the walk", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "corpus/b.jsonl: open corpus/b.jsonl: no such file or directory"},
		{"not readable", func(t *testing.T, path string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads a file of mode 000")
			}
			if err := os.Chmod(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "corpus/b.jsonl: open corpus/b.jsonl: permission denied"},
		{"a link to itself since the walk", func(t *testing.T, path string) {
			// Fails to open as root too, where mode 000 does not.
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Base(path), path); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
		}, "corpus/b.jsonl: open corpus/b.jsonl: too many levels of symbolic links"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"corpus/a.txt": "A\na body", "corpus/b.jsonl": "{\"text\":\"b\"}\n", "corpus/c.txt": "C\nc body"})
			t.Chdir(dir)
			r, err := open([]string{"corpus"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			tc.spoil(t, filepath.Join(dir, "corpus", "b.jsonl"))
			got, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			want := []rec{
				{ID: "corpus/a.txt", Title: "A", Text: "a body", Origin: "corpus/a.txt", Raw: `{"id":"corpus/a.txt","title":"A","text":"a body"}`},
				{ID: "corpus/b.jsonl", Origin: "corpus/b.jsonl", Skip: "refused", Err: tc.wantErr},
				{ID: "corpus/c.txt", Title: "C", Text: "c body", Origin: "corpus/c.txt", Raw: `{"id":"corpus/c.txt","title":"C","text":"c body"}`},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// Regression (reviewer's finding): a stream stopped part-way at a
// decompression bound was one refused record, the records of it not read
// counted nowhere and not said. The refusal says where reading stopped:
// after which record of which stream, the rest of it not read.
func TestRefusalPartWaySaysWhereReadingStopped(t *testing.T) {
	dir := t.TempDir()
	line := `{"id":"x","text":"Subscribe to our newsletter for the latest updates from the city desk."}` + "\n"
	writeFiles(t, dir, map[string]string{"news.jsonl.gz": gz(t, strings.Repeat(line, 40000))}) // 3.6 MiB from a few KiB
	got, err := readAll(t, []string{filepath.Join(dir, "news.jsonl.gz")}, Options{MaxRatio: 2}, config{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[len(got)-1].Skip != "refused" {
		t.Fatalf("got %d records, the last %+v; want records, then the refusal", len(got), got[len(got)-1])
	}
	read, last := len(got)-1, got[len(got)-1]
	want := fmt.Sprintf("; reading stopped after its record %d: the records up to there are read, the rest of it is not", read)
	if !strings.Contains(last.Err, "inflates to over 2 times") || !strings.Contains(last.Err, want) {
		t.Errorf("refusal %q, want it to say %q", last.Err, want)
	}
}
