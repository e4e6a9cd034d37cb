package lsh

// TakeKeys returns the band keys of s and drops from s what only indexing
// reads (engine.Spiller): they go to a Batch's spilled postings.
func (x *Table[S, E]) TakeKeys(s *S) []uint32 {
	keys := x.b.Keys(nil, s)
	if x.b.Indexed != nil {
		x.b.Indexed(s)
	}
	return keys
}

// BucketLimit is how many members of one bucket a document is compared
// with (engine.Spiller).
func (x *Table[S, E]) BucketLimit() int { return x.b.BucketLimit }

// SketchSize is about how many bytes s holds in memory with its keys'
// postings (engine.Spiller): Banding.Size's, or its sample's and keys'.
func (x *Table[S, E]) SketchSize(s *S) int {
	if x.b.Size != nil {
		return x.b.Size(s)
	}
	set, _ := x.b.Sample(s)
	return 100 + 4*len(set) + 8*len(x.b.Keys(nil, s))
}
