package job

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/codec"
	"github.com/neardup/neardup/internal/container"
	"github.com/neardup/neardup/internal/corpus"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/methods"
	"github.com/neardup/neardup/internal/output"
)

// A run with Options.Resume keeps checkpoints of its first reading (the
// sketch stage) in the folder "checkpoint" of the output's work folder:
//
//   - run.json: what the checkpoints are of: the path, size and
//     modification time of every file the reading lists (describeRun),
//     and the options that decide what the first reading gives (method,
//     fields, formats, ids, minimum text);
//   - journal: one entry for each record read, in input order: a record
//     skipped (its reason and error) or a document (its id, origin, date,
//     text length, its sketch's encoding, its engine.CopyKey if the
//     batch reads one, and why it is not compared, as rejects.jsonl says
//     it: the words need its text, which the journal does not hold),
//     each saying whether its origin's number is a Parquet row and
//     ending with the record's notes (a date not read, a page a site
//     rule's body matched nothing on: corpus.Record.UnreadDate,
//     RuleMiss); each entry framed by its length and a CRC-32;
//   - checkpoint.json: how many records the journal holds and its length
//     in bytes at that point, written (to a temporary name, then renamed)
//     after the journal is synced, every Options.CheckpointEvery records
//     (or a minute after the last checkpoint, if sooner) and at the end of
//     the reading.
//
// A run resumed replays the journal's entries up to the checkpoint through
// the same steps as records read (the ids, rejects, skips and additions to
// the batch), reads past those records of the input without decoding them,
// and goes on from there: its results are those of a run never
// interrupted. A checkpoint of other inputs or options is refused. The
// folder is removed once the results are in place.

// checkpointVersion is the version of the checkpoint's files.
//
// Changelog:
//   - 1: first version.
//   - 2: an entry says after its kind whether the number ending its
//     origin is a Parquet file's row (corpus.Record.Row).
//   - 3: a document's entry ends with its engine.CopyKey, when the batch
//     reads one.
//   - 4: every entry ends with the record's notes, its date not read and
//     its rule's miss ("" for none).
//   - 5: the IDs of --id-scope file name the file relative to the folder
//     holding the input, however its path was given, and a record the
//     reader builds is kept with the ID its document is given.
//   - 6: a document's entry ends, before the notes, with why it is not
//     compared (item.because; "" for a document compared).
//   - 7: a page read without a URL has a source (its og:site_name, else
//     its declared URL's host), and a Markdown file its front matter's
//     date, source and URL: the journal of version 6 holds sketches and
//     dates read without them.
const checkpointVersion = 7

// DefaultCheckpointEvery is how many records a run with Options.Resume
// reads between two checkpoints.
const DefaultCheckpointEvery = 100_000

// runFile is run.json.
type runFile struct {
	Version int             `json:"version"`
	Inputs  []inputFile     `json:"inputs"`
	Options json.RawMessage `json:"options"`
	// SketchFormat and HashVersion are those the binary's method makes
	// (engine.Spec.Format, analysis.HashVersion; a run's options are the
	// binary's own): a later binary whose method makes another format
	// refuses the checkpoint, however many older formats it reads.
	SketchFormat int `json:"sketch_format"`
	HashVersion  int `json:"hash_version"`
}

// inputFile is an input file as it was when the checkpoints began.
type inputFile struct {
	Path    string `json:"path"`
	Size    int64  `json:"size"`
	ModTime string `json:"mtime"` // RFC 3339 with nanoseconds
}

// checkpointFile is checkpoint.json.
type checkpointFile struct {
	Version int   `json:"version"`
	Records int   `json:"records"`
	Journal int64 `json:"journal_bytes"`
	Done    bool  `json:"done,omitempty"` // the whole first reading
}

// checkpointer writes a run's journal and checkpoints, and reads them back
// to resume.
type checkpointer struct {
	dir     string
	every   int
	f       *os.File
	w       *bufio.Writer
	size    int64 // the journal's length
	last    time.Time
	resume  checkpointFile // the checkpoint resumed from; zero for none
	replay  *bufio.Reader  // the journal's entries still to replay
	entry   []byte
	scratch []byte
}

// openCheckpoints starts the checkpoints of a run in out's work folder
// or, when the folder holds checkpoints of the same inputs and options,
// opens them to resume from. co are the options the run's corpus.Reader
// is opened with. note receives a line saying which.
func openCheckpoints(o Options, co corpus.Options, out *output.Set, note io.Writer) (*checkpointer, error) {
	work, err := out.WorkDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(work, "checkpoint")
	want, err := describeRun(o, co)
	if err != nil {
		return nil, err
	}
	c := &checkpointer{dir: dir, every: o.CheckpointEvery, last: time.Now()}
	if c.every <= 0 {
		c.every = DefaultCheckpointEvery
	}
	var ck checkpointFile
	data, err := os.ReadFile(filepath.Join(dir, "checkpoint.json"))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if note != nil {
			fmt.Fprintf(note, "no checkpoint to resume from in %s: starting from the first record\n", dir)
		}
		return c, c.start(want)
	case err != nil:
		return nil, fmt.Errorf("reading the checkpoint: %w", err)
	}
	if err := json.Unmarshal(data, &ck); err != nil || ck.Version != checkpointVersion {
		return nil, fmt.Errorf("%s: not a checkpoint of this version of neardup; remove %s to start again", filepath.Join(dir, "checkpoint.json"), dir)
	}
	var have runFile
	data, err = os.ReadFile(filepath.Join(dir, "run.json"))
	if err == nil {
		err = json.Unmarshal(data, &have)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: unreadable (%v); remove %s to start again", filepath.Join(dir, "run.json"), err, dir)
	}
	if err := sameRun(have, want, dir); err != nil {
		return nil, err
	}
	if err := c.reopen(ck); err != nil {
		return nil, err
	}
	if note != nil {
		fmt.Fprintf(note, "resuming from the checkpoint in %s: %d records read before\n", dir, ck.Records)
	}
	return c, nil
}

// describeRun returns run.json's content for o: its inputs as they are
// now and the options that decide what the first reading gives. The
// inputs are the files the reading lists (container.List with co's
// Exclude, as corpus.Open lists them: links to directories followed,
// hidden files and names not read left out), a file it lists as not
// reachable (a link to nothing) with the size -1. A pipe, read once, is
// refused as standard input is.
func describeRun(o Options, co corpus.Options) (runFile, error) {
	rf := runFile{Version: checkpointVersion, HashVersion: analysis.HashVersion}
	if o.Method != nil {
		spec, err := methods.Lookup(o.Method.Method())
		if err != nil {
			return rf, err
		}
		rf.SketchFormat = spec.Format
	}
	for _, in := range o.Inputs {
		if in == "-" {
			return rf, errors.New("--resume reads its inputs again from the start of a file: stdin cannot be resumed")
		}
		files, err := container.List(in, container.ListOptions{Exclude: co.Exclude})
		if nf := (*container.NoFilesError)(nil); errors.As(err, &nf) {
			continue // read as no file: corpus.Reader.EmptyDirs
		}
		if err != nil {
			return rf, fmt.Errorf("--resume: %w", err)
		}
		for _, f := range files {
			if f.Stream {
				return rf, fmt.Errorf("--resume reads its inputs again from the start of a file: %s is a pipe, read once, and cannot be resumed", f.Path)
			}
			file := inputFile{Path: f.Path, Size: -1}
			if st, err := os.Stat(f.Path); err == nil && f.Err == nil { // a symbolic link's target
				file.Size, file.ModTime = st.Size(), st.ModTime().UTC().Format(time.RFC3339Nano)
			}
			rf.Inputs = append(rf.Inputs, file)
		}
	}
	c, x := o.Corpus, o.Corpus.Extract
	corpusOpts := map[string]any{
		"format": c.Format, "fields": []string{c.IDField, c.TitleField, c.TextField, c.URLField, c.SourceField, c.DateField},
		"max_bytes": c.MaxBytes, "single_pass": c.SinglePass, "charset": c.Charset, "max_inflate": c.MaxInflate, "max_ratio": c.MaxRatio,
		"extract": []any{x.MinChars, x.MaxBytes, x.MaxElements, x.Timeout.String(), fmt.Sprintf("%T", x.Engine), x.LibraryOnly, x.Rules != nil},
	}
	opts := map[string]any{
		"method": o.Method.Method(), "method_options": o.Method, "corpus": corpusOpts, "min_text": o.MinChars,
		"on_duplicate_id": o.OnDuplicateID, "id_scope": o.IDScope, "strict": o.Strict,
	}
	var err error
	rf.Options, err = json.Marshal(opts)
	return rf, err
}

// sameRun refuses a checkpoint of other inputs or options than want's,
// saying which differ.
func sameRun(have, want runFile, dir string) error {
	if have.Version != checkpointVersion {
		return fmt.Errorf("%s: a checkpoint of another version of neardup; remove it to start again", dir)
	}
	again := "run without --resume to start again"
	other := func() error {
		return fmt.Errorf("--resume: the checkpoint in %s was made with other options (then → now: %s); give the same options, or %s",
			dir, optionsDiff(have.Options, want.Options), again)
	}
	if methodOf(have.Options) != methodOf(want.Options) {
		return other() // its sketches are of another format, being another method's
	}
	if have.SketchFormat != want.SketchFormat || have.HashVersion != want.HashVersion {
		return fmt.Errorf("--resume: the checkpoint in %s holds sketches of format %d and hash version %d, which another version "+
			"of neardup made; this one makes format %d, hash version %d: %s", dir, have.SketchFormat, have.HashVersion,
			want.SketchFormat, want.HashVersion, again)
	}
	for _, w := range want.Inputs {
		i := slices.IndexFunc(have.Inputs, func(h inputFile) bool { return h.Path == w.Path })
		switch {
		case i < 0:
			return fmt.Errorf("--resume: %s was not an input of the interrupted run (checkpoint in %s); %s", w.Path, dir, again)
		case have.Inputs[i] != w:
			return fmt.Errorf("--resume: %s changed since the checkpoint in %s (size %d, modified %s; then %d, %s); %s",
				w.Path, dir, w.Size, w.ModTime, have.Inputs[i].Size, have.Inputs[i].ModTime, again)
		}
	}
	if len(have.Inputs) != len(want.Inputs) {
		return fmt.Errorf("--resume: the interrupted run read %d input files, this one %d (checkpoint in %s); %s", len(have.Inputs), len(want.Inputs), dir, again)
	}
	if compact(have.Options) != compact(want.Options) {
		return other()
	}
	return nil
}

// methodOf returns the method a run.json option set names, "" for none.
func methodOf(opts json.RawMessage) string {
	var o struct{ Method string }
	json.Unmarshal(opts, &o)
	return o.Method
}

// optionsDiff names the options that differ between two run.json option
// sets, have the checkpoint's and want this run's, each with its value
// then and now, in the names run.json gives them: "min_text 50 → 80,
// threshold 0.45 → 0.5". Of another method, only the method is named:
// its options are another method's.
func optionsDiff(have, want json.RawMessage) string {
	var x, y map[string]json.RawMessage
	if json.Unmarshal(have, &x) != nil || json.Unmarshal(want, &y) != nil {
		return "unreadable"
	}
	if compact(x["method"]) != compact(y["method"]) {
		delete(x, "method_options")
		delete(y, "method_options")
	}
	var diffs []string
	diffFields(x, y, &diffs)
	return strings.Join(diffs, ", ")
}

// diffFields appends to diffs each field of x and y whose values differ,
// "name then → now", looking into the fields that are objects on both
// sides (the method's options, the corpus's), in name order.
func diffFields(x, y map[string]json.RawMessage, diffs *[]string) {
	names := slices.Collect(maps.Keys(x))
	for k := range y {
		if _, ok := x[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		a, b := x[k], y[k]
		if compact(a) == compact(b) {
			continue
		}
		var xa, yb map[string]json.RawMessage
		if json.Unmarshal(a, &xa) == nil && json.Unmarshal(b, &yb) == nil && xa != nil && yb != nil {
			n := len(*diffs)
			if diffFields(xa, yb, diffs); len(*diffs) == n {
				// The same fields and values, written in another order.
				*diffs = append(*diffs, k+" (its fields in another order)")
			}
			continue
		}
		*diffs = append(*diffs, k+" "+shownValue(a)+" → "+shownValue(b))
	}
}

// shownValue is a run.json value as a message shows it: compact JSON,
// "(none)" for a field one side lacks.
func shownValue(v json.RawMessage) string {
	if len(v) == 0 {
		return "(none)"
	}
	return compact(v)
}

// compact returns a JSON value without its white space: run.json is
// written indented.
func compact(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// start begins new checkpoints: run.json, an empty journal, no
// checkpoint yet.
func (c *checkpointer) start(rf runFile) error {
	if err := os.RemoveAll(c.dir); err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(rf, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileSynced(filepath.Join(c.dir, "run.json"), data); err != nil {
		return err
	}
	if c.f, err = os.Create(filepath.Join(c.dir, "journal")); err != nil {
		return err
	}
	c.w = bufio.NewWriterSize(c.f, 1<<20)
	return nil
}

// reopen opens the journal of checkpoint ck to replay its entries, and
// to append to them what follows; what it holds past the checkpoint is
// dropped.
func (c *checkpointer) reopen(ck checkpointFile) error {
	f, err := os.OpenFile(filepath.Join(c.dir, "journal"), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("opening the checkpoint's journal: %w", err)
	}
	if st, err := f.Stat(); err != nil || st.Size() < ck.Journal {
		f.Close()
		return fmt.Errorf("%s: shorter than its checkpoint says; remove %s to start again", filepath.Join(c.dir, "journal"), c.dir)
	}
	if err := f.Truncate(ck.Journal); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Seek(ck.Journal, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	c.f, c.w, c.size, c.resume = f, bufio.NewWriterSize(f, 1<<20), ck.Journal, ck
	c.replay = bufio.NewReaderSize(io.NewSectionReader(f, 0, ck.Journal), 1<<20)
	return nil
}

// The kinds of journal entries.
const (
	entrySkipped  = 1 // a record the reader skipped
	entryDocument = 2 // a document
)

// encode returns the journal entry of an item about to be taken (see
// runner.take): its id as read, before a repeat renames it.
func (c *checkpointer) encode(it *item) []byte {
	b := c.entry[:0]
	doc := &it.rec.Doc
	var row byte
	if it.rec.Row {
		row = 1
	}
	if it.rec.Skip != core.SkipNone {
		b = append(b, entrySkipped, row)
		b = appendString(appendString(appendString(b, string(it.rec.Skip)), doc.ID), doc.Origin)
		var re *corpus.RecordError
		switch {
		case errors.As(it.rec.Err, &re):
			b = appendString(appendString(appendString(append(b, 1), re.Origin), re.Field), re.Msg)
		default:
			b = appendString(append(b, 0), errText(it.rec.Err))
		}
	} else {
		b = append(b, entryDocument, row)
		b = appendString(appendString(b, doc.ID), doc.Origin)
		var date int64
		if !doc.Date.IsZero() {
			date = doc.Date.UnixNano()
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		b = binary.AppendVarint(b, date)
		b = binary.AppendUvarint(b, uint64(len(doc.Text)))
		b = appendString(b, string(it.sketch.Skip()))
		b = appendString(appendString(b, string(it.index)), string(it.detail))
		if k, ok := it.sketch.CopyKey(); ok {
			b = append(append(b, 1), k[:]...)
		} else {
			b = append(b, 0)
		}
		b = appendString(b, it.because)
	}
	b = appendString(appendString(b, it.rec.UnreadDate), it.rec.RuleMiss)
	c.entry = b
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// write appends an entry to the journal, and after every c.every records
// (read is the count so far) writes a checkpoint.
func (c *checkpointer) write(entry []byte, read int) error {
	c.scratch = binary.AppendUvarint(c.scratch[:0], uint64(len(entry)))
	c.scratch = binary.LittleEndian.AppendUint32(append(c.scratch, entry...), crc32.ChecksumIEEE(entry))
	n, err := c.w.Write(c.scratch)
	c.size += int64(n)
	if err != nil {
		return fmt.Errorf("writing the checkpoint's journal: %w", err)
	}
	if read%c.every == 0 || time.Since(c.last) >= time.Minute {
		return c.checkpoint(read, false)
	}
	return nil
}

// checkpoint syncs the journal and records that it holds read records.
func (c *checkpointer) checkpoint(read int, done bool) error {
	if err := c.w.Flush(); err != nil {
		return fmt.Errorf("writing the checkpoint's journal: %w", err)
	}
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("writing the checkpoint's journal: %w", err)
	}
	c.last = time.Now()
	data, _ := json.Marshal(checkpointFile{Version: checkpointVersion, Records: read, Journal: c.size, Done: done})
	return writeFileSynced(filepath.Join(c.dir, "checkpoint.json"), data)
}

// writeFileSynced writes a file whole under a temporary name, syncs it and
// renames it into place.
func writeFileSynced(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// next reads the next entry to replay into an item, its sketch decoded by
// b.
func (c *checkpointer) next(b engine.Batch) (item, error) {
	bad := func(err error) (item, error) {
		return item{}, fmt.Errorf("%s: damaged (%v); remove %s to start again", filepath.Join(c.dir, "journal"), err, c.dir)
	}
	n, err := binary.ReadUvarint(c.replay)
	if err != nil {
		return bad(err)
	}
	if n > 1<<31 {
		return bad(errors.New("an entry's length is past any entry's"))
	}
	entry := make([]byte, n+4)
	if _, err := io.ReadFull(c.replay, entry); err != nil {
		return bad(err)
	}
	if crc32.ChecksumIEEE(entry[:n]) != binary.LittleEndian.Uint32(entry[n:]) {
		return bad(errors.New("an entry's checksum does not match"))
	}
	it, err := decodeEntry(entry[:n], b)
	if errors.Is(err, codec.ErrFormat) {
		return item{}, fmt.Errorf("--resume: the checkpoint in %s holds sketches another version of neardup made (%v); run without --resume to start again", c.dir, err)
	}
	if err != nil {
		return bad(err)
	}
	return it, nil
}

// decodeEntry is the inverse of encode.
func decodeEntry(e []byte, b engine.Batch) (item, error) {
	r := &entryReader{b: e}
	var it item
	doc := &it.rec.Doc
	kind := r.byte()
	it.rec.Row = r.byte() == 1
	switch kind {
	case entrySkipped:
		it.rec.Skip = core.SkipReason(r.string())
		doc.ID, doc.Origin = r.string(), r.string()
		if r.byte() == 1 {
			it.rec.Err = &corpus.RecordError{Origin: r.string(), Field: r.string(), Reason: it.rec.Skip, Msg: r.string()}
		} else if msg := r.string(); msg != "" {
			it.rec.Err = errors.New(msg)
		}
	case entryDocument:
		doc.ID, doc.Origin = r.string(), r.string()
		dated := r.byte() == 1
		date, err := binary.ReadVarint(r)
		if err != nil {
			return it, err
		}
		if dated {
			doc.Date = time.Unix(0, date).UTC()
		}
		length, err := binary.ReadUvarint(r)
		if err != nil {
			return it, err
		}
		skip := core.SkipReason(r.string())
		it.index, it.detail = []byte(r.string()), []byte(r.string())
		if r.err != nil {
			return it, r.err
		}
		var key engine.CopyKey
		keyed := r.byte() == 1
		if keyed {
			r.read(key[:])
		}
		it.because = r.string()
		if r.err != nil {
			return it, r.err
		}
		it.sketch, err = b.Decode(int(length), skip, it.index, it.detail)
		if err != nil {
			return it, err
		}
		if keyed {
			it.sketch = it.sketch.WithCopyKey(key)
		}
	default:
		return it, errors.New("an entry of no known kind")
	}
	it.rec.UnreadDate, it.rec.RuleMiss = r.string(), r.string()
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("an entry longer than its fields")
	}
	return it, r.err
}

// entryReader reads the fields of a journal entry.
type entryReader struct {
	b   []byte
	err error
}

func (r *entryReader) ReadByte() (byte, error) {
	if len(r.b) == 0 {
		return 0, io.ErrUnexpectedEOF
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c, nil
}

func (r *entryReader) byte() byte {
	c, err := r.ReadByte()
	if err != nil && r.err == nil {
		r.err = err
	}
	return c
}

func (r *entryReader) string() string {
	n, err := binary.ReadUvarint(r)
	if err == nil && n > uint64(len(r.b)) {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		if r.err == nil {
			r.err = err
		}
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// read fills dst from the entry.
func (r *entryReader) read(dst []byte) {
	if len(r.b) < len(dst) {
		if r.err == nil {
			r.err = io.ErrUnexpectedEOF
		}
		return
	}
	copy(dst, r.b)
	r.b = r.b[len(dst):]
}

// close closes the journal.
func (c *checkpointer) close() {
	if c != nil && c.f != nil {
		c.f.Close()
		c.f = nil
	}
}

// remove deletes the checkpoints: the run's results are in place.
func (c *checkpointer) remove() error {
	c.close()
	return os.RemoveAll(c.dir)
}

// errText is err's message, or "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
