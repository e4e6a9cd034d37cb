package job

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/enginetest"
	"github.com/neardup/neardup/internal/extract"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
	"github.com/neardup/neardup/internal/progress"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/tfidf"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var words = strings.Fields(`market shares company profit quarter growth analysts said city bridge
river police station train weather storm power homes school hospital prices energy bank rates
inflation economy workers union strike talks agreement election voters party court judge museum
festival music film players coach season league match club farmers harvest wheat export trade`)

// corpus writes a small labelled corpus: originals, edited copies, and a few
// bad lines, to dir/corpus.jsonl.
func writeCorpus(t *testing.T, dir string) string {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	sentence := func() string {
		w := make([]string, 9+r.IntN(6))
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		return strings.ToUpper(w[0][:1]) + strings.Join(w, " ")[1:] + "."
	}
	var b bytes.Buffer
	line := func(id, title string, sents []string) {
		rec, _ := json.Marshal(map[string]string{"id": id, "title": title, "text": strings.Join(sents, " ")})
		b.Write(append(rec, '\n'))
	}
	for i := range 12 {
		s := make([]string, 8)
		for j := range s {
			s[j] = sentence()
		}
		line(fmt.Sprint("a", i), "Story "+fmt.Sprint(i), s)
		switch i % 3 {
		case 0: // a reprint with one sentence rewritten and a new headline
			c := append([]string(nil), s...)
			c[3] = sentence()
			line(fmt.Sprint("a", i, "-edit"), "Reprint", c)
		case 1: // a truncated reprint with a footer
			line(fmt.Sprint("a", i, "-cut"), "Story", append(s[:6:6], "Subscribe to our newsletter for the morning headlines."))
		}
	}
	b.WriteString("{\"id\": \"broken\", \"text\": \n")
	b.WriteString("{\"id\": \"bad-utf8\", \"text\": \"caf\xe9 au lait\"}\n")
	b.WriteString("{\"id\": \"empty\", \"text\": \"  \"}\n")
	path := filepath.Join(dir, "corpus.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunGolden(t *testing.T) {
	for _, method := range []string{"minhash", "sentences"} {
		t.Run(method, func(t *testing.T) {
			spec, err := methods.Lookup(method)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			in := writeCorpus(t, dir)
			out := filepath.Join(dir, "out")
			var warn bytes.Buffer
			st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Method: spec.Defaults(), Warn: &warn})
			if err != nil {
				t.Fatal(err)
			}
			if st.Read != 23 || st.Documents != 20 {
				t.Errorf("read %d records, %d documents; want 23, 20", st.Read, st.Documents)
			}
			for _, want := range []string{"corpus.jsonl:21", "corpus.jsonl:22", "corpus.jsonl:23"} {
				if !strings.Contains(warn.String(), want) {
					t.Errorf("no warning names %s:\n%s", want, warn.String())
				}
			}
			for _, name := range []string{output.PairsFile, output.ClustersFile, output.KeptFile, output.StatsFile} {
				got, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				if name == output.StatsFile {
					got = stableStats(t, got)
				}
				golden(t, filepath.Join("testdata", method, name), got)
			}
		})
	}
}

// stableStats drops the fields that vary between runs: timings and memory.
func stableStats(t *testing.T, data []byte) []byte {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "seconds")
	delete(m, "cpu_seconds")
	delete(m, "peak_rss_bytes")
	delete(m, "over_budget_bytes") // a measure of the heap, as the peak
	out, _ := json.MarshalIndent(m, "", "  ")
	return append(out, '\n')
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the golden file (run with -update if the change is intended)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// TestRunStrictStopsAtFirstBadRecord: a strict run fails at its first bad
// record with an error that reads as the record's, where it is and why,
// and wraps ErrStrict and the *corpus.RecordError. Regression: the message
// began with the package's name, "job: bad record in strict mode: ", which
// the command line showed after its own "neardup: ".
func TestRunStrictStopsAtFirstBadRecord(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	_, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Strict: true})
	if !errors.Is(err, ErrStrict) || !errors.As(err, new(*corpus.RecordError)) || !strings.HasPrefix(err.Error(), in+":21: ") ||
		!strings.HasSuffix(err.Error(), " (--strict stops at the first bad record)") {
		t.Fatalf("got %v, want a strict-mode error that begins %s:21", err, in)
	}
}

// earlierPairs runs over in into out and returns the pairs it wrote, the
// results a failed run must leave as they are.
func earlierPairs(t *testing.T, in, out string) []byte {
	t.Helper()
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(out, output.PairsFile))
	if err != nil || len(before) == 0 {
		t.Fatalf("the earlier run wrote no pairs: %v", err)
	}
	return before
}

// keptPairs reports a failed run that changed the pairs in out from before.
func keptPairs(t *testing.T, out string, before []byte) {
	t.Helper()
	if after, _ := os.ReadFile(filepath.Join(out, output.PairsFile)); !bytes.Equal(before, after) {
		t.Error("a failed run changed the earlier results")
	}
}

func TestFailedRunKeepsEarlierResults(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	out := filepath.Join(dir, "out")
	before := earlierPairs(t, in, out)
	dup := filepath.Join(dir, "dup.jsonl")
	os.WriteFile(dup, []byte("{\"id\":\"x\",\"text\":\"one text here\"}\n{\"id\":\"x\",\"text\":\"another text\"}\n"), 0o644)
	_, err := Run(t.Context(), Options{Inputs: []string{dup}, Out: out})
	if err == nil || !strings.Contains(err.Error(), "dup.jsonl:2") || !strings.Contains(err.Error(), "dup.jsonl:1") {
		t.Fatalf("repeated id: got %v, want an error naming both lines", err)
	}
	keptPairs(t, out, before)
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestRunReport(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	rep := filepath.Join(dir, "report.html")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Report: rep}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"a0-edit", "a1-cut", "<html"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestRunReportCountsApart: the report's figures tell documents not
// compared (too short) from records skipped while reading (empty), as the
// summary on stderr does; it counted both as skipped beside documents
// that held the first, so the two added up to more than was read.
func TestRunReportCountsApart(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	long := "The harbour master said the port would reopen on Monday after the storm damaged two cranes and a pier."
	lines := `{"id":"a","text":"` + long + `"}` + "\n" + `{"id":"b","text":"` + long + ` Ships wait offshore."}` + "\n" +
		`{"id":"short-1","text":"Too short."}` + "\n" + `{"id":"empty-1","text":""}` + "\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := filepath.Join(dir, "report.html")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Report: rep}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<li>documents <b>3</b></li><li>not compared <b>1</b></li><li>skipped <b>1</b></li>"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestRunsThatReadNothing pins that a run reading no usable document, or
// given a field name that matches nothing, fails naming the fields it saw,
// and leaves the earlier results as they were.
func TestRunsThatReadNothing(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	out := filepath.Join(dir, "out")
	before := earlierPairs(t, in, out)
	blank := filepath.Join(dir, "blank.jsonl")
	os.WriteFile(blank, []byte("{\"id\":\"1\",\"text\":\" \"}\n{\"id\":\"2\",\"text\":\"\"}\n"), 0o644)
	none := filepath.Join(dir, "none.jsonl")
	os.WriteFile(none, nil, 0o644)
	rare := filepath.Join(dir, "rare.jsonl")
	long := strings.Repeat(strings.Join(words, " ")+" ", 5)
	os.WriteFile(rare, []byte(`{"id":"1","text":"`+long+`"}`+"\n"+`{"id":"2","text":"`+long+`"}`+"\n"), 0o644)
	rarewords, _ := methods.Lookup("rarewords")
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"text field typo", Options{Inputs: []string{in}, Corpus: corpus.Options{TextField: "txet"}},
			`corpus.jsonl: none of its 23 records has a field "txet" (the text); fields seen: "id", "text", "title"`},
		{"id field typo", Options{Inputs: []string{in}, Corpus: corpus.Options{IDField: "nope"}},
			`corpus.jsonl: none of its 23 records has a field "nope" (the id); fields seen: "id", "text", "title"`},
		{"every record skipped", Options{Inputs: []string{blank}},
			`no documents: 2 records read, every one skipped (2 empty); fields seen: "id", "text"`},
		{"no records", Options{Inputs: []string{none}}, "no documents: the inputs hold no records"},
		{"rarewords without sources", Options{Inputs: []string{rare}, Method: rarewords.Defaults()},
			"rarewords compares documents of different sources, and no document has a source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Out = out
			_, err := Run(t.Context(), tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
			keptPairs(t, out, before)
		})
	}
}

// TestUnreadInputsAreTold: the files of an input directory and members of
// its archives that are not read for their names, and the dates in no form
// the reader knows, are counted once in the stats (the second reading does
// not count them again) and told on Warn.
func TestUnreadInputsAreTold(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	if err := os.Rename(writeCorpus(t, dir), filepath.Join(in, "corpus.jsonl")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(in, "dated.jsonl"), []byte(`{"id":"d","text":"`+strings.Repeat("word ", 50)+`","date":"someday"}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(in, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00"), 0o644)
	os.WriteFile(filepath.Join(in, ".hidden"), []byte("x"), 0o644)
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, name := range []string{"notes.doc", "more.jsonl"} {
		w, _ := zw.Create(name)
		w.Write([]byte(`{"id":"z","text":"` + strings.Repeat("word ", 50) + `"}` + "\n"))
	}
	zw.Close()
	os.WriteFile(filepath.Join(in, "extra.zip"), zb.Bytes(), 0o644)
	var warn bytes.Buffer
	st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	if st.Unlisted != 2 || st.UnreadDates != 1 {
		t.Errorf("%d files and %d dates not read, want 2 (logo.png and extra.zip/notes.doc) and 1", st.Unlisted, st.UnreadDates)
	}
	got := warn.String()
	for _, want := range []string{"files not read: 2", filepath.Join(in, "logo.png"), `dates not read: 1 (e.g. "someday" at ` + filepath.Join(in, "dated.jsonl") + ":1)"} {
		if strings.Count(got, want) != 1 {
			t.Errorf("warnings do not say %s once:\n%s", want, got)
		}
	}
}

// TestWARCCutAfterARecordIsTold is the regression test of a .warc.gz that
// ends in a gzip member cut in its trailer, after its last record: a
// record after the last was skipped as failed ("cut.warc.gz#3: failed:
// warc: malformed record … line cut short"), in rejects.jsonl and the
// stats, though no byte of one was read. Now the file is counted in the
// stats and told once on Warn, and no record is skipped. One that ends in
// a line end after its last member is no cut but stray bytes
// (TestGzipStrayBytesAreTold): counted and told as such.
func TestWARCCutAfterARecordIsTold(t *testing.T) {
	var warc bytes.Buffer
	for range 2 { // a gzip member a record, as crawlers write
		zw := gzip.NewWriter(&warc)
		fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 1\r\n\r\nx\r\n\r\n")
		zw.Close()
	}
	text := strings.Repeat("The ferry is back in service after weeks of repairs to its engines. ", 5)
	for _, tc := range []struct {
		name, warc  string
		cuts, stray int
		warning     string // what Warn says once, after the file's path
	}{
		{"the last member's trailer cut", warc.String()[:warc.Len()-3], 1, 0, " after record 2)"},
		{"a line end after the last member", warc.String() + "\n", 0, 1, ", 1 byte); every record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cut := filepath.Join(dir, "cut.warc.gz")
			docs := filepath.Join(dir, "docs.jsonl")
			os.WriteFile(cut, []byte(tc.warc), 0o644)
			os.WriteFile(docs, []byte(`{"id":"a","text":"`+text+`"}`+"\n"+`{"id":"b","text":"`+text+`"}`+"\n"), 0o644)
			var warn bytes.Buffer
			out := filepath.Join(dir, "out")
			st, err := Run(t.Context(), Options{Inputs: []string{cut, docs}, Out: out, Warn: &warn})
			if err != nil {
				t.Fatal(err)
			}
			if st.CutWARCs != tc.cuts || st.GzipStrayBytes != tc.stray || len(st.Skipped) > 0 || st.Read != 2 {
				t.Errorf("CutWARCs %d, GzipStrayBytes %d, skipped %v, %d records read; want %d, %d, none, 2",
					st.CutWARCs, st.GzipStrayBytes, st.Skipped, st.Read, tc.cuts, tc.stray)
			}
			if want := cut + tc.warning; strings.Count(warn.String(), want) != 1 {
				t.Errorf("warnings do not say %q once:\n%s", want, warn.String())
			}
			if rejects, _ := os.ReadFile(filepath.Join(out, output.RejectsFile)); len(rejects) > 0 {
				t.Errorf("rejects.jsonl holds:\n%s", rejects)
			}
		})
	}
}

// TestWARCDamageIsTold is the regression test of a WARC file whose record
// has too small a Content-Length: the record was skipped as failed, and
// so was the next, whole one ("want a WARC/ version line"), every record
// after it lost. Now the damaged record alone is skipped, and the records
// after it are read. Bytes that start no record after a record that ends
// well skip no record: the file is counted in the stats and told once on
// Warn.
func TestWARCDamageIsTold(t *testing.T) {
	text := strings.Repeat("The ferry is back in service after weeks of repairs to its engines. ", 12)
	page := func(n, delta int) string {
		body := fmt.Sprintf("<html><head><title>Ferry %d</title></head><body><article><p>%d. %s</p></article></body></html>", n, n, text)
		return fmt.Sprintf("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://port.example/%d\r\nContent-Type: text/html\r\n"+
			"Content-Length: %d\r\n\r\n%s\r\n\r\n", n, len(body)+delta, body)
	}
	for _, tc := range []struct {
		name, warc string
		damaged    int
		skipped    int    // records skipped as failed
		warning    string // what Warn says once, after the file's path
	}{
		{"a Content-Length too small", page(1, 0) + page(2, -100) + page(3, 0), 0, 1, "#2: failed: warc: malformed record"},
		{"junk between records", page(1, 0) + "junk\r\n" + page(3, 0), 1, 0, fmt.Sprintf(", 6 bytes at offset %d)", len(page(1, 0)))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			crawl := filepath.Join(dir, "crawl.warc")
			os.WriteFile(crawl, []byte(tc.warc), 0o644)
			var warn bytes.Buffer
			out := filepath.Join(dir, "out")
			st, err := Run(t.Context(), Options{Inputs: []string{crawl}, Out: out, Warn: &warn})
			if err != nil {
				t.Fatal(err)
			}
			if st.DamagedWARCs != tc.damaged || st.Skipped[extract.SkipFailed] != tc.skipped || st.Documents != 2 {
				t.Errorf("DamagedWARCs %d, skipped %v, %d documents; want %d, %d failed, 2",
					st.DamagedWARCs, st.Skipped, st.Documents, tc.damaged, tc.skipped)
			}
			if want := crawl + tc.warning; strings.Count(warn.String(), want) != 1 {
				t.Errorf("warnings do not say %q once:\n%s", want, warn.String())
			}
			stats, _ := os.ReadFile(filepath.Join(out, "stats.json"))
			if counted := bytes.Contains(stats, []byte(`"warc_files_with_bytes_that_start_no_record": 1`)); counted != (tc.damaged > 0) {
				t.Errorf("stats.json counts the file %v, want %v:\n%s", counted, tc.damaged > 0, stats)
			}
		})
	}
}

// TestGzipStrayBytesAreTold is the regression test of a .jsonl.gz whose
// compressed stream is followed by stray bytes (zero padding from a tape
// or disk copy, a few junk bytes): the run stopped ("reading
// news.jsonl.gz: gzip: invalid header after line 2", "...: unexpected EOF
// after line 2"), where gzip -d reads the file and says "trailing garbage
// ignored". Now every document is read, the file is counted in stats.json
// and told once on Warn with the bytes ignored, and nothing is rejected; a
// member cut short after a whole one still stops the run, naming the file.
func TestGzipStrayBytesAreTold(t *testing.T) {
	text := strings.Repeat("The ferry is back in service after weeks of repairs to its engines. ", 5)
	var members, third bytes.Buffer
	for _, id := range []string{"a", "b", "z"} {
		w := &members
		if id == "z" {
			w = &third
		}
		zw := gzip.NewWriter(w)
		fmt.Fprintf(zw, `{"id":%q,"text":%q}`+"\n", id, text)
		zw.Close()
	}
	for _, tc := range []struct {
		name, tail string
		warning    string // what Warn says once
		err        string // the run's error
	}{
		{"zero padding", strings.Repeat("\x00", 2048), "gzip files with stray bytes after their last member: 1 (e.g. %s, 2048 bytes); " +
			"every record of their whole members is read", ""},
		{"a few junk bytes", "junk", "gzip files with stray bytes after their last member: 1 (e.g. %s, 4 bytes)", ""},
		{"a member cut short", third.String()[:third.Len()/2], "", "%s: unexpected EOF after line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			news := filepath.Join(dir, "news.jsonl.gz")
			other := filepath.Join(dir, "other.jsonl")
			os.WriteFile(news, append(slices.Clone(members.Bytes()), tc.tail...), 0o644)
			os.WriteFile(other, []byte(`{"id":"c","text":"`+text+`"}`+"\n"), 0o644)
			var warn bytes.Buffer
			out := filepath.Join(dir, "out")
			st, err := Run(t.Context(), Options{Inputs: []string{news, other}, Out: out, Warn: &warn})
			if tc.err != "" {
				if want := fmt.Sprintf(tc.err, news); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v, want one saying %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if st.GzipStrayBytes != 1 || st.GzipStrayBytesExample == "" || st.Read != 3 || st.Documents != 3 || len(st.Skipped) > 0 {
				t.Errorf("GzipStrayBytes %d (%q), %d records read, %d documents, skipped %v; want 1, 3, 3, none",
					st.GzipStrayBytes, st.GzipStrayBytesExample, st.Read, st.Documents, st.Skipped)
			}
			if want := "warning: " + fmt.Sprintf(tc.warning, news); strings.Count(warn.String(), want) != 1 {
				t.Errorf("warnings do not say %q once:\n%s", want, warn.String())
			}
			if stats, _ := os.ReadFile(filepath.Join(out, "stats.json")); !bytes.Contains(stats, []byte(`"gzip_files_with_stray_bytes": 1`)) {
				t.Errorf("stats.json does not count the file:\n%s", stats)
			}
			if rejects, _ := os.ReadFile(filepath.Join(out, output.RejectsFile)); len(rejects) > 0 {
				t.Errorf("rejects.jsonl holds:\n%s", rejects)
			}
		})
	}
}

// bz2Harbour is two JSON Lines records, ids z-0 and z-1, compressed by
// bzip2 (Go has no bzip2 writer).
const bz2Harbour = "425a6839314159265359e608fdd100013c5b80001050076010040036e5defa3000fa804928340683468683431800000000a548994f" +
	"51a69880304f0d57c2fb5c964bf164b99745d966b0ba2d5705b1485a6ae2f204cb4a0addc8b6266428c59aa06061850148b4585d56e5ecb9a" +
	"eab72c3c96a8e6be5765a2eebed68c2deb25d5611d9716cb45c0b0b65fab92deb72c2fe5917b2c9775aadcb92d96cbd56f5aac96f5e4b4585" +
	"9af0c2e0cd1b2c2e0b8af32d56cb8ad564c966b35b3c30ff177245385090e608fdd1"

// TestBzip2StrayBytesCountedApart is the regression test of a .jsonl.bz2
// whose last stream is followed by stray bytes: stats.json counted it
// under gzip_files_with_stray_bytes, which names gzip files, with the
// gzip files, and the warning spoke of "compressed files" and their
// "members". Now gzip_files_with_stray_bytes counts gzip files alone, as
// it did before bzip2 files had stray bytes, and bzip2 files have keys of
// their own, bzip2_files_with_stray_bytes and its example; each format is
// warned of in its own words.
func TestBzip2StrayBytesCountedApart(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("The ferry is back in service after weeks of repairs to its engines. ", 5)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	fmt.Fprintf(zw, `{"id":"a","text":%q}`+"\n", text)
	zw.Close()
	bz, err := hex.DecodeString(bz2Harbour)
	if err != nil {
		t.Fatal(err)
	}
	news, more := filepath.Join(dir, "news.jsonl.gz"), filepath.Join(dir, "more.jsonl.bz2")
	os.WriteFile(news, append(gz.Bytes(), "junk"...), 0o644)
	os.WriteFile(more, append(bz, make([]byte, 512)...), 0o644)
	var warn bytes.Buffer
	out := filepath.Join(dir, "out")
	if _, err := Run(t.Context(), Options{Inputs: []string{news, more}, Out: out, Warn: &warn}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(out, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stats map[string]any
	if err := json.Unmarshal(data, &stats); err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for k, v := range stats {
		if strings.Contains(k, "stray") || k == "records_read" {
			got[k] = v
		}
	}
	want := map[string]any{"records_read": 3.0,
		"gzip_files_with_stray_bytes": 1.0, "gzip_files_with_stray_bytes_example": news + ", 4 bytes",
		"bzip2_files_with_stray_bytes": 1.0, "bzip2_files_with_stray_bytes_example": more + ", 512 bytes"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats.json (-want +got)\n%s", diff)
	}
	for _, w := range []string{
		"warning: gzip files with stray bytes after their last member: 1 (e.g. " + news + ", 4 bytes); every record of their " +
			"whole members is read, and the bytes after them, which start no member (padding, junk), are ignored, as gzip -d ignores them\n",
		"warning: bzip2 files with stray bytes after their last stream: 1 (e.g. " + more + ", 512 bytes); every record of their " +
			"whole streams is read, and the bytes after them, which start no stream (padding, junk), are ignored, as bzip2 -d ignores them\n",
	} {
		if strings.Count(warn.String(), w) != 1 {
			t.Errorf("warnings do not say once %q:\n%s", w, warn.String())
		}
	}
}

// TestWARCCutInItsFirstHeader is the regression test of a .warc.gz cut
// inside its first gzip member's header, or empty: the run stopped
// ("reading cut.warc.gz: gzip header: unexpected EOF"), the next input not
// read, where a plain WARC cut inside its first record is a failed page.
// Now the file is a failed record of its own name, listed in rejects.jsonl
// and warned of, and the run goes on; --strict stops at it, as at any
// record skipped.
func TestWARCCutInItsFirstHeader(t *testing.T) {
	var member bytes.Buffer
	zw := gzip.NewWriter(&member)
	fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 1\r\n\r\nx\r\n\r\n")
	zw.Close()
	text := strings.Repeat("The ferry is back in service after weeks of repairs to its engines. ", 5)
	docs := `{"id":"a","text":"` + text + `"}` + "\n" + `{"id":"b","text":"` + text + `"}` + "\n"
	for _, tc := range []struct{ name, warc, err string }{
		{"cut in the header", member.String()[:5], "not a complete gzip stream: it ends after 5 bytes, inside the gzip header"},
		{"empty", "", "an empty file (0 bytes), not a complete gzip stream"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cut, in := filepath.Join(dir, "cut.warc.gz"), filepath.Join(dir, "docs.jsonl")
			os.WriteFile(cut, []byte(tc.warc), 0o644)
			os.WriteFile(in, []byte(docs), 0o644)
			var warn bytes.Buffer
			out := filepath.Join(dir, "out")
			st, err := Run(t.Context(), Options{Inputs: []string{cut, in}, Out: out, Warn: &warn})
			if err != nil {
				t.Fatal(err)
			}
			if st.Skipped[extract.SkipFailed] != 1 || st.Read != 3 || st.Documents != 2 {
				t.Errorf("skipped %v, %d records read, %d documents; want 1 failed, 3, 2", st.Skipped, st.Read, st.Documents)
			}
			msg := cut + ": failed: warc: the stream ends cut short before its first record: " + tc.err
			if !strings.Contains(warn.String(), "warning: skipped: "+msg+"\n") {
				t.Errorf("warnings do not say %q:\n%s", msg, warn.String())
			}
			if rejects, _ := os.ReadFile(filepath.Join(out, output.RejectsFile)); !bytes.Contains(rejects, []byte(`"reason":"failed"`)) ||
				!bytes.Contains(rejects, []byte(`"file":"`+cut+`"`)) {
				t.Errorf("rejects.jsonl does not name %s as failed:\n%s", cut, rejects)
			}
			_, err = Run(t.Context(), Options{Inputs: []string{cut, in}, Out: filepath.Join(dir, "strict"), Strict: true})
			if !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), msg) {
				t.Errorf("--strict: %v, want a strict-mode error saying %q", err, msg)
			}
		})
	}
}

// TestMaxWarnings: MaxWarnings caps the lines about skipped records, 0
// means 20, and a negative number none but the one that says where they
// are counted.
func TestMaxWarnings(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(in, []byte(strings.Repeat("{\"id\":\n", 30)+`{"id":"ok","text":"`+strings.Repeat("word ", 50)+`"}`+"\n"), 0o644)
	for _, tc := range []struct{ max, skipped int }{{0, 20}, {3, 3}, {-1, 0}} {
		var warn bytes.Buffer
		if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Warn: &warn, MaxWarnings: tc.max}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(warn.String(), "warning: skipped: "); got != tc.skipped {
			t.Errorf("MaxWarnings %d: %d lines about skipped records, want %d:\n%s", tc.max, got, tc.skipped, warn.String())
		}
		if strings.Count(warn.String(), "records skipped; rejects.jsonl lists them") != 1 {
			t.Errorf("MaxWarnings %d: no line says where the rest are counted:\n%s", tc.max, warn.String())
		}
	}
}

// TestUnweightedDocumentsAreTold: two copies of one text and nothing else
// share every term, which tfidf's default weighting (tm's log2(N/df))
// weighs 0: their vectors are empty and they pair with nothing. The run
// says so on Warn and in the stats, and the smoothed weighting pairs them.
func TestUnweightedDocumentsAreTold(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "copies.jsonl")
	line := `"title":"Ferry line opens","text":"The harbour authority said on Monday that the new ferry line would start in spring."}`
	os.WriteFile(in, []byte(`{"id":"a",`+line+"\n"+`{"id":"b",`+line+"\n"), 0o644)
	for _, weighting := range []string{tfidf.WeightingTM, tfidf.WeightingSmooth} {
		o := tfidf.Defaults()
		o.Weighting = weighting
		var warn bytes.Buffer
		st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out-"+weighting), Warn: &warn, Method: o})
		if err != nil {
			t.Fatal(err)
		}
		told := strings.Contains(warn.String(), "documents whose every term weighs nothing: 2")
		switch {
		case weighting == tfidf.WeightingTM && (st.Unweighted != 2 || !told || st.Pairs[core.Duplicate] != 0):
			t.Errorf("tm: %d unweighted, %d duplicate pairs, warnings %q; want 2, 0 and the warning", st.Unweighted, st.Pairs[core.Duplicate], warn.String())
		case weighting == tfidf.WeightingSmooth && (st.Unweighted != 0 || told || st.Pairs[core.Duplicate] != 1):
			t.Errorf("smooth: %d unweighted, %d duplicate pairs, warnings %q; want 0, 1 and none", st.Unweighted, st.Pairs[core.Duplicate], warn.String())
		}
	}
}

// TestAllBoilerplateDocumentsAreTold: twelve verbatim copies of one story
// under the sentences method, over --max-sentence-docs 10, hold only
// boilerplate sentences and pair with nothing; a run said nothing of it
// (30 copies of an article: 0 pairs, 30 kept, nothing on stderr). It now
// says so on Warn, with the flag, and in the stats; a higher limit pairs
// them and says nothing.
func TestAllBoilerplateDocumentsAreTold(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "copies.jsonl")
	text := "The harbour authority said on Monday that the new ferry line would start in spring. " +
		"Tickets will be sold at the pier and online from the first of March. " +
		"The mayor welcomed the plan, which the council approved last year after a long debate."
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, `{"id":"c%d","text":%q}`+"\n", i, text)
	}
	fmt.Fprintf(&b, `{"id":"other","text":%q}`+"\n", "A storm closed the northern road for a day. Crews cleared the fallen trees by the evening, the police said.")
	os.WriteFile(in, []byte(b.String()), 0o644)
	for _, maxDocs := range []int{10, 20} {
		o := sentences.Defaults()
		o.MaxDocs = maxDocs
		var warn bytes.Buffer
		st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, fmt.Sprint("out", maxDocs)), Warn: &warn, Method: o})
		if err != nil {
			t.Fatal(err)
		}
		want := "warning: documents whose every sentence is boilerplate: 12; they pair with nothing (a sentence in more than " +
			"--max-sentence-docs 10 documents is boilerplate"
		told := strings.Contains(warn.String(), want)
		switch all := st.Boilerplate.Documents; {
		case maxDocs == 10 && (all != 12 || !told || st.Pairs[core.Duplicate] != 0):
			t.Errorf("limit 10: %d documents all boilerplate, %d duplicate pairs, warnings %q; want 12, 0 and %q", all, st.Pairs[core.Duplicate], warn.String(), want)
		case maxDocs == 20 && (all != 0 || strings.Contains(warn.String(), "boilerplate") || st.Pairs[core.Duplicate] == 0):
			t.Errorf("limit 20: %d documents all boilerplate, %d duplicate pairs, warnings %q; want 0, some and none", all, st.Pairs[core.Duplicate], warn.String())
		}
	}
}

// TestUnweightedHintNamesTheMethod: under the cosine method's PMI weighting
// the warning of documents whose every term weighs nothing names the
// cosine method's weightings, not the tfidf method's flag value tm, which
// cosine has not.
func TestUnweightedHintNamesTheMethod(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "copies.jsonl")
	line := `"title":"Ferry line opens","text":"The harbour authority said on Monday that the new ferry line would start in spring."}`
	os.WriteFile(in, []byte(`{"id":"a",`+line+"\n"+`{"id":"b",`+line+"\n"), 0o644)
	o := cosine.Defaults()
	o.Weighting = cosine.PMI
	var warn bytes.Buffer
	st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Warn: &warn, Method: o})
	if err != nil {
		t.Fatal(err)
	}
	if st.Unweighted != 2 || !strings.Contains(warn.String(), "under cosine's weightings") || strings.Contains(warn.String(), "--weighting tm") {
		t.Errorf("%d unweighted, warnings %q; want 2 and cosine's hint", st.Unweighted, warn.String())
	}
}

// statsCounter is a batch that counts the calls of Stats.
type statsCounter struct {
	engine.Batch
	calls int
}

func (s *statsCounter) Stats() engine.Stats {
	s.calls++
	return s.Batch.Stats()
}

// TestStatsBuiltOnce pins a run that built its batch's statistics, a pass
// over the documents, three times at its end (for the warning of
// unweighted documents, the results' progress and stats.json): it builds
// them once, with the results written while the kept lines are copied and
// with them written after the second reading (a report).
func TestStatsBuiltOnce(t *testing.T) {
	dir := t.TempDir()
	in := writeCorpus(t, dir)
	for _, tc := range []struct {
		name   string
		report string
	}{
		{"results beside the second reading", ""},
		{"results after the second reading", filepath.Join(dir, "report.html")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b *statsCounter
			o := Options{Inputs: []string{in}, Out: filepath.Join(t.TempDir(), "out"), Report: tc.report,
				wrapBatch: func(inner engine.Batch) engine.Batch { b = &statsCounter{Batch: inner}; return b }}
			st, err := Run(t.Context(), o)
			if err != nil {
				t.Fatal(err)
			}
			if b.calls != 1 || st.Documents == 0 {
				t.Errorf("the batch's statistics were built %d times (%d documents), want once", b.calls, st.Documents)
			}
		})
	}
}

// TestWarnTooShort: a run in which every document is too short for the
// method says so, naming the option that sets the length; a run that
// compares some documents does not.
func TestWarnTooShort(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	os.WriteFile(in, []byte(`{"id":"a","source":"x","text":"`+strings.Repeat("harbour bridge ", 30)+`"}`+"\n"+
		`{"id":"b","source":"y","text":"`+strings.Repeat("harbour bridge ", 30)+`"}`+"\n"), 0o644)
	for _, tc := range []struct {
		method string
		words  int // rarewords' --min-words; 0: its default
		want   string
	}{
		{"rarewords", 0, "warning: every document is too short to compare (2); rarewords skips documents of fewer than --min-words 201 words"},
		{"rarewords", 300, "rarewords skips documents of fewer than --min-words 300 words"},
		{"minhash", 0, ""},
	} {
		spec, _ := methods.Lookup(tc.method)
		c := spec.Defaults()
		if tc.words > 0 {
			var err error
			if c, err = flagopts.Set(c, "min-words", tc.words); err != nil {
				t.Fatal(err)
			}
		}
		var warn bytes.Buffer
		if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, tc.method), Method: c, Warn: &warn}); err != nil {
			t.Fatal(err)
		}
		if got := warn.String(); tc.want == "" && strings.Contains(got, "too short") || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: warnings %q, want %q", tc.method, got, tc.want)
		}
	}
}

// TestRejectsNameTheLimit pins the words of rejects.jsonl for documents
// the method skips: a price table under sentences was "no words or
// sentences left ... (punctuation, numbers or stop words only)", and a
// story under rarewords' 201 words "too short to compare", naming neither
// the limit nor the flag that sets it. Now each names both.
func TestRejectsNameTheLimit(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "news.jsonl")
	story := strings.Repeat("The harbour bridge closed on Tuesday after inspectors found cracks in two of its steel cables. ", 4)
	var prices []string
	for i := range 12 {
		prices = append(prices, fmt.Sprintf("Item %d. $4.%d0.", i, i%10))
	}
	var b strings.Builder
	for _, d := range []struct{ id, text string }{{"a", story}, {"b", story + "Traffic was diverted."},
		{"prices", strings.Join(prices, "\n\n")}, {"tiny", "Bridge shut."},
		{"rule", strings.Repeat("=", 46)}, {"stars", strings.Repeat("★☆", 35)}} {
		line, _ := json.Marshal(map[string]string{"id": d.id, "text": d.text})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		method string
		want   map[string]string // id: error
	}{
		{"sentences", map[string]string{
			"prices": "not compared: no sentence of 20 characters or more (--min-sentence-chars), as in a table or a list of short lines",
			"tiny":   "not compared: a text of fewer than 30 characters, white space not counted (--min-text)",
			// Symbols alone are no sentence of words, however long:
			// --min-sentence-chars was named of them.
			"rule":  "not compared: no words left to compare once the text is analysed (punctuation, numbers or stop words only)",
			"stars": "not compared: no words left to compare once the text is analysed (punctuation, numbers or stop words only)"}},
		{"rarewords", map[string]string{
			"a":      "not compared: fewer than 201 words (--min-words)",
			"b":      "not compared: fewer than 201 words (--min-words)",
			"prices": "not compared: fewer than 201 words (--min-words)",
			"tiny":   "not compared: a text of fewer than 30 characters, white space not counted (--min-text)",
			"rule":   "not compared: fewer than 201 words (--min-words)",
			"stars":  "not compared: fewer than 201 words (--min-words)"}},
	} {
		t.Run(tc.method, func(t *testing.T) {
			spec, _ := methods.Lookup(tc.method)
			out := filepath.Join(dir, tc.method)
			if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: out, Method: spec.Defaults()}); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, l := range lines(t, filepath.Join(out, output.RejectsFile)) {
				var r output.Reject
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatal(err)
				}
				got[r.ID] = r.Error
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rejects.jsonl errors (-want +got)\n%s", diff)
			}
		})
	}
}

// TestWarnTooShortCountsDocumentsOnly: pages too short to give a document
// (extraction's too-short, a record skipped while reading) are no
// documents; with as many of them as documents compared, the run warned
// that every document was too short.
func TestWarnTooShortCountsDocumentsOnly(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	var lines strings.Builder
	r := rand.New(rand.NewPCG(3, 7))
	for i := range 2 {
		w := make([]string, 300)
		for j := range w {
			w[j] = words[r.IntN(len(words))]
		}
		fmt.Fprintf(&lines, `{"id":"d%d","text":%q}`+"\n", i, strings.Join(w, " "))
	}
	os.WriteFile(filepath.Join(in, "news.jsonl"), []byte(lines.String()), 0o644)
	for i := range 2 {
		os.WriteFile(filepath.Join(in, fmt.Sprintf("short%d.html", i)), []byte(`<html><head><title>Short</title></head><body><article><p>Two words.</p></article></body></html>`), 0o644)
	}
	spec, _ := methods.Lookup("minhash")
	var warn bytes.Buffer
	st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Method: spec.Defaults(), Warn: &warn})
	if err != nil {
		t.Fatal(err)
	}
	if st.Documents != 2 || st.Skipped[core.SkipTooShort] != 2 {
		t.Fatalf("%d documents, skipped %v; want 2 documents and 2 pages too short", st.Documents, st.Skipped)
	}
	if strings.Contains(warn.String(), "every document is too short") {
		t.Errorf("warnings %q; the two documents were compared", warn.String())
	}
}

// TestWarningsStartTheirOwnLine runs dedup and an index's feed with the
// progress and the warnings on one writer, the meter drawing as on a
// terminal, and wants each warning at the start of a line as a terminal
// shows it: a warning of a record skipped was written on the end of the
// progress line ("reading: 1024 docs, …warning: skipped: …").
func TestWarningsStartTheirOwnLine(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	var b bytes.Buffer
	for i := range 2048 { // the meter draws after every 1024 records (dedup) or chunk (feed)
		fmt.Fprintf(&b, `{"id":"%d","text":"%s"}`+"\n", i, strings.Repeat(words[i%len(words)]+" ", 30))
	}
	b.WriteString(`{"id":"empty","text":""}` + "\n")
	if err := os.WriteFile(in, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	terminal := func(w io.Writer) *progress.Meter { return progress.NewTerminal(w, 0) }
	check := func(t *testing.T, stderr string) {
		t.Helper()
		warned := false
		for line := range strings.SplitSeq(stderr, "\n") {
			// A terminal shows what follows the last clearing of the line.
			if i := strings.LastIndex(line, "\r\033[K"); i >= 0 {
				line = line[i+len("\r\033[K"):]
			}
			if i := strings.Index(line, "warning: "); i > 0 {
				t.Errorf("a warning written on the end of a line: %q", line)
			} else if i == 0 {
				warned = true
			}
		}
		if !warned || !strings.Contains(stderr, "\r\033[K") {
			t.Fatalf("no warning, or no progress line drawn:\n%q", stderr)
		}
	}
	t.Run("dedup", func(t *testing.T) {
		var stderr bytes.Buffer
		_, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Workers: 2,
			Progress: &stderr, Warn: &stderr, newMeter: terminal})
		if err != nil {
			t.Fatal(err)
		}
		check(t, stderr.String())
	})
	t.Run("feed", func(t *testing.T) {
		r, err := OpenFeed([]string{in}, corpus.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		add := func(_ context.Context, docs iter.Seq2[core.Document, error], onMatch func(*neardup.Match) error, _ func() bool) error {
			for doc, err := range docs {
				if err != nil {
					return err
				}
				if err := onMatch(&neardup.Match{ID: doc.ID, Status: neardup.Added}); err != nil {
					return err
				}
			}
			return nil
		}
		var stderr bytes.Buffer
		if _, err := Feed(t.Context(), r, FeedOptions{Add: add, Chunk: 1, Workers: 2, Progress: &stderr, Warn: &stderr, newMeter: terminal}); err != nil {
			t.Fatal(err)
		}
		check(t, stderr.String())
		// The results printed on the terminal the meter draws on start
		// their own lines too.
		r2, err := OpenFeed([]string{in}, corpus.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r2.Close()
		var screen bytes.Buffer
		if _, err := Feed(t.Context(), r2, FeedOptions{Add: add, Chunk: 1, Workers: 2, Out: &screen, Progress: &screen,
			Warn: &screen, newMeter: terminal}); err != nil {
			t.Fatal(err)
		}
		results := 0
		for line := range strings.SplitSeq(screen.String(), "\n") {
			if i := strings.LastIndex(line, "\r\033[K"); i >= 0 {
				line = line[i+len("\r\033[K"):]
			}
			if i := strings.Index(line, `{"id":`); i > 0 {
				t.Fatalf("a result printed on the end of a line: %q", line)
			} else if i == 0 {
				results++
			}
		}
		if results == 0 || !strings.Contains(screen.String(), "\r\033[K") {
			t.Fatalf("no result printed, or no progress line drawn:\n%q", screen.String())
		}
	})
}

// TestLargeClusterIsTold: a cluster of 50 members or more that holds over
// 5 % of the documents, copies of one text or a chain of texts each
// paired with the next alone, is told on Warn, by runs that copy the kept
// lines and by runs that decode their documents again (a report), naming
// the options that keep chained stories apart (the method's own: --rule
// for tfidf and rarewords, --threshold for the others); a smaller one, or
// one of 5 % or less, is not. Regression: tfidf's tiered rule chained a third
// of a wire corpus's notices into one cluster, and the run said nothing.
func TestLargeClusterIsTold(t *testing.T) {
	g := enginetest.NewTextGen(61)
	copied := strings.Join(g.Sentences(8), " ")
	for _, tc := range []struct {
		name         string
		copies, docs int
		method       engine.Config
		report       bool
		want         string // "" for no warning
	}{
		{"minhash", 60, 100, nil, false, "warning: the largest cluster holds 60 of the 100 documents (60%)"},
		{"minhash with a report", 60, 100, nil, true, "a higher --threshold"},
		{"tfidf", 60, 100, tfidf.Defaults(), false, "a stricter --rule"},
		{"chained", -60, 100, nil, false, "warning: the largest cluster holds 60 of the 100 documents"},
		{"under 50 members", 49, 100, nil, false, ""},
		{"5 percent", 60, 1200, nil, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.jsonl")
			// copies < 0: a chain of -copies documents, each of ten
			// sentences sharing nine with the next and one with the
			// tenth after it, then texts of their own.
			chain := g.Sentences(max(0, -tc.copies) + 10)
			var b strings.Builder
			for i := range tc.docs {
				text := copied
				switch {
				case i < -tc.copies:
					text = strings.Join(chain[i:i+10], " ")
				case i >= tc.copies:
					text = strings.Join(g.Sentences(8), " ")
				}
				fmt.Fprintf(&b, "{\"id\":\"d%d\",\"text\":%q}\n", i, text)
			}
			if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			o := Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Method: tc.method}
			if tc.report {
				o.Report = filepath.Join(dir, "report.html")
			}
			var warn bytes.Buffer
			o.Warn = &warn
			st, err := Run(t.Context(), o)
			if err != nil {
				t.Fatal(err)
			}
			told := strings.Contains(warn.String(), "warning: the largest cluster holds")
			if want := max(tc.copies, -tc.copies); st.LargestCluster != want || told != (tc.want != "") || !strings.Contains(warn.String(), tc.want) {
				t.Errorf("largest cluster %d, warnings %q; want %d and %q", st.LargestCluster, warn.String(), want, tc.want)
			}
			if tc.copies < 0 && strings.Contains(warn.String(), "is paired with") {
				t.Errorf("a chain names a member that links it: %q", warn.String())
			}
		})
	}
}

// TestLargeClusterNamesWhatLinksIt: the warning of a large cluster names
// the member paired with most of the others, a page holding only the
// footer every article ends with, and names none in a chain whose members
// each have about as many pairs (texts of 30 sentences, each sharing 29
// with the next). Regression: such a page made unrelated articles one
// cluster, and the warning did not say through which document.
func TestLargeClusterNamesWhatLinksIt(t *testing.T) {
	g := enginetest.NewTextGen(62)
	footer := strings.Join(g.Sentences(3), " ")
	chain := g.Sentences(80 + 29)
	for _, tc := range []struct {
		name string
		text func(i int) string
		hub  bool
	}{
		{"footer", func(i int) string { return strings.Join(g.Sentences(4), " ") + " " + footer }, true},
		{"dense chain", func(i int) string { return strings.Join(chain[i:i+30], " ") }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.jsonl")
			var b strings.Builder
			for i := range 80 {
				if i == 40 && tc.hub { // not the first member: the one most paired is named
					fmt.Fprintf(&b, "{\"id\":\"the footer\",\"text\":%q}\n", footer)
				}
				if i == 60 && tc.hub { // a second page of the footer is paired as often
					fmt.Fprintf(&b, "{\"id\":\"the footer again\",\"text\":%q}\n", footer+" Contact us.")
				}
				fmt.Fprintf(&b, "{\"id\":\"a%d\",\"text\":%q}\n", i, tc.text(i))
			}
			if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			var warn bytes.Buffer
			st, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Warn: &warn})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(warn.String()) // the figures docs/methods.md quotes
			named := strings.Contains(warn.String(), " is paired with ")
			want := fmt.Sprintf("%q is paired with %d of them", "the footer", st.LargestCluster-1)
			if st.LargestCluster < 50 || named != tc.hub || tc.hub && !strings.Contains(warn.String(), want) {
				t.Errorf("largest cluster %d, warnings %q; want a member named: %v (%q)", st.LargestCluster, warn.String(), tc.hub, want)
			}
		})
	}
}

// TestLargeClusterHintNamesTheRule: the warning of a large cluster names a
// stricter --rule for the methods decided by one (tfidf, rarewords) and a
// higher --threshold for the others.
func TestLargeClusterHintNamesTheRule(t *testing.T) {
	for method, want := range map[string]string{tfidf.Name: "--rule", rarewords.Name: "--rule", "minhash": "--threshold", "cosine": "--threshold"} {
		var w bytes.Buffer
		warnChained(&w, &engine.Stats{Method: method, Documents: 100, LargestCluster: 60})
		if !strings.Contains(w.String(), want) {
			t.Errorf("%s: %q, want it to name %s", method, w.String(), want)
		}
	}
}

// TestDetectedCharsetIsTold: a run that reads text or CSV files in a
// charset detected from their bytes says so once, naming the first and its
// charset, so that a short Polish file in Windows-1250 read as
// Windows-1252 ("Za¿ó³æ") is not mojibake in kept.jsonl unannounced; with
// --charset given, or files in UTF-8, it says nothing.
func TestDetectedCharsetIsTold(t *testing.T) {
	dir := t.TempDir()
	polish := "id,text\n1,\"Za\xbf\xf3\xb3\xe6 g\xea\x9cl\xb9 ja\x9f\xf1. Szpital otwarto we wtorek.\"\n"
	os.WriteFile(filepath.Join(dir, "a.csv"), []byte(polish), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("Cup tie\n\nTickets cost \xa320 for the caf\xe9 final, the club said."), 0o644)
	os.WriteFile(filepath.Join(dir, "c.txt"), []byte("Cup tie\n\nTickets cost £20 for the café final, the club said."), 0o644)
	for _, tc := range []struct {
		name    string
		inputs  []string
		charset string
		want    string
	}{
		{"detected", []string{"a.csv", "b.txt", "c.txt"}, "", "files not in UTF-8, read in the charset detected from their bytes: 2 (e.g. " +
			filepath.Join(dir, "a.csv") + ", windows-125"},
		{"given", []string{"a.csv"}, "windows-1250", ""},
		{"utf-8", []string{"c.txt"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in []string
			for _, f := range tc.inputs {
				in = append(in, filepath.Join(dir, f))
			}
			var warn bytes.Buffer
			if _, err := Run(t.Context(), Options{Inputs: in, Out: filepath.Join(t.TempDir(), "out"), Corpus: corpus.Options{Charset: tc.charset}, Warn: &warn}); err != nil {
				t.Fatal(err)
			}
			got := warn.String()
			if tc.want == "" && strings.Contains(got, "not in UTF-8") || tc.want != "" && strings.Count(got, tc.want) != 1 {
				t.Errorf("warnings:\n%s\nwant %q", got, tc.want)
			}
		})
	}
}
