package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Truth is the labelled answer predictions are scored against: a clustering
// of documents or a set of labelled pairs. It is read once and not modified.
type Truth struct {
	by      string  // the field values were read from; "" for none
	direct  bool    // the breakdown counts only pairs with a member without values
	without []int32 // the breakdown leaves out documents with these values

	// Cluster form.
	ids       []string         // document ids in input order
	index     map[string]int32 // id → document
	cluster   []int32          // document → truth cluster
	nClusters int
	values    [][]int32  // document → distinct values of the by field, as indices into names
	names     []string   // the by field's values
	negatives [][2]int32 // documents that must not be merged
	docLines  []docLine  // where each document was read, while reading

	// Pair form.
	pairs     []labelledPair
	pairLines map[[2]string]pairLine // where each pair was first labelled
}

// labelledPair is one line of a pair-form truth.
type labelledPair struct {
	a, b     string
	positive bool
	values   []string
	weight   float64 // the inverse of the pair's probability of being drawn; 1 when not given
	stratum  string  // the stratum it was drawn from; "" when not given
}

// Pairs reports whether the truth is labelled pairs rather than clusters.
func (t *Truth) Pairs() bool { return t.pairs != nil }

// Documents returns the number of documents of a cluster-form truth.
func (t *Truth) Documents() int { return len(t.ids) }

// Clusters returns the number of clusters of a cluster-form truth,
// singletons included.
func (t *Truth) Clusters() int { return t.nClusters }

// SetDirect makes the breakdown of a cluster truth count only the pairs one
// of whose members has no value of the field. For the ops of a generated
// corpus these are the pairs of a copy and its own original, so each edit's
// recall is not mixed with that of the other copies of the story.
func (t *Truth) SetDirect(on bool) { t.direct = on }

// SetWithout makes the breakdown of a cluster truth leave out every
// document that has one of values ("ocr-heavy": the copies that also carry
// heavy OCR noise), so the recall of the other values is measured without
// them. A value no document has is an error.
func (t *Truth) SetWithout(values []string) error {
	t.without = t.without[:0]
	for _, v := range values {
		i := slices.Index(t.names, v)
		if i < 0 {
			return fmt.Errorf("eval: no document has %s %q", t.by, v)
		}
		t.without = append(t.without, int32(i))
	}
	return nil
}

// withoutNames returns the values SetWithout left out.
func (t *Truth) withoutNames() []string {
	var out []string
	for _, v := range t.without {
		out = append(out, t.names[v])
	}
	return out
}

// ErrMixedTruth is returned for a truth file with both document lines and
// pair lines.
var ErrMixedTruth = errors.New("eval: truth mixes {id, cluster} and {a, b, label} lines")

// ReadTruth reads a truth file. by names a field whose values break recall
// down ("" for none); in the cluster form it is read from each document's
// line, in the pair form from each pair's line.
func ReadTruth(r io.Reader, by string) (*Truth, error) {
	t := &Truth{by: by, index: map[string]int32{}}
	seed := maphash.MakeSeed() // for docLine.sum
	clusters := map[string]int32{}
	names := map[string]int32{}
	var negativeOf []string                 // per document; resolved after reading
	sawBy, seen := false, map[string]bool{} // seen: the fields of the first lines, for a message
	err := scanLines(r, func(line []byte, n int) error {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			if ute := (*json.UnmarshalTypeError)(nil); errors.As(err, &ute) {
				return fmt.Errorf("a JSON %s where a truth line is an object ({\"id\", \"cluster\"} or {\"a\", \"b\", \"label\"})", ute.Value)
			}
			return err
		}
		if _, ok := m[by]; ok && by != "" {
			sawBy = true
		}
		if n <= 100 {
			for k := range m {
				seen[k] = true
			}
		}
		if _, isPair := m["a"]; isPair {
			if t.ids != nil {
				return ErrMixedTruth
			}
			return t.addPair(m, n)
		}
		if t.pairs != nil {
			return ErrMixedTruth
		}
		neg, err := t.addDocument(m, clusters, names, docLine{line: n, sum: maphash.Bytes(seed, line)})
		negativeOf = append(negativeOf, neg)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading truth: %w", err)
	}
	if t.ids == nil && t.pairs == nil {
		return nil, errors.New("reading truth: no lines")
	}
	if by != "" && !sawBy {
		fields := slices.Sorted(maps.Keys(seen))
		return nil, fmt.Errorf("reading truth: no line has the field %q to break recall down by; fields seen: %s", by, strings.Join(fields, ", "))
	}
	t.nClusters = len(clusters)
	t.pairLines, t.docLines = nil, nil // what reading needed
	for d, other := range negativeOf {
		if o, ok := t.index[other]; ok && other != "" {
			t.negatives = append(t.negatives, [2]int32{int32(d), o})
		}
	}
	return t, nil
}

// docLine is where a document of a cluster-form truth was read: its line
// number and a hash of the whole line, which tells a line repeated exactly.
type docLine struct {
	line int
	sum  uint64
}

// addDocument adds one {id, cluster} line, read at at, and returns its
// negative_of id. An empty id is no id. An id read before is an error, a
// line repeated exactly included (where a pair labelled twice alike counts
// once, a document given twice is taken as a mistake whose intent cannot
// be told): it names the line the id was first read on, and says when this
// line repeats that one whole.
func (t *Truth) addDocument(m map[string]json.RawMessage, clusters, names map[string]int32, at docLine) (string, error) {
	id, ok := idOf(m["id"])
	if !ok || id == "" {
		return "", errors.New(`want "id" and "cluster", or "a", "b" and "label"`)
	}
	if d, dup := t.index[id]; dup {
		first := t.docLines[d]
		if first.sum == at.sum {
			return "", fmt.Errorf("id %q repeated: the line is a repeat of line %d", id, first.line)
		}
		return "", fmt.Errorf("id %q repeated (first on line %d)", id, first.line)
	}
	c, ok, err := clusterOf(m["cluster"])
	switch {
	case err != nil:
		return "", fmt.Errorf("id %q: %w", id, err)
	case !ok:
		return "", fmt.Errorf("id %q has no cluster", id)
	}
	var given []string
	if t.by != "" {
		given = valuesOf(m[t.by])
		if err := noneGiven(t.by, given); err != nil {
			return "", err
		}
	}
	ci, ok := clusters[c]
	if !ok {
		ci = int32(len(clusters))
		clusters[c] = ci
	}
	t.index[id] = int32(len(t.ids))
	t.ids = append(t.ids, id)
	t.docLines = append(t.docLines, at)
	t.cluster = append(t.cluster, ci)
	if t.by != "" {
		var vals []int32
		for _, v := range given {
			vi, ok := names[v]
			if !ok {
				vi = int32(len(t.names))
				names[v] = vi
				t.names = append(t.names, v)
			}
			if !slices.Contains(vals, vi) {
				vals = append(vals, vi)
			}
		}
		t.values = append(t.values, vals)
	}
	neg, _ := idOf(m["negative_of"])
	return neg, nil
}

// addPair adds the {a, b, label} line n. An empty id is no id. A pair of a
// document with itself, or a pair labelled again with another label,
// weight or stratum than before, is an error naming both lines: which
// holds cannot be told. A pair labelled again alike counts once. Every
// line's weight and stratum are checked, a repeat's as any line's.
func (t *Truth) addPair(m map[string]json.RawMessage, n int) error {
	a, okA := idOf(m["a"])
	b, okB := idOf(m["b"])
	if !okA || !okB || a == "" || b == "" {
		return errors.New(`a pair needs "a" and "b" ids`)
	}
	if a == b {
		return fmt.Errorf("a pair of %q with itself", a)
	}
	pos, err := parseLabel(m["label"])
	if err != nil {
		return err
	}
	w, err := parseWeight(m["weight"])
	if err != nil {
		return err
	}
	p := labelledPair{a: a, b: b, positive: pos, weight: w}
	if s := valuesOf(m["stratum"]); len(s) == 1 {
		p.stratum = s[0]
	} else if len(s) > 1 {
		return fmt.Errorf("stratum %s: want one value", m["stratum"])
	}
	if err := noneGiven("stratum", []string{p.stratum}); err != nil {
		return err
	}
	if t.by != "" {
		p.values = valuesOf(m[t.by])
		if err := noneGiven(t.by, p.values); err != nil {
			return err
		}
	}
	k := pairKey(a, b)
	if before, ok := t.pairLines[k]; ok {
		return repeated(p, t.pairs[before.pair], before.line)
	}
	if t.pairLines == nil {
		t.pairLines = map[[2]string]pairLine{}
	}
	t.pairLines[k] = pairLine{line: n, pair: len(t.pairs)}
	if t.pairs == nil {
		t.pairs = []labelledPair{}
	}
	t.pairs = append(t.pairs, p)
	return nil
}

// noneGiven refuses the value noneValue of field: it names the row of the
// pairs without a value (and of the pairs in no stratum), which a value of
// that name would be taken for.
func noneGiven(field string, values []string) error {
	if slices.Contains(values, noneValue) {
		return fmt.Errorf("field %q: the value %q names the pairs without one in the report: give another", field, noneValue)
	}
	return nil
}

// repeated checks a pair labelled again (p) against its first labelling
// (first, on line): nil when they are alike, else an error naming what
// differs and both lines.
func repeated(p, first labelledPair, line int) error {
	switch {
	case p.positive != first.positive:
		return fmt.Errorf("the pair %q, %q is labelled %s here and %s on line %d", p.a, p.b, labelName(p.positive), labelName(first.positive), line)
	case p.weight != first.weight:
		return fmt.Errorf("the pair %q, %q has weight %s here and %s on line %d", p.a, p.b, weightName(p.weight), weightName(first.weight), line)
	case p.stratum != first.stratum:
		return fmt.Errorf("the pair %q, %q is in %s here and %s on line %d", p.a, p.b, stratumName(p.stratum), stratumName(first.stratum), line)
	}
	return nil // labelled again alike: counted once
}

// pairLine is where a truth pair was first labelled, and its place in
// Truth.pairs.
type pairLine struct {
	line int
	pair int
}

// weightName writes a weight as a line gives it (1 when absent).
func weightName(w float64) string { return strconv.FormatFloat(w, 'g', -1, 64) }

// stratumName names a stratum as a message writes it.
func stratumName(s string) string {
	if s == "" {
		return "no stratum"
	}
	return fmt.Sprintf("stratum %q", s)
}

// labelName names a truth label as a line gives it.
func labelName(positive bool) string {
	if positive {
		return "a duplicate"
	}
	return "not a duplicate"
}

// clusterMembers returns the documents of each truth cluster, in one slice
// of document indices ordered by cluster, and where each cluster starts.
func (t *Truth) clusterMembers() (docs []int32, start []int) {
	start = make([]int, t.nClusters+1)
	for _, c := range t.cluster {
		start[c+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	docs = make([]int32, len(t.cluster))
	next := slices.Clone(start[:t.nClusters])
	for d, c := range t.cluster {
		docs[next[c]] = int32(d)
		next[c]++
	}
	return docs, start
}

// ReadTruthFile reads the truth in the file name (see ReadTruth); errors in
// its content name the file.
func ReadTruthFile(name, by string) (*Truth, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTruth(f, by)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t, nil
}
