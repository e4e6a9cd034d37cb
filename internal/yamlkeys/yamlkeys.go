// Package yamlkeys reads the keys of the YAML mappings of neardup's files
// (site rules, feeds files) from the parsed node tree, refusing a key
// unknown or given twice with the line at fault, where decoding into Go
// structs would name Go's types, or let the last of two keys win.
package yamlkeys

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is a mistake in a mapping's keys: Msg says it without a place
// (`unknown key "x" (want one of a, b)`, `key "x" given twice`), so that
// the caller names its file and what the mapping is.
type Error struct {
	Line int // the line of the key at fault
	Msg  string
}

// Error returns "line N: message".
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Read returns the values of mapping m by key, each alias as the node it
// names, refusing a key not in want and a key given twice with an *Error.
// A merge key ("<<: *base") brings in the keys of the mappings it names
// that m does not give itself, as the YAML decoder reads them; a merge of
// a mapping that merges the one at hand, which would repeat without end,
// is an *Error at the merge key's line. Each mapping merged is read once,
// however many merge it.
func Read(m *yaml.Node, want []string) (map[string]*yaml.Node, error) {
	r := reader{want: want, open: map[*yaml.Node]bool{}, done: map[*yaml.Node]map[string]*yaml.Node{}}
	return r.read(m)
}

// reader reads a mapping's keys and those of the mappings it merges.
type reader struct {
	want []string
	open map[*yaml.Node]bool                  // the mappings being read: the one at hand and those merging it
	done map[*yaml.Node]map[string]*yaml.Node // the mappings read, by their values
}

func (r *reader) read(m *yaml.Node) (map[string]*yaml.Node, error) {
	if vals, ok := r.done[m]; ok {
		return vals, nil
	}
	r.open[m] = true
	defer delete(r.open, m)
	vals := map[string]*yaml.Node{}
	var merged []*yaml.Node // each merge key's mapping, or list of mappings
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], Deref(m.Content[i+1])
		switch {
		case k.Tag == "!!merge":
			merged = append(merged, k, v)
			continue
		case !slices.Contains(r.want, k.Value):
			return nil, &Error{k.Line, fmt.Sprintf("unknown key %q (want one of %s)", k.Value, strings.Join(r.want, ", "))}
		case vals[k.Value] != nil:
			return nil, &Error{k.Line, fmt.Sprintf("key %q given twice", k.Value)}
		}
		vals[k.Value] = v
	}
	for i := 0; i < len(merged); i += 2 {
		k, v := merged[i], merged[i+1]
		maps := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			maps = v.Content
		}
		for _, mm := range maps {
			switch mm = Deref(mm); {
			case mm.Kind != yaml.MappingNode:
				return nil, &Error{mm.Line, "<<: want a mapping, or a list of mappings, to merge"}
			case r.open[mm]:
				return nil, &Error{k.Line, "<<: merges the mapping it is in, or one merging it: it would repeat without end"}
			}
			more, err := r.read(mm)
			if err != nil {
				return nil, err
			}
			for key, mv := range more {
				if vals[key] == nil {
					vals[key] = mv
				}
			}
		}
	}
	r.done[m] = vals
	return vals, nil
}

// Deref returns n, or the node an alias n names.
func Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}
