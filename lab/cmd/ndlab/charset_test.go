package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

// TestCharsetEval reads a small TSV of Russian articles and a small BBC
// archive and checks the table: every page written in each charset is
// counted, and these, long enough to detect, are read right.
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
	var out strings.Builder
	if err := runCharsetEval([]charsetSet{
		{"ru", ruTexts, charmap.Windows1251, "windows-1251"},
		{"en", enTexts, charmap.Windows1252, "windows-1252"},
	}, &out); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(line)
		rows[f[0]] = strings.Join(f[1:], " ")
	}
	if rows["ru"] != "2 2" || rows["en"] != "1 1" {
		t.Errorf("pages and pages read right: %q, want ru 2 2, en 1 1:\n%s", rows, out.String())
	}
}
