package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
)

// TestDocsGenCommandsParse: every `ndlab gen` command line of the README
// and docs/, in a code block or in a code span of the text (which may run
// over a line break), parses with ndlab's parser, so that one copied from
// the docs runs: the docs of scale.md named corpora by gen commands that
// lacked the required --truth and -o. A span that elides arguments ("..."
// or "…") or names the command alone is no command line; the directory
// and file of --reuters and --bbc are given as existing ones.
func TestDocsGenCommandsParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	files = append(files, filepath.Join("..", "..", "..", "README.md"))
	dir := t.TempDir()
	bbc := filepath.Join(dir, "bbc.tar.gz")
	if err := os.WriteFile(bbc, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range docCommandLines(string(data)) {
			for _, args := range genCommands(line) {
				n++
				for i, a := range args {
					if i > 0 && (args[i-1] == "--reuters" || args[i-1] == "--bbc") {
						args[i] = map[string]string{"--reuters": dir, "--bbc": bbc}[args[i-1]]
					} else if k, _, ok := strings.Cut(a, "="); ok && (k == "--reuters" || k == "--bbc") {
						args[i] = k + "=" + map[string]string{"--reuters": dir, "--bbc": bbc}[k]
					}
				}
				var c cli
				parser, err := newParser(&c, kong.Exit(func(int) { t.Fatal("exit") }))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := parser.Parse(args); err != nil {
					t.Errorf("%s: ndlab %s: %v", filepath.Base(f), strings.Join(args, " "), err)
				}
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d ndlab gen command lines found in the docs", n)
	}
}

// codeSpan is a code span of Markdown text, which may run over a line break.
var codeSpan = regexp.MustCompile("`[^`]+`")

// docCommandLines returns the lines of the code blocks of a Markdown text,
// fenced or indented (a line continued with a backslash joined to the
// next), and its code spans, line breaks in them made spaces.
func docCommandLines(md string) []string {
	var out, prose []string
	in, cont := false, ""
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		indented := strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != ""
		if !in && !indented {
			prose = append(prose, l)
			continue
		}
		if !in {
			prose = append(prose, l) // an indented block's, or a list item's
		}
		if s, ok := strings.CutSuffix(strings.TrimRight(l, " "), `\`); ok {
			cont += s + " "
			continue
		}
		out = append(out, cont+l)
		cont = ""
	}
	for _, s := range codeSpan.FindAllString(strings.Join(prose, "\n"), -1) {
		out = append(out, strings.ReplaceAll(strings.Trim(s, "`"), "\n", " "))
	}
	return out
}

// genCommands returns the arguments of each ndlab gen command of a line,
// "gen" first: commands are cut at ;, &, |, < and >, and a command is
// ndlab's when a word of it is ndlab or a path ending /ndlab.
func genCommands(line string) [][]string {
	if strings.Contains(line, "...") || strings.Contains(line, "…") {
		return nil
	}
	var out [][]string
	for _, cmd := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(";&|<>", r) }) {
		words := strings.Fields(strings.NewReplacer(`"`, "", "'", "").Replace(cmd))
		for i, w := range words {
			if (w == "ndlab" || strings.HasSuffix(w, "/ndlab")) && i+2 < len(words) && words[i+1] == "gen" {
				var args []string
				for _, a := range words[i+1:] {
					if strings.HasPrefix(a, "#") {
						break
					}
					args = append(args, a)
				}
				out = append(out, args)
				break
			}
		}
	}
	return out
}
