package watch

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/neardup/neardup/internal/yamlkeys"
)

// The keys a feeds file, a feed of it and a feed's rule may have.
var (
	fileKeys = []string{"version", "feeds"}
	feedKeys = []string{"url", "interval", "rule"}
	ruleKeys = []string{"body", "drop", "drop_attr", "strip", "strip_regex", "article_url"}
	attrKeys = []string{"tag", "attr", "match"}
)

// fileChecker checks the shape of a feeds file's YAML before it is
// decoded, so that a mistake is named by the file's line and the key, as in
// a site rules file (rules.Parse), where the YAML decoder's message named
// Go's types ("field intervall not found in type watch.Feed") after a line
// of its own.
type fileChecker struct {
	path string
	feed int // the feed being checked, from 1; 0 outside the feeds
}

func (c *fileChecker) errorf(line int, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if c.feed > 0 {
		msg = fmt.Sprintf("feed %d: %s", c.feed, msg)
	}
	return fmt.Errorf("%s:%d: %s", c.path, line, msg)
}

// checkFile checks the document node of a feeds file: its keys, and the
// kind of each value. It turns a rule's drop, strip or strip_regex given
// as one string into a list of it, as a site rules file takes them.
func checkFile(path string, doc *yaml.Node) error {
	c := &fileChecker{path: path}
	top := doc
	if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
		top = yamlkeys.Deref(top.Content[0])
	}
	if top.Kind != yaml.MappingNode {
		return c.errorf(top.Line, "want a mapping with version and feeds (a feeds file starts with a \"version: 1\" line, as neardup feeds export writes)")
	}
	vals, err := c.keys(top, fileKeys, "")
	if err != nil {
		return err
	}
	if v := vals["version"]; v != nil {
		if _, err := strconv.Atoi(v.Value); v.Kind != yaml.ScalarNode || err != nil {
			return c.errorf(v.Line, "version: want 1")
		}
	}
	feeds := vals["feeds"]
	if feeds == nil || isNull(feeds) {
		return nil
	}
	if feeds.Kind != yaml.SequenceNode {
		return c.errorf(feeds.Line, "feeds: want a list of feeds, each a mapping of %s", strings.Join(feedKeys, ", "))
	}
	for i, f := range feeds.Content {
		c.feed = i + 1
		if err := c.checkFeed(yamlkeys.Deref(f)); err != nil {
			return err
		}
	}
	return nil
}

func (c *fileChecker) checkFeed(f *yaml.Node) error {
	if f.Kind != yaml.MappingNode {
		return c.errorf(f.Line, "want a mapping of %s", strings.Join(feedKeys, ", "))
	}
	vals, err := c.keys(f, feedKeys, "")
	if err != nil {
		return err
	}
	if v := vals["url"]; v != nil && v.Kind != yaml.ScalarNode {
		return c.errorf(v.Line, "url: want a string, not a %s", kindName(v))
	}
	if v := vals["interval"]; v != nil && v.Kind != yaml.ScalarNode {
		return c.errorf(v.Line, "interval: want a duration (15m, 1h30m, 2d or 1w), not a %s", kindName(v))
	}
	r := vals["rule"]
	if r == nil || isNull(r) {
		return nil
	}
	if r.Kind != yaml.MappingNode {
		return c.errorf(r.Line, "rule: want a mapping of %s", strings.Join(ruleKeys, ", "))
	}
	return c.checkRule(r)
}

func (c *fileChecker) checkRule(r *yaml.Node) error {
	vals, err := c.keys(r, ruleKeys, "rule: ")
	if err != nil {
		return err
	}
	for _, key := range []string{"body", "article_url"} {
		if v := vals[key]; v != nil && v.Kind != yaml.ScalarNode {
			return c.errorf(v.Line, "rule: %s: want a string, not a %s", key, kindName(v))
		}
	}
	for _, key := range []string{"drop", "strip", "strip_regex"} {
		v := vals[key]
		switch {
		case v == nil || isNull(v):
			continue
		case v.Kind == yaml.ScalarNode: // one string: a list of it
			item := *v
			*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: v.Line, Column: v.Column, Content: []*yaml.Node{&item}}
			continue
		case v.Kind != yaml.SequenceNode:
			return c.errorf(v.Line, "rule: %s: want a string or a list of strings", key)
		}
		for _, item := range v.Content {
			if item = yamlkeys.Deref(item); item.Kind != yaml.ScalarNode {
				return c.errorf(item.Line, "rule: %s: want a string, not a %s", key, kindName(item))
			}
		}
	}
	return c.checkDropAttr(vals["drop_attr"])
}

func (c *fileChecker) checkDropAttr(v *yaml.Node) error {
	if v == nil || isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return c.errorf(v.Line, "rule: drop_attr: want a list of {tag, attr, match}")
	}
	for _, item := range v.Content {
		if item = yamlkeys.Deref(item); item.Kind != yaml.MappingNode {
			return c.errorf(item.Line, "rule: drop_attr: want a mapping {tag, attr, match}")
		}
		vals, err := c.keys(item, attrKeys, "rule: drop_attr: ")
		if err != nil {
			return err
		}
		for _, key := range attrKeys {
			if a := vals[key]; a != nil && a.Kind != yaml.ScalarNode {
				return c.errorf(a.Line, "rule: drop_attr: %s: want a string, not a %s", key, kindName(a))
			}
		}
	}
	return nil
}

// keys returns the values of mapping m by key, as yamlkeys.Read does,
// its errors placed in the file; prefix starts their messages ("rule: ").
func (c *fileChecker) keys(m *yaml.Node, want []string, prefix string) (map[string]*yaml.Node, error) {
	vals, err := yamlkeys.Read(m, want)
	var ke *yamlkeys.Error
	if errors.As(err, &ke) {
		return nil, c.errorf(ke.Line, "%s%s", prefix, ke.Msg)
	}
	return vals, err
}

// isNull reports whether n is YAML's null (a key given no value).
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// kindName is what a message calls the kind of node n.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// yamlLine matches the YAML parser's errors that name a line.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError returns the YAML parser's error err of the feeds file at
// path as "path:line: message", when it names a line.
func syntaxError(path string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s:%s: %s", path, m[1], m[2])
	}
	return fmt.Errorf("%s: %w", path, err)
}
