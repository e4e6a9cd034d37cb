package extract

// A byline's names in the form JSON-LD lists give them: "Jane Roe, John
// Doe". cleanByline cuts a byline to its names; bylineNames then drops the
// job titles after them, lists the names joined by a conjunction, and
// writes names given all in capitals as names are written.

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// bylineNames returns the names of a byline cutByline has cut, as a list
// joined by ", ": a part after a name, past a comma, that is a job title
// ("Jane Roe, Staff Writer", "Richard Roe, Science Correspondent") is
// dropped, and so are the parts after it up to the next name (one that
// opens with a conjunction, or is followed by a title itself: "Jane Roe,
// Staff Writer, and John Doe, Editor"); names joined by a conjunction
// ("Jane Roe and John Doe", "Anna Nowak i Jan Kowalski") are listed
// (splitNames); and a byline all in capitals has its names title-cased
// ("JANE ROE" → "Jane Roe", titleName). A part that opens the byline is
// never dropped ("AAA Travel Editor, SMT"), nor are credentials ("Jane
// Roe, MD") or affiliations not after a title ("Jane Roe, Reuters").
func bylineNames(s string) string {
	parts := strings.Split(s, ",")
	var names []string
	skipping := false
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if rest, ok := cutConjunction(p); ok && i > 0 {
			p, skipping = rest, false // "…, and John Doe"
		}
		switch {
		case p == "":
			continue
		case i > 0 && jobTitle(p):
			skipping = len(names) > 0
			continue
		case skipping && (i+1 == len(parts) || !jobTitle(strings.TrimSpace(parts[i+1]))):
			continue // an affiliation after a title: "…, Associate Editor, PCWorld"
		}
		skipping = false
		names = append(names, splitNames(p)...)
	}
	if len(names) == 0 {
		return s
	}
	if allCapitals(names) {
		for i, n := range names {
			names[i] = titleName(n)
		}
	}
	return strings.Join(names, ", ")
}

// titleNouns are the nouns of the job titles a byline gives after a name
// (in lower case): a reporter's, a writer's, an editor's, in the languages
// whose bylines cleanByline reads.
var titleNouns = wordSet([]string{
	// English
	"writer", "writers", "reporter", "reporters", "correspondent", "correspondents", "editor", "editors",
	"columnist", "columnists", "contributor", "contributors", "journalist", "journalists", "staff", "producer",
	"critic", "commentator", "blogger", "stringer", "freelancer", "editor-in-chief",
	// German
	"redakteur", "redakteurin", "korrespondent", "korrespondentin", "reporterin", "journalistin", "autorin",
	"kolumnist", "kolumnistin", "chefredakteur", "chefredakteurin",
	// French
	"journaliste", "rédacteur", "rédactrice", "correspondant", "correspondante", "envoyé", "envoyée",
	"chroniqueur", "chroniqueuse", "éditorialiste",
	// Spanish
	"periodista", "redactor", "redactora", "corresponsal", "enviado", "enviada", "columnista", "editora", "cronista",
	// Polish
	"dziennikarz", "dziennikarka", "redaktorka", "korespondent", "korespondentka", "reporterka", "publicysta",
	"publicystka",
	// Russian
	"корреспондент", "журналист", "журналистка", "редактор", "обозреватель", "репортер", "репортёр", "колумнист",
	"спецкор",
	// Greek
	"δημοσιογράφος", "ανταποκριτής", "ανταποκρίτρια", "συντάκτης", "συντάκτρια", "αρθρογράφος",
	// Dutch
	"verslaggever", "redacteur", "correspondente",
	// Chinese
	"记者", "記者", "编辑", "編輯", "特约记者", "通讯员",
})

// headNouns are the nouns of a job title only before a preposition ("Head
// of Marketing", "Director of Photography"): as a part's last word they
// are a surname as often ("Anthony Head").
var headNouns = wordSet([]string{"head", "director"})

// titlePrepositions may follow a title's noun: "Editor at Large",
// "Correspondent in Paris", "Korrespondent in Berlin", "envoyé spécial à
// Kyiv".
var titlePrepositions = wordSet([]string{"at", "in", "for", "of", "on", "from", "à", "en", "de", "für", "bei", "aus", "w", "z",
	"в", "из", "по", "στην", "στο", "από", "spécial", "spéciale", "especial", "specjalny"})

// maxTitleWords is the most words of a job title.
const maxTitleWords = 6

// jobTitle reports whether a part of a byline is a job title: at most
// maxTitleWords words and no digit, one of them a title's noun, the last
// or followed by a preposition ("Science Correspondent", "Senior Autos
// Reporter", "Editor at Large"), or one of headNouns followed by one
// ("Head of Research").
func jobTitle(p string) bool {
	words := strings.Fields(strings.ToLower(p))
	if len(words) == 0 || len(words) > maxTitleWords || strings.ContainsFunc(p, unicode.IsDigit) {
		return false
	}
	for i, w := range words {
		w = strings.Trim(w, ".:;()")
		followed := i+1 < len(words) && titlePrepositions[words[i+1]]
		if titleNouns[w] && (i == len(words)-1 || followed) || headNouns[w] && followed {
			return true
		}
	}
	return false
}

// conjunctions join two names in the languages whose bylines cleanByline
// reads; shortConjunctions also join the parts of one name ("José Ortega y
// Gasset", "Josep Puig i Cadafalch", "Ferreira e Silva"): a name on each
// side of them has two words or more.
var (
	conjunctions      = wordSet([]string{"and", "und", "et", "en", "и", "και"})
	shortConjunctions = wordSet([]string{"y", "i", "e"})
)

// cutConjunction returns a part of a byline without the conjunction it
// opens with ("and John Doe", after a serial comma).
func cutConjunction(p string) (string, bool) {
	first, rest, ok := strings.Cut(p, " ")
	if !ok || !conjunctions[strings.ToLower(first)] && !shortConjunctions[first] {
		return p, false
	}
	return strings.TrimSpace(rest), true
}

// splitNames splits a part of a byline at the conjunctions between names
// ("Jane Roe and John Doe", "JANE ROE AND JOHN DOE", "Jan Nowak i Anna
// Kowalska"); it returns the part whole when a side reads as no person's
// or agency's name (personName: "Center for Drug Evaluation and
// Research"), when a name is repeated ("Johnson and Johnson"), or when a
// side of one word stands beside one of three or more ("Home and Digital
// Security Expert", a title's words).
func splitNames(p string) []string {
	words := strings.Fields(p)
	upper := !strings.ContainsFunc(p, unicode.IsLower)
	var names []string
	start := 0
	short := false
	for i, w := range words {
		isShort := shortConjunctions[w] || upper && shortConjunctions[strings.ToLower(w)]
		if i == 0 || i == len(words)-1 || !conjunctions[strings.ToLower(w)] && !isShort {
			continue
		}
		names = append(names, strings.Join(words[start:i], " "))
		short = short || isShort
		start = i + 1
	}
	if len(names) == 0 {
		return []string{p}
	}
	names = append(names, strings.Join(words[start:], " "))
	least, most := maxNameWords, 0
	for i, n := range names {
		k := len(strings.Fields(n))
		if !personName(n) || short && k < 2 || slices.Contains(names[:i], n) {
			return []string{p}
		}
		least, most = min(least, k), max(most, k)
	}
	if least == 1 && most >= 3 {
		return []string{p} // a phrase: "Home and Digital Security Expert"
	}
	return names
}

// maxNameWords is the most words of one name in a list.
const maxNameWords = 5

// personName reports whether a side of a conjunction reads as a name: at
// most maxNameWords words, each capitalised, an initial, a particle ("de
// la", "van", "von", "bin") or of a script without capitals, none a word
// of a phrase ("for", "of", "the") or an institution's ("Center",
// "University", "Department").
func personName(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > maxNameWords || strings.ContainsFunc(s, unicode.IsDigit) {
		return false
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(w)
		switch {
		case phraseWords[lower] || institutionWords[strings.Trim(lower, ".,")]:
			return false
		case unicode.IsUpper(r), !unicode.IsLower(r) && !unicode.IsUpper(r), particles[lower]:
		default:
			return false
		}
	}
	return true
}

// phraseWords are the words of a phrase, not of a name.
var phraseWords = wordSet([]string{"of", "for", "the", "on", "at", "to", "from", "with", "für", "pour", "para", "dla", "des"})

// institutionWords are the words of an institution's name, which may hold
// a conjunction ("Department of Health and Human Services").
var institutionWords = wordSet([]string{"university", "universität", "université", "universidad", "institute", "institut",
	"instituto", "center", "centre", "department", "ministry", "council", "association", "society", "foundation",
	"committee", "commission", "bureau", "office", "authority", "board", "company", "corporation", "corp", "inc",
	"ltd", "llc", "gmbh", "bank", "college", "school", "hospital", "clinic", "laboratory", "research", "development",
	"science", "sciences", "services", "affairs", "technology", "engineering", "health", "education", "studies",
	"management", "communications", "marketing", "policy"})

// particles are the words of a name written in lower case after its first
// ("Juan de la Cruz", "Ludwig van Beethoven", "Ursula von der Leyen").
var particles = wordSet([]string{"de", "del", "della", "la", "le", "der", "den", "van", "von", "da", "das", "dos", "du", "zu",
	"ter", "ten", "y", "bin", "ibn"})

// allCapitals reports whether names have letters with case and all are
// capitals.
func allCapitals(names []string) bool {
	upper := false
	for _, n := range names {
		if strings.ContainsFunc(n, unicode.IsLower) {
			return false
		}
		upper = upper || strings.ContainsFunc(n, unicode.IsUpper)
	}
	return upper
}

// titleName writes a name given in capitals as names are written: "JANE
// ROE" → "Jane Roe", "MARY-KATE O'NEIL" → "Mary-Kate O'Neil",
// "MCDONALD" → "McDonald", "JUAN DE LA CRUZ" → "Juan de la Cruz". A name
// of one word, or one with an agency's or a desk's word or an acronym
// ("AFP", "BBC NEWS", "AP STAFF", "JANE ROE (AFP)"), is left as it is.
func titleName(n string) string {
	words := strings.Fields(n)
	if len(words) < 2 {
		return n
	}
	for _, w := range words {
		if agencyWords[strings.ToLower(w)] || acronym(w) {
			return n
		}
	}
	for i, w := range words {
		if lower := strings.ToLower(w); i > 0 && i < len(words)-1 && particles[lower] {
			words[i] = lower
			continue
		}
		words[i] = titleWord(w)
	}
	return strings.Join(words, " ")
}

// agencyWords name a desk, an agency or a medium rather than a person.
var agencyWords = wordSet([]string{"staff", "news", "desk", "team", "press", "agency", "redaktion", "online", "media", "tv",
	"radio", "wire", "service", "services", "times", "post", "daily", "today"})

// acronym reports whether a word in capitals is an acronym rather than a
// name: in brackets ("(AFP)"), or of Latin letters without a vowel ("BBC",
// "CNN").
func acronym(w string) bool {
	if strings.ContainsAny(w, "()[]") {
		return true
	}
	letters := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
	return len(letters) > 1 && !strings.ContainsFunc(letters, func(r rune) bool { return r > 0x7f }) &&
		!strings.ContainsAny(letters, "AEIOUY")
}

// titleWord writes a word in capitals with a capital first letter: each
// part of it after a hyphen or an apostrophe too ("Mary-Kate", "O'Neil"),
// "Mc" names with their own ("McDonald"), a Greek final sigma as such.
func titleWord(w string) string {
	var b strings.Builder
	start := true
	rs := []rune(strings.ToLower(w))
	for i, r := range rs {
		switch {
		case start && unicode.IsLetter(r):
			r, start = unicode.ToUpper(r), false
		case r == '-' || r == '\'' || r == '’':
			start = true
		case r == 'σ' && (i+1 == len(rs) || !unicode.IsLetter(rs[i+1])):
			r = 'ς'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if len(s) > 3 && strings.HasPrefix(s, "Mc") {
		r, size := utf8.DecodeRuneInString(s[2:])
		s = "Mc" + string(unicode.ToUpper(r)) + s[2+size:]
	}
	return s
}
