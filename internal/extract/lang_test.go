package extract

import "testing"

func TestLanguage(t *testing.T) {
	const polish = "Rada miasta przyjęła we wtorek nowy budżet po długiej debacie. Urzędnicy powiedzieli, że plan sfinansuje naprawy dróg i dwie nowe biblioteki."
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := language(tc.text, tc.declared); got != tc.want {
				t.Errorf("language = %q, want %q", got, tc.want)
			}
		})
	}
}
