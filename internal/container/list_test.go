package container

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestPathNameCannotCollide is the regression test of two files whose
// names PathName wrote alike: a name not UTF-8 ("caf\xe9.txt" in
// Latin-1) and one that holds the four characters of its escape
// (`caf\xe9.txt`, as typed) both gave the id `caf\xe9.txt`, so that a run
// of both stopped at an id repeated, or took one file for the other. Now
// an element that is not UTF-8, or holds "\x", has its backslashes
// doubled too, and every other element is kept as it is: a name's id is
// its own.
func TestPathNameCannotCollide(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"UTF-8", "d/été.txt", "d/été.txt"},
		{"Latin-1", "d/\xe9t\xe9.txt", `d/\xe9t\xe9.txt`},
		{"an escape's characters", `d/caf\xe9.txt`, `d/caf\\xe9.txt`},
		{"Latin-1 and a backslash", "d/a\\b\xe9.txt", `d/a\\b\xe9.txt`},
		{"a backslash and no escape", `d/a\b.txt`, `d/a\b.txt`},
		{"an element escaped alone", "a\\b/\xe9/c\\d.txt", `a\b/\xe9/c\d.txt`},
		{"an escape's characters escaped alone", `a\b/caf\xe9`, `a\b/caf\\xe9`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := PathName(tc.path)
			if got != tc.want {
				t.Errorf("PathName(%q) = %q, want %q", tc.path, got, tc.want)
			}
			if back := unescapePath(t, got); back != tc.path {
				t.Errorf("PathName(%q) = %q, which reads back as %q", tc.path, got, back)
			}
		})
	}
	if a, b := PathName("caf\xe9.txt"), PathName(`caf\xe9.txt`); a == b {
		t.Errorf("a Latin-1 name and its escape's characters are both %q", a)
	}
}

// FuzzPathName checks that PathName writes a path as UTF-8 that reads
// back to the path alone: no two paths are written alike.
func FuzzPathName(f *testing.F) {
	for _, p := range []string{"d/été.txt", "d/\xe9t\xe9.txt", `caf\xe9.txt`, "a\\b/\xe9", `\\x`, "\xff\\"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got := PathName(p)
		if !utf8.ValidString(got) {
			t.Errorf("PathName(%q) = %q, not UTF-8", p, got)
		}
		if back := unescapePath(t, got); back != p {
			t.Errorf("PathName(%q) = %q, which reads back as %q", p, got, back)
		}
	})
}

// unescapePath reads back what PathName wrote, element by element: an
// element that holds "\x" is escaped, any other is as it was.
func unescapePath(t *testing.T, s string) string {
	t.Helper()
	elems := strings.Split(s, "/")
	for i, e := range elems {
		if !strings.Contains(e, `\x`) {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(e); j++ {
			switch {
			case strings.HasPrefix(e[j:], `\\`):
				b.WriteByte('\\')
				j++
			case strings.HasPrefix(e[j:], `\x`) && j+4 <= len(e):
				c, err := strconv.ParseUint(e[j+2:j+4], 16, 8)
				if err != nil {
					t.Fatalf("%q: a \\x not followed by two hex digits", s)
				}
				b.WriteByte(byte(c))
				j += 3
			case e[j] == '\\':
				t.Fatalf("%q: a backslash alone in an escaped element", s)
			default:
				b.WriteByte(e[j])
			}
		}
		elems[i] = b.String()
	}
	return strings.Join(elems, "/")
}

// TestIDNamesEscapeTheWorkingDirectory is the regression test of ids that
// took the working directory's name as it is: the paths given were
// escaped (PathName) before IDNames made them absolute, so that the
// directory joined to a relative path stayed raw. In a directory named
// "cw\xe9" (Latin-1) dedup skipped "x.txt" (`field "id": invalid UTF-8`)
// and extract wrote "cw\ufffd/x.txt"; in a directory named `caf\xe9`, as
// typed, beside its Latin-1 twin, two files took one id. The working
// directory is now escaped as any element of a path given is.
func TestIDNamesEscapeTheWorkingDirectory(t *testing.T) {
	for _, tc := range []struct {
		name, cwd string
		given     []string
		want      []string
	}{
		{"not UTF-8", "cw\xe9", []string{"x.txt", "../other/x.txt"}, []string{`cw\xe9/x.txt`, "other/x.txt"}},
		{"typed escape beside its Latin-1 twin", `caf\xe9`, []string{"x.txt", "../caf\xe9/x.txt"},
			[]string{`caf\\xe9/x.txt`, `caf\xe9/x.txt`}},
		{"Latin-1 beside its typed twin", "caf\xe9", []string{"x.txt", `../caf\xe9/x.txt`},
			[]string{`caf\xe9/x.txt`, `caf\\xe9/x.txt`}},
		{"stdin", "cw\xe9", []string{"-", "x.txt"}, []string{"", "x.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, err := os.MkdirTemp(t.TempDir(), "ids")
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range []string{tc.cwd, "other", `caf\xe9`, "caf\xe9"} {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(filepath.Join(root, tc.cwd))
			got := IDNames(tc.given)
			for i := range got {
				if got[i] != tc.want[i] || !utf8.ValidString(got[i]) {
					t.Errorf("IDNames(%q)[%d] = %q, want %q", tc.given, i, got[i], tc.want[i])
				}
			}
		})
	}
}

// BenchmarkIDNames names 3,000 inputs given on a command line (a shell's
// glob of shards, each a file of one name in a folder of its own). Each
// path was compared with every other for each of its endings, and the
// reader named them again as each was added: 1,000 files took 83 s to
// open, 2 s now.
func BenchmarkIDNames(b *testing.B) {
	given := make([]string, 3000)
	for i := range given {
		given[i] = filepath.Join("/data", "shard-"+strconv.Itoa(i), "part.jsonl")
	}
	for b.Loop() {
		IDNames(given)
	}
}
