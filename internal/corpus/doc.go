// Package corpus owns reading documents: JSON Lines, CSV and TSV files with a
// header row, directories of .txt and .md files, .zip archives of any of
// these, gzip-compressed copies of any of them, and standard input.
//
// A Reader streams: memory does not grow with the size of the input, only
// with the largest record (bounded by Options.MaxBytes). Reading is split in
// two so a pipeline can spread the work over cores: NextRaw, called from one
// goroutine, only cuts the input into records (a line, a CSV row, a file);
// Decode, safe for concurrent use, parses and validates one record into a
// neardup.Document. A record that cannot be used comes back with a typed
// neardup.SkipReason and an error naming its origin ("news.jsonl:17") and
// field; an input that cannot be read at all (a missing file, a truncated
// gzip stream or zip archive) is a fatal error from NextRaw naming the file
// and how far reading got.
//
// Formats are chosen by extension (.jsonl/.ndjson, .csv, .tsv, .txt, .md,
// .zip, .gz around any of them) or, when the extension says nothing, by
// sniffing the first bytes; Options.Format forces one. Rewind restarts the
// same records in the same order for a second pass; standard input is copied
// to a temporary file during the first pass to make that possible (unless
// Options.SinglePass says there will be no second pass).
package corpus
