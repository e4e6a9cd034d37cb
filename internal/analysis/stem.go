package analysis

import (
	"sync"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
)

// stemCacheSize bounds the words a Stemmer remembers per language; the
// cache is emptied when full. News vocabularies repeat heavily, so most
// lookups hit well below this size.
const stemCacheSize = 1 << 16

// Stemmer reduces normalised words to their stems: Snowball for English,
// Russian, German, French, Spanish and Italian
// (github.com/blevesearch/snowballstem), the Stempel tables for Polish
// (github.com/blevesearch/stempel, see LoadPolishStemmer); Ukrainian,
// Czech and Unknown words are returned unchanged. It remembers recent
// results, so a hit costs a map lookup and no allocation. The zero value
// is ready; a Stemmer is not safe for concurrent use.
type Stemmer struct {
	env   snowballstem.Env
	runes []rune
	cache [len(langs)]map[string]string
}

// Stem returns the stem of normalisedWord (an output of Normalize) in
// lang. It is safe for concurrent use; a Stemmer avoids its pooling.
func Stem(lang Lang, normalisedWord string) string {
	s := stemmerPool.Get().(*Stemmer)
	defer stemmerPool.Put(s)
	return s.Stem(lang, normalisedWord)
}

var stemmerPool = sync.Pool{New: func() any { return new(Stemmer) }}

// Stem returns the stem of normalisedWord (an output of Normalize) in
// lang.
func (s *Stemmer) Stem(lang Lang, normalisedWord string) string {
	i := langIndex(lang)
	if i < 0 {
		return normalisedWord
	}
	if stem, ok := s.cache[i][normalisedWord]; ok {
		return stem
	}
	return s.remember(i, normalisedWord, s.stem(lang, normalisedWord))
}

// StemBytes is Stem for a word in a byte slice, such as the output of
// Analyzer.AppendNormalized; it allocates only when the word is not in
// the cache.
func (s *Stemmer) StemBytes(lang Lang, normalisedWord []byte) string {
	i := langIndex(lang)
	if i >= 0 {
		if stem, ok := s.cache[i][string(normalisedWord)]; ok {
			return stem
		}
	}
	return s.Stem(lang, string(normalisedWord))
}

// remember caches stem as the stem of word in language i.
func (s *Stemmer) remember(i int, word, stem string) string {
	if s.cache[i] == nil || len(s.cache[i]) >= stemCacheSize {
		s.cache[i] = make(map[string]string, 1024)
	}
	s.cache[i][word] = stem
	return stem
}

// stem computes the stem of word without the cache.
func (s *Stemmer) stem(lang Lang, word string) string {
	var algorithm func(*snowballstem.Env) bool
	switch lang {
	case English:
		algorithm = english.Stem
	case Russian:
		algorithm = russian.Stem
	case German:
		algorithm = german.Stem
	case French:
		algorithm = french.Stem
	case Spanish:
		algorithm = spanish.Stem
	case Italian:
		algorithm = italian.Stem
	case Polish:
		return s.stemPolish(word)
	default:
		return word
	}
	s.env.SetCurrent(word)
	algorithm(&s.env)
	return s.env.Current()
}
