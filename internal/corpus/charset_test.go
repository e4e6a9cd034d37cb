package corpus

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCharsets pins that text and CSV files that are not UTF-8 are read in
// their detected charset, or the one given, and converted; and that JSON
// Lines stays UTF-8, a bad line a skipped record that says where.
func TestCharsets(t *testing.T) {
	russian := "Центральный банк России сохранил ключевую ставку на прежнем уровне, сообщили в пятницу в Москве."
	for _, tc := range []struct {
		name, file, data string
		opts             Options
		want             []rec
		wantErr          string
	}{
		{"latin-1 text", "a.txt", "Cup tie\n\nTickets cost \xa320 for the caf\xe9 final.", Options{},
			[]rec{{ID: "a.txt", Title: "Cup tie", Text: "Tickets cost £20 for the café final.", Origin: "a.txt",
				Raw: `{"id":"a.txt","title":"Cup tie","text":"Tickets cost £20 for the café final."}`}}, ""},
		{"windows-1251 csv", "a.csv", "id,text\n1,\"" + encode(t, charmap.Windows1251, russian) + "\"\n", Options{},
			[]rec{{ID: "1", Text: russian, Origin: "a.csv:2", Raw: `{"id":"1","text":"` + russian + `"}`}}, ""},
		{"charset given", "a.tsv", "id\ttext\n1\t" + encode(t, charmap.KOI8R, russian) + "\n", Options{Charset: "koi8-r"},
			[]rec{{ID: "1", Text: russian, Origin: "a.tsv:2", Raw: `{"id":"1","text":"` + russian + `"}`}}, ""},
		{"utf-16 with its mark", "a.txt", "\xff\xfeT\x00\n\x00b\x00", Options{},
			[]rec{{ID: "a.txt", Title: "T", Text: "b", Origin: "a.txt", Raw: `{"id":"a.txt","title":"T","text":"b"}`}}, ""},
		{"jsonl stays utf-8", "a.jsonl", "{\"id\":\"1\",\"text\":\"caf\xe9\"}\n{\"id\":\"2\",\"text\":\"ok\"}\n", Options{Charset: "latin1"},
			[]rec{{ID: "1", Text: "caf\xe9", Origin: "a.jsonl:1", Raw: "{\"id\":\"1\",\"text\":\"caf\xe9\"}", Skip: "invalid-utf8", Err: `a.jsonl:1: field "text": invalid UTF-8`},
				{ID: "2", Text: "ok", Origin: "a.jsonl:2", Raw: `{"id":"2","text":"ok"}`}}, ""},
		// Regression: UTF-16 JSON was read as bytes: "invalid character
		// 'ÿ'", and a record more than the file holds.
		{"utf-16 jsonl with its mark", "a.jsonl", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "{\"id\":\"1\",\"text\":\"café\"}\r\n{\"id\":\"2\",\"text\":\"ok\"}\r\n"), Options{},
			[]rec{{ID: "1", Text: "café", Origin: "a.jsonl:1", Raw: `{"id":"1","text":"café"}`},
				{ID: "2", Text: "ok", Origin: "a.jsonl:2", Raw: `{"id":"2","text":"ok"}`}}, ""},
		{"utf-16 json with its mark", "a.json", encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "[{\"id\":\"1\",\"text\":\"café\"},\n{\"id\":\"2\",\"text\":\"ok\"}]"), Options{},
			[]rec{{ID: "1", Text: "café", Origin: "a.json:1", Raw: `{"id":"1","text":"café"}`},
				{ID: "2", Text: "ok", Origin: "a.json:2", Raw: `{"id":"2","text":"ok"}`}}, ""},
		// Regression: the byte-order mark of a file joined to another
		// with cat was read as JSON: "invalid character 'ï'".
		// Regression: a UTF-16 file of no known name was skipped as
		// binary (a NUL byte in the first 8 KiB: each ASCII letter's other
		// byte), where one named .txt, .csv or .jsonl was read.
		{"utf-16 text of no known name", "notes", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "Cup tie\r\n\r\nTickets cost £20 for the café final."), Options{},
			[]rec{{ID: "notes", Title: "Cup tie", Text: "Tickets cost £20 for the café final.", Origin: "notes",
				Raw: `{"id":"notes","title":"Cup tie","text":"Tickets cost £20 for the café final."}`}}, ""},
		{"utf-16 csv of no known name", "export", encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), "id;text;\"a,b,c\"\r\n1;café, au lait;x\r\n"), Options{},
			[]rec{{ID: "1", Text: "café, au lait", Origin: "export:2", Raw: `{"id":"1","text":"café, au lait","a,b,c":"x"}`}}, ""},
		{"utf-16 jsonl of no known name", "part-00000", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "{\"id\":\"1\",\"text\":\"café\"}\r\n"), Options{},
			[]rec{{ID: "1", Text: "café", Origin: "part-00000:1", Raw: `{"id":"1","text":"café"}`}}, ""},
		{"utf-16 json of no known name", "dump", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "[{\"id\":\"1\",\"text\":\"café\"}]"), Options{},
			[]rec{{ID: "1", Text: "café", Origin: "dump:1", Raw: `{"id":"1","text":"café"}`}}, ""},
		{"utf-16 of a NUL character is binary", "blob", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "a\x00b"), Options{},
			[]rec{{ID: "blob", Origin: "blob", Skip: "binary", Err: "blob: binary data (a NUL byte in the first 8 KiB)"}}, ""},
		{"utf-8 mark inside jsonl", "a.jsonl", "\ufeff{\"id\":\"1\",\"text\":\"x\"}\n\ufeff{\"id\":\"2\",\"text\":\"y\"}\n", Options{},
			[]rec{{ID: "1", Text: "x", Origin: "a.jsonl:1", Raw: `{"id":"1","text":"x"}`},
				{ID: "2", Text: "y", Origin: "a.jsonl:2", Raw: `{"id":"2","text":"y"}`}}, ""},
		{"utf-8 mark inside json", "a.json", "[{\"id\":\"1\",\"text\":\"x\"}]\n\ufeff{\n \"id\": \"2\",\n \"text\": \"y\"\n}\n", Options{},
			[]rec{{ID: "1", Text: "x", Origin: "a.json:1", Raw: `{"id":"1","text":"x"}`},
				{ID: "2", Text: "y", Origin: "a.json:2", Raw: `{"id":"2","text":"y"}`}}, ""},
		// Regression: one stray byte made a UTF-8 file read as Windows-1252
		// ("CafÃ©"), as DecodeText read it for neardup diff.
		{"utf-8 with a stray byte", "a.txt", "Menu\n\nCaf\xc3\xa9 au lait is served.\xff The r\xc3\xa9sum\xc3\xa9 arrived.", Options{},
			[]rec{{ID: "a.txt", Title: "Menu", Text: "Café au lait is served.\ufffd The résumé arrived.", Origin: "a.txt",
				Raw: "{\"id\":\"a.txt\",\"title\":\"Menu\",\"text\":\"Café au lait is served.\ufffd The résumé arrived.\"}"}}, ""},
		{"unknown charset", "a.txt", "x", Options{Charset: "klingon"}, nil,
			`corpus: unknown charset "klingon" (want a name such as utf-8, latin1, windows-1251, koi8-r, shift_jis)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), tc.opts)
			if err != nil {
				if errString(err) != tc.wantErr {
					t.Fatalf("error %q, want %q", errString(err), tc.wantErr)
				}
				return
			}
			defer r.Close()
			got, err := drain(t, r)
			if errString(err) != tc.wantErr {
				t.Fatalf("error %q, want %q", errString(err), tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestDecodeText: a whole text file in UTF-8, as the reader reads a text
// file: given a charset, by its byte-order mark, as UTF-8 when it is,
// else detected.
func TestDecodeText(t *testing.T) {
	for _, tc := range []struct {
		name, data, charset, want, err string
	}{
		{name: "UTF-8", data: "Le café", want: "Le café"},
		{name: "UTF-8 with a byte-order mark", data: "\ufeffLe café", want: "Le café"},
		{name: "UTF-16 by its mark", data: "\xff\xfeL\x00e\x00", want: "Le"},
		{name: "Latin-1 detected", data: "Le caf\xe9 co\xfbte \xa3100 depuis lundi.", want: "Le café coûte £100 depuis lundi."},
		{name: "charset given", data: "\xcf\xf0\xe8\xe2\xe5\xf2", charset: "windows-1251", want: "Привет"},
		// Regression: one stray byte made a UTF-8 text read as Windows-1252.
		{name: "UTF-8 with a stray byte", data: "Caf\xc3\xa9 au lait is served.\xff The r\xc3\xa9sum\xc3\xa9 arrived.",
			want: "Café au lait is served.\ufffd The résumé arrived."},
		{name: "Russian UTF-8 with a stray byte", data: "Рынки упали.\xff Банк повысил ставку.", want: "Рынки упали.\ufffd Банк повысил ставку."},
		{name: "Latin-1 with a UTF-8 look-alike", data: "Le caf\xe9 co\xfbte \xa3100 depuis lundi, \xc9\x93l\xe9gant\x94.",
			want: "Le café coûte £100 depuis lundi, É“légant”."},
		{name: "a stray byte alone", data: "Hello w\xffrld and more text.", want: "Hello wÿrld and more text."},
		// Regression: a short Polish text in Windows-1250 was read as
		// Windows-1252 ("£ódŸ, œroda").
		{name: "Polish Windows-1250, short", data: "Tytul\n\xa3\xf3d\x9f, \x9croda\n", want: "Tytul\nŁódź, środa\n"},
		{name: "Spanish Windows-1252, short", data: "\xbfQu\xe9 pas\xf3? \xa1Ma\xf1ana!", want: "¿Qué pasó? ¡Mañana!"},
		{name: "German Windows-1252, short", data: "Gr\xf6\xdfe \x96 \x84sch\xf6n\x93", want: "Größe – „schön“"},
		{name: "given as UTF-8, and not", data: "caf\xe9", charset: "utf-8", err: "not UTF-8 text"},
		{name: "unknown charset", data: "x", charset: "klingon", err: `unknown charset "klingon"`},
		{name: "binary", data: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", err: "binary, not text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeText([]byte(tc.data), tc.charset)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %q, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestDecodeTextAsTheReader: a file whose start is UTF-8 and whose rest is
// not is read as UTF-8 by the reader (its bad lines skipped); DecodeText
// says so rather than decode it all in another charset.
func TestDecodeTextAsTheReader(t *testing.T) {
	data := strings.Repeat("Le café est servi. ", 4000) + "caf\xe9"
	if _, err := DecodeText([]byte(data), ""); err == nil || !strings.Contains(err.Error(), "not UTF-8 text past its start") {
		t.Errorf("got %v, want an error saying the text is not UTF-8 past its start", err)
	}
}

// randomAfterMark returns mark followed by n bytes of seeded random data
// with no aligned pair of NUL bytes (a NUL character, binary already).
func randomAfterMark(mark string, n int, seed uint64) string {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	for i := 0; i+1 < n; i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			b[i] = 1
		}
	}
	return mark + string(b)
}

// TestUTF16MarkBeforeBinary is the regression test of binary data that
// starts with the bytes of a UTF-16 byte-order mark (FF FE, FE FF) and
// holds no NUL character in its first 8 KiB: it was read as a text of
// CJK and private-use junk, where it had been skipped as binary. The
// text decoded is judged: many characters no text holds (U+FFFD of lone
// surrogates, private-use characters, C0 controls) make it binary, and
// UTF-16 text in any script is still read.
func TestUTF16MarkBeforeBinary(t *testing.T) {
	const junk = "blob: binary data (a UTF-16 byte-order mark before characters no text holds, in the first 8 KiB)"
	le := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM)
	be := unicode.UTF16(unicode.BigEndian, unicode.UseBOM)
	text := func(s string) []rec {
		title, body, _ := strings.Cut(s, "\n")
		q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		return []rec{{ID: "blob", Title: title, Text: body, Origin: "blob",
			Raw: `{"id":"blob","title":` + q(title) + `,"text":` + q(body) + `}`}}
	}
	for _, tc := range []struct {
		name, data string
		want       []rec
	}{
		{"random after FF FE", randomAfterMark("\xff\xfe", 4096, 1), []rec{{ID: "blob", Origin: "blob", Skip: "binary", Err: junk}}},
		{"random after FE FF", randomAfterMark("\xfe\xff", 4096, 2), []rec{{ID: "blob", Origin: "blob", Skip: "binary", Err: junk}}},
		{"random after FF FE, 9 KiB", randomAfterMark("\xff\xfe", 9<<10, 3), []rec{{ID: "blob", Origin: "blob", Skip: "binary", Err: junk}}},
		{"latin LE", encode(t, le, "Cup tie\nTickets cost £20 for the café final, à côté."), text("Cup tie\nTickets cost £20 for the café final, à côté.")},
		{"cyrillic BE", encode(t, be, "Кубок\nБилеты стоят 20 фунтов на финал в кафе."), text("Кубок\nБилеты стоят 20 фунтов на финал в кафе.")},
		{"cjk LE", encode(t, le, "杯赛\n决赛门票售价二十英镑。東京の決勝戦のチケット。"), text("杯赛\n决赛门票售价二十英镑。東京の決勝戦のチケット。")},
		{"emoji BE", encode(t, be, "Cup 🏆\nTickets 🎟️ for the final 🎉⚽😀 🇬🇧"), text("Cup 🏆\nTickets 🎟️ for the final 🎉⚽😀 🇬🇧")},
		{"tabs and form feeds LE", encode(t, le, "Cup tie\r\nTickets\tcost\f£20."), text("Cup tie\nTickets\tcost\f£20.")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader("blob", strings.NewReader(tc.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// randomText returns n bytes of seeded random data without a NUL byte:
// binary data that no NUL byte tells.
func randomText(n int, seed uint64) string {
	b := []byte(randomAfterMark("", n, seed))
	for i, c := range b {
		if c == 0 {
			b[i] = 0xff
		}
	}
	return string(b)
}

// TestBinaryWithoutNUL is the regression test of a binary file named .txt
// (or of no known name) that holds no NUL byte: it was decoded in the
// charset detected and became a document of C0 controls and symbols. A
// text heavy in characters no text holds (notText), in whatever charset
// it is read, is skipped as binary, by the reader and by DecodeText
// (neardup diff); text in a single-byte charset, and text with a few
// control characters (form feeds, a stray escape), is read.
func TestBinaryWithoutNUL(t *testing.T) {
	const junk = "binary data (more than one character in 16 is one that text hardly holds: a control character, U+FFFD, a private-use character)"
	russian := "Центральный банк России сохранил ключевую ставку на прежнем уровне, сообщили в пятницу в Москве."
	french := "Le café coûte £2 depuis lundi à Genève, où les élèves déjeunent à côté du musée."
	curly := "“Markets fell,” the minister said — it’s the third drop this week, and ‘no one’ expected it."
	colourLog := strings.TrimSpace(strings.Repeat("\x1b[1;32m[ OK ]\x1b[0m \x1b[36mtest_1\x1b[0m passed in \x1b[33m3ms\x1b[0m\n", 40))
	manPage := strings.TrimSpace(strings.Repeat("N\bNA\bAM\bME\bE ls - list directory contents. ", 20))
	softBreaks := strings.Repeat("a line\vbroken softly\v", 30) + "end"
	for _, tc := range []struct {
		name, file, data, charset string
		want                      string // the text read (title, a line break, text), "" for binary
	}{
		{"random bytes named .txt", "blob.txt", randomText(4000, 1), "", ""},
		{"random bytes named .md", "blob.md", randomText(4000, 2), "", ""},
		{"random bytes of no known name", "blob", randomText(4000, 3), "", ""},
		{"random bytes, a charset given", "blob.txt", randomText(4000, 4), "latin1", ""},
		{"random bytes, 200 of them", "blob.txt", randomText(200, 5), "", ""},
		{"utf-8 controls", "bell.txt", strings.Repeat("\x07ok\x01\x02\x03", 50), "", ""},
		// Regression (a reviewer's finding): a log saved with its colours,
		// a manual page with its overstruck letters and a text of soft
		// line breaks were skipped as binary.
		{"a log in colour", "log.txt", "Run\n" + colourLog, "", "Run\n" + colourLog},
		{"overstruck letters", "ls.txt", "LS\n" + manPage, "", "LS\n" + manPage},
		{"vertical tabs", "vt.txt", "Notes\n" + softBreaks, "", "Notes\n" + softBreaks},
		{"windows-1251", "ru.txt", encode(t, charmap.Windows1251, "Ставка\n"+russian), "", "Ставка\n" + russian},
		{"latin-1", "fr.txt", encode(t, charmap.ISO8859_1, "Le café\n"+french), "", "Le café\n" + french},
		{"windows-1252 curly quotes", "en.txt", encode(t, charmap.Windows1252, "“Markets”\n"+curly), "", "“Markets”\n" + curly},
		{"form feeds", "ff.txt", "Report\nPage one of the report.\fPage two of the report.\fPage three.", "",
			"Report\nPage one of the report.\fPage two of the report.\fPage three."},
		{"a stray escape", "esc.txt", "Report\nThe minister \x1b[1msaid\x1b[0m the bank would hold its rate this week.", "",
			"Report\nThe minister \x1b[1msaid\x1b[0m the bank would hold its rate this week."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), Options{Charset: tc.charset})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			want := []rec{{ID: tc.file, Origin: tc.file, Skip: "binary", Err: tc.file + ": " + junk}}
			if tc.want != "" {
				title, text, _ := strings.Cut(tc.want, "\n")
				q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
				want = []rec{{ID: tc.file, Title: title, Text: text, Origin: tc.file,
					Raw: `{"id":` + q(tc.file) + `,"title":` + q(title) + `,"text":` + q(text) + `}`}}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("reader (-want +got)\n%s", diff)
			}
			text, err := DecodeText([]byte(tc.data), tc.charset)
			switch {
			case tc.want == "" && (err == nil || !strings.Contains(err.Error(), "binary, not text")):
				t.Errorf("DecodeText: %q, %v; want binary, not text", text, err)
			case tc.want != "" && (err != nil || text != tc.want):
				t.Errorf("DecodeText: %q, %v; want %q", text, err, tc.want)
			}
		})
	}
}

// Regression: a text file skipped as binary for a NUL byte past the bytes
// sniffed was counted among the files read in a detected charset, and
// warned of ("read in the charset detected …, windows-1252"); a text file
// read so still is.
func TestDetectedLeavesOutBinary(t *testing.T) {
	latin := "Le caf\xe9 co\xfbte \xa3100 depuis lundi, et le th\xe9 aussi."
	for _, tc := range []struct {
		name, data string
		want       int
	}{
		{"binary past the sniff", strings.Repeat(latin+"\n", 300) + "\x00" + latin, 0},
		{"binary without a NUL byte", randomText(4000, 7), 0},
		{"text", strings.Repeat(latin+"\n", 300), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"a.txt": tc.data})
			t.Chdir(dir)
			r, err := open([]string{"a.txt"}, nil, Options{}, config{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			recs, err := drain(t, r)
			if err != nil || len(recs) != 1 {
				t.Fatalf("records %v, error %v", recs, err)
			}
			if n, first := r.Detected(); n != tc.want {
				t.Errorf("Detected() = %d (%q), want %d (record %+v)", n, first, tc.want, recs[0].Skip)
			}
		})
	}
}
