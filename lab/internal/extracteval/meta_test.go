package extracteval

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSameTitle(t *testing.T) {
	for _, tc := range []struct {
		gold, found string
		want        bool
	}{
		{"Ferry returns", "Ferry Returns!", true},
		{"Ferry returns", "Ferry returns | Port News", false},
		{"南海トラフ、一時調査", "南海トラフ、一時調査", true},
		{"", "", false},
	} {
		if got := SameTitle(tc.gold, tc.found); got != tc.want {
			t.Errorf("SameTitle(%q, %q) = %v, want %v", tc.gold, tc.found, got, tc.want)
		}
	}
}

func TestSameDay(t *testing.T) {
	berlin := time.FixedZone("CEST", 2*3600)
	for _, tc := range []struct {
		gold  string
		found time.Time
		want  bool
	}{
		{"2025-09-04", time.Date(2025, 9, 4, 23, 0, 0, 0, time.UTC), true},
		{"2025-09-04", time.Date(2025, 9, 5, 0, 0, 0, 0, time.UTC), false},
		// The gold's own zone decides the day: 23:30 UTC is the next
		// morning in Berlin.
		{"2025-04-15 01:08:00+02:00", time.Date(2025, 4, 14, 23, 30, 0, 0, time.UTC), true},
		{"2025-04-15T01:08:00+02:00", time.Date(2025, 4, 15, 1, 0, 0, 0, berlin), true},
		{"2025-09-04", time.Time{}, false},
		{"2015-11", time.Date(2015, 11, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		if got := SameDay(tc.gold, tc.found); got != tc.want {
			t.Errorf("SameDay(%q, %v) = %v, want %v", tc.gold, tc.found, got, tc.want)
		}
	}
}

func TestSameAuthors(t *testing.T) {
	for _, tc := range []struct {
		gold  []string
		found string
		want  bool
	}{
		{[]string{"Jane Roe"}, "jane roe", true},
		{[]string{"Jane Roe", "John Doe"}, "John Doe and Jane Roe", true},
		{[]string{"Danielle DeSiato, Donna Enzmann, and Natalie Nguyen"}, "Danielle DeSiato, Donna Enzmann, Natalie Nguyen", true},
		{[]string{"배윤경", "이상현"}, "배윤경, 이상현", true},
		{[]string{"दैनिक भास्कर"}, "दैनिक भास्कर", true},
		{[]string{"Jane Roe", "John Doe"}, "Jane Roe", false},
		{[]string{"Jane Roe"}, "", false},
		{nil, "Jane Roe", false},
	} {
		if got := SameAuthors(tc.gold, tc.found); got != tc.want {
			t.Errorf("SameAuthors(%q, %q) = %v, want %v", tc.gold, tc.found, got, tc.want)
		}
	}
}

func TestEvaluateMeta(t *testing.T) {
	dir := t.TempDir()
	gt := func(url, title, author, date string) string {
		return `{"url":"` + url + `","_internal":{"page_type":{"primary":"article"}},"ground_truth":{"main_content":"Text.","title":"` +
			title + `","author":"` + author + `","publish_date":"` + date + `"}}`
	}
	writeFiles(t, dir, map[string]string{
		"ground-truth/0001.json": gt("https://a.example/1", "Ferry returns", "Jane Roe", "2025-09-04"),
		"ground-truth/0002.json": gt("https://b.example/2", "Budget passes", "", ""),
		"ground-truth/0003.json": gt("https://c.example/3", "Storm warning", "John Doe", "2025-01-02"),
		"html/0001.html.gz":      gzipped(t, "<p>1</p>"),
		"html/0002.html.gz":      gzipped(t, "<p>2</p>"),
		"html/0003.html.gz":      gzipped(t, "<p>3</p>"),
	})
	ds, err := Open(dir, OpenOptions{Name: "wcxb"})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]PageMeta{
		"<p>1</p>": {Title: "Ferry returns", Author: "Jane Roe", Date: time.Date(2025, 9, 4, 8, 0, 0, 0, time.UTC)},
		"<p>2</p>": {Title: "Budget passes | Site", Author: "Site Staff", Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	sys := MetaSystem{Name: "fake", Extract: func(_ context.Context, in Input) (PageMeta, error) {
		if f, ok := found[string(in.Body)]; ok {
			return f, nil
		}
		return PageMeta{}, errors.New("no article")
	}}
	r, err := EvaluateMeta(context.Background(), ds, sys, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := MetaResult{Dataset: "wcxb", System: "fake", Pages: 3, Failed: 1,
		Title:   Tally{Gold: 3, Right: 1, Wrong: 1, None: 1},
		Date:    Tally{Gold: 2, Right: 1, None: 1, Spurious: 1},
		Authors: Tally{Gold: 2, Right: 1, None: 1, Spurious: 1},
	}
	r.PerPage = nil
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("result (-want +got)\n%s", diff)
	}
}
