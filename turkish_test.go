package neardup_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/method/cosine"
	"github.com/neardup/neardup/method/minhash"
	"github.com/neardup/neardup/method/sentences"
	"github.com/neardup/neardup/method/simhash"
)

// turkishStory is a Turkish news story with every letter Turkish case
// rules treat apart: the dotless "ı" and the dotted "i", whose capitals are
// "I" and "İ".
const turkishStory = "İzmir'de yapımı tamamlanan yeni köprü pazartesi günü düzenlenen törenle hizmete açıldı. " +
	"Belediye başkanı, törende yaptığı konuşmada köprünün şehir trafiğini büyük ölçüde rahatlatacağını söyledi. " +
	"Dört yüz elli metre uzunluğundaki köprünün yapımı on sekiz ay sürdü ve inşaatı yerel bir şirket üstlendi. " +
	"Köprü sayesinde iki yaka arasındaki yolculuk süresinin yaklaşık yirmi dakika kısalması bekleniyor. " +
	"Törene milletvekilleri, il protokolü ve çok sayıda vatandaş katıldı. " +
	"Bazı vatandaşlar bisiklet yolu bulunmadığını eleştirdi, ancak belediye yaz aylarında düzenleme yapılacağını açıkladı. " +
	"Uzmanlar, benzer projelerin çoğunlukla gecikmeli tamamlandığını, bu köprünün ise planlanan süreden önce bittiğini vurguladı. " +
	"Köprünün gece aydınlatması için güneş enerjisi panelleri kullanıldı."

// turkishCorpus returns the story, its copy upper-cased by Turkish rules
// ("YAPIMI", "İZMİR"), its copy decomposed (NFD: "ö" written "o" and a
// combining diaeresis) and two other stories.
func turkishCorpus() []neardup.Document {
	return []neardup.Document{
		{ID: "tr", Text: turkishStory},
		{ID: "tr-upper", Text: strings.ToUpperSpecial(unicode.TurkishCase, turkishStory)},
		{ID: "tr-nfd", Text: norm.NFD.String(turkishStory)},
		{ID: "other-tr", Text: "Meteoroloji, hafta sonu kıyı kesimlerde kuvvetli yağış ve fırtına beklendiğini duyurdu. " +
			"Balıkçıların denize açılmaması, sürücülerin de dikkatli olması istendi. Okullar cuma günü tatil edildi. " +
			"Yetkililer, taşkın riskine karşı ekiplerin hazır bekletildiğini açıkladı."},
		{ID: "other-en", Text: "The central bank left its main rate unchanged on Thursday, citing slowing inflation. " +
			"Analysts had expected the decision, and markets barely moved. The governor said further cuts were possible. " +
			"Exporters welcomed the stable currency, while importers asked for more support."},
	}
}

// pairScore returns the score of the pair of a and b in pairs, and
// whether there is one.
func pairScore(pairs []neardup.Pair, a, b string) (float64, bool) {
	for _, p := range pairs {
		if p.A == a && p.B == b || p.A == b && p.B == a {
			return p.Score, true
		}
	}
	return 0, false
}

// TestTurkishUpperCaseCopy pins the fault of a Turkish story's copy in
// capitals: "YAPIMI" and "yapımı" were two words (Unicode case folding
// keeps the dotless "ı"), so minhash scored the copy 0.58 and simhash,
// sentences and cosine found no pair. Every method finds it, as it finds a
// Polish or German copy in capitals, with the score of a true copy.
func TestTurkishUpperCaseCopy(t *testing.T) {
	for _, method := range []string{"minhash", "simhash", "sentences", "cosine", "tfidf"} {
		t.Run(method, func(t *testing.T) {
			res, err := neardup.Dedup(t.Context(), turkishCorpus(), neardup.Options{MethodName: method})
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := pairScore(res.Pairs, "tr", "tr-upper"); !ok || s < 0.99 {
				t.Errorf("the copy in capitals: found %v, score %v; want a pair of score 1 (pairs %+v)", ok, s, res.Pairs)
			}
		})
	}
}

// TestTurkishDecomposedCopy pins the fault of a Turkish story's copy
// written decomposed (NFD): cosine scored it 0.43, as the language was
// told by precomposed letters alone and the copy lost the stemming of the
// story's language. Every method of the project's words scores it 1.
func TestTurkishDecomposedCopy(t *testing.T) {
	for _, method := range []string{"minhash", "simhash", "sentences", "cosine"} {
		t.Run(method, func(t *testing.T) {
			res, err := neardup.Dedup(t.Context(), turkishCorpus(), neardup.Options{MethodName: method})
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := pairScore(res.Pairs, "tr", "tr-nfd"); !ok || s < 0.99 {
				t.Errorf("the decomposed copy: found %v, score %v; want a pair of score 1 (pairs %+v)", ok, s, res.Pairs)
			}
		})
	}
}

// TestTurkishOlderFormats: an index of the sketch format each method made
// before "ı" and "İ" were folded to "i" and decomposed letters told the
// language (minhash 11 and 12, simhash 7 and 8, sentences and cosine 4 and
// 5) goes on reading them as it did, so that its new sketches
// compare with those it holds: the copy in capitals is no copy of score 1
// there, nor is the decomposed copy to cosine.
func TestTurkishOlderFormats(t *testing.T) {
	docs := turkishCorpus()
	tests := []struct {
		o      neardup.MethodOptions
		format int
		copyID string
	}{
		{minhash.Defaults(), 11, "tr-upper"},
		{simhash.Defaults(), 7, "tr-upper"},
		{sentences.Defaults(), 4, "tr-upper"},
		{cosine.Defaults(), 4, "tr-upper"},
		{cosine.Defaults(), 4, "tr-nfd"},
		{minhash.Defaults(), 12, "tr-upper"},
		{simhash.Defaults(), 8, "tr-upper"},
		{sentences.Defaults(), 5, "tr-upper"},
		{cosine.Defaults(), 5, "tr-upper"},
		{cosine.Defaults(), 5, "tr-nfd"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.o.Method(), tc.format, tc.copyID), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "old.db")
			setSketchFormat(t, db, tc.o, tc.format)
			x, err := neardup.Open(t.Context(), db, neardup.Options{MethodName: tc.o.Method()})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			// The story, the other stories (which give tfidf's weights)
			// and the copy last.
			byID := func(id string) neardup.Document {
				return docs[slices.IndexFunc(docs, func(d neardup.Document) bool { return d.ID == id })]
			}
			ms, err := x.Add(t.Context(), byID("tr"), byID("other-tr"), byID("other-en"), byID(tc.copyID))
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := pairScore(ms[3].Pairs, "tr", tc.copyID); ok && s >= 0.99 {
				t.Errorf("score %v, want the lower score (or no pair) the format made", s)
			}
		})
	}
}
