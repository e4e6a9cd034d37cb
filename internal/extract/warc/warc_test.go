package warc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
)

// record formats one WARC record with the given fields and block.
func record(typ, uri, contentType, block string) string {
	return fmt.Sprintf("WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		typ, uri, contentType, len(block), block)
}

func httpResponse(body string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=iso-8859-2\r\n\r\n" + body
}

// gzipMembers compresses each part as its own gzip member, as .warc.gz
// writers do.
func gzipMembers(t testing.TB, parts ...string) string {
	var buf bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(p))
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

type summary struct {
	Type, URI string
	Block     string
	TooLarge  bool
}

func readAll(t *testing.T, input string, maxBlock int64) ([]summary, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(input))
	if err != nil {
		return nil, err
	}
	r.MaxBlock = maxBlock
	var out []summary
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, summary{rec.Type(), rec.TargetURI(), string(rec.Block), rec.TooLarge})
	}
}

func TestReader(t *testing.T) {
	info := record("warcinfo", "", "application/warc-fields", "software: test\r\n")
	resp := record("response", "http://a.example/1", "application/http; msgtype=response", httpResponse("<p>one</p>"))
	resp2 := record("response", "<http://a.example/2>", "application/http; msgtype=response", httpResponse("<p>two</p>"))
	want := []summary{
		{"warcinfo", "", "software: test\r\n", false},
		{"response", "http://a.example/1", httpResponse("<p>one</p>"), false},
		{"response", "http://a.example/2", httpResponse("<p>two</p>"), false},
	}
	for _, tc := range []struct {
		name     string
		input    string
		maxBlock int64
		want     []summary
	}{
		{"plain", info + resp + resp2, 0, want},
		{"gzip member per record", gzipMembers(t, info, resp, resp2), 0, want},
		{"one gzip member", gzipMembers(t, info+resp+resp2), 0, want},
		{"empty", "", 0, nil},
		{"leading blank lines", "\r\n\r\n" + info, 0, want[:1]},
		{"lf line ends", "WARC/1.0\nWARC-Type: warcinfo\nContent-Length: 15\n\nsoftware: test\n\n\n", 0,
			[]summary{{"warcinfo", "", "software: test\n", false}}},
		{"block over limit skipped", info + resp, 20, []summary{{"warcinfo", "", "software: test\r\n", false}, {"response", "http://a.example/1", "", true}}},
		{"folded header", "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\n  long\r\nContent-Length: 0\r\n\r\n\r\n\r\n", 0,
			[]summary{{"resource", "http://a.example/ long", "", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, tc.input, tc.maxBlock)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestReaderErrors(t *testing.T) {
	info := record("warcinfo", "", "text/plain", "x")
	for _, tc := range []struct {
		name, input string
		records     int
		cut         bool // the input ends inside a record: io.ErrUnexpectedEOF too
	}{
		{"not warc", "<html>hello</html>\n", 0, false},
		{"garbage after a record", info + "garbage\r\n", 1, false},
		{"missing length", "WARC/1.0\r\nWARC-Type: response\r\n\r\n", 0, false},
		{"negative length", "WARC/1.0\r\nContent-Length: -1\r\n\r\n", 0, false},
		{"forged huge length", "WARC/1.0\r\nContent-Length: 900000000\r\n\r\nshort", 0, true},
		{"block cut short", "WARC/1.0\r\nContent-Length: 100\r\n\r\nshort", 0, true},
		{"header cut short", "WARC/1.0\r\nContent-Length: 1\r\n", 0, true},
		{"line cut short", info + "WARC/1.0\r\nContent-Le", 1, true},
		{"header line without colon", "WARC/1.0\r\nnot a field\r\n\r\n", 0, false},
		{"header too long", "WARC/1.0\r\nX: " + strings.Repeat("a", MaxHeaderBytes) + "\r\n\r\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, tc.input, 0)
			if !errors.Is(err, ErrFormat) {
				t.Errorf("err %v, want ErrFormat", err)
			}
			if errors.Is(err, io.ErrUnexpectedEOF) != tc.cut {
				t.Errorf("err %v: io.ErrUnexpectedEOF %v, want %v", err, !tc.cut, tc.cut)
			}
			if len(got) != tc.records {
				t.Errorf("%d records before the error, want %d", len(got), tc.records)
			}
		})
	}
}

// TestReaderCutBetweenRecords is the regression test of a .warc.gz that
// ends, after a whole record, in bytes that are no whole gzip member: the
// reader reported a record cut short after the last one ("malformed record
// at offset 7092: line cut short", a record #5 of a file of four), though
// no byte of one was read and the records read are whole. Now it says the
// stream ends cut short after record N (a *CutError), and a record cut
// inside stays malformed.
func TestReaderCutBetweenRecords(t *testing.T) {
	info := record("warcinfo", "", "text/plain", "x")
	page := record("resource", "http://a.example/", "text/html", "<p>y</p>")
	whole := gzipMembers(t, info, page)
	next := gzipMembers(t, page)
	for _, tc := range []struct {
		name, input string
		records     int
		cut         bool // a *CutError after records; else a record cut short
	}{
		{"a line end after the last member", whole + "\n", 2, true},
		{"nine NULs after the last member", whole + strings.Repeat("\x00", 9), 2, true},
		{"inside the last member's trailer", whole[:len(whole)-3], 2, true},
		{"inside a member's header", whole + next[:5], 2, true},
		{"inside a member's data", whole + next[:len(next)/2], 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readAll(t, tc.input, 0)
			if len(got) != tc.records {
				t.Errorf("%d records before the error, want %d", len(got), tc.records)
			}
			var cut *CutError
			switch {
			case !errors.Is(err, io.ErrUnexpectedEOF):
				t.Fatalf("err %v, want one that is io.ErrUnexpectedEOF", err)
			case errors.As(err, &cut) != tc.cut:
				t.Fatalf("err %v: a *CutError %v, want %v", err, !tc.cut, tc.cut)
			case !tc.cut && !errors.Is(err, ErrFormat):
				t.Fatalf("err %v, want ErrFormat: a record cut short", err)
			case tc.cut && cut.Records != tc.records:
				t.Errorf("err %v: Records %d, want %d", err, cut.Records, tc.records)
			}
		})
	}
	// A plain stream's last line end cut to a CR is no record either.
	got, err := readAll(t, info+page+"\r", 0)
	if err != nil || len(got) != 2 {
		t.Errorf("a plain stream ending in a CR: %d records, %v; want 2, nil", len(got), err)
	}
}

// TestReaderStaysFailed checks that a record the stream ends inside, and
// an error of the stream under the records, end the stream: every later
// call returns the same error.
func TestReaderStaysFailed(t *testing.T) {
	info := record("warcinfo", "", "text/plain", "x")
	for _, tc := range []struct {
		name string
		r    io.Reader
	}{
		{"block cut short", strings.NewReader(info + "WARC/1.0\r\nContent-Length: 100\r\n\r\nshort")},
		{"stream error", &failingReader{data: info + "WARC/1.0\r\nContent-Le", err: errStopped}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewReader(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			_, err1 := r.Next()
			_, err2 := r.Next()
			if err1 == nil || err1 != err2 {
				t.Errorf("errors %v then %v, want the same error twice", err1, err2)
			}
		})
	}
}

// events reads input to its end and describes each record ("#2
// http://a.example/2 at 120") and each damage ("damage after 1, a record,
// 120 to 300"; "… to the end") it meets, then the error it ends with, if
// any but io.EOF.
func events(t *testing.T, r io.Reader, maxBlock int64) []string {
	t.Helper()
	wr, err := NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	wr.MaxBlock = maxBlock
	var out []string
	for range 100 {
		rec, err := wr.Next()
		var d *DamageError
		switch {
		case err == io.EOF:
			return out
		case errors.As(err, &d):
			what := "bytes"
			if d.Record != nil {
				what = fmt.Sprintf("record #%d %s", d.Record.Number, d.Record.TargetURI())
			}
			to := fmt.Sprint(d.Next)
			if d.End {
				to = "the end"
			}
			out = append(out, fmt.Sprintf("damage after %d, %s, %d to %s", d.Records, what, d.Offset, to))
		case err != nil:
			return append(out, err.Error())
		default:
			out = append(out, fmt.Sprintf("#%d %s at %d", rec.Number, rec.TargetURI(), rec.Offset))
		}
	}
	t.Fatal("no end after 100 calls")
	return nil
}

// TestReaderResync is the regression test of a record whose Content-Length
// is too small: the bytes after its block were read as the next record's
// version line ("malformed record … got \"article></main>\""), and the
// reader stopped there, every record after it lost. Now a block followed
// straight by bytes that start no record makes its record malformed, as a
// header that is none does: the damage is reported once, with the bytes
// skipped, and the reader scans on to the next line that begins a record
// (a version line, then a whole header with a Content-Length), whose
// records keep their numbers. Bytes that start no record after a record
// that ends well are a damage of their own, and no record.
func TestReaderResync(t *testing.T) {
	page := func(n int) string {
		return record("response", fmt.Sprintf("http://a.example/%d", n), "application/http; msgtype=response",
			httpResponse(fmt.Sprintf("<main><article>%s</article></main>", strings.Repeat("<p>Words of a page.</p>", 10))))
	}
	r1, r2, r3, r4 := page(1), page(2), page(3), page(4)
	length := func(delta int) string {
		n := len(r2) - len(recordHead(r2)) - 4
		return strings.Replace(r2, fmt.Sprint("Content-Length: ", n), fmt.Sprint("Content-Length: ", n+delta), 1)
	}
	short, long := length(-100), length(100)
	badLength := strings.Replace(r2, "Content-Length: ", "Content-Length: x", 1)
	noField := "WARC/1.0\r\nnot a field\r\n\r\nblock\r\n\r\n"
	at := func(parts ...string) int { return len(strings.Join(parts, "")) }
	one := "#1 http://a.example/1 at 0"
	four := []string{one, fmt.Sprintf("damage after 1, record #2 http://a.example/2, %d to %d", at(r1), at(r1, short)),
		fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, short)), fmt.Sprintf("#4 http://a.example/4 at %d", at(r1, short, r3))}
	for _, tc := range []struct {
		name     string
		input    string
		maxBlock int64
		want     []string
	}{
		{"Content-Length too small", r1 + short + r3 + r4, 0, four},
		{"Content-Length too small, gzip member per record", gzipMembers(t, r1, short, r3, r4), 0, four},
		{"Content-Length too small, one gzip member", gzipMembers(t, r1+short+r3+r4), 0, four},
		{"Content-Length too small, block too large", r1 + short + r3 + r4, 50, four},
		// A block too long takes in what follows, up to its length. Held,
		// it is cut where the next record starts in it, and that record
		// read (regression: it was lost with the record before it, and
		// the records after numbered one lower). Too large to hold, the
		// record after it is lost, and the next counted as found.
		{"Content-Length too large", r1 + long + r3 + r4, 0, []string{one,
			fmt.Sprintf("#2 http://a.example/2 at %d", at(r1)), fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, r2)),
			fmt.Sprintf("#4 http://a.example/4 at %d", at(r1, r2, r3))}},
		{"Content-Length too large, gzip member per record", gzipMembers(t, r1, long, r3, r4), 0, []string{one,
			fmt.Sprintf("#2 http://a.example/2 at %d", at(r1)), fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, r2)),
			fmt.Sprintf("#4 http://a.example/4 at %d", at(r1, r2, r3))}},
		{"Content-Length too large, block too large", r1 + long + r3 + r4, 50, []string{one,
			fmt.Sprintf("damage after 1, record #2 http://a.example/2, %d to %d", at(r1), at(r1, long, r3)),
			fmt.Sprintf("#3 http://a.example/4 at %d", at(r1, long, r3))}},
		// A record cut short, the next after one line end (as a damaged
		// gzip member of a .warc.gz leaves it): no record ends before the
		// next record's start in its block, so it is damaged, not cut
		// and kept (regression: a part of a page was a page).
		{"a record cut short, the next after a line end", r1 + r2[:len(r2)-60] + "\r\n" + r3 + r4, 0, []string{one,
			fmt.Sprintf("damage after 1, record #2 http://a.example/2, %d to %d", at(r1), at(r1, r2[:len(r2)-60], "\r\n")),
			fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, r2[:len(r2)-60], "\r\n")),
			fmt.Sprintf("#4 http://a.example/4 at %d", at(r1, r2[:len(r2)-60], "\r\n", r3))}},
		{"bad Content-Length", r1 + badLength + r3, 0, []string{one,
			fmt.Sprintf("damage after 1, record #2 http://a.example/2, %d to %d", at(r1), at(r1, badLength)),
			fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, badLength))}},
		{"header line without a colon", r1 + noField + r3, 0, []string{one,
			fmt.Sprintf("damage after 1, record #2 , %d to %d", at(r1), at(r1, noField)),
			fmt.Sprintf("#3 http://a.example/3 at %d", at(r1, noField))}},
		{"header over the limit", "WARC/1.0\r\nX: " + strings.Repeat("a", MaxHeaderBytes) + "\r\n\r\n" + r1, 0, []string{
			fmt.Sprintf("damage after 0, record #1 , 0 to %d", MaxHeaderBytes+17), fmt.Sprintf("#2 http://a.example/1 at %d", MaxHeaderBytes+17)}},
		{"junk at the start", "nope\n" + r1, 0, []string{"damage after 0, bytes, 0 to 5", "#1 http://a.example/1 at 5"}},
		{"junk between records that end well", r1 + "junk\r\n" + r3, 0, []string{one,
			fmt.Sprintf("damage after 1, bytes, %d to %d", at(r1), at(r1, "junk\r\n")), fmt.Sprintf("#2 http://a.example/3 at %d", at(r1, "junk\r\n"))}},
		{"junk at the end", r1 + "garbage\r\n", 0, []string{one, fmt.Sprintf("damage after 1, bytes, %d to the end", at(r1))}},
		{"no record", "<html>hello</html>\n", 0, []string{"damage after 0, bytes, 0 to the end"}},
		{"a line over the limit where a record should start", strings.Repeat("x", 3*MaxHeaderBytes) + "\n" + r1, 0, []string{
			fmt.Sprintf("damage after 0, bytes, 0 to %d", 3*MaxHeaderBytes+1), fmt.Sprintf("#1 http://a.example/1 at %d", 3*MaxHeaderBytes+1)}},
		// Records that do not end in two line ends are read when the
		// next one follows at once.
		{"no line ends after a block", strings.TrimSuffix(r1, "\r\n\r\n") + strings.TrimSuffix(r3, "\r\n\r\n") + "\n" + r4, 0, []string{
			one, fmt.Sprintf("#2 http://a.example/3 at %d", at(r1)-4), fmt.Sprintf("#3 http://a.example/4 at %d", at(r1, r3)-7)}},
		// A version line not at a line start begins no record: the
		// record is lost with the junk before it.
		{"a version line not at a line start", "junk" + r1 + r3, 0, []string{
			fmt.Sprintf("damage after 0, bytes, 0 to %d", at("junk", r1)), fmt.Sprintf("#1 http://a.example/3 at %d", at("junk", r1))}},
		// A version line whose header is no header, or is cut by
		// another version line, begins no record; nor does a version
		// line of another form.
		{"a version line without a header", "x\r\nWARC/1.0\r\nnot a field\r\n" + r1, 0, []string{
			"damage after 0, bytes, 0 to 26", "#1 http://a.example/1 at 26"}},
		{"a version line before a version line", "x\r\nWARC/1.0\r\nWARC-Type: response\r\n" + r1, 0, []string{
			"damage after 0, bytes, 0 to 34", "#1 http://a.example/1 at 34"}},
		{"a version line without a Content-Length", "x\r\nWARC/1.0\r\nWARC-Type: response\r\n\r\nWARC/x\r\n" + r1, 0, []string{
			"damage after 0, bytes, 0 to 44", "#1 http://a.example/1 at 44"}},
		{"version 0.18", "x\r\n" + strings.Replace(r1, "WARC/1.0", "WARC/0.18", 1), 0, []string{"damage after 0, bytes, 0 to 3", "#1 http://a.example/1 at 3"}},
		// Regression: a header cut short by the next record's version
		// line took that line for a bad header line, and the scan past it
		// began after it: the next record was lost (the reviewer's cases).
		{"a header cut by the next record", r1 + "WARC/1.0\r\nWARC-Type: response\r\n" + r2 + r3, 0, []string{one,
			fmt.Sprintf("damage after 1, record #2 , %d to %d", at(r1), at(r1, "WARC/1.0\r\nWARC-Type: response\r\n")),
			fmt.Sprintf("#3 http://a.example/2 at %d", at(r1, "WARC/1.0\r\nWARC-Type: response\r\n")),
			fmt.Sprintf("#4 http://a.example/3 at %d", at(r1, "WARC/1.0\r\nWARC-Type: response\r\n", r2))}},
		{"a header cut by the next record after junk", "x\r\n" + r1 + "WARC/1.0\r\nWARC-Type: response\r\n" + r2, 0, []string{
			"damage after 0, bytes, 0 to 3", "#1 http://a.example/1 at 3",
			fmt.Sprintf("damage after 1, record #2 , %d to %d", at("x\r\n", r1), at("x\r\n", r1, "WARC/1.0\r\nWARC-Type: response\r\n")),
			fmt.Sprintf("#3 http://a.example/2 at %d", at("x\r\n", r1, "WARC/1.0\r\nWARC-Type: response\r\n"))}},
		// Regression (the reviewer's cases): a whole record followed by
		// one line end and junk was itself taken for damaged; junk at the
		// end without a line end was a record cut short.
		{"one line end then junk", strings.TrimSuffix(r1, "\r\n\r\n") + "\n\x00\x00\x00\n", 0, []string{
			one, fmt.Sprintf("damage after 1, bytes, %d to the end", at(r1)-3)}},
		{"junk at the end without a line end", r1 + "garbage", 0, []string{one, fmt.Sprintf("damage after 1, bytes, %d to the end", at(r1))}},
		// Cut short in the scan: the damage runs to the end.
		{"cut short in the scan", gzipMembers(t, r1+short)[:len(gzipMembers(t, r1+short))-4], 0, []string{
			one, fmt.Sprintf("damage after 1, record #2 http://a.example/2, %d to the end", at(r1))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, events(t, strings.NewReader(tc.input), tc.maxBlock)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestReaderVersionLineCutByBlockEnd: a record that lost bytes inside its
// block (its Content-Length too large by them) takes in the next record's
// start up to that length; when the block ends inside the next record's
// version line ("WAR", "WARC/1.0" without its line end), that record is
// found from there all the same. Regression: the scan began after the
// block, where no version line starts, and the next record was lost.
func TestReaderVersionLineCutByBlockEnd(t *testing.T) {
	page := func(n int) string {
		return record("response", fmt.Sprintf("http://a.example/%d", n), "application/http; msgtype=response",
			httpResponse(fmt.Sprintf("<main><article>%s</article></main>", strings.Repeat("<p>Words of a page.</p>", 10))))
	}
	r1, r2, r3, r4 := page(1), page(2), page(3), page(4)
	for k := 1; k <= len("WARC/1.0\r\n"); k++ {
		// r2 loses 4+k bytes of its page: its block runs over its
		// record's end ("\r\n\r\n") and k bytes into r3.
		cut := len(recordHead(r2)) + 40
		lossy := r2[:cut] + r2[cut+4+k:]
		want := []string{"#1 http://a.example/1 at 0", fmt.Sprintf("#2 http://a.example/2 at %d", len(r1)),
			fmt.Sprintf("#3 http://a.example/3 at %d", len(r1+lossy)), fmt.Sprintf("#4 http://a.example/4 at %d", len(r1+lossy+r3))}
		if diff := cmp.Diff(want, events(t, strings.NewReader(r1+lossy+r3+r4), 0)); diff != "" {
			t.Errorf("the version line cut after %d bytes %q: (-want +got)\n%s", k, r3[:k], diff)
		}
	}
}

// recordHead returns a formatted record's version line and header.
func recordHead(rec string) string {
	head, _, _ := strings.Cut(rec, "\r\n\r\n")
	return head + "\r\n\r\n"
}

// TestDamageError checks what a damage says: what is wrong, and the bytes
// skipped.
func TestDamageError(t *testing.T) {
	in := record("warcinfo", "", "text/plain", "x") // 102 bytes
	_, err := readAll(t, in+"garbage\r\n"+in, 0)
	want := `warc: malformed record at offset 102: want a WARC/ version line, got "garbage" (9 bytes from offset 102 skipped, up to the next record at offset 111)`
	if err == nil || err.Error() != want || !errors.Is(err, ErrFormat) {
		t.Errorf("err %v, want %s", err, want)
	}
	_, err = readAll(t, in+"garbage\r\n", 0)
	want = `warc: malformed record at offset 102: want a WARC/ version line, got "garbage" (9 bytes from offset 102 skipped, to the end of the stream: no record follows)`
	if err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
}

// TestReaderResyncStreamError checks that an error of the stream under
// the records met in a scan past damage is returned as it is, then again.
func TestReaderResyncStreamError(t *testing.T) {
	r, _ := NewReader(&failingReader{data: "nope\r\nmore", err: errStopped})
	_, err1 := r.Next()
	_, err2 := r.Next()
	if !errors.Is(err1, errStopped) || err1 != err2 {
		t.Errorf("errors %v then %v, want the stream's error twice", err1, err2)
	}
}

func TestRecordOffset(t *testing.T) {
	a := record("warcinfo", "", "text/plain", "x")
	b := record("resource", "http://a.example/", "text/html", "<p>y</p>")
	r, _ := NewReader(strings.NewReader(a + b))
	var offsets []int64
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		offsets = append(offsets, rec.Offset)
	}
	if diff := cmp.Diff([]int64{0, int64(len(a))}, offsets); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestParseResponse(t *testing.T) {
	for _, tc := range []struct {
		name      string
		block     string
		max       int
		status    int
		ctype     string
		body      string
		truncated bool
	}{
		{"plain", httpResponse("<p>x</p>"), 0, 200, "text/html; charset=iso-8859-2", "<p>x</p>", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/html\r\n\r\n4\r\n<p>x\r\n4\r\n</p>\r\n0\r\n\r\n",
			0, 200, "text/html", "<p>x</p>", false},
		{"not found", "HTTP/1.0 404 Not Found\r\nContent-Type: text/html\r\n\r\ngone", 0, 404, "text/html", "gone", false},
		{"truncated", httpResponse("0123456789"), 4, 200, "text/html; charset=iso-8859-2", "0123", true},
		{"HTTP/2, as curl writes it", "HTTP/2 200\r\ncontent-type: text/html\r\n\r\n<p>x</p>", 0, 200, "text/html", "<p>x</p>", false},
		{"HTTP/2.0", "HTTP/2.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>", 0, 200, "text/html", "<p>x</p>", false},
		{"HTTP/3", "HTTP/3 404\r\ncontent-type: text/html\r\n\r\ngone", 0, 404, "text/html", "gone", false},
		{"largest limit", httpResponse("0123456789"), math.MaxInt, 200, "text/html; charset=iso-8859-2", "0123456789", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, truncated, err := ParseResponse([]byte(tc.block), tc.max)
			if err != nil {
				t.Fatal(err)
			}
			got := []any{resp.Status, resp.Header.Get("Content-Type"), string(resp.Body), truncated}
			want := []any{tc.status, tc.ctype, tc.body, tc.truncated}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if _, _, err := ParseResponse([]byte("not http"), 0); err == nil {
		t.Error("garbage parsed")
	}
	// A body shorter than its Content-Length, or a chunked body without
	// its last chunk, was not recorded whole; it used to pass as a page.
	for _, block := range []string{
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n<p>x</p>",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n<p>x\r\n",
	} {
		if _, _, err := ParseResponse([]byte(block), 0); err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("%q: err %v, want the body cut short", block, err)
		}
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(record("response", "http://a.example/", "application/http; msgtype=response", httpResponse("<p>x</p>"))))
	f.Add([]byte(gzipMembers(f, record("warcinfo", "", "text/plain", "x"), record("resource", "u", "text/html", "<p>"))))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 5\r\n\r\nab"))
	f.Add([]byte("WARC/1.1\nX: a\n b\nContent-Length: 0\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		r.MaxBlock = 1 << 16
		number, offset := 0, int64(-1)
		for range 1000 {
			rec, err := r.Next()
			var d *DamageError
			if errors.As(err, &d) {
				if d.Records != number || d.Offset <= offset || d.Next < d.Offset {
					t.Fatalf("damage %+v after record %d at %d", d, number, offset)
				}
				if d.Record != nil {
					if number++; d.Record.Number != number {
						t.Fatalf("damage %+v: record %d, want %d", d, d.Record.Number, number)
					}
				}
				offset = d.Offset
				continue
			}
			if err != nil {
				if err != io.EOF && !errors.Is(err, ErrFormat) && !isGzipErr(err) {
					t.Fatalf("unexpected error type: %v", err)
				}
				return
			}
			if number++; rec.Number != number || rec.Offset <= offset {
				t.Fatalf("record %d at %d after record %d at %d", rec.Number, rec.Offset, number-1, offset)
			}
			offset = rec.Offset
			if rec.TooLarge && rec.Block != nil {
				t.Fatalf("TooLarge with a block")
			}
			if rec.IsHTTP() {
				ParseResponse(rec.Block, 1<<10)
			}
		}
	})
}

// isGzipErr reports errors from a corrupt gzip stream, which surface
// through the reader unchanged.
func isGzipErr(err error) bool {
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) ||
		errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "flate")
}

// errStopped stands for an error of the stream under the reader, such as a
// decompression bound.
var errStopped = errors.New("stopped by a bound")

// failingReader returns its data, then err.
type failingReader struct {
	data string
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// TestReaderKeepsTheStreamError pins that a block stopped by an error of
// the stream under the reader returns that error, which the caller can
// tell; it used to be replaced by a malformed record, "block cut short".
func TestReaderKeepsTheStreamError(t *testing.T) {
	block := strings.Repeat("x", 100)
	for _, tc := range []struct {
		name     string
		maxBlock int64
	}{{"block read", 0}, {"block skipped", 10}} {
		t.Run(tc.name, func(t *testing.T) {
			in := record("resource", "http://a.example/", "text/html", block)
			_, err := readAll(t, in[:len(in)-50], tc.maxBlock)
			if !errors.Is(err, ErrFormat) {
				t.Errorf("at the end of the input: err %v, want ErrFormat", err)
			}
			r, _ := NewReader(&failingReader{data: in[:len(in)-50], err: errStopped})
			r.MaxBlock = tc.maxBlock
			if _, err := r.Next(); !errors.Is(err, errStopped) || errors.Is(err, ErrFormat) {
				t.Errorf("stopped: err %v, want the stream's error", err)
			}
		})
	}
}

// TestDecodeBody: every content coding a crawler records is removed,
// brotli and Zstandard too, which browsers ask for: a browser's crawl
// stored its pages so, and they failed ("unsupported content-encoding").
// A body that inflates past the limit is ErrTooLarge.
func TestDecodeBody(t *testing.T) {
	page := strings.Repeat("<p>The ferry returned to the harbour.</p>", 50)
	var gz, br, zs bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(page))
	zw.Close()
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(page))
	bw.Close()
	sw, err := zstd.NewWriter(&zs)
	if err != nil {
		t.Fatal(err)
	}
	sw.Write([]byte(page))
	sw.Close()
	for _, tc := range []struct {
		enc  string
		body []byte
	}{{"", []byte(page)}, {"identity", []byte(page)}, {"gzip", gz.Bytes()}, {"br", br.Bytes()}, {"BR ", br.Bytes()}, {"zstd", zs.Bytes()}} {
		got, err := DecodeBody(tc.body, tc.enc, 1<<20)
		if err != nil || string(got) != page {
			t.Errorf("%q: %d bytes, %v; want the page", tc.enc, len(got), err)
		}
		if tc.enc != "" && tc.enc != "identity" {
			if _, err := DecodeBody(tc.body, tc.enc, 100); !errors.Is(err, ErrTooLarge) {
				t.Errorf("%q over the limit: %v, want ErrTooLarge", tc.enc, err)
			}
		}
	}
	if _, err := DecodeBody([]byte("x"), "compress", 100); err == nil || !strings.Contains(err.Error(), `unsupported content-encoding "compress"`) {
		t.Errorf("compress: %v", err)
	}
}

// TestHoldsPage checks which records hold a page, and which of those hold
// HTTP. A response whose header names no Content-Type (some crawlers write
// none) was passed over; now its block is read as HTTP when it begins as
// an HTTP response does, and one too large to hold (no block to look at)
// counts as HTTP, so that it is reported too large.
func TestHoldsPage(t *testing.T) {
	rec := func(typ, contentType, block string, tooLarge bool) *Record {
		h := http.Header{}
		h.Set("WARC-Type", typ)
		if contentType != "" {
			h.Set("Content-Type", contentType)
		}
		r := &Record{Header: h, TooLarge: tooLarge}
		if !tooLarge {
			r.Block = []byte(block)
		}
		return r
	}
	for _, c := range []struct {
		name           string
		r              *Record
		wantHTTP, want bool
	}{
		{"response", rec("response", "application/http; msgtype=response", "HTTP/1.1 200 OK\r\n\r\n", false), true, true},
		{"response without a Content-Type", rec("response", "", "HTTP/1.1 200 OK\r\n\r\n", false), true, true},
		{"HTTP/2 response without a Content-Type", rec("response", "", "HTTP/2 200\r\n\r\n", false), true, true},
		{"response too large without a Content-Type", rec("response", "", "", true), true, true},
		{"response without a Content-Type, not HTTP", rec("response", "", "<p>a page</p>", false), false, false},
		{"DNS response", rec("response", "text/dns", "HTTP/1.1 looks like one", false), false, false},
		{"DNS response too large", rec("response", "text/dns", "", true), false, false},
		{"resource", rec("resource", "text/html", "<p>a page</p>", false), false, true},
		{"request", rec("request", "application/http; msgtype=request", "GET / HTTP/1.1\r\n\r\n", false), false, false},
	} {
		isHTTP, ok := c.r.HoldsPage()
		if ok != c.want || (ok && isHTTP != c.wantHTTP) {
			t.Errorf("%s: HoldsPage() = %v, %v; want %v, %v", c.name, isHTTP, ok, c.wantHTTP, c.want)
		}
	}
}

// TestReaderManyLengthsTooLarge: a stream of records whose every
// Content-Length is too large reads every record, each block cut where the
// next record begins in it; the bytes given back are read once, in order,
// however many times the reader gives some back.
func TestReaderManyLengthsTooLarge(t *testing.T) {
	var b strings.Builder
	const n = 300
	for i := range n {
		block := fmt.Sprintf("<p>page %d</p>", i)
		fmt.Fprintf(&b, "WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/%d\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			i, len(block)+40, block)
	}
	r, err := NewReader(strings.NewReader(b.String() + strings.Repeat("\r\n", 40)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		rec, err := r.Next()
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		if want := fmt.Sprintf("<p>page %d</p>", i); string(rec.Block) != want && i < n-1 || rec.Number != i+1 {
			t.Fatalf("record %d: #%d, block %q, want %q", i+1, rec.Number, rec.Block, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last record: %v, want io.EOF", err)
	}
}
