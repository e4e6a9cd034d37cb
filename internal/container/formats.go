// Package container owns finding the byte streams inside inputs: the files
// of directories, the members of zip and tar archives and what gzip
// compresses, in any nesting, and the one table of formats that says what
// a name or a stream's first bytes hold. Every command that reads documents
// or pages walks its inputs through it (package corpus for documents,
// package extract/source for web pages).
//
// A Walker yields the leaf streams of one input, in order. It refuses, with
// a Member whose Skip says why, what it will not read: a member whose name
// leaves its archive ("../x", "/etc/x"), containers nested more than
// MaxDepth deep, and a compressed stream that inflates past Options'
// bounds (a decompression bomb). Members of archives are named by the
// archive's origin and their path in it ("in/news.tar.gz/a/b.txt"), so two
// archives cannot give two documents one name.
package container

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
)

// Format is what a stream holds.
type Format uint8

// The formats. The record formats are read by package corpus; the
// containers (Gzip, Zstd, Bzip2, Zip, Tar) by the Walker.
const (
	Unknown  Format = iota
	JSONL           // JSON Lines, one object a line
	JSON            // JSON objects, or arrays of them, in any layout
	CSV             // comma-separated values with a header row
	TSV             // tab-separated values with a header row
	Text            // a plain text file: one document
	Markdown        // a Markdown file: one document
	HTML            // a web page: one document, its article
	WARC            // a WARC file: one web page a response or resource record
	SGML            // Reuters-21578 SGML: one document a <REUTERS> element
	Feed            // a web feed (RSS, Atom, RDF): one document an item
	Binary          // a stream with NUL bytes in its start
	Gzip            // gzip, around one stream
	Zstd            // Zstandard, around one stream
	Bzip2           // bzip2, around one stream
	XZ              // xz: recognised to be refused, not read (see Refusal)
	Zip             // a zip archive
	Tar             // a tar archive
	Parquet         // Apache Parquet: one document a row (read with random access)
	SevenZip        // a 7z archive: recognised to be refused
	RAR             // a RAR archive: recognised to be refused
	PDF             // a PDF document: recognised by content, to be refused
)

// formatInfo is one row of the table of formats.
type formatInfo struct {
	name string   // as Options.Format and messages name it
	exts []string // file name extensions, lower case
}

// table is the one place that says which names mean which format.
var table = [...]formatInfo{
	Unknown:  {"unknown", nil},
	JSONL:    {"jsonl", []string{".jsonl", ".ndjson"}},
	JSON:     {"json", []string{".json"}},
	CSV:      {"csv", []string{".csv"}},
	TSV:      {"tsv", []string{".tsv"}},
	Text:     {"txt", []string{".txt"}},
	Markdown: {"md", []string{".md", ".markdown"}},
	HTML:     {"html", []string{".html", ".htm"}},
	WARC:     {"warc", []string{".warc"}},
	SGML:     {"sgml", []string{".sgm", ".sgml"}},
	Feed:     {"feed", []string{".rss", ".atom"}}, // and .xml files named by their own path, by content
	Binary:   {"binary", nil},
	Gzip:     {"gzip", []string{".gz", ".tgz"}},
	Zstd:     {"zstd", []string{".zst", ".zstd", ".tzst"}},
	Bzip2:    {"bzip2", []string{".bz2", ".tbz2", ".tbz"}},
	XZ:       {"xz", []string{".xz", ".txz"}},
	Zip:      {"zip", []string{".zip"}},
	Tar:      {"tar", []string{".tar"}},
	Parquet:  {"parquet", []string{".parquet"}},
	SevenZip: {"7z", []string{".7z"}},
	RAR:      {"rar", []string{".rar"}},
	PDF:      {"pdf", nil}, // by content: a directory's PDFs are files not read, not refusals each
}

// String returns the format's name: "jsonl", "csv", "gzip" ...
func (f Format) String() string {
	if int(f) < len(table) {
		return table[f].name
	}
	return "unknown"
}

// IsContainer reports whether the Walker opens streams of this format.
func (f Format) IsContainer() bool {
	return f == Gzip || f == Zstd || f == Bzip2 || f == Zip || f == Tar
}

// ByName returns the format a file name's extension says, or Unknown.
func ByName(name string) Format {
	ext := strings.ToLower(path.Ext(name))
	if ext == "" {
		return Unknown
	}
	for f, info := range table {
		for _, e := range info.exts {
			if e == ext {
				return Format(f)
			}
		}
	}
	return Unknown
}

// recordFormats are the formats a reader may be told to read a stream as.
var recordFormats = []Format{JSONL, JSON, CSV, TSV, Parquet, Text, HTML, WARC, SGML, Feed}

// RecordFormatNames returns the names Parse takes, in order.
func RecordFormatNames() []string {
	names := make([]string, len(recordFormats))
	for i, f := range recordFormats {
		names[i] = f.String()
	}
	return names
}

// RecordFormats names the formats Parse takes, for messages: "jsonl, json,
// ... or feed".
func RecordFormats() string {
	names := RecordFormatNames()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Parse returns the record format named s ("jsonl", "json", "csv", "tsv",
// "parquet", "txt", "html", "warc", "sgml", "feed"); ok is false for any other name.
func Parse(s string) (f Format, ok bool) {
	for _, f := range recordFormats {
		if table[f].name == s {
			return f, true
		}
	}
	return Unknown, false
}

// Listed reports whether a file met in a directory or archive is read: its
// extension is in the table of formats.
func Listed(name string) bool { return ByName(name) != Unknown }

// Extensions lists the extensions of the formats read, for messages.
func Extensions() []string {
	var exts []string
	for f, info := range table {
		if Refusal(Format(f)) == "" {
			exts = append(exts, info.exts...)
		}
	}
	return exts
}

// Inner returns the name of what a gzip, Zstandard or bzip2 stream named
// name holds: the name without ".gz" (".zst", ".zstd", ".bz2"), and "x.tar"
// for "x.tgz" ("x.tzst", "x.tbz2", "x.tbz").
func Inner(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".gz":
		return name[:len(name)-len(".gz")]
	case ".tgz":
		return name[:len(name)-len(".tgz")] + ".tar"
	case ".zst", ".zstd", ".bz2":
		return name[:len(name)-len(path.Ext(name))]
	case ".tzst", ".tbz2", ".tbz":
		return name[:len(name)-len(path.Ext(name))] + ".tar"
	}
	return name
}

// Magic tells a container, a WARC file or Reuters SGML by a stream's first
// bytes (at least 512 of them for tar), or returns Unknown.
func Magic(head []byte) Format {
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		return Gzip
	case bytes.HasPrefix(head, zstdMagic):
		return Zstd
	case bytes.HasPrefix(head, []byte("\xfd7zXZ\x00")):
		return XZ
	case bytes.HasPrefix(head, []byte("7z\xbc\xaf\x27\x1c")):
		return SevenZip
	case bytes.HasPrefix(head, []byte("Rar!\x1a\x07")):
		return RAR
	case bytes.HasPrefix(head, []byte("PAR1")) && bytes.IndexByte(head, 0) >= 0:
		return Parquet // binary after its magic: not a text that starts "PAR1"
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return PDF
	case isBzip2(head):
		return Bzip2
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return Zip
	case len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
		return Tar
	case IsWARC(head):
		return WARC
	case IsSGML(head):
		return SGML
	case IsFeed(head):
		return Feed
	}
	return Unknown
}

// Refusal says why the Walker refuses a stream of format f, and what to
// do instead ("xz-compressed, which is not read: decompress it ..."), or
// is "" for a format it reads. xz, since the decoder at hand
// sizes its dictionary by what the stream declares, which no bound on
// inflating would hold; formats users keep corpora or documents in that
// neardup does not read (7z, RAR, PDF), so that they are told
// how to convert them rather than that they are binary.
func Refusal(f Format) string {
	switch f {
	case XZ:
		return "xz-compressed, which is not read: decompress it (xz -d), or recompress it with zstd or gzip"
	case SevenZip:
		return "a 7z archive, which is not read: unpack it (7z x), or repack it as zip or tar"
	case RAR:
		return "a RAR archive, which is not read: unpack it (unrar x), or repack it as zip or tar"
	case PDF:
		return "a PDF document, which is not read: extract its text first (e.g. pdftotext in.pdf out.txt)"
	}
	return ""
}

// zstdMagic starts a Zstandard frame.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// IsFeed reports whether a stream starts, after an XML declaration,
// comments and blanks, with the root element of a web feed: <rss>, an Atom
// <feed> or an RDF (RSS 1.0) <rdf:RDF>.
func IsFeed(head []byte) bool { return hasRoot(head, "rss", "feed", "rdf:RDF") }

// IsSitemap reports whether a stream starts, after an XML declaration,
// comments and blanks, with the root element of a sitemap (sitemaps.org):
// <urlset> or <sitemapindex>. A sitemap lists a site's page addresses; it
// holds no document.
func IsSitemap(head []byte) bool { return hasRoot(head, "urlset", "sitemapindex") }

// hasRoot reports whether an XML stream's first element, after an XML
// declaration, processing instructions, comments, a document type
// declaration and blanks, is one of names.
func hasRoot(head []byte, names ...string) bool {
	t := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for {
		t = bytes.TrimLeft(t, " \t\r\n")
		var end []byte
		switch {
		case bytes.HasPrefix(t, []byte("<?")):
			end = []byte("?>")
		case bytes.HasPrefix(t, []byte("<!--")):
			end = []byte("-->")
		case bytes.HasPrefix(t, []byte("<!DOCTYPE")):
			end = []byte(">")
		default:
			for _, name := range names {
				root := "<" + name
				if bytes.HasPrefix(t, []byte(root)) && len(t) > len(root) && strings.IndexByte("> \t\r\n", t[len(root)]) >= 0 {
					return true
				}
			}
			return false
		}
		i := bytes.Index(t, end)
		if i < 0 {
			return false
		}
		t = t[i+len(end):]
	}
}

// IsJSONFeed reports whether a stream starts as a JSON Feed does: one
// object whose own "version" key (within head, not a key of an object
// nested in it) is a jsonfeed.org version URL. A head whose object ends
// before another value (JSON Lines) is no feed.
func IsJSONFeed(head []byte) bool {
	t := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(t))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	found := false
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return found // head ends inside the object
		}
		if key == "version" && !found {
			v, err := dec.Token()
			s, ok := v.(string)
			if err != nil || !ok || !IsJSONFeedVersion(s) {
				return false
			}
			found = true
			continue
		}
		if skipJSONValue(dec) != nil {
			return found
		}
	}
	if _, err := dec.Token(); err != nil {
		return found
	}
	// The object ends within head: a feed holds no value after it.
	return found && len(bytes.TrimLeft(t[dec.InputOffset():], " \t\r\n")) == 0
}

// skipJSONValue reads the next value of dec, whole, and drops it.
func skipJSONValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// IsWARC reports whether a stream starts with a WARC version line
// ("WARC/1.0").
func IsWARC(head []byte) bool {
	return bytes.HasPrefix(head, []byte("WARC/")) && len(head) > 5 && head[5] >= '0' && head[5] <= '9'
}

// IsSGML reports whether a stream starts, after blanks, like a
// Reuters-21578 file: "<!DOCTYPE lewis" or a "<REUTERS" tag, in any case.
func IsSGML(head []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	return hasPrefixFold(t, "<!DOCTYPE lewis") || (hasPrefixFold(t, "<REUTERS") && len(t) > 8 &&
		(t[8] == ' ' || t[8] == '>' || t[8] == '\t' || t[8] == '\r' || t[8] == '\n'))
}

func hasPrefixFold(b []byte, p string) bool {
	return len(b) >= len(p) && bytes.EqualFold(b[:len(p)], []byte(p))
}

// SafeName reports whether an archive member's name stays inside the
// archive: not absolute, no drive letter, no ".." element (with either
// slash).
func SafeName(name string) bool {
	n := strings.ReplaceAll(name, `\`, "/")
	if n == "" || strings.HasPrefix(n, "/") || (len(n) >= 2 && n[1] == ':') {
		return false
	}
	for part := range strings.SplitSeq(n, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

// hidden reports whether a member is not read as content: a name with a
// part starting with "." or macOS metadata.
func hidden(name string) bool {
	if strings.HasPrefix(name, "__MACOSX/") {
		return true
	}
	for part := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// IsJSONFeedVersion reports whether v, a JSON object's "version", names a
// version of JSON Feed: the URL of its specification, at jsonfeed.org or
// www.jsonfeed.org (as generators copy it from the specification's page),
// over http or https, in any case ("https://www.jsonfeed.org/version/1.1/").
func IsJSONFeedVersion(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	for _, p := range []string{"https://", "http://"} {
		if rest, ok := strings.CutPrefix(v, p); ok {
			rest = strings.TrimPrefix(rest, "www.")
			return strings.HasPrefix(rest, "jsonfeed.org/version/")
		}
	}
	return false
}
