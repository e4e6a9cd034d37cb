package gen

import (
	"math/rand/v2"
	"strings"
)

// ocrConfusions are look-alike substitutions a character recogniser makes.
var ocrConfusions = map[byte]string{
	'm': "rn", 'l': "1", '1': "l", 'I': "l", 'O': "0", '0': "O", 'o': "0",
	'e': "c", 'c': "e", 'h': "b", 'S': "5", '5': "S", 'a': "o", 'u': "v",
	'n': "h", 'i': "l", 't': "f", 'B': "8", '8': "B", 'g': "q", 'd': "cl",
	'w': "vv", 'r': "n", 'E': "F", 'C': "G", 'G': "C", 'Z': "2", '2': "Z",
}

// ocr puts character noise at about rate of the title's and the sentences'
// characters; at least one character changes.
func (e *editor) ocr(a *article, rate float64) bool {
	var b strings.Builder
	changed := false
	if t, n := ocrNoise(&b, a.title, rate, e.rng); n > 0 {
		a.title, changed = t, true
	}
	for _, p := range a.paras {
		for i, s := range p {
			if t, n := ocrNoise(&b, s, rate, e.rng); n > 0 {
				p[i], changed = t, true
			}
		}
	}
	for try := 0; !changed && try < 8 && len(a.paras) > 0; try++ {
		p := a.paras[e.rng.IntN(len(a.paras))]
		i := e.rng.IntN(len(p))
		if t, n := ocrNoise(&b, p[i], 0.2, e.rng); n > 0 {
			p[i], changed = t, true
		}
	}
	return changed
}

// ocrNoise returns s with noise at about rate of its bytes and the number of
// changes: look-alike substitutions, dropped and doubled letters, split words
// and words run together.
func ocrNoise(b *strings.Builder, s string, rate float64, rng *rand.Rand) (string, int) {
	b.Reset()
	changes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || rng.Float64() >= rate {
			b.WriteByte(c)
			continue
		}
		changes++
		switch r := rng.IntN(10); {
		case c == ' ':
			if r < 5 {
				continue // words run together
			}
			b.WriteByte(c)
			changes--
		case c == 'r' && i+1 < len(s) && s[i+1] == 'n' && r < 5:
			b.WriteByte('m')
			i++
		case r < 6 && ocrConfusions[c] != "":
			b.WriteString(ocrConfusions[c])
		case r < 7:
			b.WriteByte(c)
			b.WriteByte(c)
		case r < 8:
			b.WriteByte(c)
			b.WriteByte(' ')
		default:
			// dropped
		}
	}
	if changes == 0 {
		return s, 0
	}
	return b.String(), changes
}
