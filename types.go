package neardup

import (
	"maps"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/index"
)

// MethodOptions are a method's options: minhash.Options,
// sentences.Options, ..., made with the method package's Defaults.
type MethodOptions interface {
	// Method names the method the options are for.
	Method() string
	// Check returns an error naming the first option out of range.
	Check() error
}

// Status says what became of a document given to Index.Add, Replace or
// Query.
type Status string

// The statuses of a Match.
const (
	// Added is a document stored, with its matches, whose ID was not
	// stored before the call (AddSeq: before its chunk); an earlier
	// document of the call of its ID, which it replaced, is Superseded.
	Added Status = Status(index.Added)
	// Replaced is a document stored in place of a document of the same
	// ID stored before the call (AddSeq: before its chunk).
	Replaced Status = Status(index.Replaced)
	Exists   Status = Status(index.Exists)  // not stored: a document of the same ID is (Query: matched with the others)
	Checked  Status = Status(index.Checked) // checked by Query, not stored
	// Conflict is a document given to Add whose ID is stored with other
	// content (title, URL, source, date or text; Match.Differs names
	// them): not stored, the stored document left as it is. Replace
	// replaces it instead. Query reports such a document so too, with no
	// cluster and no original (the stored document's are another's).
	Conflict Status = Status(index.Conflict)
	// Unchanged is a document given with Replace that is the one stored
	// under its ID (title, URL, source, date and text): left as stored,
	// in its place among the documents of its date.
	Unchanged Status = Status(index.Unchanged)
	// Superseded is a document given to Add with Replace that a later
	// document of the same call, of its ID, replaced (AddSeq: of the
	// same chunk): not stored in the end, so with no cluster and no
	// matches; the later one's Match says what is stored.
	Superseded Status = Status(index.Superseded)
	// Skipped is a document given to Add without text, or with white
	// space alone (Match.Skip is core.SkipEmpty): not stored, as
	// neardup index add skips such a record, nor compared; a stored
	// document of its ID is left as it is, with Replace too.
	Skipped Status = Status(index.Skipped)
)

// Match is what adding or checking one document found: its status and its
// matches among the stored documents, best first.
type Match struct {
	// ID is the document's ID.
	ID string `json:"id"`
	// Status says whether the document was stored.
	Status Status `json:"status"`
	// Skip is why the method did not compare the document (too short,
	// no units, an exact copy ...); empty when it did.
	Skip SkipReason `json:"skipped,omitempty"`
	// Cluster is the number of the cluster the document joined; 0 for
	// none.
	Cluster int64 `json:"cluster,omitempty"`
	// Original is the ID of that cluster's original, its member published
	// first: the document's own ID when it is the original, else the one
	// it is a copy of. A document published before copies stored already
	// is their original once it is stored.
	Original string `json:"original,omitempty"`
	// Pairs are the document's matches among the stored documents, best
	// first, each as an index export writes it: A is the one of the two
	// placed first, the stored document unless this one is stored and
	// placed before it (a new version, AddOptions.Replace, where the
	// version it replaced stood; a stored document queried, Exists), and
	// the evidence is read that way round; a duplicate pair's Original
	// names the one of them published first.
	Pairs []Pair `json:"matches"`
	// Differs, for a Conflict, names the fields in which the document
	// differs from the stored one of its ID: "title", "url", "source",
	// "date", "text".
	Differs []string `json:"differs,omitempty"`
	// Copies, when the document is the original of a cluster stored
	// before it (published first, arrived later), are the IDs of the
	// cluster's other members, which copy it, matched with it or not.
	Copies []string `json:"-"`
}

// matches converts the engine's matches.
func matches(ms []index.Match, err error) ([]Match, error) {
	if ms == nil {
		return nil, err
	}
	out := make([]Match, len(ms))
	for i, m := range ms {
		out[i] = Match{ID: m.ID, Status: Status(m.Status), Skip: m.Skip, Cluster: m.Cluster, Original: m.Original, Pairs: m.Pairs,
			Differs: m.Differs, Copies: m.Copies}
	}
	return out, err
}

// Stats describe a batch run: Result.Stats of Dedup, and what
// Index.Rescore judged.
type Stats struct {
	// Method is the name of the method.
	Method string `json:"method"`
	// Read counts the items read: documents, and records that could not
	// be read as documents (a *RecordError of a reader).
	Read int `json:"records_read"`
	// Documents counts the documents among them, compared or skipped by
	// the method.
	Documents int `json:"documents"`
	// Skipped counts the records and documents not compared, by reason.
	Skipped map[SkipReason]int `json:"skipped"`
	// Candidates counts the candidate pairs verified exactly.
	Candidates int `json:"candidates_verified"`
	// Pairs counts the reported pairs by label.
	Pairs map[Label]int `json:"pairs"`
	// Clusters counts the groups of two or more duplicates; Clustered
	// their members.
	Clusters  int `json:"clusters"`
	Clustered int `json:"clustered_documents"`
	// Kept counts the documents of the de-duplicated corpus: those
	// compared that are in no cluster or represent their cluster.
	Kept int `json:"kept"`
	// Spilled counts the documents whose sketches went to disk under
	// Options.Memory.
	Spilled int `json:"sketches_spilled,omitempty"`
	// Copies counts the documents verified against the first of their
	// many earlier exact copies alone (the same title, text and date;
	// minhash and simhash, past the bucket limit).
	Copies int `json:"copies_checked_against_first,omitempty"`
	// Bands is the LSH banding of the minhash method, "BxR"; empty for
	// the other methods.
	Bands string `json:"lsh_bands,omitempty"`
	// SimHashTables describes the candidate tables of the simhash
	// method; empty for the others.
	SimHashTables string `json:"simhash_tables,omitempty"`
	// Seconds is the wall time of each stage, in seconds, by stage name:
	// "read_and_sketch", "candidates_verify_group", "reread" (when Dedup
	// read the documents a second time) and "results" (choosing the
	// clusters' representatives and handing on the pairs).
	Seconds map[string]float64 `json:"seconds,omitempty"`
}

// statsOf converts the engine's statistics.
func statsOf(st engine.Stats) Stats {
	return Stats{Method: st.Method, Read: st.Read, Documents: st.Documents, Skipped: maps.Clone(st.Skipped),
		Candidates: st.Candidates, Pairs: maps.Clone(st.Pairs), Clusters: st.Clusters, Clustered: st.Clustered,
		Kept: st.Kept, Spilled: st.Spilled, Copies: st.Copies, Bands: st.Bands, SimHashTables: st.SimHashTables, Seconds: maps.Clone(st.Seconds)}
}
