package gen

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// prepared is a base split into paragraphs and sentences, ready to be
// turned into articles. It is never modified after preparation.
type prepared struct {
	id        string
	title     string
	place     string
	date      time.Time
	paras     [][]string
	templated bool
}

// Reasons a base is not used, counted in Stats.
const (
	dropShort = iota // fewer than MinWords words
	dropExact        // same words as an earlier base
	dropNear         // shares most of the word 5-grams of one earlier base or of its own with it
	numDrops
)

// prepare splits the bases and drops those that are too short or that
// duplicate an earlier base, so that the truth never calls two real copies of
// one story different documents.
func prepare(bases []Base, opts *Options) ([]prepared, [numDrops]int) {
	var drops [numDrops]int
	out := make([]prepared, 0, len(bases))
	near := newNearIndex()
	exact := map[uint64]bool{}
	for i, b := range bases {
		ws := words(b.Text)
		if len(ws) < opts.MinWords {
			drops[dropShort]++
			continue
		}
		h := xxhash.Sum64String(strings.Join(ws, " "))
		if exact[h] {
			drops[dropExact]++
			continue
		}
		exact[h] = true
		if !opts.KeepNaturalDuplicates && near.duplicate(ws, len(out)) {
			drops[dropNear]++
			continue
		}
		out = append(out, prepareOne(b, i))
	}
	return out, drops
}

func prepareOne(b Base, i int) prepared {
	p := prepared{id: b.ID, title: b.Title, place: b.Dateline, date: b.Date}
	if p.id == "" {
		p.id = "base:" + strconv.Itoa(i)
	}
	for _, para := range splitParagraphs(b.Text) {
		p.paras = append(p.paras, splitSentences(para))
	}
	p.templated = isTemplated(p.paras)
	return p
}

// nearShingle is the word n-gram size of the natural-duplicate check, and
// nearContainment the share of either base's n-grams found in the other that
// makes a base a duplicate of an earlier one.
const (
	nearShingle     = 5
	nearContainment = 0.5
)

// nearIndex finds bases that repeat an earlier kept base: most of the new
// base's word 5-grams occur in the earlier one (a repeat or a correction), or
// most of the earlier one's occur in the new base (a flash followed by the
// full story, an update that adds paragraphs). It keeps, for each 5-gram
// hash, the first base that had it, and each kept base's 5-gram count.
type nearIndex struct {
	first map[uint64]int32
	size  []int // size[id] is the number of distinct 5-grams of kept base id
	hits  map[int32]int
}

func newNearIndex() *nearIndex {
	return &nearIndex{first: map[uint64]int32{}, hits: map[int32]int{}}
}

// duplicate reports whether ws and one indexed base mostly contain each
// other's 5-grams, either way; if not, it indexes ws as base id, which must
// be the number of bases indexed so far.
func (x *nearIndex) duplicate(ws []string, id int) bool {
	hashes := shingleHashes(ws, nearShingle)
	clear(x.hits)
	for _, h := range hashes {
		if d, ok := x.first[h]; ok {
			x.hits[d]++
		}
	}
	for d, n := range x.hits {
		if float64(n) >= nearContainment*float64(min(len(hashes), x.size[d])) {
			return true
		}
	}
	for _, h := range hashes {
		if _, ok := x.first[h]; !ok {
			x.first[h] = int32(id)
		}
	}
	x.size = append(x.size, len(hashes))
	return false
}

// shingleHashes returns the distinct hashes of the word n-grams of ws (one
// hash of the whole text when it is shorter than n).
func shingleHashes(ws []string, n int) []uint64 {
	wh := make([]uint64, len(ws))
	for i, w := range ws {
		wh[i] = xxhash.Sum64String(w)
	}
	var out []uint64
	for i := 0; i+n <= len(ws) || (i == 0 && len(ws) < n); i++ {
		h := uint64(0x9e3779b97f4a7c15)
		for _, x := range wh[i:min(i+n, len(ws))] {
			h = (h ^ x) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		out = append(out, h)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sentences returns the number of sentences of the base.
func (p *prepared) sentences() int {
	n := 0
	for _, para := range p.paras {
		n += len(para)
	}
	return n
}
