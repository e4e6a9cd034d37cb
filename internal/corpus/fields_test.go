package corpus

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFieldsThatMatchNothing pins that a field name matching nothing in the
// first records is an error before any record is handed on, naming the
// fields seen; default names other than the text's may be missing.
func TestFieldsThatMatchNothing(t *testing.T) {
	jsonl := "{\"id\":\"1\",\"title\":\"T\",\"text\":\"a\"}\n{\"id\":\"2\",\"text\":\"b\",\"lang\":\"en\"}\n"
	csv := "id,title,text\n1,T,a\n"
	for _, tc := range []struct {
		name, file, data string
		opts             Options
		want             string
	}{
		{"text typo", "a.jsonl", jsonl, Options{TextField: "txet"},
			`a.jsonl: none of its 2 records has a field "txet" (the text); fields seen: "id", "lang", "text", "title"`},
		{"id typo", "a.jsonl", jsonl, Options{IDField: "nope"},
			`a.jsonl: none of its 2 records has a field "nope" (the id); fields seen: "id", "lang", "text", "title"`},
		{"no text field", "a.jsonl", "{\"body\":\"x\"}\n", Options{},
			`a.jsonl: its one record has no field "text" (the text); fields seen: "body"`},
		{"csv id typo", "a.csv", csv, Options{IDField: "nope"},
			`a.csv: no "nope" column (the id) in the header (columns: "id", "title", "text")`},
		{"case and defaults are fine", "a.jsonl", "{\"TEXT\":\"x\"}\n", Options{}, ""},
		{"a name the user gave, in another case", "a.jsonl", "{\"Body\":\"x\"}\n", Options{TextField: "body"}, ""},
		{"malformed records are each skipped", "a.jsonl", "not json\n", Options{}, ""},
		{"a JSON key with spaces is another key", "a.jsonl", "{\" body \":\"x\"}\n", Options{TextField: "body"},
			`a.jsonl: its one record has no field "body" (the text); fields seen: " body "`},
		{"a CSV column's spaces are its header's", "a.csv", " Body \nx\n", Options{TextField: "body"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if errString(err) != tc.want {
				t.Fatalf("error %q, want %q", errString(err), tc.want)
			}
			if err != nil && len(got) != 0 {
				t.Errorf("records before the error: %v", got)
			}
		})
	}
}

func TestFieldsSeen(t *testing.T) {
	r, err := OpenReader("a.jsonl", strings.NewReader("{\"body\":\"x\",\"id\":1}\n"), Options{TextField: "body"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := drain(t, r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"body", "id"}, r.FieldsSeen()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestFieldErrorLikely pins which field a FieldError names as probably
// meant: a name within two edits of the one looked for (a typo), else one
// news corpora commonly give the field, compared by letters and digits.
// Regression: a name whose value is an object was named, which every
// record then failed ("want a string, got object"): the name likely meant
// inside it is named as a path, and one holding nothing likely, or an
// array, is passed over. Regression: a likely key inside an object whose
// own name is not likely (Elasticsearch's _source) was not named.
func TestFieldErrorLikely(t *testing.T) {
	for _, tc := range []struct {
		file, data string
		opts       Options
		want       string
	}{
		{"a.jsonl", "{\"id\":\"1\",\"content\":\"x\",\"headline\":\"h\"}\n", Options{}, "content"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":\"x\",\"content\":\"y\"}\n", Options{}, "body"},
		{"a.jsonl", "{\"id\":\"1\",\"Full Text\":\"x\"}\n", Options{}, "Full Text"},
		{"a.jsonl", "{\"id\":\"1\",\"texts\":\"x\"}\n", Options{}, "texts"},
		{"a.jsonl", "{\"id\":\"1\",\"text\":\"x\"}\n", Options{TextField: "txet"}, "text"},
		{"a.jsonl", "{\"id\":\"1\",\"text\":\"x\",\"headline\":\"h\"}\n", Options{TitleField: "header"}, "headline"},
		{"a.jsonl", "{\"id\":\"1\",\"zzz\":\"x\"}\n", Options{}, ""},
		{"a.jsonl", "{\"id\":\"n1\",\"body\":{\"text\":\"x\"}}\n", Options{}, "body.text"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":{\"lang\":\"en\",\"content\":\"x\"}}\n", Options{}, "body.content"},
		{"a.jsonl", "{\"id\":\"1\",\"article\":{\"body\":{\"text\":\"x\"}}}\n", Options{}, "article.body.text"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":{\"lang\":\"en\"},\"content\":\"x\"}\n", Options{}, "content"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":[\"x\"]}\n", Options{}, ""},
		{"a.jsonl", "{\"id\":\"e0\",\"_source\":{\"content\":\"x\"}}\n", Options{}, "_source.content"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":{\"lang\":\"en\"},\"hit\":{\"_source\":{\"content\":\"x\"}}}\n", Options{}, "hit._source.content"},
		{"a.jsonl", "{\"id\":\"1\",\"body\":{\"text\":\"x\"}}\n{\"id\":\"2\",\"body\":\"y\"}\n", Options{}, "body"},
		{"a.csv", "url,headline,body\nu,h,b\n", Options{}, "body"},
		{"a.csv", "ident,text\n1,b\n", Options{IDField: "idnet"}, "ident"},
	} {
		r, err := OpenReader(tc.file, strings.NewReader(tc.data), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(t, r)
		r.Close()
		var fe *FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%s %q: error %v, want a *FieldError", tc.file, tc.data, err)
			continue
		}
		if got := fe.Likely(); got != tc.want {
			t.Errorf("%s %q: Likely() = %q, want %q (error %v)", tc.file, tc.data, got, tc.want, err)
		}
	}
}

// Regression: a CSV file without a header row was refused listing its
// first row of data as its columns, with the generic --text-col hint; it
// is said to look like a row, and the hint asks for a header.
func TestFieldErrorNoHeader(t *testing.T) {
	for _, tc := range []struct {
		name, data       string
		opts             Options
		wantErr, wantHnt string
	}{
		{"numbers and a text", "1,A,The council voted on Tuesday to approve a new bridge across the harbour,2024-03-05\n2,B,x,y\n",
			Options{},
			`a.csv: no "text" column (the text): the first line, read as the header, looks like a row of data ` +
				`(fields: "1", "A", "The council voted on Tuesday to approve…", "2024-03-05")`,
			`a CSV or TSV file needs a header as its first line, naming its columns: add one that names the text column "text" ` +
				`(or another name, given to --text-col)`},
		{"an id column asked for", "7,words\n8,more\n", Options{IDField: "docid", TextField: "words"},
			`a.csv: no "docid" column (the id): the first line, read as the header, looks like a row of data (fields: "7", "words")`,
			`a CSV or TSV file needs a header as its first line, naming its columns: add one that names the id column "docid" ` +
				`(or another name, given to --id-col)`},
		{"regression: a header naming year columns", "country,2019,2020,summary\nFrance,1,2,The ferry service is back\n", Options{},
			`a.csv: no "text" column (the text) in the header (columns: "country", "2019", "2020", "summary")`,
			`--text-col NAME reads the text from the field or column NAME`},
		{"a header of names", "id,headline,lede\n1,h,b\n", Options{},
			`a.csv: no "text" column (the text) in the header (columns: "id", "headline", "lede")`,
			`--text-col NAME reads the text from the field or column NAME`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader("a.csv", strings.NewReader(tc.data), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			_, err = drain(t, r)
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *FieldError", err)
			}
			if fe.Error() != tc.wantErr {
				t.Errorf("error %q, want %q", fe.Error(), tc.wantErr)
			}
			if fe.Hint() != tc.wantHnt {
				t.Errorf("hint %q, want %q", fe.Hint(), tc.wantHnt)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"text", "text", 3, 0}, {"text", "txet", 3, 2}, {"text", "texts", 3, 1}, {"", "abc", 5, 3},
		{"kitten", "sitting", 5, 3}, {"kitten", "sitting", 3, 3}, {"a", "abcdef", 3, 3},
	} {
		if got := editDistance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
}

// TestUnreadFields pins which fields a reader notes as unread: a field
// looked for under its default name that an input lacks while it holds a
// name news corpora give that field; not one a flag named, not the text
// (its lack is an error), and each field once, with the first input.
func TestUnreadFields(t *testing.T) {
	for _, tc := range []struct {
		name, file, data string
		opts             Options
		want             []UnreadField
	}{
		{"a CSV file's header", "a.csv", "article_id,headline,body,source_url,publish_date\n1,H,b,u,2024-01-02\n", Options{TextField: "body"},
			[]UnreadField{
				{Field: "id", Name: "id", Alias: "article_id", Origin: "a.csv"},
				{Field: "title", Name: "title", Alias: "headline", Origin: "a.csv"},
				{Field: "URL", Name: "url", Alias: "source_url", Origin: "a.csv"},
				{Field: "date", Name: "date", Alias: "publish_date", Origin: "a.csv"},
			}},
		{"JSON Lines keys", "a.jsonl", "{\"text\":\"x\",\"Publication\":\"Daily\"}\n", Options{},
			[]UnreadField{{Field: "source", Name: "source", Alias: "Publication", Origin: "a.jsonl"}}},
		{"a crawler's field names", "a.jsonl", "{\"maintext\":\"x\",\"source_domain\":\"s\",\"date_publish\":\"2024-01-02\"}\n", Options{TextField: "maintext"},
			[]UnreadField{
				{Field: "source", Name: "source", Alias: "source_domain", Origin: "a.jsonl"},
				{Field: "date", Name: "date", Alias: "date_publish", Origin: "a.jsonl"},
			}},
		{"the default name there", "a.jsonl", "{\"text\":\"x\",\"Title\":\"T\",\"headline\":\"H\"}\n", Options{}, nil},
		{"a JSON key of the default name with spaces", "a.jsonl", "{\"text\":\"x\",\" title\":\"T\"}\n", Options{},
			[]UnreadField{{Field: "title", Name: "title", Alias: " title", Origin: "a.jsonl"}}},
		{"a JSON key of the default name with spaces, before another name", "a.jsonl", "{\"text\":\"x\",\"title \":\"T\",\"headline\":\"H\"}\n", Options{},
			[]UnreadField{{Field: "title", Name: "title", Alias: "title ", Origin: "a.jsonl"}}},
		{"a CSV column of the default name with spaces is read", "a.csv", "text, title \nx,T\n", Options{}, nil},
		{"a name a flag gave", "a.jsonl", "{\"text\":\"x\",\"heading\":\"T\",\"headline\":\"H\"}\n", Options{TitleField: "heading"}, nil},
		{"no name likely", "a.csv", "text,lang\nx,en\n", Options{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if _, err := drain(t, r); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.UnreadFields()); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestDottedFieldNames pins how a field named by a dotted path is checked
// against the first records: a JSON record's path matches when one of
// them holds it whole, ignoring case as a key does, or a key that is the
// whole name; the error names the nested keys the path led through, and
// the one likely meant. A CSV column's name is the whole name, dots and
// all.
func TestDottedFieldNames(t *testing.T) {
	for _, tc := range []struct {
		file, data string
		want       string
		likely     string // FieldError.Likely
	}{
		{"a.jsonl", "{\"meta\":{\"body\":\"x\"}}\n", "", ""},
		{"a.jsonl", "{\"meta.body\":\"x\"}\n", "", ""},
		{"a.jsonl", "{\"Meta\":{\"BODY\":\"x\"}}\n", "", ""},
		{"a.jsonl", "{\"meta\":{\"lead\":\"x\"}}\n{\"meta\":{\"body\":null}}\n", "", ""},
		{"a.jsonl", "{\"data\":{\"body\":\"x\"}}\n", `a.jsonl: its one record has no field "meta.body" (the text); fields seen: "data"`, "data.body"},
		// The path's first key there, the rest mistyped or leading
		// nowhere: every record was read without the field, in silence
		// for a title or a date.
		{"a.jsonl", "{\"meta\":{\"bdy\":\"x\",\"lead\":\"y\"}}\n",
			`a.jsonl: its one record has no field "meta.body" (the text); fields seen: "meta", "meta.bdy", "meta.lead"`, "meta.bdy"},
		{"a.jsonl", "{\"meta\":\"x\"}\n{\"meta\":[{\"body\":\"y\"}]}\n",
			`a.jsonl: none of its 2 records has a field "meta.body" (the text); fields seen: "meta"`, ""},
		{"a.csv", "meta.body\nx\n", "", ""},
		{"a.csv", "meta,body\nx,y\n", `a.csv: no "meta.body" column (the text) in the header (columns: "meta", "body")`, "body"},
	} {
		r, err := OpenReader(tc.file, strings.NewReader(tc.data), Options{TextField: "meta.body"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = drain(t, r)
		r.Close()
		if errString(err) != tc.want {
			t.Errorf("%s %q: error %q, want %q", tc.file, tc.data, errString(err), tc.want)
		}
		var fe *FieldError
		if errors.As(err, &fe) && fe.Likely() != tc.likely {
			t.Errorf("%s %q: likely %q, want %q", tc.file, tc.data, fe.Likely(), tc.likely)
		}
	}
	// A title's path mistyped, the text's right: the records were read
	// without titles.
	data := "{\"_source\":{\"headline\":\"H\",\"body\":{\"text\":\"x\"}}}\n"
	r, err := OpenReader("a.jsonl", strings.NewReader(data), Options{TextField: "_source.body.text", TitleField: "_source.hedline"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = drain(t, r)
	want := `a.jsonl: its one record has no field "_source.hedline" (the title); fields seen: "_source", "_source.body", "_source.body.text", "_source.headline"`
	var fe *FieldError
	if errString(err) != want || !errors.As(err, &fe) || fe.Likely() != "_source.headline" {
		t.Errorf("a title's path mistyped: error %q, want %q and _source.headline likely", errString(err), want)
	}
}

// TestDottedPathCase: where keys of a nested object differ only in case,
// the field check follows the decoding: it took the last one matching, a
// key in a map's order before that, and says now as the decoding does
// that they clash (see matchColumn). No error stops the run before its
// records (the path is there), and each record is skipped naming the keys
// and the flags that choose one.
func TestDottedPathCase(t *testing.T) {
	data := `{"text":"x","meta":{"Body":{"text":"a"},"bOdy":{"text":"b"},"boDy":{"text":"c"},"BODY":{"txt":"d"}}}` + "\n"
	want := `a.jsonl:1: field "meta.body.text": keys "meta.Body", "meta.bOdy", "meta.boDy" and "meta.BODY" are all ` +
		`"meta.body" (the title) but for case, and none is it exactly; --title-col names the one to read: ` +
		`--title-col meta.Body.text or --title-col meta.bOdy.text or --title-col meta.boDy.text or --title-col meta.BODY.text`
	r, err := OpenReader("a.jsonl", strings.NewReader(data), Options{TitleField: "meta.body.text"})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := drain(t, r)
	r.Close()
	if err != nil || len(docs) != 1 || docs[0].Skip != "malformed" || docs[0].Err != want {
		t.Fatalf("%+v, %v; want one record skipped as malformed: %s", docs, err, want)
	}
	// An exact match wins over the others, wherever it stands.
	data = `{"text":"x","meta":{"body":{"text":"a"},"BODY":{"txt":"d"}}}` + "\n"
	r, err = OpenReader("a.jsonl", strings.NewReader(data), Options{TitleField: "meta.body.text"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	docs, err = drain(t, r)
	if err != nil || len(docs) != 1 || docs[0].Title != "a" {
		t.Errorf("exact key: %v, %v; want one document titled a", docs, err)
	}
}

// TestFieldNameClash is the regression test of a field whose name two
// columns or keys matched but for case, none exactly (a short decoy
// "TEXT" beside the text "Text"): CSV and Parquet read the first, JSON the
// last key of each object, each in silence. The rule is one for every
// field and format: an exact name wins, else the one name that matches
// but for case; two or more are an error of the file for a header (CSV,
// Parquet), and a malformed record for JSON, naming them and the flags
// that choose one.
func TestFieldNameClash(t *testing.T) {
	type decoy struct {
		ID    string `parquet:"ID"`
		Decoy string `parquet:"TEXT"`
		Text  string `parquet:"Text"`
	}
	type exact struct {
		Decoy string `parquet:"TEXT"`
		Text  string `parquet:"text"`
		Other string `parquet:"Text"`
	}
	type titles struct {
		Text string `parquet:"text"`
		A    string `parquet:"Title"`
		B    string `parquet:"TITLE"`
	}
	const textClash = `columns "TEXT" and "Text" are both "text" (the text) but for case, and none is it exactly; ` +
		`--text-col names the one to read: --text-col TEXT or --text-col Text`
	for _, tc := range []struct {
		name, file, data string
		opts             Options
		err              string
		want             []rec // ID, Title, Text, URL, Skip and Err
	}{
		{name: "CSV, two columns but for case", file: "a.csv", data: "ID,TEXT,Text\n1,decoy,the text\n", err: "a.csv: " + textClash},
		{name: "Parquet, two columns but for case", file: "a.parquet", data: parquetOf(t, []decoy{{"1", "decoy", "the text"}}, 10),
			err: "a.parquet: " + textClash},
		{name: "JSON, two keys but for case", file: "a.jsonl", data: `{"ID":"1","TEXT":"decoy","Text":"the text"}` + "\n",
			want: []rec{{ID: "1", Skip: "malformed", Err: `a.jsonl:1: field "text": keys "TEXT" and "Text" are both "text" (the text) ` +
				`but for case, and none is it exactly; --text-col names the one to read: --text-col TEXT or --text-col Text`}}},
		{name: "JSON, the keys in the other order", file: "a.jsonl", data: `{"Text":"the text","TEXT":"decoy"}` + "\n",
			want: []rec{{ID: "a.jsonl:1", Skip: "malformed", Err: `a.jsonl:1: field "text": keys "Text" and "TEXT" are both "text" (the text) ` +
				`but for case, and none is it exactly; --text-col names the one to read: --text-col Text or --text-col TEXT`}}},
		{name: "CSV, a column's spaces", file: "a.csv", data: " Text,TEXT\nthe text,decoy\n",
			err: `a.csv: columns " Text" and "TEXT" are both "text" (the text) but for case, and none is it exactly; ` +
				`--text-col names the one to read: --text-col ' Text' or --text-col TEXT`},
		{name: "CSV, an exact name wins", file: "a.csv", data: "TEXT,text,Text\ndecoy,the text,other\n",
			want: []rec{{ID: "a.csv:2", Text: "the text"}}},
		{name: "Parquet, an exact name wins", file: "a.parquet", data: parquetOf(t, []exact{{"decoy", "the text", "other"}}, 10),
			want: []rec{{ID: "a.parquet:1", Text: "the text"}}},
		{name: "JSON, an exact name wins", file: "a.jsonl", data: `{"TEXT":"decoy","text":"the text","Text":"other"}` + "\n",
			want: []rec{{ID: "a.jsonl:1", Text: "the text"}}},
		{name: "CSV, one name but for case", file: "a.csv", data: "Text\nthe text\n", want: []rec{{ID: "a.csv:2", Text: "the text"}}},
		{name: "JSON, one key but for case", file: "a.jsonl", data: `{"Text":"the text"}` + "\n", want: []rec{{ID: "a.jsonl:1", Text: "the text"}}},
		{name: "JSON, one key repeated, the last read", file: "a.jsonl", data: `{"Text":"old","Text":"the text"}` + "\n",
			want: []rec{{ID: "a.jsonl:1", Text: "the text"}}},
		{name: "CSV, a flag chooses", file: "a.csv", data: "ID,TEXT,Text\n1,decoy,the text\n", opts: Options{TextField: "Text"},
			want: []rec{{ID: "1", Text: "the text"}}},
		{name: "Parquet, a flag chooses", file: "a.parquet", data: parquetOf(t, []decoy{{"1", "decoy", "the text"}}, 10),
			opts: Options{TextField: "Text"}, want: []rec{{ID: "1", Text: "the text"}}},
		{name: "JSON, a flag chooses", file: "a.jsonl", data: `{"ID":"1","TEXT":"decoy","Text":"the text"}` + "\n",
			opts: Options{TextField: "Text"}, want: []rec{{ID: "1", Text: "the text"}}},
		{name: "CSV, the id", file: "a.csv", data: "Id,ID,text\n1,2,the text\n",
			err: `a.csv: columns "Id" and "ID" are both "id" (the id) but for case, and none is it exactly; --id-col names the one to read: --id-col Id or --id-col ID`},
		{name: "Parquet, the title", file: "a.parquet", data: parquetOf(t, []titles{{"the text", "A", "B"}}, 10),
			err: `a.parquet: columns "Title" and "TITLE" are both "title" (the title) but for case, and none is it exactly; ` +
				`--title-col names the one to read: --title-col Title or --title-col TITLE`},
		{name: "CSV, the date, three", file: "a.csv", data: "text,Date,DATE,date \nthe text,2024-01-02,2023-01-02,2022-01-02\n",
			err: `a.csv: columns "Date", "DATE" and "date " are all "date" (the date) but for case, and none is it exactly; ` +
				`--date-col names the one to read: --date-col Date or --date-col DATE or --date-col 'date '`},
		{name: "JSON, the id", file: "a.jsonl", data: `{"Id":"1","ID":"2","text":"the text"}` + "\n",
			want: []rec{{ID: "a.jsonl:1", Skip: "malformed", Err: `a.jsonl:1: field "id": keys "Id" and "ID" are both "id" (the id) ` +
				`but for case, and none is it exactly; --id-col names the one to read: --id-col Id or --id-col ID`}}},
		{name: "JSON, the URL", file: "a.jsonl", data: `{"id":"1","text":"the text","Url":"http://a","URL":"http://b"}` + "\n",
			want: []rec{{ID: "1", Skip: "malformed", Err: `a.jsonl:1: field "url": keys "Url" and "URL" are both "url" (the URL) ` +
				`but for case, and none is it exactly; --url-col names the one to read: --url-col Url or --url-col URL`}}},
		// Two keys holding one value are no clash: either is the field's.
		{name: "JSON, the URL twice, one value", file: "a.jsonl", data: `{"id":"1","text":"the text","Url":"http://a","URL":"http://a"}` + "\n",
			want: []rec{{ID: "1", Text: "the text", URL: "http://a"}}},
		{name: "JSON, inside a dotted path", file: "a.jsonl", data: `{"doc":{"Body":{"text":"the text"},"BODY":{"text":"decoy"}}}` + "\n",
			opts: Options{TextField: "doc.body.text"},
			want: []rec{{ID: "a.jsonl:1", Skip: "malformed", Err: `a.jsonl:1: field "doc.body.text": keys "doc.Body" and "doc.BODY" are both ` +
				`"doc.body" (the text) but for case, and none is it exactly; --text-col names the one to read: ` +
				`--text-col doc.Body.text or --text-col doc.BODY.text`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := OpenReader(tc.file, strings.NewReader(tc.data), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := drain(t, r)
			if errString(err) != tc.err {
				t.Fatalf("error %q, want %q", errString(err), tc.err)
			}
			for i := range got {
				got[i].Origin, got[i].Raw = "", ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("records (-want +got)\n%s", diff)
			}
		})
	}
}
