package enginetest

import (
	"fmt"
	"strings"
	"time"

	"github.com/neardup/neardup/core"
)

// notices are templates of a notice in one language each, filled in by
// fmt.Sprintf with its figures: a bridge closed from one day of May to
// another (English, Russian, Chinese), the prices of bread and flour
// raised (Arabic).
var notices = map[string]struct{ title, text string }{
	"en": {"Bridge closure", "The bridge on Main Street will be closed to traffic from May %s to May %s for repairs, the city " +
		"council said on Monday. Drivers are advised to use the ring road while the work is carried out. Pedestrians can " +
		"still cross the river on the footbridge next to the railway station. The council apologised for the disruption " +
		"and thanked residents for their patience during the repairs."},
	"ru": {"Закрытие моста", "Мост на Главной улице будет закрыт для движения с %s по %s мая на ремонт, сообщили в мэрии в " +
		"понедельник. Водителям рекомендуют пользоваться кольцевой дорогой, пока ведутся работы. Пешеходы по-прежнему " +
		"смогут перейти реку по пешеходному мосту рядом с железнодорожным вокзалом. В мэрии извинились за неудобства и " +
		"поблагодарили жителей за терпение во время ремонта."},
	"zh": {"大桥封闭维修", "市政府周一表示，主街上的大桥将于5月%s日至5月%s日封闭维修，禁止车辆通行。施工期间建议司机绕行环城公路。" +
		"行人仍可通过火车站旁的人行桥过河。市政府对由此带来的不便表示歉意，并感谢市民在维修期间的耐心。"},
	"ar": {"أسعار الخبز", "أعلنت البلدية أن أسعار الخبز سترتفع إلى %s فلسا للرغيف اعتبارا من يوم الأحد، بعد أن كانت %s فلسا، " +
		"وأن سعر كيس الطحين سيصبح %s دينارا. وقالت البلدية في بيان إن القرار جاء بسبب ارتفاع تكاليف النقل والطاقة، وإن " +
		"المخابز ستلتزم بالأسعار الجديدة تحت طائلة المخالفة. ودعت المواطنين إلى الإبلاغ عن أي مخالفات عبر الخط الساخن."},
}

// Notice returns the notice of the template of lang ("en", "ru", "zh":
// a bridge's closure; "ar": the prices of bread) filled in with figures,
// each written in the digits that start at zero ('0'; '٠' Arabic-Indic,
// '۰' Persian), dated week weeks after April 29, 2024, with ID
// "<lang>-<week>". Two weeks' notices are one template filled in twice:
// the same words, other figures in the same places, not a duplicate.
func Notice(lang string, zero rune, week int, figures ...int) core.Document {
	n, ok := notices[lang]
	if !ok {
		panic("enginetest: no notice in " + lang)
	}
	args := make([]any, len(figures))
	for i, f := range figures {
		args[i] = strings.Map(func(r rune) rune { return zero + r - '0' }, fmt.Sprint(f))
	}
	return core.Document{ID: fmt.Sprintf("%s-%d", lang, week), Title: n.title, Text: fmt.Sprintf(n.text, args...),
		Date: time.Date(2024, 4, 29+7*week, 8, 0, 0, 0, time.UTC)}
}
