package store

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neardup/neardup/core"
)

// BenchmarkChecksums sums the records of one news article as an add writes
// them: an index part of 82 bytes, a detail part of 1.2 KB, a text of 4 KB
// and a mark.
func BenchmarkChecksums(b *testing.B) {
	index, detail := bytes.Repeat([]byte{0x5a}, 82), bytes.Repeat([]byte{0xa5}, 1200)
	text := strings.Repeat("A sentence of a news article. ", 4096/30)
	m := &Mark{A: 1, B: 2, Method: "minhash", Score: 0.9, Label: core.Duplicate, Evidence: []byte(`{"jaccard":0.9}`), At: 1}
	d := &Doc{ID: "https://news.example/2026/12/05/council-approves-budget", Source: "news.example",
		URL: "https://news.example/2026/12/05/council-approves-budget", Title: "Council approves the budget for next year",
		Date: 1764900000, Added: 1764900100, Lang: "en", Hash: 1 << 60, Length: len(text)}
	b.SetBytes(int64(len(index) + len(detail) + len(text) + len(m.Evidence)))
	for i := range b.N {
		ord := int64(i)
		d.Ord = ord
		_ = recordSum(partIndex, ord, index) ^ recordSum(partDetail, ord, detail) ^ textSum(ord, text) ^ markSum(m) ^ docSum(d)
	}
}

// The checksum of a part covers its tag, its document's ordinal and every
// byte of it: changing any of them changes the sum.
func TestRecordSumCoversKeyAndData(t *testing.T) {
	data := []byte("the detail part of a sketch")
	base := recordSum(partDetail, 7, data)
	if recordSum(partIndex, 7, data) == base || recordSum(partDetail, 8, data) == base {
		t.Error("the sum ignores the part or the ordinal")
	}
	for i := range data {
		changed := bytes.Clone(data)
		changed[i] ^= 1
		if recordSum(partDetail, 7, changed) == base {
			t.Errorf("a bit changed at byte %d leaves the sum", i)
		}
	}
	m := Mark{A: 1, B: 2, Method: "minhash", Score: 0.5, Label: core.Similar, Evidence: []byte("{}"), At: 3}
	sum := markSum(&m)
	for name, edit := range map[string]func(m *Mark){
		"a": func(m *Mark) { m.A++ }, "b": func(m *Mark) { m.B++ }, "method": func(m *Mark) { m.Method = "simhash" },
		"score": func(m *Mark) { m.Score = 0.51 }, "label": func(m *Mark) { m.Label = core.Duplicate },
		"evidence": func(m *Mark) { m.Evidence = []byte("[]") }, "at": func(m *Mark) { m.At++ },
	} {
		c := m
		edit(&c)
		if markSum(&c) == sum {
			t.Errorf("changing the mark's %s leaves its sum", name)
		}
	}
}

// A document's record sum covers every field of its row but its cluster,
// which changes as documents join it.
func TestDocSumCoversTheRecord(t *testing.T) {
	d := Doc{Ord: 7, ID: "a", Source: "s", URL: "https://a.example/", Title: "T", Date: 5, Added: 6, Lang: "en",
		Hash: 9, Length: 10, Skip: core.SkipTooShort, Cluster: 3}
	sum := docSum(&d)
	for name, edit := range map[string]func(d *Doc){
		"ord": func(d *Doc) { d.Ord++ }, "id": func(d *Doc) { d.ID = "b" }, "source": func(d *Doc) { d.Source = "t" },
		"url": func(d *Doc) { d.URL = "https://b.example/" }, "title": func(d *Doc) { d.Title = "U" },
		"date": func(d *Doc) { d.Date++ }, "added": func(d *Doc) { d.Added++ }, "lang": func(d *Doc) { d.Lang = "de" },
		"hash": func(d *Doc) { d.Hash++ }, "length": func(d *Doc) { d.Length++ }, "skip": func(d *Doc) { d.Skip = "" },
		// Fields run into each other only through their lengths.
		"id and source": func(d *Doc) { d.ID, d.Source = "as", "" },
	} {
		c := d
		edit(&c)
		if docSum(&c) == sum {
			t.Errorf("changing the record's %s leaves its sum", name)
		}
	}
	c := d
	c.Cluster = 4
	if docSum(&c) != sum {
		t.Error("the cluster changes the sum")
	}
}
