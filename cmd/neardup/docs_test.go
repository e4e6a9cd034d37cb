package main

import (
	"bufio"
	"cmp"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// TestDocsCommandLinesParse: every neardup command line in the code blocks
// of the README and docs/ parses with the command line's parser, so that
// the documentation and --help cannot drift apart. Placeholders of a
// synopsis ("INPUT...", "[--rules rules.yaml]", "-j N") and the shell
// variables of a loop are given values first (see placeholders); files
// the lines name are made in a scratch directory, empty, for the flags
// that want an existing file.
func TestDocsCommandLinesParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	files = append(files, filepath.Join("..", "..", "README.md"))
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir())
	n := 0
	for _, f := range files {
		for _, line := range codeLines(t, f) {
			for _, args := range neardupCommands(line.text) {
				n++
				if err := parseDocumented(args); err != nil {
					t.Errorf("%s:%d: neardup %s: %v", filepath.Base(f), line.n, strings.Join(args, " "), err)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d command lines found in the docs", n)
	}
}

// placeholders are the values the docs' synopses and shell loops stand for.
var placeholders = map[string]string{"INPUT...": "pages/", "N": "2", "$m": "minhash", "$m.db": "minhash.db", "b-$m": "b-minhash",
	"i-$m": "i-minhash", "r-$m": "r-minhash", "$x": ""}

// parseDocumented parses args as neardup would, in the working directory,
// where it makes every argument that looks like a relative file name.
func parseDocumented(args []string) (err error) {
	var c cli
	parser, err := newParser(&c, kong.Writers(io.Discard, io.Discard), kong.Exit(func(int) { panic(helpExit(0)) }), onlyCommand(args))
	if err != nil {
		return err
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.Contains(a, ".") && !strings.Contains(a, "://") && !filepath.IsAbs(a) {
			os.MkdirAll(filepath.Dir(a), 0o755)
			os.WriteFile(a, nil, 0o644)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(helpExit); !ok {
				panic(r)
			}
			err = nil
		}
	}()
	_, err = parser.Parse(args)
	return err
}

type codeLine struct {
	n    int
	text string
}

// codeLines returns the lines of the shell code blocks of a Markdown
// file, a line continued with a backslash joined to the next.
func codeLines(t *testing.T, path string) []codeLine {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []codeLine
	sc := bufio.NewScanner(f)
	in, shell, n, cont := false, false, 0, ""
	for sc.Scan() {
		n++
		l := sc.Text()
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") {
			in = !in
			lang := strings.TrimPrefix(t, "```")
			shell = lang == "" || lang == "sh" || lang == "shell" || lang == "bash" || lang == "console"
			continue
		}
		if !in || !shell {
			continue
		}
		if s, ok := strings.CutSuffix(strings.TrimRight(l, " "), `\`); ok {
			cont += s + " "
			continue
		}
		out = append(out, codeLine{n, cont + l})
		cont = ""
	}
	return out
}

// neardupCommands returns the arguments of each neardup command of a
// shell line: commands are cut at ;, &&, ||, | and redirections, comments
// dropped; a command is neardup's when it starts with neardup, go run
// ./cmd/neardup or a timing wrapper.
func neardupCommands(line string) [][]string {
	var out [][]string
	for _, cmd := range shellCommands(line) {
		i := 0
		for i < len(cmd) && (cmd[i] == "go" || cmd[i] == "run" || cmd[i] == "time" || cmd[i] == "/usr/bin/time" || cmd[i] == "nice") {
			i++
		}
		if i >= len(cmd) || cmd[i] != "neardup" && cmd[i] != "./cmd/neardup" {
			continue
		}
		if i > 0 && cmd[0] == "go" && cmd[1] != "run" {
			continue
		}
		var args []string
		for _, a := range cmd[i+1:] {
			a = strings.Trim(a, "[]")
			if v, ok := placeholders[a]; ok {
				a = v
			}
			if a != "" {
				args = append(args, a)
			}
		}
		out = append(out, args)
	}
	return out
}

// shellCommands splits a shell line into commands of words: quotes
// removed, a word starting with # ends the line.
func shellCommands(line string) [][]string {
	var cmds [][]string
	var cmd []string
	var w strings.Builder
	inWord, quote, skipNext := false, rune(0), false
	end := func() {
		if inWord {
			if !skipNext {
				cmd = append(cmd, w.String())
			}
			skipNext = false
		}
		w.Reset()
		inWord = false
	}
	endCmd := func() {
		end()
		if len(cmd) > 0 {
			cmds = append(cmds, cmd)
		}
		cmd = nil
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			end()
		case r == '#' && !inWord:
			endCmd()
			return cmds
		case r == ';' || r == '|' || r == '&':
			endCmd()
		case r == '>' || r == '<':
			end()
			if len(cmd) > 0 && (cmd[len(cmd)-1] == "2" || cmd[len(cmd)-1] == "1") {
				cmd = cmd[:len(cmd)-1]
			}
			skipNext = true // the redirection's file
			for i+1 < len(rs) && (rs[i+1] == '>' || rs[i+1] == '&') {
				i++
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

// TestDocsEvidenceFields: the evidence table of docs/outputs.md names
// every field of every method's evidence, and for each the methods whose
// pairs carry it, as the evidence types' JSON names give them (fields of
// embedded types included), so that the table and the pairs cannot drift
// apart.
func TestDocsEvidenceFields(t *testing.T) {
	types := map[string]reflect.Type{
		"minhash": reflect.TypeFor[minhash.Evidence](), "simhash": reflect.TypeFor[simhash.Evidence](),
		"sentences": reflect.TypeFor[sentences.Evidence](), "tfidf": reflect.TypeFor[tfidf.Evidence](),
		"rarewords": reflect.TypeFor[rarewords.Evidence](), "cosine": reflect.TypeFor[cosine.Evidence](),
	}
	want := map[string][]string{} // field → methods
	for method, typ := range types {
		for _, f := range jsonFields(typ) {
			want[f] = append(want[f], method)
		}
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "outputs.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	_, table, _ := strings.Cut(string(data), "| field | methods | meaning |")
	table, _, _ = strings.Cut(table, "\n\n")
	for _, row := range strings.Split(table, "\n")[2:] {
		cells := strings.Split(row, " | ")
		if len(cells) < 3 {
			t.Fatalf("docs/outputs.md: evidence row %q: want three cells", row)
		}
		for _, f := range strings.Split(strings.TrimPrefix(cells[0], "| "), ", ") {
			got[strings.Trim(f, "`")] = strings.Split(cells[1], ", ")
		}
	}
	for f := range want {
		slices.Sort(want[f])
		slices.Sort(got[f])
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("docs/outputs.md's evidence table (+) against the evidence types (-):\n%s", diff)
	}
}

// jsonFields returns the JSON names of a struct's fields, those of
// embedded structs included.
func jsonFields(typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			out = append(out, jsonFields(f.Type)...)
		case f.IsExported():
			out = append(out, cmp.Or(name, f.Name))
		}
	}
	return out
}
