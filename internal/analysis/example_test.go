package analysis_test

import (
	"fmt"

	"github.com/neardup/neardup/internal/analysis"
)

func ExampleAnalyzer_Words() {
	var a analysis.Analyzer
	text := "Łódź's well-known café: 3.5 percent!"
	for _, t := range a.Words(text) {
		fmt.Printf("%q ", text[t.Start:t.End])
	}
	fmt.Println()
	// Output: "Łódź's" "well" "known" "café" "3.5" "percent"
}

func ExampleAnalyzer_Sentences() {
	var a analysis.Analyzer
	text := `Mr. Smith met J. R. Jones in the U.S. on Jan. 5. "It went well." They left.`
	for _, s := range a.Sentences(text) {
		fmt.Printf("%d words: %s\n", s.Words, text[s.Start:s.End])
	}
	// Output:
	// 12 words: Mr. Smith met J. R. Jones in the U.S. on Jan. 5.
	// 3 words: "It went well."
	// 2 words: They left.
}

func ExampleShingles() {
	var a analysis.Analyzer
	same := analysis.Shingles(a.Words("The quick brown fox"), 3, nil)
	other := analysis.Shingles(a.Words("THE QUICK, brown fox!"), 3, nil)
	fmt.Println(len(same), same[0] == other[0], same[1] == other[1])
	// Output: 2 true true
}

func ExampleNormalize() {
	fmt.Println(analysis.Normalize("ŁÓDŹ ﬁle Straße don’t Учёные"))
	// Output: łódź file strasse don't ученые
}

func ExampleDetectLang() {
	fmt.Println(analysis.DetectLang("Rząd przyjął we wtorek projekt ustawy."))
	fmt.Println(analysis.DetectLang("Правительство объявило о новом законе."))
	fmt.Println(analysis.DetectLang("The government announced a new law."))
	// Output:
	// pl
	// ru
	// en
}

func ExampleStemmer() {
	var a analysis.Analyzer
	var s analysis.Stemmer
	text := "Wybory prezydenta: prezydentowi brakuje głosów w wyborach"
	lang := analysis.DetectLang(text)
	var buf []byte
	for _, t := range a.Words(text) {
		if analysis.IsStopToken(lang, t) {
			continue
		}
		buf = a.AppendNormalized(buf[:0], text[t.Start:t.End])
		fmt.Print(s.StemBytes(lang, buf), " ")
	}
	fmt.Println()
	// Output: wybór prezydent prezydent brakujć głos wybór
}
