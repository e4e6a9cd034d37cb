// Package methods lists the detection methods this binary knows: the one
// place a method is registered. The first is the default.
package methods

import (
	"fmt"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/rarewords"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
	"github.com/neardup/neardup/method/tfidf"
)

// All are the methods, in the order help texts list them.
var All = []engine.Spec{minhash.Spec, sentences.Spec, tfidf.Spec, rarewords.Spec, cosine.Spec, simhash.Spec}

// Lookup returns the method of a name.
func Lookup(name string) (engine.Spec, error) {
	for _, s := range All {
		if s.Name == name {
			return s, nil
		}
	}
	return engine.Spec{}, fmt.Errorf("unknown method %q (want one of %v)", name, Names())
}

// Names returns the methods' names.
func Names() []string {
	names := make([]string, len(All))
	for i, s := range All {
		names[i] = s.Name
	}
	return names
}

// Default returns the default method's default options.
func Default() engine.Config { return All[0].Defaults() }
