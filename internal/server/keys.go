package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// docKeys are the keys of a document's object, as docInput names them.
var docKeys = []string{"id", "title", "text", "url", "source", "date"}

// checkKeys refuses what the JSON decoder would quietly take in a
// document's object: a key given twice (the last would win) and a key
// that matches one of docKeys only when case is ignored ("ID" would be
// read as "id"). raw is one valid JSON object.
func checkKeys(raw []byte) error {
	var seen [8]bool
	return eachKey(raw, func(key string) error {
		for i, k := range docKeys {
			switch {
			case key == k && seen[i]:
				return badRequest(k, fmt.Sprintf("key %q is given twice", k))
			case key == k:
				seen[i] = true
				return nil
			case strings.EqualFold(key, k):
				return badRequest(trim(key), fmt.Sprintf("key %q: keys are lower case (%q)", trim(key), k))
			}
		}
		return nil // unknown: the decoder names it
	})
}

// eachKey calls fn with each key of the object raw, unescaped, in order;
// raw is valid JSON. It reads raw once without decoding the values, which
// hold the text.
func eachKey(raw []byte, fn func(string) error) error {
	depth, wantKey := 0, false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '{', '[':
			depth++
			wantKey = c == '{' && depth == 1
		case '}', ']':
			depth--
		case ',':
			wantKey = depth == 1
		case '"':
			end := stringEnd(raw, i)
			if depth == 1 && wantKey {
				key := string(raw[i+1 : end])
				if strings.IndexByte(key, '\\') >= 0 {
					if err := json.Unmarshal(raw[i:end+1], &key); err != nil {
						return badRequest("", "malformed key: "+err.Error())
					}
				}
				if err := fn(key); err != nil {
					return err
				}
				wantKey = false
			}
			i = end
		}
	}
	return nil
}

// stringEnd is the offset of the quote that closes the JSON string
// opening at raw[start], or len(raw)-1 when there is none.
func stringEnd(raw []byte, start int) int {
	for i := start + 1; i < len(raw); {
		j := bytes.IndexAny(raw[i:], "\"\\")
		if j < 0 {
			break
		}
		i += j
		if raw[i] == '"' {
			return i
		}
		i += 2 // a backslash and the character it escapes
	}
	return len(raw) - 1
}
