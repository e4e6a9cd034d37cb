package corpus

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// storedZip returns a zip archive of members stored, not compressed.
func storedZip(t *testing.T, ms ...member) string {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, m := range ms {
		f, err := w.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(m.content))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDamagedArchiveMembersAreRefused: regression, one damaged member of a zip
// or tar archive (a stored member one byte changed: "zip: checksum error";
// deflated data damaged: "flate: corrupt input"; a tar cut inside a member),
// or a zip whose central directory is gone, stopped the run, the other
// members and inputs lost. The member, or the archive, is refused, named in
// its reason, and the rest is read: a zip member gives none of its records
// (no byte of it can be trusted before its checksum), a tar member cut short
// the records before the cut.
func TestDamagedArchiveMembersAreRefused(t *testing.T) {
	lines := func(p string) string {
		return `{"id":"` + p + `1","text":"x"}` + "\n" + `{"id":"` + p + `2","text":"y"}` + "\n" + `{"id":"` + p + `3","text":"z"}` + "\n"
	}
	crc := strings.Replace(storedZip(t, member{"a.jsonl", lines("a")}, member{"b.jsonl", lines("b")},
		member{"c.jsonl", lines("c")}), `"b3","text":"z"`, `"b3","text":"Z"`, 1)
	flate := []byte(zipOf(t, member{"b.jsonl", strings.Repeat(lines("b"), 50)}, member{"c.jsonl", lines("c")}))
	for i := 30 + len("b.jsonl") + 4; i < 30+len("b.jsonl")+12; i++ {
		flate[i] ^= 0xff
	}
	whole := zipOf(t, member{"a.jsonl", lines("a")})
	tarball := tarOf(t, member{"a.jsonl", lines("a")}, member{"b.jsonl", lines("b")}, member{"c.jsonl", lines("c")})
	// Regression: a tar cut inside a zip it holds was refused twice, the
	// tar's damage met copying the zip taken for the zip's own refusal.
	zipInTar := tarOf(t, member{"a.jsonl", lines("e")}, member{"inner.zip", zipOf(t, member{"z.jsonl", lines("z")})})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"crc.zip":     crc,
		"flate.zip":   string(flate),
		"half.zip":    whole[:len(whole)/2],
		"cut.tar":     tarball[:strings.Index(tarball, `"b2"`)],
		"zipcut.tar":  zipInTar[:strings.Index(zipInTar, "PK\x03\x04")+40],
		"after.jsonl": lines("d"),
	})
	t.Chdir(dir)
	got, err := readAll(t, []string{"crc.zip", "flate.zip", "half.zip", "cut.tar", "zipcut.tar", "after.jsonl"}, Options{}, config{})
	if err != nil {
		t.Fatal(err)
	}
	var ids, skips []string
	for _, r := range got {
		if r.Skip == "" {
			ids = append(ids, r.ID)
		} else {
			skips = append(skips, r.Origin+" "+r.Skip+": "+r.Err)
		}
	}
	if want := "a1 a2 a3 c1 c2 c3 c1 c2 c3 a1 a2 a3 b1 e1 e2 e3 d1 d2 d3"; strings.Join(ids, " ") != want {
		t.Errorf("records %q, want %q", strings.Join(ids, " "), want)
	}
	wants := []string{
		"crc.zip/b.jsonl refused: crc.zip/b.jsonl: refused: its data is damaged (zip: checksum error): none of it is read",
		"flate.zip/b.jsonl refused: flate.zip/b.jsonl: refused: its data is damaged (flate: corrupt input",
		"half.zip refused: half.zip: refused: not a zip archive that can be read (",
		"cut.tar/b.jsonl refused: cut.tar/b.jsonl: refused: the tar archive cut.tar ends inside it, after 29 of its 69 bytes " +
			"(unexpected EOF: cut short); reading stopped after its record 1: the records up to there are read, the rest of it is not",
		"zipcut.tar/inner.zip refused: zipcut.tar/inner.zip: refused: the tar archive zipcut.tar ends inside it, after 40 of its ",
	}
	if len(skips) != len(wants) {
		t.Fatalf("skipped %q, want %d", skips, len(wants))
	}
	for i, w := range wants {
		if !strings.HasPrefix(skips[i], w) {
			t.Errorf("skipped %q, want it to start %q", skips[i], w)
		}
	}
}

// A zip member too large to hold, read twice (once to check it, once to
// read it), counts twice in Progress, done and total, so that its share
// read says how far the work is: its check is not the whole of it.
// Regression: the check read the whole archive, Progress said 100% before
// any record of it was read, and the records' reading added nothing.
func TestProgressCountsTheCheckOfALargeZipMember(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() <= 17<<20; i++ {
		fmt.Fprintf(&b, `{"id":"d%d","text":"words and more words"}`+"\n", i)
	}
	data := zipOf(t, member{"big.jsonl", b.String()})
	zr, err := zip.NewReader(strings.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	comp := int64(zr.File[0].CompressedSize64)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"big.zip": data})
	r, err := Open([]string{filepath.Join(dir, "big.zip")}, Options{MaxRatio: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.NextRaw(); err != nil {
		t.Fatal(err)
	}
	done, total := r.Progress()
	if want := int64(len(data)) + comp; total != want || done < comp {
		t.Errorf("after the first record: %d of %d bytes done, want %d (the check) or more of %d", done, total, comp, want)
	}
	for {
		if _, err := r.NextRaw(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if done, total := r.Progress(); done != total {
		t.Errorf("at the end: %d of %d bytes done", done, total)
	}
}
