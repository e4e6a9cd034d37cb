package analysis

import (
	"strings"
	"testing"
	"unicode"
)

func TestStubOf(t *testing.T) {
	article := strings.Repeat("The harbour board approved the new ferry terminal on Monday. ", 5)
	for _, tc := range []struct {
		name     string
		text     string
		minChars int
		want     Stub
	}{
		{"empty", "", 0, StubShort},
		{"29 characters", strings.Repeat("x", 29), 0, StubShort},
		{"30 characters", strings.Repeat("x", 30), 0, NotStub},
		{"white space not counted", strings.Repeat("ab \n\t", 14), 0, StubShort},
		{"characters, not bytes", strings.Repeat("ж", 30), 0, NotStub},
		{"a minimum of its own", strings.Repeat("x", 150), 200, StubShort},
		{"no minimum", "", -1, NotStub},
		{"gallery stub, Russian", "Смотреть все фото к статье (18)", 0, StubGallery},
		{"gallery stub, English", "  See all photos (9)", 0, StubGallery},
		{"video caption", "VIDEO: the storm reaches the coast", 0, StubGallery},
		{"gallery caption up to 200 characters", "In pictures: " + strings.Repeat("y", 180), 0, StubGallery},
		{"an article opening with its pictures", "Photo gallery. " + article, 0, NotStub},
		{"an article", article, 0, NotStub},
		{"a gallery word later", "The museum opened a photo gallery of the old harbour on Monday.", 0, NotStub},
		{"no minimum keeps galleries", "Смотреть все фото к статье (18)", -1, NotStub},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := StubOf(tc.text, tc.minChars); got != tc.want {
				t.Errorf("StubOf(%q, %d) = %d, want %d", tc.text, tc.minChars, got, tc.want)
			}
		})
	}
}

// TestStubOfCountsAsRange checks the count of characters against reading
// the text rune by rune: ASCII and other white space, invalid bytes (one
// character each), around both minimums.
func TestStubOfCountsAsRange(t *testing.T) {
	slow := func(text string, minChars int) Stub {
		n := 0
		for _, r := range text {
			if !unicode.IsSpace(r) {
				n++
			}
		}
		return stubOfCount(text, n, minChars)
	}
	pieces := []string{"a", " ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "ж", "\xff", "\xe2\x80", "x1"}
	for seed := range 2000 {
		var b strings.Builder
		for i := range seed % 260 {
			b.WriteString(pieces[(seed*7+i*i*3+i)%len(pieces)])
		}
		for _, minChars := range []int{10, DefaultStubChars, 250} {
			if got, want := StubOf(b.String(), minChars), slow(b.String(), minChars); got != want {
				t.Fatalf("StubOf(%q, %d) = %d, reading rune by rune %d", b.String(), minChars, got, want)
			}
		}
	}
}

// BenchmarkStubOf is the stub check every document passes before it is
// sketched: an article, which it reads up to GalleryStubChars characters.
func BenchmarkStubOf(b *testing.B) {
	text := strings.Repeat("The harbour board approved the new ferry terminal on Monday. ", 10)
	for b.Loop() {
		if StubOf(text, 0) != NotStub {
			b.Fatal("a stub")
		}
	}
}
