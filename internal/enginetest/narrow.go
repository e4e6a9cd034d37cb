package enginetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/engine"
)

// NarrowSpaceDoc is a French notice whose sums and units a narrow no-break
// space (U+202F) sets apart, as French typography sets them, in its title
// and text.
func NarrowSpaceDoc() core.Document {
	return core.Document{ID: "narrow", Title: "Le conseil vote 180\u202f000 euros pour l'école",
		Text: "PARIS, 5\u202fmars (AFP) - Le conseil municipal a voté lundi une enveloppe de 180\u202f000 euros pour la rénovation " +
			"thermique de l'école primaire, dont les travaux doivent débuter l'été prochain.\n\nLa région versera une subvention " +
			"de 45\u202f000 euros, a précisé le maire lors de la séance publique du conseil, soit 1\u202f250\u202f000\u202f€ en tout.\n\n" +
			"Les élus de l'opposition ont voté contre\u202f: le projet est insuffisant au regard de l'état du bâtiment.",
		Date: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)}
}

// NarrowSpaceFixture checks that the options of an index of a format
// before the narrow no-break space set figures apart (old) sketch
// NarrowSpaceDoc into the bytes the binary of that format wrote (path: the
// index part, then the detail part), which read "180\u202f000" as one word.
func NarrowSpaceFixture[S any](t *testing.T, path string, old engine.Sketching[S]) {
	t.Helper()
	parts := ReadFixture(t, path, 2)
	doc := NarrowSpaceDoc()
	s, _ := old.NewSketcher().Sketch(&doc)
	if i, d := old.AppendIndex(nil, s), old.AppendDetail(nil, s); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of the format before sketch other bytes than it did:\n index  %x\n detail %x", i, d)
	}
}
