package gen

import "time"

// article is a document while it is being made: paragraphs of sentences
// that the edit operations rearrange and rewrite.
type article struct {
	title    string
	dateline string     // prefix of the first paragraph, e.g. "SALVADOR, Feb 26 -"; may be empty
	place    string     // the city a new dateline names
	paras    [][]string // sentences per paragraph
	head     []string   // boilerplate lines above the body
	foot     []string   // boilerplate lines below the body
	date     time.Time
}

// clone returns a deep copy whose slices can be edited freely.
func (a *article) clone() *article {
	c := *a
	c.paras = make([][]string, len(a.paras))
	for i, p := range a.paras {
		c.paras[i] = append([]string(nil), p...)
	}
	c.head = append([]string(nil), a.head...)
	c.foot = append([]string(nil), a.foot...)
	return &c
}

// sentences returns the number of sentences.
func (a *article) sentences() int {
	n := 0
	for _, p := range a.paras {
		n += len(p)
	}
	return n
}

// locate maps a sentence number to its paragraph and index within it.
func (a *article) locate(k int) (para, idx int) {
	for i, p := range a.paras {
		if k < len(p) {
			return i, k
		}
		k -= len(p)
	}
	panic("gen: sentence index out of range")
}

// dropEmpty removes paragraphs left without sentences.
func (a *article) dropEmpty() {
	out := a.paras[:0]
	for _, p := range a.paras {
		if len(p) > 0 {
			out = append(out, p)
		}
	}
	a.paras = out
}

// appendText appends the body: boilerplate head lines, the dateline before
// the first paragraph, paragraphs separated by blank lines, boilerplate foot.
func (a *article) appendText(b []byte) []byte {
	for _, l := range a.head {
		b = append(b, l...)
		b = append(b, '\n')
	}
	if len(a.head) > 0 {
		b = append(b, '\n')
	}
	for i, p := range a.paras {
		if i > 0 {
			b = append(b, "\n\n"...)
		} else if a.dateline != "" {
			b = append(b, a.dateline...)
			b = append(b, ' ')
		}
		for j, s := range p {
			if j > 0 {
				b = append(b, ' ')
			}
			b = append(b, s...)
		}
	}
	if len(a.foot) > 0 {
		b = append(b, "\n\n"...)
	}
	for i, l := range a.foot {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l...)
	}
	return b
}
