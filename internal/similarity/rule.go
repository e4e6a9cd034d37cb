package similarity

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Rule decides a pair from its named scores: clauses joined by "|", each a
// conjunction of conditions joined by "&", each condition a field, an
// operator and a number between 0 and 1:
//
//	title>0.2 & body>=0.2 | title>=0.1 & body>=0.7 | body>=0.85
//
// The rule holds when any clause holds; a clause holds when all its
// conditions do. "&" binds tighter than "|" and there are no parentheses.
// Spaces are free. The fields a rule may name are the scores a method
// computes (the tfidf method's are title and body), given to ParseRule.
//
// A Rule is immutable after parsing and safe for concurrent use.
type Rule struct {
	// Fields are the names a condition may use; Condition.Field indexes it.
	Fields []string
	// Clauses are the alternatives, in the order written.
	Clauses []Clause
	// Slack is how far, relative to a condition's number v, a score may
	// lie from it and still count as equal to it: within Slack·|v| and
	// SumSlack of v, a score meets >= v and <= v and fails > v and < v.
	// 0, as ParseRule leaves it, compares exactly; a method whose scores
	// are rounded sets it (a cosine of 32-bit weights: similarity.Slack)
	// before the rule is used.
	Slack float64
}

// Clause is a conjunction of conditions.
type Clause []Condition

// Condition compares one named score with a number.
type Condition struct {
	Field int // index into Rule.Fields
	Op    Op
	Value float64
}

// Op is a comparison operator.
type Op uint8

// The operators a condition may use.
const (
	Above   Op = iota // >
	AtLeast           // >=
	Below             // <
	AtMost            // <=
)

var opText = [...]string{Above: ">", AtLeast: ">=", Below: "<", AtMost: "<="}

// String returns the operator as written in a rule.
func (o Op) String() string { return opText[o] }

// holds reports whether score op value, a score within slack of the
// value (relative to it, and SumSlack: see Rule.Slack) counting as equal
// to it; a slack of 0 compares exactly.
func (c Condition) holds(score, slack float64) bool {
	if slack > 0 {
		slack = slack*math.Abs(c.Value) + SumSlack
	}
	switch c.Op {
	case Above:
		return score > c.Value+slack
	case AtLeast:
		return score >= c.Value-slack
	case Below:
		return score < c.Value-slack
	default:
		return score <= c.Value+slack
	}
}

// Eval returns the index of the first clause that holds for scores, which
// are indexed like Rule.Fields, or -1 when none does.
func (r *Rule) Eval(scores []float64) int {
	for i, c := range r.Clauses {
		if c.holds(scores, r.Slack) {
			return i
		}
	}
	return -1
}

// Holds reports whether every condition of c holds for scores, compared
// exactly (a Rule's Slack 0).
func (c Clause) Holds(scores []float64) bool { return c.holds(scores, 0) }

// holds reports whether every condition of c holds for scores, a score
// within slack of a condition's number counting as equal to it.
func (c Clause) holds(scores []float64, slack float64) bool {
	for _, cond := range c {
		if !cond.holds(scores[cond.Field], slack) {
			return false
		}
	}
	return true
}

// LowerBound returns the least value field must reach for c to hold: the
// largest number in a condition field > v or field >= v. ok is false when c
// puts no lower bound on field. A pair that holds c scores at least v on
// field (v less the rule's Slack), which lets a method search only among
// such pairs.
func (c Clause) LowerBound(field int) (v float64, ok bool) {
	for _, cond := range c {
		if cond.Field == field && (cond.Op == Above || cond.Op == AtLeast) && (!ok || cond.Value > v) {
			v, ok = cond.Value, true
		}
	}
	return v, ok
}

func (r *Rule) clauseString(c Clause) string {
	parts := make([]string, len(c))
	for i, cond := range c {
		parts[i] = r.Fields[cond.Field] + cond.Op.String() + strconv.FormatFloat(cond.Value, 'g', -1, 64)
	}
	return strings.Join(parts, " & ")
}

// ClauseString returns clause i in canonical form, e.g. "title>0.2 & body>=0.2".
func (r *Rule) ClauseString(i int) string { return r.clauseString(r.Clauses[i]) }

// String returns the rule in canonical form; parsing it gives the same rule.
func (r *Rule) String() string {
	parts := make([]string, len(r.Clauses))
	for i, c := range r.Clauses {
		parts[i] = r.clauseString(c)
	}
	return strings.Join(parts, " | ")
}

// RuleError is a rule that does not parse: it names the offending token and
// where it starts.
type RuleError struct {
	Rule   string // the rule as given
	Column int    // 1-based position of the token, in characters
	Token  string // the offending token; "" at the end of the rule
	Msg    string // what was expected
}

// Error names the rule, the column and the token, and what was expected.
func (e *RuleError) Error() string {
	tok := strconv.Quote(e.Token)
	if e.Token == "" {
		tok = "end of rule"
	}
	return fmt.Sprintf("rule %q: column %d, at %s: %s", e.Rule, e.Column, tok, e.Msg)
}

// ParseRule parses src, whose conditions may name only fields.
func ParseRule(src string, fields ...string) (*Rule, error) {
	p := &ruleParser{src: src, fields: fields}
	r := &Rule{Fields: fields}
	for {
		c, err := p.clause()
		if err != nil {
			return nil, err
		}
		r.Clauses = append(r.Clauses, c)
		switch t := p.next(); t.text {
		case "|":
			continue
		case "":
			return r, nil
		default:
			return nil, p.errorAt(t, `want "&", "|" or the end of the rule`)
		}
	}
}

// token is a lexeme and its byte offset in the rule.
type token struct {
	text string
	pos  int
}

type ruleParser struct {
	src    string
	fields []string
	pos    int
	peeked *token
}

func (p *ruleParser) clause() (Clause, error) {
	var c Clause
	for {
		cond, err := p.condition()
		if err != nil {
			return nil, err
		}
		c = append(c, cond)
		if t := p.peek(); t.text != "&" {
			return c, nil
		}
		p.next()
	}
}

func (p *ruleParser) condition() (Condition, error) {
	f := p.next()
	field := -1
	for i, name := range p.fields {
		if f.text == name {
			field = i
		}
	}
	if field < 0 {
		if isName(f.text) {
			return Condition{}, p.errorAt(f, "unknown field (want "+strings.Join(p.fields, " or ")+")")
		}
		return Condition{}, p.errorAt(f, "want a field ("+strings.Join(p.fields, " or ")+")")
	}
	o := p.next()
	op := -1
	for i, s := range opText {
		if o.text == s {
			op = i
		}
	}
	if op < 0 {
		return Condition{}, p.errorAt(o, "want an operator: >, >=, < or <=")
	}
	n := p.next()
	v, err := strconv.ParseFloat(n.text, 64)
	if err != nil || !isNumber(n.text) {
		return Condition{}, p.errorAt(n, "want a number between 0 and 1")
	}
	if v < 0 || v > 1 {
		return Condition{}, p.errorAt(n, "the number must be between 0 and 1")
	}
	return Condition{Field: field, Op: Op(op), Value: v}, nil
}

func (p *ruleParser) peek() token {
	if p.peeked == nil {
		t := p.lex()
		p.peeked = &t
	}
	return *p.peeked
}

func (p *ruleParser) next() token {
	t := p.peek()
	p.peeked = nil
	return t
}

// lex returns the next token: a name, a number, an operator, "&", "|", one
// other character, or "" at the end.
func (p *ruleParser) lex() token {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
	start := p.pos
	if start == len(p.src) {
		return token{pos: start}
	}
	switch c := p.src[start]; {
	case c == '<' || c == '>':
		p.pos++
		if p.pos < len(p.src) && p.src[p.pos] == '=' {
			p.pos++
		}
	case isNameByte(c) || c == '.' || c == '-' || c == '+':
		for p.pos < len(p.src) && (isNameByte(p.src[p.pos]) || strings.IndexByte(".-+", p.src[p.pos]) >= 0) {
			p.pos++
		}
	default:
		_, size := utf8.DecodeRuneInString(p.src[start:])
		p.pos += size
	}
	return token{text: p.src[start:p.pos], pos: start}
}

func (p *ruleParser) errorAt(t token, msg string) error {
	return &RuleError{Rule: p.src, Column: utf8.RuneCountInString(p.src[:t.pos]) + 1, Token: t.text, Msg: msg}
}

func isNameByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isName reports whether s is an identifier: a letter or _ then letters,
// digits or _.
func isName(s string) bool {
	if s == "" || '0' <= s[0] && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// isNumber reports whether s is a decimal number as a rule writes it:
// digits with at most one point and at least one digit, then optionally an
// exponent (e or E, an optional sign, digits), the form a rule prints very
// small numbers in (1e-05). No sign, hex, Inf or NaN.
func isNumber(s string) bool {
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	digits, points := 0, 0
	for i := 0; i < len(mant); i++ {
		switch c := mant[i]; {
		case '0' <= c && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	if digits == 0 || points > 1 {
		return false
	}
	if len(s) == len(mant) {
		return true
	}
	exp = strings.TrimLeft(exp, "+-")
	if len(exp) == 0 || len(exp)+1 < len(s)-len(mant)-1 {
		return false // no digits, or more than one sign
	}
	for i := 0; i < len(exp); i++ {
		if exp[i] < '0' || exp[i] > '9' {
			return false
		}
	}
	return true
}
