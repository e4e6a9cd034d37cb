package gen

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testSGML is two made-up stories in the Reuters-21578 layout and one
// without a body.
const testSGML = `<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="5544" NEWID="1">
<DATE>26-FEB-1987 15:01:01.79</DATE>
<TOPICS><D>cocoa</D><D>coffee</D></TOPICS>
<UNKNOWN> 
&#5;&#5;&#5;C T
&#22;&#22;&#1;f0704&#31;reute
u f BC-COCOA   02-26 0105</UNKNOWN>
<TEXT>&#2;
<TITLE>HARBOUR COCOA &lt;HCC> REVIEW</TITLE>
<DATELINE>    SALVADOR, Feb 26 - </DATELINE><BODY>Showers continued throughout the week in
the cocoa zone, the company &lt;HCC> said.
    Arrivals were 155,221 bags &amp; more
of 60 kilos.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" NEWID="2">
<DATE>26-FEB-1987 15:02:20.00</DATE>
<TOPICS></TOPICS>
<TEXT>&#2;
<TITLE>ACME WIDGETS INC &lt;ACW> 4TH QTR NET</TITLE>
<DATELINE>    CLEVELAND, Ohio, Feb 26 -
    </DATELINE><BODY>Shr 1.20 dlrs vs 1.10 dlrs
    Net 12,500,000 vs 11,400,000
 REUTER
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" NEWID="3">
<DATE>26-FEB-1987 15:03:00.00</DATE>
<TEXT TYPE="BRIEF">&#2;
<TITLE>BRIEF ITEM ONLY</TITLE>
&#3;</TEXT>
</REUTERS>
`

func TestParseReuters(t *testing.T) {
	got := ParseReuters([]byte(testSGML))
	want := []Base{
		{ID: "reuters-21578:1", Title: "HARBOUR COCOA <HCC> REVIEW", Dateline: "SALVADOR",
			Date:  time.Date(1987, 2, 26, 15, 1, 1, 0, time.UTC),
			Topic: "cocoa",
			Text:  "Showers continued throughout the week in the cocoa zone, the company <HCC> said.\n\nArrivals were 155,221 bags & more of 60 kilos."},
		{ID: "reuters-21578:2", Title: "ACME WIDGETS INC <ACW> 4TH QTR NET", Dateline: "CLEVELAND",
			Date: time.Date(1987, 2, 26, 15, 2, 20, 0, time.UTC),
			Text: "Shr 1.20 dlrs vs 1.10 dlrs\n\nNet 12,500,000 vs 11,400,000"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadReuters(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testSGML))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "reut2-000.sgm.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "reut2-001.sgm"), []byte(strings.ReplaceAll(testSGML, `NEWID="`, `NEWID="9`)), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not sgml"), 0o644)
	bases, err := LoadReuters(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range bases {
		ids = append(ids, b.ID)
	}
	if diff := cmp.Diff([]string{"reuters-21578:1", "reuters-21578:2", "reuters-21578:91", "reuters-21578:92"}, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if _, err := LoadReuters(t.TempDir()); err == nil {
		t.Error("empty directory: want an error")
	}
}

func FuzzParseReuters(f *testing.F) {
	f.Add([]byte(testSGML))
	f.Add([]byte("<REUTERS NEWID=\"1\"><BODY>a &#3; b &lt"))
	f.Add([]byte("<REUTERS><BODY></BODY></REUTERS><REUTERS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range ParseReuters(data) {
			if b.Text == "" || strings.Contains(b.Text, "\x03") || strings.HasSuffix(strings.ToLower(b.Text), " reuter") {
				t.Errorf("bad body %q", b.Text)
			}
		}
	})
}

func TestParseBBC(t *testing.T) {
	tests := []struct {
		name, file string
		data       string
		want       Base
		ok         bool
	}{
		{"article", "bbc/business/007.txt", "Ad sales boost profits\n\nQuarterly profits rose 76%.\n\nThe firm said sales grew.\n",
			Base{ID: "bbc:business/007", Title: "Ad sales boost profits", Topic: "business",
				Text: "Quarterly profits rose 76%.\n\nThe firm said sales grew."}, true},
		{"latin1", "bbc/sport/199.txt", "Cup tie\n\nTickets cost \xa320.\n",
			Base{ID: "bbc:sport/199", Title: "Cup tie", Topic: "sport", Text: "Tickets cost £20."}, true},
		{"readme", "bbc/README.TXT", "about", Base{}, false},
		{"no body", "bbc/tech/001.txt", "Title only\n", Base{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseBBC(tc.file, []byte(tc.data))
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadBBC(t *testing.T) {
	files := map[string]string{
		"bbc/README.TXT":       "readme",
		"bbc/tech/002.txt":     "Chips\n\nFaster chips.\n",
		"bbc/business/001.txt": "Shares\n\nShares rose.\n",
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	dir := t.TempDir()
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
		p := filepath.Join(dir, "unpacked", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	tw.Close()
	zw.Close()
	archive := filepath.Join(dir, "bbc.tar.gz")
	os.WriteFile(archive, buf.Bytes(), 0o644)
	for _, path := range []string{archive, filepath.Join(dir, "unpacked")} {
		bases, err := LoadBBC(path)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, b := range bases {
			ids = append(ids, b.ID)
		}
		if diff := cmp.Diff([]string{"bbc:business/001", "bbc:tech/002"}, ids); diff != "" {
			t.Errorf("%s: ids (-want +got):\n%s", path, diff)
		}
	}
	os.WriteFile(archive, buf.Bytes()[:buf.Len()/2], 0o644)
	if _, err := LoadBBC(archive); err == nil {
		t.Error("truncated archive: want an error")
	}
}

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"two", "Prices rose. Traders sold.", []string{"Prices rose.", "Traders sold."}},
		{"acronym", "The U.S. Treasury said so. It was late.", []string{"The U.S. Treasury said so.", "It was late."}},
		{"initial", "Francis X. Wazeter told shareholders.", []string{"Francis X. Wazeter told shareholders."}},
		{"abbreviation", "Sen. John Tower and Mr. Baker met. They agreed.", []string{"Sen. John Tower and Mr. Baker met.", "They agreed."}},
		{"quote", `"We will," he said. "Soon." Then he left.`, []string{`"We will," he said.`, `"Soon."`, "Then he left."}},
		{"decimal", "Shares rose 1.5 pct. Bonds fell.", []string{"Shares rose 1.5 pct.", "Bonds fell."}},
		{"lower", "He said no. and left.", []string{"He said no. and left."}},
		{"no period", "Shr 1.20 dlrs vs 1.10 dlrs", []string{"Shr 1.20 dlrs vs 1.10 dlrs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, splitSentences(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAppendJSON(t *testing.T) {
	d := DocRecord{ID: "d1", Title: "A <b> & \"q\"", Source: "S", URL: "https://x.example/a?b=1&c", Date: "1987-02-26T15:01:01Z"}
	text := "line\none\ttab \x01 \u2028 bad\xff end £"
	var got DocRecord
	if err := json.Unmarshal(appendDoc(nil, &d, []byte(text)), &got); err != nil {
		t.Fatal(err)
	}
	d.Text = perByteValid(text)
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("doc round trip (-want +got):\n%s", diff)
	}
	tr := TruthRecord{ID: "d2", Cluster: "d1", Base: "b~1", Ops: []Op{Truncate, Glue}, NegativeOf: "d0"}
	want, _ := json.Marshal(tr)
	if diff := cmp.Diff(string(want)+"\n", string(appendTruth(nil, &tr))); diff != "" {
		t.Errorf("truth encoding (-want +got):\n%s", diff)
	}
	tr = TruthRecord{ID: "d2", Cluster: "d2", Base: "b", Ops: []Op{}}
	want, _ = json.Marshal(tr)
	if diff := cmp.Diff(string(want)+"\n", string(appendTruth(nil, &tr))); diff != "" {
		t.Errorf("original's truth encoding (-want +got):\n%s", diff)
	}
}

// perByteValid replaces each invalid byte of s with U+FFFD.
func perByteValid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}
