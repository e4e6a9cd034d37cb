//go:build !unix

package store

// unwritable says why this process cannot write the SQLite file at path:
// where the system offers no check of permissions, "" (it is opened for
// writing, and a write it may not make fails as SQLite reports it).
func unwritable(string) string { return "" }

// uncreatable says why this process cannot create a file at path: where
// the system offers no check of permissions, "" (SQLite's error says).
func uncreatable(string) string { return "" }

// dropOwnLog does nothing where the owners of files are not known.
func dropOwnLog(real string) {}
