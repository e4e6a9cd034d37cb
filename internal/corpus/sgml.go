package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/jsonenc"
	"golang.org/x/text/encoding/charmap"
)

// Reuters-21578 SGML (.sgm): each <REUTERS NEWID="n" ...> element is one
// document. Its id is NEWID, its title TITLE, its date DATE
// ("26-FEB-1987 15:01:01.79"), its text the DATELINE followed by BODY (the
// story as it reads on the wire, "SALVADOR, Feb 26 - Showers continued
// ...": the methods read a story's date from its dateline), or for an
// unprocessed story
// (<TEXT TYPE="UNPROC">) the text of TEXT. A brief (<TEXT TYPE="BRIEF">)
// is a headline whose body is a placeholder: it is skipped as empty,
// and so is any story without text. Tags and attribute names are matched
// in any case; entities (&lt; &amp; &#3; ...) are decoded and control
// characters dropped; bytes that are not UTF-8 are read as Windows-1252.
// Doc.Raw is {"id","title","dateline","date","text","topics","places"}.
// A story not closed ends where the next <REUTERS begins; one the stream
// ends inside is cut short: a malformed record, not a document.

// sgmlSource cuts a Reuters SGML stream into <REUTERS> elements.
type sgmlSource struct {
	br     *bufio.Reader
	origin string
	limit  int // the largest element kept, in bytes
	line   int // the line the reader is at, from 1
	buf    []byte
	obuf   []byte
	eof    bool
	opened bool // the last element ended at the "<REUTERS" of the next
}

func (s *sgmlSource) close() {}

// isOpen reports whether b, just after a '<', starts a <REUTERS> tag.
func isReutersOpen(b []byte) bool {
	return len(b) >= 8 && bytes.EqualFold(b[:7], []byte("reuters")) &&
		(b[7] == '>' || b[7] == ' ' || b[7] == '\t' || b[7] == '\r' || b[7] == '\n')
}

func (s *sgmlSource) next() (Raw, error) {
	if s.line == 0 {
		s.line = 1
	}
	// Find the next "<REUTERS".
	for !s.opened {
		if s.eof {
			return Raw{}, io.EOF
		}
		b, err := s.br.ReadSlice('<')
		s.line += bytes.Count(b, []byte{'\n'})
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			s.eof = true
			return Raw{}, io.EOF
		case err != nil:
			return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
		}
		head, _ := s.br.Peek(8)
		if isReutersOpen(head) {
			break
		}
	}
	s.opened = false
	start := s.line
	s.buf = append(s.buf[:0], '<')
	size := 1
	// Read to the matching "</REUTERS>", the next "<REUTERS" or the end.
	closed := false
	for {
		b, err := s.br.ReadSlice('<')
		s.line += bytes.Count(b, []byte{'\n'})
		size += len(b)
		if size <= s.limit {
			s.buf = append(s.buf, b...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			s.eof = true
			break
		}
		if err != nil {
			return Raw{}, fmt.Errorf("reading %s: %w after line %d", s.origin, err, s.line)
		}
		head, _ := s.br.Peek(9)
		if len(head) == 9 && bytes.EqualFold(head, []byte("/reuters>")) {
			s.br.Discard(9)
			closed = true
			size += 9
			if size <= s.limit {
				s.buf = append(s.buf, head...)
			}
			break
		}
		if isReutersOpen(head) { // an element not closed: it ends where the next begins
			size--
			if size <= s.limit {
				s.buf = s.buf[:len(s.buf)-1]
			}
			s.opened, closed = true, true
			break
		}
	}
	s.obuf = appendOrigin(s.obuf[:0], s.origin, start)
	raw := Raw{Origin: string(s.obuf), kind: rawSGML}
	if !closed { // the file ends inside the story: what there is of it is cut short
		raw.kind = rawMalformed
		raw.note = fmt.Sprintf("the file ends inside this story (no </REUTERS>, lines %d to %d): it is cut short, not read", start, s.line)
		return raw, nil
	}
	if size > s.limit {
		raw.kind, raw.size = rawTooLarge, int64(size)
		return raw, nil
	}
	raw.data = bytes.Clone(s.buf)
	return raw, nil
}

// decodeSGML makes a document of one <REUTERS> element.
func (r *Reader) decodeSGML(raw Raw) Record {
	s := string(raw.data)
	if !utf8.ValidString(s) {
		if d, err := charmap.Windows1252.NewDecoder().String(s); err == nil {
			s = d
		}
	}
	st := parseReuters(s)
	text := st.text
	if st.dateline != "" && strings.TrimSpace(text) != "" {
		text = st.dateline + " " + text
	}
	doc := core.Document{ID: r.idOf(raw.Origin), Origin: raw.Origin, Title: st.title, Text: text, Date: st.date}
	if st.id != "" {
		doc.ID = st.id
	}
	var unread string
	if st.date.IsZero() && st.dateText != "" {
		unread = r.unreadDate(st.dateText, raw.Origin, raw.seq) // counted and warned of, as any input's
	}
	if st.brief {
		rec := skip(doc, core.SkipEmpty, r.opts.TextField, "a brief: a headline without a body")
		rec.UnreadDate = unread
		return rec
	}
	rec := r.finish(doc)
	rec.UnreadDate = unread
	if rec.Skip == core.SkipNone {
		rec.Doc.Raw, rec.built = st.appendJSON(make([]byte, 0, len(s)+64), doc), true
	}
	return rec
}

// reutersStory is what one <REUTERS> element holds.
type reutersStory struct {
	id, title, dateline, text string
	date                      time.Time
	dateText                  string
	topics, places            []string
	brief                     bool
}

// parseReuters reads one <REUTERS ...> element. It never fails: what is
// missing stays empty.
func parseReuters(s string) reutersStory {
	lower := asciiLower(s)
	var st reutersStory
	tagEnd := strings.IndexByte(s, '>')
	if tagEnd < 0 {
		tagEnd = len(s)
	}
	st.id = sgmlAttr(s[:tagEnd], lower[:tagEnd], "newid")
	st.title = collapseSpace(sgmlText(sgmlElement(s, lower, "title")))
	st.dateline = collapseSpace(sgmlText(sgmlElement(s, lower, "dateline")))
	st.dateText = strings.TrimSpace(sgmlText(sgmlElement(s, lower, "date")))
	st.date = parseReutersDate(st.dateText)
	st.topics = sgmlList(sgmlElement(s, lower, "topics"))
	st.places = sgmlList(sgmlElement(s, lower, "places"))
	text, textTag := sgmlElementTag(s, lower, "text")
	textLower := asciiLower(text)
	tagLower := asciiLower(textTag)
	switch body := sgmlElement(text, textLower, "body"); {
	case body != "":
		st.text = body
	case strings.Contains(tagLower, "brief"):
		st.brief = true
	default: // unprocessed: the text of TEXT without its title and dateline
		for _, name := range []string{"title", "dateline", "author"} {
			text = removeElement(text, name)
		}
		st.text = text
	}
	st.text = trimSignoff(sgmlText(st.text))
	return st
}

// appendJSON writes the story as Doc.Raw.
func (st *reutersStory) appendJSON(b []byte, doc core.Document) []byte {
	str := func(key, val string) {
		b = append(b, key...)
		b = jsonenc.AppendString(b, val)
	}
	list := func(key string, vals []string) {
		b = append(b, key...)
		b = append(b, '[')
		for i, v := range vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonenc.AppendString(b, v)
		}
		b = append(b, ']')
	}
	str(`{"id":`, doc.ID)
	str(`,"title":`, doc.Title)
	str(`,"dateline":`, st.dateline)
	date := st.dateText
	if !doc.Date.IsZero() {
		date = core.FormatDate(doc.Date, time.RFC3339)
	}
	str(`,"date":`, date)
	str(`,"text":`, doc.Text)
	list(`,"topics":`, st.topics)
	list(`,"places":`, st.places)
	return append(b, '}')
}

// asciiLower lowers A-Z only, byte by byte, so that offsets into it are
// offsets into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// sgmlElement returns the content of the first <name ...>...</name> in s
// (lower is s lowered), to the end of s when it is not closed.
func sgmlElement(s, lower, name string) string {
	c, _ := sgmlElementTag(s, lower, name)
	return c
}

// sgmlElementTag is sgmlElement that returns the start tag too.
func sgmlElementTag(s, lower, name string) (content, tag string) {
	from := 0
	for {
		i := strings.Index(lower[from:], "<"+name)
		if i < 0 {
			return "", ""
		}
		i += from
		j := i + 1 + len(name)
		if j < len(s) && (s[j] == '>' || s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n') {
			end := strings.IndexByte(s[j:], '>')
			if end < 0 {
				return "", s[i:]
			}
			tag = s[i : j+end+1]
			rest, restLower := s[j+end+1:], lower[j+end+1:]
			if k := strings.Index(restLower, "</"+name+">"); k >= 0 {
				return rest[:k], tag
			}
			return rest, tag
		}
		from = j
	}
}

// removeElement cuts every <name>...</name> out of s.
func removeElement(s, name string) string {
	for {
		lower := asciiLower(s)
		i := strings.Index(lower, "<"+name)
		if i < 0 {
			return s
		}
		k := strings.Index(lower[i:], "</"+name+">")
		if k < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+k+len(name)+3:]
	}
}

// sgmlAttr returns the value of name="value" (name lowered) in a start tag.
func sgmlAttr(tag, lower, name string) string {
	from := 0
	for {
		i := strings.Index(lower[from:], name)
		if i < 0 {
			return ""
		}
		i += from
		j := i + len(name)
		if i > 0 && (lower[i-1] == ' ' || lower[i-1] == '\t' || lower[i-1] == '\n' || lower[i-1] == '\r') &&
			strings.HasPrefix(tag[j:], `="`) {
			v := tag[j+2:]
			if k := strings.IndexByte(v, '"'); k >= 0 {
				return strings.TrimSpace(sgmlText(v[:k]))
			}
			return ""
		}
		from = j
	}
}

// sgmlList returns the <D> items of a list element.
func sgmlList(s string) []string {
	var out []string
	lower := asciiLower(s)
	for {
		i := strings.Index(lower, "<d>")
		if i < 0 {
			return out
		}
		s, lower = s[i+3:], lower[i+3:]
		end := strings.Index(lower, "</d>")
		if end < 0 {
			end = len(s)
		}
		if v := strings.TrimSpace(sgmlText(s[:end])); v != "" {
			out = append(out, v)
		}
		s, lower = s[end:], lower[end:]
	}
}

// sgmlText decodes entities, drops tags left inside and control characters
// other than newline and tab, and trims.
func sgmlText(s string) string {
	if strings.IndexByte(s, '<') >= 0 {
		var b strings.Builder
		for {
			i := strings.IndexByte(s, '<')
			if i < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:i])
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				break
			}
			s = s[i+j+1:]
		}
		s = b.String()
	}
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	s = strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// trimSignoff removes the "Reuter" that closes a story.
func trimSignoff(s string) string {
	for {
		t := strings.TrimRight(s, " \t\r\n-")
		low := asciiLower(t)
		switch {
		case strings.HasSuffix(low, "reuters"):
			t = t[:len(t)-len("reuters")]
		case strings.HasSuffix(low, "reuter"):
			t = t[:len(t)-len("reuter")]
		default:
			return t
		}
		if t != "" && !strings.ContainsRune(" \t\r\n", rune(t[len(t)-1])) {
			return strings.TrimRight(s, " \t\r\n-") // part of a word: "PReuter" is text
		}
		s = t
	}
}

// collapseSpace joins the words of s with single spaces.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// parseReutersDate reads "26-FEB-1987 15:01:01.79", a time of no zone
// named (in core.NoZone); the zero Time when it cannot.
func parseReutersDate(s string) time.Time {
	f := strings.Fields(s)
	if len(f) == 0 {
		return time.Time{}
	}
	if len(f) >= 2 {
		clock := f[1]
		if i := strings.IndexByte(clock, '.'); i >= 0 {
			clock = clock[:i]
		}
		if t, err := time.ParseInLocation("2-Jan-2006 15:04:05", f[0]+" "+clock, core.NoZone); err == nil {
			return t
		}
	}
	if t, err := time.ParseInLocation("2-Jan-2006", f[0], core.NoZone); err == nil {
		return t
	}
	return time.Time{}
}
