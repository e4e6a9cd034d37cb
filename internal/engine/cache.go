package engine

import "sync"

// detailCache keeps decoded sketch details of recent documents, evicting
// the oldest entry when full. It is safe for concurrent use.
type detailCache[S any] struct {
	mu    sync.Mutex
	max   int
	items map[int64]*S
	order []int64
	next  int
}

func newDetailCache[S any](max int) *detailCache[S] {
	return &detailCache[S]{max: max, items: make(map[int64]*S)}
}

func (c *detailCache[S]) get(ord int64) *S {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.items[ord]
}

func (c *detailCache[S]) put(ord int64, s *S) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[ord]; ok {
		return
	}
	if len(c.order) < c.max {
		c.order = append(c.order, ord)
	} else {
		delete(c.items, c.order[c.next])
		c.order[c.next] = ord
		c.next = (c.next + 1) % c.max
	}
	c.items[ord] = s
}

func (c *detailCache[S]) drop(ord int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.items, ord)
}
