package minhash

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/codec"
)

func TestTmpStats(t *testing.T) {
	f, err := os.Open("/work/speedlab/c20000.jsonl")
	if err != nil {
		t.Skip()
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	m := mustMethod(t, Defaults())
	sk := m.NewSketcher()
	var n, set, nums, chars, full, enc int
	for sc.Scan() {
		var d struct{ Text string }
		json.Unmarshal(sc.Bytes(), &d)
		s, _ := sk.Sketch(&core.Document{Text: d.Text})
		if s == nil {
			continue
		}
		n++
		enc += len(codec.AppendSorted32(nil, s.Set))
		set += len(s.Set)
		nums += len(s.Nums)
		chars += len(d.Text)
		if s.Cut == 4294967295 {
			full++
		}
	}
	t.Logf("enc %.1f docs %d avg set %.1f nums %.1f chars %.1f complete %.2f", float64(enc)/float64(n), n, float64(set)/float64(n), float64(nums)/float64(n), float64(chars)/float64(n), float64(full)/float64(n))
}
