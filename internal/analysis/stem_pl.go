package analysis

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the Polish stemming table
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/blevesearch/stempel"
)

// stempelTable is the Polish Stempel table "stemmer_20000.tbl" shipped
// with github.com/blevesearch/stempel v0.2.0, gzip-compressed by
// internal/gen. The table was trained by Andrzej Białecki for the Stempel
// stemmer (Egothor project) and is distributed under the Apache License
// 2.0, as noted in NOTICE.md.
//
//go:embed stempel_pl.tbl.gz
var stempelTable []byte

// polishTrie loads the table once.
var polishTrie = sync.OnceValues(loadPolishTrie)

// loadPolishTrie decompresses the embedded table into a temporary file,
// because stempel opens its tables by path only, and loads it (about
// 0.1 s and 6 MB of heap).
func loadPolishTrie() (stempel.Trie, error) {
	zr, err := gzip.NewReader(bytes.NewReader(stempelTable))
	if err != nil {
		return nil, fmt.Errorf("analysis: reading the Polish stemming table: %w", err)
	}
	f, err := os.CreateTemp("", "neardup-stempel-*.tbl")
	if err != nil {
		return nil, fmt.Errorf("analysis: unpacking the Polish stemming table: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = io.Copy(f, zr)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: unpacking the Polish stemming table: %w", err)
	}
	trie, err := stempel.Open(f.Name())
	if err != nil {
		return nil, fmt.Errorf("analysis: loading the Polish stemming table: %w", err)
	}
	return trie, nil
}

// LoadPolishStemmer loads the Polish stemming table now instead of on the
// first Polish word, and reports why it cannot be loaded (it needs a
// writable temporary directory for a moment). Without the table Polish
// words are returned unstemmed. It is safe to call many times.
func LoadPolishStemmer() error {
	_, err := polishTrie()
	return err
}

// stemPolish stems a Polish word with the Stempel table; it returns the
// word unchanged when the table is missing or gives no stem.
func (s *Stemmer) stemPolish(word string) (stem string) {
	trie, err := polishTrie()
	if err != nil {
		return word
	}
	defer func() {
		// The table's commands are data: a malformed one must not take
		// the process down.
		if recover() != nil {
			stem = word
		}
	}()
	s.runes = append(s.runes[:0], []rune(word)...)
	out := stempel.Diff(s.runes, trie.GetLastOnPath(s.runes))
	if len(out) == 0 {
		return word
	}
	return string(out)
}
