package index

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/store"
)

// heirs is what a removal does for the exact copies (AddOptions.Exact) of
// the documents it removes, and the documents those copied: stored without
// a sketch, a copy whose original goes would otherwise copy nothing, in no
// cluster, and no near duplicate of its story would match it.
//
// The exact marks join each story's documents: its first, the head, which
// was compared and sketched (or skipped for a reason of its own), and its
// copies, which were not. The documents removed that exact marks join
// make holes, and the documents left that are marked with a hole's are
// joined again, each to one of them, the heir. When the hole held the
// head, the heir takes its place: the first copy by content (the same
// title and text, white space and case aside), else the first. It is
// given a sketch: its own, made from its stored text, when the index keeps
// texts; else the head's, which a copy by URL or slug takes as the index
// took it for the same article when it stored it, never comparing the two.
// When it has the head's sketch, or the head's content, it takes the
// head's marks of the index's method too, so that the near duplicates of
// the story stay its duplicates, as a rescore finds them: with the head's
// sketch, as they are; with a sketch of its own text, judged again
// (judgeAgain), since a copy of the head's title and text can differ from
// it in what the method reads besides (its date, its source). Otherwise the
// heir is the head, when it is left, else the first stored. Each exact
// mark made so says what its two documents share: the same content, else
// the same URL, else what the copy shared with the removed document it
// was marked with (the evidence of that mark). Each exact key a removed
// document held that applies to a document joined again (its content
// hash, its URL's, the slug it shared) passes to the first such document,
// so that later copies find it.
//
// A removal reads the records of the documents it removes, the heir's
// text and the head's sketch for this alone, and fails for none that does
// not match its checksum (removing a damaged document mends the index):
// such a record is left out, and a hole with a removed document left out
// has no heir that takes the head's place, whether it held the head not
// known, unless every document left is a copy (then the head was removed,
// and the first copy takes its place with a sketch of its own text, where
// the index keeps texts); a text or sketch left out gives the heir no
// sketch. A record of
// a document left is left out the same way (no heir, no key), but it is
// read again to place the document (see recluster).
type heirs struct {
	marks []store.Mark
	// again are the marks taken from heads that are to be judged again
	// once the heirs are loaded (see judgeAgain), as taken.
	again    []store.Mark
	sketches map[int64]heirSketch // by the document taking a head's place
	keys     map[uint64]int64     // an exact key → the document it passes to
	joined   []int64              // every document joined again, to be placed again
}

// heirSketch is what a document taking a head's place is given: a sketch
// (nil for none) and the reason it has none.
type heirSketch struct {
	sk   *store.Sketch
	skip core.SkipReason
}

// hole is a group of documents removed that exact marks join, and the
// documents left that exact marks join to them.
type hole struct {
	removed []int64
	left    []int64          // in the order stored
	ev      map[int64][]byte // by document left: the evidence of its mark
}

// succession is a head removed and the heir that takes its marks; again
// when they are to be judged again, the heir given a sketch of its own
// text.
type succession struct {
	head, heir int64
	again      bool
}

// findHeirs reads, before documents ords are removed, what their removal
// does for the documents exact marks join to them; nil when it joins none.
func (x *Index) findHeirs(w store.Writer, ords []int64) (*heirs, error) {
	gone := make(map[int64]bool, len(ords))
	for _, o := range ords {
		gone[o] = true
	}
	ms, err := w.MethodMarks(ExactMethod, ords)
	if err != nil {
		return nil, err
	}
	holes := holesOf(ms, gone)
	if len(holes) == 0 {
		return nil, nil
	}
	h := &heirs{sketches: map[int64]heirSketch{}, keys: map[uint64]int64{}}
	var read, left []int64
	for _, hl := range holes {
		read = append(append(read, hl.removed...), hl.left...)
		left = append(left, hl.left...)
	}
	byOrd, err := readable(w, read)
	if err != nil {
		return nil, err
	}
	var took []succession
	for _, hl := range holes {
		heir, head, err := x.takeHead(w, hl, byOrd, h)
		if err != nil {
			return nil, err
		}
		if head != 0 {
			took = append(took, succession{head, heir, x.meta.StoreText})
		}
		for _, o := range hl.left {
			if o != heir {
				h.marks = append(h.marks, exactMark(heir, o, joinedEvidence(byOrd[heir], byOrd[o], hl.ev[o])))
			}
		}
		h.joined = append(h.joined, hl.left...)
	}
	if err := h.dropMarked(w, left); err != nil {
		return nil, err
	}
	if err := h.inherit(w, x.spec.Name, took, gone); err != nil {
		return nil, err
	}
	return h, h.passKeys(w, gone, holes, byOrd)
}

// readable returns, by ordinal, the stored documents of ords whose records
// match their checksums: the others are left out (see heirs). Records that
// do not are read again one at a time, to find which.
func readable(r store.Reader, ords []int64) (map[int64]*store.Doc, error) {
	docs, err := r.Docs(ords)
	var ce *store.ChecksumError
	if errors.As(err, &ce) {
		docs = docs[:0]
		for _, o := range ords {
			d, err := r.Docs([]int64{o})
			if errors.As(err, &ce) {
				continue
			}
			if err != nil {
				return nil, err
			}
			docs = append(docs, d...)
		}
	} else if err != nil {
		return nil, err
	}
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	return byOrd, nil
}

// holesOf groups the documents gone that exact marks ms join (those of
// ords, see Reader.MethodMarks) into holes, in the order of their first
// removed document, each with the documents left the marks join to it.
func holesOf(ms []store.Mark, gone map[int64]bool) []*hole {
	up := map[int64]int64{} // union-find over the documents removed
	find := func(o int64) int64 {
		for up[o] != 0 && up[o] != o {
			o = up[o]
		}
		return o
	}
	for _, m := range ms {
		if gone[m.A] && gone[m.B] {
			if a, b := find(m.A), find(m.B); a != b {
				up[max(a, b)] = min(a, b)
			}
		}
	}
	byRoot := map[int64]*hole{}
	for _, m := range ms {
		in, out := m.A, m.B
		switch {
		case gone[m.A] && gone[m.B]:
			continue
		case gone[m.B]:
			in, out = m.B, m.A
		}
		r := find(in)
		hl := byRoot[r]
		if hl == nil {
			hl = &hole{ev: map[int64][]byte{}}
			byRoot[r] = hl
		}
		if _, ok := hl.ev[out]; !ok {
			hl.left, hl.ev[out] = append(hl.left, out), m.Evidence
		}
	}
	seen := map[int64]bool{}
	for _, m := range ms {
		for _, o := range []int64{m.A, m.B} {
			if hl := byRoot[find(o)]; gone[o] && hl != nil && !seen[o] {
				hl.removed, seen[o] = append(hl.removed, o), true
			}
		}
	}
	out := make([]*hole, 0, len(byRoot))
	for _, r := range slices.Sorted(maps.Keys(byRoot)) {
		hl := byRoot[r]
		slices.Sort(hl.left)
		out = append(out, hl)
	}
	return out
}

// takeHead returns the heir of hole hl, the document the others left are
// joined to, and, when it takes the place of the head the hole held and
// that head's marks of the index's method, that head (else 0); it puts in
// h the sketch the heir is given (see heirs).
func (x *Index) takeHead(r store.Reader, hl *hole, byOrd map[int64]*store.Doc, h *heirs) (heir, from int64, err error) {
	var head *store.Doc
	for _, o := range hl.removed {
		if d := byOrd[o]; d != nil && d.Skip != core.SkipExactCopy {
			head = d
		}
	}
	read := slices.DeleteFunc(slices.Clone(hl.left), func(o int64) bool { return byOrd[o] == nil })
	if head == nil || len(read) == 0 {
		if k := slices.IndexFunc(read, func(o int64) bool { return byOrd[o].Skip != core.SkipExactCopy }); k >= 0 {
			return read[k], 0, nil // the head, left
		}
		if len(read) > 0 && x.meta.StoreText {
			// Every document left is a copy, so the head was removed,
			// its record left out: the first copy takes its place with a
			// sketch of its own text.
			d := byOrd[read[0]]
			stored, err := r.Doc(d.ID)
			if errors.As(err, new(*store.ChecksumError)) {
				return d.Ord, 0, nil // a damaged text: no sketch
			}
			if err != nil {
				return 0, 0, err
			}
			h.sketches[d.Ord] = x.sketchStored(&stored)
			return d.Ord, 0, nil
		}
		return hl.left[0], 0, nil
	}
	k := slices.IndexFunc(read, func(o int64) bool { return byOrd[o].Hash == head.Hash })
	d := byOrd[read[max(k, 0)]]
	if d.Skip != core.SkipExactCopy {
		return d.Ord, 0, nil // no copy: it has what it was given
	}
	sk, err := x.sketchOf(r, head, d)
	if ce := (*store.ChecksumError)(nil); errors.As(err, &ce) {
		return d.Ord, 0, nil // a damaged sketch or text: no sketch
	}
	if err != nil {
		return 0, 0, err
	}
	h.sketches[d.Ord] = sk
	if !x.meta.StoreText || d.Hash == head.Hash {
		from = head.Ord
	}
	return d.Ord, from, nil
}

// sketchOf returns the sketch document d is given in place of head: its
// own, made from its stored text, when the index keeps texts; else head's.
func (x *Index) sketchOf(r store.Reader, head, d *store.Doc) (heirSketch, error) {
	if !x.meta.StoreText {
		if head.Skip != core.SkipNone {
			return heirSketch{skip: head.Skip}, nil
		}
		sk, err := r.Sketch(head.Ord)
		return heirSketch{sk: &sk}, err
	}
	stored, err := r.Doc(d.ID)
	if err != nil {
		return heirSketch{}, err
	}
	return x.sketchStored(&stored), nil
}

// sketchStored returns the sketch of stored document d, read with its
// text, as an add of it makes it.
func (x *Index) sketchStored(d *store.Doc) heirSketch {
	doc := storedDocument(d)
	ls := x.live.NewSketcher().Sketch(&doc)
	if ls.Skip() != core.SkipNone {
		return heirSketch{skip: ls.Skip()}
	}
	index, detail := ls.Encoded()
	return heirSketch{sk: &store.Sketch{Index: index, Detail: detail}}
}

// storedDocument is stored document d as it was added, its text as read.
func storedDocument(d *store.Doc) core.Document {
	doc := core.Document{ID: d.ID, Title: d.Title, Text: d.Text, URL: d.URL, Source: d.Source}
	if d.Date != 0 {
		doc.Date = time.Unix(d.Date, 0)
	}
	return doc
}

// judgeAgain judges again, once the heirs are loaded, the pairs of
// h.again, marks an heir took from its head: each pair's later document
// is matched again against the earlier as a rescore matches it, the
// earlier loaded for the match where the in-memory index does not hold it
// (Repair's holds none; see engine.Live.Judge), and the pair is marked
// with what that finds, or not at all when it finds nothing. A pair whose
// later document's record, text or sketch, or whose earlier one's sketch,
// does not match its checksum keeps the mark taken; so does every pair in
// a repair under a method that weighs by counts over the documents
// loaded (engine.Live.Counts). The marks are stored and added to h.marks.
func (x *Index) judgeAgain(w store.Writer, h *heirs) error {
	if h == nil || len(h.again) == 0 {
		return nil
	}
	if err := x.readDates(w); err != nil {
		return err
	}
	earlier := map[int64][]int64{} // by later document
	for _, m := range h.again {
		earlier[m.B] = append(earlier[m.B], m.A)
	}
	laters := slices.Sorted(maps.Keys(earlier))
	byOrd, err := readable(w, laters)
	if err != nil {
		return err
	}
	found := map[[2]int64]*engine.Hit{}
	unread := map[int64]bool{}
	for _, b := range laters {
		var hits []engine.Hit
		err := store.ErrNotFound
		if x.partial && x.live.Counts() {
			// Counts over the few documents a repair loads are not the
			// index's: the marks stay as taken, for a rescore to judge.
			unread[b] = true
			continue
		}
		if d := byOrd[b]; d != nil {
			hits, err = x.judge(w, d, earlier[b])
		}
		if errors.Is(err, store.ErrNotFound) || errors.As(err, new(*store.ChecksumError)) {
			unread[b] = true
			continue
		}
		if err != nil {
			return err
		}
		for i := range hits {
			found[[2]int64{hits[i].Other, b}] = &hits[i]
		}
	}
	at := now()
	var ms []store.Mark
	for _, m := range h.again {
		hit := found[[2]int64{m.A, m.B}]
		switch {
		case unread[m.B]:
			ms = append(ms, m)
		case hit != nil:
			ev, err := json.Marshal(hit.Evidence)
			if err != nil {
				return err
			}
			ms = append(ms, store.Mark{A: m.A, B: m.B, Method: m.Method, Score: hit.Shown, Label: hit.Label,
				Evidence: ev, At: at})
		}
	}
	h.marks = append(h.marks, ms...)
	return w.AddMarks(ms)
}

// judge matches stored document d again against the stored documents of
// others, read with its text, and returns its pairs with them; none when
// it has no sketch. A pair with a document placed after d (d a new version
// where the version it replaced stood) is explained with that document's
// text, as the add explains it (see placedBefore).
func (x *Index) judge(r store.Reader, d *store.Doc, others []int64) ([]engine.Hit, error) {
	stored, err := r.Doc(d.ID)
	if err != nil {
		return nil, err
	}
	sk, err := r.Sketch(d.Ord)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	doc, det := storedDocument(&stored), placedBefore{details{r}, d.Rank(), x.meta.StoreText}
	var hits []engine.Hit
	err = x.changing(func() (err error) {
		hits, err = x.live.Judge(d.Ord, sk.Index, sk.Detail, &doc, others, det)
		return err
	})
	return hits, err
}

// passKeys finds the exact keys of removed documents that apply to the
// documents left of holes, and which of them each passes to: the first
// stored.
func (h *heirs) passKeys(r store.Reader, gone map[int64]bool, holes []*hole, byOrd map[int64]*store.Doc) error {
	keysOf := map[int64][]uint64{}
	var all []uint64
	for _, hl := range holes {
		for _, o := range hl.left {
			d := byOrd[o]
			if _, ok := keysOf[o]; ok || d == nil {
				continue
			}
			keys := []uint64{d.Hash}
			if d.URL != "" {
				keys = append(keys, URLKey(d.URL))
			}
			var ev ExactEvidence
			if json.Unmarshal(hl.ev[o], &ev) == nil && ev.By == "slug" {
				for _, u := range []string{d.ID, d.URL} {
					if site := siteOf(u); site != "" {
						keys = append(keys, SlugKey(site, ev.Slug))
					}
				}
			}
			keysOf[o] = keys
			all = append(all, keys...)
		}
	}
	held, err := r.Exact(all)
	if err != nil {
		return err
	}
	for _, o := range slices.Sorted(maps.Keys(keysOf)) {
		for _, k := range keysOf[o] {
			if _, ok := h.keys[k]; !ok && gone[held[k]] {
				h.keys[k] = o
			}
		}
	}
	return nil
}

// apply writes, once the documents are removed, what the removal does
// for the documents joined to them: the sketches (each logged as a
// removal, which the caller's catching up loads), the marks and the keys.
func (h *heirs) apply(w store.Writer) error {
	if h == nil {
		return nil
	}
	for _, ord := range slices.Sorted(maps.Keys(h.sketches)) {
		sk := h.sketches[ord]
		if err := w.SetSketch(ord, sk.skip, sk.sk); err != nil {
			return err
		}
	}
	if err := w.AddMarks(h.marks); err != nil {
		return err
	}
	byOrd := map[int64][]uint64{}
	for k, ord := range h.keys {
		byOrd[ord] = append(byOrd[ord], k)
	}
	for _, ord := range slices.Sorted(maps.Keys(byOrd)) {
		if err := w.SetExact(byOrd[ord], ord); err != nil {
			return err
		}
	}
	return nil
}

// dropMarked leaves out of h.marks, the exact marks made so far, each
// whose two documents an exact mark joins already, stored or made before
// it; ords are the documents of h.marks.
func (h *heirs) dropMarked(r store.Reader, ords []int64) error {
	if len(h.marks) == 0 {
		return nil
	}
	ms, err := r.MethodMarks(ExactMethod, ords)
	if err != nil {
		return err
	}
	have := make(map[[2]int64]bool, len(ms)+len(h.marks))
	for _, m := range ms {
		have[[2]int64{m.A, m.B}] = true
	}
	h.marks = slices.DeleteFunc(h.marks, func(m store.Mark) bool {
		k := [2]int64{m.A, m.B}
		dup := have[k]
		have[k] = true
		return dup
	})
	return nil
}

// inherit gives each heir of took the marks of its head of the index's
// method, with the documents left, or with the heir of a head removed
// too: the same score, label and evidence, each with the earlier of its
// two documents as A; those of an heir to be judged again go to h.again.
func (h *heirs) inherit(r store.Reader, method string, took []succession, gone map[int64]bool) error {
	if len(took) == 0 {
		return nil
	}
	heirOf := make(map[int64]int64, len(took))
	again := map[int64]bool{}
	var ords []int64
	for _, s := range took {
		heirOf[s.head], again[s.heir] = s.heir, s.again
		ords = append(ords, s.head, s.heir)
	}
	ms, err := r.MethodMarks(method, ords)
	if err != nil {
		return err
	}
	have := make(map[[2]int64]bool, len(ms))
	for _, m := range ms {
		have[[2]int64{m.A, m.B}] = true
	}
	at := now()
	for _, m := range ms {
		for _, head := range []int64{m.A, m.B} {
			heir, ok := heirOf[head]
			other := m.Other(head)
			if gone[other] {
				other = heirOf[other] // 0 when it had none
			}
			k := [2]int64{min(heir, other), max(heir, other)}
			if !ok || other == 0 || other == heir || have[k] {
				continue
			}
			have[k] = true
			n := m
			n.A, n.B, n.At = k[0], k[1], at
			if again[heir] || again[other] {
				h.again = append(h.again, n)
			} else {
				h.marks = append(h.marks, n)
			}
		}
	}
	return nil
}

// exactMark is the exact mark of documents a and b, the earlier as A, with
// evidence ev.
func exactMark(a, b int64, ev []byte) store.Mark {
	return store.Mark{A: min(a, b), B: max(a, b), Method: ExactMethod, Score: 1, Label: core.Duplicate, Evidence: ev, At: now()}
}

// joinedEvidence is the evidence of the exact mark joining document o to
// heir (nil when its record was left out): the content they share, else
// the URL, else old, the evidence of o's mark with the removed document.
func joinedEvidence(heir, o *store.Doc, old []byte) []byte {
	var by string
	switch {
	case heir == nil || o == nil:
	case heir.Hash == o.Hash:
		by = "content"
	case heir.URL != "" && heir.URL == o.URL:
		by = "url"
	}
	if by == "" {
		var kept ExactEvidence
		if json.Unmarshal(old, &kept) != nil || kept.Removed {
			return old
		}
		kept.Removed = true
		ev, err := json.Marshal(kept)
		if err != nil {
			panic(err) // a struct of strings and a bool
		}
		return ev
	}
	ev, err := json.Marshal(ExactEvidence{By: by})
	if err != nil {
		panic(err) // a struct of a string
	}
	return ev
}

// reportMade adds to the pairs of the documents an add stored before it
// replaced a document, outs with their ordinals added (0: not stored), the
// marks made (see heirs) whose later document is one of them: a copy, or a
// near duplicate, of the document replaced, whose pair with it went with
// it, is reported with what it is marked with now.
func (x *Index) reportMade(r store.Reader, outs []Match, added []int64, made []store.Mark) error {
	at := make(map[int64]int, len(added)) // ordinal → its document of the add
	for k, o := range added {
		if o != 0 && (outs[k].Status == Added || outs[k].Status == Replaced) {
			at[o] = k
		}
	}
	var ms []store.Mark
	var ords []int64
	for _, m := range made {
		if _, ok := at[m.B]; ok {
			ms, ords = append(ms, m), append(ords, m.A, m.B)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	docs, err := r.Docs(ords)
	if err != nil {
		return err
	}
	byOrd := make(map[int64]*store.Doc, len(docs))
	for i := range docs {
		byOrd[docs[i].Ord] = &docs[i]
	}
	for _, m := range ms {
		a, b := byOrd[m.A], byOrd[m.B]
		if a == nil || b == nil {
			return fmt.Errorf("a mark made of documents %d and %d, not stored", m.A, m.B)
		}
		ev, err := x.decodeEvidence(m.Method, m.Evidence)
		if err != nil {
			return err
		}
		out, me := &outs[at[m.B]], published{b.Date, b.Ord, b.Place}
		out.Pairs = append(out.Pairs, me.pair(a, core.Pair{A: a.ID, B: b.ID, Method: m.Method, Score: m.Score,
			Label: m.Label, Original: me.original(a, b.ID, m.Label), Evidence: ev}))
	}
	// The pairs of each document touched, old and made, in the order every
	// list of pairs shows (see sortForExport): duplicates first, then by
	// score, then by the other document, the first stored first.
	touched := map[int]bool{}
	var ids []string
	for _, m := range ms {
		if k := at[m.B]; !touched[k] {
			touched[k] = true
			for _, p := range outs[k].Pairs {
				ids = append(ids, p.Other(outs[k].ID))
			}
		}
	}
	ordOf, err := r.Lookup(ids)
	if err != nil {
		return err
	}
	for k := range touched {
		slices.SortStableFunc(outs[k].Pairs, func(p, q core.Pair) int {
			return cmp.Or(cmp.Compare(engine.LabelRank(p.Label), engine.LabelRank(q.Label)),
				cmp.Compare(q.Score, p.Score), cmp.Compare(ordOf[p.Other(outs[k].ID)], ordOf[q.Other(outs[k].ID)]))
		})
	}
	return nil
}
