package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxLine is the longest JSON line read (evidence can be long).
const maxLine = 64 << 20

// byteOrderMark is how a file written by some editors as UTF-8 begins
// (Windows' Notepad, PowerShell's Out-File): dedup and index add read a
// JSONL file so, and so does eval.
const byteOrderMark = "\xef\xbb\xbf"

// scanLines calls f with each non-blank line and its 1-based number; a
// byte order mark that begins the first is left out. A line that is not
// valid UTF-8 is an error (see checkUTF8).
func scanLines(r io.Reader, f func(line []byte, n int) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte(byteOrderMark))
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := checkUTF8(line); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		if err := f(line, n); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("after line %d: %w", n, err)
	}
	return nil
}

// checkUTF8 refuses a line that is not valid UTF-8, naming the first field
// of its object whose value is not (as dedup names it: field "id": invalid
// UTF-8). json.Unmarshal would read each bad byte as U+FFFD, so that ids
// that differ (d\xff1, d\xfe1) would be read as one.
func checkUTF8(line []byte) error {
	if utf8.Valid(line) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				break
			}
			if !utf8.Valid(raw) {
				return fmt.Errorf("field %q: invalid UTF-8", key)
			}
		}
	}
	return errors.New("invalid UTF-8")
}

// idOf reads an id that may be a JSON string or number; ok is false for
// null, absent or other values.
func idOf(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false
		}
		return s, true
	}
	if raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' {
		return string(raw), true
	}
	return "", false
}

// clusterOf reads a document's cluster in a truth: a JSON string, compared
// as written, or a number, compared as a number when it is whole: 1, 1.0
// and 1e0 are the integer 1, written as "1" (so they match the string "1"),
// whole-ness decided on the exact decimal, not a rounded float
// (1.0000000000000001 is not 1). Another number (1.5, or one whose exponent
// is over 100 in magnitude) is its text as written. ok is false for null or
// no value; a value of another type (true, an object, an array) is an error
// naming the field and the type.
func clusterOf(raw json.RawMessage) (c string, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, nil
	}
	if raw[0] == '"' {
		c, ok := idOf(raw)
		return c, ok, nil
	}
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return "", false, fmt.Errorf(`"cluster" is a JSON %s (%s); want a string or a number`, jsonType(raw[0]), shorten(raw, 40))
	}
	if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), true, nil
	}
	if !smallExponent(raw) {
		return string(raw), true, nil
	}
	if r, ok := new(big.Rat).SetString(string(raw)); ok && r.IsInt() {
		return r.Num().String(), true, nil
	}
	return string(raw), true, nil
}

// smallExponent reports whether the JSON number raw has no exponent or one
// of at most 100 in magnitude, so that its exact value stays small to hold.
func smallExponent(raw []byte) bool {
	i := bytes.IndexAny(raw, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(string(raw[i+1:]))
	return err == nil && e >= -100 && e <= 100
}

// jsonType names the type of the JSON value that starts with b.
func jsonType(b byte) string {
	switch b {
	case 't', 'f':
		return "boolean"
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 'n':
		return "null"
	}
	return "number"
}

// shorten returns raw, cut to about n bytes with "…" when it is longer.
func shorten(raw []byte, n int) string {
	if len(raw) <= n {
		return string(raw)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}

// valuesOf turns a field's value into the strings a breakdown counts: each
// element of an array, once, or the value itself. Empty and null give none.
func valuesOf(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '[' {
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return nil
		}
		var out []string
		for _, e := range elems {
			for _, v := range valuesOf(e) {
				if !slices.Contains(out, v) { // a value given twice ("x", "x"; "1", 1) counts once
					out = append(out, v)
				}
			}
		}
		return out
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil || s == "" {
			return nil
		}
		return []string{s}
	}
	return []string{string(raw)}
}

// maxWeight bounds a truth pair's weight: the inverse of a probability of
// being drawn from the pairs of a corpus, which no corpus of fewer than
// 10^7 documents reaches, and small enough that the estimates' sums of
// weights and of their squares stay finite (1e308 made F1 NaN).
const maxWeight = 1e15

// parseWeight reads a truth pair's weight: a number from 1 (a pair drawn
// surely) to maxWeight, 1 when the field is absent or null. Below 1 it is
// no inverse of a probability, and at 1e-200 the squares of the weights
// underflowed to 0: intervals of no width.
func parseWeight(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 1, nil
	}
	var w float64
	if err := json.Unmarshal(raw, &w); err != nil || !(w >= 1 && w <= maxWeight) {
		return 0, fmt.Errorf("weight %s: want a number from 1 to %g (the inverse of the pair's probability of being drawn)", raw, float64(maxWeight))
	}
	return w, nil
}

// parseLabel reads a truth pair's label: true for a duplicate.
func parseLabel(raw json.RawMessage) (bool, error) {
	if raw == nil {
		return false, errors.New(`a pair needs a "label": true or 1 for a duplicate, false or 0 for a non-duplicate`)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, fmt.Errorf("label: %w", err)
	}
	switch x := v.(type) {
	case bool:
		return x, nil
	case float64:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "1", "true", "yes", "duplicate", "near-duplicate", "same", "ok", "positive", "match":
			return true, nil
		case "0", "false", "no", "different", "distinct", "bad", "negative", "not-duplicate", "non-duplicate":
			return false, nil
		}
	}
	return false, fmt.Errorf("label %s is neither a duplicate (true, 1, duplicate, same, ok) nor a non-duplicate (false, 0, different, bad)", raw)
}
