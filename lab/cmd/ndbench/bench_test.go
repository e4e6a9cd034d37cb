package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
)

// TestMain lets the test binary stand in for ndbench when the benchmark
// re-executes itself as `child SPEC`.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		os.Exit(run(context.Background(), os.Args[1:]))
	}
	os.Exit(m.Run())
}

// story is a made-up wire story for the test's base corpus.
type story struct {
	title, dateline string
	paragraphs      []string
}

var testStories = []story{
	{"CITY COUNCIL APPROVES NEW TRAM LINE", "LEEDS", []string{
		"The city council voted on Monday to build a twelve kilometre tram line linking the railway station with the northern suburbs, ending a decade of argument over the route.",
		"Councillors approved the plan by 41 votes to 19 after a debate that lasted more than six hours. Opponents said the cost, put at 480 mln pounds, would burden local taxpayers for a generation.",
		"Construction is due to start next spring and the first trams should carry passengers in 1991, the transport committee chairman told reporters outside the town hall.",
		"Shopkeepers along the proposed route said they feared months of disruption but hoped the line would bring more customers into the centre once it opened.",
	}},
	{"COFFEE GROWERS WARN OF SMALLER HARVEST", "SAO PAULO", []string{
		"Coffee growers in the southern highlands expect this year's harvest to fall by nearly a fifth after an unusually cold July damaged flowering trees, the growers' federation said.",
		"The federation estimated the crop at 21.5 mln bags of 60 kilos, against 26 mln bags last season. Frost hit plantations in at least forty municipalities during two nights.",
		"Exporters said shipments contracted for the autumn would be honoured from stocks, but warned that prices on the London market could climb further before the new year.",
		"Government agronomists will visit the worst affected districts next week to decide whether farmers qualify for emergency credit lines.",
	}},
	{"SHIPYARD WINS ORDER FOR FOUR FERRIES", "GDANSK", []string{
		"The state shipyard has won an order to build four passenger ferries for a Scandinavian operator, securing work for about three thousand employees until the end of 1989.",
		"A yard spokesman declined to give the value of the contract but industry sources put it at roughly 300 mln dollars, the largest export order the yard has signed in years.",
		"The first vessel, able to carry 1,800 passengers and 450 cars, is to be delivered within twenty months. Steel cutting begins in the autumn.",
		"Union leaders welcomed the order, saying it would end fears of layoffs that had spread through the port since the spring.",
	}},
	{"MUSEUM RECOVERS STOLEN PAINTINGS", "AMSTERDAM", []string{
		"Police have recovered three seventeenth century paintings stolen from a provincial museum last winter, finding them wrapped in blankets in the boot of a car near the German border.",
		"Two men were arrested at the scene and a third was detained later at his home. Investigators said the thieves had failed to find a buyer because the works were too well known.",
		"The museum director said the canvases appeared undamaged apart from small scratches on one frame, and that restorers would examine them before they went back on display.",
		"Insurers had offered a reward of 100,000 guilders for information leading to the return of the pictures, which were taken during a night-time break-in.",
	}},
	{"AIRLINE TO CUT DOMESTIC ROUTES", "SYDNEY", []string{
		"The national airline will drop eleven domestic routes from November and sell six of its oldest jets as it tries to return to profit after two years of losses, its chairman said.",
		"The airline lost 74 mln dollars in the year to June, compared with a loss of 52 mln a year earlier, as competition on the main trunk routes drove fares down.",
		"About 900 jobs will go, mostly among ground staff at regional airports, although the chairman said he hoped most of the cuts could be made through early retirement.",
		"Regional councils criticised the decision, saying towns in the interior would lose their only fast link with the state capitals.",
	}},
	{"CHEMICAL FIRM PLANS NEW PLANT IN SOUTH", "HOUSTON", []string{
		"A large chemical maker said it would build a plastics plant on the Gulf Coast at a cost of about 650 mln dlrs, creating some 400 permanent jobs when it opens in 1990.",
		"The plant will produce polyethylene used in packaging and film. The company said demand in Asia was growing faster than its existing plants could supply.",
		"State officials offered tax breaks worth an estimated 40 mln dlrs over ten years to win the project, which three other states had also sought.",
		"Environmental groups said they would study the company's permit application closely because the site lies near wetlands used by migrating birds.",
	}},
}

// writeSGML writes the stories as one Reuters-21578 style .sgm file.
func writeSGML(t *testing.T, dir string) {
	t.Helper()
	var b bytes.Buffer
	for i, s := range testStories {
		fmt.Fprintf(&b, "<REUTERS NEWID=\"%d\">\n<DATE>%2d-MAR-1987 10:%02d:00.00</DATE>\n<TEXT>\n<TITLE>%s</TITLE>\n<DATELINE>    %s, March %d - </DATELINE><BODY>",
			i+1, i+2, i, s.title, s.dateline, i+2)
		for _, p := range s.paragraphs {
			fmt.Fprintf(&b, "    %s\n", p)
		}
		b.WriteString(" Reuter\n&#3;</BODY></TEXT>\n</REUTERS>\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "reut2-000.sgm"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBenchEndToEnd(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "sgm")
	if err := os.Mkdir(src, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSGML(t, src)
	// The corpus is resampled from a few stories: hardly a word is rare in
	// a source, so rarewords keeps every word (common-df 1) to find pairs.
	sets, err := parseSettings([]string{"rarewords.min-words=20", "rarewords.common-df=1"})
	if err != nil {
		t.Fatal(err)
	}
	var out, log bytes.Buffer
	o := benchOptions{corpus: corpusSpec{Reuters: src, N: 200, Seed: 3}, methods: methods.Names(), settings: sets,
		work: filepath.Join(dir, "work"), jsonPath: filepath.Join(dir, "bench.json"),
		launch: launcher{exe: os.Args[0]}, out: &out, log: &log}
	rep, err := runBench(context.Background(), o)
	if err != nil {
		t.Fatalf("runBench: %v\nlog:\n%s", err, log.String())
	}
	t.Log(out.String())
	checkBaseline(t, rep.Baseline, 200)
	if len(rep.Methods) != len(methods.All) {
		t.Fatalf("got %d method results, want %d", len(rep.Methods), len(methods.All))
	}
	for i, m := range rep.Methods {
		t.Run(m.Method, func(t *testing.T) { checkMethod(t, m, methods.All[i].Name, out.String()) })
	}
	if _, err := os.Stat(o.jsonPath); err != nil {
		t.Errorf("--json file: %v", err)
	}

	// A second run finds the corpus cached, measures the index and the
	// Go MinHash peer.
	o.methods, o.jsonPath, o.index, o.probe, o.peer = []string{minhash.Name}, "", true, 20, true
	out.Reset()
	rep2, err := runBench(context.Background(), o)
	if err != nil {
		t.Fatalf("second runBench: %v", err)
	}
	if p := rep2.Peer; p == nil || p.Error != "" || p.Records != 200 || p.Eval == nil || p.Eval.Pairs.Correct == 0 {
		t.Errorf("peer: %+v, want 200 records read and some true pairs found", p)
	}
	if want := "minhash against " + peerName + ", same run:"; !strings.Contains(out.String(), want) {
		t.Errorf("no line %q in\n%s", want, out.String())
	}
	if f := rep2.Floor; f == nil || f.Records != 200 || f.Shingles <= 0 || f.WallSeconds <= 0 {
		t.Errorf("floor: %+v, want 200 records read and their 5-grams hashed", f)
	}
	if want := "word 5-grams) against " + peerName + ", same run:"; !strings.Contains(out.String(), want) {
		t.Errorf("no line %q in\n%s", want, out.String())
	}
	if !rep2.Corpus.Cached || rep2.Corpus.Docs != rep.Corpus.Docs {
		t.Errorf("second run: cached %v, corpus %s; want the cached %s", rep2.Corpus.Cached, rep2.Corpus.Docs, rep.Corpus.Docs)
	}
	if len(rep2.Index) != 1 {
		t.Fatalf("index results %+v", rep2.Index)
	}
	ix := rep2.Index[0]
	if ix.Error != "" || ix.Add.Documents != 180 || ix.BytesPerDoc <= 0 || ix.Probe.Stored != 180 ||
		ix.Probe.Adds.N != 20 || ix.Probe.Adds.P50 <= 0 || ix.Probe.Queries.N != 20 || ix.Probe.Removes.N != 20 {
		t.Errorf("index result %+v", ix)
	}
	if !strings.Contains(out.String(), "persistent index") {
		t.Errorf("no index table:\n%s", out.String())
	}
}

func checkBaseline(t *testing.T, b measurement, n int) {
	t.Helper()
	if b.Records != n || b.Documents != n || b.WallSeconds <= 0 || b.DocsPerSecond <= 0 || b.PeakRSSMiB <= 0 {
		t.Errorf("baseline = %+v; want %d documents read and positive costs", b, n)
	}
}

// checkMethod checks one method's numbers are plausible and that the table
// has its row.
func checkMethod(t *testing.T, m methodResult, want, table string) {
	if m.Method != want || m.Error != "" {
		t.Fatalf("method %q error %q; want %q without error", m.Method, m.Error, want)
	}
	if m.Records != 200 || m.WallSeconds <= 0 || m.CPUSeconds <= 0 || m.PeakRSSMiB <= 0 || m.WallRatio <= 0 {
		t.Errorf("costs = %+v; want 200 records and positive costs", m.measurement)
	}
	e := m.Eval
	if e == nil {
		t.Fatal("no evaluation")
	}
	if p := e.Pairs.Precision; e.Pairs.Truth == 0 || e.Pairs.Recall <= 0 || p == nil || *p <= 0 || e.Pairs.Recall > 1 || *p > 1 {
		t.Errorf("pair scores = %+v; want truth pairs and recall, precision in (0, 1]", e.Pairs)
	}
	if e.Clusters == nil || e.Clusters.BCubedF1 <= 0 || len(e.By) == 0 {
		t.Errorf("clusters %+v, %d recall rows; want B-cubed F1 > 0 and recall by op", e.Clusters, len(e.By))
	}
	row := tableRow(table, m.Method)
	if len(row) != 14 {
		t.Fatalf("table row %q has %d cells, want 14", row, len(row))
	}
	if got, want := row[1], "200"; got != want {
		t.Errorf("docs cell = %q, want %q", got, want)
	}
}

// tableRow returns the cells of the first table line that starts with name.
func tableRow(table, name string) []string {
	for line := range strings.Lines(table) {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return f
		}
	}
	return nil
}

func TestParseSettings(t *testing.T) {
	with := func(c engine.Config, f func(c engine.Config) engine.Config) engine.Config { return f(c) }
	tests := []struct {
		name   string
		sets   []string
		method string
		want   engine.Config
		err    bool
	}{
		{name: "number", sets: []string{"threshold=0.6"}, method: "minhash",
			want: with(minhash.Defaults(), func(c engine.Config) engine.Config { o := c.(minhash.Options); o.Threshold = 0.6; return o })},
		{name: "dashed name", sets: []string{"bucket-limit=64", "max_sentence_docs=20"}, method: "sentences",
			want: with(sentences.Defaults(), func(c engine.Config) engine.Config {
				o := c.(sentences.Options)
				o.BucketLimit, o.MaxDocs = 64, 20
				return o
			})},
		{name: "per method", sets: []string{"sentences.threshold=0.4", "minhash.threshold=0.7"}, method: "minhash",
			want: with(minhash.Defaults(), func(c engine.Config) engine.Config { o := c.(minhash.Options); o.Threshold = 0.7; return o })},
		{name: "text and bool", sets: []string{"shingle-unit=words", "weighted=true"}, method: "sentences",
			want: with(sentences.Defaults(), func(c engine.Config) engine.Config { o := c.(sentences.Options); o.Weighted = true; return o })},
		{name: "an option of other methods", sets: []string{"max-sentence-docs=5"}, method: "minhash", want: minhash.Defaults()},
		{name: "unknown option", sets: []string{"thresold=0.5"}, err: true},
		{name: "unknown method", sets: []string{"nosuch.threshold=0.5"}, err: true},
		{name: "wrong type", sets: []string{"hashes=many"}, method: "minhash", err: true},
		{name: "no value", sets: []string{"threshold"}, err: true},
		{name: "method is not an option", sets: []string{"method=tfidf"}, err: true},
		{name: "not an option of that method", sets: []string{"tfidf.threshold=0.5"}, err: true},
		{name: "refused by the method", sets: []string{"threshold=1.5"}, method: "minhash", err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sets, err := parseSettings(tc.sets)
			var got engine.Config
			if err == nil {
				got, err = optionsFor(tc.method, sets)
			}
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if err != nil {
				return
			}
			// minhash.Options and sentences.Options hold the sketch format
			// an index reopens with, unexported: 0 in both.
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(minhash.Options{}, sentences.Options{})); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseMethods(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
		err  bool
	}{
		{name: "two", in: []string{"sentences", "minhash"}, want: []string{"sentences", "minhash"}},
		{name: "all", in: []string{"all"}, want: methods.Names()},
		{name: "unknown", in: []string{"minhash", "nosuch"}, err: true},
		{name: "none", in: nil, err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseMethods(tc.in)
			if (err != nil) != tc.err {
				t.Fatalf("error %v, want error %v", err, tc.err)
			}
			if diff := cmp.Diff(tc.want, got); !tc.err && diff != "" {
				t.Errorf("methods (-want +got):\n%s", diff)
			}
		})
	}
}
