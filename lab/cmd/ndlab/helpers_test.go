package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// articleHTML returns a news page whose article has n paragraphs.
func articleHTML(title string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<html lang=en><head><title>%s</title></head><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>%s</h1>", title, title)
	for i := range n {
		fmt.Fprintf(&b, "<p>Paragraph %d of the story. The harbour authority said on Monday that the new ferry line would start in spring, "+
			"linking the two islands for the first time since the old pier closed.</p>", i)
	}
	b.WriteString("</article><footer>Contact us</footer></body></html>")
	return b.String()
}

// writeTree writes files (name → content) under a new temporary directory
// and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
