package store

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is a full-text search: documents holding every term that is not
// negated and none that is.
type Query struct {
	Terms []Term
	// Newest, when above 0, ranks only the newest Newest matches (the
	// latest added), so that a word in a large share of the documents is
	// answered without ranking every one of them; the others are counted
	// but on no page. 0 ranks every match.
	Newest int
}

// Term is a word or a phrase of a Query.
type Term struct {
	// Text is the word, or the phrase's words in order.
	Text string
	// Not excludes the documents holding it.
	Not bool
}

// Limits of a search query.
const (
	MaxQueryBytes = 1000
	MaxQueryTerms = 16
)

// ErrQuery is returned for a search query that cannot be run.
var ErrQuery = errors.New("store: bad search query")

// ParseQuery reads a search as a user types it: words and "quoted
// phrases", each required, and -word or -"phrase" to exclude; a quote left
// open runs to the end. Words match whole words, case ignored (and
// accents, in SQLite). Nothing else is syntax, on either engine: the
// operators of SQLite's FTS5 and PostgreSQL's tsquery are plain text, so
// AND, OR and NEAR are words, "rate*" is the word rate (no prefix search),
// "title:rates" the words title and rates in a row (no column filter), as
// a headline pasted into the box holds them. Terms without a letter or
// digit are dropped; a query that is not blank and has nothing else (a
// lone ", *, -) is an error wrapping ErrQuery that quotes it, not a search
// for nothing. A blank query has no terms and no error.
func ParseQuery(s string) (Query, error) {
	var q Query
	typed := s
	switch {
	case !utf8.ValidString(s):
		return q, fmt.Errorf("%w: not UTF-8", ErrQuery)
	case len(s) > MaxQueryBytes:
		return q, fmt.Errorf("%w: longer than %d bytes", ErrQuery, MaxQueryBytes)
	case strings.ContainsFunc(s, unicode.IsControl):
		return q, fmt.Errorf("%w: holds a control character", ErrQuery)
	}
	positive := false
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimLeftFunc(s, unicode.IsSpace) {
		var t Term
		if s[0] == '-' {
			t.Not, s = true, s[1:]
		}
		if strings.HasPrefix(s, `"`) {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				t.Text, s = s[1:], ""
			} else {
				t.Text, s = s[1:1+end], s[2+end:]
			}
		} else {
			end := strings.IndexFunc(s, unicode.IsSpace)
			if end < 0 {
				end = len(s)
			}
			t.Text, s = s[:end], s[end:]
		}
		t.Text = strings.Join(strings.Fields(t.Text), " ")
		if strings.IndexFunc(t.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			continue
		}
		positive = positive || !t.Not
		q.Terms = append(q.Terms, t)
	}
	switch {
	case len(q.Terms) == 0 && strings.TrimSpace(typed) != "":
		return q, fmt.Errorf("%w: %q has no word or number to find (quotes, *, : and other marks are not search syntax)", ErrQuery, strings.TrimSpace(typed))
	case len(q.Terms) > MaxQueryTerms:
		return q, fmt.Errorf("%w: more than %d terms", ErrQuery, MaxQueryTerms)
	case len(q.Terms) > 0 && !positive:
		return q, fmt.Errorf("%w: every term is excluded; name one to find", ErrQuery)
	}
	return q, nil
}

// String writes the query back in the syntax ParseQuery reads.
func (q Query) String() string {
	parts := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		s := t.Text
		if strings.ContainsFunc(s, unicode.IsSpace) || strings.HasPrefix(s, "-") {
			s = `"` + s + `"`
		}
		if t.Not {
			s = "-" + s
		}
		parts[i] = s
	}
	return strings.Join(parts, " ")
}

// The search of each engine: match returns the condition's SQL (or, for
// SQLite, the FTS5 expression) and its arguments; search and searchCount
// build the statements around it.

// sqliteMatch builds an FTS5 expression in which every term is a quoted
// string, so nothing the user typed is read as syntax.
func sqliteMatch(q Query) (string, []any) {
	var pos, neg []string
	for _, t := range q.Terms {
		s := `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
		if t.Not {
			neg = append(neg, s)
		} else {
			pos = append(pos, s)
		}
	}
	expr := "(" + strings.Join(pos, " ") + ")"
	for _, n := range neg {
		expr += " NOT " + n
	}
	return expr, []any{expr}
}

// sqliteSnippet quotes a passage of the text around the words matched, or
// of the title for a document stored without text. A text longer than
// sqliteSnippetBytes is quoted from its title when the title holds a word
// matched, else from its opening: FTS5's snippet weighs each place the
// text holds a word of the query against every other one, and a 1 MB text
// that holds the word 70,000 times took half a minute (TestSearchLongText).
const sqliteSnippet = `CASE WHEN octet_length(search.text) <= ` + sqliteSnippetBytes +
	` THEN COALESCE(NULLIF(` + sqliteTextSnippet + `, ''), ` + sqliteTitleSnippet + `)` +
	` WHEN instr(` + sqliteTitleSnippet + `, char(57344)) > 0 THEN ` + sqliteTitleSnippet +
	` ELSE substr(search.text, 1, 200) || '…' END`

const (
	sqliteTextSnippet  = `snippet(search, 1, char(57344), char(57345), '…', 24)`
	sqliteTitleSnippet = `snippet(search, 0, char(57344), char(57345), '…', 24)`
	// sqliteSnippetBytes bounds the text FTS5's snippet quotes: a text of
	// 20,000 bytes (3,000 words, more than most articles) that holds the
	// word searched 300 times is quoted in 2 ms, and one that is nothing
	// but the word, 10,000 times, in 0.8 s; 100,000 bytes of it took 20 s.
	sqliteSnippetBytes = "20000"
)

// sqliteSearch ranks the matches and quotes the page's alone: SQLite
// computes a result column for every row it sorts, and the snippet of
// each of 10,000 matches took seconds for a page of 10 (TestSearchManyMatches).
// The arguments are the match (?1, again in the quoting), the floor, the
// limit and the offset.
func sqliteSearch(string) string {
	return `WITH page AS (SELECT rowid AS ord, bm25(search, 4.0, 1.0) AS score FROM search` +
		` WHERE search MATCH ?1 AND rowid >= ?2 ORDER BY score, rowid DESC LIMIT ?3 OFFSET ?4)` +
		` SELECT page.ord, -page.score, ` + sqliteSnippet + ` FROM page JOIN search ON search.rowid = page.ord` +
		` WHERE search MATCH ?1 ORDER BY page.score, page.ord DESC`
}

func sqliteSearchCount(string) string { return `SELECT count(*) FROM search WHERE search MATCH ?` }

// sqliteSearchFloor finds the oldest of the newest matches: FTS5 reads a
// term's documents in rowid order, so this does not rank them.
func sqliteSearchFloor(string) string {
	return `SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`
}

// postgresMatch builds a tsquery of one phrase query a term, each given
// as an argument. ASCII punctuation is space to PostgreSQL's search, in
// the documents (the search table's migrations) and in the query
// (postgresPunct): its parser keeps paths, addresses and numbers whole and
// leaves out the words inside them ("bank/north" holds no "north"), and
// reads "<...>" as a tag and "&amp;" as an entity ("a<b and c>d" is a, b,
// d), where SQLite's tokenizer reads every word.
func postgresMatch(q Query) (string, []any) {
	var pos, neg []string
	var args []any
	for _, t := range q.Terms {
		if !t.Not {
			pos, args = append(pos, `phraseto_tsquery('simple', translate(?, `+postgresPunct+`))`), append(args, t.Text)
		}
	}
	for _, t := range q.Terms {
		if t.Not {
			neg, args = append(neg, `!! phraseto_tsquery('simple', translate(?, `+postgresPunct+`))`), append(args, t.Text)
		}
	}
	match := strings.Join(append(pos, neg...), ` && `)
	// What the snippet marks: the words found, and each term as the
	// parser reads the text ts_headline quotes, a path or an address whole
	// ("jane.doe@reuters.com"), so that the words it holds are marked too.
	hl := []string{`m.q`}
	for _, t := range q.Terms {
		if !t.Not {
			hl, args = append(hl, `phraseto_tsquery('simple', translate(?, '<>&', '   '))`), append(args, t.Text)
		}
	}
	return `WITH m AS (SELECT ` + match + ` AS q), q AS (SELECT m.q, ` + strings.Join(hl, ` || `) + ` AS hl FROM m)`, args
}

// postgresHeadline are ts_headline's options: a passage or two of the text
// with the words matched between HitStart and HitEnd, short words at its
// ends kept (ShortWord=0: by default ts_headline drops words of three
// letters or fewer there, so that a text's "The" went from its quote).
const postgresHeadline = `'StartSel=' || chr(57344) || ', StopSel=' || chr(57345) || ', MaxWords=30, MinWords=12, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "'`

func postgresSearch(with string) string {
	return with + `, hits AS (SELECT s.ord, ts_rank_cd(s.doc, q.q) AS rank FROM search s, q WHERE s.doc @@ q.q AND s.ord >= ?` +
		` ORDER BY rank DESC, s.ord DESC LIMIT ? OFFSET ?)` +
		` SELECT hits.ord, hits.rank, ts_headline('simple', COALESCE(NULLIF(left(t.text, ` + searchTextChars + `), ''), d.title), q.hl, ` +
		postgresHeadline + `) FROM hits CROSS JOIN q JOIN docs d ON d.ord = hits.ord LEFT JOIN texts t ON t.ord = hits.ord` +
		` ORDER BY hits.rank DESC, hits.ord DESC`
}

func postgresSearchCount(with string) string {
	return with + ` SELECT count(*) FROM search s, q WHERE s.doc @@ q.q`
}

// postgresSearchFloor finds the oldest of the newest matches without
// ranking them.
func postgresSearchFloor(with string) string {
	return with + ` SELECT s.ord FROM search s, q WHERE s.doc @@ q.q ORDER BY s.ord DESC LIMIT 1 OFFSET ?`
}

// searchTextChars is how much of a text PostgreSQL indexes and quotes: a
// tsvector holds at most 1 MB.
const searchTextChars = "100000"
