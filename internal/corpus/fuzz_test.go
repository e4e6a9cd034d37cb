package corpus

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// fuzzRead reads data as a stream called name, twice (the second pass after
// Rewind), and checks what every reader promises: no panic, an end, the
// same records on both passes, and usable records that are valid.
func fuzzRead(t *testing.T, name string, data []byte, small bool) {
	opts, cfg := Options{}, config{}
	if small { // reach the long-line and too-large paths with short inputs
		opts.MaxBytes, cfg.bufSize, cfg.slack = 24, 16, 16
	}
	readTwice(t, name, data, opts, cfg)
}

// readTwice reads data as a stream called name with opts and cfg, twice
// (the second pass after Rewind), and checks that the passes agree.
func readTwice(t *testing.T, name string, data []byte, opts Options, cfg config) {
	r, err := open(nil, &input{origin: name, id: name, stream: &onceEOF{r: bytes.NewReader(data)}, size: -1}, opts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, ferr := fuzzPass(t, r, len(data))
	if err := r.Rewind(); err != nil {
		t.Fatalf("Rewind: %v", err)
	}
	second, serr := fuzzPass(t, r, len(data))
	if diff := cmp.Diff(first, second); diff != "" || errString(ferr) != errString(serr) {
		t.Fatalf("passes differ: %v / %v (-first +second)\n%s", ferr, serr, diff)
	}
}

func fuzzPass(t *testing.T, r *Reader, size int) ([]rec, error) {
	var recs []rec
	for {
		rc, err := r.Next()
		if err != nil {
			if errString(err) == "EOF" {
				err = nil
			}
			return recs, err
		}
		if len(recs) > size+2 {
			t.Fatalf("more than %d records from %d bytes", size+2, size)
		}
		checkRecord(t, r, rc)
		recs = append(recs, flatten(rc))
	}
}

func checkRecord(t *testing.T, r *Reader, rc Record) {
	d := rc.Doc
	if (rc.Skip == "") != (rc.Err == nil) {
		t.Fatalf("%s: skip %q with error %v", d.Origin, rc.Skip, rc.Err)
	}
	if d.Origin == "" || d.ID == "" {
		t.Fatalf("record without origin or id: %+v", d)
	}
	if rc.Skip != "" {
		if !strings.HasPrefix(rc.Err.Error(), d.Origin+": ") {
			t.Fatalf("error %q does not start with the origin %q", rc.Err, d.Origin)
		}
		return
	}
	for _, s := range []string{d.ID, d.Title, d.Text, d.URL, d.Source} {
		if !utf8.ValidString(s) {
			t.Fatalf("%s: usable record with invalid UTF-8 %q", d.Origin, s)
		}
	}
	if strings.IndexByte(d.Title+d.Text, 0) >= 0 || isBlank(d.Text) || len(d.Title)+len(d.Text) > r.opts.MaxBytes {
		t.Fatalf("%s: usable record with NUL, no text or too large: %q %q", d.Origin, d.Title, d.Text)
	}
	if !json.Valid(d.Raw) || bytes.IndexByte(d.Raw, '\n') >= 0 {
		t.Fatalf("%s: Raw is not one line of JSON: %q", d.Origin, d.Raw)
	}
}

func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
}

func FuzzJSONL(f *testing.F) {
	addSeeds(f, "{\"id\":1,\"title\":\"t\",\"text\":\"a\\u00e9\"}\n\n{bad\r\n[1]\n",
		"\ufeff{\"text\":\"0123456789012345678901234567890\"}\n{\"text\":\" \"}",
		"{\"text\":\"\\u0000\",\"date\":\"2024-01-02\"}\n{\"text\":\"\xff\"}\n{\"id\":{},\"text\":\"x\"}")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f.jsonl", data, small) })
}

// FuzzJSONLPaths reads JSON Lines with fields named by dotted paths into
// nested objects, and one whose name is a dot or ends in one.
func FuzzJSONLPaths(f *testing.F) {
	addSeeds(f, "{\"a\":{\"b\":{\"text\":\"x\"},\"t\":\"T\"},\"id\":1}\n{\"a.b.text\":\"y\",\"a\":[1]}\n",
		"{\"a\":{\"b\":\"s\"},\"A\":{\"B\":{\"TEXT\":1}}}\n{\"a\":{\"b\":{\"text\":\"\\u00e9\"}}}\n{\".\":{\"\":\"z\"}}")
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		opts, cfg := Options{TextField: "a.b.text", TitleField: "a.t", IDField: "."}, config{}
		if small {
			opts.MaxBytes, cfg.bufSize, cfg.slack = 24, 16, 16
		}
		readTwice(t, "f.jsonl", data, opts, cfg)
	})
}

func FuzzJSON(f *testing.F) {
	addSeeds(f, "{\n  \"id\": \"a\",\n  \"text\": \"x\\\"}]\"\n}\n", "[{\"text\":\"a\"}, 1, [2], {\"text\": \"b\"}]",
		"{\"text\":\"a\"}\n{\"text\":", "[{\"text\":\"a\"},", "\ufeff[] {} \"s\" nul", "{\"text\":\"\xff\"}")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f.json", data, small) })
}

func FuzzFeed(f *testing.F) {
	addSeeds(f, "<rss><channel><title>T</title><item><title>a</title><description>&lt;p&gt;x&lt;/p&gt;</description></item></channel></rss>",
		"<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>1</id><content type=\"html\">&lt;b&gt;y</content></entry></feed>",
		"<rdf:RDF><item><link>/a</link></item></rdf:RDF>", "<rss><channel><item>", "<urlset/>")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f.rss", data, small) })
}

func FuzzCSV(f *testing.F) {
	addSeeds(f, "id,title,text\n1,t,\"a\nb\"\n2,\"x\"\"y\",z,extra\n\n3,t\n",
		"\ufeffText\r\n\"unclosed\r\nmore\r\n", "id\n1\n", "text\n\"a\" b\"\n\xff\x00\n",
		"id;text\n1;\"a;b\"\n2|x\n")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f.csv", data, small) })
}

func FuzzTSV(f *testing.F) {
	addSeeds(f, "id\ttitle\ttext\n1\tt\ta,b\n2\t\"q\"\tz\textra\n", "text\n\"a\tb\"\n")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f.tsv", data, small) })
}

func FuzzText(f *testing.F) {
	addSeeds(f, "Title\n\nbody\n", "\ufeff# md\r\nbody", "one line", "\n\n \n", "T\nab\x00", "\xff\nx",
		"---\ntitle: |\n  a\ndate: 2024-01-02\nsource: >-\n  s\nurl: u\n---\nbody", "---\ndate: someday\n...\nT\nbody")
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		fuzzRead(t, "f.txt", data, small)
		fuzzRead(t, "f.md", data, small)
	})
}

func FuzzSniff(f *testing.F) {
	addSeeds(f, "{\"text\":\"a\"}\n", "id,text\n1,a\n", "id\ttext\n1\ta\n", "Title\nbody", "\x00\x01", "[1]", "\x1f\x8b", "PK\x03\x04",
		"\xff\xfe{\x00\"\x00t\x00\"\x00:\x001\x00}\x00\n\x00", "\xfe\xff\x00i\x00d\x00,\x00t\x00e\x00x\x00t\x00\n\x001\x00,\x00a", "\xff\xfeT\x00\n\x00\x00")
	f.Fuzz(func(t *testing.T, data []byte, small bool) { fuzzRead(t, "f", data, small) })
}

// damage cuts data at cut (when below its length) and flips the byte at
// flip (likewise), as a truncated or corrupted download would.
func damage(data []byte, cut, flip uint16) []byte {
	data = bytes.Clone(data)
	if int(flip) < len(data) {
		data[flip] ^= 0x5a
	}
	if int(cut) < len(data) {
		data = data[:cut]
	}
	return data
}

func FuzzGzip(f *testing.F) {
	f.Add([]byte("{\"text\":\"a\"}\n{\"text\":\"b\"}\n"), uint16(30), uint16(999), false)
	f.Add([]byte("Title\nbody"), uint16(999), uint16(12), true)
	f.Add([]byte("id,text\n1,a\n"), uint16(999), uint16(999), false)
	f.Fuzz(func(t *testing.T, content []byte, cut, flip uint16, small bool) {
		data := damage([]byte(gz(t, string(content))), cut, flip)
		fuzzRead(t, "f.jsonl.gz", data, small)
		fuzzRead(t, "f.gz", data, small)
	})
}

func FuzzZip(f *testing.F) {
	f.Add([]byte("{\"text\":\"a\"}\n"), []byte("id,text\n1,a\n"), uint16(9999), uint16(9999), false)
	f.Add([]byte("Title\nbody"), []byte("text\n\"x"), uint16(60), uint16(9999), true)
	f.Add([]byte("{\"text\":\"a\"}\n"), []byte("x"), uint16(9999), uint16(40), false)
	f.Fuzz(func(t *testing.T, a, b []byte, cut, flip uint16, small bool) {
		archive := zipOf(t, member{"a.jsonl", string(a)}, member{"b.csv", string(b)}, member{"c.txt", string(a)}, member{"d.jsonl.gz", gz(t, string(b))})
		fuzzRead(t, "f.zip", damage([]byte(archive), cut, flip), small)
	})
}

// FuzzTar reads tar archives, plain and gzipped, of members named by the
// fuzzer (names leaving the archive among them), damaged as a download
// would be.
func FuzzTar(f *testing.F) {
	f.Add("a.jsonl", []byte("{\"text\":\"a\"}\n"), "../b.txt", []byte("T\nb"), uint16(9999), uint16(9999), false)
	f.Add("x/c.csv", []byte("id,text\n1,a\n"), "/abs.txt", []byte("x"), uint16(700), uint16(9999), true)
	f.Add("d.sgm", []byte("<REUTERS NEWID=\"1\"><BODY>b</BODY></REUTERS>"), "e.txt.gz", []byte("x"), uint16(9999), uint16(600), false)
	f.Fuzz(func(t *testing.T, name1 string, a []byte, name2 string, b []byte, cut, flip uint16, small bool) {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, m := range []member{{name1, string(a)}, {name2, string(b)}, {"in.zip", zipOf(t, member{"z.txt", string(a)})}} {
			if tw.WriteHeader(&tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.content)), Typeflag: tar.TypeReg}) != nil {
				return
			}
			tw.Write([]byte(m.content))
		}
		tw.Close()
		archive := damage(buf.Bytes(), cut, flip)
		fuzzRead(t, "f.tar", archive, small)
		fuzzRead(t, "f.tgz", []byte(gz(t, string(archive))), small)
	})
}
