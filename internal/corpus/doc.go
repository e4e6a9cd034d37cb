// Package corpus owns reading documents: JSON Lines, CSV and TSV files with a
// header row, directories of .txt and .md files, HTML pages and WARC files
// (whose articles package extract finds), .zip archives of any of these,
// gzip-compressed copies of any of them, and standard input.
//
// A Reader streams: memory does not grow with the size of the input, only
// with the largest record (bounded by Options.MaxBytes). Reading is split in
// two so a pipeline can spread the work over cores: NextRaw, called from one
// goroutine, only cuts the input into records (a line, a CSV row, a file);
// Decode, safe for concurrent use, parses and validates one record into a
// core.Document. A record that cannot be used comes back with a typed
// core.SkipReason and an error naming its origin ("news.jsonl:17") and
// field; an input that cannot be read at all (a missing file, a truncated
// gzip stream or zip archive) is a fatal error from NextRaw naming the file
// and how far reading got. A WARC file is read up to a cut, wherever in
// its gzip stream the cut falls (see warcSource): its records are pages,
// each read or failed on its own.
//
// Formats are chosen by extension (.jsonl/.ndjson, .csv, .tsv, .txt, .md,
// .html/.htm, .warc, .zip, .gz around any of them) or, when the extension
// says nothing, by sniffing the first bytes; Options.Format forces one.
//
// A web page is one record, and so is each response (HTTP) or resource
// record of a WARC file; Decode runs extract.Page on it under a time limit.
// Its id is named as `neardup extract` names it ("dir/a.html",
// "crawl.warc.gz#17"), and Doc.Raw, what a de-duplicated corpus holds of
// it, is the article as `neardup extract` writes it:
// {"id","url","title","text","date","author","lang"}. A page without an
// article is skipped with extract's reason (not-html, no-article,
// too-short, not-article-url, too-large, http-status, failed).
//
// Rewind restarts the same records in the same order for a second pass;
// standard input is copied to a temporary file during the first pass to
// make that possible (unless Options.SinglePass says there will be no
// second pass). Web pages are not extracted again: the second pass gets
// the records of the first, a skipped page's from memory and an article
// from a temporary file of the articles (their Doc.Raw), so that a timeout
// cannot come and go between the passes and the second pass costs little.
package corpus
