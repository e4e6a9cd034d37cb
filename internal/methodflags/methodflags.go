// Package methodflags makes the command-line flags of the methods' options
// from the options structs' tags (see package flagopts), for the commands of
// the neardup and lab modules that choose a method: one flag a name, shared
// by the methods whose options have it.
package methodflags

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/neardup/neardup/internal/engine"
	"github.com/neardup/neardup/internal/flagopts"
)

// Flags are the flags of the methods' options, made from the options
// structs' tags (see package flagopts): one flag a name, shared by the
// methods whose options have it (--threshold), its help listing each one's
// default. The defaults are the methods' own, never restated here: a flag
// not given leaves the option as the method (or a stored index) has it.
type Flags struct {
	ptr   reflect.Value // *struct of one pointer field a flag, which kong fills
	names []string      // the flag name of each field
}

// New builds the flags of the methods of specs.
func New(specs []engine.Spec) *Flags {
	var order []string
	flags := map[string][]use{}
	for _, s := range specs {
		for _, f := range flagopts.Fields(s.Defaults()) {
			uses, ok := flags[f.Name]
			if !ok {
				order = append(order, f.Name)
			} else if uses[0].field.Type != f.Type {
				panic(fmt.Sprintf("--%s is a %s in one method and a %s in another", f.Name, uses[0].field.Type, f.Type))
			}
			flags[f.Name] = append(uses, use{method: s.Name, field: f})
		}
	}
	mf := &Flags{}
	var fields []reflect.StructField
	for i, name := range order {
		uses := flags[name]
		tag := fmt.Sprintf(`name:%q help:%q group:"Method options (the chosen method's defaults unless given)"`, name, help(uses))
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: reflect.PointerTo(uses[0].field.Type),
			Tag: reflect.StructTag(tag)})
		mf.names = append(mf.names, name)
	}
	mf.ptr = reflect.New(reflect.StructOf(fields))
	return mf
}

// use is one method's option behind a flag.
type use struct {
	method string
	field  flagopts.Field
}

// meaning is what an option says it is and the values it takes.
func (u use) meaning() string {
	m := u.field.Help
	if u.field.Enum != nil {
		m += ": " + strings.Join(u.field.Enum, ", ")
	}
	return m
}

// help is a flag's help: what it means and each method's default. Methods
// whose options of that name mean other things (--weighting: cosine's
// tfidf or pmi, simhash's binary, tf or logtf) are described each with its
// own meaning, values and default.
func help(uses []use) string {
	var meanings []string
	byMeaning := map[string][]use{}
	for _, u := range uses {
		m := u.meaning()
		if _, ok := byMeaning[m]; !ok {
			meanings = append(meanings, m)
		}
		byMeaning[m] = append(byMeaning[m], u)
	}
	defaults := func(us []use, named bool) string {
		var ds []string
		for _, u := range us {
			d := showDefault(u.field.Value)
			if named {
				d = u.method + " " + d
			}
			ds = append(ds, d)
		}
		return strings.Join(ds, "; ")
	}
	if len(meanings) == 1 {
		return meanings[0] + ". Default: " + defaults(uses, true) + "."
	}
	parts := make([]string, len(meanings))
	for i, m := range meanings {
		us := byMeaning[m]
		var names []string
		for _, u := range us {
			names = append(names, u.method)
		}
		parts[i] = fmt.Sprintf("%s: %s. Default: %s.", strings.Join(names, ", "), m, defaults(us, len(us) > 1))
	}
	return strings.Join(parts, " ")
}

func showDefault(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return `""`
	}
	return fmt.Sprint(v)
}

// Plugin is the struct kong fills: pass it in a kong.Plugins field.
func (mf *Flags) Plugin() any { return mf.ptr.Interface() }

// Given returns the names of the flags given.
func (mf *Flags) Given() []string {
	var out []string
	for i, name := range mf.names {
		if !mf.ptr.Elem().Field(i).IsNil() {
			out = append(out, name)
		}
	}
	return out
}

// Apply sets the flags given on c. A flag c's method does not have is a
// UsageError naming the methods that have it.
func (mf *Flags) Apply(c engine.Config, specs []engine.Spec) (engine.Config, error) {
	for i, name := range mf.names {
		f := mf.ptr.Elem().Field(i)
		if f.IsNil() {
			continue
		}
		next, err := flagopts.Set(c, name, f.Elem().Interface())
		if err != nil {
			return c, UsageError{fmt.Sprintf("--%s is an option of %s, not of %s", name, Owners(name, specs), c.Method())}
		}
		c = next
	}
	if err := engine.CheckConfig(c); err != nil {
		return c, UsageError{err.Error()}
	}
	return c, nil
}

// ApplyOwn sets the flags given that c's method has, leaving the others.
func (mf *Flags) ApplyOwn(c engine.Config) (engine.Config, error) {
	for i, name := range mf.names {
		f := mf.ptr.Elem().Field(i)
		if f.IsNil() {
			continue
		}
		if _, ok := flagopts.Get(c, name); !ok {
			continue
		}
		next, err := flagopts.Set(c, name, f.Elem().Interface())
		if err != nil {
			return c, UsageError{err.Error()}
		}
		c = next
	}
	if err := engine.CheckConfig(c); err != nil {
		return c, UsageError{err.Error()}
	}
	return c, nil
}

// Owners lists the methods with an option named name, comma-separated.
func Owners(name string, specs []engine.Spec) string {
	var out []string
	for _, s := range specs {
		if _, ok := flagopts.Get(s.Defaults(), name); ok {
			out = append(out, s.Name)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// UsageError is a mistake in the method flags given: the command line is
// wrong, not the input.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }
