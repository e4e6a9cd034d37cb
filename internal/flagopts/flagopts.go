// Package flagopts reads and sets the fields of a method's options by the
// flag names their struct tags give (`flag:"threshold" help:"..."`), so that
// the command line, the threshold sweep and the benchmark can set any
// method's options without a table of them: each method declares its
// options, with their defaults and help, once.
package flagopts

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/neardup/neardup/internal/engine"
)

// Field is one option of a method's options.
type Field struct {
	Name  string       // the flag name, "bucket-limit"
	Help  string       // what it means
	Enum  []string     // the values it takes, when listed
	Type  reflect.Type // float64, int, string, bool or uint64
	Value any          // its value in the options read
}

// Fields lists the options of c in declaration order.
func Fields(c engine.Config) []Field {
	v := reflect.ValueOf(c)
	t := v.Type()
	var out []Field
	for i := range t.NumField() {
		sf := t.Field(i)
		name := sf.Tag.Get("flag")
		if name == "" {
			continue
		}
		f := Field{Name: name, Help: sf.Tag.Get("help"), Type: sf.Type, Value: v.Field(i).Interface()}
		if e := sf.Tag.Get("enum"); e != "" {
			f.Enum = strings.Split(e, ",")
		}
		out = append(out, f)
	}
	return out
}

// Get returns the value of the option named name, and whether c has it.
func Get(c engine.Config, name string) (any, bool) {
	for _, f := range Fields(c) {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}

// Set returns c with the option named name set to value, which must be of
// the option's type, or an error when c has no such option.
func Set(c engine.Config, name string, value any) (engine.Config, error) {
	v := reflect.New(reflect.TypeOf(c)).Elem()
	v.Set(reflect.ValueOf(c))
	t := v.Type()
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("flag") != name {
			continue
		}
		val := reflect.ValueOf(value)
		if !val.Type().AssignableTo(t.Field(i).Type) {
			if !val.CanConvert(t.Field(i).Type) || val.Kind() == reflect.String || t.Field(i).Type.Kind() == reflect.String {
				return c, fmt.Errorf("--%s takes a %s, not %v", name, t.Field(i).Type, value)
			}
			val = val.Convert(t.Field(i).Type)
		}
		v.Field(i).Set(val)
		return v.Interface().(engine.Config), nil
	}
	return c, fmt.Errorf("--%s is not an option of %s", name, c.Method())
}

// Parse returns c with the option named name set from its text, as a
// command line gives it.
func Parse(c engine.Config, name, text string) (engine.Config, error) {
	for _, f := range Fields(c) {
		if f.Name != name {
			continue
		}
		var v any
		var err error
		switch f.Type.Kind() {
		case reflect.Float64:
			v, err = strconv.ParseFloat(text, 64)
		case reflect.Int:
			v, err = strconv.Atoi(text)
		case reflect.Uint64:
			v, err = strconv.ParseUint(text, 10, 64)
		case reflect.Bool:
			v, err = strconv.ParseBool(text)
		default:
			v = text
		}
		if err != nil {
			return c, fmt.Errorf("--%s %q: want a %s", name, text, f.Type)
		}
		return Set(c, name, v)
	}
	return c, fmt.Errorf("--%s is not an option of %s", name, c.Method())
}
