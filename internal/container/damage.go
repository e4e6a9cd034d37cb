package container

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// DamageError reports an archive member whose bytes are damaged (a zip
// member whose checksum or compressed data is wrong) or cut short (a tar
// archive that ends inside it), or an archive that cannot be read at all
// (a zip whose central directory is gone). Such a stream is refused as a
// member of another kind is: the walk goes on with the members after it
// when they can be found (a zip's), and with the next input when they
// cannot (a tar cut short ends there).
type DamageError struct {
	Origin string // the member, or the archive, damaged
	Why    string // what is wrong with it and what of it is read, for the message
	Err    error  // what reading it met
}

func (e *DamageError) Error() string {
	return fmt.Sprintf("%s: refused: %s", e.Origin, e.Why)
}

// Unwrap returns what reading the stream met.
func (e *DamageError) Unwrap() error { return e.Err }

// IsDamage reports whether err is, or wraps, a DamageError.
func IsDamage(err error) bool {
	var de *DamageError
	return errors.As(err, &de)
}

// zipHoldMax bounds the members held in memory, inflated, while their
// checksum is checked (as the archive declares their size): a larger one
// is inflated twice, once to check it and once to read it.
const zipHoldMax = 16 << 20

// checked returns a reader of the zip member f, opened as rc, once its
// data has been read through to its end and found whole: its checksum, and
// its compressed data, can vouch for no byte of it before that, so a member
// damaged anywhere gives no record rather than records of bytes that may be
// wrong. A member of up to zipHoldMax bytes is held in memory (buf, reused);
// a larger one is read twice. A member that would inflate past its bound
// (what the limiter refuses, comp its compressed size) is not checked: the
// read refuses it there. A damaged member returns a *DamageError; the
// check of a larger one gives up when the walk's Options.Stop ends.
func (z *zipFrame) checked(f *zip.File, rc io.ReadCloser, origin string, comp int64) (io.ReadCloser, error) {
	size := f.UncompressedSize64
	if size <= zipHoldMax {
		z.buf.Reset()
		if _, err := z.buf.ReadFrom(io.LimitReader(rc, int64(size)+1)); err != nil {
			rc.Close()
			return nil, zipDamage(origin, err)
		}
		if err := rc.Close(); err != nil {
			return nil, zipDamage(origin, err)
		}
		return io.NopCloser(bytes.NewReader(z.buf.Bytes())), nil
	}
	o := z.w.opts
	if bound := min(o.MaxInflate, max(ratioFloor, o.MaxRatio*max(comp, 1))); size > uint64(bound) {
		return rc, nil
	}
	if o.Reread != nil && z.n.depth == 0 && z.n.at != nil {
		o.Reread(comp)
	}
	_, err := io.Copy(io.Discard, stoppable{o.Stop, rc})
	rc.Close()
	if err != nil {
		return nil, zipDamage(origin, err)
	}
	rc, err = f.Open()
	if err != nil {
		return nil, zipDamage(origin, err)
	}
	return rc, nil
}

// stoppable is a reader of r that gives up, with context.Cause(stop),
// between its reads once stop ends (a nil stop never ends): what reads a
// stream through on its own, a zip member checked, ends when a run is
// stopped. Unlike Interruptible it waits for the read under way, which of
// a file, or of inflated data, ends.
type stoppable struct {
	stop context.Context
	r    io.Reader
}

func (s stoppable) Read(p []byte) (int, error) {
	if s.stop != nil && s.stop.Err() != nil {
		return 0, context.Cause(s.stop)
	}
	return s.r.Read(p)
}

// zipDamage is the refusal of the zip member origin, whose data reading met
// err (zip.ErrChecksum, "flate: corrupt input", a size other than declared).
func zipDamage(origin string, err error) *DamageError {
	return &DamageError{Origin: origin, Err: err,
		Why: fmt.Sprintf("its data is damaged (%v): none of it is read, since no byte of it can be trusted "+
			"before its checksum is (a checksum is checked at a member's end); the members after it are read", err)}
}

// zipUnreadable is the refusal of a zip archive whose list of members, its
// central directory at its end, cannot be read (a download cut short):
// no member of it is read.
func zipUnreadable(n node, size int64, err error) *DamageError {
	return &DamageError{Origin: n.origin, Err: err,
		Why: fmt.Sprintf("not a zip archive that can be read (%d bytes: %v): the list of its members, at its end, "+
			"is missing or damaged (cut short?), so none of them is read", size, err)}
}

// tarData reads the data of one tar member, turning a cut of the archive
// inside it into a *DamageError for the reader of the member: the records
// before the cut are read (the bytes before it are the archive's: a tar
// holds no checksum of its data, and a cut changes none of them), the one
// it cuts and the rest are not.
type tarData struct {
	t      *tarFrame
	origin string
	size   int64
	read   int64
}

func (d *tarData) Read(p []byte) (int, error) {
	n, err := d.t.tr.Read(p)
	d.read += int64(n)
	if err != nil && err != io.EOF && d.t.src.err == nil && !IsLimit(err) {
		d.t.damage = &DamageError{Origin: d.origin, Err: err,
			Why: fmt.Sprintf("the tar archive %s ends inside it, after %d of its %d bytes (%v: cut short)",
				d.t.n.origin, d.read, d.size, err)}
		d.t.done = true
		return n, d.t.damage
	}
	return n, err
}

// tarDamage is the refusal of the tar archive of t whose header reading
// met err, the stream under it whole: cut short, or damaged, after the
// members read.
func (t *tarFrame) tarDamage(err error) *DamageError {
	if t.entries == 0 {
		return &DamageError{Origin: t.n.origin, Err: err,
			Why: fmt.Sprintf("the tar archive is damaged or cut short before its first member (%v): none of it is read", err)}
	}
	return &DamageError{Origin: t.n.origin, Err: err,
		Why: fmt.Sprintf("the tar archive is damaged or cut short after its entry %d (%v): the members before are read, "+
			"the rest of it is not", t.entries, err)}
}
