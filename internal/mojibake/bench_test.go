package mojibake

import (
	"strings"
	"testing"
)

// BenchmarkRepair times Repair on an article's worth of text: plain
// English (the fast path), accented French that needs no repair (the
// scan), and the same French garbled once.
func BenchmarkRepair(b *testing.B) {
	fr := strings.Repeat("Le conseil a approuvé le budget mardi après un long débat; les élus ont défendu la réforme. ", 60)
	for _, bc := range []struct{ name, text string }{
		{"ascii", strings.Repeat("The council approved the budget on Tuesday after a long debate. ", 60)},
		{"accented", fr},
		{"garbled", garble(fr)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			for b.Loop() {
				Repair(bc.text)
			}
		})
	}
}
