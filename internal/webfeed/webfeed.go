// Package webfeed owns parsing a web feed's bytes (RSS, Atom, RDF, JSON
// Feed) into gofeed's feed, for the feed files corpus reads and the feeds
// watch polls: without a panic, whatever the bytes, and a JSON Feed an
// item at a time, so that one item that does not decode is that item's
// fault, not the feed's.
package webfeed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"
	jsonfeed "github.com/mmcdole/gofeed/json"

	"github.com/neardup/neardup/internal/container"
)

// ItemError is an item of a JSON Feed that does not decode, as one item
// of its own: a member of the wrong type ("title": 5), or an item that is
// no object (null, a string).
type ItemError struct {
	Index int    // the item's place in Feed.Items, from 0
	Field string // the member at fault, as the feed names it ("title", "authors.name"); "" for the whole item
	Msg   string // what is wrong: "want a string, got number"
}

// Error reads `field "title": want a string, got number`, or the message
// alone when no member is at fault.
func (e *ItemError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Msg)
}

// Parse parses body with p (its translators, gofeed's defaults when it
// sets none). It returns the feed and the items of a JSON Feed that do not
// decode, in the feed's order, or an error when body is no feed. A panic
// of the parser is that error, so that no feed's bytes end the process.
//
// A JSON Feed's items are decoded one by one: the feed's Items hold every
// item in the feed's order, an item that does not decode (see ItemError)
// as what of it decodes, its members of the right types, and an item
// that is no object as an empty item; a caller takes those of bad for
// what they are. Null entries of a list of authors are left out, as gofeed
// reads each entry as an author. Everything else of the feed decodes as
// gofeed decodes it, and a member of the feed's own of the wrong type
// ("title": 5, or items that are no array) is an error, as is JSON
// without a JSON Feed's "version" (https://jsonfeed.org/version/…).
//
// An RSS, RDF or Atom feed whose XML breaks after its root (an error in
// it, a download cut short) is a *BrokenError, returned with the feed of
// its items complete before the break (nil when none is).
func Parse(body []byte, p *gofeed.Parser) (f *gofeed.Feed, bad []ItemError, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, bad, err = nil, nil, fmt.Errorf("webfeed: the parser failed (a panic): %v", r)
		}
	}()
	switch ft := gofeed.DetectFeedType(bytes.NewReader(body)); ft {
	case gofeed.FeedTypeJSON:
	case gofeed.FeedTypeRSS, gofeed.FeedTypeAtom:
		f, err := p.Parse(bytes.NewReader(body))
		if err != nil {
			if sf, be := salvage(body, ft, p, err); be != nil {
				return sf, nil, be
			}
		}
		return f, nil, err
	default:
		f, err := p.Parse(bytes.NewReader(body))
		return f, nil, err
	}
	return parseJSON(body, p)
}

// parseJSON parses a JSON Feed (see Parse).
func parseJSON(body []byte, p *gofeed.Parser) (*gofeed.Feed, []ItemError, error) {
	type plain jsonfeed.Feed // without its UnmarshalJSON, which would decode the items
	jf := new(jsonfeed.Feed)
	head := struct {
		*plain
		Items   []json.RawMessage `json:"items"`
		Expired json.RawMessage   `json:"expired"` // read by gofeed as a boolean or its text, and translated by none
	}{plain: (*plain)(jf)}
	if err := json.Unmarshal(body, &head); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			got, _, _ := strings.Cut(te.Value, " ")
			return nil, nil, fmt.Errorf("a JSON Feed's field %q: want %s, got %s", feedPath(te.Field), jsonType(te.Type), got)
		}
		return nil, nil, err
	}
	if !container.IsJSONFeedVersion(jf.Version) {
		// Any JSON object would do for gofeed: an API's answer, a page's
		// data, read as a feed of no items and polled for ever.
		if jf.Version == "" {
			return nil, nil, errors.New(`not a web feed: JSON without a JSON Feed's "version" (https://jsonfeed.org/version/1.1)`)
		}
		return nil, nil, fmt.Errorf(`not a web feed: JSON whose "version" %q is no JSON Feed's (https://jsonfeed.org/version/1.1)`, short(jf.Version))
	}
	jf.Authors = withoutNil(jf.Authors)
	var bad []ItemError
	jf.Items = make([]*jsonfeed.Item, len(head.Items))
	for i, raw := range head.Items {
		it, err := decodeItem(raw)
		if err != nil {
			err.Index = i
			bad = append(bad, *err)
		}
		it.Authors = withoutNil(it.Authors)
		jf.Items[i] = it
	}
	tr := p.JSONTranslator
	if tr == nil {
		tr = &gofeed.DefaultJSONTranslator{}
	}
	f, err := tr.Translate(jf)
	if err != nil {
		return nil, nil, err
	}
	if len(f.Items) != len(jf.Items) {
		return nil, nil, fmt.Errorf("webfeed: the translator gave %d items of %d", len(f.Items), len(jf.Items))
	}
	return f, bad, nil
}

// withoutNil returns authors without its nil entries (null in the feed).
func withoutNil(authors []*jsonfeed.Author) []*jsonfeed.Author {
	if !slices.Contains(authors, nil) {
		return authors
	}
	return slices.DeleteFunc(authors, func(a *jsonfeed.Author) bool { return a == nil })
}

// decodeItem decodes an item, raw; when it does not decode, it returns
// what of it does, its members that decode on their own, and why, the
// first member in its order that does not (an empty item when it is no
// object). ItemError.Index is left for the caller.
func decodeItem(raw json.RawMessage) (*jsonfeed.Item, *ItemError) {
	it := new(jsonfeed.Item)
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return it, &ItemError{Msg: "want an object, got null"} // which decodes as an empty item
	}
	err := json.Unmarshal(raw, it)
	if err == nil {
		return it, nil
	}
	var first *ItemError
	good := map[string]json.RawMessage{}
	d := json.NewDecoder(bytes.NewReader(raw))
	if tok, terr := d.Token(); terr != nil || tok != json.Delim('{') {
		return new(jsonfeed.Item), typeError("", err)
	}
	for d.More() {
		tok, terr := d.Token()
		name, _ := tok.(string)
		var v json.RawMessage
		if terr != nil || d.Decode(&v) != nil {
			break // raw is valid JSON: the feed decoded
		}
		one, _ := json.Marshal(map[string]json.RawMessage{name: v})
		if merr := json.Unmarshal(one, new(jsonfeed.Item)); merr == nil {
			good[name] = v
		} else if first == nil {
			first = typeError(name, merr)
		}
	}
	it = new(jsonfeed.Item)
	all, _ := json.Marshal(good)
	if json.Unmarshal(all, it) != nil {
		it = new(jsonfeed.Item)
	}
	if first == nil {
		first = typeError("", err)
	}
	return it, first
}

// typeError describes err, why the member name of an item ("" for the
// whole item) does not decode: "want a string, got number", its field the
// path to the value at fault from name ("authors.name").
func typeError(name string, err error) *ItemError {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return &ItemError{Field: name, Msg: err.Error()}
	}
	field := name
	if path := strings.Split(feedPath(te.Field), "."); name != "" {
		// The path is taken from the member's name on.
		for i, seg := range path {
			if strings.EqualFold(seg, name) {
				field = strings.Join(append([]string{name}, path[i+1:]...), ".")
				break
			}
		}
	}
	got, _, _ := strings.Cut(te.Value, " ") // "number 1.5"
	return &ItemError{Field: field, Msg: "want " + jsonType(te.Type) + ", got " + got}
}

// feedPath returns the path of a member as encoding/json gives it
// (json.UnmarshalTypeError's Field) as the feed names it: without the
// segments of the Go types gofeed and Parse decode with ("alias", "plain":
// "attachments.alias.url" is "attachments.url").
func feedPath(field string) string {
	var path []string
	for seg := range strings.SplitSeq(field, ".") {
		if seg != "alias" && seg != "plain" && seg != "" {
			path = append(path, seg)
		}
	}
	return strings.Join(path, ".")
}

// short returns s, or its first 80 bytes (whole characters) and "…".
func short(s string) string {
	if len(s) <= 80 {
		return s
	}
	i := 80
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// jsonType names the JSON type a Go type decodes from, with its article.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return t.String()
}
