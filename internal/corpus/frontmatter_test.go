package corpus

import (
	"strings"
	"testing"
)

// FuzzFrontMatter: front matter of any bytes is read without a panic, the
// text after it is the end of the file, and a url: kept is absolute.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: Bridge # draft\nsource: \"Coast \\\" Gazette\" # x\n---\nText.\n",
		"---\nsource:\n  # c\n  Coast\n  Gazette\ntitle: 'it''s'\nurl: //coast.example/a\n...\nText.\n",
		"---\ntitle: >-\n  a\n  b\nsource: [a]\ndate: ~\nurl: \"unclosed\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, body, ok := frontMatter(s)
		if !ok {
			return
		}
		if !strings.HasSuffix(s, body) {
			t.Errorf("body %q is not the end of %q", body, s)
		}
		if fm.url != "" && !strings.HasPrefix(strings.ToLower(fm.url), "http") {
			t.Errorf("url %q kept", fm.url)
		}
	})
}
