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
	FormatFixture(t, path, old, NarrowSpaceDoc())
}

// ZeroWidthSpaceDoc is a notice whose words a zero-width space (U+200B)
// cuts, as a page's markup or copy protection leaves it, in its title and
// text, in English and Korean, a figure among them.
func ZeroWidthSpaceDoc() core.Document {
	return core.Document{ID: "zwsp", Title: "Central bank holds its ra\u200bte at 3.5 percent",
		Text: "SEOUL, March 5 (Reuters) - The central bank held its bench\u200bmark rate at 3.5 percent on Tuesday, " +
			"as infla\u200btion slowed for a third month and exports of 1\u200b250 billion won rose.\n\n" +
			"금융통화\u200b위원회는 기준금리를 연 3.5%로 동결했다고 밝혔다. 지난\u200b해 물가 상승률은 둔화됐다.\n\n" +
			"The decision was expected by most econo\u200bmists polled before the meeting.",
		Date: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC)}
}

// ZeroWidthSpaceFixture checks that the options of an index of a format
// before the zero-width space joined the parts of a word (old) sketch
// ZeroWidthSpaceDoc into the bytes the binary of that format wrote (path as
// NarrowSpaceFixture's), which read "ra\u200bte" as two words.
func ZeroWidthSpaceFixture[S any](t *testing.T, path string, old engine.Sketching[S]) {
	t.Helper()
	FormatFixture(t, path, old, ZeroWidthSpaceDoc())
}

// FormatFixture checks that old sketches doc into the bytes of path (see
// NarrowSpaceFixture).
func FormatFixture[S any](t *testing.T, path string, old engine.Sketching[S], doc core.Document) {
	t.Helper()
	parts := ReadFixture(t, path, 2)
	s, _ := old.NewSketcher().Sketch(&doc)
	if i, d := old.AppendIndex(nil, s), old.AppendDetail(nil, s); !bytes.Equal(i, parts[0]) || !bytes.Equal(d, parts[1]) {
		t.Errorf("the options of an index of the format before sketch %s into other bytes than it did:\n index  %x\n detail %x", doc.ID, i, d)
	}
}
