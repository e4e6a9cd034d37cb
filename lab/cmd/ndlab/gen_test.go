package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup/lab/internal/gen"
)

// genTestSGML is three made-up stories in the Reuters-21578 layout.
const genTestSGML = `<REUTERS NEWID="1"><DATE>26-FEB-1987 15:01:01.79</DATE><TEXT>
<TITLE>PORT PLANS NEW TERMINAL</TITLE><DATELINE>    BALTIMORE, Feb 26 - </DATELINE><BODY>The port said it will
build a new container terminal at the inner harbor, the largest project in its history.
    Officials said traffic rose 12 pct last year. They expect the terminal to open in 1990.
 Reuter
&#3;</BODY></TEXT></REUTERS>
<REUTERS NEWID="2"><DATE>27-FEB-1987 10:00:00.00</DATE><TEXT>
<TITLE>ACME WIDGETS INC &lt;ACW> 4TH QTR NET</TITLE><DATELINE>    CLEVELAND, Feb 27 - </DATELINE><BODY>Shr 1.20 dlrs vs 1.10 dlrs
    Net 12,500,000 vs 11,400,000
    Revs 310.5 mln vs 287.2 mln
 Reuter
&#3;</BODY></TEXT></REUTERS>
<REUTERS NEWID="3"><DATE>28-FEB-1987 09:00:00.00</DATE><TEXT>
<TITLE>OIL PRICES FALL</TITLE><DATELINE>    NEW YORK, Feb 28 - </DATELINE><BODY>Oil prices fell sharply on Friday as
traders worried that producers were pumping more than their quotas.
    West Texas Intermediate fell 45 cents to 17.80 dlrs a barrel. Brent lost 30 cents.
    Heating oil and gasoline futures also ended lower, dealers said.
 Reuter
&#3;</BODY></TEXT></REUTERS>
`

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
	}
	return n
}

func TestRunGen(t *testing.T) {
	dir := t.TempDir()
	sgm := filepath.Join(dir, "sgm")
	os.Mkdir(sgm, 0o755)
	os.WriteFile(filepath.Join(sgm, "reut2-000.sgm"), []byte(genTestSGML), 0o644)
	docs, truth := filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "truth.jsonl")
	o := genOptions{reuters: sgm, docsOut: docs, truthTo: truth, gen: gen.Options{N: 60, Seed: 9}}
	if err := runGen(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{docs, truth} {
		if n := countLines(t, p); n != 60 {
			t.Errorf("%s: %d lines, want 60", p, n)
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", p, fi.Mode().Perm())
		}
	}
	first, _ := os.ReadFile(docs)
	if err := runGen(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(docs); string(again) != string(first) {
		t.Error("same seed gave different documents")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".gen-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestRunGenCancelled(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "reut2-000.sgm"), []byte(genTestSGML), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	docs := filepath.Join(dir, "docs.jsonl")
	err := runGen(ctx, genOptions{reuters: dir, docsOut: docs, truthTo: filepath.Join(dir, "t.jsonl"), gen: gen.Options{N: 10}})
	if err == nil {
		t.Fatal("cancelled run succeeded")
	}
	if _, err := os.Stat(docs); !os.IsNotExist(err) {
		t.Errorf("cancelled run left %s", docs)
	}
}

// TestGenRefusesOneFileForBoth pins -o and --truth naming one file by two
// spellings or two links: the truth used to replace the documents, exit 0.
func TestGenRefusesOneFileForBoth(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "reut2-000.sgm"), []byte(genTestSGML), 0o644)
	existing, link := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "link.jsonl")
	os.WriteFile(existing, []byte("kept\n"), 0o644)
	if err := os.Link(existing, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, out, truth string }{
		{"two spellings", filepath.Join(dir, "c.jsonl"), dir + "/./c.jsonl"},
		{"hard link", existing, link},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"-q", "gen", "--reuters", dir, "-n", "20", "-o", tc.out, "--truth", tc.truth}
			if code := run(context.Background(), args); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if _, err := os.Stat(filepath.Join(dir, "c.jsonl")); !os.IsNotExist(err) {
				t.Error("c.jsonl written")
			}
			if b, _ := os.ReadFile(existing); string(b) != "kept\n" {
				t.Errorf("%s now holds %q", existing, b)
			}
		})
	}
	if code := run(context.Background(), []string{"-q", "gen", "--reuters", dir, "-n", "20",
		"-o", filepath.Join(dir, "d.jsonl"), "--truth", filepath.Join(dir, "t.jsonl")}); code != 0 {
		t.Errorf("two files: exit %d, want 0", code)
	}
}
