package analysis

import (
	"testing"
)

func TestStem(t *testing.T) {
	tests := []struct {
		lang       Lang
		word, want string
	}{
		{English, "running", "run"},
		{English, "governments", "govern"},
		{English, "said", "said"},
		{English, "companies", "compani"},
		{Russian, "правительства", "правительств"},
		{Russian, "компании", "компан"},
		{Russian, "президентом", "президент"},
		{Polish, "prezydenta", "prezydent"},
		{Polish, "prezydentowi", "prezydent"},
		{Polish, "wyborach", "wybór"},
		{Polish, "wyborów", "wybór"},
		{Polish, "powiedziała", "powiedzieć"},
		{Polish, "a", "a"},
		{German, "regierungen", "regier"},
		{French, "gouvernements", "gouvern"},
		{Spanish, "ciudades", "ciudad"},
		{Italian, "governi", "govern"},
		{Ukrainian, "уряду", "уряду"},
		{Czech, "vlády", "vlády"},
		{Unknown, "running", "running"},
		{English, "", ""},
		{Polish, "", ""},
	}
	var s Stemmer
	for _, tc := range tests {
		t.Run(string(tc.lang)+"/"+tc.word, func(t *testing.T) {
			if got := Stem(tc.lang, tc.word); got != tc.want {
				t.Errorf("Stem(%q, %q) = %q, want %q", tc.lang, tc.word, got, tc.want)
			}
			for range 2 { // miss, then cache hit
				if got := s.Stem(tc.lang, tc.word); got != tc.want {
					t.Errorf("Stemmer.Stem(%q, %q) = %q, want %q", tc.lang, tc.word, got, tc.want)
				}
			}
			if got := s.StemBytes(tc.lang, []byte(tc.word)); got != tc.want {
				t.Errorf("StemBytes(%q, %q) = %q, want %q", tc.lang, tc.word, got, tc.want)
			}
		})
	}
}

func TestLoadPolishStemmer(t *testing.T) {
	if err := LoadPolishStemmer(); err != nil {
		t.Fatalf("LoadPolishStemmer: %v", err)
	}
}

func TestStemmerCacheIsBounded(t *testing.T) {
	var s Stemmer
	for i := 0; i < stemCacheSize+10; i++ {
		s.Stem(English, string(rune('a'+i%26))+string(rune(0x100+i)))
	}
	if n := len(s.cache[langIndex(English)]); n > stemCacheSize {
		t.Errorf("cache holds %d words, bound %d", n, stemCacheSize)
	}
}

func TestStemBytesHitDoesNotAllocate(t *testing.T) {
	var s Stemmer
	w := []byte("prezydentowi")
	s.StemBytes(Polish, w)
	if n := testing.AllocsPerRun(100, func() { s.StemBytes(Polish, w) }); n != 0 {
		t.Errorf("StemBytes allocates %v times on a cache hit", n)
	}
}

func FuzzStem(f *testing.F) {
	for _, w := range []string{"running", "prezydentowi", "правительства", "ąęłńśźż", "", "x"} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, word string) {
		w := Normalize(word)
		var s Stemmer
		for _, lang := range langs {
			stem := s.Stem(lang, w)
			if w != "" && stem == "" && lang != Polish {
				t.Errorf("%s: empty stem of %q", lang, w)
			}
		}
	})
}
