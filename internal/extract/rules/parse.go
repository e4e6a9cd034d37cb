package rules

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/andybalholm/cascadia"
	"gopkg.in/yaml.v3"

	"github.com/neardup/neardup/internal/yamlkeys"
)

// Error is a mistake in a rules file, located by line and rule.
type Error struct {
	File string
	Line int
	Rule string // empty for mistakes outside a rule
	Msg  string
}

// Error returns "file:line: rule \"name\": message".
func (e *Error) Error() string {
	if e.Rule == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: rule %q: %s", e.File, e.Line, e.Rule, e.Msg)
}

// Load reads and compiles the rules file at path.
func Load(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse compiles rules from YAML; file names the source in errors.
func Parse(data []byte, file string) (*Set, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", file, errNoRules)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := (&aliases{file: file, open: map[*yaml.Node]bool{}, done: map[*yaml.Node]bool{}}).resolve(&doc); err != nil {
		return nil, err
	}
	// A second document (after a "---") would be read by no one: the rules
	// in it would match no page.
	for {
		var more yaml.Node
		err := dec.Decode(&more)
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if c := more.Content; len(c) > 0 && (c[0].Kind != yaml.ScalarNode || c[0].Tag != "!!null") { // not an empty document
			return nil, &Error{file, more.Line, "", "a second YAML document: a rules file holds one (remove the \"---\" line, and keep its rules under the first's rules:)"}
		}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		return nil, fmt.Errorf("%s: %s", file, errNoRules)
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, &Error{file, top.Line, "", "want a mapping with a rules list"}
	}
	set := &Set{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		key, val := top.Content[i], top.Content[i+1]
		if seen[key.Value] {
			return nil, &Error{file, key.Line, "", fmt.Sprintf("key %q given twice", key.Value)}
		}
		seen[key.Value] = true
		switch key.Value {
		case "version":
			if val.Value != "1" {
				return nil, &Error{file, val.Line, "", fmt.Sprintf("unsupported version %q (want 1)", val.Value)}
			}
		case "rules":
			if val.Kind != yaml.SequenceNode {
				return nil, &Error{file, val.Line, "", "rules: want a list"}
			}
			for n, item := range val.Content {
				r, err := compile(item, n+1, file, set.rules)
				if err != nil {
					return nil, err
				}
				set.rules = append(set.rules, r)
			}
		default:
			return nil, &Error{file, key.Line, "", fmt.Sprintf("unknown key %q (want version, rules)", key.Value)}
		}
	}
	if !seen["rules"] {
		return nil, &Error{file, top.Line, "", errNoRules}
	}
	return set, nil
}

// errNoRules says what is wrong with a rules file that holds no rules list
// (empty, comments only, "version: 1" alone): it would change no page,
// which is never what a file named as rules meant.
const errNoRules = "no rules: a rules file holds a rules: list of rules (write rules: [] for none)"

// aliases resolves the aliases and merge keys of a rules file's node
// tree (see resolve).
type aliases struct {
	file string              // named in errors
	open map[*yaml.Node]bool // the nodes being resolved: the one at hand and those holding it
	done map[*yaml.Node]bool // the nodes resolved
}

// resolve replaces, in the tree under n, each alias by the node it names,
// and each merge key ("<<: *base") by the keys of the mappings it names
// that the mapping does not give itself, as the YAML decoder reads them: a
// rule written once and named again, or made from another's keys, is
// checked as the rule it stands for. A node is resolved once, however many
// aliases name it; an alias to a node that holds it, which would repeat
// without end, is an *Error at its line.
func (a *aliases) resolve(n *yaml.Node) error {
	if a.done[n] {
		return nil
	}
	a.open[n] = true
	for i, c := range n.Content {
		if c.Kind == yaml.AliasNode {
			if to := yamlkeys.Deref(c); to != nil && a.open[to] {
				return &Error{a.file, c.Line, "", fmt.Sprintf("*%s within the node it names: it would repeat without end", c.Value)}
			} else if to != nil {
				n.Content[i] = to
			}
		}
		if err := a.resolve(n.Content[i]); err != nil {
			return err
		}
	}
	if n.Kind == yaml.MappingNode {
		var own, merged []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Tag == "!!merge" {
				merged = append(merged, n.Content[i+1])
			} else {
				own = append(own, n.Content[i], n.Content[i+1])
			}
		}
		for _, m := range merged {
			maps := []*yaml.Node{m}
			if m.Kind == yaml.SequenceNode {
				maps = m.Content
			}
			for _, mm := range maps {
				for i := 0; mm.Kind == yaml.MappingNode && i+1 < len(mm.Content); i += 2 {
					if !hasKey(own, mm.Content[i].Value) {
						own = append(own, mm.Content[i], mm.Content[i+1])
					}
				}
			}
		}
		if len(merged) > 0 {
			n.Content = own
		}
	}
	delete(a.open, n)
	a.done[n] = true
	return nil
}

// hasKey reports whether the pairs of a mapping's content (key, value,
// key, value, …) hold the key.
func hasKey(pairs []*yaml.Node, key string) bool {
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i].Value == key {
			return true
		}
	}
	return false
}

// fields are the keys a rule may have, attrKeys those of an entry of its
// drop_attr.
var (
	fields   = []string{"name", "hosts", "url", "article_url", "body", "drop", "drop_attr", "strip", "strip_regex"}
	attrKeys = []string{"tag", "attr", "match"}
)

// ruleCompiler compiles one rule, remembering where it is for errors.
type ruleCompiler struct {
	file    string
	rule    *Rule
	earlier []*Rule // the rules before it in the file, which match first
}

func (c *ruleCompiler) errorf(line int, format string, args ...any) error {
	return &Error{c.file, line, c.rule.Name, fmt.Sprintf(format, args...)}
}

// compile turns the n-th rule's mapping node into a Rule; earlier are the
// rules before it, of which none may take every page it would match.
func compile(node *yaml.Node, n int, file string, earlier []*Rule) (*Rule, error) {
	c := &ruleCompiler{file: file, rule: &Rule{Name: fmt.Sprintf("#%d", n), File: file, Line: node.Line}, earlier: earlier}
	if node.Kind != yaml.MappingNode {
		return nil, c.errorf(node.Line, "want a mapping of %s", strings.Join(fields, ", "))
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		if key, v := node.Content[i], node.Content[i+1]; key.Value == "name" {
			if v.Kind != yaml.ScalarNode {
				return nil, c.errorf(v.Line, "name: want a string")
			}
			c.rule.Name = v.Value
		}
	}
	vals, err := c.keys(node, fields, "")
	if err != nil {
		return nil, err
	}
	for _, step := range []func(map[string]*yaml.Node) error{c.match, c.selectors, c.dropAttr, c.strip} {
		if err := step(vals); err != nil {
			return nil, err
		}
	}
	return c.rule, nil
}

// keys returns the values of mapping m by key, as yamlkeys.Read does (an
// unknown key or one given twice refused), its errors the rule's; prefix
// starts their messages ("drop_attr: ").
func (c *ruleCompiler) keys(m *yaml.Node, want []string, prefix string) (map[string]*yaml.Node, error) {
	vals, err := yamlkeys.Read(m, want)
	var ke *yamlkeys.Error
	if errors.As(err, &ke) {
		return nil, c.errorf(ke.Line, "%s%s", prefix, ke.Msg)
	}
	return vals, err
}

// match compiles hosts, url and article_url.
func (c *ruleCompiler) match(vals map[string]*yaml.Node) error {
	if err := c.unreachable(); err != nil {
		return err
	}
	hosts, err := c.strings(vals, "hosts")
	if err != nil {
		return err
	}
	for _, h := range hosts {
		host, err := c.host(h)
		if err != nil {
			return err
		}
		c.rule.hosts = append(c.rule.hosts, host)
	}
	if c.rule.url, err = c.regexp(vals["url"], "url"); err != nil {
		return err
	}
	if c.rule.url != nil {
		for _, e := range c.earlier {
			if e.url != nil && e.url.String() == c.rule.url.String() {
				return c.errorf(vals["url"].Line, "url: %q is rule %q's (line %d) too, which matches first, so this rule would never apply by it",
					c.rule.url.String(), e.Name, e.Line)
			}
		}
	}
	c.rule.articleURL, err = c.regexp(vals["article_url"], "article_url")
	return err
}

// unreachable refuses a rule after one with neither hosts nor url: that one
// applies to every page, so no rule after it ever would.
func (c *ruleCompiler) unreachable() error {
	for _, e := range c.earlier {
		if len(e.hosts) == 0 && e.url == nil {
			return c.errorf(c.rule.Line, "rule %q (line %d) has neither hosts nor url and applies to every page first, so this rule would never apply: put the rule for every page last",
				e.Name, e.Line)
		}
	}
	return nil
}

// host reads one entry of hosts: a host name, matching its subdomains too
// ("*." before it says the same), in any case and with or without a final
// dot (hostKey). A URL, a path or a port there would
// never match, and neither would a host an earlier rule's hosts take first.
func (c *ruleCompiler) host(v *yaml.Node) (string, error) {
	h := hostKey(strings.TrimPrefix(strings.TrimSpace(v.Value), "*."))
	if !isHostName(h) {
		msg := fmt.Sprintf("hosts: %q is not a host name", v.Value)
		if name := hostOf(h); name != "" {
			msg += fmt.Sprintf(": write %s (its subdomains match too; url: takes a regexp of URLs)", name)
		} else {
			msg += ": write a name such as news.example (its subdomains match too; url: takes a regexp of URLs)"
		}
		return "", c.errorf(v.Line, "%s", msg)
	}
	for _, e := range c.earlier {
		for _, eh := range e.hosts {
			if h == eh || strings.HasSuffix(h, "."+eh) {
				return "", c.errorf(v.Line, "hosts: %s is matched by rule %q (line %d, hosts %s) first, so this rule would never apply to it",
					h, e.Name, e.Line, eh)
			}
		}
	}
	return h, nil
}

// isHostName reports whether h can be the host of a URL, as Match compares
// it: a name or an IP address, without scheme, port, path or spaces.
func isHostName(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	return h != "" && !strings.ContainsAny(h, "/:?#@[]\\*%, \t")
}

// hostOf returns the host a URL, or a host written with a path or port,
// names ("news.example" of "https://news.example/world"), or "".
func hostOf(s string) string {
	if !strings.Contains(s, "://") {
		s = "//" + s
	}
	u, err := url.Parse(s)
	if err != nil || !isHostName(u.Hostname()) {
		return ""
	}
	return u.Hostname()
}

// selectors compiles body and drop.
func (c *ruleCompiler) selectors(vals map[string]*yaml.Node) error {
	if v := vals["body"]; v != nil {
		sel, err := c.selector(v, "body")
		if err != nil {
			return err
		}
		c.rule.body, c.rule.bodySrc = sel, v.Value
	}
	drops, err := c.strings(vals, "drop")
	if err != nil {
		return err
	}
	for _, d := range drops {
		sel, err := c.selector(d, "drop")
		if err != nil {
			return err
		}
		c.rule.drop = append(c.rule.drop, sel)
	}
	return nil
}

// dropAttr compiles the attribute filters.
func (c *ruleCompiler) dropAttr(vals map[string]*yaml.Node) error {
	v := vals["drop_attr"]
	if v == nil {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return c.errorf(v.Line, "drop_attr: want a list of {tag, attr, match}")
	}
	for _, item := range v.Content {
		var raw struct{ Tag, Attr, Match string }
		if item.Kind != yaml.MappingNode {
			return c.errorf(item.Line, "drop_attr: want a mapping {tag, attr, match}")
		}
		if _, err := c.keys(item, attrKeys, "drop_attr: "); err != nil {
			return err
		}
		if err := item.Decode(&raw); err != nil {
			return c.errorf(item.Line, "drop_attr: %v", err)
		}
		if raw.Attr == "" || raw.Match == "" {
			return c.errorf(item.Line, "drop_attr: attr and match are required")
		}
		re, err := regexp.Compile(raw.Match)
		if err != nil {
			return c.errorf(item.Line, "drop_attr: bad regexp %q: %v", raw.Match, err)
		}
		c.rule.dropAttr = append(c.rule.dropAttr, AttrFilter{Tag: raw.Tag, Attr: raw.Attr, Match: re})
	}
	return nil
}

// strip compiles strip (literal) and strip_regex.
func (c *ruleCompiler) strip(vals map[string]*yaml.Node) error {
	lits, err := c.strings(vals, "strip")
	if err != nil {
		return err
	}
	for _, l := range lits {
		if l.Value == "" {
			return c.errorf(l.Line, "strip: empty text")
		}
		c.rule.strip = append(c.rule.strip, regexp.MustCompile(regexp.QuoteMeta(l.Value)))
	}
	res, err := c.strings(vals, "strip_regex")
	if err != nil {
		return err
	}
	for _, r := range res {
		re, err := c.regexp(r, "strip_regex")
		if err != nil {
			return err
		}
		c.rule.strip = append(c.rule.strip, re)
	}
	return nil
}

// strings reads a key that holds one string or a list of strings.
func (c *ruleCompiler) strings(vals map[string]*yaml.Node, key string) ([]*yaml.Node, error) {
	v := vals[key]
	switch {
	case v == nil:
		return nil, nil
	case v.Kind == yaml.ScalarNode:
		return []*yaml.Node{v}, nil
	case v.Kind != yaml.SequenceNode:
		return nil, c.errorf(v.Line, "%s: want a string or a list of strings", key)
	}
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, c.errorf(item.Line, "%s: want a string", key)
		}
	}
	return v.Content, nil
}

func (c *ruleCompiler) regexp(v *yaml.Node, key string) (*regexp.Regexp, error) {
	if v == nil {
		return nil, nil
	}
	if v.Kind != yaml.ScalarNode {
		return nil, c.errorf(v.Line, "%s: want a regexp string", key)
	}
	re, err := regexp.Compile(v.Value)
	if err != nil {
		return nil, c.errorf(v.Line, "%s: bad regexp %q: %v", key, v.Value, err)
	}
	return re, nil
}

func (c *ruleCompiler) selector(v *yaml.Node, key string) (*selector, error) {
	if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
		return nil, c.errorf(v.Line, "%s: want a CSS selector", key)
	}
	sel, err := cascadia.ParseGroup(v.Value)
	if err != nil {
		return nil, c.errorf(v.Line, "%s: bad CSS selector %q: %v", key, v.Value, err)
	}
	return newSelector(sel), nil
}
