package analysis

import (
	"strings"
	"testing"
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
