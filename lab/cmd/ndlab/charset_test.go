package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"
)

// TestCharsetEval reads a small TSV of Russian articles, a small BBC
// archive and a small DAnIEL corpus of one Polish text and checks the
// table: every text written in each charset and form that holds a byte past
// ASCII is counted, and these are read right as a page and as a text.
func TestCharsetEval(t *testing.T) {
	ru := "Министерство финансов сообщило во вторник, что доходы бюджета выросли на пять процентов. " +
		"По словам заместителя министра, рост обеспечили налоговые поступления и экспорт зерна. " +
		"Эксперты ожидают, что к концу года дефицит сократится, если цены на нефть останутся высокими."
	tsv := "INPUT:first_title\tINPUT:second_title\tINPUT:first_url\tINPUT:second_url\tINPUT:first_text\tINPUT:second_text\tGOLDEN:quality\n" +
		"Доходы бюджета выросли\tБюджет растёт\tu1\tu2\t" + ru + "\t" + ru + " Отчёт выйдет в пятницу.\tOK\n"
	dir := writeTree(t, map[string]string{"ru.tsv": tsv})
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	tw := tar.NewWriter(zw)
	story := "Shares rise\n\nThe market's mood - as traders put it - lifted after the bank's statement on Tuesday.\n"
	tw.WriteHeader(&tar.Header{Name: "bbc/business/001.txt", Mode: 0o644, Size: int64(len(story))})
	tw.Write([]byte(story))
	tw.Close()
	zw.Close()
	bbc := filepath.Join(dir, "bbc.tar.gz")
	if err := os.WriteFile(bbc, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ruTexts, err := tgnewsTexts(filepath.Join(dir, "ru.tsv"))
	if err != nil || len(ruTexts) != 2 {
		t.Fatalf("tgnews: %d texts, %v", len(ruTexts), err)
	}
	enTexts, err := bbcTexts(bbc)
	if err != nil || len(enTexts) != 1 || !strings.Contains(enTexts[0][1], "market\u2019s mood \u2013 as") {
		t.Fatalf("BBC: %q, %v", enTexts, err)
	}
	pl := "Zażółć gęślą jaźń, czyli próba\nŚroda w Łodzi: pięćdziesiąt źródeł mówi, że żółw ściga się z jeżem."
	name := "20111121_www.example.pl_490a3e1ab669b249644690e80d69082a2e8c030f61a35f86f391f703"
	daniel := writeTree(t, map[string]string{
		"doc_lg.json":       `{"` + name + `": "Polish"}`,
		"html/" + name:      "<html><body><p>x</p></body></html>",
		"reference/" + name: "<p>Zażółć gęślą jaźń, czyli próba</p>\n<p>Środa w Łodzi: pięćdziesiąt źródeł mówi, że żółw ściga się z jeżem.</p>",
	})
	plTexts, err := danielTexts(daniel, "pl")
	if err != nil || len(plTexts) != 1 || plTexts[0][0]+"\n"+plTexts[0][1] != pl {
		t.Fatalf("DAnIEL: %q, %v", plTexts, err)
	}
	var out strings.Builder
	if err := runCharsetEval([]charsetSet{
		{"ru", ruTexts, charmap.Windows1251},
		{"en", enTexts, charmap.Windows1252},
		{"pl", plTexts, charmap.Windows1250},
	}, &out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ru whole 2 2 2",
		// two titles of three words: too few bytes to tell the charset by
		"ru first line 2 0 iso-8859-7 1, windows-1252 1 0 iso-8859-7 1, windows-1252 1",
		"ru 100 bytes 2 2 2",
		"en whole 1 1 1", // its first line is ASCII
		"en first line 0 0 0", "en 100 bytes 1 1 1",
		"pl whole 1 1 1", "pl first line 1 1 1", "pl 100 bytes 1 1 1",
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		rows = append(rows, strings.Join(strings.Fields(line), " "))
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows: set, form, texts, read right as a page, as a text (-want +got):\n%s\n%s", diff, out.String())
	}
}
