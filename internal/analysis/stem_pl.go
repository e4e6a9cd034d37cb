package analysis

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the Polish stemming table
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/blevesearch/stempel"

	"github.com/neardup/neardup/internal/tempfile"
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
// 0.1 s and 6 MB of heap). The file's name is removed as it is made where
// the system allows (package tempfile), stempel opening it as /dev/fd/N:
// a run killed meanwhile leaves nothing. Where that cannot be opened, the
// table is written again under a name removed once it is loaded (on
// Windows the removal fails, stempel keeping its file open, and the name
// stays, as a name always has there).
func loadPolishTrie() (stempel.Trie, error) {
	trie, err := unpackPolishTrie(false)
	if err != nil && !errors.Is(err, errNoFdPath) {
		return nil, err
	}
	if err != nil {
		trie, err = unpackPolishTrie(true)
	}
	return trie, err
}

// errNoFdPath is the error of a table whose file has no name and cannot be
// opened as /dev/fd/N.
var errNoFdPath = errors.New("analysis: no /dev/fd path to an open file")

// stempelOpen is stempel.Open; tests look at the temporary folder there.
var stempelOpen = stempel.Open

// unpackPolishTrie writes the table to a temporary file and loads it, by
// the file's name when named is set, else by its /dev/fd/N path.
func unpackPolishTrie(named bool) (stempel.Trie, error) {
	zr, err := gzip.NewReader(bytes.NewReader(stempelTable))
	if err != nil {
		return nil, fmt.Errorf("analysis: reading the Polish stemming table: %w", err)
	}
	var f *tempfile.File
	if named {
		f, err = tempfile.CreateNamed("", "neardup-stempel-*.tbl")
	} else {
		f, err = tempfile.Create("", "neardup-stempel-*.tbl")
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: unpacking the Polish stemming table: %w", err)
	}
	defer f.Close()
	if _, err = io.Copy(f, zr); err == nil {
		_, err = f.Seek(0, io.SeekStart) // /dev/fd/N may share the offset (BSD, macOS)
	}
	if err != nil {
		return nil, fmt.Errorf("analysis: unpacking the Polish stemming table: %w", err)
	}
	path := f.Name()
	if !f.Named() {
		path = fmt.Sprintf("/dev/fd/%d", f.Fd())
		if _, err := os.Stat(path); err != nil {
			return nil, errNoFdPath
		}
	}
	trie, err := stempelOpen(path)
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
