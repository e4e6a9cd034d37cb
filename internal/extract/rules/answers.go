package rules

import "golang.org/x/net/html"

// answers are a state's remembered answers of its walks (and of >, + and
// :haschild()) for the nodes: each node given one is numbered once, in the
// order they come, and each walk keeps a byte for each number. That is an
// entry in a map for each node, however many walks remember it, and a byte
// for each walk and node: a map keyed by walk and node took about 100 bytes
// an answer (`h3 ~ p ~ p` over a million siblings, 212 MB).
type answers struct {
	number map[*html.Node]int32
	walks  [][]answer // by walk (its id), then by node number
}

// answer is a walk's answer for a node: whether a node beyond it (an
// ancestor, a previous sibling, a descendant) matches the walk's selector;
// or, for a matcher of >, + or :haschild() (near), whether the node matches
// it. The zero value is unknown.
type answer uint8

const (
	unknown answer = iota
	no
	yes
)

func newAnswers() *answers {
	return &answers{number: map[*html.Node]int32{}}
}

// get returns walk id's answer for n, and whether it is known.
func (a *answers) get(id int, n *html.Node) (v, ok bool) {
	i, ok := a.number[n]
	if !ok || id >= len(a.walks) || int(i) >= len(a.walks[id]) {
		return false, false
	}
	v, ok = a.walks[id][i] == yes, a.walks[id][i] != unknown
	return v, ok
}

// set remembers walk id's answer v for n.
func (a *answers) set(id int, n *html.Node, v bool) {
	i, ok := a.number[n]
	if !ok {
		i = int32(len(a.number))
		a.number[n] = i
	}
	for id >= len(a.walks) {
		a.walks = append(a.walks, nil)
	}
	w := a.walks[id]
	if int(i) >= len(w) {
		w = append(w, make([]answer, int(i)+1-len(w))...)
		a.walks[id] = w
	}
	w[i] = no
	if v {
		w[i] = yes
	}
}
