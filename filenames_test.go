package neardup_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestFileNamesFitAModule: every file of the module has a name the Go
// module system takes (golang.org/x/mod/module.CheckFilePath) and Windows
// can check out. A file of another name fails the module's zip, and with
// it `go get` of the version (regression: internal/store/file::memory:, a
// database a test had made before Open refused ":memory:", was committed).
func TestFileNamesFitAModule(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." {
			if strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir // .git and the like: not in a module's zip
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a module of its own
			}
		}
		if bad, ok := badFileNameRune(d.Name()); ok {
			t.Errorf("%s: %q in a file's name: the module cannot be zipped (go get fails) nor checked out on Windows", path, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// badFileNameRune returns the first character of name that a module's
// file path may not hold: golang.org/x/mod/module's fileNameOK.
func badFileNameRune(name string) (rune, bool) {
	const allowed = "!#$%&()+,-.=@[]^_{}~ "
	for _, r := range name {
		switch {
		case r >= utf8.RuneSelf:
			if !unicode.IsLetter(r) {
				return r, true
			}
		case !('0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || strings.ContainsRune(allowed, r)):
			return r, true
		}
	}
	return 0, false
}
