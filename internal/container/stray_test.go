package container

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/gzip"
)

// TestGzipStrayBytes is the regression test of a gzip stream whose last
// whole member is followed by bytes that start no other (zero padding
// from a tape or disk copy, a line end, a few junk bytes): its reads
// failed, "unexpected EOF" for fewer than a header's ten bytes, "gzip:
// invalid header" for more, so that dedup stopped at the file. gzip(1)
// reads it and says "trailing garbage ignored". Now the stream ends at
// that member, every byte before read, and the bytes after it are
// counted (Options.StrayBytes). A member cut short, or bytes that start a
// member (its two magic bytes, or a last byte that is the first of them)
// but are no whole one, still fail: that is a damaged stream, not
// padding. A valid second member is read, as before.
func TestGzipStrayBytes(t *testing.T) {
	a, b := "{\"text\":\"a\"}\n", "{\"text\":\"b\"}\n"
	ga, gb := gz(t, a), gz(t, b)
	for _, tc := range []struct {
		name, file, data string
		want             string // what the stream reads; with err, what it reads first
		stray            []string
		err              error // the read's error (errors.Is)
	}{
		{"zero padding", "x.jsonl.gz", ga + gb + strings.Repeat("\x00", 1000), a + b, []string{"x.jsonl.gz gzip 1000"}, nil},
		{"a few junk bytes", "x.jsonl.gz", ga + "junk", a, []string{"x.jsonl.gz gzip 4"}, nil},
		{"a line end", "x.csv.gz", ga + "\n", a, []string{"x.csv.gz gzip 1"}, nil},
		{"more junk than a header", "x.txt.gz", ga + strings.Repeat("garbage ", 40), a, []string{"x.txt.gz gzip 320"}, nil},
		{"junk after a member of nothing", "x.jsonl.gz", gz(t, "") + "\x00\x00", "", []string{"x.jsonl.gz gzip 2"}, nil},
		{"in a tar", "a.tar", tarOf(t, "b.jsonl.gz", ga+"\x00\x00\x00", "c.txt", "C"), a + "C", []string{"a.tar/b.jsonl.gz gzip 3"}, nil},
		{"two members, nothing after", "x.jsonl.gz", ga + gb, a + b, nil, nil},
		{"a member cut in its data", "x.jsonl.gz", ga + gb[:len(gb)/2], a, nil, io.ErrUnexpectedEOF},
		{"a member cut in its trailer", "x.jsonl.gz", ga + gb[:len(gb)-3], a + b, nil, io.ErrUnexpectedEOF},
		{"a member cut in its header", "x.jsonl.gz", ga + gb[:5], a, nil, io.ErrUnexpectedEOF},
		{"a member cut after its first byte", "x.jsonl.gz", ga + gb[:1], a, nil, io.ErrUnexpectedEOF},
		{"a member's magic, then no member", "x.jsonl.gz", ga + "\x1f\x8bxyzxyzxyzxyz", a, nil, gzip.ErrHeader},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, stray, rerr := readStreams(t, tc.file, tc.data)
			if got != tc.want && (tc.err == nil || !strings.HasPrefix(got, tc.want)) {
				t.Errorf("read %q, want %q", got, tc.want)
			}
			if tc.err == nil && rerr != nil || tc.err != nil && !errors.Is(rerr, tc.err) {
				t.Errorf("read error %v, want %v", rerr, tc.err)
			}
			if diff := cmp.Diff(tc.stray, stray); diff != "" {
				t.Errorf("stray bytes (-want +got)\n%s", diff)
			}
		})
	}
}

// TestBzip2StrayBytes pins the bug where a bzip2 file ending in bytes
// after its last whole stream that start no other (zero padding, which
// bzip2 -t accepts: "trailing garbage after EOF ignored") stopped the run:
// "bzip2 data invalid: bad magic value in continuation file". They are
// stray bytes, as after a gzip file's last member: the streams are read
// whole and the bytes counted. So are, as bzip2(1) reads them, a single
// byte (a line end: it failed, "unexpected EOF") and bytes that start
// with "BZ" but no bzip2 header, "BZh" and a block size (they failed,
// "non-Huffman entropy encoding"). A stream cut short, a header that
// starts no whole stream, or the start of a header at the file's end
// ("B", "BZ"), still fail, as bzip2(1) fails on them.
func TestBzip2StrayBytes(t *testing.T) {
	one := unhex(t, bz2JSON)
	x := "{\"text\":\"x\"}"
	for _, tc := range []struct {
		name, file, data string
		want             string // what the stream reads; with fails, what it reads first
		stray            []string
		fails            bool
	}{
		{"zero padding", "x.jsonl.bz2", one + strings.Repeat("\x00", 4096), x, []string{"x.jsonl.bz2 bzip2 4096"}, false},
		{"two streams, then junk", "x.jsonl.bz2", one + one + "junk", x + x, []string{"x.jsonl.bz2 bzip2 4"}, false},
		{"in a tar", "a.tar", tarOf(t, "b.jsonl.bz2", one+"\x00\x00\x00", "c.txt", "C"), x + "C", []string{"a.tar/b.jsonl.bz2 bzip2 3"}, false},
		{"nothing after", "x.jsonl.bz2", one + one, x + x, nil, false},
		{"a line end", "x.jsonl.bz2", one + "\n", x, []string{"x.jsonl.bz2 bzip2 1"}, false},
		{"a zero byte after two streams", "x.jsonl.bz2", one + one + "\x00", x + x, []string{"x.jsonl.bz2 bzip2 1"}, false},
		{"BZ, then junk", "x.jsonl.bz2", one + "BZxyzxyz", x, []string{"x.jsonl.bz2 bzip2 8"}, false},
		{"BZh, then no block size", "x.jsonl.bz2", one + "BZhx", x, []string{"x.jsonl.bz2 bzip2 4"}, false},
		{"a stream cut short", "x.jsonl.bz2", one + one[:len(one)/2], x, nil, true},
		{"a stream cut after its first byte", "x.jsonl.bz2", one + "B", x, nil, true},
		{"a stream cut after BZ", "x.jsonl.bz2", one + "BZ", x, nil, true},
		{"a stream's header, then no stream", "x.jsonl.bz2", one + "BZh9xyzxyzxyzxyz", x, nil, true},
		{"a first stream cut after its last byte but one", "x.jsonl.bz2", one[:len(one)-1], "", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, stray, rerr := readStreams(t, tc.file, tc.data)
			if got != tc.want && (!tc.fails || !strings.HasPrefix(got, tc.want)) {
				t.Errorf("read %q, want %q", got, tc.want)
			}
			if (rerr != nil) != tc.fails {
				t.Errorf("read error %v, want one: %v", rerr, tc.fails)
			}
			if diff := cmp.Diff(tc.stray, stray); diff != "" {
				t.Errorf("stray bytes (-want +got)\n%s", diff)
			}
		})
	}
}

// FuzzGzipStrayBytes reads, as the walk does, a gzip stream of one or two members followed
// by bytes the fuzzer gives. Bytes that start no member (not the two
// magic bytes, nor a last byte that is the first) are stray: the members
// are read whole and the bytes counted, every one. Bytes that start one
// must make a whole member: then the stream reads on into it, or fails
// with the error of a damaged stream, after reading the members before
// them whole; it never counts stray bytes it did not end at.
func FuzzGzipStrayBytes(f *testing.F) {
	f.Add([]byte("{\"text\":\"a\"}\n"), false, []byte("\x00\x00\x00"))
	f.Add([]byte("Title\nbody"), true, []byte("junk"))
	f.Add([]byte("x"), false, []byte("\x1f"))
	f.Add([]byte("x"), false, []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"))
	f.Add([]byte(""), true, []byte(gz(f, "more")))
	f.Fuzz(func(t *testing.T, content []byte, two bool, tail []byte) {
		data, want := gz(t, string(content)), string(content)
		if two {
			data, want = data+gz(t, "second"), want+"second"
		}
		data += string(tail)
		var stray []int64
		cr := &countReader{r: strings.NewReader(data)}
		g, err := newGzipMembers(cr, "f.gz", false, func(_ string, _ Format, n int64) { stray = append(stray, n) }, nil)
		if err != nil {
			t.Fatalf("the first member's header: %v", err)
		}
		got, err := io.ReadAll(g)
		member := len(tail) > 0 && tail[0] == gzipMagic[0] && (len(tail) == 1 || tail[1] == gzipMagic[1])
		switch {
		case len(tail) == 0 || member:
			if len(stray) > 0 {
				t.Errorf("stray bytes %v after a stream that ends in none, or in a member", stray)
			}
			if !strings.HasPrefix(string(got), want) && err == nil {
				t.Errorf("read %q with no error, want %q first", got, want)
			}
		default:
			if err != nil || string(got) != want || len(stray) != 1 || stray[0] != int64(len(tail)) {
				t.Errorf("read %q, error %v, stray bytes %v; want %q, none, [%d]", got, err, stray, want, len(tail))
			}
		}
	})
}

// FuzzBzip2StrayBytes reads, as the walk does, a bzip2 file of one or two
// streams followed by bytes the fuzzer gives. Bytes that start no bzip2
// header ("BZh" and a block size, or at the file's end a start of one:
// "B", "BZ", "BZh") are stray: the streams are read whole and the bytes
// counted, every one. Bytes that start one must make a whole stream:
// then the file reads on into it, or fails after reading the streams
// before them whole; it never counts stray bytes it did not end at.
func FuzzBzip2StrayBytes(f *testing.F) {
	f.Add(false, []byte("\x00\x00\x00"))
	f.Add(true, []byte("\n"))
	f.Add(false, []byte("B"))
	f.Add(false, []byte("BZx"))
	f.Add(false, []byte("BZh9"))
	f.Add(true, []byte(unhex(f, bz2JSON)))
	one := unhex(f, bz2JSON)
	f.Fuzz(func(t *testing.T, two bool, tail []byte) {
		data, want := one, `{"text":"x"}`
		if two {
			data, want = data+one, want+want
		}
		data += string(tail)
		var stray []int64
		z := newBzip2Streams(bufio.NewReader(strings.NewReader(data)), "f.bz2", func(_ string, _ Format, n int64) { stray = append(stray, n) })
		got, err := io.ReadAll(z)
		header := []byte("BZh")
		starts := len(tail) > 0 && bytes.HasPrefix(tail, header[:min(len(tail), 3)]) && (len(tail) < 4 || tail[3] >= '1' && tail[3] <= '9')
		switch {
		case len(tail) == 0 || starts:
			if len(stray) > 0 && len(tail) < 4 {
				t.Errorf("stray bytes %v after a file that ends in none, or in a stream's start", stray)
			}
			if !strings.HasPrefix(string(got), want) && err == nil {
				t.Errorf("read %q with no error, want %q first", got, want)
			}
		default:
			if err != nil || string(got) != want || len(stray) != 1 || stray[0] != int64(len(tail)) {
				t.Errorf("read %q, error %v, stray bytes %v; want %q, none, [%d]", got, err, stray, want, len(tail))
			}
		}
	})
}

// readStreams reads every member a Walker gives of the file named file
// holding data: their bytes one after another, the stray bytes it told of
// ("origin format n"), and the errors of reading the members.
func readStreams(t *testing.T, file, data string) (read string, stray []string, rerr error) {
	t.Helper()
	w := New(Top{Origin: file, ID: file, Name: file, R: strings.NewReader(data), Size: int64(len(data))},
		Options{StrayBytes: func(origin string, f Format, n int64) { stray = append(stray, fmt.Sprint(origin, " ", f, " ", n)) }})
	defer w.Close()
	var b strings.Builder
	for {
		m, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		data, err := io.ReadAll(m.R)
		b.Write(data)
		rerr = errors.Join(rerr, err)
	}
	return b.String(), stray, rerr
}
