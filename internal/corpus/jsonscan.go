package corpus

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file holds a JSON scanner specialised for JSONL records: it validates
// a whole line with the grammar encoding/json accepts and picks out the
// top-level values of a few keys, without building a map or reflecting.

// maxDepth is encoding/json's nesting limit; scanning agrees with json.Valid.
const maxDepth = 10000

// valueKind is the JSON type of a picked value.
type valueKind uint8

const (
	vMissing valueKind = iota
	vString
	vNumber
	vNull
	vBool
	vObject
	vArray
)

// String names the kind as messages say it.
func (k valueKind) String() string {
	return [...]string{"missing", "string", "number", "null", "boolean", "object", "array"}[k]
}

// jsonValue is one picked top-level value: for a string, its bytes between
// the quotes; for a number, its literal.
type jsonValue struct {
	kind  valueKind
	b     []byte
	esc   bool   // the string contains escapes
	exact bool   // the key matched exactly (not ignoring case)
	key   []byte // the key, unescaped
	// clash lists the keys, two or more, that match the field's name only
	// ignoring case, none exactly: no value is the field's (see
	// matchColumn). It is made only then.
	clash *keyClash
}

// keyClash is what a record's keys that match a field's name only
// ignoring case say, for a message: the name looked for and the keys.
type keyClash struct {
	name string   // the name they match: a key, or a dotted path to one ("_source.body")
	keys []string // the keys, in the record's order: dotted paths to those in its objects too
	tail string   // the rest of the field's path after them (".text"), for the flags that name one
}

// text decodes a string value (escapes resolved; bytes that are not UTF-8
// are kept as they are, so callers can reject them) or returns a number's
// literal.
func (v *jsonValue) text() string {
	if v.kind == vString && v.esc {
		return unquote(v.b)
	}
	return string(v.b)
}

// strSafe marks the bytes a string may hold without a closer look.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// hasStrSpecial reports whether any of the eight bytes of v is not
// strSafe: a quote, a backslash or a control character. A string's bytes
// are read eight at a time with it. Each test is the exact one for a zero
// byte, (x-0x01…)&^x&0x80…, on v with the quote or the backslash xored
// out, and its form for a byte below 0x20 on v itself.
func hasStrSpecial(v uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	quote, backslash := v^(ones*'"'), v^(ones*'\\')
	return ((quote-ones)&^quote|(backslash-ones)&^backslash|(v-ones*0x20)&^v)&highs != 0
}

type jsonScanner struct {
	b     []byte
	i     int
	depth int
}

func (s *jsonScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// str scans a string whose opening quote is at s.i and returns its contents.
func (s *jsonScanner) str() (content []byte, esc, ok bool) {
	b := s.b
	start := s.i + 1
	i := start
	for {
		for i+8 <= len(b) && !hasStrSpecial(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && strSafe[b[i]] {
			i++
		}
		if i >= len(b) {
			return nil, false, false
		}
		switch b[i] {
		case '"':
			s.i = i + 1
			return b[start:i], esc, true
		case '\\':
			esc = true
			if i+1 >= len(b) {
				return nil, false, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return nil, false, false
				}
				i += 6
			default:
				return nil, false, false
			}
		default: // a control character
			return nil, false, false
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if hexVal(c) < 0 {
			return false
		}
	}
	return true
}

func hexVal(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits skips a run of digits and reports whether there was at least one.
func (s *jsonScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && isDigit(s.b[s.i]) {
		s.i++
	}
	return s.i > start
}

// number scans a number with JSON's grammar.
func (s *jsonScanner) number() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i >= len(s.b):
		return false
	case s.b[s.i] == '0':
		s.i++
	case isDigit(s.b[s.i]):
		s.digits()
	default:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if !s.digits() {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

func (s *jsonScanner) literal(lit string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(lit)) {
		return false
	}
	s.i += len(lit)
	return true
}

// value scans any value at s.i.
func (s *jsonScanner) value() (valueKind, bool) {
	if s.i >= len(s.b) {
		return 0, false
	}
	switch c := s.b[s.i]; c {
	case '"':
		_, _, ok := s.str()
		return vString, ok
	case '{':
		return vObject, s.object(nil, nil)
	case '[':
		return vArray, s.array()
	case 't':
		return vBool, s.literal("true")
	case 'f':
		return vBool, s.literal("false")
	case 'n':
		return vNull, s.literal("null")
	default:
		return vNumber, s.number()
	}
}

func (s *jsonScanner) push() bool {
	s.depth++
	s.i++
	return s.depth <= maxDepth
}

func (s *jsonScanner) array() bool {
	if !s.push() {
		return false
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		s.depth--
		return true
	}
	for {
		s.ws()
		if _, ok := s.value(); !ok {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case ']':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// object scans an object at s.i. When keys is not nil, the values of the
// keys it lists are stored in the same position of out.
func (s *jsonScanner) object(keys *[nFields][]byte, out *[nFields]jsonValue) bool {
	if !s.push() {
		return false
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		s.depth--
		return true
	}
	for {
		s.ws()
		if !s.member(keys, out) {
			return false
		}
		s.ws()
		if s.i >= len(s.b) {
			return false
		}
		switch s.b[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			s.depth--
			return true
		default:
			return false
		}
	}
}

// member scans one "key": value of an object.
func (s *jsonScanner) member(keys *[nFields][]byte, out *[nFields]jsonValue) bool {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	key, kesc, ok := s.str()
	if !ok {
		return false
	}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ':' {
		return false
	}
	s.i++
	s.ws()
	start := s.i
	kind, ok := s.value()
	if ok && keys != nil {
		pick(keys, out, key, kesc, kind, s.b[start:s.i])
	}
	return ok
}

// pick stores a top-level value under every field whose name its key
// matches. An exact match wins over one ignoring case; among equals (one
// key repeated) the last one wins, as in encoding/json. Two keys that
// match only ignoring case ("TEXT", "Text") clash, unless they hold the
// same value: the value notes them.
func pick(keys *[nFields][]byte, out *[nFields]jsonValue, key []byte, kesc bool, kind valueKind, raw []byte) {
	if kesc {
		key = []byte(unquote(key))
	}
	for f := range nFields {
		exact := bytes.Equal(key, keys[f])
		if !exact && (out[f].exact || !bytes.EqualFold(key, keys[f])) {
			continue
		}
		v := jsonValue{kind: kind, b: raw, exact: exact, key: key}
		if kind == vString {
			v.b = raw[1 : len(raw)-1]
			v.esc = bytes.IndexByte(v.b, '\\') >= 0
		}
		if prev := &out[f]; !exact && prev.kind != vMissing {
			if prev.kind == kind && bytes.Equal(prev.b, v.b) {
				v.clash = prev.clash // the same value under both keys: either is the field's
			} else {
				v.clash = clashOf(prev, key, keys[f])
			}
		}
		out[f] = v
	}
}

// clashOf returns the clash of the keys that matched a field's name
// (want) ignoring case before, in prev, and key, another that does: nil
// while they are one key.
func clashOf(prev *jsonValue, key, want []byte) *keyClash {
	c := prev.clash
	if c == nil {
		if bytes.Equal(prev.key, key) {
			return nil
		}
		return &keyClash{name: string(want), keys: []string{string(prev.key), string(key)}}
	}
	if !slices.Contains(c.keys, string(key)) {
		c.keys = append(c.keys, string(key))
	}
	return c
}

// scanRecord validates line as JSON and picks the top-level values of keys.
// isObject is false when line is valid JSON of another type.
func scanRecord(line []byte, keys *[nFields][]byte, out *[nFields]jsonValue) (valid, isObject bool) {
	s := jsonScanner{b: line}
	s.ws()
	if s.i < len(line) && line[s.i] == '{' {
		isObject = true
		valid = s.object(keys, out)
	} else {
		_, valid = s.value()
	}
	if valid {
		s.ws()
		valid = s.i == len(line)
	}
	return valid, isObject
}

// unquote resolves the escapes of a JSON string's contents the way
// encoding/json does, except that bytes that are not UTF-8 are kept.
func unquote(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			sb.Write(b[i:])
			break
		}
		sb.Write(b[i : i+j])
		i += j
		c := b[i+1]
		i += 2
		switch c {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'u':
			var r rune
			r, i = unquoteU(b, i)
			sb.WriteRune(r)
		default: // '"', '\\', '/'
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// unquoteU decodes the four hex digits at b[i:] and, for a surrogate pair,
// the \uXXXX that follows; a lone surrogate becomes U+FFFD.
func unquoteU(b []byte, i int) (rune, int) {
	r := u4(b[i:])
	i += 4
	if !utf16.IsSurrogate(r) {
		return r, i
	}
	if i+6 <= len(b) && b[i] == '\\' && b[i+1] == 'u' {
		if dec := utf16.DecodeRune(r, u4(b[i+2:])); dec != unicode.ReplacementChar {
			return dec, i + 6
		}
	}
	return utf8.RuneError, i
}

func u4(b []byte) rune {
	return hexVal(b[0])<<12 | hexVal(b[1])<<8 | hexVal(b[2])<<4 | hexVal(b[3])
}
