package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sentenceTexts returns the original text of each sentence.
func sentenceTexts(text string, ss []Sentence) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = text[s.Start:s.End]
	}
	return out
}

type sentenceCase struct {
	name string
	text string
	want []string
}

var englishSentenceCases = []sentenceCase{
	{"empty", "", []string{}},
	{"space only", " \n\t ", []string{}},
	{"one without terminator", "  hello world  ", []string{"hello world"}},
	{"two plain", "It rained. We stayed home.", []string{"It rained.", "We stayed home."}},
	{"question and exclamation", "Really? Yes! Fine.", []string{"Really?", "Yes!", "Fine."}},
	{"interrobang run", "You did what?! He left.", []string{"You did what?!", "He left."}},
	{"ellipsis dots then capital", "He paused... Then he left.", []string{"He paused...", "Then he left."}},
	{"ellipsis char then capital", "He paused… Then he left.", []string{"He paused…", "Then he left."}},
	{"ellipsis then lower-case continues", "Wait... what happened?", []string{"Wait... what happened?"}},
	{"lower-case after period continues", "It cost 5 dlrs. vs 4 before.", []string{"It cost 5 dlrs. vs 4 before."}},
	{"title Mr", "Mr. Smith went to Washington. He voted.", []string{"Mr. Smith went to Washington.", "He voted."}},
	{"titles Mrs Dr Prof", "Mrs. Jones met Dr. Brown and Prof. Green today.", []string{"Mrs. Jones met Dr. Brown and Prof. Green today."}},
	{"company Inc before name", "Apple Inc. Chief Executive Tim Cook spoke.", []string{"Apple Inc. Chief Executive Tim Cook spoke."}},
	{"company Inc ends sentence", "He joined Apple Inc. The deal closed.", []string{"He joined Apple Inc.", "The deal closed."}},
	{"regression Co. after Ltd. is not the Polish starter co", "Sony Corp. Ltd. Co. reported gains.", []string{"Sony Corp. Ltd. Co. reported gains."}},
	{"month before day", "On Jan. 5 and Feb. 12 prices rose.", []string{"On Jan. 5 and Feb. 12 prices rose."}},
	{"U.S. before noun", "The U.S. Army said so.", []string{"The U.S. Army said so."}},
	{"U.S. ends sentence", "He moved to the U.S. The move was hard.", []string{"He moved to the U.S.", "The move was hard."}},
	{"e.g. and i.e.", "Fruit, e.g. Apples, i.e. Red ones, etc. are fine.", []string{"Fruit, e.g. Apples, i.e. Red ones, etc. are fine."}},
	{"etc. ends sentence", "Bring pens, paper, etc. Then sit down.", []string{"Bring pens, paper, etc.", "Then sit down."}},
	{"vs.", "Smith vs. Jones was decided.", []string{"Smith vs. Jones was decided."}},
	{"No. before number", "He is ranked No. 1 in the world.", []string{"He is ranked No. 1 in the world."}},
	{"No. as a word", "The answer was No. The vote failed.", []string{"The answer was No.", "The vote failed."}},
	{"St. before name", "He lives in St. Louis now.", []string{"He lives in St. Louis now."}},
	{"initials", "J. R. Smith said it. K. Brown agreed.", []string{"J. R. Smith said it.", "K. Brown agreed."}},
	{"regression one-letter starter after initial is an initial", "J. A. Smith spoke.", []string{"J. A. Smith spoke."}},
	{"one-letter starter after abbreviation", "He joined Acme Inc. A spokesman confirmed it.", []string{"He joined Acme Inc.", "A spokesman confirmed it."}},
	{"single letter ends sentence", "He took vitamin C. The cold went away.", []string{"He took vitamin C.", "The cold went away."}},
	{"decimal", "Prices rose 3.5 percent. Sales fell.", []string{"Prices rose 3.5 percent.", "Sales fell."}},
	{"number ends sentence", "It happened in 1990. 25 people died.", []string{"It happened in 1990.", "25 people died."}},
	{"a.m. after number", "It opened at 9 a.m. Officials said so.", []string{"It opened at 9 a.m.", "Officials said so."}},
	{"closing quote after period", `He said "go home." Next day we left.`, []string{`He said "go home."`, "Next day we left."}},
	{"curly quotes", "He said “go home.” Next day we left.", []string{"He said “go home.”", "Next day we left."}},
	{"quote then lower-case continues", "“Stop!” he shouted.", []string{"“Stop!” he shouted."}},
	{"bracket after period", "It ended (finally.) Then we ate.", []string{"It ended (finally.)", "Then we ate."}},
	{"opening quote starts next", `It ended. "Why?" she asked.`, []string{"It ended.", `"Why?" she asked.`}},
	{"glued sentences", "He said here.Another sentence follows.", []string{"He said here.", "Another sentence follows."}},
	{"glued after question mark", "Why here?Because.", []string{"Why here?", "Because."}},
	{"glued after number", "It was 1990.Next year came.", []string{"It was 1990.", "Next year came."}},
	{"glued U.S.Army not split", "The U.S.Army said so.", []string{"The U.S.Army said so."}},
	{"glued e.g.The not split", "Papers, e.g.The Times, agreed.", []string{"Papers, e.g.The Times, agreed."}},
	{"glued Mr.Smith not split", "Mr.Smith arrived.", []string{"Mr.Smith arrived."}},
	{"domain not split", "Visit www.Example.com today.", []string{"Visit www.Example.com today."}},
	{"blank line ends sentence", "First part\n\nsecond part", []string{"First part", "second part"}},
	{"blank line with spaces and CRLF", "First part\r\n \r\nsecond part", []string{"First part", "second part"}},
	{"blank line after abbreviation", "He met Mr.\n\nSmith", []string{"He met Mr.", "Smith"}},
	{"paragraph separator", "First part\u2029second part", []string{"First part", "second part"}},
	{"headline before paragraph", "Tesla shares fall\nShares of Tesla fell sharply on Monday after the company reported weaker deliveries than analysts had expected for the quarter.",
		[]string{"Tesla shares fall", "Shares of Tesla fell sharply on Monday after the company reported weaker deliveries than analysts had expected for the quarter."}},
	{"hard-wrapped lines join", "Texas Commerce Bancshares Inc's Texas\nCommerce Bank-Houston said it filed an application with the\nComptroller of the Currency.",
		[]string{"Texas Commerce Bancshares Inc's Texas\nCommerce Bank-Houston said it filed an application with the\nComptroller of the Currency."}},
	{"long unterminated paragraph line then capital", "This paragraph has no final full stop because the page it came from ended it with a link to another article\nNext paragraph here.",
		[]string{"This paragraph has no final full stop because the page it came from ended it with a link to another article", "Next paragraph here."}},
	{"line ending with comma continues", "Prices rose sharply in the morning session and then, as traders took profits and the dollar firmed,\nAnalysts said more.",
		[]string{"Prices rose sharply in the morning session and then, as traders took profits and the dollar firmed,\nAnalysts said more."}},
	{"newline before lower case continues", "A headline-like line\nthat continues in lower case for quite a long time so the line is longer than a hard wrap.",
		[]string{"A headline-like line\nthat continues in lower case for quite a long time so the line is longer than a hard wrap."}},
	{"indented line starts a paragraph", "Net profit 375,061 vs loss 10.4 mln\n    Revs 39.9 mln vs 37.8 mln\n    Avg shrs 6,536,008", []string{"Net profit 375,061 vs loss 10.4 mln", "Revs 39.9 mln vs 37.8 mln", "Avg shrs 6,536,008"}},
	{"bullet list items", "The measures:\n - a freeze on petrol duty \n - An extension of tax credits", []string{"The measures:", "- a freeze on petrol duty", "- An extension of tax credits"}},
	{"dash at line start without space is no bullet", "Prices rose in the morning and\n-5 degrees were recorded", []string{"Prices rose in the morning and\n-5 degrees were recorded"}},
	{"regression month abbreviation before capital ends sentence", "Sales for Oct/Dec.\n    Buyers were the U.S. and Argentina.", []string{"Sales for Oct/Dec.", "Buyers were the U.S. and Argentina."}},
	{"regression abbreviation before indented paragraph", "options in the U.S.\n      \"I'm from Illinois,\" he said.", []string{"options in the U.S.", "\"I'm from Illinois,\" he said."}},
	{"terminator then newline", "It rained.\nWe stayed.", []string{"It rained.", "We stayed."}},
	{"symbols between blank lines", "End.\n\n* * *\n\nStart.", []string{"End.", "* * *", "Start."}},
	{"leading symbols before blank line", "***\n\nHello.", []string{"***", "Hello."}},
	{"trailing symbols stay", "Hello. :)", []string{"Hello. :)"}},
	{"leading dash stays", "— Hello there. Bye.", []string{"— Hello there.", "Bye."}},
	{"uncased script after period", "He said 東京. 東京 is big.", []string{"He said 東京.", "東京 is big."}},
	{"regression period before comma in a US dateline", "STAMFORD, Conn., Feb 26 - Qtly div 25 cts vs 25 cts prior",
		[]string{"STAMFORD, Conn., Feb 26 - Qtly div 25 cts vs 25 cts prior"}},
	{"place abbreviation before comma and lower case", "Portland, Ore., said it would buy Acme Corp., Beta Inc. and Gamma Co. The deal closed.",
		[]string{"Portland, Ore., said it would buy Acme Corp., Beta Inc. and Gamma Co.", "The deal closed."}},
	{"place abbreviation before lower case", "The Portland, Ore. company said so.", []string{"The Portland, Ore. company said so."}},
	{"period before semicolon and colon", "It sold Acme Corp.; Beta Inc. bought the rest. Sales fell in Conn.: Profit rose.",
		[]string{"It sold Acme Corp.; Beta Inc. bought the rest.", "Sales fell in Conn.: Profit rose."}},
	{"quote then comma continues", "“Stop!”, Smith shouted. He left.", []string{"“Stop!”, Smith shouted.", "He left."}},
	{"fullwidth comma after period continues", "He said Acme. ，Beta agreed.", []string{"He said Acme. ，Beta agreed."}},
	{"regression figure with decimal point and unit ends sentence", "It paid $9.3bn. Analysts said it was high.",
		[]string{"It paid $9.3bn.", "Analysts said it was high."}},
	{"figures with decimal point end sentences", "The road is 12.5km. Traffic rose 9.3. Sales were $9.3m. Prices fell 1.5 pct. Rates held.",
		[]string{"The road is 12.5km.", "Traffic rose 9.3.", "Sales were $9.3m.", "Prices fell 1.5 pct.", "Rates held."}},
	{"figure like a day and a month ends a sentence", "Inflation rose 2.5. Analysts said it was high.",
		[]string{"Inflation rose 2.5.", "Analysts said it was high."}},
	{"regression day and month after a date word continue", "Am 5.3. Gericht und Anwälte trafen sich. Od 31.12. Sejm obraduje.",
		[]string{"Am 5.3. Gericht und Anwälte trafen sich.", "Od 31.12. Sejm obraduje."}},
	{"figure without decimal point and figure in words end sentences", "It paid $9bn. Analysts agreed. It paid $9.3 billion. Critics did not.",
		[]string{"It paid $9bn.", "Analysts agreed.", "It paid $9.3 billion.", "Critics did not."}},
	{"figure with decimal point ends before a digit, continues before lower case", "Version 2.0. 5 fixes, rate 9.3. vs 9.1.",
		[]string{"Version 2.0.", "5 fixes, rate 9.3. vs 9.1."}},
}

var polishSentenceCases = []sentenceCase{
	{"pl plain", "Pada deszcz. Zostajemy w domu.", []string{"Pada deszcz.", "Zostajemy w domu."}},
	{"pl np. before name", "Miasta, np. Łódź i Kraków, rosną.", []string{"Miasta, np. Łódź i Kraków, rosną."}},
	{"pl tzw.", "To tzw. Duża Trójka. Potem przerwa.", []string{"To tzw. Duża Trójka.", "Potem przerwa."}},
	{"pl ul.", "Mieszka przy ul. Marszałkowskiej 5. Dom jest stary.", []string{"Mieszka przy ul. Marszałkowskiej 5.", "Dom jest stary."}},
	{"pl dr and prof.", "Wykład dał dr Nowak, a potem prof. Kowalski. Sala była pełna.", []string{"Wykład dał dr Nowak, a potem prof. Kowalski.", "Sala była pełna."}},
	{"pl dr. with period", "Rozmawiał z dr. Nowakiem o tym.", []string{"Rozmawiał z dr. Nowakiem o tym."}},
	{"pl itd. ends sentence", "Kupił chleb, mleko itd. W domu zjadł.", []string{"Kupił chleb, mleko itd.", "W domu zjadł."}},
	{"pl itp. before lower case", "Jabłka, gruszki itp. są tanie.", []string{"Jabłka, gruszki itp. są tanie."}},
	{"pl m.in.", "Byli tam m.in. Nowak i Kowalski. Rozmowa trwała.", []string{"Byli tam m.in. Nowak i Kowalski.", "Rozmowa trwała."}},
	{"pl r. after year ends sentence", "Stało się to w 2020 r. Prezydent milczał.", []string{"Stało się to w 2020 r.", "Prezydent milczał."}},
	{"pl r. before lower case", "W 2020 r. rząd zmienił prawo.", []string{"W 2020 r. rząd zmienił prawo."}},
	{"pl godz.", "Spotkanie o godz. 12 w sali. Potem obiad.", []string{"Spotkanie o godz. 12 w sali.", "Potem obiad."}},
	{"pl proc. after number", "Inflacja wyniosła 3,5 proc. W marcu spadła.", []string{"Inflacja wyniosła 3,5 proc.", "W marcu spadła."}},
	{"pl european decimal", "Kurs to 1.000,5 zł. Rynek spadł.", []string{"Kurs to 1.000,5 zł.", "Rynek spadł."}},
	{"pl quotes", "Powiedział: „Wracam.” Potem wyszedł.", []string{"Powiedział: „Wracam.”", "Potem wyszedł."}},
	{"pl glued", "Powiedział tutaj.Kolejne zdanie.", []string{"Powiedział tutaj.", "Kolejne zdanie."}},
	{"pl upper-case diacritic start", "Koniec. Łódź jest duża. Źródło tak podaje.", []string{"Koniec.", "Łódź jest duża.", "Źródło tak podaje."}},
	{"pl headline", "Rząd przyjął budżet\nRada Ministrów przyjęła we wtorek projekt budżetu na przyszły rok, który zakłada wzrost wydatków na obronność.",
		[]string{"Rząd przyjął budżet", "Rada Ministrów przyjęła we wtorek projekt budżetu na przyszły rok, który zakłada wzrost wydatków na obronność."}},
}

var russianSentenceCases = []sentenceCase{
	{"ru plain", "Идёт дождь. Мы дома.", []string{"Идёт дождь.", "Мы дома."}},
	{"ru г. before city", "Он живёт в г. Москва уже давно.", []string{"Он живёт в г. Москва уже давно."}},
	{"ru г. after year ends sentence", "Это было в 2019 г. Власти молчали.", []string{"Это было в 2019 г.", "Власти молчали."}},
	{"ru гг.", "В 1990-х гг. Он работал.", []string{"В 1990-х гг.", "Он работал."}},
	{"ru т.е.", "Город, т.е. Москва, растёт.", []string{"Город, т.е. Москва, растёт."}},
	{"ru т.д. ends sentence", "Хлеб, молоко и т.д. Он всё купил.", []string{"Хлеб, молоко и т.д.", "Он всё купил."}},
	{"ru и т.п. before lower case", "Книги, журналы и т.п. лежали там.", []string{"Книги, журналы и т.п. лежали там."}},
	{"ru spaced т. д.", "Хлеб, молоко и т. д. Он всё купил.", []string{"Хлеб, молоко и т. д.", "Он всё купил."}},
	{"ru ул.", "Дом на ул. Ленина стоит. Он старый.", []string{"Дом на ул. Ленина стоит.", "Он старый."}},
	{"ru им.", "Парк им. Горького открыт.", []string{"Парк им. Горького открыт."}},
	{"ru стр.", "См. стр. 5 в книге. Там всё.", []string{"См. стр. 5 в книге.", "Там всё."}},
	{"regression ru initial С is not the preposition с", "А. С. Пушкин писал.", []string{"А. С. Пушкин писал."}},
	{"ru initials", "А. С. Пушкин писал стихи. Он жил давно.", []string{"А. С. Пушкин писал стихи.", "Он жил давно."}},
	{"ru guillemets", "Он сказал: «Да.» Потом ушёл.", []string{"Он сказал: «Да.»", "Потом ушёл."}},
	{"ru decimal", "Рост составил 3,5 процента. Рынок вырос.", []string{"Рост составил 3,5 процента.", "Рынок вырос."}},
	{"ru млн after number", "Доход составил 5 млн. Компания довольна.", []string{"Доход составил 5 млн.", "Компания довольна."}},
	{"ru glued", "Он сказал здесь.Новое предложение.", []string{"Он сказал здесь.", "Новое предложение."}},
	{"ru dialogue dashes", "— Привет, — сказал он.\n— пока, — ответила она.", []string{"— Привет, — сказал он.", "— пока, — ответила она."}},
	{"ru question and exclamation", "Кто там? Никого! Хорошо.", []string{"Кто там?", "Никого!", "Хорошо."}},
}

func TestSentences(t *testing.T) {
	var a Analyzer
	for _, group := range [][]sentenceCase{englishSentenceCases, polishSentenceCases, russianSentenceCases} {
		for _, tc := range group {
			t.Run(tc.name, func(t *testing.T) {
				got := sentenceTexts(tc.text, a.Sentences(tc.text))
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tc.text, diff)
				}
			})
		}
	}
}

// scriptStopCases are three sentences ended by the full stops of scripts
// other than Latin, Cyrillic, Han and Devanagari's "।", and the same text
// with one word of the first sentence changed.
var scriptStopCases = []struct {
	name, text, changed string
	want                []string
}{
	{"urdu ۔", "آج شہر میں بارش ہوئی۔ ہم سارا دن گھر پر رہے۔ کل دھوپ نکلے گی۔",
		"آج گاؤں میں بارش ہوئی۔ ہم سارا دن گھر پر رہے۔ کل دھوپ نکلے گی۔",
		[]string{"آج شہر میں بارش ہوئی۔", "ہم سارا دن گھر پر رہے۔", "کل دھوپ نکلے گی۔"}},
	{"myanmar ။ and the comma-like ၊", "ဒီနေ့ မြို့မှာ မိုးရွာတယ်၊ လေလည်း တိုက်တယ်။ ကျွန်တော်တို့ အိမ်မှာ နေတယ်။ မနက်ဖြန် နေသာမယ်။",
		"ဒီနေ့ ရွာမှာ မိုးရွာတယ်၊ လေလည်း တိုက်တယ်။ ကျွန်တော်တို့ အိမ်မှာ နေတယ်။ မနက်ဖြန် နေသာမယ်။",
		[]string{"ဒီနေ့ မြို့မှာ မိုးရွာတယ်၊ လေလည်း တိုက်တယ်။", "ကျွန်တော်တို့ အိမ်မှာ နေတယ်။", "မနက်ဖြန် နေသာမယ်။"}},
	{"khmer ។ and ៕", "ថ្ងៃនេះភ្លៀងនៅក្នុងទីក្រុង។ យើងនៅផ្ទះពេញមួយថ្ងៃ។ ថ្ងៃស្អែកថ្ងៃនឹងរះ៕",
		"ថ្ងៃនេះភ្លៀងនៅក្នុងភូមិ។ យើងនៅផ្ទះពេញមួយថ្ងៃ។ ថ្ងៃស្អែកថ្ងៃនឹងរះ៕",
		[]string{"ថ្ងៃនេះភ្លៀងនៅក្នុងទីក្រុង។", "យើងនៅផ្ទះពេញមួយថ្ងៃ។", "ថ្ងៃស្អែកថ្ងៃនឹងរះ៕"}},
	{"amharic ።", "ዛሬ በከተማው ዝናብ ዘነበ። እኛ ቀኑን ሙሉ ቤት ቆየን። ነገ ፀሐይ ትወጣለች።",
		"ዛሬ በመንደሩ ዝናብ ዘነበ። እኛ ቀኑን ሙሉ ቤት ቆየን። ነገ ፀሐይ ትወጣለች።",
		[]string{"ዛሬ በከተማው ዝናብ ዘነበ።", "እኛ ቀኑን ሙሉ ቤት ቆየን።", "ነገ ፀሐይ ትወጣለች።"}},
	{"armenian ։", "Այսօր քաղաքում անձրև եկավ։ Մենք ամբողջ օրը մնացինք տանը։ Վաղը արև կլինի։",
		"Այսօր գյուղում անձրև եկավ։ Մենք ամբողջ օրը մնացինք տանը։ Վաղը արև կլինի։",
		[]string{"Այսօր քաղաքում անձրև եկավ։", "Մենք ամբողջ օրը մնացինք տանը։", "Վաղը արև կլինի։"}},
	{"tibetan ། and ༎", "དེ་རིང་གྲོང་ཁྱེར་ལ་ཆར་པ་བབས། ང་ཚོ་ཉིན་གང་ཁྱིམ་ལ་བསྡད། སང་ཉིན་ཉི་མ་ཤར་ཡོང་༎",
		"དེ་རིང་གྲོང་གསེབ་ལ་ཆར་པ་བབས། ང་ཚོ་ཉིན་གང་ཁྱིམ་ལ་བསྡད། སང་ཉིན་ཉི་མ་ཤར་ཡོང་༎",
		[]string{"དེ་རིང་གྲོང་ཁྱེར་ལ་ཆར་པ་བབས།", "ང་ཚོ་ཉིན་གང་ཁྱིམ་ལ་བསྡད།", "སང་ཉིན་ཉི་མ་ཤར་ཡོང་༎"}},
	{"hindi ॥", "आज शहर में बारिश हुई॥ हम पूरे दिन घर पर रहे॥ कल धूप निकलेगी॥",
		"आज गाँव में बारिश हुई॥ हम पूरे दिन घर पर रहे॥ कल धूप निकलेगी॥",
		[]string{"आज शहर में बारिश हुई॥", "हम पूरे दिन घर पर रहे॥", "कल धूप निकलेगी॥"}},
}

// TestScriptFullStopsEndSentences: the full stops of Urdu, Burmese, Khmer,
// Amharic, Armenian and Tibetan, and the Devanagari double danda, end
// sentences (the Burmese "၊", a comma, does not), so that a copy with one
// word changed shares every other sentence: their hashes are equal, the
// changed one's is not. Before, each text was one sentence and the two
// copies shared none.
func TestScriptFullStopsEndSentences(t *testing.T) {
	var a, b Analyzer
	for _, tc := range scriptStopCases {
		t.Run(tc.name, func(t *testing.T) {
			ss := a.Sentences(tc.text)
			if diff := cmp.Diff(tc.want, sentenceTexts(tc.text, ss)); diff != "" {
				t.Fatalf("Sentences(%q) mismatch (-want +got):\n%s", tc.text, diff)
			}
			cs := b.Sentences(tc.changed)
			if len(cs) != len(ss) {
				t.Fatalf("the changed copy has %d sentences, want %d: %q", len(cs), len(ss), sentenceTexts(tc.changed, cs))
			}
			if ss[0].Hash == cs[0].Hash {
				t.Errorf("the changed first sentence hashes as the original's")
			}
			for i := 1; i < len(ss); i++ {
				if ss[i].Hash != cs[i].Hash || ss[i].Hash == 0 {
					t.Errorf("sentence %d: hash %x, the changed copy's %x: want equal, not 0", i, ss[i].Hash, cs[i].Hash)
				}
			}
		})
	}
}

// TestSentenceHashInvariance is the conformance check of Sentence.Hash: it
// does not change with white space, case or non-terminating punctuation
// inside the sentence, and it changes with the words.
func TestSentenceHashInvariance(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		variants []string
	}{
		{"english", "The U.S. economy grew 3.5 percent, officials said.", []string{
			"the u.s. economy grew 3.5 percent officials said",
			"THE  U.S.\tECONOMY GREW 3.5 PERCENT, OFFICIALS SAID!",
			"“The U.S. economy grew 3.5 percent” — officials said…",
			"The U.S. economy\ngrew 3.5 percent; (officials) said?",
			"The\u00a0U.S. economy grew 3.5 percent - officials said.",
		}},
		{"polish", "Łódź: ceny wzrosły o 1.000,5 zł, np. chleb.", []string{
			"ŁÓDŹ CENY WZROSŁY O 1.000,5 ZŁ NP. CHLEB",
			"„Łódź” – ceny  wzrosły o 1.000,5 zł (np. chleb)!",
		}},
		{"russian", "Учёные из Москвы, т.е. МГУ, сообщили об этом.", []string{
			"ученые из москвы т.е. мгу сообщили об этом",
			"«Учёные» из Москвы — т.е. МГУ — сообщили об этом?!",
		}},
	}
	var a Analyzer
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := a.Sentences(tc.base)
			if len(base) != 1 || base[0].Hash == 0 {
				t.Fatalf("base %q: want one sentence with words, got %+v", tc.base, base)
			}
			want := base[0].Hash
			for _, v := range tc.variants {
				got := a.Sentences(v)
				if len(got) != 1 {
					t.Errorf("variant %q: %d sentences, want 1", v, len(got))
					continue
				}
				if got[0].Hash != want {
					t.Errorf("variant %q hashes differently from %q", v, tc.base)
				}
			}
			changed := a.Sentences(tc.base + " x")
			if changed[0].Hash == want {
				t.Errorf("adding a word did not change the hash")
			}
		})
	}
}

func TestAnalyzeConsistency(t *testing.T) {
	text := "Mr. Smith said \"hello.\" Then he left!\n\nŁódź, 2020 r. Prezydent… В 2019 г. Он ушёл.\n\nPrices  rose\n   a\u00a0 lot.\u3000\u3000Then\u2009fell."
	var a Analyzer
	toks, _ := a.Analyze(text)
	words := append([]Token(nil), toks...)
	if diff := cmp.Diff(words, a.Words(text)); diff != "" {
		t.Errorf("Analyze tokens differ from Words (-analyze +words):\n%s", diff)
	}
	_, sents := a.Analyze(text)
	next := 0
	for _, s := range sents {
		own := words[next : next+int(s.Words)]
		next += int(s.Words)
		if s.Hash != HashTokens(own) {
			t.Errorf("sentence %q: Hash is not HashTokens of its words", text[s.Start:s.End])
		}
		for _, w := range own {
			if w.Start < s.Start || w.End > s.End {
				t.Errorf("word %q outside its sentence %q", text[w.Start:w.End], text[s.Start:s.End])
			}
		}
		// A run of white space counts as one character.
		if want := int32(len([]rune(strings.Join(strings.Fields(text[s.Start:s.End]), " ")))); s.Chars != want {
			t.Errorf("sentence %q: Chars %d, want %d", text[s.Start:s.End], s.Chars, want)
		}
	}
	if next != len(words) {
		t.Errorf("sentences hold %d words, text has %d", next, len(words))
	}
}

// TestSentencesOfOlderFormats: the switches that the sketch formats before
// sentences 5 (and, FewTerminators, before 7) set split as those formats did.
func TestSentencesOfOlderFormats(t *testing.T) {
	tests := []struct {
		name string
		a    Analyzer
		text string
		want []string
	}{
		{"PeriodBeforeCommaEnds", Analyzer{PeriodBeforeCommaEnds: true}, "STAMFORD, Conn., Feb 26 - Qtly div 25 cts vs 25 cts prior",
			[]string{"STAMFORD, Conn.", ", Feb 26 - Qtly div 25 cts vs 25 cts prior"}},
		{"DecimalAbbreviates", Analyzer{DecimalAbbreviates: true}, "It paid $9.3bn. Analysts said it was high. It paid $9bn. Critics agreed.",
			[]string{"It paid $9.3bn. Analysts said it was high.", "It paid $9bn.", "Critics agreed."}},
		{"FewTerminators", Analyzer{FewTerminators: true}, "آج بارش ہوئی۔ ہم گھر پر رہے۔ Այսօր անձրև եկավ։ Վաղը արև կլինի։ Ends here. And here।",
			[]string{"آج بارش ہوئی۔ ہم گھر پر رہے۔ Այսօր անձրև եկավ։ Վաղը արև կլինի։ Ends here.", "And here।"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := sentenceTexts(tc.text, tc.a.Sentences(tc.text))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

// TestListedMarks: the marks that end sentences beyond every format's
// are a fixed list (scriptTerminator): the full stops of the scripts it
// names end a sentence; marks Unicode counts as sentence terminals but
// that their scripts write as commas (the Burmese "၊", the Javanese "꧈",
// the Balinese "᭞", the Hanunoo "᜵") or between clauses or sections (the
// Syriac "܁" and "܂", the Balinese panti "᭚") do not, so that a sketch's
// sentences do not move with the Unicode version Go ships.
func TestListedMarks(t *testing.T) {
	var a Analyzer
	for _, tc := range []struct {
		name, mark string
		ends       bool
	}{
		{"javanese pada lungsi", "꧉", true},
		{"balinese carik pareren", "᭟", true},
		{"hanunoo double punctuation", "᜶", true},
		{"meetei mayek cheikhei", "꯫", true},
		{"ol chiki punctuation mucaad", "᱾", true},
		{"syriac end of paragraph", "܀", true},
		{"mongolian full stop", "᠃", true},
		{"interrobang", "‽", true},
		{"burmese comma", "၊", false},
		{"javanese pada lingsa", "꧈", false},
		{"balinese carik siki", "᭞", false},
		{"hanunoo single punctuation", "᜵", false},
		{"syriac supralinear full stop", "܁", false},
		{"syriac sublinear full stop", "܂", false},
		{"balinese panti", "᭚", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := "Rain fell over the city all morning" + tc.mark + " People stayed at home all day long."
			want := 1
			if tc.ends {
				want = 2
			}
			if got := sentenceTexts(text, a.Sentences(text)); len(got) != want {
				t.Errorf("%q (%U) splits %q into %q, want %d sentences", tc.mark, []rune(tc.mark)[0], text, got, want)
			}
		})
	}
}
