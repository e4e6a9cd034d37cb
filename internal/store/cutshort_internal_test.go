package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckLength times the check a writable open makes of a SQLite
// file's length: a file of 30,000 pages of 8 KiB (240 MiB) whose last
// 10,000 pages are in its log alone, as many as the log holds before the
// index copies it into the file (wal_autocheckpoint). The check reads the
// file's size and the log's frame headers, not the pages.
//
//	go test -run '^$' -bench CheckLength ./internal/store/
func BenchmarkCheckLength(b *testing.B) {
	const pageSize, pages, logged = 8192, 30000, 10000
	path := filepath.Join(b.TempDir(), "news.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Truncate(path, (pages-logged)*pageSize); err != nil { // sparse: only its size is read
		b.Fatal(err)
	}
	wal, err := os.Create(path + "-wal")
	if err != nil {
		b.Fatal(err)
	}
	var h [walHeader]byte
	binary.BigEndian.PutUint32(h[0:], 0x377f0682)
	binary.BigEndian.PutUint32(h[8:], pageSize)
	copy(h[16:24], "saltsalt")
	wal.WriteAt(h[:], 0)
	for i := range logged {
		var fh [walFrameHeader]byte
		binary.BigEndian.PutUint32(fh[0:], uint32(pages-logged+1+i))
		copy(fh[8:16], "saltsalt")
		wal.WriteAt(fh[:], walHeader+int64(i)*(walFrameHeader+pageSize))
	}
	if err := wal.Truncate(walHeader + logged*(walFrameHeader+pageSize)); err != nil {
		b.Fatal(err)
	}
	wal.Close()
	if err := checkLength(path, pageSize, pages); err != nil {
		b.Fatalf("a whole file and its log: %v", err)
	}
	if err := checkLength(path, pageSize, pages+1); err == nil {
		b.Fatal("a page in neither the file nor its log: no error")
	}
	for b.Loop() {
		if err := checkLength(path, pageSize, pages); err != nil {
			b.Fatal(err)
		}
	}
}
