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
// UsageError naming the methods that have it; options out of range are a
// UsageError naming the flags that put them there (see check), and so is
// --similar given above the threshold in force (see CheckSimilar).
func (mf *Flags) Apply(c engine.Config, specs []engine.Spec) (engine.Config, error) {
	base := c
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
	if err := mf.check(base, c); err != nil {
		return c, err
	}
	if slices.Contains(mf.Given(), "similar") {
		return c, CheckSimilar(c)
	}
	return c, nil
}

// CheckSimilar returns a UsageError naming --similar and --threshold, with
// their values, when the options c have a similar above their threshold;
// nil when they do not, or when c's method lacks either option (tfidf's
// rule has no threshold, rarewords no similar). A pair at or above the
// threshold is a duplicate, so the similar label marks the pairs below it
// that score at least --similar, and the duplicates a template rule
// refuses (other figures, names, days), similar by their score: above the
// threshold it would mark no pair below it, and leave out the refused
// duplicates scoring under it. A similar equal to the threshold marks
// those refused duplicates alone.
//
// Call it when --similar is given (Apply does): a --threshold given below
// the similar a method or an index holds by default is no mistake of the
// user's (minhash --threshold 0.2 under its --similar 0.3), and a sweep
// of thresholds (ApplyOwn) crosses it on purpose.
func CheckSimilar(c engine.Config) error {
	s, _ := flagopts.Get(c, "similar")
	t, _ := flagopts.Get(c, "threshold")
	similar, okS := s.(float64) // false when c has no such option
	threshold, okT := t.(float64)
	if !okS || !okT || similar <= threshold {
		return nil
	}
	return UsageError{fmt.Sprintf("--similar %v is above --threshold %v: a pair at or above the threshold is a duplicate, so "+
		"--similar marks the pairs below it as similar, and the duplicates a rule refuses (other figures, names, days); above "+
		"the threshold it would mark none below it by its score and leave out the refused ones scoring under %v. Give --similar at most "+
		"%v, or 0 for duplicates only", similar, threshold, similar, threshold)}
}

// ApplyOwn sets the flags given that c's method has, leaving the others;
// options out of range are a UsageError naming the flags that put them
// there (see check). It lets --similar above the threshold pass: a sweep
// varies the threshold (see CheckSimilar).
func (mf *Flags) ApplyOwn(c engine.Config) (engine.Config, error) {
	base := c
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
	return c, mf.check(base, c)
}

// check returns nil when the options c, base with the flags given set,
// are in range, else a UsageError that names the flags to change before
// the method's message, which names the option as the Go options do
// ("--hashes: minhash: MinHash size 7 is not in 8..4096"): those of the
// flags given whose value, put back as base has it, changes what is wrong.
func (mf *Flags) check(base, c engine.Config) error {
	err := engine.CheckConfig(c)
	if err == nil {
		return nil
	}
	var blamed []string
	for _, name := range mf.Given() {
		v, ok := flagopts.Get(base, name)
		if !ok {
			continue
		}
		back, serr := flagopts.Set(c, name, v)
		if serr != nil {
			continue
		}
		if berr := engine.CheckConfig(back); berr == nil || berr.Error() != err.Error() {
			blamed = append(blamed, "--"+name)
		}
	}
	if len(blamed) == 0 {
		return UsageError{err.Error()}
	}
	return UsageError{strings.Join(blamed, ", ") + ": " + err.Error()}
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
