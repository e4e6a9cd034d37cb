package analysis

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Vocabularies of the generated benchmark text: common words of each
// language, a few capitalised names and some abbreviations, so that the
// text exercises the ASCII path, the table path and the sentence rules.
var benchVocab = map[string]struct{ words, names, abbrevs string }{
	"en": {
		words:   "the of and to in a is that for it as was with on by he at from his an were are which this be has had said government year market percent company would people also after new first two over more than",
		names:   "Reuters London Washington Smith Brown Europe Congress Monday Tuesday Google Apple",
		abbrevs: "Mr. Dr. Inc. Corp. U.S. e.g. Jan. No.",
	},
	"pl": {
		words:   "się nie na że do to jest w z jak po roku czy przez który także został może tylko będzie jego oraz było który już ze według procent rząd miasto ludzie kraju będą",
		names:   "Polska Warszawa Łódź Kraków Gdańsk Kowalski Wiśniewska Sejm Unia Europejska",
		abbrevs: "np. tzw. ul. dr prof. itd. m.in. r. godz.",
	},
	"ru": {
		words:   "в и не на что он с по это как из за к год также был она от для они которые его быть может при только уже будет после правительство рынок процентов компания люди",
		names:   "Россия Москва Путин Петербург Иванов Европа Госдума Сибирь Кремль",
		abbrevs: "г. т.е. т.д. ул. им. стр. млн",
	},
}

// benchText builds about size bytes of sentence-like text in lang.
func benchText(lang string, size int) string {
	v := benchVocab[lang]
	ws, ns, as := strings.Fields(v.words), strings.Fields(v.names), strings.Fields(v.abbrevs)
	rng := rand.New(rand.NewPCG(1, uint64(len(lang))))
	var b strings.Builder
	for b.Len() < size {
		n := 6 + rng.IntN(20)
		for i := 0; i < n; i++ {
			w := ws[rng.IntN(len(ws))]
			switch x := rng.IntN(20); {
			case i == 0:
				w = strings.ToUpper(w[:1]) + w[1:]
				if x < 3 {
					w = ns[rng.IntN(len(ns))]
				}
			case x == 0:
				w = ns[rng.IntN(len(ns))]
			case x == 1:
				w = as[rng.IntN(len(as))]
			case x == 2:
				w = w + ","
			case x == 3:
				w = "3.5"
			}
			b.WriteString(w)
			b.WriteByte(' ')
		}
		switch rng.IntN(10) {
		case 0:
			b.WriteString("said.\n\n")
		case 1:
			b.WriteString("now? ")
		default:
			b.WriteString("end. ")
		}
	}
	return b.String()
}

// benchDocs splits benchText into article-sized documents (~3 KB).
func benchDocs(lang string) []string {
	text := benchText(lang, 1<<20)
	var docs []string
	for len(text) > 3000 {
		cut := 3000 + strings.IndexByte(text[3000:], ' ') + 1
		docs = append(docs, text[:cut])
		text = text[cut:]
	}
	return docs
}

func benchmarkDocs(b *testing.B, run func(a *Analyzer, doc string)) {
	benchmarkDocsBytes(b, true, run)
}

// benchmarkDocsBytes runs run over generated documents; setBytes reports
// MB/s, which is wrong for work that reads only part of a document.
func benchmarkDocsBytes(b *testing.B, setBytes bool, run func(a *Analyzer, doc string)) {
	for _, lang := range []string{"en", "pl", "ru"} {
		b.Run(lang, func(b *testing.B) {
			docs := benchDocs(lang)
			total := 0
			for _, d := range docs {
				total += len(d)
			}
			var a Analyzer
			for _, d := range docs {
				run(&a, d) // warm-up: buffers reach their final size
			}
			if setBytes {
				b.SetBytes(int64(total / len(docs)))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				run(&a, docs[i%len(docs)])
			}
		})
	}
}

func BenchmarkWords(b *testing.B) {
	benchmarkDocs(b, func(a *Analyzer, doc string) { a.Words(doc) })
}

func BenchmarkSentences(b *testing.B) {
	benchmarkDocs(b, func(a *Analyzer, doc string) { a.Sentences(doc) })
}

func BenchmarkShingles(b *testing.B) {
	var a Analyzer
	toks := append([]Token(nil), a.Words(benchText("en", 1<<16))...)
	var dst []uint64
	b.SetBytes(int64(len(toks) * 8))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dst = Shingles(toks, 5, dst[:0])
	}
}

func BenchmarkNormalize(b *testing.B) {
	for _, w := range []string{"Washington", "Łódź", "Правительство", "ﬁle"} {
		b.Run(w, func(b *testing.B) {
			var a Analyzer
			var dst []byte
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dst = a.AppendNormalized(dst[:0], w)
			}
		})
	}
}

// BenchmarkDetectLang reports the cost per ~3 KB document (ns/op) of
// tokenising the first words and detecting the language.
func BenchmarkDetectLang(b *testing.B) {
	benchmarkDocsBytes(b, false, func(a *Analyzer, doc string) { a.DetectLang(doc) })
}

// BenchmarkDetectLangTokens reports the cost per document when the words
// are already there (the pipeline tokenises once).
func BenchmarkDetectLangTokens(b *testing.B) {
	for _, lang := range []string{"en", "pl", "ru"} {
		b.Run(lang, func(b *testing.B) {
			docs := benchDocs(lang)
			var a Analyzer
			toks := make([][]Token, len(docs))
			for i, d := range docs {
				toks[i] = append([]Token(nil), a.Words(d)...)
			}
			DetectLangTokens(docs[0], toks[0])
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				j := i % len(docs)
				DetectLangTokens(docs[j], toks[j])
			}
		})
	}
}

func BenchmarkStem(b *testing.B) {
	cases := map[Lang][]string{
		English: strings.Fields("running governments said markets companies people announced"),
		Polish:  strings.Fields("prezydenta rządu ministrów powiedział wyborach polskiego samochodów"),
		Russian: strings.Fields("правительства рынков компании сказал людей объявил президента"),
	}
	for _, lang := range []Lang{English, Polish, Russian} {
		words := cases[lang]
		b.Run(string(lang)+"/cached", func(b *testing.B) {
			var s Stemmer
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.Stem(lang, words[i%len(words)])
			}
		})
		b.Run(string(lang)+"/uncached", func(b *testing.B) {
			var s Stemmer
			s.Stem(lang, words[0])
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s.stem(lang, words[i%len(words)])
			}
		})
	}
}

// BenchmarkHasUnspaced reads whole documents without a letter of a script
// written without spaces, as tfidf and rarewords ask of every text.
func BenchmarkHasUnspaced(b *testing.B) {
	for _, lang := range []string{"en", "pl", "ru"} {
		b.Run(lang, func(b *testing.B) {
			var docs [][]byte
			total := 0
			for _, d := range benchDocs(lang) {
				docs = append(docs, []byte(d))
				total += len(d)
			}
			b.SetBytes(int64(total / len(docs)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if HasUnspaced(docs[i%len(docs)]) {
					b.Fatal("a letter of a script written without spaces")
				}
				i++
			}
		})
	}
}
