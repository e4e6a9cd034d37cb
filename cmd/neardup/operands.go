package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/alecthomas/kong"
)

// operandsMapper reads a command's positional arguments of many values
// (ids, inputs, URLs: the fields tagged type:"operands") as POSIX tools
// read their operands: a "--" among them ends the flags, and every argument
// after it is an operand, whether or not it begins with "-" (`index remove
// a -- -b` removes "a" and "-b"). Kong's own slice takes the values in a
// row and stops at the "--", which then leaves what follows it without an
// argument to go to ("unexpected argument -b"), unless the "--" comes
// before every operand. It reads the values in a row, then, after a "--",
// every argument left.
var operandsMapper = kong.MapperFunc(func(ctx *kong.DecodeContext, target reflect.Value) error {
	add := func(t kong.Token) { target.Set(reflect.Append(target, reflect.ValueOf(t.String()))) }
	for _, t := range ctx.Scan.PopWhile(func(t kong.Token) bool { return t.IsValue() }) {
		add(t)
	}
	if t := ctx.Scan.Peek(); t.Type == kong.UntypedToken && t.String() == "--" {
		ctx.Scan.Pop()
		for !ctx.Scan.Peek().IsEOL() {
			add(ctx.Scan.Pop())
		}
	}
	return nil
})

// namedFew is how many operands a message names before it counts the rest.
const namedFew = 5

// fewNamed joins the first namedFew of names with sep and counts those left
// ("a, b, c, d, e and 2995 more"), so that a message about thousands of
// operands (ids, URLs not stored) stays a line long.
func fewNamed(names []string, sep string) string {
	if len(names) <= namedFew {
		return strings.Join(names, sep)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:namedFew], sep), len(names)-namedFew)
}
