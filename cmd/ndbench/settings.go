package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/neardup/neardup/dedup"
)

// setting is one --set flag: a dedup.Options field and its value, for
// every method or for one.
type setting struct {
	method string // "" for every method
	field  string // a dedup.Options field name, case and dashes ignored
	value  string
}

// parseSettings reads --set values of the form [method.]field=value, where
// field names a dedup.Options field ("threshold", "bucket-limit",
// "max-sentence-docs") and value is a number, true/false or text.
func parseSettings(sets []string) ([]setting, error) {
	var out []setting
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--set %q: want [method.]field=value", s)
		}
		var st setting
		if m, f, ok := strings.Cut(k, "."); ok {
			if !slices.Contains(dedup.Methods, m) {
				return nil, fmt.Errorf("--set %q: unknown method %q (want one of %v)", s, m, dedup.Methods)
			}
			st.method, k = m, f
		}
		st.field = strings.NewReplacer("-", "", "_", "").Replace(k)
		if strings.EqualFold(st.field, "method") {
			return nil, fmt.Errorf("--set %q: choose methods with --methods", s)
		}
		st.value = v
		if _, err := apply(dedup.Options{}, []setting{st}); err != nil {
			return nil, fmt.Errorf("--set %q: %w", s, err)
		}
		out = append(out, st)
	}
	return out, nil
}

// optionsFor returns the dedup options of one method: its name and the
// settings that apply to it, in order. The values are checked by
// dedup.Options.Defaults.
func optionsFor(method string, sets []setting) (dedup.Options, error) {
	var mine []setting
	for _, s := range sets {
		if s.method == "" || s.method == method {
			mine = append(mine, s)
		}
	}
	o, err := apply(dedup.Options{Method: method}, mine)
	if err != nil {
		return o, err
	}
	if _, err := o.Defaults(); err != nil {
		return o, err
	}
	return o, nil
}

// apply sets each field by decoding a one-member JSON object into o, so
// field names match dedup.Options' without a table of them here. A value
// that is not JSON is taken as a string.
func apply(o dedup.Options, sets []setting) (dedup.Options, error) {
	for _, s := range sets {
		v := []byte(s.value)
		if !json.Valid(v) {
			v, _ = json.Marshal(s.value)
		}
		key, _ := json.Marshal(s.field)
		obj := append(append(append(append([]byte("{"), key...), ':'), v...), '}')
		dec := json.NewDecoder(bytes.NewReader(obj))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return o, fmt.Errorf("%s=%s: %w", s.field, s.value, err)
		}
	}
	return o, nil
}
