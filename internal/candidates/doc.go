// Package candidates owns the indexes that propose pairs of documents to
// compare: a key → documents posting table shared by the sentence-hash index
// and the LSH band index. No index here ever compares documents; it only says
// which documents could match, and callers verify them exactly.
package candidates
