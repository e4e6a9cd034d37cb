package gen

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
)

// Options control a generated corpus. The zero value works: one original per
// usable base, 30 % copies, 2 % templated negatives, every op.
type Options struct {
	// N is the number of documents to write. 0 means as many as give one
	// original per usable base. Past that, originals are synthesised.
	N int
	// DupRate is the share of documents that are copies of an original.
	// 0 means 0.3; a negative value means no copies.
	DupRate float64
	// TemplateRate is the share of documents that are templated negatives
	// (another company's figures in a templated story's words). 0 means
	// 0.02; a negative value means none. There are none when no base is
	// templated.
	TemplateRate float64
	// Seed makes the corpus: the same bases, options and seed give the same
	// bytes.
	Seed uint64
	// Ops are the edits copies are made with. Empty means AllOps().
	Ops []Op
	// MaxOps is the most ops one copy gets (at least one). 0 means 3.
	MaxOps int
	// MinWords drops bases with fewer words. 0 means 8.
	MinWords int
	// KeepNaturalDuplicates keeps bases that are near-duplicates of an
	// earlier base (wire repeats and corrections). They are dropped by
	// default because the truth would call them different stories.
	KeepNaturalDuplicates bool
	// IDPrefix starts every document id. "" means "d".
	IDPrefix string
	// Workers is the number of goroutines making documents. 0 means
	// GOMAXPROCS. The output does not depend on it.
	Workers int
	// Progress, when not nil, is called from one goroutine with the number
	// of documents written so far, every few thousand documents.
	Progress func(written int)
}

func (o *Options) setDefaults() {
	if o.DupRate == 0 {
		o.DupRate = 0.3
	}
	o.DupRate = max(o.DupRate, 0)
	if o.TemplateRate == 0 {
		o.TemplateRate = 0.02
	}
	o.TemplateRate = max(o.TemplateRate, 0)
	if len(o.Ops) == 0 {
		o.Ops = AllOps()
	}
	if o.MaxOps <= 0 {
		o.MaxOps = 3
	}
	if o.MinWords == 0 {
		o.MinWords = 8
	}
	if o.IDPrefix == "" {
		o.IDPrefix = "d"
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
}

// Stats describe a generated corpus.
type Stats struct {
	Bases             int        `json:"bases"`              // bases given
	DroppedShort      int        `json:"dropped_short"`      // bases under MinWords
	DroppedExact      int        `json:"dropped_exact"`      // bases with the words of an earlier one
	DroppedNear       int        `json:"dropped_near"`       // bases mostly contained in an earlier one
	Documents         int        `json:"documents"`          // lines written
	Originals         int        `json:"originals"`          // real and synthesised originals
	Synthesised       int        `json:"synthesised"`        // originals synthesised from real bases
	Copies            int        `json:"copies"`             // documents made by ops
	CopiesLeftOut     int        `json:"copies_left_out"`    // copies not written: no op of Options.Ops changed the originals drawn for them
	TemplateNegatives int        `json:"template_negatives"` // templated negatives, each its own cluster
	Ops               map[Op]int `json:"ops"`                // copies per op
}

// ErrNoBases is returned when no base is usable.
var ErrNoBases = errors.New("gen: no usable base texts")

// Generate writes a corpus made from bases to docsOut and its truth to
// truthOut (JSON Lines, one line per document in both, same order). It
// streams: memory holds the bases and a few integers per document.
func Generate(bases []Base, opts Options, docsOut, truthOut io.Writer) (Stats, error) {
	opts.setDefaults()
	g, err := newGenerator(bases, &opts)
	if err != nil {
		return g.stats, err
	}
	if err := g.run(docsOut, truthOut); err != nil {
		return g.stats, err
	}
	return g.stats, nil
}

// generator holds the plan of a corpus. Documents are numbered by slot:
// originals [0, nOrig), templated negatives [nOrig, nOrig+nNeg), copies after.
// order maps output position to slot, pos slot to position; a document's id
// is its position, so ids say nothing about what a document is.
type generator struct {
	opts       *Options
	bases      []prepared
	all        []int // every base index
	prose      []int // bases that are not templated
	templated  []int // templated bases
	baseOrder  []int // original slot s uses bases[baseOrder[s%len(bases)]]
	negSources []int // original slots of real templated bases
	vocab      *vocabulary
	nOrig      int
	nNeg       int
	order      []uint32
	pos        []uint32
	idWidth    int
	stats      Stats
}

func newGenerator(bases []Base, opts *Options) (*generator, error) {
	g := &generator{opts: opts}
	g.stats.Bases = len(bases)
	var drops [numDrops]int
	g.bases, drops = prepare(bases, opts)
	g.stats.DroppedShort, g.stats.DroppedExact, g.stats.DroppedNear =
		drops[dropShort], drops[dropExact], drops[dropNear]
	if len(g.bases) == 0 {
		return g, ErrNoBases
	}
	for i, b := range g.bases {
		g.all = append(g.all, i)
		if b.templated {
			g.templated = append(g.templated, i)
		} else {
			g.prose = append(g.prose, i)
		}
	}
	g.vocab = newVocabulary(g.bases)
	if err := g.plan(); err != nil {
		return g, err
	}
	return g, nil
}

// plan fixes the number of each kind of document and the shuffled order.
func (g *generator) plan() error {
	o := g.opts
	n, nCopies := g.counts()
	if g.nOrig < 1 || n > math.MaxUint32 {
		return fmt.Errorf("gen: %d documents at dup rate %g and template rate %g leave no originals",
			n, o.DupRate, o.TemplateRate)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	g.baseOrder = rng.Perm(len(g.bases))
	for slot, b := range g.baseOrder {
		if slot < g.nOrig && g.bases[b].templated {
			g.negSources = append(g.negSources, slot)
		}
	}
	if len(g.negSources) == 0 {
		g.nOrig += g.nNeg
		g.nNeg = 0
	}
	g.order = make([]uint32, n)
	for i := range g.order {
		g.order[i] = uint32(i)
	}
	rng.Shuffle(n, func(i, j int) { g.order[i], g.order[j] = g.order[j], g.order[i] })
	g.pos = make([]uint32, n)
	for p, s := range g.order {
		g.pos[s] = uint32(p)
	}
	g.idWidth = len(fmt.Sprint(n - 1))
	g.stats.Documents, g.stats.Originals, g.stats.Copies = n, g.nOrig, nCopies
	g.stats.Synthesised = max(g.nOrig-len(g.bases), 0)
	g.stats.TemplateNegatives = g.nNeg
	return nil
}

// counts sets nOrig and nNeg and returns the number of documents and copies.
func (g *generator) counts() (n, nCopies int) {
	o := g.opts
	n = o.N
	if n == 0 {
		rate := o.TemplateRate
		if len(g.templated) == 0 {
			rate = 0
		}
		n = int(math.Ceil(float64(len(g.bases)) / max(1-o.DupRate-rate, 0.01)))
	}
	nCopies = int(math.Round(float64(n) * o.DupRate))
	g.nNeg = int(math.Round(float64(n) * o.TemplateRate))
	g.nOrig = n - nCopies - g.nNeg
	return n, nCopies
}

// id returns the id of the document in slot s.
func (g *generator) id(slot int) string {
	return fmt.Sprintf("%s%0*d", g.opts.IDPrefix, g.idWidth, g.pos[slot])
}
