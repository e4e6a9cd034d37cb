package engine

import (
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/candidates"
)

// Stats describe a run. The pipeline fills the counts; callers that read and
// write files add their own stages' timings and skips.
type Stats struct {
	Method string `json:"method"`
	// Read counts the records read, Documents those that were documents
	// (read without error, possibly skipped by the method).
	Read      int `json:"records_read"`
	Documents int `json:"documents"`
	// Skipped counts records and documents not compared, by reason.
	Skipped map[core.SkipReason]int `json:"skipped"`
	// SkippedReading counts those of Skipped that were records skipped
	// while reading, which are no documents (the others are documents
	// not compared), for a summary that tells the two apart. Not written.
	SkippedReading map[core.SkipReason]int `json:"-"`
	// Unlisted counts the files of directories and members of archives
	// not read because their names are not of a format the reader reads.
	Unlisted int `json:"files_not_read,omitempty"`
	// UnlistedExample names one of them: the first met (neardup-beam's,
	// the first of the first input that holds one, as the batch meets it).
	UnlistedExample string `json:"files_not_read_example,omitempty"`
	// UnreadDates counts the date values no layout reads: their
	// documents are undated.
	UnreadDates int `json:"dates_not_read,omitempty"`
	// UnreadDatesExample gives one of them and where it is, `"31/31/2020"
	// at a.jsonl:3`: the first in input order (neardup-beam's, the first
	// of the first input that holds one).
	UnreadDatesExample string `json:"dates_not_read_example,omitempty"`
	// CutWARCs counts the WARC files whose compressed stream is cut short
	// after a whole record, before any byte of the next (corpus's
	// CutWARCs): their records are read, the bytes after them ignored.
	CutWARCs int `json:"warc_files_cut_after_a_record,omitempty"`
	// DamagedWARCs counts the WARC files holding bytes where a record
	// should start that start none, after a record that ends well, or a
	// damaged gzip member (corpus's DamagedWARCs): they are skipped up to
	// the next record or member, and the records around them read.
	DamagedWARCs int `json:"warc_files_with_bytes_that_start_no_record,omitempty"`
	// DamagedWARCsExample names the first of them, with how many bytes and
	// where: "crawl.warc, 512 bytes at offset 7258".
	DamagedWARCsExample string `json:"warc_files_with_bytes_that_start_no_record_example,omitempty"`
	// GzipStrayBytes counts the gzip files (and gzip streams in archives)
	// whose last whole member is followed by bytes that start no other:
	// zero padding, a line end, junk (corpus's StrayBytes). Their records
	// are read, those bytes ignored. bzip2 files are counted apart
	// (Bzip2StrayBytes): the key names gzip, and counts gzip files only.
	GzipStrayBytes int `json:"gzip_files_with_stray_bytes,omitempty"`
	// GzipStrayBytesExample names the first of them and how many bytes it
	// holds: "news.jsonl.gz, 512 bytes" (neardup-beam's, the first of the
	// first input that holds one).
	GzipStrayBytesExample string `json:"gzip_files_with_stray_bytes_example,omitempty"`
	// Bzip2StrayBytes counts the bzip2 files (and bzip2 streams in
	// archives) whose last whole stream is followed by bytes that start
	// no other, as GzipStrayBytes counts gzip files.
	Bzip2StrayBytes int `json:"bzip2_files_with_stray_bytes,omitempty"`
	// Bzip2StrayBytesExample names the first of them and how many bytes
	// it holds, as GzipStrayBytesExample does.
	Bzip2StrayBytesExample string `json:"bzip2_files_with_stray_bytes_example,omitempty"`
	// Candidates counts candidate pairs verified exactly.
	Candidates int `json:"candidates_verified"`
	// Copies counts the documents verified against the first of their
	// many earlier exact copies alone (see Method.Copies).
	Copies int `json:"copies_checked_against_first,omitempty"`
	// Pairs counts reported pairs by label.
	Pairs map[core.Label]int `json:"pairs"`
	// Clusters counts groups of two or more duplicates; Clustered their
	// members; Kept the documents in the de-duplicated corpus.
	Clusters  int `json:"clusters"`
	Clustered int `json:"clustered_documents"`
	Kept      int `json:"kept"`
	// LargestCluster counts the members of the largest cluster, for the
	// run's warning of clusters that chain other stories together; not
	// written (a pipeline that sums counts has no such figure).
	LargestCluster int `json:"-"`
	// Hub is the id of the member of the largest cluster linked to the
	// most other members, HubLinks how many (counted as the cluster
	// counts links: duplicates, and similar pairs where they join), and
	// HubMedian how many its members have at the median; not written, as
	// LargestCluster is not.
	Hub       string `json:"-"`
	HubLinks  int    `json:"-"`
	HubMedian int    `json:"-"`
	// Spilled counts the documents whose sketches a memory budget sent to
	// disk (see Grouping.Memory).
	Spilled int `json:"sketches_spilled,omitempty"`
	// OverBudget, when positive, is the live heap in bytes at which a
	// memory budget was given up as too small: past 90 % of it, where the
	// collector would run without pause. The run went on past the budget
	// from there (see `neardup dedup --memory`).
	OverBudget int64 `json:"over_budget_bytes,omitempty"`
	// Bands is the LSH banding of the minhash method, "BxR".
	Bands string `json:"lsh_bands,omitempty"`
	// SimHashTables describes the candidate tables of the simhash method.
	SimHashTables string `json:"simhash_tables,omitempty"`
	// Joins count the work of the cosine joins of the tfidf and cosine
	// methods, one per field with a join.
	Joins []JoinCount `json:"joins,omitempty"`
	// Unweighted counts the documents of the tfidf and cosine methods
	// whose text held terms but none that weighs anything (under tfidf's
	// tm weighting, terms every document holds): their vectors are empty
	// and they pair with nothing.
	Unweighted int `json:"unweighted_documents,omitempty"`
	// NoSource counts the documents of the rarewords method, compared
	// across sources, that have no source where others have one: they
	// are counted as one source of their own, for the run's warning;
	// not written (a pipeline that sums counts has no such figure).
	NoSource int `json:"-"`
	// Boilerplate describes the sentences the sentences method ignored.
	Boilerplate *BoilerplateStats `json:"boilerplate,omitempty"`
	// Seconds per stage, by stage name.
	Seconds map[string]float64 `json:"seconds,omitempty"`
	// CPUSeconds per stage, user and system time of every thread, by
	// stage name: on a shared machine a stage's cost, where its wall time
	// is how busy the machine was.
	CPUSeconds map[string]float64 `json:"cpu_seconds,omitempty"`
	// PeakRSS is the process's peak resident memory in bytes.
	PeakRSS int64 `json:"peak_rss_bytes,omitempty"`
}

// BoilerplateStats describe sentences found in too many documents.
type BoilerplateStats struct {
	Sentences   int                `json:"distinct_sentences"`
	Occurrences int                `json:"occurrences"`
	Top         []FrequentSentence `json:"most_frequent"`
	// Documents counts the documents whose every sentence (of those long
	// enough to count) is boilerplate: they share no sentence that counts
	// with any document, and pair with nothing (the copies of a story
	// found in more documents than the limit among them).
	Documents int `json:"documents_all_boilerplate"`
	// MaxDocs is the limit: a sentence in more documents is boilerplate.
	MaxDocs int `json:"max_sentence_docs"`
}

// FrequentSentence is a boilerplate sentence and how many documents hold it.
// Text is empty when no reading of the input supplied it.
type FrequentSentence struct {
	Text string `json:"text"`
	Docs int    `json:"documents"`
}

// JoinCount is the work of one exact cosine join: the postings its
// inverted lists hold, those its queries read, the candidates they
// accumulated a score for, the dot products computed, and the pairs found
// at or above its threshold.
type JoinCount struct {
	Field      string  `json:"field"`
	Threshold  float64 `json:"threshold"`
	Postings   int     `json:"postings"`
	Scanned    int     `json:"postings_scanned"`
	Candidates int     `json:"candidates"`
	Verified   int     `json:"dot_products"`
	Found      int     `json:"found"`
}

// JoinCountOf is the JoinCount of the join of field at threshold t.
func JoinCountOf(field string, t float64, st candidates.JoinStats) JoinCount {
	return JoinCount{Field: field, Threshold: t, Postings: st.Indexed, Scanned: st.Scanned,
		Candidates: st.Candidates, Verified: st.Verified, Found: st.Found}
}
