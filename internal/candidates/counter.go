package candidates

// Counter counts occurrences of 64-bit keys in an open-addressing table of
// 16 bytes a key. The zero value is ready; not safe for concurrent use.
type Counter struct {
	slots []counterSlot
	used  int
	zero  uint32
}

type counterSlot struct {
	key   uint64
	count uint32
}

// Inc adds one to key's count and returns the new count.
func (c *Counter) Inc(key uint64) int {
	if key == 0 {
		c.zero++
		return int(c.zero)
	}
	if !fits(c.used+1, len(c.slots)) {
		c.grow()
	}
	s := c.find(key)
	if s.key == 0 {
		s.key = key
		c.used++
	}
	s.count++
	return int(s.count)
}

// Dec takes one from key's count, if it is above zero, and returns the new
// count. A key counted down to zero keeps its slot until the table grows.
func (c *Counter) Dec(key uint64) int {
	if key == 0 {
		c.zero -= min(c.zero, 1)
		return int(c.zero)
	}
	if len(c.slots) == 0 {
		return 0
	}
	s := c.find(key)
	if s.key == 0 || s.count == 0 {
		return 0
	}
	s.count--
	return int(s.count)
}

// Count returns key's count.
func (c *Counter) Count(key uint64) int {
	if key == 0 {
		return int(c.zero)
	}
	if len(c.slots) == 0 {
		return 0
	}
	return int(c.find(key).count)
}

// EachKey calls fn with every key and its count, in table order.
func (c *Counter) EachKey(fn func(key uint64, count int)) {
	if c.zero > 0 {
		fn(0, int(c.zero))
	}
	for _, s := range c.slots {
		if s.count > 0 {
			fn(s.key, int(s.count))
		}
	}
}

func (c *Counter) find(key uint64) *counterSlot {
	mask := uint64(len(c.slots) - 1)
	for i := spread(key) & mask; ; i = (i + 1) & mask {
		if s := &c.slots[i]; s.key == 0 || s.key == key {
			return s
		}
	}
}

func (c *Counter) grow() {
	old := c.slots
	c.slots = make([]counterSlot, max(1024, 2*len(old)))
	c.used = 0
	for _, s := range old {
		if s.count > 0 {
			*c.find(s.key) = s
			c.used++
		}
	}
}
