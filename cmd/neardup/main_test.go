package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/job"
)

func TestRunExitCodes(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"help", []string{"--help"}, 0},
		{"command help", []string{"dedup", "--help"}, 0},
		{"unknown command", []string{"bogus"}, 2},
		{"bad threshold", []string{"dedup", "-q", "--threshold", "1.5", example, "-o", out}, 2},
		{"threshold not a number", []string{"dedup", "-q", "--threshold", "NaN", example, "-o", out}, 2},
		{"containment infinite", []string{"dedup", "-q", "--containment", "inf", example, "-o", out}, 2},
		{"tfidf similar not a number", []string{"dedup", "-q", "--method", "tfidf", "--similar", "nan", example, "-o", out}, 2},
		{"index threshold not a number", []string{"index", "add", "-q", "--db", filepath.Join(out, "nan.db"), "--threshold", "nan", example}, 2},
		{"max bytes 0", []string{"dedup", "-q", "--max-bytes", "0", example, "-o", out}, 2},
		{"memory below the floor", []string{"dedup", "-q", "--memory", "10MiB", example, "-o", out}, 2},
		{"an input given twice", []string{"dedup", "-q", example, "./" + example, "-o", out}, 2},
		// A libpq string of key=value pairs made a SQLite file named by it,
		// its password in the name.
		{"--db of PostgreSQL's key=value pairs", []string{"index", "add", "-q", "--db", "host=127.0.0.1 dbname=news password=pw", example}, 2},
		{"--db of a key libpq knows, quoted", []string{"index", "stats", "-q", "--db", "host=h target_session_attrs=any password='my secret'"}, 2},
		{"--db of pairs spaced", []string{"index", "stats", "-q", "--db", "host = h dbname = news"}, 2},
		{"--db of one pair", []string{"index", "stats", "-q", "--db", "password=pw"}, 2},
		{"unknown charset", []string{"dedup", "-q", "--charset", "bogus", example, "-o", out}, 2},
		{"negative min text", []string{"dedup", "-q", "--min-text", "-5", example, "-o", out}, 2},
		{"negative min text for index add", []string{"index", "add", "-q", "--db", filepath.Join(out, "m.db"), "--min-text", "-1", example}, 2},
		{"negative max warnings", []string{"dedup", "-q", "--max-warnings", "-1", example, "-o", out}, 2},
		{"negative workers", []string{"index", "add", "-q", "--db", filepath.Join(out, "w.db"), "-j", "-2", example}, 2},
		{"empty -o", []string{"dedup", "-q", example, "-o"}, 2},
		{"empty --db", []string{"index", "stats", "-q", "--db", ""}, 2},
		{"empty --db last", []string{"serve", "-q", "--db"}, 2},
		{"serve with a bad range", []string{"serve", "-q", "--db", filepath.Join(out, "s.db"), "--addr", "127.0.0.1:0", "--allow-private", "10.0.0.0/8,intranet"}, 2},
		{"serve with no port", []string{"serve", "-q", "--db", filepath.Join(out, "s.db"), "--addr", "nonsense"}, 2},
		{"serve with a port out of range", []string{"serve", "-q", "--db", filepath.Join(out, "s.db"), "--addr", "127.0.0.1:99999"}, 2},
		{"serve with a negative port", []string{"serve", "-q", "--db", filepath.Join(out, "s.db"), "--addr", "127.0.0.1:-1"}, 2},
		{"empty feeds --db", []string{"feeds", "list", "-q", "--db"}, 2},
		{"feeds test of a port out of range", []string{"feeds", "test", "-q", "http://a.example:99999/x"}, 2},
		{"feeds test of a port not a number", []string{"feeds", "test", "-q", "http://a.example:bad/x"}, 2},
		// A text flag given last with no value was read as empty: an
		// empty --rules or --allow-private means none.
		{"--id-col last", []string{"dedup", "-q", example, "-o", out, "--id-col"}, 2},
		{"--rules last", []string{"dedup", "-q", example, "-o", out, "--rules"}, 2},
		{"--rules= empty", []string{"-q", "dedup", example, "-o", t.TempDir(), "--rules="}, 0},
		{"bad method", []string{"dedup", "-q", "--method", "magic", example, "-o", out}, 2},
		{"bands need more MinHash values", []string{"dedup", "-q", "--bands", "20x9", example, "-o", out}, 2},
		{"bands not BxR", []string{"dedup", "-q", "--bands", "twenty", example, "-o", out}, 2},
		{"bad shingle unit", []string{"dedup", "-q", "--shingle-unit", "bytes", example, "-o", out}, 2},
		{"word shingles", []string{"-q", "dedup", "--shingle-unit", "words", example, "-o", t.TempDir()}, 0},
		{"negative number", []string{"-q", "dedup", "--number-agreement", "-1", example, "-o", t.TempDir()}, 0},
		{"rule number with an exponent", []string{"-q", "dedup", "--method", "tfidf", "--rule", "body>=1e-05", example, "-o", t.TempDir()}, 0},
		{"version", []string{"--version"}, 0},
		{"no command", nil, 2},
		{"index without its command", []string{"index"}, 2},
		{"missing input", []string{"dedup", "-q", filepath.Join(out, "nope.jsonl"), "-o", out}, 2},
		{"example", []string{"-q", "dedup", example, "-o", out}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(t.Context(), tc.args); got != tc.want {
				t.Errorf("exit code %d, want %d", got, tc.want)
			}
		})
	}
	for _, f := range []string{"pairs.jsonl", "clusters.jsonl", "kept.jsonl", "stats.json"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// One name is one idea: a flag of the same name has the same type and
// short form in every command, and these the same default too.
func TestFlagNamesAgree(t *testing.T) {
	var c cli
	parser, err := newParser(&c)
	if err != nil {
		t.Fatal(err)
	}
	sameDefault := map[string]bool{"max-bytes": true, "min-chars": true, "db": true, "sync": true, "id-col": true,
		"title-col": true, "text-col": true, "format": true, "keep": true, "max-warnings": true}
	type seen struct {
		where, typ, def string
		short           rune
	}
	flags := map[string]seen{}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			s := seen{where: n.Path(), typ: f.Target.Type().String(), def: f.Default, short: f.Short}
			if prev, ok := flags[f.Name]; ok {
				if prev.typ != s.typ || prev.short != s.short || sameDefault[f.Name] && prev.def != s.def {
					t.Errorf("--%s: %s in %s, %s in %s", f.Name, describe(prev.typ, prev.short, prev.def), prev.where,
						describe(s.typ, s.short, s.def), s.where)
				}
			} else {
				flags[f.Name] = s
			}
		}
		for _, ch := range n.Children {
			walk(ch)
		}
	}
	walk(parser.Model.Node)
	if flags["workers"].short != 'j' {
		t.Errorf("--workers is not -j")
	}
}

func describe(typ string, short rune, def string) string {
	return fmt.Sprintf("%s short %q default %q", typ, short, def)
}

// The summary lines say how many records and documents were skipped, and
// why, so that a run whose method left out every document says so.
func TestSummariesTellSkipped(t *testing.T) {
	// dedup's line tells the records skipped while reading, which are no
	// documents, from the documents not compared. Regression: "10
	// documents (3 skipped: 3 empty)" counted the 3 among the 10, where
	// "3000 documents (431 skipped: 431 too-short)" counted them in.
	for _, tc := range []struct {
		st   engine.Stats
		want string
	}{
		{engine.Stats{Read: 13, Documents: 10, Skipped: map[core.SkipReason]int{core.SkipEmpty: 3},
			SkippedReading: map[core.SkipReason]int{core.SkipEmpty: 3}}, "13 records: 10 documents, 3 skipped (3 empty)"},
		{engine.Stats{Read: 3000, Documents: 3000, Skipped: map[core.SkipReason]int{core.SkipTooShort: 431}},
			"3000 documents, 431 not compared (431 too-short)"},
		{engine.Stats{Read: 9, Documents: 6, Skipped: map[core.SkipReason]int{core.SkipTooShort: 3, core.SkipNoUnits: 1, core.SkipBinary: 1},
			SkippedReading: map[core.SkipReason]int{core.SkipTooShort: 2, core.SkipBinary: 1}},
			"9 records: 6 documents, 2 not compared (1 no-units, 1 too-short), 3 skipped (2 too-short, 1 binary)"},
		{engine.Stats{Read: 1, Documents: 1, Skipped: map[core.SkipReason]int{}}, "1 document"},
	} {
		if got := documentsNote(tc.st); got != tc.want {
			t.Errorf("documentsNote(%+v) = %q, want %q", tc.st, got, tc.want)
		}
	}
	// index add's and query's lines tell them apart too, each record
	// counted once. Regression: "4 documents added (8 skipped: 7
	// malformed, 1 too-short)" of 11 records counted the document stored
	// though too short as added and as skipped.
	for _, tc := range []struct {
		st    job.FeedStats
		query bool
		want  string
	}{
		{job.FeedStats{Read: 11, Added: 4, Skipped: map[core.SkipReason]int{core.SkipMalformed: 7, core.SkipEmpty: 0},
			NotCompared: map[core.SkipReason]int{core.SkipTooShort: 1}, Duplicates: 3}, false,
			"11 records: 4 documents added, 1 not compared (1 too-short), 7 skipped (7 malformed); 3 duplicate and 0 similar pairs in 0.0s"},
		{job.FeedStats{Read: 19, Added: 4, Skipped: map[core.SkipReason]int{core.SkipTooShort: 13, core.SkipEmpty: 2}, Duplicates: 1}, false,
			"19 records: 4 documents added, 15 skipped (13 too-short, 2 empty); 1 duplicate and 0 similar pairs in 0.0s"},
		{job.FeedStats{Read: 3, Checked: 3, NotCompared: map[core.SkipReason]int{core.SkipTooShort: 2}}, true,
			"3 documents checked, 2 not compared (2 too-short); 0 duplicate and 0 similar pairs in 0.0s"},
	} {
		if got := feedSummary(tc.st, tc.query); got != tc.want {
			t.Errorf("feedSummary(%+v) = %q, want %q", tc.st, got, tc.want)
		}
	}
	// A record that a later one of its id replaced in the same add is
	// counted apart from those replaced, being stored no more.
	if got, want := feedSummary(job.FeedStats{Replaced: 1, Superseded: 1}, false),
		"0 documents added, 1 replaced, 1 replaced by a later record of its id; 0 duplicate and 0 similar pairs in 0.0s"; got != want {
		t.Errorf("feedSummary of an id given twice with --replace = %q, want %q", got, want)
	}
	if got, want := feedSummary(job.FeedStats{Checked: 1}, true), "1 document checked; 0 duplicate and 0 similar pairs in 0.0s"; got != want {
		t.Errorf("feedSummary of one = %q, want %q", got, want)
	}
	if got, want := feedSummary(job.FeedStats{Checked: 1, Exists: 2}, true), "1 document checked, 2 already stored; 0 duplicate and 0 similar pairs in 0.0s"; got != want {
		t.Errorf("feedSummary of a query of stored ids = %q, want %q", got, want)
	}
	// A query of another document under a stored id counts it apart.
	if got, want := feedSummary(job.FeedStats{Checked: 1, Conflicts: 1}, true),
		"1 document checked, 1 whose id is stored with other content; 0 duplicate and 0 similar pairs in 0.0s"; got != want {
		t.Errorf("feedSummary of a query of a stored id with other content = %q, want %q", got, want)
	}
}

// TestOnlyCommand: the parser built for a command line that names a
// command holds that command alone, and reads the line as the parser of
// every command does; a line naming none keeps them all.
func TestOnlyCommand(t *testing.T) {
	var full cli
	all, err := newParser(&full)
	if err != nil {
		t.Fatal(err)
	}
	// read is what the command line set, of the command it names.
	dedup := func(c *cli) string {
		return fmt.Sprint(c.Quiet, c.Dedup.Inputs, c.Dedup.Out, c.Dedup.Method, c.Dedup.MaxBytes)
	}
	add := func(c *cli) string { return fmt.Sprint(c.Quiet, c.Index.Add.DB, c.Index.Add.Inputs, c.Index.Add.Sync) }
	feeds := func(c *cli) string { return fmt.Sprint(c.Quiet, c.Feeds.List.DB, c.Feeds.List.JSON) }
	for _, tc := range []struct {
		args     []string
		commands int
		read     func(*cli) string
	}{
		{[]string{"dedup", "in.jsonl", "-o", "out", "--threshold", "0.5"}, 1, dedup},
		{[]string{"-q", "index", "add", "--db", "x.db", "in.jsonl"}, 1, add},
		{[]string{"index", "-q", "add", "in.jsonl", "--db", "query"}, 1, add},
		{[]string{"feeds", "list", "--db", "x.db"}, 1, feeds},
		{[]string{"dedpu", "in.jsonl"}, len(all.Model.Children), nil},
		{[]string{"--version"}, len(all.Model.Children), nil},
		{nil, len(all.Model.Children), nil},
	} {
		var c cli
		k, err := newParser(&c, onlyCommand(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(k.Model.Children); got != tc.commands {
			t.Errorf("%q: %d commands, want %d", tc.args, got, tc.commands)
		}
		if tc.commands == 1 && len(k.Model.Children[0].Children) > 1 {
			t.Errorf("%q: %d subcommands kept", tc.args, len(k.Model.Children[0].Children))
		}
		if tc.commands != 1 {
			continue
		}
		var again cli
		full, err := newParser(&again)
		if err != nil {
			t.Fatal(err)
		}
		kctx, err := k.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		fctx, err := full.Parse(tc.args)
		if err != nil {
			t.Fatalf("%q, the full parser: %v", tc.args, err)
		}
		if kctx.Command() != fctx.Command() || tc.read(&c) != tc.read(&again) {
			t.Errorf("%q: read as %s %s, the full parser as %s %s", tc.args, kctx.Command(), tc.read(&c), fctx.Command(), tc.read(&again))
		}
	}
}

// TestNoCommandPrintsUsage: a bare `neardup` (or `neardup index`) prints the
// usage listing the commands on stderr, not only an error that one is
// expected; other mistakes keep their one-line error.
func TestNoCommandPrintsUsage(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		usage bool
		says  []string
	}{
		{nil, true, []string{"Usage: neardup <command>", "dedup <input> ...", "index add <input> ...", "serve [flags]"}},
		{[]string{"-q"}, true, []string{"Usage: neardup <command>"}},
		{[]string{"index"}, true, []string{"Usage: neardup index <command>", "index add <input> ...", "index export [flags]"}},
		{[]string{"feeds"}, true, []string{"feeds add <url>"}},
		{[]string{"dedup"}, false, nil},
		{[]string{"bogus"}, false, nil},
	} {
		var c cli
		var stdout, stderr bytes.Buffer
		parser, err := newParser(&c, kong.Writers(&stdout, &stderr), onlyCommand(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		_, err = parser.Parse(tc.args)
		if err == nil {
			t.Fatalf("%q parsed", tc.args)
		}
		if got := printUsageIfNoCommand(parser, err); got != tc.usage {
			t.Errorf("%q: usage printed %v, want %v (error %v)", tc.args, got, tc.usage, err)
		}
		if stdout.Len() > 0 {
			t.Errorf("%q: usage on stdout: %q", tc.args, stdout.String())
		}
		for _, s := range tc.says {
			if !strings.Contains(stderr.String(), s) {
				t.Errorf("%q: the usage does not say %q:\n%s", tc.args, s, stderr.String())
			}
		}
	}
}

// TestVersion: --version names the module version of an installed module,
// else the commit, its time and whether the tree had changes, and says how
// to get them from a build that recorded none.
func TestVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"module", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			"neardup v1.4.0, go1.26.8"},
		{"clone", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", "2e81154ec2e4381fe61446e893c8c339baf7e9a3", "vcs.time", "2026-12-01T22:10:00Z", "vcs.modified", "false")},
			"neardup commit 2e81154ec2e4 (2026-12-01T22:10:00Z), go1.26.8"},
		{"clone with changes", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "2e81154ec2e4381fe61446e893c8c339baf7e9a3", "vcs.time", "2026-12-01T22:10:00Z", "vcs.modified", "true")},
			"neardup commit 2e81154ec2e4 (2026-12-01T22:10:00Z) with uncommitted changes, go1.26.8"},
		{"pseudo-version with commit", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261201221000-2e81154ec2e4"},
			Settings: vcs("vcs.revision", "2e81154ec2e4381fe61446e893c8c339baf7e9a3", "vcs.time", "2026-12-01T22:10:00Z")},
			"neardup v0.0.0-20261201221000-2e81154ec2e4, commit 2e81154ec2e4 (2026-12-01T22:10:00Z), go1.26.8"},
		{"go run", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"neardup development build, no version or commit recorded (go run and -buildvcs=false record none; go build or go install in a git clone does), go1.26.8"},
	} {
		if got := versionOf(&tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestLibraryErrorsSayFlags: an error of the library that names the Go
// options that help (rarewords.SourceError, of dedup and of index add)
// names the flags instead on the command line.
func TestLibraryErrorsSayFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := ""
	for i := range 250 {
		text += fmt.Sprintf("word%d ", i)
	}
	for _, tc := range []struct {
		name, source string
		want         []string
	}{
		{"no source", "", []string{"no document has a source: give them one (a JSON, CSV or Parquet record: a source field (--source-col) or a URL (--url-col), " +
			"whose host is taken), " +
			"or compare within one source with --same-source"}},
		{"one source", `,"source":"wire"`, []string{`all 2 documents are of one source ("wire"): compare within it with --same-source`}},
	} {
		in := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".jsonl")
		os.WriteFile(in, []byte(fmt.Sprintf(`{"id":"a","text":%q%s}`+"\n"+`{"id":"b","text":%q%s}`+"\n", text, tc.source, text, tc.source)), 0o644)
		code, _, stderr := runChild(t, "dedup", "-q", "--method", "rarewords", in, "-o", filepath.Join(dir, "out"))
		for _, w := range tc.want {
			if code != 1 || !strings.Contains(stderr, w) || strings.Contains(stderr, "Options.") {
				t.Errorf("%s: exit %d, stderr %q; want 1 and %q", tc.name, code, stderr, w)
			}
		}
		if tc.source != "" {
			continue // an index of one source takes documents of others later
		}
		// Regression: index add stored the documents, found nothing and
		// said nothing.
		db := filepath.Join(dir, "index.db")
		code, stdout, stderr := runChild(t, "index", "add", "-q", "--method", "rarewords", "--db", db, in)
		for _, w := range tc.want {
			if code != 1 || stdout != "" || !strings.Contains(stderr, w) || strings.Contains(stderr, "Options.") {
				t.Errorf("index add, %s: exit %d, stdout %q, stderr %q; want 1, nothing added and %q", tc.name, code, stdout, stderr, w)
			}
		}
		// The index the refused add made keeps its options: the hint's
		// --same-source needs a new one, and the message says so.
		if want := "keeps the options it was made with: --same-source is an option of a new index"; !strings.Contains(stderr, want) {
			t.Errorf("index add, %s: stderr %q, want %q", tc.name, stderr, want)
		}
	}
}

// Regression: the refusal of documents without a source named
// --source-col whatever the inputs, pages and Markdown files that have no
// columns too; then it named no URL, whose host is a source too. It names
// how each kind of input read is given a source.
func TestSourceRefusalFitsInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var text strings.Builder
	for i := range 250 {
		fmt.Fprintf(&text, "word%d ", i)
	}
	page := "<html><head><title>T</title></head><body><article><h1>Title</h1><p>" + text.String() + "</p></article></body></html>"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"pages", map[string]string{"a.html": page, "b.html": page}, "(a page: its og:site_name, else a canonical URL or og:url, whose host is taken)"},
		{"markdown", map[string]string{"a.md": "# A\n\n" + text.String(), "b.md": "# B\n\n" + text.String()},
			"(a Markdown file: a source: or url: key in its front matter, a URL's host taken)"},
		{"text and markdown", map[string]string{"a.md": "# A\n\n" + text.String(), "b.txt": "B\n\n" + text.String()},
			"(a Markdown file: a source: or url: key in its front matter, a URL's host taken; any other: a source field in the JSON Lines neardup convert writes of it)"},
	} {
		in := filepath.Join(dir, tc.name)
		for name, content := range tc.files {
			os.MkdirAll(in, 0o755)
			os.WriteFile(filepath.Join(in, name), []byte(content), 0o644)
		}
		code, _, stderr := runChild(t, "dedup", "-q", "--method", "rarewords", in, "-o", filepath.Join(dir, tc.name+"-out"))
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "--source-col") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q, without --source-col", tc.name, code, stderr, tc.want)
		}
		db := filepath.Join(dir, tc.name+".db")
		code, _, stderr = runChild(t, "index", "add", "-q", "--method", "rarewords", "--db", db, in)
		if code != 1 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "--source-col") {
			t.Errorf("index add, %s: exit %d, stderr %q; want 1 and %q, without --source-col", tc.name, code, stderr, tc.want)
		}
	}
}

// Regression: saved pages could not be given a source, and rarewords
// refused a directory of them, one folder a site; then a syndicating
// site's copy, whose canonical names the original publisher, took the
// original's host for its source and was never compared with it. A page
// read from a file takes the name it gives its site (og:site_name) as its
// source, else the host of the URL it declares (canonical, else og:url),
// which kept.jsonl holds; its url stays "".
func TestPagesSourceFromDeclaredURL(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var text strings.Builder
	for i := range 250 {
		fmt.Fprintf(&text, "word%d ", i)
	}
	page := func(head string) string {
		return "<html><head>" + head + "<title>T</title></head><body><article><h1>Title</h1><p>" + text.String() +
			"</p></article></body></html>"
	}
	in := filepath.Join(dir, "html")
	for name, content := range map[string]string{
		"site-a/story.html": page(`<link rel="canonical" href="https://www.Site-A.example/story"><meta property="og:site_name" content="Site A">`),
		"site-b/story.html": page(`<link rel="canonical" href="https://site-a.example/story"><meta property="og:site_name" content="Site B">`),
		"site-c/other.html": strings.ReplaceAll(page(`<meta property="og:url" content="https://site-c.example/news/other">`), "word", "term"),
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(in, name)), 0o755)
		os.WriteFile(filepath.Join(in, name), []byte(content), 0o644)
	}
	out := filepath.Join(dir, "o")
	code, _, stderr := runChild(t, "dedup", "-q", "--method", "rarewords", in, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	pairs, _ := os.ReadFile(filepath.Join(out, "pairs.jsonl"))
	if n := strings.Count(string(pairs), "\n"); n != 1 {
		t.Errorf("pairs.jsonl: %d pairs, want 1:\n%s", n, pairs)
	}
	kept, _ := os.ReadFile(filepath.Join(out, "kept.jsonl"))
	if !strings.Contains(string(kept), `"url":""`) || !strings.Contains(string(kept), `"source":"Site `) ||
		!strings.Contains(string(kept), `"source":"site-c.example"`) {
		t.Errorf("kept.jsonl: want a url of \"\", sources the og:site_name or else the host:\n%s", kept)
	}
}

// Regression: under rarewords, documents without a source, where others
// have one, were counted as one source of their own without a word. dedup
// and index add say how many once, as a warning that -q keeps; a document
// not compared (too short) is not counted, nor are any with --same-source.
func TestNoSourceWarned(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var text strings.Builder
	for i := range 250 {
		fmt.Fprintf(&text, "word%d ", i)
	}
	in := filepath.Join(dir, "in.jsonl")
	var lines strings.Builder
	for _, r := range []struct{ id, source, text string }{
		{"a", "wire", text.String()}, {"b", "paper", text.String() + "more"}, {"c", "", text.String() + "most"},
		{"d", "", text.String() + "else"}, {"e", "", "too short"},
	} {
		fmt.Fprintf(&lines, `{"id":%q,"source":%q,"text":%q}`+"\n", r.id, r.source, r.text)
	}
	os.WriteFile(in, []byte(lines.String()), 0o644)
	const want = "warning: rarewords: documents without a source: 2; they are counted as one source of their own, " +
		"compared with the other sources' documents\n"
	for _, q := range [][]string{nil, {"-q"}} {
		args := append(append([]string{}, q...), "dedup", "--method", "rarewords", in, "-o", filepath.Join(dir, fmt.Sprint("out", len(q))))
		code, _, stderr := runChild(t, args...)
		if code != 0 || strings.Count(stderr, want) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q once", args, code, stderr, want)
		}
		args = append(append([]string{}, q...), "index", "add", "--method", "rarewords", "--db", filepath.Join(dir, fmt.Sprint("x", len(q), ".db")), in)
		code, _, stderr = runChild(t, args...)
		if code != 0 || strings.Count(stderr, want) != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 0 and %q once", args, code, stderr, want)
		}
	}
	code, _, stderr := runChild(t, "dedup", "-q", "--method", "rarewords", "--same-source", in, "-o", filepath.Join(dir, "same"))
	if code != 0 || strings.Contains(stderr, "without a source") {
		t.Errorf("--same-source: exit %d, stderr %q; want 0 and no warning", code, stderr)
	}
	code, _, stderr = runChild(t, "index", "add", "-q", "--method", "rarewords", "--same-source", "--db", filepath.Join(dir, "same.db"), in)
	if code != 0 || strings.Contains(stderr, "without a source") {
		t.Errorf("index add --same-source: exit %d, stderr %q; want 0 and no warning", code, stderr)
	}
}

// TestFlagWordsNamesOnce: a library error that names the package ("neardup:
// document 1 …", as Add's and AddSeq's do) is printed after "neardup: "
// once, not twice.
func TestFlagWordsNamesOnce(t *testing.T) {
	err := fmt.Errorf("adding: %w", errors.New("x"))
	for in, want := range map[error]string{
		errors.New(`neardup: document 1 (id "d1"): the text holds a NUL character (binary data)`): `document 1 (id "d1"): the text holds a NUL character (binary data)`,
		err: "adding: x",
	} {
		if got := flagWords(in); got != want {
			t.Errorf("flagWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// A "--" among the ids of index remove ends the flags, as in POSIX tools:
// every argument after it is an id. Regression: `index remove --db ix.db
// a -- -b` failed "unexpected argument -b"; only a "--" before every id
// was read.
func TestDashDashAmongOperands(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no --", []string{"a", "b"}, []string{"a", "b"}},
		{"-- before every id", []string{"--", "-b"}, []string{"-b"}},
		{"-- among the ids", []string{"a", "--", "-b"}, []string{"a", "-b"}},
		{"a flag's name after --", []string{"a", "--", "--db", "-q", "--"}, []string{"a", "--db", "-q", "--"}},
		{"-- last", []string{"a", "--"}, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c cli
			k, err := newParser(&c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := k.Parse(append([]string{"index", "remove", "--db", "ix.db"}, tc.args...)); err != nil {
				t.Fatalf("index remove --db ix.db %s: %v", strings.Join(tc.args, " "), err)
			}
			if got := c.Index.Remove.IDs; !slices.Equal(got, tc.want) || c.Index.Remove.DB != "ix.db" {
				t.Errorf("index remove --db ix.db %s: ids %q, db %q; want %q, ix.db", strings.Join(tc.args, " "), got, c.Index.Remove.DB, tc.want)
			}
		})
	}
	// The other commands of many operands read them so too.
	for _, tc := range []struct {
		args []string
		got  func(c *cli) []string
	}{
		{[]string{"dedup", "-o", "out", "a.jsonl", "--", "-b.jsonl"}, func(c *cli) []string { return c.Dedup.Inputs }},
		{[]string{"extract", "a.html", "--", "-b.html"}, func(c *cli) []string { return c.Extract.Inputs }},
		{[]string{"index", "add", "a.jsonl", "--", "-b.jsonl"}, func(c *cli) []string { return c.Index.Add.Inputs }},
		{[]string{"index", "query", "a.jsonl", "--", "-b.jsonl"}, func(c *cli) []string { return c.Index.Query.Inputs }},
		{[]string{"feeds", "remove", "a.xml", "--", "-b.xml"}, func(c *cli) []string { return c.Feeds.Remove.URLs }},
	} {
		var c cli
		k, err := newParser(&c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Parse(tc.args); err != nil {
			t.Errorf("%s: %v", strings.Join(tc.args, " "), err)
		} else if got := tc.got(&c); len(got) != 2 || got[1][0] != '-' {
			t.Errorf("%s: operands %q, want two, the second with its hyphen", strings.Join(tc.args, " "), got)
		}
	}
}
