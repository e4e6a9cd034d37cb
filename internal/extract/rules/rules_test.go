package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

const example = `version: 1
rules:
  - name: news
    hosts: [news.example, "*.paper.example"]
    article_url: '/\d{4}/'
    body: 'article .body'
    drop: ['.share', 'aside']
    drop_attr:
      - {tag: div, attr: class, match: 'author.*'}
      - {attr: id, match: '^promo$'}
    strip: 'Subscribe now'
    strip_regex: ['(?m)^© .*$']
  - name: blogs
    url: '^https?://blog\.example/posts/'
  - name: everything else
`

func mustParse(t *testing.T, src string) *Set {
	t.Helper()
	s, err := Parse([]byte(src), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMatch(t *testing.T) {
	s := mustParse(t, example)
	for _, tc := range []struct {
		url, want string
	}{
		{"https://news.example/2024/a", "news"},
		{"https://www.news.example/a", "news"},
		{"https://NEWS.EXAMPLE/a", "news"},
		{"https://city.paper.example/a", "news"},
		{"https://fakenews.example/a", "everything else"},
		{"https://blog.example/posts/1", "blogs"},
		{"https://blog.example/about", "everything else"},
		{"", "everything else"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			if got := s.Match(tc.url); got == nil || got.Name != tc.want {
				t.Errorf("Match = %v, want %q", got, tc.want)
			}
		})
	}
	var none *Set
	if none.Match("https://x.example/") != nil || none.Len() != 0 {
		t.Error("nil set matched")
	}
	if mustParse(t, "rules: []").Match("https://x/") != nil {
		t.Error("empty set matched")
	}
}

func TestRule(t *testing.T) {
	r := mustParse(t, example).Match("https://news.example/2024/a")
	if !r.IsArticleURL("https://news.example/2024/a") || r.IsArticleURL("https://news.example/video/a") {
		t.Error("article_url not applied")
	}
	doc, err := html.Parse(strings.NewReader(`<div class="author-box">a</div><div class="coauthors">b</div>
<span class="author">c</span><p id="promo">d</p><p id="promotion">e</p><div class="share">f</div><aside>g</aside>
<article><div class="body">one</div><div class="body">two</div></article><div class="body">out</div>`))
	if err != nil {
		t.Fatal(err)
	}
	var dropped, bodies []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if r.Drops(n) {
			dropped = append(dropped, n.FirstChild.Data)
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, n := range r.Body(doc) {
		bodies = append(bodies, n.FirstChild.Data)
	}
	if diff := cmp.Diff([]string{"a", "b", "d", "f", "g"}, dropped); diff != "" {
		t.Errorf("dropped (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"one", "two"}, bodies); diff != "" {
		t.Errorf("body (-want +got)\n%s", diff)
	}
	got := r.Strip("Subscribe now\n\nFirst para. Subscribe now to read.\n\n© 2024 Example\n\nLast.")
	if diff := cmp.Diff("First para.  to read.\n\nLast.", got); diff != "" {
		t.Errorf("strip (-want +got)\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"unknown top-level key", "rulez: []\n", `rules.yaml:1: unknown key "rulez"`},
		{"unknown rule key names rule and line", "rules:\n  - name: a\n    bodyy: p\n", `rules.yaml:3: rule "a": unknown key "bodyy"`},
		{"unnamed rule is numbered", "rules:\n  - hosts: x\n  - hots: y\n", `rules.yaml:3: rule "#2": unknown key "hots"`},
		{"bad body selector", "rules:\n  - name: a\n    body: 'div[['\n", `rules.yaml:3: rule "a": body: bad CSS selector "div[["`},
		{"bad drop selector", "rules:\n  - name: a\n    drop:\n      - p\n      - '>>'\n", `rules.yaml:5: rule "a": drop: bad CSS selector ">>"`},
		{"bad url regexp", "rules:\n  - name: a\n    url: '('\n", `rules.yaml:3: rule "a": url: bad regexp "("`},
		{"bad article_url", "rules:\n  - name: a\n    article_url: '[z-a]'\n", `rules.yaml:3: rule "a": article_url: bad regexp`},
		{"bad strip_regex", "rules:\n  - name: a\n    strip_regex: ['a**']\n", `rules.yaml:3: rule "a": strip_regex: bad regexp`},
		{"bad drop_attr regexp", "rules:\n  - name: a\n    drop_attr:\n      - {attr: class, match: '(x'}\n", `rules.yaml:4: rule "a": drop_attr: bad regexp "(x"`},
		{"drop_attr unknown key", "rules:\n  - name: a\n    drop_attr:\n      - {attr: class, regex: x}\n", `rules.yaml:4: rule "a": drop_attr: unknown key "regex"`},
		// A key given twice in a drop_attr entry was the YAML decoder's
		// message ("yaml: unmarshal errors: ... mapping key "attr" already
		// defined"); the keys of a rule and of its drop_attr are read as a
		// feeds file's rule's are (yamlkeys).
		{"drop_attr key twice", "rules:\n  - name: a\n    drop_attr:\n      - attr: class\n        attr: id\n        match: x\n", `rules.yaml:5: rule "a": drop_attr: key "attr" given twice`},
		{"drop_attr missing match", "rules:\n  - name: a\n    drop_attr:\n      - {attr: class}\n", `rules.yaml:4: rule "a": drop_attr: attr and match are required`},
		{"duplicate key", "rules:\n  - name: a\n    body: p\n    body: div\n", `rules.yaml:4: rule "a": key "body" given twice`},
		{"rules not a list", "rules: {a: b}\n", `rules.yaml:1: rules: want a list`},
		{"rule not a mapping", "rules:\n  - just a string\n", `rules.yaml:2: rule "#1": want a mapping`},
		{"hosts not strings", "rules:\n  - hosts: [[a]]\n", `rules.yaml:2: rule "#1": hosts: want a string`},
		{"version", "version: 2\n", `rules.yaml:1: unsupported version "2"`},
		{"yaml syntax", "rules:\n  - name: [\n", `rules.yaml: yaml:`},
		// Regression cases: each of these files was taken without a word, and
		// the rule, or the host, never applied to a page.
		{"top-level key twice", "version: 1\nrules:\n  - name: a\n    hosts: [a.example]\nrules:\n  - name: b\n", `rules.yaml:5: key "rules" given twice`},
		{"a URL as host", "rules:\n  - hosts: ['https://a.example/news']\n", `rules.yaml:2: rule "#1": hosts: "https://a.example/news" is not a host name: write a.example`},
		{"a host with a port", "rules:\n  - name: a\n    hosts:\n      - b.example\n      - a.example:8080\n", `rules.yaml:5: rule "a": hosts: "a.example:8080" is not a host name: write a.example`},
		{"an empty host", "rules:\n  - hosts: ['']\n", `rules.yaml:2: rule "#1": hosts: "" is not a host name: write a name such as`},
		{"a site given twice", "rules:\n  - name: a\n    hosts: [a.example]\n  - name: b\n    hosts: [b.example, A.example]\n",
			`rules.yaml:5: rule "b": hosts: a.example is matched by rule "a" (line 2, hosts a.example) first, so this rule would never apply to it`},
		{"a subdomain after its domain", "rules:\n  - name: a\n    hosts: ['*.a.example']\n  - name: b\n    hosts: news.a.example\n",
			`rules.yaml:5: rule "b": hosts: news.a.example is matched by rule "a" (line 2, hosts a.example) first`},
		{"a url given twice", "rules:\n  - name: a\n    url: '^https://a\\.example/'\n  - name: b\n    url: '^https://a\\.example/'\n",
			`rules.yaml:5: rule "b": url: "^https://a\\.example/" is rule "a"'s (line 2) too`},
		{"a second YAML document", "rules:\n  - name: a\n    hosts: [a.example]\n---\nrules:\n  - name: b\n    hosts: [b.example]\n",
			`rules.yaml:4: a second YAML document: a rules file holds one`},
		{"a name not a string", "rules:\n  - name: [a, b]\n    hosts: a.example\n", `rules.yaml:2: rule "#1": name: want a string`},
		// Regression cases: a file without rules was taken for "no rules"
		// without a word, though it changes no page.
		{"an empty file", "", `rules.yaml: no rules: a rules file holds a rules: list`},
		{"comments only", "# rules for the port sites\n", `rules.yaml: no rules: a rules file holds a rules: list`},
		{"version alone", "version: 1\n", `rules.yaml:1: no rules: a rules file holds a rules: list`},
		{"a rule after the rule for every page", "rules:\n  - name: all\n    body: article\n  - name: b\n    hosts: [a.example]\n",
			`rules.yaml:4: rule "b": rule "all" (line 2) has neither hosts nor url and applies to every page first`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), "rules.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err %v\nwant prefix %s", err, tc.want)
			}
		})
	}
}

// TestHostCaseAndFinalDot pins the bug where a host written in capitals
// with a final dot (a fully qualified name, "PORT.EXAMPLE.") matched no page,
// nor did a page's host written so match the rule of its name; and that
// "*." before a host reads as the host (itself and its subdomains).
func TestHostCaseAndFinalDot(t *testing.T) {
	for _, host := range []string{"PORT.EXAMPLE.", "port.example", "*.port.example", "*.Port.Example."} {
		s := mustParse(t, fmt.Sprintf("rules:\n  - name: port\n    hosts: [%q]\n  - name: other\n    hosts: [other.example]\n", host))
		for _, url := range []string{"https://port.example/a", "https://news.port.example/a", "https://PORT.example./x", "https://News.Port.Example.:8443/x"} {
			if got := s.Match(url); got == nil || got.Name != "port" {
				t.Errorf("hosts [%s]: Match(%s) = %v, want rule port", host, url, got)
			}
		}
		if got := s.Match("https://export.example./x"); got != nil {
			t.Errorf("hosts [%s]: Match(export.example.) = %v, want none", host, got)
		}
	}
	if _, err := Parse([]byte("rules:\n  - name: a\n    hosts: [PORT.EXAMPLE.]\n  - name: b\n    hosts: [port.example]\n"), "rules.yaml"); err == nil ||
		!strings.Contains(err.Error(), `hosts: port.example is matched by rule "a"`) {
		t.Errorf("a site given twice, once with a final dot: %v", err)
	}
}

// TestParseSubdomainFirst pins that a subdomain's rule may come before
// its domain's, and takes its pages.
func TestParseSubdomainFirst(t *testing.T) {
	s := mustParse(t, "rules:\n  - name: sport\n    hosts: sport.a.example\n  - name: a\n    hosts: [a.example, '192.0.2.1', '::1']\n")
	for url, want := range map[string]string{"https://sport.a.example/x": "sport", "https://www.a.example/x": "a", "http://[::1]:8080/x": "a"} {
		if got := s.Match(url); got == nil || got.Name != want {
			t.Errorf("Match(%s) = %v, want %q", url, got, want)
		}
	}
}

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.yaml")
	if err := os.WriteFile(path, []byte(example), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil || s.Len() != 3 {
		t.Fatalf("Load: %v, %d rules", err, s.Len())
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file: no error")
	}
}

// FuzzParse reads site rules files, whole or damaged: parsing ends, and a
// set it returns matches URLs and applies its rules to a page without
// failing.
// Anchors, aliases and merge keys are read as the YAML decoder reads them:
// a list of selectors given once and named again, a rule made from
// another's keys. Both were refused ("drop: want a string or a list of
// strings", "unknown key \"<<\"").
func TestParseAliases(t *testing.T) {
	src := "rules:\n  - &base\n    name: a\n    hosts: [a.example]\n    body: article\n    drop: &d [.ad, .promo]\n" +
		"  - <<: *base\n    name: b\n    hosts: [b.example]\n  - name: c\n    hosts: [c.example]\n    drop: *d\n"
	set, err := Parse([]byte(src), "rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"a.example", "b.example", "c.example"} {
		r := set.Match("https://" + host + "/news/1")
		if r == nil || len(r.drop) != 2 {
			t.Errorf("%s: rule %+v, want one dropping the two selectors", host, r)
			continue
		}
		if host != "c.example" && r.bodySrc != "article" {
			t.Errorf("%s: rule %q has no body selector; want the one it merged", host, r.Name)
		}
	}
	if r := set.Match("https://b.example/news/1"); r == nil || r.Name != "b" {
		t.Errorf("b.example: rule %+v, want b, its own name over the one it merged", r)
	}
	// A merge of a list of aliases merged none of them: the aliases in
	// the list were taken for no mapping.
	src = "rules:\n  - &base\n    name: a\n    hosts: [a.example]\n    body: article\n  - &drops {name: x, hosts: [x.example], drop: [.ad]}\n" +
		"  - <<: [*base, *drops]\n    name: d\n    hosts: [d.example]\n"
	if set, err = Parse([]byte(src), "rules.yaml"); err != nil {
		t.Fatal(err)
	}
	if r := set.Match("https://d.example/news/1"); r == nil || r.Name != "d" || r.bodySrc != "article" || len(r.drop) != 1 {
		t.Errorf("<<: [*base, *drops]: rule %+v, want d of the body of the one and the drop of the other", r)
	}
}

// TestParseAliasCycles: an alias within the node it names, a rule merging
// itself, was resolved again and again to a depth of 64, each level
// resolving every node under it: a rules file of one line took for ever,
// deaf to SIGTERM. It is refused at the alias's line. A node named by
// many aliases, each of 40 mappings merging the one before twice, is
// resolved once.
func TestParseAliasCycles(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a rule merging itself", "rules: [ &a {name: a, hosts: [127.0.0.1], <<: *a} ]\n",
			"rules.yaml:1: *a within the node it names: it would repeat without end"},
		{"a list holding itself", "rules: &r [*r]\n", "rules.yaml:1: *r within the node it names: it would repeat without end"},
		{"a rule merging one merging it", "rules:\n  - &a\n    name: a\n    drop_attr: [&b {<<: *a}]\n",
			"rules.yaml:4: *a within the node it names: it would repeat without end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Parse([]byte(tc.src), "rules.yaml")
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || err.Error() != tc.want {
					t.Errorf("error %v, want %s", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("not parsed in 10s")
			}
		})
	}
	t.Run("merged many times", func(t *testing.T) {
		var src strings.Builder
		src.WriteString("rules:\n  - name: a\n    hosts: [a.example]\n    drop_attr:\n      - &a0 {tag: div, attr: class, match: ad}\n")
		for i := 1; i <= 40; i++ {
			fmt.Fprintf(&src, "      - &a%d {<<: [*a%d, *a%d]}\n", i, i-1, i-1)
		}
		done := make(chan error, 1)
		go func() {
			s, err := Parse([]byte(src.String()), "rules.yaml")
			if r := s.Match("https://a.example/1"); err == nil && (r == nil || len(r.dropAttr) != 41) {
				err = fmt.Errorf("rule %+v, want one of 41 drop_attr entries", r)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("not parsed in 10s")
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(example), "https://news.example/2024/a")
	f.Add([]byte("version: 1\nrules:\n  - url: '(a+)+$'\n    body: 'div > p:nth-child(2n+1)'\n"), "https://x.example/aaaa")
	f.Add([]byte("version: 1\nrules:\n  - hosts: ['*']\n    strip_regex: ['(?s).*']\n"), "http://h/")
	f.Add([]byte("rules: [{drop_attr: [{attr: '', match: '['}]}]"), "")
	f.Add([]byte("rules: [ &a {name: a, hosts: [127.0.0.1], <<: *a} ]"), "http://127.0.0.1/")
	f.Add([]byte("rules:\n  - &b {name: b, hosts: [b.example], body: article}\n  - {<<: [*b, {drop: [.ad]}], name: c, hosts: [c.example]}\n"), "https://c.example/1")
	page, err := html.Parse(strings.NewReader(`<article><div class="body"><p>one</p><aside>x</aside></div></article><p id="promo">d</p>`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, rawURL string) {
		s, err := Parse(data, "rules.yaml")
		if err != nil {
			return
		}
		r := s.Match(rawURL)
		if r == nil {
			return
		}
		r.IsArticleURL(rawURL)
		r.Body(page)
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			r.Drops(n)
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(page)
		r.Strip("Subscribe now.\n\nFirst para.\n\n© 2024 Example")
		_ = r.String()
	})
}
