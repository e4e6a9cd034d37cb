package corpus

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const reutersSGML = `<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" OLDID="5544" NEWID="1">
<DATE>26-FEB-1987 15:01:01.79</DATE>
<TOPICS><D>cocoa</D></TOPICS>
<PLACES><D>el-salvador</D><D>usa</D></PLACES>
<UNKNOWN> 
&#5;&#5;&#5;C T
&#22;&#22;&#1;f0704&#31;reute
u f BC-BAHIA-COCOA-REVIEW   02-26 0105</UNKNOWN>
<TEXT>&#2;
<TITLE>BAHIA COCOA &amp; SUGAR REVIEW</TITLE>
<DATELINE>    SALVADOR, Feb 26 - </DATELINE><BODY>Showers continued throughout the week in
the Bahia cocoa zone &lt;CSRA>, alleviating the drought.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
<ReUTERs NEWID="2"><date>27-mar-1987 09:00:00.00</date>
<text><title>Mixed case</title><Body>Tags in any case are read.
 REUTER
&#3;</bODY></TEXT></reuters>
<REUTERS NEWID="3">
<TEXT TYPE="BRIEF">&#2;
******<TITLE>ASSETS OF MONEY MARKET MUTUAL FUNDS ROSE
</TITLE>Blah blah blah.
&#3;

</TEXT>
</REUTERS>
<REUTERS NEWID="4">
<TEXT TYPE="UNPROC">&#2;
FEDERAL RESERVE WEEKLY REPORT 1 - FEB 26
 Net free reserves.............644 vs.....1,337
 Reuter
&#3;</TEXT>
</REUTERS>
<REUTERS NEWID="5"><TEXT><TITLE>No body</TITLE></TEXT></REUTERS>
<REUTERS NEWID="6"><TEXT><BODY>Caf` + "\xe9" + ` and a stray byte.</BODY></TEXT></REUTERS>
<REUTERS NEWID="7"><TEXT><BODY>Not closed, ended by the next.
<REUTERS NEWID="8"><TEXT><BODY>Last, at the end of the file`

// TestReutersSGML pins that Reuters-21578 SGML is read as documents, by its
// extension and by its content: one a <REUTERS> element, tags in any case
// (the fuzzer found "ReUTER" failing), entities decoded, the sign-off and
// control characters dropped, briefs and stories without text skipped as
// empty, a stray byte read as Windows-1252, a story not closed ended by the
// next, and one the file ends inside skipped as malformed, cut short.
func TestReutersSGML(t *testing.T) {
	want := []rec{
		{ID: "1", Title: "BAHIA COCOA & SUGAR REVIEW", Text: "SALVADOR, Feb 26 - Showers continued throughout the week in\nthe Bahia cocoa zone <CSRA>, alleviating the drought.",
			Date: "1987-02-26T15:01:01", Origin: "x:2",
			Raw: `{"id":"1","title":"BAHIA COCOA & SUGAR REVIEW","dateline":"SALVADOR, Feb 26 -","date":"1987-02-26T15:01:01","text":"SALVADOR, Feb 26 - Showers continued throughout the week in\nthe Bahia cocoa zone <CSRA>, alleviating the drought.","topics":["cocoa"],"places":["el-salvador","usa"]}`},
		{ID: "2", Title: "Mixed case", Text: "Tags in any case are read.", Date: "1987-03-27T09:00:00", Origin: "x:17",
			Raw: `{"id":"2","title":"Mixed case","dateline":"","date":"1987-03-27T09:00:00","text":"Tags in any case are read.","topics":[],"places":[]}`},
		{ID: "3", Title: "ASSETS OF MONEY MARKET MUTUAL FUNDS ROSE", Origin: "x:21", Skip: "empty", Err: `x:21: field "text": a brief: a headline without a body`},
		{ID: "4", Text: "FEDERAL RESERVE WEEKLY REPORT 1 - FEB 26\n Net free reserves.............644 vs.....1,337", Origin: "x:29",
			Raw: `{"id":"4","title":"","dateline":"","date":"","text":"FEDERAL RESERVE WEEKLY REPORT 1 - FEB 26\n Net free reserves.............644 vs.....1,337","topics":[],"places":[]}`},
		{ID: "5", Title: "No body", Origin: "x:36", Skip: "empty", Err: `x:36: field "text": empty`},
		{ID: "6", Text: "Café and a stray byte.", Origin: "x:37", Raw: `{"id":"6","title":"","dateline":"","date":"","text":"Café and a stray byte.","topics":[],"places":[]}`},
		{ID: "7", Text: "Not closed, ended by the next.", Origin: "x:38", Raw: `{"id":"7","title":"","dateline":"","date":"","text":"Not closed, ended by the next.","topics":[],"places":[]}`},
		// Regression: a file cut short inside its last story kept it, cut, as a whole document.
		{ID: "x:39", Origin: "x:39", Skip: "malformed",
			Err: "x:39: malformed: the file ends inside this story (no </REUTERS>, lines 39 to 39): it is cut short, not read"},
	}
	for _, name := range []string{"x.sgm", "x"} {
		t.Run(name, func(t *testing.T) {
			r, err := OpenReader(name, strings.NewReader(reutersSGML), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if err != nil {
				t.Fatal(err)
			}
			w := want
			if name != "x" {
				w = nil
				for _, rc := range want {
					rc.Origin = strings.Replace(rc.Origin, "x:", name+":", 1)
					rc.ID = strings.Replace(rc.ID, "x:", name+":", 1)
					rc.Err = strings.Replace(rc.Err, "x:", name+":", 1)
					w = append(w, rc)
				}
			}
			if diff := cmp.Diff(w, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func FuzzReuters(f *testing.F) {
	// Small seeds, so that minimising an input found interesting is quick;
	// TestReutersSGML reads a whole file.
	f.Add([]byte("<!DOCTYPE lewis>\n<REUTERS NEWID=\"1\"><DATE>26-FEB-1987 15:01:01.79</DATE><TEXT><TITLE>T &amp; U</TITLE><BODY>a\n Reuter\n&#3;</BODY></TEXT></REUTERS>"))
	f.Add([]byte("<REUTERS NEWID=\"3\"><TEXT TYPE=\"BRIEF\"><TITLE>T</TITLE>Blah.</TEXT></REUTERS>"))
	f.Add([]byte("<REUTERS<BODY>\x03</BODY>"))
	f.Add([]byte("<REUTERS<BODY>0Reuter</BODY>0"))
	f.Add([]byte("<ReUTER NEWID=\"1\"><body>a &#3; b &lt</BODY></REUTERS><REUTERS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4<<10 {
			return
		}
		fuzzRead(t, "x.sgm", data, false)
		fuzzRead(t, "x.sgm", data, true)
		r, err := OpenReader("x.sgm", strings.NewReader(string(data)), Options{SinglePass: true})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for {
			rc, err := r.Next()
			if err != nil {
				break
			}
			if rc.Skip == "" && (strings.ContainsAny(rc.Doc.Text, "\x03\x00") || strings.HasSuffix(strings.ToLower(rc.Doc.Text), "\nreuter")) {
				t.Errorf("bad text %q", rc.Doc.Text)
			}
		}
	})
}

// TestReutersSGMLUnreadDate: a story's DATE no layout reads leaves it
// undated, counted and named as any input's unread date. Regression: it
// was neither.
func TestReutersSGMLUnreadDate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.sgm": `<REUTERS NEWID="1"><DATE>garbage date</DATE><TEXT><BODY>A story with a date no one reads.</BODY></TEXT></REUTERS>
<REUTERS NEWID="2"><DATE>31-FEB-1987 10:00:00.00</DATE><TEXT><BODY>A story on a day that is not.</BODY></TEXT></REUTERS>
<REUTERS NEWID="3"><DATE>26-FEB-1987 15:01:01.79</DATE><TEXT><BODY>A story dated as Reuters dates them.</BODY></TEXT></REUTERS>`})
	t.Chdir(dir)
	r, err := Open([]string{"a.sgm"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dated := 0
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if !rec.Doc.Date.IsZero() {
			dated++
		}
	}
	if n, first := r.UnreadDates(); n != 2 || !strings.HasPrefix(first, `"garbage date" at a.sgm`) || dated != 1 {
		t.Errorf("%d unread dates, first %s, %d dated; want 2, garbage date at a.sgm…, 1", n, first, dated)
	}
}
