//go:build unix

package store

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// unwritable says why this process cannot write the SQLite file at path,
// which exists, or create the log and shared-memory files that SQLite
// keeps beside a file in WAL mode: "" when it can. The file's mode, its
// directory's and a read-only file system all count, as the process's
// effective user and groups see them.
//
// SQLite keeps those files beside the file a symbolic link leads to, whose
// directory is the one to check.
func unwritable(path string) string {
	if err := unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS); err != nil {
		return fmt.Sprintf("this process may not write %s (%v)", path, err)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "" // opening it will say
	}
	dir := filepath.Dir(real)
	if err := unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK, unix.AT_EACCESS); err != nil {
		return fmt.Sprintf("this process may not create files in %s, where the index's log goes (%v)", dir, err)
	}
	return ""
}

// uncreatable says why this process cannot create a file at path, which
// does not exist, in a directory that does: "" when it can.
func uncreatable(path string) string {
	dir := filepath.Dir(path)
	if err := unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK, unix.AT_EACCESS); err != nil {
		return fmt.Sprintf("this process may not create files in %s (%v)", dir, err)
	}
	return ""
}

// dropOwnLog removes the log beside the SQLite file at real when this
// process made it, empty, opening the file read-only after its writer
// removed its own (SQLite creates one where the directory allows): left
// there, this process's, it would refuse the writer's next writes.
func dropOwnLog(real string) {
	db, err1 := os.Stat(real)
	wal, err2 := os.Stat(real + "-wal")
	if err1 != nil || err2 != nil || wal.Size() != 0 {
		return
	}
	me := uint32(os.Geteuid())
	if w, ok := wal.Sys().(*syscall.Stat_t); ok && w.Uid == me {
		if d, ok := db.Sys().(*syscall.Stat_t); ok && d.Uid != me {
			os.Remove(real + "-wal")
		}
	}
}
