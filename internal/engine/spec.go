package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/cluster"
)

// Config is a method's options: a struct of the method package's own
// (minhash.Options, ...), made by its Defaults function, encoded as JSON in
// an index so that a later run uses exactly the same settings.
type Config interface {
	// Method names the method the options are for.
	Method() string
	// Check returns an error naming the first option out of range.
	Check() error
}

// CheckConfig returns an error naming the first option of c out of range:
// one that is not a finite number, then what c.Check finds. A check of a
// range (x <= 0 || x > 1) lets NaN through, which would make every
// comparison with the option false and the run find nothing.
func CheckConfig(c Config) error {
	v := reflect.ValueOf(c)
	if v.Kind() == reflect.Struct {
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() != reflect.Float64 || !math.IsNaN(f.Float()) && !math.IsInf(f.Float(), 0) {
				continue
			}
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			return fmt.Errorf("%s: %s %v is not a finite number", c.Method(), strings.ReplaceAll(name, "_", " "), f.Float())
		}
	}
	return c.Check()
}

// Spec is a method as the composition root sees it: its name and defaults,
// and how to build its stages with its types erased. Make one with Register.
type Spec struct {
	// Name is the method's name, as --method takes it.
	Name string
	// Summary describes the method in one line.
	Summary string
	// Keep is the representative policy the method's clusters use unless
	// told otherwise.
	Keep cluster.Policy
	// Format is the version of the method's sketch encoding. An index
	// records it and refuses to open with a binary whose format differs,
	// unless Older makes that format.
	Format int
	// Older, when not nil, returns the options c (an index's) with which
	// the method makes sketches of an older format, and whether it can: an
	// index of that format then opens, and goes on with sketches of its
	// own format, comparable with those it holds.
	Older func(format int, c Config) (Config, bool)

	defaults func() Config
	decode   func(data []byte) (Config, error)
	evidence func(data []byte) (core.Evidence, error)
	batch    func(c Config, g Grouping) (Batch, error)
	live     func(c Config) (Live, error)
	// sample and redecode reach the default method's codec (see Sample
	// and Redecode).
	sample   func(doc *core.Document) (index, detail []byte, ok bool)
	redecode func(index, detail []byte) (ok bool, err error)
}

// OlderFormats returns a Spec.Older that opens an index of a sketch
// format from oldest to newest, with the options with makes of the index's
// own for that format.
func OlderFormats[O Config](oldest, newest int, with func(o O, format int) O) func(int, Config) (Config, bool) {
	return func(f int, c Config) (Config, bool) {
		o, ok := c.(O)
		if !ok || f < oldest || f > newest {
			return c, false
		}
		return with(o, f), true
	}
}

// Register returns the Spec of a method: defaults returns its default
// options, build makes its stages from options that passed Check.
func Register[O Config, S any, E core.Evidence](s Spec, defaults func() O, build func(O) (Method[S, E], error)) Spec {
	s.defaults = func() Config { return defaults() }
	s.decode = func(data []byte) (Config, error) {
		o := defaults()
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("engine: %s options: %w", s.Name, err)
		}
		return o, nil
	}
	s.evidence = func(data []byte) (core.Evidence, error) {
		var e E
		if err := json.Unmarshal(data, &e); err != nil {
			return nil, fmt.Errorf("engine: %s evidence: %w", s.Name, err)
		}
		return e, nil
	}
	method := func(c Config) (Method[S, E], error) {
		if c == nil {
			return Method[S, E]{}, fmt.Errorf("engine: no options for %s", s.Name)
		}
		o, ok := c.(O)
		if !ok {
			return Method[S, E]{}, fmt.Errorf("engine: options of %s given to %s", c.Method(), s.Name)
		}
		if err := CheckConfig(o); err != nil {
			return Method[S, E]{}, err
		}
		m, err := build(o)
		if err == nil && (m.Sketching == nil || m.Matching == nil || m.Label == nil) {
			panic("engine: " + s.Name + " lacks a stage every method has") // a method package's wiring
		}
		if err == nil && m.Check != nil && m.Pairs.Explain != nil {
			panic("engine: " + s.Name + " explains its pairs but has a Check stage") // see Method.Check
		}
		return m, err
	}
	s.batch = func(c Config, g Grouping) (Batch, error) {
		m, err := method(c)
		if err != nil {
			return nil, err
		}
		b := newBatch(s.Name, m, g)
		if b.spill, err = newSpiller[S, E](m, g); err != nil {
			return nil, err
		}
		return b, nil
	}
	s.live = func(c Config) (Live, error) {
		return newLive(s.Name, func() (Method[S, E], error) { return method(c) })
	}
	// The codec is one method at the defaults, built on first use: its
	// encoding and decoding keep no state.
	codec := sync.OnceValue(func() Method[S, E] {
		m, err := method(defaults())
		if err != nil {
			panic(err) // the default options must build
		}
		return m
	})
	s.sample = func(doc *core.Document) ([]byte, []byte, bool) {
		m := codec()
		sk, skip := m.NewSketcher().Sketch(doc)
		if skip != core.SkipNone {
			return nil, nil, false
		}
		return m.AppendIndex(nil, sk), m.AppendDetail(nil, sk), true
	}
	s.redecode = func(index, detail []byte) (bool, error) {
		m := codec()
		sk, err := m.DecodeSketch(index, detail)
		if err != nil {
			return false, nil
		}
		i1, d1 := m.AppendIndex(nil, sk), m.AppendDetail(nil, sk)
		again, err := m.DecodeSketch(i1, d1)
		if err != nil {
			return true, fmt.Errorf("%s: a sketch that decoded does not decode once encoded again: %w", s.Name, err)
		}
		if i2, d2 := m.AppendIndex(nil, again), m.AppendDetail(nil, again); !bytes.Equal(i1, i2) || !bytes.Equal(d1, d2) {
			return true, fmt.Errorf("%s: a sketch that decoded changes when encoded and decoded again", s.Name)
		}
		return true, nil
	}
	return s
}

// Sample returns the two encoded parts of the sketch the method's defaults
// make of doc; ok is false when the method skips doc. Tests seed fuzz
// targets with it.
func (s Spec) Sample(doc *core.Document) (index, detail []byte, ok bool) { return s.sample(doc) }

// Redecode decodes the parts of a stored sketch, as from an untrusted file,
// and checks that what decodes survives another encoding and decoding
// unchanged. ok reports whether the parts decoded; refusing them is not a
// fault, only a decoding that loses or invents what it encodes is.
func (s Spec) Redecode(index, detail []byte) (ok bool, err error) { return s.redecode(index, detail) }

// NewLive returns an empty Live of the method with options c, for a
// persistent index.
func (s Spec) NewLive(c Config) (Live, error) { return s.live(c) }

// Defaults returns the method's default options.
func (s Spec) Defaults() Config { return s.defaults() }

// DecodeOptions reads options encoded as JSON; fields left out keep their
// defaults, unknown fields are an error.
func (s Spec) DecodeOptions(data []byte) (Config, error) { return s.decode(data) }

// DecodeEvidence reads a pair's evidence encoded as JSON.
func (s Spec) DecodeEvidence(data []byte) (core.Evidence, error) { return s.evidence(data) }

// NewBatch returns an empty Batch of the method with options c, grouping
// with representative policy keep ("" means the method's own).
func (s Spec) NewBatch(c Config, keep cluster.Policy) (Batch, error) {
	return s.NewBatchWith(c, Grouping{Keep: keep})
}

// Grouping says which candidates a Batch compares and how it groups the
// duplicates it finds. The zero value compares every candidate and groups
// as the method does, by connected groups.
type Grouping struct {
	// Keep is the representative policy; "" means the method's own.
	Keep cluster.Policy
	// Link is how a document joins a cluster; "" means cluster.Any.
	Link cluster.Linking
	// Window, when positive, pairs only documents whose dates are at most
	// this far apart; a document without a date is paired with any. The
	// candidates outside it are not verified (see Outside).
	Window time.Duration
	// MinChars is the minimum length of a text compared, in characters
	// (see StubSkip); 0 means analysis.DefaultStubChars, negative none.
	MinChars int
	// SimilarIsCopy links the documents of a similar pair into clusters
	// as those of a duplicate pair are, so that the representative alone
	// is kept of them (training data, where a near copy is a copy). The
	// pairs keep their labels.
	SimilarIsCopy bool
	// Memory, when positive, is the bytes a Batch may hold: once its
	// documents and their sketches would take more than half of it, the
	// sketches of the documents added after, and every band key, go to
	// files Spill creates, and matching reads them back a share at a time
	// (see Spiller). The pairs, clusters and their order are those of a
	// Batch holding everything. 0 means no budget; a method that is not a
	// Spiller refuses one.
	Memory int64
	// Spill creates a new empty file for a Batch to spill to, name saying
	// what it holds (a pattern of its name, which may be removed as the
	// file is made: see package tempfile); the Batch closes it, and
	// closing it removes it. Required with Memory.
	Spill func(name string) (SpillFile, error)
}

// NewBatchWith returns an empty Batch of the method with options c and
// grouping g.
func (s Spec) NewBatchWith(c Config, g Grouping) (Batch, error) {
	if g.Keep == "" {
		g.Keep = s.Keep
	}
	if g.Link == "" {
		g.Link = cluster.Any
	}
	return s.batch(c, g)
}
