package enginetest

import (
	"fmt"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
)

// verdicts are templates of a court notice in one language each, filled
// in by fmt.Sprintf with the years of the sentence written as a word (as
// news writes a number up to ten) and the sum of the bribe.
var verdicts = map[string]struct{ title, text string }{
	"en": {"Former city official jailed for bribery", "ESSEN, March 12 - A regional court on Tuesday sentenced a " +
		"former city official to %s years in prison for taking %s euros from a building firm in return for municipal " +
		"contracts. The prosecution had sought a longer term and the defence an acquittal. The court also barred him " +
		"from public office for five years. The ruling can be appealed."},
	"de": {"Früherer Beamter wegen Bestechlichkeit verurteilt", "ESSEN, 12. März - Das Landgericht hat am Dienstag " +
		"einen früheren Beamten der Stadtverwaltung wegen Bestechlichkeit zu %s Jahren Haft verurteilt. Er hatte von " +
		"einer Baufirma %s Euro angenommen und im Gegenzug städtische Aufträge vergeben. Die Anklage hatte eine höhere " +
		"Strafe gefordert, die Verteidigung einen Freispruch. Zudem darf er fünf Jahre lang kein öffentliches Amt " +
		"bekleiden. Das Urteil ist nicht rechtskräftig."},
	"fr": {"Un ancien cadre de la mairie condamné", "MARSEILLE, 12 mars - Le tribunal correctionnel a condamné mardi un " +
		"ancien chef de service de la mairie à %s ans de prison pour corruption. Il avait perçu %s euros d'une " +
		"entreprise du bâtiment en échange de marchés publics. Le parquet avait requis une peine plus lourde, la défense " +
		"la relaxe. Il est aussi interdit de fonction publique pendant cinq ans. Le jugement n'est pas définitif."},
	"es": {"Condenado un antiguo jefe municipal por cohecho", "MÁLAGA, 12 de marzo - La Audiencia Provincial condenó " +
		"este martes a %s años de prisión a un antiguo jefe de servicio del Ayuntamiento por cohecho. El tribunal da " +
		"por probado que aceptó %s euros de una constructora a cambio de contratos municipales. La Fiscalía había pedido " +
		"una pena mayor y la defensa, la absolución. Le impone además cinco años de inhabilitación. La sentencia no es firme."},
	"pl": {"Były urzędnik skazany za łapówkę", "KATOWICE, 12 marca (PAP) - Sąd Okręgowy skazał we wtorek byłego " +
		"naczelnika wydziału urzędu miasta na %s lata więzienia za przyjęcie łapówki. Mężczyzna przyjął od firmy " +
		"budowlanej %s zł w zamian za pomoc w uzyskaniu zamówień. Prokuratura chciała surowszej kary, obrona " +
		"uniewinnienia. Sąd orzekł też zakaz zajmowania stanowisk przez pięć lat. Wyrok jest nieprawomocny."},
	"ru": {"Бывшего чиновника осудили за взятку", "ЕКАТЕРИНБУРГ, 12 марта. /ТАСС/. Районный суд во вторник приговорил " +
		"бывшего начальника отдела городской администрации к %s годам колонии за получение взятки. Суд установил, что " +
		"он получил от строительной компании %s рублей за содействие в заключении муниципальных контрактов. Обвинение " +
		"просило более строгого наказания, защита - оправдания. Ему также запрещено занимать государственные должности " +
		"в течение пяти лет. Приговор не вступил в законную силу."},
}

// verdictYears are the years of Verdict's sentence, three or four, as
// each language writes them in its frame ("к трём годам"), and the sums
// of the bribe that go with them.
var verdictYears = map[string][2][2]string{
	"en": {{"three", "180,000"}, {"four", "260,000"}},
	"de": {{"drei", "180.000"}, {"vier", "260.000"}},
	"fr": {{"trois", "180 000"}, {"quatre", "260 000"}},
	"es": {{"tres", "180.000"}, {"cuatro", "260.000"}},
	"pl": {{"trzy", "180 tys."}, {"cztery", "260 tys."}},
	"ru": {{"трём", "1,8 млн"}, {"четырём", "2,6 млн"}},
}

// VerdictLanguages are the languages of Verdict.
var VerdictLanguages = []string{"en", "de", "fr", "es", "pl", "ru"}

// Verdict returns the court notice of the template of lang (one of
// VerdictLanguages) sentencing a former official to years (3 or 4) in
// prison, written as a word ("drei", "трём"), for a bribe that goes with
// them, dated March 12, 2024, at 10:00 for three years and 11:00 for
// four, with ID "<lang>-<years>". Two such notices are one template filled
// in twice: the same words, other figures in the same places, not a
// duplicate.
func Verdict(lang string, years int) core.Document {
	n, ok := verdicts[lang]
	if !ok || years < 3 || years > 4 {
		panic(fmt.Sprintf("enginetest: no verdict of %d years in %s", years, lang))
	}
	y := verdictYears[lang][years-3]
	return core.Document{ID: fmt.Sprintf("%s-%d", lang, years), Title: n.title, Text: fmt.Sprintf(n.text, y[0], y[1]),
		Date: time.Date(2024, 3, 12, 7+years, 0, 0, 0, time.UTC)}
}

// weeklies are a weekly notice of a water cut under the dateline of a
// wire service, filled in by fmt.Sprintf with the day of March, by the
// form of the dateline.
var weeklies = map[string]struct{ title, text string }{
	"en": {"Water cut in the northern district", "NEW YORK, March %d - The city water utility will cut the supply in " +
		"the northern district on Thursday from 9:00 to 17:00 for maintenance of the main pipeline, it said. Residents " +
		"of about 40 streets are advised to store water. Tankers will stand on the central square during the works."},
	"es-de": {"Corte de agua en el distrito norte", "MADRID, %d de marzo - La empresa municipal de aguas cortará el " +
		"suministro en el distrito norte el jueves de 9:00 a 17:00 por el mantenimiento de la tubería principal, informó. " +
		"Se recomienda a los vecinos de unas 40 calles almacenar agua. Habrá camiones cisterna en la plaza central."},
	"es-efe": {"Corte de agua en el distrito norte", "Madrid, %d mar (EFE).- La empresa municipal de aguas cortará el " +
		"suministro en el distrito norte el jueves de 9:00 a 17:00 por el mantenimiento de la tubería principal, informó. " +
		"Se recomienda a los vecinos de unas 40 calles almacenar agua. Habrá camiones cisterna en la plaza central."},
	"ru-interfax": {"В северном районе отключат воду", "Москва. %d марта. ИНТЕРФАКС - Городской водоканал в четверг с " +
		"9:00 до 17:00 отключит воду в северном районе для ремонта магистрального трубопровода, сообщили в предприятии. " +
		"Жителям около 40 улиц рекомендуют запастись водой. На центральной площади будут дежурить автоцистерны."},
	"ru-tass": {"В северном районе отключат воду", "МОСКВА, %d марта. /ТАСС/. Городской водоканал в четверг с " +
		"9:00 до 17:00 отключит воду в северном районе для ремонта магистрального трубопровода, сообщили в предприятии. " +
		"Жителям около 40 улиц рекомендуют запастись водой. На центральной площади будут дежурить автоцистерны."},
	"de-dpa": {"Wassersperre im Norden der Stadt", "BERLIN, %d. März (dpa) - Die Wasserbetriebe sperren am Donnerstag " +
		"von 9:00 bis 17:00 Uhr im Norden der Stadt das Wasser für Arbeiten an der Hauptleitung, teilten sie mit. " +
		"Anwohner von rund 40 Straßen sollen Wasser vorrätig halten. Auf dem Marktplatz stehen Tankwagen bereit."},
	"fr-afp": {"Coupure d'eau dans le quartier nord", "PARIS, %d mars (AFP) - Le service des eaux coupera l'eau dans le " +
		"quartier nord jeudi de 9:00 à 17:00 pour l'entretien de la conduite principale, a-t-il annoncé. Les habitants " +
		"d'environ 40 rues sont invités à faire des réserves. Des camions-citernes stationneront sur la place centrale."},
	"fr-date": {"Coupure d'eau dans le quartier nord", "%d mars 2024 (Reuters) - Le service des eaux coupera l'eau dans le " +
		"quartier nord jeudi de 9:00 à 17:00 pour l'entretien de la conduite principale, a-t-il annoncé. Les habitants " +
		"d'environ 40 rues sont invités à faire des réserves. Des camions-citernes stationneront sur la place centrale."},
}

// WeeklyForms are the forms of dateline of Weekly: English's, Spanish's
// day and month joined by "de", EFE's, Interfax's, TASS's, dpa's
// ("BERLIN, 5. März (dpa) -"), AFP's ("PARIS, 5 mars (AFP) -") and a
// date with an agency and no place ("5 mars 2024 (Reuters) -").
var WeeklyForms = []string{"en", "es-de", "es-efe", "ru-interfax", "ru-tass", "de-dpa", "fr-afp", "fr-date"}

// Weekly returns the weekly notice of a water cut under the dateline of
// form (one of WeeklyForms) of March day, 2024, dated that day at 8:00,
// with ID "<form>-<day>". The notices of two weeks are the same words
// under datelines of other days, a week apart: an item that recurs, not a
// duplicate.
func Weekly(form string, day int) core.Document {
	n, ok := weeklies[form]
	if !ok {
		panic("enginetest: no weekly notice of form " + form)
	}
	return core.Document{ID: fmt.Sprintf("%s-%d", form, day), Title: n.title, Text: fmt.Sprintf(n.text, day),
		Date: time.Date(2024, 3, day, 8, 0, 0, 0, time.UTC)}
}

// budgets are a city budget notice in one language each, its sums written
// with their groups of thousands set apart by a space as the language
// writes them (French a narrow no-break space, Polish a space, Russian a
// no-break space), filled in by fmt.Sprintf with the budget and its share
// for canteens.
var budgets = map[string]struct{ title, text string }{
	"fr": {"Le conseil municipal vote le budget des écoles", "LYON, 12 mars - Le conseil municipal a voté mardi un " +
		"budget de %s euros pour la rénovation des écoles, dont %s euros pour les cantines et 45\u202f000 euros " +
		"d'études. Les travaux commenceront à la rentrée et la mairie publiera le calendrier des chantiers. " +
		"L'opposition a voté contre."},
	"pl": {"Rada miasta przyjęła budżet szkół", "KRAKÓW, 12 marca (PAP) - Rada miasta przyjęła we wtorek budżet " +
		"w wysokości %s zł na remont szkół, w tym %s zł na stołówki i 45 000 zł na projekty. Prace ruszą po " +
		"wakacjach, a urząd opublikuje harmonogram robót. Opozycja głosowała przeciw."},
	"ru": {"Дума утвердила бюджет на ремонт школ", "ЕКАТЕРИНБУРГ, 12 марта. /ТАСС/. Городская дума во вторник " +
		"утвердила бюджет в %s рублей на ремонт школ, в том числе %s рублей на столовые и 45\u00a0000 рублей на " +
		"проекты. Работы начнутся после каникул, а администрация опубликует график. Оппозиция голосовала против."},
}

// budgetSums are the budget and its share of Budget's two fillings, each
// written with the space of budgets' language between its groups.
var budgetSums = [2][2]string{{"1 250 000", "180 000"}, {"1 480 000", "260 000"}}

// BudgetLanguages are the languages of Budget.
var BudgetLanguages = []string{"fr", "pl", "ru"}

// Budget returns the city budget notice of lang (one of BudgetLanguages),
// filling 0 or 1, its sums written with the groups of thousands set apart
// by a space ("1 250 000 zł"), dated March 12, 2024, at 10:00 for the
// first and 11:00 for the second, with ID "<lang>-budget-<filling>". The
// two fillings are one template filled in twice: the same words, two of
// three sums other, not a duplicate.
func Budget(lang string, filling int) core.Document {
	n, ok := budgets[lang]
	if !ok || filling < 0 || filling > 1 {
		panic(fmt.Sprintf("enginetest: no budget %d in %s", filling, lang))
	}
	space := map[string]string{"fr": "\u202f", "pl": " ", "ru": "\u00a0"}[lang]
	sums := budgetSums[filling]
	return core.Document{ID: fmt.Sprintf("%s-budget-%d", lang, filling), Title: n.title,
		Text: fmt.Sprintf(n.text, strings.ReplaceAll(sums[0], " ", space), strings.ReplaceAll(sums[1], " ", space)),
		Date: time.Date(2024, 3, 12, 10+filling, 0, 0, 0, time.UTC)}
}
