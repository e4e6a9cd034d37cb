package dedup

import (
	"fmt"
	"slices"
)

// idOf keys a document's ordinal by its id, for repeatedIDFn.
func idOf(ord int64, d doc, emit func(string, int64)) { emit(d.ID, ord) }

// repeatedIDFn fails the job at an id two documents hold, as neardup dedup
// refuses it by default (--on-duplicate-id fail): the pipeline tells its
// documents apart by their ids in its results, and two of one id were
// paired with each other (a pair whose a is its b), listed twice in a
// cluster, and both removed and kept. The error names the two first
// documents of the id, by their files (Inputs, by index) and their
// records there, from 1.
type repeatedIDFn struct {
	Inputs []string
}

func (fn *repeatedIDFn) ProcessElement(id string, ords func(*int64) bool) error {
	var all []int64
	var ord int64
	for ords(&ord) {
		all = append(all, ord)
	}
	if len(all) < 2 {
		return nil
	}
	slices.Sort(all)
	return fmt.Errorf("%s: id %q repeats the id of %s (neardup-beam reads each id once: "+
		"give the inputs unique ids: neardup convert --on-duplicate-id rename writes them so, id#2 for the second, as neardup dedup names it)",
		fn.place(all[1]), id, fn.place(all[0]))
}

// place names the document of ordinal ord: its record in its file.
func (fn *repeatedIDFn) place(ord int64) string {
	in, rec := ord>>ordBits, ord&(1<<ordBits-1)
	name := fmt.Sprint("input ", in)
	if in < int64(len(fn.Inputs)) {
		name = fn.Inputs[in]
	}
	return fmt.Sprintf("%s, record %d", name, rec+1)
}
