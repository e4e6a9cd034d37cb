package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/neardup/neardup/internal/container"
)

// A field name that matches nothing is found in the first records of each
// JSON Lines input, and in the header of each CSV or TSV file, before any
// of its records is handed on: the text field must be there, and so must
// every other field whose name differs from the default (a name the user
// chose). The error names the fields seen, so that a typo in --text-col
// fails at once, naming what was meant, instead of skipping every record.

// defaultNames are the field names Options fills in when they are empty.
var defaultNames = [nFields]string{"id", "title", "text", "url", "source", "date"}

// fieldRoles say what each field is for, in messages.
var fieldRoles = [nFields]string{"id", "title", "text", "URL", "source", "date"}

// checkRecords and checkBytes bound the records looked at, and held, to
// check the field names of a JSON Lines input.
const (
	checkRecords = 100
	checkBytes   = 8 << 20
)

// required lists the fields that must match: the text, and every field
// given a name of its own.
func (r *Reader) required() []field {
	var fs []field
	for f := range nFields {
		if f == fText || r.names[f] != defaultNames[f] {
			fs = append(fs, f)
		}
	}
	return fs
}

// seenFields collects the field names of the inputs' first records.
type seenFields struct {
	mu    sync.Mutex
	names map[string]bool
	// unread holds, for each field, the first input found without it
	// that holds a field likely meant for it (see noteUnread).
	unread [nFields]*UnreadField
	// ignored holds, for a URL and a source, the first Parquet column
	// under its default name of a type that holds none (IgnoredColumn).
	ignored [nFields]*IgnoredColumn
}

func (s *seenFields) add(names map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.names == nil {
		s.names = map[string]bool{}
	}
	for n := range names {
		s.names[n] = true
	}
}

// FieldsSeen returns the field names (JSON keys, CSV columns) seen in the
// first records of the inputs read so far, sorted.
func (r *Reader) FieldsSeen() []string {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	var out []string
	for n := range r.seen.names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// An UnreadField is a field an input lacks under the name the reader looks
// for (the default: no flag named it), while it holds a field news corpora
// commonly give that part of a document: the titles of a CSV file whose
// column is "headline" are not read until --title-col names it.
type UnreadField struct {
	Field  string // what the field holds: "id", "title", "URL", "source" or "date"
	Name   string // the name looked for
	Alias  string // the input's field that likely holds it
	Origin string // the first input found without it
}

// noteUnread notes, for each field but the text looked for under its
// default name, which no name in seen matches, a name in seen likely meant
// for it: a JSON key that is the name but for the spaces around it (a
// header's columns match so), else one of fieldAliases. The text is
// required: missing says when it lacks. usable, when not nil, says which
// names may be given for a field (a Parquet column of a type it reads).
func (r *Reader) noteUnread(origin string, seen map[string]bool, columns bool, usable func(field) map[string]bool) {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	for f := range nFields {
		if f == fText || r.names[f] != defaultNames[f] || r.seen.unread[f] != nil || matches(seen, r.names[f], columns) {
			continue
		}
		names := seen
		if usable != nil {
			names = usable(f)
		}
		alias := spacedIn(names, r.names[f])
		if alias == "" {
			alias = aliasIn(f, names)
		}
		if alias != "" {
			r.seen.unread[f] = &UnreadField{Field: fieldRoles[f], Name: r.names[f], Alias: alias, Origin: origin}
		}
	}
}

// UnreadFields returns the fields noted as unread (see UnreadField), in
// the order of Options' fields.
func (r *Reader) UnreadFields() []UnreadField {
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	var out []UnreadField
	for _, u := range r.seen.unread {
		if u != nil {
			out = append(out, *u)
		}
	}
	return out
}

// FieldFlags are the command-line flags that name each field of the
// inputs, by what the field holds (FieldError.Field, UnreadField.Field).
var FieldFlags = map[string]string{"id": "--id-col", "title": "--title-col", "text": "--text-col",
	"URL": "--url-col", "source": "--source-col", "date": "--date-col"}

// FlagHint says which flag reads the field that holds field (what it
// holds: "title") from the input's field name: `--title-col headline reads
// the title from "headline"`, the name quoted for a shell when it is not a
// plain word.
func FlagHint(field, name string) string {
	return fmt.Sprintf("%s %s reads the %s from %q", FieldFlags[field], shellWord(name), field, name)
}

// shellWord quotes s for a shell when it is not a plain word.
func shellWord(s string) string {
	for _, c := range s {
		if !(c == '_' || c == '-' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// matches reports whether a name in seen is name, exactly or ignoring case,
// and, for a header's columns (CSV, Parquet), the spaces around it: a JSON
// key is matched as the records are read, spaces and all.
func matches(seen map[string]bool, name string, columns bool) bool {
	for n := range seen {
		if columns {
			n = strings.TrimSpace(n)
		}
		if n == name || strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// A field's name matches a key or a column that is it exactly, else the
// one that is it but for case (and, for a header's columns, the spaces
// around it). Two or more of the second kind, and none of the first, are
// no match: which one holds the field the reader cannot tell, and taking
// one silently read a short decoy "TEXT" beside the text "Text", the first
// column of a header but the last key of a JSON object. It is an error of
// the file for a header (CSV, Parquet: matchColumn), and a malformed record
// for JSON, which meets keys record by record (pick, mapJSON).

// matchColumn returns the index among names, a header's columns, of the
// one that is name, else of the one that is name but for case and the
// spaces around it, else -1. Two or more of the second kind, and none of
// the first, are no match: clash lists them, in the header's order. A
// column name repeated is one name, whose first column is read, as of a
// name that matches exactly.
func matchColumn(names []string, name string) (i int, clash []string) {
	for j, n := range names {
		if n == name {
			return j, nil
		}
	}
	i = -1
	for j, n := range names {
		if !strings.EqualFold(strings.TrimSpace(n), name) || slices.Contains(clash, n) {
			continue
		}
		if i < 0 {
			i = j
		}
		clash = append(clash, n)
	}
	if len(clash) > 1 {
		return -1, clash
	}
	return i, nil
}

// clashMessage says that the keys or columns (what) of names, two or more,
// match name, field f's or a part of its path, only ignoring case, and
// which flag chooses one: the flag names each with tail, the rest of the
// field's path after it.
func clashMessage(what string, names []string, name, tail string, f field) string {
	quoted := make([]string, len(names))
	flags := make([]string, len(names))
	flag := FieldFlags[fieldRoles[f]]
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
		flags[i] = flag + " " + shellWord(n+tail)
	}
	list, verb := strings.Join(quoted[:len(quoted)-1], ", ")+" and "+quoted[len(quoted)-1], "are both"
	if len(names) > 2 {
		verb = "are all"
	}
	return fmt.Sprintf("%s %s %s %q (the %s) but for case, and none is it exactly; %s names the one to read: %s",
		what, list, verb, name, fieldRoles[f], flag, strings.Join(flags, " or "))
}

// spacedIn returns the name in seen that is name, ignoring case, but for
// the spaces around it, the first in sorted order when two are; "" when
// none is.
func spacedIn(seen map[string]bool, name string) string {
	best := ""
	for n := range seen {
		if t := strings.TrimSpace(n); t != n && strings.EqualFold(t, name) && (best == "" || n < best) {
			best = n
		}
	}
	return best
}

// missing returns the first required field that no name in seen matches
// (see matches); ok is false when every one matches. A JSON
// field named by a dotted path matches the path seen whole (see
// pathsSeen).
func (r *Reader) missing(seen map[string]bool, columns bool) (f field, ok bool) {
	for _, f := range r.required() {
		if !matches(seen, r.names[f], columns) {
			return f, true
		}
	}
	return 0, false
}

// pathsSeen adds to seen, as dotted names ("_source.body"), the keys of
// the nested objects of line, a JSON record, that the fields named by a
// dotted path (Reader.paths) lead through, matched as descend matches
// them: a path seen whole is among them, and a mistyped one names the
// keys that were there. A path that meets keys that clash (two or more
// that are a key of the path but for case) is seen, under the field's
// name: the field is there, and each record read says which keys clash.
func (r *Reader) pathsSeen(line []byte, seen map[string]bool) {
	for f, path := range r.paths {
		if path == nil {
			continue
		}
		keys, vals := members(line)
		name, v, ok, clash := memberOf(keys, vals, string(r.keys[f]))
		for _, k := range path {
			if !ok {
				break
			}
			keys, vals = members(v)
			if keys == nil {
				break
			}
			for _, n := range keys {
				seen[name+"."+n] = true
			}
			var key string
			key, v, ok, clash = memberOf(keys, vals, string(k))
			name += "." + key
		}
		if clash {
			seen[r.names[f]] = true
		}
	}
}

// members returns the keys of obj, a JSON object, in their order, and
// their values; nil when obj is no object.
func members(obj []byte) (keys []string, vals []json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	keys = []string{}
	for dec.More() {
		t, err := dec.Token()
		k, isKey := t.(string)
		var v json.RawMessage
		if err != nil || !isKey || dec.Decode(&v) != nil {
			return nil, nil
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals
}

// memberOf returns the key among keys that name matches, and its value
// among vals, as the decoding of a record picks it (pick): the last
// exact match, else the one match ignoring case (a key repeated is one
// key, its last value read). Two or more keys that match ignoring case,
// none exactly, clash: ok is false and clash true.
func memberOf(keys []string, vals []json.RawMessage, name string) (key string, val json.RawMessage, ok, clash bool) {
	found, exact := -1, false
	for i, k := range keys {
		switch {
		case k == name:
			found, exact = i, true
		case !exact && strings.EqualFold(k, name):
			clash = clash || found >= 0 && keys[found] != k
			found = i
		}
	}
	switch {
	case exact:
		return keys[found], vals[found], true, false
	case found < 0 || clash:
		return "", nil, false, clash
	}
	return keys[found], vals[found], true, false
}

// checkedSource holds back the first records of a JSON Lines input until
// their field names are checked. Of a stream that may pause (standard
// input, a pipe, read once), it holds back only the records that have
// arrived: the look ahead ends at the first record not at hand yet, and
// the check goes by those before it, so that a writer that sends a record
// and waits has it read (and `neardup index add` store it) at once.
type checkedSource struct {
	r      *Reader
	src    bufferedSource
	origin string
	queue  []Raw
	err    error // what ended the look ahead, given after the queue
	done   bool
	// ready, of a stream that may pause, reports whether the next record
	// is at hand (see newCheckedSource); nil for a file.
	ready func() bool
}

// bufferedSource is a source that says whether it holds the start of its
// next record, a line or an object begun, in its buffer.
type bufferedSource interface {
	source
	buffered() bool
}

// newCheckedSource returns the checkedSource of src, the records of m.
func newCheckedSource(r *Reader, m container.Member, src bufferedSource) *checkedSource {
	c := &checkedSource{r: r, origin: m.Origin, src: src}
	if ready := m.Ready; ready != nil {
		c.ready = func() bool { return src.buffered() || ready() }
		if js, ok := src.(*jsonSource); ok {
			js.ready = ready
		}
	}
	return c
}

// buffered reports whether the next record is held or begun in a buffer.
func (c *checkedSource) buffered() bool { return len(c.queue) > 0 || c.src.buffered() }

func (c *checkedSource) close() { c.src.close() }

func (c *checkedSource) next() (Raw, error) {
	if !c.done {
		c.done = true
		if err := c.check(); err != nil {
			return Raw{}, err
		}
	}
	if len(c.queue) > 0 {
		raw := c.queue[0]
		c.queue[0] = Raw{}
		c.queue = c.queue[1:]
		return raw, nil
	}
	if c.err != nil {
		return Raw{}, c.err
	}
	return c.src.next()
}

// check reads ahead up to checkRecords records and checks their keys.
func (c *checkedSource) check() error {
	// The records read ahead are kept: they own their bytes, in memory of
	// their own (not in a caller's buffer, see NextRawIn, which the
	// caller writes over before they are given).
	share, into := c.r.shareLines, c.r.lineBuf
	c.r.shareLines, c.r.lineBuf = false, nil
	defer func() { c.r.shareLines, c.r.lineBuf = share, into }()
	seen := map[string]bool{}
	paths := map[string]bool{} // the nested keys that dotted names lead through
	var sh shapes              // which names hold objects, for FieldError.Likely
	objects, size := 0, 0
	told := false
	for len(c.queue) < checkRecords && size < checkBytes {
		if len(c.queue) > 0 && c.ready != nil && !c.ready() {
			f, missing := c.lacks(objects, seen, paths)
			if !missing {
				break // a stream that pauses: checked by the records it gave, which pass
			}
			if wait := c.r.opts.Waiting; wait != nil && !told {
				told = true
				wait(c.waitingMessage(f, len(c.queue), seen, paths))
			}
		}
		raw, err := c.src.next()
		if err != nil {
			c.err = err
			break
		}
		c.queue = append(c.queue, raw)
		size += len(raw.data)
		var obj map[string]json.RawMessage
		if raw.kind == rawJSON && json.Unmarshal(raw.data, &obj) == nil && obj != nil {
			objects++
			for k := range obj {
				seen[k] = true
			}
			sh.add("", obj, shapeDepth)
			if c.r.nested {
				c.r.pathsSeen(raw.data, paths)
			}
		}
	}
	c.r.seen.add(seen)
	if objects == 0 {
		return nil // no object to go by: each record is skipped, saying why
	}
	n := len(c.queue)
	where := fmt.Sprintf("none of the first %d records has a", n)
	if n == 1 {
		where = "the first record has no"
	}
	if c.err == io.EOF {
		where = fmt.Sprintf("none of its %d records has a", n)
		if n == 1 {
			where = "its one record has no"
		}
	}
	all := seen // the records' keys, and the nested ones of dotted names
	if len(paths) > 0 {
		all = maps.Clone(seen)
		maps.Copy(all, paths)
	}
	f, ok := c.r.missing(all, false)
	if !ok {
		c.r.noteUnread(c.origin, seen, false, nil)
		return nil
	}
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	fe := c.r.fieldError(f, names,
		fmt.Sprintf("%s: %s field %q (the %s); fields seen: %s", c.origin, where, c.r.names[f], fieldRoles[f], quoteList(names)))
	fe.objects, fe.keys = sh.objects()
	return fe
}

// lacks reports a field the reader is told to read that no record of the
// keys seen (and the nested ones of dotted names, paths), objects of them,
// holds: a stream that pauses is read on only when there is one, so that
// the check's verdict does not hang on when the writer pauses.
func (c *checkedSource) lacks(objects int, seen, paths map[string]bool) (field, bool) {
	if objects == 0 {
		return 0, false // no object yet: each record is skipped, saying why
	}
	all := seen
	if len(paths) > 0 {
		all = maps.Clone(seen)
		maps.Copy(all, paths)
	}
	return c.r.missing(all, false)
}

// waitingMessage is what Options.Waiting is told when the n records
// before a pause lack field f: the check reads on, to a record that holds
// it, checkRecords records (checkBytes of them) or the stream's end, and
// says so.
func (c *checkedSource) waitingMessage(f field, n int, seen, paths map[string]bool) string {
	names := slices.Sorted(maps.Keys(seen))
	for p := range paths {
		if !seen[p] {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	where := fmt.Sprintf("none of the %d records so far has a", n)
	if n == 1 {
		where = "the one record so far has no"
	}
	return fmt.Sprintf("%s: %s field %q (the %s; %s names it); fields seen: %s; reading on: an error if none of the first %d records (%d MiB) has it",
		c.origin, where, c.r.names[f], fieldRoles[f], FieldFlags[fieldRoles[f]], quoteList(names), checkRecords, checkBytes>>20)
}

// shapeDepth is how deep into a record's nested objects shapes looks.
const shapeDepth = 4

// shapes notes, of the first records of a JSON input, which names hold an
// object or an array (a nested one by its dotted path, "body.meta") and
// which hold anything else, and the keys of the objects: what a FieldError
// needs to name a value inside an object rather than the object, which
// no field reads.
type shapes struct {
	composite, scalar map[string]bool
	keys              map[string]map[string]bool // an object's name → its keys
}

// add notes the members of obj, an object named prefix ("" for a record),
// and of the objects inside it up to depth levels down.
func (s *shapes) add(prefix string, obj map[string]json.RawMessage, depth int) {
	if s.composite == nil {
		s.composite, s.scalar, s.keys = map[string]bool{}, map[string]bool{}, map[string]map[string]bool{}
	}
	for k, v := range obj {
		name := prefix + k
		v = bytes.TrimLeft(v, " \t\r\n")
		if len(v) == 0 || v[0] != '{' && v[0] != '[' {
			s.scalar[name] = true
			continue
		}
		s.composite[name] = true
		var inner map[string]json.RawMessage
		if v[0] != '{' || depth <= 1 || json.Unmarshal(v, &inner) != nil {
			continue
		}
		if s.keys[name] == nil {
			s.keys[name] = map[string]bool{}
		}
		for ik := range inner {
			s.keys[name][ik] = true
		}
		s.add(name+".", inner, depth-1)
	}
}

// objects returns the names that hold an object or an array in every
// record that has them, and the keys of the objects, sorted.
func (s *shapes) objects() (composite map[string]bool, keys map[string][]string) {
	composite, keys = map[string]bool{}, map[string][]string{}
	for n := range s.composite {
		if !s.scalar[n] {
			composite[n] = true
		}
	}
	for n, ks := range s.keys {
		keys[n] = slices.Sorted(maps.Keys(ks))
	}
	return composite, keys
}

// A FieldError says that no field (JSON key, CSV column) of an input's
// first records has a name the reader looks for: the text's, or one the
// caller chose. It names the fields seen, and Likely names the one most
// probably meant, so that a command can say which flag reads it.
type FieldError struct {
	Field string   // what the field holds: "id", "title", "text", "URL", "source" or "date"
	Name  string   // the name looked for
	Seen  []string // the names seen
	msg   string
	// objects are the names (of Seen, and dotted below them) that hold
	// an object or an array in every JSON record read that has them, and
	// keys the keys of those objects, sorted: see Likely.
	objects map[string]bool
	keys    map[string][]string
	// noHeader: the CSV or TSV file's first line looks like a row of
	// data, not a header naming its columns.
	noHeader bool
}

func (e *FieldError) Error() string { return e.msg }

// Hint says which flag names the field the inputs lack, and with which
// name when one of those seen is likely: the line a command prints after
// the error.
func (e *FieldError) Hint() string {
	flag := FieldFlags[e.Field]
	if flag == "" {
		return "the fields seen are listed above"
	}
	if n := e.Likely(); n != "" {
		return FlagHint(e.Field, n)
	}
	if e.noHeader {
		return fmt.Sprintf("a CSV or TSV file needs a header as its first line, naming its columns: add one that names "+
			"the %s column %q (or another name, given to %s)", e.Field, e.Name, flag)
	}
	hint := fmt.Sprintf("%s NAME reads the %s from the field or column NAME", flag, e.Field)
	switch e.Field {
	case "text":
		return hint
	case "id":
		return hint + "; without " + flag + " a document without an id is named by its place (file:line)"
	}
	return hint + ", or leave " + flag + " out"
}

func (r *Reader) fieldError(f field, seen []string, msg string) *FieldError {
	return &FieldError{Field: fieldRoles[f], Name: r.names[f], Seen: seen, msg: msg}
}

// fieldAliases are names under which news corpora commonly keep each
// field, in order of preference, as their letters and digits in lower case
// (see letters: "Full Text" is "fulltext").
var fieldAliases = [nFields][]string{
	fID:     {"docid", "documentid", "articleid", "uuid", "guid", "key"},
	fTitle:  {"headline", "heading", "articletitle", "name"},
	fText:   {"body", "content", "maintext", "article", "fulltext", "story", "articletext", "articlebody"},
	fURL:    {"link", "href", "uri", "sourceurl", "articleurl", "canonicalurl", "permalink"},
	fSource: {"publisher", "publication", "site", "sitename", "domain", "sourcedomain", "outlet", "sourcename", "feed"},
	fDate: {"published", "publishdate", "publisheddate", "datepublished", "datepublish", "publishedat",
		"pubdate", "publicationdate", "createdat", "datetime", "timestamp"},
}

// letters returns s's letters and digits, in lower case.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// Likely returns the name among Seen most probably meant: one within two
// edits of Name (a typo), else the first of the names news corpora
// commonly give the field that is there; "" when none is. A name whose
// value is an object (or an array) in every JSON record read, which no
// field reads, is not named: the name likely meant among its object's
// keys is, as a dotted path ("body.text" of {"body":{"text":"…"}}), and
// when none is, the next name likely.
func (e *FieldError) Likely() string {
	return e.likelyIn("", e.Seen)
}

// likelyIn returns the name most probably meant among names, the keys of
// the object named prefix ("" for the record's own), prefixed (see
// Likely). When none of names is likely, the name likely meant among the
// keys of an object none of them names is ("_source.content" of an
// Elasticsearch hit, {"_source":{"content":"…"}}).
func (e *FieldError) likelyIn(prefix string, names []string) string {
	tried := map[string]bool{}
	for rest := names; len(rest) > 0; {
		n := e.likeliest(rest)
		if n == "" {
			break
		}
		full := prefix + n
		if !e.objects[full] {
			return full
		}
		if in := e.likelyIn(full+".", e.keys[full]); in != "" {
			return in
		}
		tried[n] = true
		rest = slices.DeleteFunc(slices.Clone(rest), func(s string) bool { return s == n })
	}
	for _, n := range names {
		if full := prefix + n; e.objects[full] && !tried[n] {
			if in := e.likelyIn(full+".", e.keys[full]); in != "" {
				return in
			}
		}
	}
	return ""
}

// likeliest returns the name among names within two edits of Name, else
// the first of the names news corpora commonly give the field that is
// there; "" when none is.
func (e *FieldError) likeliest(names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(n), strings.ToLower(e.Name), bestD); d < bestD {
			best, bestD = n, d
		}
	}
	if best != "" {
		return best
	}
	f := slices.Index(fieldRoles[:], e.Field)
	if f < 0 {
		return ""
	}
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		seen[n] = true
	}
	return aliasIn(field(f), seen)
}

// aliasIn returns the name in seen that is the first of fieldAliases[f]
// (in letters), the first in sorted order when two are; "" when none is.
func aliasIn(f field, seen map[string]bool) string {
	for _, alias := range fieldAliases[f] {
		best := ""
		for n := range seen {
			if letters(n) == alias && (best == "" || n < best) {
				best = n
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// editDistance returns the Levenshtein distance between a and b, in
// bytes, or limit when it is at least limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
