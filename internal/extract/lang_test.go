package extract

import (
	"strings"
	"testing"
)

func TestLanguage(t *testing.T) {
	const polish = "Rada miasta przyjęła we wtorek nowy budżet po długiej debacie. Urzędnicy powiedzieli, że plan sfinansuje naprawy dróg i dwie nowe biblioteki."
	const russian = "Городской совет во вторник утвердил новый бюджет после долгих дебатов. Чиновники заявили, что план позволит отремонтировать дороги и построить две новые библиотеки."
	// Regression: a Japanese story dense in kanji was taken for Chinese.
	const japanese = "日本銀行は金融政策決定会合で、短期金利の誘導目標を引き上げることを決めた。物価の上昇が続いており、賃金の伸びも確認されたためだ。市場関係者の多くはこの決定を予想していた。"
	const chinese = "市议会周二在经过长时间辩论后批准了新的预算。官员们表示，该计划将为道路维修和两座新图书馆提供资金。"
	const english = "The city council approved the new budget on Tuesday after a long debate. Officials said the plan would fund road repairs and two new libraries."
	for _, tc := range []struct {
		name, text, declared, want string
	}{
		{"declared wins", english, "pl-PL", "pl"},
		{"declared with underscore", english, "EN_gb", "en"},
		{"detected when undeclared", polish, "", "pl"},
		{"detected english", english, "", "en"},
		{"bogus declaration ignored", english, "x", "en"},
		{"nothing to go on", "", "", ""},
		{"english declared over polish", polish + " " + polish, "en", "pl"},
		{"english declared over russian", russian, "en-US", "ru"},
		{"english declared over chinese", chinese, "en", "zh"},
		{"detected chinese", chinese, "", "zh"},
		{"detected japanese, dense in kanji", strings.Repeat(japanese, 8), "", "ja"},
		{"english declared over japanese", strings.Repeat(japanese, 8), "en", "ja"},
		// Regression (reviewer's finding): a text in another script
		// quoting a Japanese name was taken for Japanese.
		{"french quoting a japanese name", "Le fabricant japonais Nintendo (ニンテンドー) a annoncé mardi une nouvelle console portable, " +
			"qui sera vendue dans le monde entier à partir du mois de mars prochain selon la société.", "", "fr"},
		{"korean quoting a japanese name", "닌텐도(ニンテンドー)는 화요일 새로운 휴대용 게임기를 발표했다. 회사는 내년 3월부터 전 세계에서 판매할 예정이라고 밝혔다.", "", "ko"},
		{"english declared over english", english + " " + english, "en", "en"},
		{"english declared over a table", "PCT GB HOME AWAY DIV CONF PPG DIFF STRK L10 45 17 .726 23-8 21-9 10-4 30-9 116.8 109.6 L3 6-4 42 21 .667 3.5 21-10 NBA WEST EAST ATL BOS NYK PHI TOR CHI CLE DET IND MIL", "en", "en"},
		{"other declarations trusted", english + " " + english, "de", "de"},
		{"a charset is no language", english, "utf-8", "en"},
		{"three letters made two", english, "deu", "de"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := language(tc.text, tc.declared); got != tc.want {
				t.Errorf("language = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestEnglishShare(t *testing.T) {
	const english = "The city council approved the new budget on Tuesday after a long debate. Officials said the plan would fund road repairs and two new libraries. "
	const dutch = "De gemeenteraad heeft dinsdag na een lang debat de nieuwe begroting goedgekeurd. Ambtenaren zeiden dat het plan wegreparaties en twee nieuwe bibliotheken financiert. "
	const russian = "Городской совет во вторник утвердил новый бюджет после долгих дебатов. Чиновники заявили, что план позволит отремонтировать дороги. "
	for _, tc := range []struct {
		name, text string
		min, max   float64
	}{
		{"english prose", english + english, clearlyEnglish, 1},
		{"dutch prose", dutch + dutch, 0, minEnglish},
		{"another script", russian + russian, 0, 0},
		{"too short to say", "The council met.", -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := englishShare(tc.text); got < tc.min || got > tc.max {
				t.Errorf("englishShare = %.3f, want %.3f – %.3f", got, tc.min, tc.max)
			}
			if tc.min >= clearlyEnglish && language(tc.text, "") != "en" {
				t.Errorf("language = %q, want en", language(tc.text, ""))
			}
		})
	}
}
