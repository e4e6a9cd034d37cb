package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
	"github.com/neardup/neardup/internal/methods"
)

// setting is one --set flag: a method option by its flag name and a value,
// for every method that has it or for one.
type setting struct {
	method string // "" for every method that has the option
	name   string // the option's flag name, "bucket-limit"
	value  string
}

// parseSettings reads --set values of the form [method.]name=value, where
// name is an option's flag name ("threshold", "bucket-limit",
// "max-sentence-docs"). A setting for every method must name an option of
// at least one.
func parseSettings(sets []string) ([]setting, error) {
	var out []setting
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--set %q: want [method.]name=value", s)
		}
		var st setting
		if m, f, ok := strings.Cut(k, "."); ok {
			if _, err := methods.Lookup(m); err != nil {
				return nil, fmt.Errorf("--set %q: %w", s, err)
			}
			st.method, k = m, f
		}
		st.name, st.value = strings.ReplaceAll(k, "_", "-"), v
		if !known(st) {
			return nil, fmt.Errorf("--set %q: no method has an option %q", s, st.name)
		}
		out = append(out, st)
	}
	return out, nil
}

// known reports whether some method the setting applies to has its option.
func known(st setting) bool {
	for _, spec := range methods.All {
		if st.method != "" && st.method != spec.Name {
			continue
		}
		if _, ok := flagopts.Get(spec.Defaults(), st.name); ok {
			return true
		}
	}
	return false
}

// optionsFor returns the options of one method: its defaults with the
// settings that apply to it, in order.
func optionsFor(method string, sets []setting) (engine.Config, error) {
	spec, err := methods.Lookup(method)
	if err != nil {
		return nil, err
	}
	c := spec.Defaults()
	for _, s := range sets {
		if s.method != "" && s.method != method {
			continue
		}
		if _, ok := flagopts.Get(c, s.name); !ok {
			continue // an option of other methods
		}
		if c, err = flagopts.Parse(c, s.name, s.value); err != nil {
			return nil, err
		}
	}
	return c, c.Check()
}

// methodOptions is a method's options as a child spec carries them.
type methodOptions struct {
	Method  string          `json:"method"`
	Options json.RawMessage `json:"options"`
}

func encodeOptions(c engine.Config) (methodOptions, error) {
	data, err := json.Marshal(c)
	return methodOptions{Method: c.Method(), Options: data}, err
}

func (m methodOptions) decode() (engine.Config, error) {
	spec, err := methods.Lookup(m.Method)
	if err != nil {
		return nil, err
	}
	return spec.DecodeOptions(m.Options)
}
