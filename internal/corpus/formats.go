package corpus

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"

	"github.com/neardup/neardup/internal/container"
)

// openInput starts the walk of one input: its containers are opened by
// package container, its leaf streams read here (sourceOf).
func (r *Reader) openInput(in *input) (*container.Walker, error) {
	top := container.Top{Origin: in.origin, ID: in.id, Name: in.origin, Size: in.size}
	if in.pipe {
		if err := r.openPipe(in); err != nil {
			return nil, err
		}
	}
	switch {
	case in.stream != nil && r.opts.SinglePass:
		top.R = &countReader{r: in.stream, n: &r.reading}
		top.Ready = in.ready // read once: a record is handed on as it arrives
	case in.stream != nil:
		if err := r.startTee(in); err != nil {
			return nil, err
		}
		top.At = func() (io.ReaderAt, int64, error) { return r.reopen(in) }
		top.R = &countReader{r: io.TeeReader(in.stream, in.sink), n: &r.reading}
	case in.tee != nil: // a stream copied whole, read through its open copy
		top.At = func() (io.ReaderAt, int64, error) {
			return &countReaderAt{r: in.tee, n: &r.reading}, in.size, nil
		}
		top.R = &countReader{r: io.NewSectionReader(in.tee, 0, in.size), n: &r.reading}
	default:
		f, err := os.Open(in.path)
		if err != nil {
			return nil, r.reopenError(in, err)
		}
		in.file = f
		top.At = func() (io.ReaderAt, int64, error) {
			if err := r.sameSize(in, f); err != nil {
				return nil, 0, err
			}
			return &countReaderAt{r: f, n: &r.reading}, in.size, nil
		}
		top.R = &countReader{r: f, n: &r.reading}
	}
	return container.New(top, container.Options{MaxInflate: r.opts.MaxInflate, MaxRatio: r.opts.MaxRatio,
		BufSize: r.cfg.bufSize, Unlisted: r.noteUnlisted, StrayBytes: r.noteStray,
		DamagedMembers: r.noteDamagedMember, Stop: r.stop, Reread: r.noteReread}), nil
}

// reopenError is err, the error of opening the file of input in: on the
// second pass, of a file given, which the first pass read, it says that
// the input changed (the file removed, or made unreadable, since).
func (r *Reader) reopenError(in *input, err error) error {
	if !r.rewound || !in.given {
		return err
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		err = pe.Err // its path is the input's
	}
	return fmt.Errorf("the input changed while it was read: %s cannot be opened again: %w", in.origin, err)
}

// sameSize fails when f, the open file of input in, is no longer the size
// it was when the Reader was made: random access (a Parquet file's footer,
// a zip archive's directory) starts from the end that size gives, and a
// file rewritten or appended to since would be read there as damaged (a
// Parquet file with no footer) in place of changed.
func (r *Reader) sameSize(in *input, f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("reading %s: %w", in.origin, err)
	}
	if in.size < 0 || info.Size() == in.size {
		return nil
	}
	when := "when the run began"
	if r.rewound {
		when = "at the first reading"
	}
	return fmt.Errorf("the input changed while it was read: %s is %d bytes, %d %s", in.origin, info.Size(), in.size, when)
}

// openMember returns the records' source of one leaf stream.
func (r *Reader) openMember(m container.Member) (source, error) {
	k := m.Format
	if r.opts.FormatOnly && k != container.Unknown && r.forced(k) != k {
		r.noteUnlisted(m.Origin) // another format, which this reader does not read
		return &binarySource{done: true}, nil
	}
	if k = r.forced(k); k == container.Unknown {
		var err error
		if k, err = r.sniff(m.Origin, m.R, m.Ready); err != nil {
			return nil, err
		}
	}
	if (k == container.JSON || k == container.JSONL) && m.Format != container.JSONL && r.opts.Format == "" {
		// A stream named JSON Lines is no feed: it holds a value a line.
		if head, _ := container.PeekArrived(m.R, min(jsonFeedHead, m.R.Size()), m.Ready); container.IsJSONFeed(head) {
			k = container.Feed // a JSON Feed, by its version
		}
	}
	if k == container.HTML && r.opts.Format == "" && r.in != nil && r.in.given && m.Origin == r.in.origin {
		// A feed named on the command line is read item by item whatever
		// its name ("feed.html", as some sites serve their feeds); one met
		// in a directory or archive is a page, skipped as a feed.
		if head, _ := m.R.Peek(min(sniffLen, m.R.Size())); container.IsFeed(bytes.TrimPrefix(head, utf8BOM)) {
			k = container.Feed
		}
	}
	if head, _ := m.R.Peek(3); bytes.Equal(head, utf8BOM) && k != container.HTML && k != container.WARC {
		m.R.Discard(3) // a page keeps its mark: it declares the charset
	}
	return r.sourceOf(k, m), nil
}

// forced applies Options.Format to a stream of format k.
func (r *Reader) forced(k container.Format) container.Format {
	f, ok := container.Parse(r.opts.Format)
	switch {
	case !ok:
		return k
	case f == container.Text && k == container.Markdown:
		return k
	}
	return f
}

// sourceOf returns the source of a stream whose format is known.
func (r *Reader) sourceOf(k container.Format, m container.Member) source {
	limit := r.opts.MaxBytes + r.cfg.slack // no record over it is held in memory
	br := m.R
	var text io.Reader = br // in UTF-8
	var detected func()     // counts the file as read in the charset detected
	if k == container.CSV || k == container.TSV || k == container.Text || k == container.Markdown {
		var charset string
		text, charset = r.utf8Reader(br)
		if r.enc == nil && charset != "" && !strings.HasPrefix(charset, "utf-16") && !r.rewound {
			detected = func() {
				if r.detected.n == 0 {
					r.detected.first = m.Origin + ", " + charset
				}
				r.detected.n++
			}
		}
	}
	if detected != nil && (k == container.CSV || k == container.TSV) {
		detected() // a text file is counted once read, when it is not binary
	}
	if k == container.JSON || k == container.JSONL {
		br = jsonUTF8(br) // UTF-16 by its byte-order mark
	}
	switch k {
	case container.JSONL:
		return newCheckedSource(r, m, &lineSource{br: br, origin: m.Origin, limit: limit, share: &r.shareLines, into: &r.lineBuf})
	case container.JSON:
		return newCheckedSource(r, m, newJSONSource(br, m.Origin, limit))
	case container.CSV:
		return newCSVSource(r, text, m.Origin, r.csvComma(br), limit)
	case container.TSV:
		src := newCSVSource(r, text, m.Origin, '\t', limit)
		src.rows.plain = true // text/tab-separated-values: only well-formed quoted fields
		return src
	case container.Binary:
		why := "a NUL byte in the first 8 KiB"
		if head, _ := br.Peek(min(sniffLen, br.Size())); utf16NotText(head) {
			why = "a UTF-16 byte-order mark before characters no text holds, in the first 8 KiB"
		}
		return &binarySource{origin: m.Origin, id: m.ID, why: why}
	case container.HTML:
		return &pageSource{r: r, rd: br, origin: m.Origin, size: m.Size}
	case container.WARC:
		return &warcSource{r: r, rd: br, origin: m.Origin}
	case container.SGML:
		return &sgmlSource{br: br, origin: m.Origin, limit: limit}
	case container.Feed:
		return &feedSource{rd: br, origin: m.Origin, limit: limit}
	case container.Parquet:
		return r.newParquetSource(m, limit)
	case container.Unknown: // an empty stream of unknown kind holds no records
		return &binarySource{done: true}
	}
	return &textSource{rd: text, origin: m.Origin, id: m.ID, md: k == container.Markdown,
		limit: r.opts.MaxBytes + r.cfg.slack, size: m.Size, detected: detected}
}

// jsonFeedHead is how much of a JSON stream is looked at for a JSON Feed's
// version.
const jsonFeedHead = 2 << 10

// SniffLen is how much of a stream of unknown kind Sniff looks at.
const SniffLen = sniffLen

// sniffLen is how much of a stream of unknown kind is looked at.
const sniffLen = 8 << 10

// sniff tells a stream's format from its first bytes (Sniff).
func (r *Reader) sniff(origin string, br *bufio.Reader, ready func() bool) (container.Format, error) {
	head, err := container.PeekArrived(br, min(sniffLen, br.Size()), ready)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return 0, fmt.Errorf("reading %s: %w after 0 bytes", origin, err)
	}
	return Sniff(head, err == io.EOF, r.names[fText]), nil
}

// Sniff tells the format of a stream whose name says none from its first
// bytes, head (SniffLen of them, or the whole stream when whole), as a
// Reader reads it, textField being the name of the text column (empty:
// "text"). After a UTF-8 byte-order mark: a container, Parquet, PDF, WARC,
// Reuters SGML or a feed by its magic (container.Magic); NUL bytes mean
// binary; '[', or a '{' whose value goes on past its first line
// (spansLines), JSON; another '{' JSONL; an HTML page (isPage) HTML; a
// first line with the text column CSV or TSV; else text. An empty stream
// is Unknown: it holds no records. A stream that starts with a UTF-16
// byte-order mark is told by its text (sniffUTF16), not taken for binary
// for the NUL bytes of its ASCII letters.
func Sniff(head []byte, whole bool, textField string) container.Format {
	if textField == "" {
		textField = defaultNames[fText]
	}
	head = bytes.TrimPrefix(head, utf8BOM)
	if e, _ := byteOrderMark(head); e != nil {
		return sniffUTF16(e, head, whole, textField)
	}
	if f := container.Magic(head); f != container.Unknown {
		return f
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return container.Binary
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(t) == 0:
		return container.Unknown
	case t[0] == '[' || t[0] == '{' && spansLines(t):
		return container.JSON // an array, or an object pretty-printed
	case t[0] == '{':
		return container.JSONL
	case isPage(t), container.IsSitemap(t):
		return container.HTML // a sitemap too: extraction skips it, saying so
	}
	if line, ok := firstLine(head); ok || whole {
		for _, named := range []func(byte) bool{
			func(sep byte) bool { return hasColumn(line, sep, textField) },
			func(sep byte) bool { return hasTextAlias(head, line, sep, whole) },
		} {
			if named('\t') {
				return container.TSV
			}
			for _, sep := range csvSeparators {
				if sep != '\t' && named(sep) {
					return container.CSV
				}
			}
		}
	}
	return container.Text
}

// hasTextAlias reports whether a header line split at sep into two
// columns or more names one as news corpora name their text ("body",
// "content": fieldAliases), and the line after it in head, when there is
// one, is a row of as many fields, each column a name of two words at
// most and another the name of a field ("id", "title", "headline", …): a
// CSV file whose text column is not the one the reader looks for
// is read as CSV, and refused naming its columns and the flag that reads
// it, rather than read whole as one text; a text whose title has commas
// ("Content, context and meaning") is a text.
func hasTextAlias(head, line []byte, sep byte, whole bool) bool {
	fields := bytes.Split(trimEOL(line), []byte{sep})
	text, known := false, 0
	for _, f := range fields {
		name := letters(string(bytes.Trim(bytes.TrimSpace(f), `"`)))
		switch {
		case len(bytes.Fields(f)) > 2:
			return false
		case slices.Contains(fieldAliases[fText], name):
			text = true
		case slices.Contains(defaultNames[:], name) || slices.ContainsFunc(fieldAliases[:], func(a []string) bool { return slices.Contains(a, name) }):
			known++
		}
	}
	if !text || known == 0 {
		return false
	}
	cr := csv.NewReader(bytes.NewReader(head))
	cr.Comma, cr.LazyQuotes, cr.FieldsPerRecord = rune(sep), true, len(fields)
	if _, err := cr.Read(); err != nil {
		return false
	}
	_, err := cr.Read()
	// A row cut where head ends (a long text) is a row; a header alone, the
	// whole stream, a file of no rows.
	return err == nil || err == io.EOF || !whole && cr.InputOffset() >= int64(len(head))
}

// sniffUTF16 tells the format of a stream in UTF-16, e, whose first
// bytes are head, its byte-order mark first, by its text decoded: JSON,
// JSON Lines, CSV, TSV or an HTML page, each read as UTF-16 by its mark
// (jsonUTF8, utf8Reader, the page's decoding), binary for a NUL
// character or for characters no text holds (notText: binary data after
// bytes that look like a mark), Unknown when it holds nothing after its
// mark, and text for anything else: the other formats' readers (feeds,
// Reuters SGML, WARC) read UTF-8 bytes alone.
func sniffUTF16(e encoding.Encoding, head []byte, whole bool, textField string) container.Format {
	text, err := e.NewDecoder().Bytes(head[:len(head)&^1]) // a last odd byte is half a character
	if err != nil {
		return container.Text
	}
	if notText(string(text)) {
		return container.Binary
	}
	switch f := Sniff(text, whole, textField); f {
	case container.JSON, container.JSONL, container.CSV, container.TSV, container.HTML, container.Binary, container.Unknown:
		return f
	}
	return container.Text
}

// notText reports whether text, decoded, holds more than one character
// in 16 that text hardly ever holds: U+FFFD (a lone surrogate, a byte
// that is no character of its charset, or a character cut by the end of
// a head), a private-use character, or a C0 control other than those
// text files hold: tab, line feed, form feed and carriage return, and the
// escape of terminal colours (a saved log), the backspace of overstruck
// letters (a saved manual page) and the vertical tab of a soft line break
// (a word processor's). Random bytes decode to these about one in nine:
// from UTF-16, a code unit in eight (a private use one in ten, a
// surrogate that pairs with none one in thirty); in a single-byte charset,
// a byte in eleven (its other C0 controls). A text in any script and
// charset, emoji and their surrogate pairs included, decodes to none, or
// to a few (a byte of another charset).
func notText(text string) bool {
	n, odd := 0, 0
	for _, c := range text {
		n++
		switch {
		case c == utf8.RuneError, 0xe000 <= c && c <= 0xf8ff, c >= 0xf0000,
			c < 0x20 && !textControl(c):
			odd++
		}
	}
	return odd*16 > n
}

// textControl reports the C0 controls text files hold (see notText).
func textControl(c rune) bool {
	switch c {
	case '\t', '\n', '\f', '\r', 0x1b, '\b', '\v':
		return true
	}
	return false
}

// utf16NotText reports whether head starts with a UTF-16 byte-order mark
// and what follows decodes to no text (notText): binary data told so by
// its characters, not by a NUL byte.
func utf16NotText(head []byte) bool {
	e, _ := byteOrderMark(head)
	if e == nil {
		return false
	}
	text, err := e.NewDecoder().Bytes(head[:len(head)&^1])
	return err == nil && bytes.IndexByte(text, 0) < 0 && notText(string(text))
}

// spansLines reports whether the JSON value that head starts with goes on
// past its first line: it does not end there, and the lines after carry
// it on (it decodes whole, or head ends inside it) rather than breaking
// it (a JSON Lines file whose first line is malformed, which is read line
// by line, each bad line skipped). A first line longer than head is taken
// for a line of JSON Lines.
func spansLines(head []byte) bool {
	line, _, ok := bytes.Cut(head, []byte("\n"))
	if !ok || json.Valid(line) {
		return false
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(head)).Decode(&v)
	return err == nil || err == io.ErrUnexpectedEOF
}

// csvSeparators are the separators a CSV file may use, in order of
// preference: the comma, the semicolon of spreadsheets in locales whose
// decimal mark is a comma, the tab, the bar.
var csvSeparators = []byte{',', ';', '\t', '|'}

// csvComma returns the separator of a CSV file by its header line (peeked
// from br): the first of csvSeparators whose fields name the text column,
// else the one that cuts the line into the most fields, else the comma.
func (r *Reader) csvComma(br *bufio.Reader) rune {
	head, _ := br.Peek(min(sniffLen, br.Size()))
	if e, _ := byteOrderMark(head); e != nil { // its header as text, not its NUL bytes
		head, _ = e.NewDecoder().Bytes(head[:len(head)&^1])
	}
	line, _ := firstLine(bytes.TrimPrefix(head, utf8BOM))
	best, most := byte(','), 0
	for _, sep := range csvSeparators {
		if hasColumn(line, sep, r.names[fText]) {
			return rune(sep)
		}
		if n := bytes.Count(line, []byte{sep}); n > most {
			best, most = sep, n
		}
	}
	return rune(best)
}

// hasColumn reports whether a header line split at sep names col.
func hasColumn(line []byte, sep byte, col string) bool {
	for f := range bytes.SplitSeq(trimEOL(line), []byte{sep}) {
		f = bytes.Trim(bytes.TrimSpace(f), `"`)
		if bytes.EqualFold(bytes.TrimSpace(f), []byte(col)) {
			return true
		}
	}
	return false
}
