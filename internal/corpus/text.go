package corpus

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/jsonenc"
)

// textSource yields a whole text file as one record.
type textSource struct {
	rd     io.Reader
	origin string
	id     string
	md     bool
	limit  int
	size   int64 // the stream's size when known (a capacity hint), else -1
	done   bool
	// detected, when set, counts the file as read in the charset detected
	// from its bytes; a file skipped as binary (a NUL byte past the 8 KiB
	// sniffed, or notText) is not counted, its charset no warning's
	// business.
	detected func()
}

func (s *textSource) close() {}

func (s *textSource) next() (Raw, error) {
	if s.done {
		return Raw{}, io.EOF
	}
	s.done = true
	data, err := readAtMost(s.rd, s.limit, s.size)
	if err != nil {
		return Raw{}, fmt.Errorf("reading %s: %w", s.origin, container.CutAfter(err, int64(len(data))))
	}
	if len(data) > s.limit {
		// Not read further: a file over the limit may be a bomb.
		return Raw{Origin: s.origin, kind: rawTooLarge, id: s.id, size: -int64(s.limit)}, nil
	}
	if s.detected != nil && bytes.IndexByte(data, 0) < 0 && !notText(string(data)) {
		s.detected()
	}
	return Raw{Origin: s.origin, kind: rawText, data: data, id: s.id, md: s.md}, nil
}

// readAtMost reads up to limit+1 bytes, in one allocation when the size is
// known.
func readAtMost(rd io.Reader, limit int, size int64) ([]byte, error) {
	n := 512
	if size >= 0 {
		n = int(min(size, int64(limit))) + 1
	}
	buf := make([]byte, 0, n)
	for len(buf) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := rd.Read(buf[len(buf):min(cap(buf), min(limit, math.MaxInt-1)+1)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// binarySource yields one record standing for a binary file.
type binarySource struct {
	origin, id string
	why        string // what tells it binary, for the skip's message
	done       bool
}

func (s *binarySource) close() {}

func (s *binarySource) next() (Raw, error) {
	if s.done {
		return Raw{}, io.EOF
	}
	s.done = true
	return Raw{Origin: s.origin, kind: rawBinary, id: s.id, note: s.why}, nil
}

// decodeText makes a document of a text file: the first non-blank line is
// the title (for Markdown, without its leading '#'s) and the rest the text,
// or, with Options.TextWhole, the whole file the text. A file of one line is
// all text. A Markdown file's front matter gives its title, date, source
// and URL (frontMatter), a date read as a date field is (Reader.date: one
// not read is noted). Doc.Raw is {"id","title","text"}, then "url",
// "source" and "date" (as written) when the front matter gives them. A
// file that passes the checks of every record (finish) but whose decoded
// text is heavy in characters no text holds (notText: binary data, in
// whatever charset it was read) is skipped as binary.
func (r *Reader) decodeText(raw Raw) Record {
	doc := core.Document{ID: r.idOf(raw.id), Origin: raw.Origin}
	s := string(raw.data)
	var fm frontFields
	if r.opts.TextWhole {
		doc.Text = s
	} else {
		doc.Title, doc.Text, fm = splitTitle(s, raw.md)
	}
	var unread string
	doc.URL, doc.Source = fm.url, fm.source
	if fm.date != "" {
		doc.Date, unread = r.date(fm.date, raw.Origin, raw.seq)
	}
	rec := r.finish(doc)
	if rec.Skip == core.SkipNone && notText(s) {
		return skip(core.Document{ID: doc.ID, Origin: doc.Origin}, core.SkipBinary, "", "binary data ("+notTextWhy+")")
	}
	if rec.Skip == core.SkipNone {
		rec.UnreadDate = unread
		b := make([]byte, 0, len(doc.ID)+len(doc.Title)+len(doc.Text)+len(fm.url)+len(fm.source)+len(fm.date)+64)
		b = append(b, `{"id":`...)
		b = jsonenc.AppendString(b, doc.ID)
		b = append(b, `,"title":`...)
		b = jsonenc.AppendString(b, doc.Title)
		b = append(b, `,"text":`...)
		b = jsonenc.AppendString(b, doc.Text)
		for _, f := range [...]struct{ key, v string }{{`,"url":`, fm.url}, {`,"source":`, fm.source}, {`,"date":`, fm.date}} {
			if f.v != "" {
				b = append(b, f.key...)
				b = jsonenc.AppendString(b, f.v)
			}
		}
		rec.Doc.Raw, rec.built = append(b, '}'), true
	}
	return rec
}

// splitTitle splits a text file into its title line and the text after it.
// A line ends at LF or CRLF; at a lone CR only in a file that holds more
// lone CRs than LFs, whose lines end so (as old Mac files end theirs, one
// LF appended at its end or not): a stray CR inside a line of a file of LF
// line ends is part of the line. A Markdown file's YAML front matter is
// not text (frontMatter): its title: is the title, else the first line
// after it is; fm is what the front matter gives.
func splitTitle(s string, md bool) (title, text string, fm frontFields) {
	if md {
		if fm, body, ok := frontMatter(s); ok {
			text = strings.TrimRight(strings.TrimLeft(body, "\r\n"), " \t\r\n")
			switch {
			case fm.title == "":
				title, text = lineTitle(body, md)
				return title, text, fm
			case text == "":
				return "", fm.title, fm // as a file of one line: all text
			}
			return fm.title, text, fm
		}
	}
	title, text = lineTitle(s, md)
	return title, text, fm
}

// lineTitle splits s into its first line not blank, the title, and the
// text after it (see splitTitle).
func lineTitle(s string, md bool) (title, text string) {
	end := byte('\n')
	if lf := strings.Count(s, "\n"); strings.Count(s, "\r")-strings.Count(s, "\r\n") > lf {
		end = '\r'
	}
	rest := s
	for rest != "" {
		line, after := rest, ""
		if i := strings.IndexByte(rest, end); i >= 0 {
			line, after = rest[:i], rest[i+1:]
		}
		if strings.TrimSpace(line) == "" {
			rest = after
			continue
		}
		title = strings.TrimSpace(line)
		if md {
			title = strings.TrimSpace(strings.TrimLeft(title, "#"))
		}
		text = strings.TrimRight(strings.TrimLeft(after, "\r\n"), " \t\r\n")
		if text == "" {
			return "", strings.TrimSpace(line)
		}
		return title, text
	}
	return "", ""
}
