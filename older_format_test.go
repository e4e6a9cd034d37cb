package neardup_test

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/tfidf"
)

// TestOlderSketchFormat: a tfidf index made before terms of scripts
// written without spaces became pairs of letters (sketch format 2) still
// opens, and goes on making its terms as it did, so that its sketches
// compare with those it holds: a Chinese copy is paired there as format 2
// paired it (not at all: each clause was one term), and with format 3
// found. An index of a format no binary makes now is refused.
func TestOlderSketchFormat(t *testing.T) {
	story := "市政府周一宣布，将在明年春季开通一条连接机场和火车站的新地铁线路。这条线路全长二十八公里，设有十二个车站，预计每天运送乘客超过三十万人次。" +
		"负责该项目的工程师表示，施工已经进入最后阶段，目前正在进行设备调试。市民对新线路普遍表示欢迎，认为它将大大缩短前往机场的时间。"
	docs := []neardup.Document{
		{ID: "other1", Title: "本市举办春季花卉展览", Text: "本市第二十届春季花卉展览于周六在中心公园开幕，展出各类花卉三千余种。主办方介绍，今年的展览首次设立了儿童科普区，吸引了大批家长带着孩子前来参观。"},
		{ID: "other2", Title: "图书馆延长开放时间", Text: "市图书馆宣布，从下个月起将延长周末的开放时间，晚上闭馆时间推迟到九点。图书馆负责人说，这一调整是根据读者的意见作出的，同时还将增加自习座位。"},
		{ID: "orig", Title: "新地铁线路明年开通", Text: story},
		{ID: "copy", Title: "新地铁线路将于明年春季开通", Text: strings.Replace(story, "工程师", "技术人员", 1)},
	}
	// copyPaired opens the index at db, adds docs and reports whether the
	// copy was paired with its original.
	copyPaired := func(t *testing.T, db string, docs []neardup.Document) bool {
		t.Helper()
		x, err := neardup.Open(t.Context(), db, neardup.Options{MethodName: tfidf.Name})
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		ms, err := x.Add(t.Context(), docs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			for _, p := range m.Pairs {
				if m.ID == "copy" && p.A == "orig" {
					return true
				}
			}
		}
		return false
	}
	setFormat := func(t *testing.T, db string, format int) {
		t.Helper()
		x, err := neardup.Open(t.Context(), db, neardup.Options{Method: tfidf.Defaults()})
		if err != nil {
			t.Fatal(err)
		}
		x.Close()
		sdb, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		defer sdb.Close()
		if _, err := sdb.ExecContext(t.Context(), `UPDATE meta SET value = json_set(value, '$.sketch_format', ?) WHERE name = 'index'`, format); err != nil {
			t.Fatal(err)
		}
	}

	dir := t.TempDir()
	if !copyPaired(t, filepath.Join(dir, "new.db"), docs) {
		t.Error("a new index does not pair the Chinese copy with its original")
	}
	old := filepath.Join(dir, "old.db")
	setFormat(t, old, 2)
	if copyPaired(t, old, docs[:3]) || copyPaired(t, old, docs[3:]) {
		t.Error("an index of sketch format 2 paired the Chinese copy: its terms are not those it holds")
	}
	// Its options, as Method returns them, make its terms in Dedup too:
	// they gave format 3's, which paired the copy.
	x, err := neardup.Open(t.Context(), old, neardup.Options{Existing: true})
	if err != nil {
		t.Fatal(err)
	}
	_, opts, err := x.Method()
	x.Close()
	if err != nil {
		t.Fatal(err)
	}
	res, err := neardup.Dedup(t.Context(), docs, neardup.Options{Method: opts})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pairs) != 0 {
		t.Errorf("Dedup with the options of an index of sketch format 2 found %+v, want no pair (format 2's terms)", res.Pairs)
	}
	older := filepath.Join(dir, "older.db")
	setFormat(t, older, 1)
	_, err = neardup.Open(t.Context(), older, neardup.Options{})
	if err == nil || !strings.Contains(err.Error(), "build a new index") {
		t.Errorf("an index of sketch format 1 opened: %v", err)
	}
}
