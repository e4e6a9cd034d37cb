package job

import "testing"

// TestRecordOfFile: the warning of documents without ids of their own is
// of records inside a file, which an id field could name, not of whole
// files, whose path is their only name (a reviewer saw it on every run of
// .txt and .html pages, advising an id field they cannot have).
func TestRecordOfFile(t *testing.T) {
	for origin, want := range map[string]bool{
		"day1/news.jsonl:17": true, "crawl.warc.gz#3": true, "a.csv:2": true,
		"pages/ferry.html": false, "notes/a.txt": false, "bbc.tar.gz/bbc/tech/132.txt": false,
		"c:/x.txt": false, "odd:": false, "": false,
	} {
		if got := recordOfFile(origin); got != want {
			t.Errorf("recordOfFile(%q) = %v, want %v", origin, got, want)
		}
	}
}
