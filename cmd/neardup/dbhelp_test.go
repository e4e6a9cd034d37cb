package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kong"

	"github.com/neardup/neardup/internal/cluster"
)

// TestDBHelpSaysWhetherMissingIsCreated runs every command that takes
// --db on a SQLite file that is not there and checks that its --help says
// what it does: "created when missing" of the commands that create an
// index, that it must exist of the others (serve is only read: it would
// serve). Regression: every command's
// --help said the file is created when missing, where only index add,
// serve, feeds add and feeds import create one.
func TestDBHelpSaysWhetherMissingIsCreated(t *testing.T) {
	t.Parallel()
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	feedsFile := filepath.Join(t.TempDir(), "feeds.yaml")
	if err := os.WriteFile(feedsFile, []byte("version: 1\nfeeds:\n  - url: https://example.com/feed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const feed = "https://example.com/feed"
	for _, tc := range []struct {
		command []string
		args    func(dir string) []string // after --db, in dir
		creates bool
	}{
		{[]string{"index", "add"}, func(string) []string { return []string{example} }, true},
		{[]string{"index", "query"}, func(string) []string { return []string{example} }, false},
		{[]string{"index", "remove"}, func(string) []string { return []string{"x"} }, false},
		{[]string{"index", "expire"}, func(string) []string { return []string{"--older-than", "30d"} }, false},
		{[]string{"index", "stats"}, nil, false},
		{[]string{"index", "export"}, func(dir string) []string { return []string{"-o", filepath.Join(dir, "out")} }, false},
		{[]string{"index", "verify"}, nil, false},
		{[]string{"index", "rescore"}, nil, false},
		{[]string{"serve"}, nil, true}, // its help alone: it would serve
		{[]string{"watch"}, func(string) []string { return []string{"--once"} }, false},
		{[]string{"feeds", "add"}, func(string) []string { return []string{"--no-check", feed} }, true},
		{[]string{"feeds", "import"}, func(string) []string { return []string{feedsFile} }, true},
		{[]string{"feeds", "list"}, nil, false},
		{[]string{"feeds", "set"}, func(string) []string { return []string{feed, "--interval", "1h"} }, false},
		{[]string{"feeds", "remove"}, func(string) []string { return []string{feed} }, false},
		{[]string{"feeds", "export"}, func(dir string) []string { return []string{"-o", filepath.Join(dir, "f.yaml")} }, false},
	} {
		name := strings.Join(tc.command, " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			help := dbHelp(t, tc.command)
			if says := strings.Contains(help, "created when missing"); says != tc.creates {
				t.Errorf("--db's help %q: says it creates a missing file %v, want %v", help, says, tc.creates)
			}
			if !tc.creates && !strings.Contains(help, "must exist") {
				t.Errorf("--db's help %q does not say the file must exist", help)
			}
			dir := t.TempDir()
			db := filepath.Join(dir, "missing.db")
			args := append(append([]string{}, tc.command...), "-q", "--db", db)
			if tc.args != nil {
				args = append(args, tc.args(dir)...)
			}
			if name == "serve" {
				return
			}
			run(t.Context(), args)
			if _, err := os.Stat(db); (err == nil) != tc.creates {
				t.Errorf("neardup %s on a missing file: created %v, want %v", strings.Join(args, " "), err == nil, tc.creates)
			}
		})
	}
}

// nextFlag is where the help of the next flag begins.
var nextFlag = regexp.MustCompile(`\n +-`)

// dbHelp returns what a command's --help says of --db.
func dbHelp(t *testing.T, command []string) string {
	t.Helper()
	return flagHelp(t, command, `--db="neardup.db"`)
}

// flagHelp returns what a command's --help says of the flag it shows as
// flag (with its default or placeholder), white space collapsed.
func flagHelp(t *testing.T, command []string, flag string) string {
	t.Helper()
	var out bytes.Buffer
	args := append(append([]string{}, command...), "--help")
	var c cli
	parser, err := newParser(&c, kong.Writers(&out, &out), kong.Exit(func(int) { panic(helpExit(0)) }), onlyCommand(args))
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(helpExit); !ok {
					panic(r)
				}
			}
		}()
		parser.Parse(args)
	}()
	_, help, ok := strings.Cut(out.String(), flag)
	if !ok {
		t.Fatalf("%s --help names no %s:\n%s", strings.Join(command, " "), flag, out.String())
	}
	if next := nextFlag.FindStringIndex(help); next != nil {
		help = help[:next[0]]
	}
	return strings.Join(strings.Fields(help), " ")
}

// TestMethodOfAStoredIndex: every command that may create an index says
// in --help that a stored index keeps its method and that naming another
// is an error, and it is one (exit 1, before serving). Regression: serve's
// help said only that an existing index keeps its own, as if another
// method named were let pass.
func TestMethodOfAStoredIndex(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "news.db")
	example := filepath.Join("..", "..", "examples", "news.jsonl")
	if code := run(t.Context(), []string{"index", "add", "-q", "--db", db, "--only-matches", example}); code != 0 {
		t.Fatalf("index add: exit %d", code)
	}
	for _, tc := range []struct {
		command, args []string
	}{
		{[]string{"index", "add"}, []string{example}},
		{[]string{"serve"}, []string{"--addr", "127.0.0.1:0"}},
		{[]string{"watch"}, []string{"--once"}},
	} {
		name := strings.Join(tc.command, " ")
		if help := flagHelp(t, tc.command, "--method=STRING"); !strings.Contains(help, "naming another is an error") {
			t.Errorf("%s --help: --method %q does not say that naming another method than a stored index's is an error", name, help)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second) // a serve that took it would serve
		args := append(append(append([]string{}, tc.command...), "-q", "--db", db, "--method", "simhash"), tc.args...)
		if code := run(ctx, args); code != 1 {
			t.Errorf("neardup %s on a minhash index: exit %d, want 1", strings.Join(args, " "), code)
		}
		cancel()
	}
}

// TestRulesHelpNamesEveryUse: --rules of serve, watch and feeds test says
// every page it extracts: serve's web UI check page and feeds test's
// trial too, not only the feeds without a rule of their own. Regression:
// the help named the feeds alone.
func TestRulesHelpNamesEveryUse(t *testing.T) {
	t.Parallel()
	for _, command := range [][]string{{"serve"}, {"watch"}, {"feeds", "test"}} {
		help := flagHelp(t, command, "--rules=STRING")
		for _, use := range []string{"feeds without a rule of their own", "check page", "trial"} {
			if !strings.Contains(help, use) {
				t.Errorf("%s --help: --rules %q does not name %q", strings.Join(command, " "), help, use)
			}
		}
	}
}

// TestKeepHelpSaysEveryPolicy: the --help of every command that takes
// --keep says what each representative policy keeps, in parentheses after
// its name, and the README names each and says what central keeps.
// Regression: central was named and never explained (the highest mean
// similarity to the other members), and index export explained none.
func TestKeepHelpSaysEveryPolicy(t *testing.T) {
	const central = "the highest mean similarity to the other"
	policies := []cluster.Policy{cluster.Longest, cluster.Earliest, cluster.First, cluster.Central}
	for _, command := range [][]string{{"dedup"}, {"index", "export"}} {
		help := flagHelp(t, command, `--keep=""`)
		for _, p := range policies {
			if !strings.Contains(help, string(p)+" (") {
				t.Errorf("%s --help does not say what --keep %s keeps: %q", strings.Join(command, " "), p, help)
			}
		}
		if !strings.Contains(help, central) {
			t.Errorf("%s --help does not say what central is: %q", strings.Join(command, " "), help)
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, p := range policies {
		if !strings.Contains(text, "`"+string(p)+"`") {
			t.Errorf("the README does not name --keep %s", p)
		}
	}
	if !strings.Contains(text, "`central` the member of "+central) {
		t.Errorf("the README does not say what --keep central keeps")
	}
}
