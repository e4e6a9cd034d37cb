package container

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// TestWARCGzipReadPastDamage is the regression test of a .warc.gz, one
// gzip member a record as crawlers write it, holding a damaged member or
// junk between two members: the stream ended there (a failed read, or
// stray bytes that ended it as gzip(1) does), so every record after the
// damage was lost. Now a stream of WARC records is read on from the next
// member, a damaged member (its data, header or checksum) giving nothing
// of its record, and the stretch skipped told (Options.DamagedMembers)
// with its compressed offset, length and cause. A stream that holds no
// WARC records, or damage no member follows, ends as before.
func TestWARCGzipReadPastDamage(t *testing.T) {
	rec := func(i int) string {
		return fmt.Sprintf("WARC/1.0\r\nWARC-Record-ID: <urn:%d>\r\n\r\nrecord %d\r\n\r\n", i, i)
	}
	m1, m2, m3 := gz(t, rec(1)), gz(t, rec(2)), gz(t, rec(3))
	corrupt := []byte(m2)
	for i := 12; i < len(corrupt)-8; i++ { // the deflate data, not the header or trailer
		corrupt[i] = 0xff
	}
	badSum := []byte(m2)
	badSum[len(badSum)-5] ^= 1 // the CRC-32, one bit off
	noMagic := "\x00\x00" + m2[2:]
	junk := strings.Repeat("junk", 10)
	off2 := int64(len(m1)) // where the second member starts
	for _, tc := range []struct {
		name, file, data string
		want             string // what the stream reads; with err or tail, what it reads first
		tail             string // with want, what the stream's bytes end in: what was inflated of a damaged member is between
		damage           []string
		stray            []string
		err              error
	}{
		{"a member's data damaged", "c.warc.gz", m1 + string(corrupt) + m3, rec(1) + rec(3), "", []string{fmt.Sprintf("%d %d flate", off2, len(m2))}, nil, nil},
		{"a member's magic damaged", "c.warc.gz", m1 + noMagic + m3, rec(1) + rec(3), "",
			[]string{fmt.Sprintf("%d %d %v", off2, len(m2), ErrNoMember)}, nil, nil},
		{"junk between members", "c.warc.gz", m1 + m2 + junk + m3, rec(1) + rec(2) + rec(3), "",
			[]string{fmt.Sprintf("%d %d %v", off2+int64(len(m2)), len(junk), ErrNoMember)}, nil, nil},
		{"a member's checksum wrong", "c.warc.gz", m1 + string(badSum) + m3, rec(1) + rec(3), "",
			[]string{fmt.Sprintf("%d %d %v", off2, len(m2), gzip.ErrChecksum)}, nil, nil},
		{"junk and no member after it", "c.warc.gz", m1 + m2 + junk, rec(1) + rec(2), "", nil, []string{fmt.Sprintf("c.warc.gz gzip %d", len(junk))}, nil},
		{"damaged data and no member after it", "c.warc.gz", m1 + string(corrupt), rec(1), "", nil, nil, flate.CorruptInputError(0)},
		{"the last member cut short", "c.warc.gz", m1 + m2[:len(m2)/2], rec(1), "", nil, nil, io.ErrUnexpectedEOF},
		{"no WARC records: ends at junk as gzip(1)", "x.jsonl.gz", gz(t, "{}\n") + junk + gz(t, "{}\n"), "{}\n", "", nil,
			[]string{fmt.Sprintf("x.jsonl.gz gzip %d", len(junk)+len(gz(t, "{}\n")))}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var damage, stray []string
			opts := Options{
				StrayBytes: func(origin string, f Format, n int64) { stray = append(stray, fmt.Sprint(origin, " ", f, " ", n)) },
				DamagedMembers: func(origin string, d MemberDamage) {
					if origin != tc.file {
						t.Errorf("damage told of %q, want %q", origin, tc.file)
					}
					why := d.Err.Error()
					var corrupt flate.CorruptInputError
					if errors.As(d.Err, &corrupt) {
						why = "flate"
					}
					damage = append(damage, fmt.Sprint(d.Offset, " ", d.Skipped, " ", why))
				},
			}
			got, rerr := readWith(t, tc.file, tc.data, opts)
			exact := tc.err == nil && tc.tail == ""
			if exact && got != tc.want || !exact && !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, tc.tail) {
				t.Errorf("read %q, want %q, then %q", got, tc.want, tc.tail)
			}
			var corrupt flate.CorruptInputError
			switch {
			case tc.err == nil && rerr != nil,
				tc.err != nil && !errors.Is(rerr, tc.err) && !(errors.As(tc.err, &corrupt) && errors.As(rerr, &corrupt)):
				t.Errorf("read error %v, want %v", rerr, tc.err)
			}
			if diff := cmp.Diff(tc.damage, damage); diff != "" {
				t.Errorf("damage told (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.stray, stray); diff != "" {
				t.Errorf("stray bytes (-want +got)\n%s", diff)
			}
		})
	}
}

// readWith reads every stream a Walker with opts gives of the file named
// file holding data, one after another, and the first error of reading
// them or refusal of one.
func readWith(t *testing.T, file, data string, opts Options) (read string, rerr error) {
	t.Helper()
	w := New(Top{Origin: file, ID: file, Name: file, R: strings.NewReader(data), Size: int64(len(data))}, opts)
	defer w.Close()
	var b strings.Builder
	for {
		m, err := w.Next()
		if err == io.EOF {
			return b.String(), rerr
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if m.Skip != nil { // refused: no reader
			if rerr == nil {
				rerr = m.Skip
			}
			continue
		}
		data, err := io.ReadAll(m.R)
		b.Write(data)
		if err != nil && rerr == nil {
			rerr = err
		}
	}
}

// FuzzWARCGzipDamage reads, as the walk does, a .warc.gz of three members
// whose first is damaged past its header (bytes changed, cut out or put
// in): the reading ends, the damaged member gives all its record or none
// of it, the two members after it are read whole (damaged data that runs
// on into the next member is looked past from the damaged member's second
// byte), and a record lost is told.
func FuzzWARCGzipDamage(f *testing.F) {
	f.Add(uint16(12), []byte{0xff, 0xff}, uint8(0), false)
	f.Add(uint16(0), []byte{0}, uint8(2), false)
	f.Add(uint16(3), []byte("junk"), uint8(0), true)
	f.Add(uint16(30), []byte{0x1f, 0x8b, 0x08, 0x00}, uint8(0), true)
	f.Add(uint16(12), []byte("0"), uint8(94), false)
	f.Fuzz(func(t *testing.T, at uint16, change []byte, cut uint8, insert bool) {
		rec := func(i int) string {
			var b strings.Builder
			for k := range 60 { // words that compress little, so a member is long
				fmt.Fprintf(&b, "w%x ", (k*2654435761+i*40503)%1000003)
			}
			return fmt.Sprintf("WARC/1.0\r\nWARC-Record-ID: <urn:%d>\r\n\r\n%s\r\n\r\n", i, b.String())
		}
		first := []byte(gz(t, rec(1)))
		i := min(10+int(at), len(first)) // past the header: a file whose first header is damaged is refused whole
		switch {
		case insert:
			first = append(first[:i:i], append(change, first[i:]...)...)
		default:
			first = append(first[:i:i], first[min(i+int(cut), len(first)):]...)
			for k, c := range change {
				if i+k < len(first) {
					first[i+k] ^= c
				}
			}
		}
		data := string(first) + gz(t, rec(2)) + gz(t, rec(3))
		told := 0
		got, err := readWith(t, "f.warc.gz", data, Options{DamagedMembers: func(string, MemberDamage) { told++ }})
		switch {
		case err != nil:
			t.Errorf("read error %v", err)
		case got == rec(1)+rec(2)+rec(3):
		case got != rec(2)+rec(3):
			t.Errorf("read %q, want the last two members' records, after the first's whole or nothing of it", got)
		case told == 0:
			t.Errorf("the first record lost, and no damage told")
		}
	})
}

// BenchmarkWARCGzip reads a .warc.gz of 2,000 records, a gzip member each,
// as dedup and extract read it (held members, read on past damage:
// "held") and as a gzip stream of another format is read ("passed").
func BenchmarkWARCGzip(b *testing.B) {
	var data strings.Builder
	for i := range 2000 {
		var body strings.Builder
		for k := range 1200 {
			fmt.Fprintf(&body, "w%x ", (k*2654435761+i*40503)%1000003)
		}
		data.WriteString(gz(b, fmt.Sprintf("WARC/1.0\r\nWARC-Record-ID: <urn:%d>\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, body.Len(), body.String())))
	}
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"held", Options{DamagedMembers: func(string, MemberDamage) {}}},
		{"passed", Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(data.Len()))
			for b.Loop() {
				w := New(Top{Origin: "c.warc.gz", ID: "c.warc.gz", Name: "c.warc.gz", R: strings.NewReader(data.String()), Size: int64(data.Len())}, bc.opts)
				m, err := w.Next()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.Copy(io.Discard, m.R); err != nil {
					b.Fatal(err)
				}
				w.Close()
			}
		})
	}
}

// TestWARCGzipDamageReadAgainBounded is the regression test of a stretch of
// candidate gzip headers chained by stored-block headers after a damaged
// member: the search for the next member went back to each failed
// candidate's second byte and inflated on from there, reading the stretch
// again for every candidate, the work the square of the stretch. Now the
// bytes given again are bounded by twice the stream read (and 1 MiB), and
// a record with a wrong checksum is not searched again
// (its data ended where the next member starts): a gzip member its
// payload holds verbatim (incompressible bytes are stored) is no record of
// the file.
func TestWARCGzipDamageReadAgainBounded(t *testing.T) {
	rec := func(id, body string) string {
		return fmt.Sprintf("WARC/1.0\r\nWARC-Record-ID: <urn:%s>\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", id, len(body), body)
	}
	t.Run("chained candidates", func(t *testing.T) {
		unit := "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff\x00\xfa\xff\x05\x00" // a header, then a stored block's that runs on
		data := gz(t, rec("1", "one")) + strings.Repeat(unit, (256<<10)/len(unit)) + "\xff\xff\xff" + gz(t, rec("2", "two"))
		cr := &countReader{r: strings.NewReader(data)}
		g, err := newGzipMembers(cr, "f.warc.gz", true, nil, func(string, MemberDamage) {})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadAll(g); err == nil {
			t.Errorf("read the stretch without an error; want the damage that runs to its end") // the chain takes in the second record
		}
		if max := 3*int64(len(data)) + 1<<20; g.tape.pos > max {
			t.Errorf("the tape gave %d bytes of a stream of %d, want at most %d", g.tape.pos, len(data), max)
		}
	})
	t.Run("a checksum wrong", func(t *testing.T) {
		rnd := make([]byte, 100<<10) // incompressible: stored, the member after it verbatim
		x := uint32(1)
		for i := range rnd {
			x = x*1664525 + 1013904223
			rnd[i] = byte(x >> 24)
		}
		payload := string(rnd) + gz(t, rec("forged", "forge")) + string(rnd)
		m1 := []byte(gz(t, rec("1", payload)))
		m1[len(m1)-5] ^= 1 // the CRC-32
		got, err := readWith(t, "f.warc.gz", string(m1)+gz(t, rec("2", "two")), Options{DamagedMembers: func(string, MemberDamage) {}})
		if err != nil || got != rec("2", "two") {
			t.Errorf("read %.200q, error %v; want the second record alone", got, err)
		}
	})
}

// TestWARCGzipDamagedMembersCountAgainstBounds: what damaged members
// inflated, thrown away, counts against --max-ratio as what is read does:
// a .warc.gz of members of zeros with wrong checksums inflated 6.7 GB from
// 6.5 MB, ten times the ratio, where the same members whole are refused.
func TestWARCGzipDamagedMembersCountAgainstBounds(t *testing.T) {
	member := []byte(gz(t, "WARC/1.0\r\n"+strings.Repeat("\x00", 2<<20)))
	member[len(member)-5] ^= 1
	data := strings.Repeat(string(member), 8) + gz(t, "WARC/1.0\r\n\r\n") // a whole member last: the stream ends well
	_, err := readWith(t, "f.warc.gz", data, Options{MaxRatio: 50, DamagedMembers: func(string, MemberDamage) {}})
	var lim *LimitError
	if !errors.As(err, &lim) {
		t.Errorf("error %v, want the stream refused for its ratio", err)
	}
}
