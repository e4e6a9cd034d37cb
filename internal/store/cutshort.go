package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A CutShortError is a SQLite index file shorter than the pages it holds
// take, as a copy interrupted or a disk that filled up leaves it: the
// pages past its end read back as zeros. Writing to it would build on
// pages that are gone (and a checkpoint would fill the gap with zeros,
// making the file look whole), so a writable open refuses it; a
// read-only one reads what is left. It wraps ErrCorrupt.
type CutShortError struct {
	// Size is the file's size in bytes; Want is what its pages take.
	Size, Want int64
	// Missing counts the pages past the end of the file that the log
	// beside it (the -wal file) does not hold either.
	Missing int64
}

func (e *CutShortError) Error() string {
	return fmt.Sprintf("store: the index file is damaged: it is cut short, %d bytes where its pages take %d (%d pages missing), "+
		"as a copy interrupted or a full disk leaves a file; nothing is written to it: restore it from a backup, or add its documents to a new index",
		e.Size, e.Want, e.Missing)
}

// Unwrap returns ErrCorrupt.
func (e *CutShortError) Unwrap() error { return ErrCorrupt }

// checkLength returns a *CutShortError when the SQLite file at path is
// shorter than its pages, pages of pageSize bytes, take: when a page past
// its end is not in its log either. In WAL mode a file is shorter than
// its pages as a matter of course (the pages added since the last
// checkpoint are in the log alone), and SQLite's own check compares the
// file with what the log says the database holds, so it misses a file cut
// short under a log. This reads only the size of the file and the headers
// of the log's frames: a full integrity check takes minutes on a large
// index.
//
// pages must be read (PRAGMA page_count, which counts what the log holds)
// before checkLength is called: a checkpoint that empties the log
// meanwhile copies its pages into the file first, and the file's size is
// read after the log.
func checkLength(path string, pageSize, pages int64) error {
	if pageSize <= 0 || pages <= 0 {
		return nil
	}
	inLog, err := walPages(path+"-wal", pageSize)
	if err != nil {
		return fmt.Errorf("store: reading the log of %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	whole := fi.Size() / pageSize // a page cut within is missing too
	if whole >= pages {
		return nil
	}
	missing := pages - whole
	for pg := range inLog {
		if pg > whole && pg <= pages {
			missing--
		}
	}
	// The page that holds the lock bytes, 1 GiB into the file, is never
	// written.
	if lockPage := int64(1<<30)/pageSize + 1; lockPage > whole && lockPage <= pages && !inLog[lockPage] {
		missing--
	}
	if missing <= 0 {
		return nil
	}
	return &CutShortError{Size: fi.Size(), Want: pages * pageSize, Missing: missing}
}

// SQLite's log: a header of 32 bytes, then frames of a header of 24 bytes
// and a page each (https://sqlite.org/fileformat2.html#walformat).
const (
	walHeader      = 32
	walFrameHeader = 24
)

// walPages returns the page numbers of the frames of the SQLite log at
// path whose pages are of pageSize bytes: none when there is no log. A
// frame counts while its salt is the header's (a frame of an earlier use
// of the log has another); its checksum is not checked, so a frame torn
// by a crash counts too: the pages returned are all that the log may
// hold, never fewer.
func walPages(path string, pageSize int64) (map[int64]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	var h [walHeader]byte
	if _, err := io.ReadFull(f, h[:]); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil // an empty log
	} else if err != nil {
		return nil, err
	}
	magic := binary.BigEndian.Uint32(h[0:])
	if magic&^1 != 0x377f0682 || int64(binary.BigEndian.Uint32(h[8:])) != pageSize {
		return nil, nil // not a log SQLite reads as this file's
	}
	pages := map[int64]bool{}
	var fh [walFrameHeader]byte
	for off := int64(walHeader); ; off += walFrameHeader + pageSize {
		if _, err := f.ReadAt(fh[:], off); errors.Is(err, io.EOF) {
			return pages, nil
		} else if err != nil {
			return nil, err
		}
		if [8]byte(fh[8:16]) != [8]byte(h[16:24]) {
			return pages, nil
		}
		pages[int64(binary.BigEndian.Uint32(fh[0:]))] = true
	}
}

// checkHeaderLength returns a *CutShortError when the SQLite file at
// path, whose first 100 bytes are h, is shorter than the size its header
// records, and the log beside it holds none of the pages missing: what
// SQLite itself refuses as "database disk image is malformed". It reads
// nothing but the file's and the log's sizes and the log's frame headers.
func checkHeaderLength(path string, h []byte) error {
	pageSize := int64(binary.BigEndian.Uint16(h[16:]))
	if pageSize == 1 {
		pageSize = 65536
	}
	// The header's size is valid when the change counter is the one the
	// size was written with.
	if [4]byte(h[24:28]) != [4]byte(h[92:96]) {
		return nil
	}
	return checkLength(path, pageSize, int64(binary.BigEndian.Uint32(h[28:])))
}
