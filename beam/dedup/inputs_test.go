package dedup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpandRefusesInputsNotRead wants Expand, where the pipeline is
// built, to refuse an input the pipeline would not read as the batch does,
// naming it: a file not there (it failed inside the runner, its name at
// the end of a long trace), a directory (the same), a file of another
// format by its name (each of its lines was a malformed record, and the
// job succeeded: a JSON array, an xz file, the BBC's .txt files in a
// 7z archive), a file given twice (each record was read twice and paired
// with itself), also under a second name, a hard link's (the paths alone
// were compared). A zip or tar archive is read, its JSON Lines members
// alone (TestArchiveMembersNotJSONLines).
func TestExpandRefusesInputsNotRead(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.jsonl", "b.jsonl.gz", "c.ndjson.zst", "d.json", "part-00000", "e.tar.gz",
		"g.zip", "h.tgz", "i.jsonl.bz2", "news.csv", "news.parquet", "news.tsv.gz", "reut2-000.sgm", "page.html",
		"more/f.jsonl", "arr.json.gz", "news.txt", "feed.rss", "crawl.warc.gz", "a.jsonl.xz", "news.tar.xz",
		"bbc.7z", "bbc.rar"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	if err := os.Link(in("a.jsonl"), in("hard.jsonl")); err != nil { // a second name of a.jsonl
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link") // to dir
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	t.Run("read", func(t *testing.T) {
		inputs := []string{in("a.jsonl"), in("b.jsonl.gz"), in("c.ndjson.zst"), in("part-00000"), in("e.tar.gz"),
			in("g.zip"), in("h.tgz"), in("i.jsonl.bz2"), in("more/*.jsonl")}
		files, err := Expand(context.Background(), inputs, "", Fields{})
		if err != nil || len(files) != len(inputs) {
			t.Fatalf("Expand(%q) = %q, %v; want the %d files", inputs, files, err, len(inputs))
		}
	})
	tests := []struct {
		name   string
		inputs []string
		usage  bool   // an *InputError
		want   string // in the message
	}{
		{"missing file", []string{in("a.jsonl"), in("nope.jsonl")}, false, "nope.jsonl: no such file"},
		{"directory", []string{in("more")}, true, "more: is a directory"},
		{"directory matched by a glob", []string{in("m*")}, true, "more: is a directory"},
		{"csv", []string{in("news.csv")}, true, "news.csv: is csv"},
		{"parquet", []string{in("news.parquet")}, true, "news.parquet: is parquet"},
		{"compressed tsv", []string{in("news.tsv.gz")}, true, "news.tsv.gz: is tsv"},
		{"sgml", []string{in("reut2-000.sgm")}, true, "is sgml"},
		{"html", []string{in("page.html")}, true, "is html"},
		{"json", []string{in("d.json")}, true, "d.json: is json by its name"},
		{"compressed json", []string{in("arr.json.gz")}, true, "arr.json.gz: is json"},
		{"text", []string{in("news.txt")}, true, "news.txt: is txt"},
		{"feed", []string{in("feed.rss")}, true, "feed.rss: is feed"},
		{"compressed warc", []string{in("crawl.warc.gz")}, true, "crawl.warc.gz: is warc"},
		{"xz", []string{in("a.jsonl.xz")}, true, "a.jsonl.xz: is xz-compressed, which is not read"},
		{"tar in xz", []string{in("news.tar.xz")}, true, "news.tar.xz: is xz-compressed"},
		{"7z", []string{in("bbc.7z")}, true, "bbc.7z: is a 7z archive"},
		{"rar", []string{in("bbc.rar")}, true, "bbc.rar: is a RAR archive"},
		{"given twice", []string{in("a.jsonl"), dir + "/./a.jsonl"}, true, "given twice"},
		{"given and matched", []string{in("more/f.jsonl"), in("more/*.jsonl")}, true, "given twice"},
		{"given through a link", []string{in("a.jsonl"), filepath.Join(link, "a.jsonl")}, true, "given twice"},
		{"given through a hard link", []string{in("a.jsonl"), in("hard.jsonl")}, true, "hard.jsonl: given twice (as " + in("a.jsonl") + " too)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Expand(context.Background(), tt.inputs, "", Fields{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Expand(%q) = %v, want an error saying %q", tt.inputs, err, tt.want)
			}
			var ie *InputError
			if got := errors.As(err, &ie); got != tt.usage {
				t.Errorf("Expand(%q) = %v: an InputError %v, want %v", tt.inputs, err, got, tt.usage)
			}
		})
	}
}

// TestExpandRefusesPipesAndDevices is the regression test of an input
// that is not a regular file: its first bytes, read to tell its format when
// its name says none, were gone when the job's workers read it again by its
// path (cat news.jsonl | neardup-beam dedup /dev/stdin read 2 of its 13
// records, exit 0), and a FIFO no process wrote into any more kept the job
// running for ever. Each is refused before the job starts, naming it and
// saying to write it to a file first; so is "-", standard input, which was
// "stat -: no such file or directory".
func TestExpandRefusesPipesAndDevices(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.WriteString(`{"id":"a","text":"one"}` + "\n")
	w.Close()
	pipe := fmt.Sprintf("/dev/fd/%d", r.Fd()) // as <(cat news.jsonl) names it
	tests := []struct {
		name, input, want string
	}{
		{"standard input", "-", "-: standard input is not read"},
		{"fifo", fifo, fifo + ": is not a regular file but a pipe or FIFO"},
		{"pipe by its /dev/fd name", pipe, pipe + ": is not a regular file but a pipe or FIFO"},
		{"device", os.DevNull, os.DevNull + ": is not a regular file but a character device"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Expand(context.Background(), []string{tt.input}, "", Fields{})
			var ie *InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), "write it to a file first") {
				t.Fatalf("Expand(%q) = %v; want an InputError %q..., saying to write it to a file first", tt.input, err, tt.want)
			}
		})
	}
}

// TestExpandRefusesByContent is the regression test of a file whose name
// says no format (Hive's 000000_0, Spark's part-00000) holding another
// format: a Parquet, WARC or RSS file was not read, the run a success
// warning of an "archive member" not read, and an HTML or CSV file was
// read as malformed JSON lines. Now each is refused before the pipeline
// starts, naming it and its format by its content as neardup dedup tells
// it; JSON Lines, an empty file and an archive are read.
func TestExpandRefusesByContent(t *testing.T) {
	dir := t.TempDir()
	line := `{"id":"a","text":"One story."}` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("PAR1\x15\x04\x15\x00\x00\x00"))
	zw.Close()
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	tw.WriteHeader(&tar.Header{Name: "a.jsonl", Mode: 0o644, Size: int64(len(line)), Typeflag: tar.TypeReg})
	tw.Write([]byte(line))
	tw.Close()
	files := map[string]string{
		"000000_0":      "PAR1\x15\x04\x15\x00\x00\x00",
		"part-00001":    "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n",
		"part-00002":    `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title></channel></rss>`,
		"part-00003":    "<!DOCTYPE html><html><head><title>A page</title></head><body><p>Text.</p></body></html>",
		"part-00004":    "id,title,text\na,A title,One story.\n",
		"part-00005.gz": gz.String(),
		"part-00006":    "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n",
		"part-00007":    "A title\n\nA story told in plain text.\n",
		"part-00008":    "[" + strings.TrimSpace(line) + "]",
		"part-00009":    "\x00\x01\x02binary",
		"part-00010":    line,
		"part-00011":    "",
		"part-00012":    tb.String(),
		"part-00013":    "\n\n" + line,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	read := []string{in("part-00010"), in("part-00011"), in("part-00012"), in("part-00013")}
	if got, err := Expand(context.Background(), read, "", Fields{}); err != nil || len(got) != len(read) {
		t.Errorf("Expand(%q) = %q, %v; want the %d files", read, got, err, len(read))
	}
	for _, tt := range []struct{ name, want string }{
		{"000000_0", "000000_0: is parquet by its content; the pipeline reads JSON Lines: write it as JSON Lines first: " +
			"neardup convert writes it as neardup dedup reads it"},
		{"part-00001", "part-00001: is warc by its content"},
		{"part-00002", "part-00002: is feed by its content"},
		{"part-00003", "part-00003: is html by its content"},
		{"part-00004", "part-00004: is csv by its content"},
		{"part-00005.gz", "part-00005.gz: is parquet by its content"},
		{"part-00006", "part-00006: is, by its content, a PDF document, which is not read: extract its text first"},
		{"part-00007", "part-00007: is text by its content (its first line is no JSON object)"},
		{"part-00008", "part-00008: is json by its content"},
		{"part-00009", "part-00009: is binary by its content"},
		{"part-0000[0-9]", "part-00001: is warc by its content"}, // a glob's file, in name order
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Expand(context.Background(), []string{in("part-00010"), in(tt.name)}, "", Fields{})
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Expand = %v; want an InputError saying %q", err, tt.want)
			}
		})
	}
	// CSV is told by the text column, as neardup dedup tells it.
	if _, err := Expand(context.Background(), []string{in("part-00004")}, "", Fields{Text: "body"}); err == nil ||
		!strings.Contains(err.Error(), "is text by its content") {
		t.Errorf("with the text column body: %v; want text", err)
	}
}

// TestArchiveMembersNotJSONLines is the regression test of an archive's
// members of other formats: the pipeline read every member as JSON Lines,
// a CSV file, a JSON array or a text file each a run of malformed records
// (the BBC's .tar.gz: 12,867 of them, and the job a success). Now it reads
// the JSON Lines members alone, and counts the others as files not read,
// as the batch counts a member it does not read (a .png), which the
// pipeline did not count: its results are the batch's of the archive
// without them, but that count.
func TestArchiveMembersNotJSONLines(t *testing.T) {
	dir := t.TempDir()
	jsonl, err := os.ReadFile(writeCorpus(t, dir, 300, 4)[0])
	if err != nil {
		t.Fatal(err)
	}
	png := "\x89PNG\r\n\x1a\n\x00\x00"
	archive := filepath.Join(dir, "in", "news.tar.gz")
	writeTarGz(t, archive, "news/a.jsonl", string(jsonl), "news/pic.png", png)
	batch := filepath.Join(t.TempDir(), "batch")
	runBatch(t, Options{Inputs: []string{archive}}, batch)

	writeTarGz(t, archive, "news/a.jsonl", string(jsonl), "news/b.csv", "id,text\nb,A story of its own.\n",
		"news/c.json", `[{"id": "c", "text": "Another story."}]`, "news/d.txt", "A title\n\nA text.\n", "news/pic.png", png)
	beamOut := filepath.Join(t.TempDir(), "beam")
	runPipeline(t, Options{Inputs: []string{archive}, Out: beamOut})
	for _, name := range []string{pairsFile, clustersFile, keptFile, removedFile, rejectsFile} {
		if want, got := readFile(t, batch, name), readFile(t, beamOut, name); !bytes.Equal(want, got) {
			t.Errorf("%s differs (-batch of the JSON Lines member +pipeline):\n%s", name, cmp.Diff(lines(want), lines(got)))
		}
	}
	want, got := counts(t, batch), counts(t, beamOut)
	if want["files_not_read"] != 1.0 || got["files_not_read"] != 4.0 {
		t.Errorf("files not read: batch %v, pipeline %v; want 1 (pic.png) and 4 (b.csv, c.json, d.txt, pic.png)",
			want["files_not_read"], got["files_not_read"])
	}
	if ex := filepath.Join(archive, "news/b.csv"); got["files_not_read_example"] != ex {
		t.Errorf("files not read: the pipeline's example is %v, want %s (the first by name)", got["files_not_read_example"], ex)
	}
	for _, k := range []string{"files_not_read", "files_not_read_example"} {
		delete(want, k)
		delete(got, k)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats.json differs (-batch of the JSON Lines member +pipeline):\n%s", diff)
	}
}

// writeTarGz writes a .tar.gz archive at p of the members named and their
// contents, in turn.
func writeTarGz(t *testing.T, p string, nameContent ...string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	for i := 0; i < len(nameContent); i += 2 {
		body := nameContent[i+1]
		if err := tw.WriteHeader(&tar.Header{Name: nameContent[i], Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := errors.Join(tw.Close(), zw.Close(), os.MkdirAll(filepath.Dir(p), 0o755)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIDsOfRecordsWithoutOne runs the batch and the pipeline on two files
// of one name in two directories, d1/x.jsonl and d2/x.jsonl, whose records
// have no id, and wants the same files: a record without an id is named
// by as many of its input's path elements as tell the inputs apart,
// "d1/x.jsonl:3", as the batch names it; the pipeline named it by the
// base name alone, "x.jsonl:3" in both files, two documents of one id.
func TestIDsOfRecordsWithoutOne(t *testing.T) {
	dir := t.TempDir()
	var inputs []string
	for i, p := range expand(t, writeCorpus(t, dir, 400, 5)) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, l := range bytes.SplitAfter(b, []byte("\n")) {
			var rec map[string]any
			if json.Unmarshal(l, &rec) == nil {
				delete(rec, "id")
				if l, err = json.Marshal(rec); err != nil {
					t.Fatal(err)
				}
				l = append(l, '\n')
			}
			out = append(out, l...)
		}
		in := filepath.Join(dir, fmt.Sprintf("d%d", i+1), "x.jsonl")
		if err := errors.Join(os.MkdirAll(filepath.Dir(in), 0o755), os.WriteFile(in, out, 0o644)); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, in)
	}
	o := Options{Inputs: inputs}
	batch := filepath.Join(t.TempDir(), "batch")
	runBatch(t, o, batch)
	o.Out = filepath.Join(t.TempDir(), "beam")
	runPipeline(t, o)
	for _, name := range []string{pairsFile, clustersFile, keptFile, removedFile, rejectsFile} {
		if want, got := readFile(t, batch, name), readFile(t, o.Out, name); !bytes.Equal(want, got) {
			t.Errorf("%s differs (-batch +pipeline):\n%s", name, cmp.Diff(lines(want), lines(got)))
		}
	}
	for _, id := range []string{`"d1/x.jsonl:`, `"d2/x.jsonl:`} {
		if !bytes.Contains(readFile(t, o.Out, pairsFile), []byte(id)) {
			t.Errorf("pairs.jsonl names no document %s...", id)
		}
	}
}

// TestUnreadDatesNamedAsTheBatchNamesThem is the regression test of the
// dates no layout reads: the pipeline counted them but named none, where
// the batch names the first it meets, so that a user can find the field
// to fix. The pipeline names the first of the first input that holds
// one, as the batch does, however the runner splits the inputs.
func TestUnreadDatesNamedAsTheBatchNamesThem(t *testing.T) {
	dir := t.TempDir()
	text := "The harbour authority said on Tuesday that the new pier would open in the spring, two years late. "
	var inputs []string
	for i, dates := range [][]string{{"2024-03-01", "2024-03-02"}, {"someday", "2024-03-03", "zz last week"}, {"aa soon"}} {
		var b strings.Builder
		for j, d := range dates {
			fmt.Fprintf(&b, `{"id":"d%d-%d","date":%q,"text":%q}`+"\n", i, j, d, strings.Repeat(text, 3)+fmt.Sprint(i, j))
		}
		p := filepath.Join(dir, fmt.Sprintf("in%d.jsonl", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	batch := filepath.Join(t.TempDir(), "batch")
	runBatch(t, Options{Inputs: inputs}, batch)
	beamOut := filepath.Join(t.TempDir(), "beam")
	runPipeline(t, Options{Inputs: inputs, Out: beamOut})
	want, got := counts(t, batch), counts(t, beamOut)
	if ex := `"someday" at ` + inputs[1] + ":1"; want["dates_not_read_example"] != ex {
		t.Errorf("the batch's example: %v, want %s", want["dates_not_read_example"], ex)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats.json differs (-batch +pipeline):\n%s", diff)
	}
}

// TestStrayBytesCountedAsTheBatchCounts: a .jsonl.gz whose compressed
// stream is followed by stray bytes (zero padding, junk) failed the
// pipeline, as it stopped the batch ("gzip: invalid header after line 2").
// Now both read every record and count the file in stats.json, naming the
// first of the first input that holds one, with its bytes, however the
// runner splits the inputs.
func TestStrayBytesCountedAsTheBatchCounts(t *testing.T) {
	dir := t.TempDir()
	text := "The harbour authority said on Tuesday that the new pier would open in the spring, two years late. "
	var inputs []string
	for i, tail := range []string{"", strings.Repeat("\x00", 700), "junk"} {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		for j := range 2 {
			fmt.Fprintf(zw, `{"id":"d%d-%d","text":%q}`+"\n", i, j, strings.Repeat(text, 3)+fmt.Sprint(i, j))
		}
		zw.Close()
		b.WriteString(tail)
		p := filepath.Join(dir, fmt.Sprintf("in%d.jsonl.gz", i))
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	batch := filepath.Join(t.TempDir(), "batch")
	runBatch(t, Options{Inputs: inputs}, batch)
	beamOut := filepath.Join(t.TempDir(), "beam")
	runPipeline(t, Options{Inputs: inputs, Out: beamOut})
	want, got := counts(t, batch), counts(t, beamOut)
	if want["gzip_files_with_stray_bytes"] != 2.0 || want["gzip_files_with_stray_bytes_example"] != inputs[1]+", 700 bytes" ||
		want["records_read"] != 6.0 {
		t.Errorf("the batch's counts: %v files with stray bytes (e.g. %v), %v records read; want 2 (e.g. %s, 700 bytes), 6",
			want["gzip_files_with_stray_bytes"], want["gzip_files_with_stray_bytes_example"], want["records_read"], inputs[1])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats.json differs (-batch +pipeline):\n%s", diff)
	}
}

// bz2Harbour is two JSON Lines records, ids z-0 and z-1, compressed by
// bzip2 (Go has no bzip2 writer).
const bz2Harbour = "425a6839314159265359e608fdd100013c5b80001050076010040036e5defa3000fa804928340683468683431800000000a548994f" +
	"51a69880304f0d57c2fb5c964bf164b99745d966b0ba2d5705b1485a6ae2f204cb4a0addc8b6266428c59aa06061850148b4585d56e5ecb9a" +
	"eab72c3c96a8e6be5765a2eebed68c2deb25d5611d9716cb45c0b0b65fab92deb72c2fe5917b2c9775aadcb92d96cbd56f5aac96f5e4b4585" +
	"9af0c2e0cd1b2c2e0b8af32d56cb8ad564c966b35b3c30ff177245385090e608fdd1"

// TestBzip2StrayBytesCountedApartAsTheBatchCounts: a .jsonl.bz2 whose
// last stream is followed by stray bytes was counted, by the batch and
// the pipeline, under gzip_files_with_stray_bytes, with the gzip files.
// Now both count it under bzip2_files_with_stray_bytes, naming it, and
// gzip_files_with_stray_bytes counts the gzip files alone.
func TestBzip2StrayBytesCountedApartAsTheBatchCounts(t *testing.T) {
	dir := t.TempDir()
	text := "The harbour authority said on Tuesday that the new pier would open in the spring, two years late. "
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintf(zw, `{"id":"d0","text":%q}`+"\n", strings.Repeat(text, 2)+"gzip")
	zw.Close()
	bz, err := hex.DecodeString(bz2Harbour)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []string{filepath.Join(dir, "in0.jsonl.gz"), filepath.Join(dir, "in1.jsonl.bz2")}
	os.WriteFile(inputs[0], append(gz.Bytes(), "junk"...), 0o644)
	os.WriteFile(inputs[1], append(bz, make([]byte, 700)...), 0o644)
	batch := filepath.Join(t.TempDir(), "batch")
	runBatch(t, Options{Inputs: inputs}, batch)
	beamOut := filepath.Join(t.TempDir(), "beam")
	runPipeline(t, Options{Inputs: inputs, Out: beamOut})
	want, got := counts(t, batch), counts(t, beamOut)
	stray := map[string]any{}
	for k, v := range want {
		if strings.Contains(k, "stray") {
			stray[k] = v
		}
	}
	if diff := cmp.Diff(map[string]any{
		"gzip_files_with_stray_bytes": 1.0, "gzip_files_with_stray_bytes_example": inputs[0] + ", 4 bytes",
		"bzip2_files_with_stray_bytes": 1.0, "bzip2_files_with_stray_bytes_example": inputs[1] + ", 700 bytes",
	}, stray); diff != "" {
		t.Errorf("the batch's counts of stray bytes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats.json differs (-batch +pipeline):\n%s", diff)
	}
}

// TestExpandGlobsAsAShell wants a glob to match what a shell's would and
// never the run's own files: not the hidden files (Spark's .crc files, the
// lock .out.lock of -o beside the inputs, which was refused as text, and
// with it the job), unless the glob's element starts with a dot; not the
// output directory, its result files or stage, which a second run into the
// directory its glob reads read as inputs. A name that is a file is that
// file, not a glob: a[1].jsonl was "matches no file", d?.jsonl read
// d1.jsonl too. A file given twice names the glob that matched it.
func TestExpandGlobsAsAShell(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	write := func(name string, data []byte) {
		if err := os.MkdirAll(filepath.Dir(in(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(in(name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := []byte(`{"id":"a","text":"x"}` + "\n")
	random := []byte("\x9b\x01\xe3Q\x7f\x00\x11\xfe\xa0\x02z\x8c\x91\x05\xc3\x04\xd2\x7f\x10\xee\x03\xb1\x06\x99")
	write("g/a.jsonl", doc)
	write("g/.a.jsonl.crc", random)
	write("g/.out.lock", random) // out's lock, taken before the inputs are listed
	write("g/out/pairs.jsonl", doc)
	write("o/a.jsonl", doc)
	write("o/b.jsonl", doc)
	for _, name := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "removed.jsonl", "rejects.jsonl",
		"stats.json", "pairs-00000-of-00002.jsonl", "kept.jsonl.tmp", stagePrefix + "1/pairs.jsonl"} {
		write("o/"+name, doc)
	}
	write("n/a[1].jsonl", doc)
	write("n/d?.jsonl", doc)
	write("n/d1.jsonl", doc)
	write("h/x/a.jsonl", doc)
	write("h/.git/b.jsonl", doc)
	for _, tt := range []struct {
		inputs []string
		out    string
		want   []string
	}{
		{[]string{in("g/*")}, in("g/out"), []string{in("g/a.jsonl")}},
		{[]string{in("g/.*.crc"), in("g/a.jsonl")}, "", nil}, // asked for: refused below
		{[]string{in("o/*")}, in("o"), []string{in("o/a.jsonl"), in("o/b.jsonl")}},
		{[]string{in("o/*.jsonl")}, in("o/"), []string{in("o/a.jsonl"), in("o/b.jsonl")}},
		{[]string{in("n/a[1].jsonl")}, "", []string{in("n/a[1].jsonl")}},
		{[]string{in("n/d?.jsonl")}, "", []string{in("n/d?.jsonl")}},
		{[]string{in("n/d[1].jsonl")}, "", []string{in("n/d1.jsonl")}},
		{[]string{dir + "/./h/*/*.jsonl"}, "", []string{in("h/x/a.jsonl")}},
		{[]string{dir + "//h/*/*.jsonl"}, "", []string{in("h/x/a.jsonl")}},
	} {
		got, err := Expand(context.Background(), tt.inputs, tt.out, Fields{})
		if tt.want == nil {
			if err == nil || !strings.Contains(err.Error(), "by its content") {
				t.Errorf("Expand(%q) = %q, %v; want the hidden file asked for refused by its content", tt.inputs, got, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Expand(%q, -o %s) = %q, %v; want %q", tt.inputs, tt.out, got, err, tt.want)
		}
	}
	_, err := Expand(context.Background(), []string{in("o/a.jsonl"), in("o/*.jsonl")}, in("o"), Fields{})
	if want := fmt.Sprintf("given twice (matched by '%s', and as %s too)", in("o/*.jsonl"), in("o/a.jsonl")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Expand of a file and a glob matching it = %v; want it saying %q", err, want)
	}
}
