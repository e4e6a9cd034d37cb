package tfidf

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/neardup/neardup/core"
	"github.com/neardup/neardup/internal/analysis"
	"github.com/neardup/neardup/internal/enginetest"
)

// TestTMTerms pins tm's default terms on texts written for the purpose, as
// R tm 0.7-11 makes them of a SimpleCorpus (checked there by hand):
// lower-cased, split at ASCII white space only, pieces of three bytes or
// more kept, nothing stemmed or dropped as a stop word; but a script
// written without spaces gives pairs of letters, where tm makes a whole
// clause one term.
func TestTMTerms(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"lower-cased, short pieces dropped", "The Cat sat on a MAT", []string{"the", "cat", "sat", "mat"}},
		{"punctuation stays with its word", "Don't well-known, (O'Brien) said. said", []string{"don't", "well-known,", "(o'brien)", "said.", "said"}},
		{"numbers whole", "$1.13bn rose 76% to 1,000,000", []string{"$1.13bn", "rose", "76%", "1,000,000"}},
		{"pieces of punctuation are terms", "a -- b ... c !!", []string{"..."}},
		{"length in bytes", "£5 ok é1 éé é €", []string{"£5", "é1", "éé", "€"}},
		{"non-ASCII upper case lowered", "ÉCOLE Über ΣΟΦΙΑ", []string{"école", "über", "σοφια"}},
		{"ASCII white space splits", "tab\there\nnew\vver\fff\rret  two", []string{"tab", "here", "new", "ver", "ret", "two"}},
		{"other spaces do not", "non\u00a0breaking em\u2003space", []string{"non\u00a0breaking", "em\u2003space"}},
		{"Chinese: overlapping pairs of characters", "中国经济，稳中有升。", []string{"中国", "国经", "经济", "稳中", "中有", "有升"}},
		{"a letter alone without a neighbour of its script", "苹果iPhone手机 中", []string{"苹果", "iphone", "手机", "中"}},
		{"Japanese kana and kanji, the prolonged sound mark", "コーヒーを飲む", []string{"コー", "ーヒ", "ヒー", "ーを", "を飲", "飲む"}},
		{"Thai", "ข่าวไทย", []string{"ข่", "่า", "าว", "วไ", "ไท", "ทย"}},
		{"spaced scripts as tm has them", "Seoul 서울에서 news", []string{"seoul", "서울에서", "news"}},
		{"empty", "", nil},
		{"white space only", " \t\n ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []uint64
			for _, w := range tc.want {
				want = append(want, analysis.HashWordString(w))
			}
			var tt tmTerms
			got := tt.appendHashes(nil, tc.text)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("terms of %q (-want +got)\n%s", tc.text, diff)
			}
		})
	}
}

// TestTMWeightsByHand checks the default weighting on three documents
// whose weights are worked out by hand: a term weighs its count over the
// document's length times log2(N/df), N counting the document with an
// empty title among the titles, and a term in every document weighs 0.
func TestTMWeightsByHand(t *testing.T) {
	docs := []core.Document{
		{ID: "0", Title: "Apple news", Text: "apple apple banana the"},
		{ID: "1", Title: "", Text: "Apple cherry the ok"},
		{ID: "2", Title: "APPLE", Text: "cherry date date date the"},
	}
	m := sealed(t, Defaults(), docs)
	l3, l32 := math.Log2(3), math.Log2(1.5)
	for _, tc := range []struct {
		field int
		doc   int32
		want  []float64 // unnormalised, in any order
	}{
		// apple 2 of 4 terms in 2 of 3 documents, banana 1 of 4 in 1, the
		// in all 3: 0.
		{body, 0, []float64{2.0 / 4 * l32, 1.0 / 4 * l3}},
		{body, 1, []float64{1.0 / 3 * l32, 1.0 / 3 * l32}},
		{body, 2, []float64{1.0 / 5 * l32, 3.0 / 5 * l3}},
		// Titles: N is 3 with the empty one, so apple (in 2) is
		// log2(3/2), not 0.
		{title, 0, []float64{1.0 / 2 * l32, 1.0 / 2 * l3}},
		{title, 1, nil},
		{title, 2, []float64{1.0 / 1 * l32}},
	} {
		var norm float64
		for _, w := range tc.want {
			norm += w * w
		}
		var want, got []float64
		for _, w := range tc.want {
			want = append(want, w/math.Sqrt(norm))
		}
		for _, w := range m.fields[tc.field].Vector(tc.doc).Weights {
			got = append(got, float64(w))
		}
		slices.Sort(want)
		slices.Sort(got)
		if !cmp.Equal(want, got, cmp.Comparer(func(x, y float64) bool { return math.Abs(x-y) < 1e-6 })) {
			t.Errorf("%s of document %d: weights %v, want %v", fields[tc.field], tc.doc, got, want)
		}
	}
}

// TestUnspacedNearCopy: a Chinese story and its copy with a sentence
// dropped and a word changed are a duplicate pair, and two other stories
// are not paired with them. With tm's terms alone, each clause between
// punctuation and white space was one term, and the copy shared almost
// none of them.
func TestUnspacedNearCopy(t *testing.T) {
	story := []string{
		"市政府周一宣布，将在明年春季开通一条连接机场和火车站的新地铁线路。",
		"这条线路全长二十八公里，设有十二个车站，预计每天运送乘客超过三十万人次。",
		"负责该项目的工程师表示，施工已经进入最后阶段，目前正在进行设备调试。",
		"市民对新线路普遍表示欢迎，认为它将大大缩短前往机场的时间。",
		"有关部门还计划在线路开通后调整周边的公交路线，以方便换乘。",
	}
	orig := strings.Join(story, "")
	copied := strings.Replace(strings.Join(slices.Delete(slices.Clone(story), 3, 4), ""), "工程师", "技术人员", 1)
	docs := []core.Document{
		{ID: "orig", Title: "新地铁线路明年开通", Text: orig},
		{ID: "other1", Title: "本市举办春季花卉展览", Text: "本市第二十届春季花卉展览于周六在中心公园开幕，展出各类花卉三千余种。主办方介绍，今年的展览首次设立了儿童科普区，吸引了大批家长带着孩子前来参观。展览将持续到下月中旬，门票价格与去年持平。"},
		{ID: "copy", Title: "新地铁线路将于明年春季开通", Text: copied},
		{ID: "other2", Title: "图书馆延长开放时间", Text: "市图书馆宣布，从下个月起将延长周末的开放时间，晚上闭馆时间推迟到九点。图书馆负责人说，这一调整是根据读者的意见作出的，同时还将增加自习座位。读者可以通过网站预约座位。"},
	}
	b, err := Spec.NewBatch(Defaults(), "")
	if err != nil {
		t.Fatal(err)
	}
	enginetest.Feed(t, b, docs)
	var got []string
	for _, p := range b.Result().Pairs {
		got = append(got, p.A+" "+p.B+" "+string(p.Label))
	}
	if diff := cmp.Diff([]string{"orig copy duplicate"}, got); diff != "" {
		t.Errorf("pairs (-want +got)\n%s", diff)
	}
}
