package candidates

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/internal/similarity"
)

// randomVectors returns n L2-normalised TF-IDF vectors over a Zipf
// vocabulary (term 0 the most frequent), a third of them edited copies of
// earlier ones so that every threshold has pairs above it.
func randomVectors(seed uint64, n, vocab int) []similarity.Sparse {
	r := rand.New(rand.NewPCG(seed, 7))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(vocab-1))
	docs := make([][]uint32, n)
	for i := range docs {
		if i > 0 && r.IntN(3) == 0 {
			src := docs[r.IntN(i)]
			d := slices.Clone(src)
			for e := r.IntN(len(d)/2 + 1); e > 0; e-- {
				d[r.IntN(len(d))] = uint32(zipf.Uint64())
			}
			docs[i] = d
			continue
		}
		d := make([]uint32, 5+r.IntN(150))
		for k := range d {
			d[k] = uint32(zipf.Uint64())
		}
		docs[i] = d
	}
	df := make([]int, vocab)
	for _, d := range docs {
		s := slices.Compact(slices.Sorted(slices.Values(d)))
		for _, t := range s {
			df[t]++
		}
	}
	vecs := make([]similarity.Sparse, n)
	for i, d := range docs {
		slices.Sort(d)
		var v similarity.Sparse
		var w []float64
		for k := 0; k < len(d); {
			e := k
			for e < len(d) && d[e] == d[k] {
				e++
			}
			v.Terms = append(v.Terms, d[k])
			w = append(w, float64(e-k)*math.Log(float64(n+1)/float64(df[d[k]])))
			k = e
		}
		var norm float64
		for _, x := range w {
			norm += x * x
		}
		for _, x := range w {
			v.Weights = append(v.Weights, float32(x/math.Sqrt(norm)))
		}
		vecs[i] = v
	}
	return vecs
}

type scored struct {
	A, B  int32
	Score float64
}

// pairScores returns every pair a < b of vecs with its score, ordered by
// b, then a: what comparing every pair finds at threshold 0.
func pairScores(vecs []similarity.Sparse) []scored {
	var out []scored
	for b := range vecs {
		for a := range b {
			out = append(out, scored{int32(a), int32(b), similarity.Dot(vecs[b], vecs[a])})
		}
	}
	return out
}

// atLeast returns the pairs of all that score t or more, in order.
func atLeast(all []scored, t float64) []scored {
	var out []scored
	for _, p := range all {
		if p.Score >= t {
			out = append(out, p)
		}
	}
	return out
}

func joined(vecs []similarity.Sparse, t float64, bound bool) ([]scored, JoinStats) {
	j := NewAllPairs(t, func(id int32) similarity.Sparse { return vecs[id] })
	if bound {
		j.SetQueryBound(queryBound(vecs))
	}
	var out []scored
	for b, v := range vecs {
		j.Query(v, func(a int32, s float64) { out = append(out, scored{a, int32(b), s}) })
		j.Add(int32(b), v)
	}
	return out, j.Stats()
}

func TestAllPairsEqualsBruteForce(t *testing.T) {
	n := 400
	if os.Getenv("NEARDUP_LONG") != "" {
		n = 1000
	}
	vecs := randomVectors(1, n, 3000)
	vecs = append(vecs, similarity.Sparse{}, vecs[3], vecs[3]) // empty and exact copies
	all := pairScores(vecs)
	for _, th := range []float64{0.1, 0.2, 0.5, 0.7, 0.85, 0.99, 1} {
		want := atLeast(all, th)
		for _, bound := range []bool{false, true} {
			t.Run(fmt.Sprintf("t=%v bound=%v", th, bound), func(t *testing.T) {
				got, st := joined(vecs, th, bound)
				if !slices.Equal(want, got) {
					t.Fatalf("(-brute force +join)\n%s", cmp.Diff(want, got))
				}
				if all := len(vecs) * (len(vecs) - 1) / 2; th >= 0.5 && st.Verified > all/10 {
					t.Errorf("verified %d of %d pairs: the bounds prune too little", st.Verified, all)
				}
				t.Logf("%d pairs; %+v", len(want), st)
			})
		}
	}
}

// TestQueryBeforeEqualsBruteForce: with every vector added first, queriers
// asking in any order for the vectors before each one find what comparing
// every pair finds, with the same scores, and count their work.
func TestQueryBeforeEqualsBruteForce(t *testing.T) {
	vecs := randomVectors(2, 400, 3000)
	vecs = append(vecs, similarity.Sparse{}, vecs[5], vecs[5])
	all := pairScores(vecs)
	for _, th := range []float64{0.1, 0.5, 0.85} {
		for _, bound := range []bool{false, true} {
			j := NewAllPairs(th, func(id int32) similarity.Sparse { return vecs[id] })
			if bound {
				j.SetQueryBound(queryBound(vecs))
			}
			for b, v := range vecs {
				j.Add(int32(b), v)
			}
			got := make([][]scored, len(vecs))
			qs := []*Querier{j.NewQuerier(), j.NewQuerier()}
			for i, b := range rand.New(rand.NewPCG(3, 3)).Perm(len(vecs)) {
				qs[i%2].QueryBefore(vecs[b], int32(b), func(a int32, s float64) { got[b] = append(got[b], scored{a, int32(b), s}) })
			}
			want := atLeast(all, th)
			if flat := slices.Concat(got...); !slices.Equal(want, flat) {
				t.Fatalf("t=%v bound=%v: (-brute force +queriers)\n%s", th, bound, cmp.Diff(want, flat))
			}
			st := j.Stats()
			if st.Found != len(want) || st.Verified < st.Found || st.Scanned == 0 {
				t.Errorf("t=%v bound=%v: stats %+v for %d pairs", th, bound, st, len(want))
			}
			// IDsBefore finds the same pairs, in the same order, and
			// decides some without a dot product.
			var ids, wantIDs []int32
			for b := range vecs {
				qs[b%2].IDsBefore(vecs[b], int32(b), func(a int32) { ids = append(ids, a, int32(b)) })
			}
			for _, p := range want {
				wantIDs = append(wantIDs, p.A, p.B)
			}
			if !slices.Equal(wantIDs, ids) {
				t.Fatalf("t=%v bound=%v: IDsBefore (-brute force +queriers)\n%s", th, bound, cmp.Diff(wantIDs, ids))
			}
			// Random vectors have prefixes of at most two terms only at a
			// low threshold and without query bounds.
			if st2 := j.Stats(); st2.Found-st.Found != len(want) || st2.Verified-st.Verified > st.Verified ||
				th < 0.5 && !bound && st2.Verified-st.Verified >= st.Verified {
				t.Errorf("t=%v bound=%v: IDsBefore verified %d of %d pairs (QueryBefore %d)", th, bound,
					st2.Verified-st.Verified, len(want), st.Verified)
			}
		}
	}
}

func TestAllPairsSparseIDsAndQueryWithoutAdd(t *testing.T) {
	v := similarity.Sparse{Terms: []uint32{1, 5}, Weights: []float32{0.6, 0.8}}
	vecs := map[int32]similarity.Sparse{7: v, 100: {Terms: []uint32{5}, Weights: []float32{1}}}
	j := NewAllPairs(0.5, func(id int32) similarity.Sparse { return vecs[id] })
	j.Add(100, vecs[100])
	j.Add(7, v)
	var got []scored
	for range 2 { // a query leaves no state behind
		got = got[:0]
		j.Query(v, func(id int32, s float64) { got = append(got, scored{id, -1, math.Round(s*1e6) / 1e6}) })
	}
	want := []scored{{7, -1, 1}, {100, -1, 0.8}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestAllPairsRemove removes a third of the vectors, some before and some
// after others are added, and checks that every query then returns what
// brute force over the vectors still in the join returns.
func TestAllPairsRemove(t *testing.T) {
	n := 250
	if os.Getenv("NEARDUP_LONG") != "" {
		n = 600
	}
	vecs := randomVectors(3, n, 2000)
	dots := make([][]float64, len(vecs)) // dots[q][a]: what brute force compares
	for q := range vecs {
		for a := range vecs {
			dots[q] = append(dots[q], similarity.Dot(vecs[q], vecs[a]))
		}
	}
	for _, th := range []float64{0.1, 0.5, 0.85} {
		for _, bound := range []bool{false, true} {
			t.Run(fmt.Sprintf("t=%v bound=%v", th, bound), func(t *testing.T) {
				j := NewAllPairs(th, func(id int32) similarity.Sparse { return vecs[id] })
				if bound {
					j.SetQueryBound(queryBound(vecs))
				}
				live := map[int32]bool{}
				r := rand.New(rand.NewPCG(4, 5))
				for b, v := range vecs {
					j.Add(int32(b), v)
					live[int32(b)] = true
					if r.IntN(3) == 0 { // remove a random live vector, maybe this one
						id := int32(r.IntN(b + 1))
						j.Remove(id)
						j.Remove(id) // a second removal is ignored
						delete(live, id)
					}
				}
				j.Remove(int32(len(vecs) + 5)) // never added
				for q := range vecs {
					var want, got []scored
					for a := range vecs {
						if s := dots[q][a]; live[int32(a)] && s >= th {
							want = append(want, scored{int32(a), int32(q), s})
						}
					}
					j.Query(vecs[q], func(a int32, s float64) { got = append(got, scored{a, int32(q), s}) })
					if !slices.Equal(want, got) {
						t.Fatalf("query %d: (-brute force +join)\n%s", q, cmp.Diff(want, got))
					}
				}
				indexed := 0
				for _, l := range j.lists {
					indexed += len(l)
				}
				if st := j.Stats(); st.Indexed != indexed || len(live) > len(vecs)*4/5 || len(live) < len(vecs)/2 {
					t.Errorf("%d postings counted, %d in the lists; %d of %d vectors live", st.Indexed, indexed, len(live), len(vecs))
				}
			})
		}
	}
}

// queryBound returns the largest weight of each term among vecs.
func queryBound(vecs []similarity.Sparse) []float32 {
	var qmax []float32
	for _, v := range vecs {
		for k, term := range v.Terms {
			for int(term) >= len(qmax) {
				qmax = append(qmax, 0)
			}
			qmax[term] = max(qmax[term], v.Weights[k])
		}
	}
	return qmax
}

func BenchmarkAllPairs(b *testing.B) {
	vecs := randomVectors(2, 20000, 50000)
	for _, th := range []float64{0.2, 0.5, 0.85} {
		b.Run(fmt.Sprint("t=", th), func(b *testing.B) {
			for b.Loop() {
				_, st := joined(vecs, th, true)
				b.ReportMetric(float64(st.Scanned)/float64(len(vecs)), "scanned/doc")
			}
			b.ReportMetric(float64(len(vecs)*b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// TestIDsBeforeAtTheThreshold: a pair whose summed score is the least
// score that meets the threshold (the threshold less its
// similarity.Tolerance) is decided by Dot, and reported as Dot decides.
func TestIDsBeforeAtTheThreshold(t *testing.T) {
	vecs := []similarity.Sparse{
		{Terms: []uint32{1}, Weights: []float32{1}},
		{Terms: []uint32{1, 2}, Weights: []float32{0.5, float32(math.Sqrt(0.75))}},
	}
	th := (0.5 + similarity.SumSlack) / (1 - similarity.Slack) // less its tolerance, 0.5
	j := NewAllPairs(th, func(id int32) similarity.Sparse { return vecs[id] })
	for b, v := range vecs {
		j.Add(int32(b), v)
	}
	var got []int32
	j.NewQuerier().IDsBefore(vecs[1], 1, func(a int32) { got = append(got, a) })
	var want []int32
	if similarity.Meets(similarity.Dot(vecs[0], vecs[1]), th) {
		want = []int32{0}
	}
	if !slices.Equal(got, want) || j.Stats().Verified != 1 {
		t.Errorf("found %v with %+v, want %v verified once", got, j.Stats(), want)
	}
}

// FuzzAllPairs: for any small set of vectors of norm 1 built from the input
// (few terms, so that vectors share many), and any threshold, the join and
// its queriers report exactly the pairs and scores of brute force, with and
// without query bounds.
func FuzzAllPairs(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 1, 2, 0, 3, 2, 1, 0, 1, 1, 1}, uint8(100))
	f.Add([]byte{0, 0, 0, 7, 7, 7, 0, 5, 6, 7, 0, 5, 6, 7, 8}, uint8(255))
	f.Add([]byte{9, 200, 3, 0, 9, 201, 3, 0, 1, 0, 0, 2}, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, level uint8) {
		// A zero byte ends a vector; each other byte is a term (its low
		// five bits) and a weight (its high three, plus one).
		var vecs []similarity.Sparse
		weights := map[uint32]float64{}
		flush := func() {
			var v similarity.Sparse
			var n2 float64
			for term := range weights {
				v.Terms = append(v.Terms, term)
			}
			slices.Sort(v.Terms)
			for _, term := range v.Terms {
				n2 += weights[term] * weights[term]
			}
			for _, term := range v.Terms {
				v.Weights = append(v.Weights, float32(weights[term]/math.Sqrt(n2)))
			}
			vecs = append(vecs, v)
			clear(weights)
		}
		for _, b := range data {
			if b == 0 {
				flush()
				continue
			}
			weights[uint32(b&31)] += float64(b>>5) + 1
		}
		flush()
		if len(vecs) > 60 {
			vecs = vecs[:60]
		}
		th := 0.02 + 0.98*float64(level)/255
		want := atLeast(pairScores(vecs), th)
		for _, bound := range []bool{false, true} {
			if got, _ := joined(vecs, th, bound); !slices.Equal(want, got) {
				t.Fatalf("t=%v bound=%v: (-brute force +join)\n%s", th, bound, cmp.Diff(want, got))
			}
			j := NewAllPairs(th, func(id int32) similarity.Sparse { return vecs[id] })
			if bound {
				j.SetQueryBound(queryBound(vecs))
			}
			for b, v := range vecs {
				j.Add(int32(b), v)
			}
			q := j.NewQuerier()
			var got []scored
			var ids, wantIDs [][2]int32
			for b, v := range vecs {
				q.QueryBefore(v, int32(b), func(a int32, s float64) { got = append(got, scored{a, int32(b), s}) })
				q.IDsBefore(v, int32(b), func(a int32) { ids = append(ids, [2]int32{a, int32(b)}) })
			}
			if !slices.Equal(want, got) {
				t.Fatalf("t=%v bound=%v: (-brute force +QueryBefore)\n%s", th, bound, cmp.Diff(want, got))
			}
			for _, p := range want {
				wantIDs = append(wantIDs, [2]int32{p.A, p.B})
			}
			if !slices.Equal(wantIDs, ids) {
				t.Fatalf("t=%v bound=%v: IDsBefore (-brute force +queriers)\n%s", th, bound, cmp.Diff(wantIDs, ids))
			}
		}
	})
}

// TestCutEqualsLinearCount: the binary searches run in step cut every
// query term's list where a count of its ids below the document does, for
// lists of every length from empty to 70, with ids spread, clumped or
// gapped, and cut points before, inside and after each.
func TestCutEqualsLinearCount(t *testing.T) {
	j := NewAllPairs(0.5, nil)
	var x similarity.Sparse
	for n := range 71 {
		list := make([]posting, n)
		id := int32(n % 3)
		for i := range list {
			list[i].id = id
			id += 1 + int32(i%4*(i%5)) // gaps of 1 to 13, unevenly
		}
		j.lists = append(j.lists, list)
		x.Terms = append(x.Terms, uint32(n))
		x.Weights = append(x.Weights, 1)
	}
	x.Terms = append(x.Terms, uint32(len(j.lists)+5)) // a term with no list
	x.Weights = append(x.Weights, 1)
	q := j.NewQuerier()
	for before := int32(-1); before <= 500; before++ {
		q.cut(x, before)
		for k, term := range x.Terms {
			want := 0
			if int(term) < len(j.lists) {
				for _, p := range j.lists[term] {
					if p.id < before {
						want++
					}
				}
			}
			if got := len(q.lists[k]); got != want {
				t.Fatalf("before %d, list of %d postings: cut at %d, want %d", before, len(j.lists[term]), got, want)
			}
		}
	}
	q.cut(x, math.MaxInt32) // Query: nothing is cut
	for k := range j.lists {
		if len(q.lists[k]) != len(j.lists[k]) {
			t.Fatalf("Query cut list %d at %d of %d", k, len(q.lists[k]), len(j.lists[k]))
		}
	}
}

// TestPairAtTheThreshold is the regression test of a pair whose exact
// cosine is the threshold, 17/20, computed from 32-bit weights a hair
// under it (0.84999998): the join lost it, its Query, its QueryBefore
// and its IDsBefore alike. It meets the threshold (similarity.Meets).
func TestPairAtTheThreshold(t *testing.T) {
	unit := func(terms ...uint32) similarity.Sparse {
		w := make([]float32, len(terms))
		for i := range w {
			w[i] = float32(1 / math.Sqrt(float64(len(terms))))
		}
		return similarity.Sparse{Terms: terms, Weights: w}
	}
	var a, b []uint32
	for i := range uint32(17) {
		a, b = append(a, i), append(b, i)
	}
	a, b = append(a, 20, 21, 22), append(b, 30, 31, 32)
	vecs := []similarity.Sparse{unit(a...), unit(b...)}
	if d := similarity.Dot(vecs[0], vecs[1]); d >= 0.85 {
		t.Fatalf("Dot %v: not under 0.85, the case tests nothing", d)
	}
	j := NewAllPairs(0.85, func(id int32) similarity.Sparse { return vecs[id] })
	j.Add(0, vecs[0])
	var query, before, ids []int32
	j.Query(vecs[1], func(id int32, _ float64) { query = append(query, id) })
	j.Add(1, vecs[1])
	q := j.NewQuerier()
	q.QueryBefore(vecs[1], 1, func(id int32, _ float64) { before = append(before, id) })
	q.IDsBefore(vecs[1], 1, func(id int32) { ids = append(ids, id) })
	for _, got := range [][]int32{query, before, ids} {
		if !slices.Equal(got, []int32{0}) {
			t.Errorf("Query, QueryBefore, IDsBefore found %v, %v, %v; want [0] each", query, before, ids)
			break
		}
	}
}
