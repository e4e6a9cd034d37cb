package job

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/neardup/neardup/method/minhash"
)

// The report of a run says, beside each member, the pair it joined its
// cluster through and why that pair was labelled as it is, under the
// run's options: a story rewritten the same day, a duplicate by the
// rewrite rule below the threshold (0.5 here, not the default). Regression:
// the report never said which rule decided a pair.
func TestRunReportSaysWhyAMemberJoined(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	lines := `{"id":"a","title":"PORT TO BUILD TERMINAL","date":"1987-05-04T10:00:00Z","text":"HALIFAX, May 4 - The port authority said ` +
		`it plans to build a container terminal on the north shore at a cost of 412 mln dlrs, with work to start next spring. Chairman ` +
		`Anna Keller said the terminal would double the port's capacity and create about 900 jobs. The board approved the design after ` +
		`four years of debate, she said."}` + "\n" +
		`{"id":"b","title":"PORT AUTHORITY PLANS TERMINAL","date":"1987-05-04T12:30:00Z","text":"HALIFAX, May 4 - The port authority ` +
		`will build a container terminal on the north shore at a cost of 412 mln dlrs, its chairman Anna Keller said, and construction ` +
		`would begin next spring. The terminal would double the port's capacity and create about 900 jobs, she told reporters. Local ` +
		`shipping lines welcomed the plan."}` + "\n"
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	o := minhash.Defaults()
	o.Threshold = 0.5
	rep := filepath.Join(dir, "report.html")
	if _, err := Run(t.Context(), Options{Inputs: []string{in}, Out: filepath.Join(dir, "out"), Report: rep, Method: o}); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(page), ""))
	for _, want := range []string{"Joined as duplicate of a (0.4", "Marked duplicate by minhash: ",
		"is below the duplicate threshold 0.5 but at least the rewrite bound 0.35 (--rewrite)", "one story rewritten the same day"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, page)
		}
	}
}
