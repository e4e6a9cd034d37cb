package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExtractMeta(t *testing.T) {
	var page bytes.Buffer
	zw := gzip.NewWriter(&page)
	html := strings.Replace(articleHTML("Ferry line opens", 5), "<title>Ferry line opens</title>", "<title>Ferry line opens | Port News</title>", 1)
	html = strings.Replace(html, "<h1>Ferry line opens</h1>", `<header><h1>Ferry line opens</h1><p class="meta">March 4, 2024</p></header>`, 1)
	zw.Write([]byte(html))
	zw.Close()
	dir := writeTree(t, map[string]string{
		"wcxb/ground-truth/0001.json": `{"url":"https://port.example/ferry","_internal":{"page_type":{"primary":"article"}},` +
			`"ground_truth":{"main_content":"x","title":"Ferry line opens","author":"Jane Roe","publish_date":"2024-03-04"}}`,
		"wcxb/html/0001.html.gz": page.String(),
	})
	tsv := filepath.Join(dir, "meta.tsv")
	args := []string{"-q", "extract-meta", "--gold", filepath.Join(dir, "wcxb"), "--system", "neardup", "--pages", tsv}
	if code := run(context.Background(), args); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	b, err := os.ReadFile(tsv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want a header and one page:\n%s", len(lines), b)
	}
	f := strings.Split(lines[1], "\t")
	if got := strings.Join(f[:8], " "); got != "wcxb neardup 0001 port.example tune true true false" {
		t.Errorf("page row %q: want the title and date right, no author", got)
	}
	// Regression: a date the page shows without a zone was written in UTC
	// (2024-03-04T00:00:00Z), as if the page said so.
	if len(f) < 12 || f[10] != "2024-03-04" || f[11] != "2024-03-04T00:00:00" {
		t.Errorf("page row %q: want the gold date 2024-03-04 and the found 2024-03-04T00:00:00, without an offset", lines[1])
	}
	if code := run(context.Background(), []string{"-q", "extract-meta", "--gold", filepath.Join(dir, "wcxb"), "--system", "nosuch"}); code != 2 {
		t.Errorf("exit code %d for an unknown system, want 2", code)
	}
}
