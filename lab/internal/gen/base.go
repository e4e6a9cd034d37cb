package gen

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Base is one real text the generator makes documents from.
type Base struct {
	// ID names the text for the truth file, e.g. "reuters-21578:1234" or
	// "bbc:business/007". It must be unique among the bases.
	ID string
	// Title is the headline; it may be empty.
	Title string
	// Text is the body: paragraphs separated by blank lines.
	Text string
	// Dateline is the place line of the story without the date, e.g.
	// "SALVADOR" or "NEW YORK"; empty when unknown.
	Dateline string
	// Date is when the story was published; the zero Time means unknown and
	// the generator picks one.
	Date time.Time
	// Topic is a category where the source has one (BBC: "business"); it
	// may be empty.
	Topic string
}

// LoadReuters reads every Reuters-21578 story with a body from the .sgm and
// .sgm.gz files in dir, in file-name order. Stories without a <BODY> (briefs
// and unprocessed items) are left out.
func LoadReuters(dir string) ([]Base, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.sgm*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var bases []Base
	for _, name := range names {
		if !strings.HasSuffix(name, ".sgm") && !strings.HasSuffix(name, ".sgm.gz") {
			continue
		}
		data, err := readMaybeGzip(name)
		if err != nil {
			return nil, err
		}
		bases = append(bases, ParseReuters(data)...)
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("gen: no Reuters stories with a body in %s", dir)
	}
	return bases, nil
}

// readMaybeGzip returns a file's bytes, decompressed when its name ends in .gz.
func readMaybeGzip(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return out, nil
}

// ParseReuters extracts the stories with a body from Reuters-21578 SGML.
// Malformed stories are skipped; it never fails.
func ParseReuters(sgml []byte) []Base {
	var bases []Base
	s := string(sgml)
	for {
		i := strings.Index(s, "<REUTERS")
		if i < 0 {
			return bases
		}
		s = s[i+len("<REUTERS"):]
		story := s
		if j := strings.Index(s, "</REUTERS>"); j >= 0 {
			story, s = s[:j], s[j:]
		}
		if b, ok := parseStory(story); ok {
			bases = append(bases, b)
		}
	}
}

// parseStory turns the inside of one <REUTERS ...> element into a Base.
func parseStory(story string) (Base, bool) {
	body, ok := element(story, "BODY")
	if !ok {
		return Base{}, false
	}
	text := reutersBody(stripControl(unescapeSGML(body)))
	if text == "" {
		return Base{}, false
	}
	b := Base{Text: text}
	if id := attr(story, "NEWID"); id != "" {
		b.ID = "reuters-21578:" + id
	}
	if title, ok := element(story, "TITLE"); ok {
		b.Title = collapseSpace(stripControl(unescapeSGML(title)))
	}
	if dl, ok := element(story, "DATELINE"); ok {
		b.Dateline = datelinePlace(unescapeSGML(dl))
	}
	if d, ok := element(story, "DATE"); ok {
		b.Date = parseReutersDate(strings.TrimSpace(d))
	}
	if topics, ok := element(story, "TOPICS"); ok {
		if t, ok := element(topics, "D"); ok {
			b.Topic = t
		}
	}
	return b, true
}

// element returns the content of the first <name>...</name> in s.
func element(s, name string) (string, bool) {
	open := strings.Index(s, "<"+name+">")
	if open < 0 {
		return "", false
	}
	rest := s[open+len(name)+2:]
	end := strings.Index(rest, "</"+name+">")
	if end < 0 {
		return "", false
	}
	return rest[:end], true
}

// attr returns the value of name="value" in the start tag at the top of s.
func attr(s, name string) string {
	tag := s
	if i := strings.IndexByte(s, '>'); i >= 0 {
		tag = s[:i]
	}
	i := strings.Index(tag, name+"=\"")
	if i < 0 {
		return ""
	}
	v := tag[i+len(name)+2:]
	if j := strings.IndexByte(v, '"'); j >= 0 {
		return v[:j]
	}
	return ""
}

// unescapeSGML replaces the entities Reuters-21578 uses (&lt; &gt; &amp; and
// numeric &#N;); control characters from numeric entities are dropped.
func unescapeSGML(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s, ';')
		if j < 0 || j > 8 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		b.WriteString(entity(s[1:j]))
		s = s[j+1:]
	}
}

// stripControl drops control characters other than newline and tab.
func stripControl(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

func entity(name string) string {
	switch name {
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "amp":
		return "&"
	case "quot":
		return "\""
	}
	if strings.HasPrefix(name, "#") {
		return "" // &#2; &#3; &#5; ... are transmission control codes
	}
	return "&" + name + ";"
}

// reutersBody turns a hard-wrapped Reuters body into paragraphs separated by
// blank lines: an indented line starts a paragraph, other lines continue it.
// The closing "Reuter" sign-off is dropped.
func reutersBody(body string) string {
	body = strings.ReplaceAll(body, "\r", "")
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = cur[:0]
		}
	}
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || (line != t && strings.HasPrefix(line, " ")) {
			flush()
		}
		if t != "" {
			cur = append(cur, collapseSpace(t))
		}
	}
	flush()
	for len(paras) > 0 && isSignoff(paras[len(paras)-1]) {
		paras = paras[:len(paras)-1]
	}
	if n := len(paras); n > 0 {
		paras[n-1] = trimSignoff(paras[n-1])
	}
	return strings.Join(paras, "\n\n")
}

func isSignoff(p string) bool {
	p = strings.Trim(p, " -")
	return p == "" || strings.EqualFold(p, "reuter") || strings.EqualFold(p, "reuters")
}

// trimSignoff removes trailing " Reuter" sign-offs from the last paragraph.
func trimSignoff(p string) string {
	for {
		q := p
		for _, suf := range []string{" Reuter", " REUTER", " reuter"} {
			q = strings.TrimSpace(strings.TrimSuffix(q, suf))
		}
		if q == p {
			return p
		}
		p = q
	}
}

// datelinePlace keeps the place of a dateline such as "SALVADOR, Feb 26 - ".
func datelinePlace(dl string) string {
	dl = collapseSpace(dl)
	dl = strings.TrimSuffix(strings.TrimSpace(dl), "-")
	parts := strings.Split(dl, ",")
	if len(parts) < 2 {
		return strings.TrimSpace(dl)
	}
	return strings.TrimSpace(parts[0])
}

func parseReutersDate(s string) time.Time {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i]
	}
	t, err := time.Parse("2-Jan-2006 15:04:05", s)
	if err != nil {
		return time.Time{}
	}
	return t
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// LoadBBC reads the BBC News full-text corpus from path: the bbc.tar.gz
// archive, or a directory holding <topic>/<nnn>.txt files. The first line of
// each file is the headline, the rest the body. Bytes that are not UTF-8 are
// read as Latin-1.
func LoadBBC(path string) ([]Base, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var bases []Base
	if fi.IsDir() {
		bases, err = loadBBCDir(path)
	} else {
		bases, err = loadBBCArchive(path)
	}
	if err != nil {
		return nil, err
	}
	if len(bases) == 0 {
		return nil, fmt.Errorf("gen: no BBC articles in %s", path)
	}
	sort.Slice(bases, func(i, j int) bool { return bases[i].ID < bases[j].ID })
	return bases, nil
}

func loadBBCArchive(path string) ([]Base, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	tr := tar.NewReader(zr)
	var bases []Base
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return bases, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("reading %s in %s: %w", h.Name, path, err)
		}
		if b, ok := ParseBBC(h.Name, data); ok {
			bases = append(bases, b)
		}
	}
}

func loadBBCDir(dir string) ([]Base, error) {
	var bases []Base
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if b, ok := ParseBBC(filepath.ToSlash(rel), data); ok {
			bases = append(bases, b)
		}
		return nil
	})
	return bases, err
}

// ParseBBC reads one BBC article file named name ("bbc/business/007.txt").
// It reports false for files that are not articles (no .txt under a topic
// folder, or no body).
func ParseBBC(name string, data []byte) (Base, bool) {
	parts := strings.Split(strings.TrimSuffix(name, ".txt"), "/")
	if !strings.HasSuffix(name, ".txt") || len(parts) < 2 {
		return Base{}, false
	}
	topic, num := parts[len(parts)-2], parts[len(parts)-1]
	text := strings.ReplaceAll(latin1Fallback(data), "\r", "")
	title, body, _ := strings.Cut(strings.TrimLeft(text, "\n"), "\n")
	var paras []string
	for _, p := range strings.Split(body, "\n") {
		if p = collapseSpace(p); p != "" {
			paras = append(paras, p)
		}
	}
	if len(paras) == 0 {
		return Base{}, false
	}
	return Base{
		ID:    "bbc:" + topic + "/" + num,
		Title: collapseSpace(title),
		Text:  strings.Join(paras, "\n\n"),
		Topic: topic,
	}, true
}

// latin1Fallback decodes UTF-8, reading each invalid byte as Latin-1.
func latin1Fallback(data []byte) string {
	if utf8.Valid(data) {
		return string(data)
	}
	var b strings.Builder
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 {
			r = rune(data[0])
		}
		b.WriteRune(r)
		data = data[n:]
	}
	return b.String()
}
