package webfeed

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mmcdole/gofeed"
)

// TestJSONFeedItemsOneByOne: a JSON Feed's null item, null author and
// null hub panicked gofeed's translator, and one item of a member of the
// wrong type failed the whole feed; each is now that item's error, or
// left out (a null author), and the other items are read.
func TestJSONFeedItemsOneByOne(t *testing.T) {
	tests := []struct {
		name    string
		items   string
		wantBad []ItemError
		guids   []string // of every item, in order
	}{
		{"null item", `[{"id":"a"},null]`, []ItemError{{Index: 1, Msg: "want an object, got null"}}, []string{"a", ""}},
		{"null author", `[{"id":"a","authors":[null,{"name":"N"}]}]`, nil, []string{"a"}},
		{"string item", `["x",{"id":"b"}]`, []ItemError{{Index: 0, Msg: "want an object, got string"}}, []string{"", "b"}},
		{"numeric title", `[{"id":"a"},{"id":"b","title":5},{"id":"c"}]`,
			[]ItemError{{Index: 1, Field: "title", Msg: "want a string, got number"}}, []string{"a", "b", "c"}},
		{"numeric date", `[{"id":"a","date_published":1700000000}]`,
			[]ItemError{{Field: "date_published", Msg: "want a string, got number"}}, []string{"a"}},
		{"array content", `[{"id":"a","content_text":["x"]}]`,
			[]ItemError{{Field: "content_text", Msg: "want a string, got array"}}, []string{"a"}},
		{"nested", `[{"id":"a","authors":[{"name":5}]}]`,
			[]ItemError{{Field: "authors.name", Msg: "want a string, got number"}}, []string{"a"}},
		{"attachment", `[{"id":"a","attachments":[{"url":5}]}]`,
			[]ItemError{{Field: "attachments.url", Msg: "want a string, got number"}}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"version":"https://jsonfeed.org/version/1.1","title":"F","authors":[null],"hubs":[null],"items":` + tt.items + `}`
			f, bad, err := Parse([]byte(body), gofeed.NewParser())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantBad, bad); diff != "" {
				t.Errorf("bad items (-want +got):\n%s", diff)
			}
			var guids []string
			for _, it := range f.Items {
				guids = append(guids, it.GUID)
			}
			if diff := cmp.Diff(tt.guids, guids); diff != "" {
				t.Errorf("items' GUIDs (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFeedErrors: bytes that are no feed, or a JSON Feed whose own members
// are of the wrong type, are an error, not a panic.
func TestFeedErrors(t *testing.T) {
	const v = `"version":"https://jsonfeed.org/version/1.1"`
	for body, want := range map[string]string{
		`{` + v + `,"items":5}`:            `field "items": want an array, got number`,
		`{` + v + `,"title":5,"items":[]}`: `field "title": want a string, got number`,
		`[1]`:                              "",
		``:                                 "",
		`<rss><channel><item>`:             "",
		// JSON that is no JSON Feed: gofeed reads any object as one.
		`{"status":"ok","data":[1,2,3]}`:             "not a web feed",
		`{"hello":"world"}`:                          "not a web feed",
		`{"version":"1.1","items":[{"id":"a"}]}`:     `"version" "1.1" is no JSON Feed's`,
		`{` + v + `,"author":{"name":5},"items":[]}`: `field "author.name": want a string, got number`,
	} {
		_, _, err := Parse([]byte(body), gofeed.NewParser())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one saying %q", body, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "Go struct") {
			t.Errorf("%q: error %v names Go's types", body, err)
		}
	}
}

// panicking is a translator that panics, as gofeed's did on a null item.
type panicking struct{}

func (panicking) Translate(any) (*gofeed.Feed, error) { panic("nil pointer") }

// TestParserPanicIsAnError: a panic of the parser is an error.
func TestParserPanicIsAnError(t *testing.T) {
	p := gofeed.NewParser()
	p.JSONTranslator, p.RSSTranslator = panicking{}, panicking{}
	for _, body := range []string{`{"version":"https://jsonfeed.org/version/1","items":[]}`, `<rss><channel></channel></rss>`} {
		if _, _, err := Parse([]byte(body), p); err == nil {
			t.Errorf("%q: no error", body)
		}
	}
}

// TestJSONFeedVersions: a JSON Feed's version is the URL of its
// specification as feeds write it, at www.jsonfeed.org too (its page's
// address, which generators copy), over http or https, in any case.
func TestJSONFeedVersions(t *testing.T) {
	for _, v := range []string{"https://jsonfeed.org/version/1", "https://jsonfeed.org/version/1.1", "http://jsonfeed.org/version/1",
		"https://www.jsonfeed.org/version/1.1/", "HTTPS://JSONFeed.org/version/1.1", " https://jsonfeed.org/version/1.1"} {
		f, _, err := Parse([]byte(`{"version":"`+v+`","title":"F","items":[{"id":"a","url":"https://a.example/1"}]}`), gofeed.NewParser())
		if err != nil || len(f.Items) != 1 {
			t.Errorf("version %q: %v", v, err)
		}
	}
}
