//go:build !linux

package output

// renameExchange answers errNoExchange: outside Linux the swap is two
// renames, and a run killed between them has the previous set put back by
// the next.
func renameExchange(a, b string) error { return errNoExchange }
