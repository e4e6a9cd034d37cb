package corpus

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPlacesOfOneOrigin pins what tells apart two records whose origins
// are written alike, for the message of an id they repeat: members of one
// name in an archive (a tar that tar -r appended a file to: "a.txt" twice,
// then "./a.txt") by their positions; standard input and a file named
// stdin in the working directory, whichever is read first; two JSON
// objects on one line by nothing (""). A record of a place of its own has
// none.
func TestPlacesOfOneOrigin(t *testing.T) {
	text := func(s string) string { return "Title\n" + s + " is the text of this document." }
	jsonl := `{"text":"one text of this document"}` + "\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		paths []string
		stdin string
		want  []string // per record: origin, then what tells it, then what tells the earlier one
	}{
		{"members of one name", map[string]string{"f.tar": tarOf(t, member{"a.txt", text("one")},
			member{"a.txt", text("two")}, member{"./a.txt", text("three")}, member{"b.txt", text("four")})},
			[]string{"f.tar"}, "", []string{
				"f.tar/a.txt: member 1 of f.tar; an earlier member of that name",
				"f.tar/a.txt: member 2 of f.tar; an earlier member of that name",
				"f.tar/a.txt: member 3 of f.tar; an earlier member of that name",
				"f.tar/b.txt: member 4 of f.tar; an earlier member of that name"}},
		{"members of standard input", nil, []string{"-"}, tarOf(t, member{"a.txt", text("one")}, member{"a.txt", text("two")}),
			[]string{
				"stdin/a.txt: member 1 of standard input; an earlier member of that name",
				"stdin/a.txt: member 2 of standard input; an earlier member of that name"}},
		{"the file stdin, then standard input", map[string]string{"stdin": jsonl}, []string{"stdin", "-"}, jsonl,
			[]string{"stdin:1: ; ", "stdin:1: standard input; the file stdin"}},
		{"standard input, then the file stdin", map[string]string{"stdin": jsonl}, []string{"-", "stdin"}, jsonl,
			[]string{"stdin:1: ; ", "stdin:1: the file stdin; standard input"}},
		{"standard input alone", nil, []string{"-"}, jsonl, []string{"stdin:1: ; "}},
		{"two objects on one line", map[string]string{"a.json": `[{"text":"one text"},{"text":"two texts"}]`},
			[]string{"a.json"}, "", []string{"a.json:1: ; ", "a.json:1#2: ; "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			t.Chdir(dir)
			r, err := open(tc.paths, nil, Options{}, config{stdin: strings.NewReader(tc.stdin)})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var got []string
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				this, earlier := r.Places(&rec)
				got = append(got, rec.Doc.Origin+": "+this+"; "+earlier)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
