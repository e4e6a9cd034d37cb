package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestEvalDatasets(t *testing.T) {
	for _, tc := range []struct {
		name             string
		gold, ids, preds []string
		want             []evalDataset
		err              string
	}{
		{"one dataset, bare files", []string{"/d/dragnet"}, []string{"test.txt"}, []string{"p.jsonl"},
			[]evalDataset{{name: "dragnet", dir: "/d/dragnet", ids: "test.txt", preds: []string{"p.jsonl"}}}, ""},
		{"named datasets", []string{"dn=/d/x", "/d/cleaneval"}, []string{"dn=t.txt"}, []string{"cleaneval=c.jsonl"},
			[]evalDataset{{name: "dn", dir: "/d/x", ids: "t.txt"}, {name: "cleaneval", dir: "/d/cleaneval", preds: []string{"c.jsonl"}}}, ""},
		{"bare file with two datasets", []string{"/a", "/b"}, []string{"t.txt"}, nil, nil, "name the dataset"},
		{"unknown dataset", []string{"/a"}, []string{"b=t.txt"}, nil, nil, `no --gold dataset named "b"`},
		{"duplicate names", []string{"/x/a", "/y/a"}, nil, nil, nil, `two datasets named "a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := evalDatasets(tc.gold, tc.ids, tc.preds)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(evalDataset{})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestRunExtractEval(t *testing.T) {
	page := articleHTML("Ferry line opens", 5)
	var gold strings.Builder
	for i := range 5 {
		gold.WriteString("Paragraph " + string(rune('0'+i)) + " of the story. The harbour authority said on Monday that the new ferry line would start in spring, " +
			"linking the two islands for the first time since the old pier closed.\n")
	}
	dir := writeTree(t, map[string]string{
		"gold/input/1.html":       page,
		"gold/input/2.html":       page,
		"gold/GoldStandard/1.txt": gold.String(),
		"gold/GoldStandard/2.txt": gold.String(),
		"split.txt":               "1\n",
		"pred.jsonl":              `{"id":"1.html","text":"nothing alike at all here"}` + "\n",
	})
	var out bytes.Buffer
	err := runExtractEval(context.Background(), extractEvalOptions{
		datasets: []evalDataset{{name: "tiny", dir: filepath.Join(dir, "gold"), ids: filepath.Join(dir, "split.txt"),
			preds: []string{filepath.Join(dir, "pred.jsonl")}}},
		systems: []string{"library", "neardup"},
		split:   true,
		out:     &out,
		pages:   filepath.Join(dir, "pages.tsv"),
		texts:   filepath.Join(dir, "texts.jsonl"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(line)
		rows = append(rows, strings.Join([]string{f[0], f[1], f[2], f[8]}, " ")) // dataset system pages F1
	}
	// The page has no address, so it is a site of its own, "id:1": its
	// FNV-1a hash is odd, so it is in the report half.
	want := []string{"tiny library 1 1.0000", "tiny neardup 1 1.0000", "tiny pred.jsonl 1 0.0000",
		"tiny:tune library 0 0.0000", "tiny:tune neardup 0 0.0000", "tiny:tune pred.jsonl 0 0.0000",
		"tiny:report library 1 1.0000", "tiny:report neardup 1 1.0000", "tiny:report pred.jsonl 1 0.0000"}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("(-want +got)\n%s\n%s", diff, out.String())
	}
	tsv, err := os.ReadFile(filepath.Join(dir, "pages.tsv"))
	if err != nil || strings.Count(string(tsv), "\n") != 4 {
		t.Errorf("pages.tsv: %v\n%s", err, tsv)
	}
	// --texts: a line per system and page, each with the text that system
	// gave and the page's gold.
	data, err := os.ReadFile(filepath.Join(dir, "texts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []pageText
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var pt pageText
		if err := json.Unmarshal([]byte(line), &pt); err != nil {
			t.Fatalf("texts.jsonl: %v: %s", err, line)
		}
		texts = append(texts, pt)
	}
	if len(texts) != 3 {
		t.Fatalf("texts.jsonl: %d lines, want 3 (one page, three systems)\n%s", len(texts), data)
	}
	for _, pt := range texts {
		if pt.Dataset != "tiny" || pt.ID != "1" || pt.Half != "report" || !strings.Contains(pt.Gold, "Paragraph 4 of the story.") {
			t.Errorf("texts.jsonl line %+v: want tiny's page 1, report half, with its gold", pt)
		}
	}
	if sys := texts[2]; sys.System != "pred.jsonl" || sys.Text != "nothing alike at all here" || sys.Precision == nil || *sys.Precision != 0 {
		t.Errorf("texts.jsonl: the predictions' line is %+v, want their text, scored 0", sys)
	}
	if sys := texts[1]; sys.System != "neardup" || !strings.Contains(sys.Text, "Paragraph 4 of the story.") || sys.Recall == nil || *sys.Recall != 1 {
		t.Errorf("texts.jsonl: neardup's line is %+v, want the article's text, recall 1", sys)
	}
}

func TestRunExtractEvalBootstrap(t *testing.T) {
	files := map[string]string{}
	for i := range 6 {
		id := fmt.Sprint(i)
		files["gold/input/"+id+".html"] = strings.Replace(articleHTML("Ferry line opens", 5), "<head>",
			`<head><link rel="canonical" href="https://site`+id+`.example/ferry">`, 1)
		files["gold/GoldStandard/"+id+".txt"] = "Paragraph 0 of the story. The harbour authority said on Monday that the new ferry line would start in spring."
	}
	dir := writeTree(t, files)
	var out bytes.Buffer
	err := runExtractEval(context.Background(), extractEvalOptions{
		datasets: []evalDataset{{name: "tiny", dir: filepath.Join(dir, "gold")}},
		systems:  []string{"neardup", "library"},
		out:      &out,
		draws:    50,
	})
	if err != nil {
		t.Fatal(err)
	}
	tables := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(tables) != 2 || !strings.Contains(tables[0], "F1 95%") || !strings.Contains(tables[1], "95% interval") {
		t.Fatalf("want the table with intervals and the differences:\n%s", out.String())
	}
	err = (&extractEvalCmd{Gold: []string{dir}, Bootstrap: -1}).Run(&globals{ctx: context.Background()})
	if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), "--bootstrap -1") {
		t.Errorf("--bootstrap -1: %v", err)
	}
	diff := strings.Split(tables[1], "\n")
	if len(diff) != 2 || !regexp.MustCompile(`^\s*tiny\s+neardup\s+library\s+[+-]\d\.\d{4}\s+[+-]\d\.\d{4} – [+-]\d\.\d{4}\s+\d+\.\d%$`).MatchString(diff[1]) {
		t.Errorf("differences:\n%s", tables[1])
	}
}

func TestRunExtractSpeed(t *testing.T) {
	page := articleHTML("Ferry line opens", 5)
	dir := writeTree(t, map[string]string{
		"gold/input/1.html":       page,
		"gold/input/2.html":       page,
		"gold/GoldStandard/1.txt": "x",
		"gold/GoldStandard/2.txt": "x",
	})
	var out bytes.Buffer
	if err := runExtractSpeed(context.Background(), []evalDataset{{name: "tiny", dir: filepath.Join(dir, "gold")}}, 2, &out, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3+len(speedStages) || !strings.Contains(lines[0], "fastest of 2 rounds") {
		t.Fatalf("want a heading, a header, a row for each stage and the ratio to go-trafilatura:\n%s", out.String())
	}
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^tiny: neardup extract / go-trafilatura \+ fallbacks: p50 \d+\.\d{3}, p99 \d+\.\d{3}$`).MatchString(last) {
		t.Errorf("last line %q: want the ratios of neardup extract to go-trafilatura", last)
	}
	for i, stage := range speedStages {
		row := lines[2+i]
		if !strings.Contains(row, stage) || strings.Fields(row)[len(strings.Fields(row))-9] != "2" {
			t.Errorf("row %d %q: want stage %q over 2 pages", i, row, stage)
		}
	}
	if f := strings.Fields(lines[2]); f[len(f)-3] != "1.00" {
		t.Errorf("baseline ratio %s, want 1.00", f[len(f)-3])
	}
	if f := strings.Fields(lines[2+beforeStage]); f[len(f)-2] != "1.000" || f[len(f)-1] != "1.000" {
		t.Errorf("the extractor without the block model against itself: %s and %s, want 1.000", f[len(f)-2], f[len(f)-1])
	}
}

func TestPercentile(t *testing.T) {
	var times []time.Duration
	for i := 100; i >= 1; i-- {
		times = append(times, time.Duration(i)*time.Millisecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond, 0.001: time.Millisecond} {
		if got := percentile(times, q); got != want {
			t.Errorf("percentile(%v) = %v, want %v", q, got, want)
		}
	}
	if percentile(nil, 0.5) != 0 {
		t.Error("percentile of no times is not 0")
	}
}

func TestExtractSpeedCPUProfile(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"gold/input/1.html":       articleHTML("Ferry line opens", 5),
		"gold/GoldStandard/1.txt": "x",
	})
	prof := filepath.Join(dir, "cpu.pprof")
	args := []string{"-q", "extract-speed", "--gold", "tiny=" + filepath.Join(dir, "gold"), "--rounds", "1", "--cpuprofile", prof}
	if code := run(context.Background(), args); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if fi, err := os.Stat(prof); err != nil || fi.Size() == 0 {
		t.Errorf("profile: %v, want a non-empty file", err)
	}
	args[len(args)-1] = filepath.Join(dir, "missing", "cpu.pprof")
	if code := run(context.Background(), args); code != 1 {
		t.Errorf("exit code %d for a profile that cannot be written, want 1", code)
	}
}

func TestPooledSpeed(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	a := stageTimes{dataset: "a", pages: 2, times: make([][]time.Duration, len(speedStages))}
	b := stageTimes{dataset: "b", pages: 3, times: make([][]time.Duration, len(speedStages))}
	for s := range speedStages {
		a.times[s], b.times[s] = ms(1, 2), ms(3, 4, 5)
	}
	p := pooled([]stageTimes{a, b})
	if p.dataset != "all" || p.pages != 5 {
		t.Fatalf("pooled: %q over %d pages, want all over 5", p.dataset, p.pages)
	}
	for s := range speedStages {
		if got := percentile(p.times[s], 0.5); got != 3*time.Millisecond {
			t.Errorf("stage %d: pooled median %v, want 3ms", s, got)
		}
	}
}

// TestRunExtractEvalPredMissing: a --pred file without a record of some
// pages is scored with a warning naming how many and which; one without a
// record of any page is an error. Regression: both scored the pages as
// empty predictions, silently.
func TestRunExtractEvalPredMissing(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"gold/input/a1.html":       "<p>alpha beta gamma delta</p>",
		"gold/input/a2.html":       "<p>alpha beta gamma delta</p>",
		"gold/GoldStandard/a1.txt": "alpha beta gamma delta",
		"gold/GoldStandard/a2.txt": "alpha beta gamma delta",
		"some.jsonl":               `{"id":"input/a1.html","text":"alpha beta gamma delta"}` + "\n",
		"none.jsonl":               `{"id":"b1.html","text":"alpha beta gamma delta"}` + "\n",
	})
	run := func(pred string) (string, error) {
		var warn bytes.Buffer
		err := runExtractEval(context.Background(), extractEvalOptions{
			datasets: []evalDataset{{name: "tiny", dir: filepath.Join(dir, "gold"), preds: []string{filepath.Join(dir, pred)}}},
			out:      io.Discard,
			warn:     &warn,
		})
		return warn.String(), err
	}
	warn, err := run("some.jsonl")
	if want := "warning: " + filepath.Join(dir, "some.jsonl") + ": no record for 1 of the 2 pages of tiny (\"a2\"): they score as empty predictions\n"; err != nil || warn != want {
		t.Errorf("some pages without a record: %v, warned %q, want %q", err, warn, want)
	}
	_, err = run("none.jsonl")
	if err == nil || !strings.Contains(err.Error(), `no record for any of the 2 pages of tiny ("a1", "a2")`) {
		t.Errorf("no page with a record: %v, want an error naming them", err)
	}
}

// TestPageScoresUndefined: --pages and --texts write a precision or recall
// a page does not have (an empty prediction, an empty gold) as an empty
// field and as null, so that averaging them gives the table's means.
// Regression: they were written 0.0000 and 0.
func TestPageScoresUndefined(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"gold/input/1.html":       "<p>one</p>",
		"gold/input/2.html":       "<p>two</p>",
		"gold/GoldStandard/1.txt": "alpha beta gamma delta",
		"gold/GoldStandard/2.txt": "",
		"pred.jsonl": `{"id":"1","text":""}
{"id":"2","text":"alpha beta gamma delta"}
`,
	})
	err := runExtractEval(context.Background(), extractEvalOptions{
		datasets: []evalDataset{{name: "tiny", dir: filepath.Join(dir, "gold"), preds: []string{filepath.Join(dir, "pred.jsonl")}}},
		out:      io.Discard,
		pages:    filepath.Join(dir, "pages.tsv"),
		texts:    filepath.Join(dir, "texts.jsonl"),
	})
	if err != nil {
		t.Fatal(err)
	}
	tsv, err := os.ReadFile(filepath.Join(dir, "pages.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(tsv)), "\n")[1:] {
		f := strings.Split(line, "\t")
		got = append(got, f[2]+" ["+f[5]+"] ["+f[6]+"]") // id, precision, recall
	}
	if diff := cmp.Diff([]string{"1 [] [0.0000]", "2 [0.0000] []"}, got); diff != "" {
		t.Errorf("pages.tsv (-want +got)\n%s", diff)
	}
	texts, err := os.ReadFile(filepath.Join(dir, "texts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"id":"1","site":"id:1","half":"report","precision":null,"recall":0,`, `"precision":0,"recall":null,`} {
		if !strings.Contains(string(texts), want) {
			t.Errorf("texts.jsonl: no %s\n%s", want, texts)
		}
	}
}
