package gen

import (
	"fmt"
	"io"
)

// batchSize is the number of documents a worker makes at a time.
const batchSize = 512

// batch is a run of output positions and, once done is closed, their lines.
type batch struct {
	start, end  int
	docs, truth []byte
	ops         map[Op]int
	leftOut     int // copies left out (maker.make)
	done        chan struct{}
}

// run makes the documents on opts.Workers goroutines and writes them in
// position order.
func (g *generator) run(docsOut, truthOut io.Writer) error {
	n := len(g.order)
	stop := make(chan struct{})
	defer close(stop)
	jobs := make(chan *batch)
	queue := make(chan *batch, 4*g.opts.Workers)
	go func() {
		defer close(jobs)
		defer close(queue)
		for start := 0; start < n; start += batchSize {
			b := &batch{start: start, end: min(start+batchSize, n), done: make(chan struct{})}
			select {
			case queue <- b:
			case <-stop:
				return
			}
			select {
			case jobs <- b:
			case <-stop:
				return
			}
		}
	}()
	for range g.opts.Workers {
		go func() {
			m := newMaker(g)
			for b := range jobs {
				m.fill(b)
				close(b.done)
			}
		}()
	}
	g.stats.Ops = map[Op]int{}
	for b := range queue {
		<-b.done
		if err := g.write(b, docsOut, truthOut); err != nil {
			return err
		}
		if g.opts.Progress != nil {
			g.opts.Progress(b.end)
		}
	}
	return nil
}

func (g *generator) write(b *batch, docsOut, truthOut io.Writer) error {
	if _, err := docsOut.Write(b.docs); err != nil {
		return fmt.Errorf("writing documents: %w", err)
	}
	if _, err := truthOut.Write(b.truth); err != nil {
		return fmt.Errorf("writing truth: %w", err)
	}
	for op, c := range b.ops {
		g.stats.Ops[op] += c
	}
	g.stats.Documents -= b.leftOut
	g.stats.Copies -= b.leftOut
	g.stats.CopiesLeftOut += b.leftOut
	return nil
}

// fill makes the documents of b's positions.
func (m *maker) fill(b *batch) {
	b.ops = map[Op]int{}
	for p := b.start; p < b.end; p++ {
		doc, truth, ok := m.make(int(m.g.order[p]))
		if !ok {
			b.leftOut++
			continue
		}
		b.docs = appendDoc(b.docs, &doc, m.text)
		b.truth = appendTruth(b.truth, &truth)
		if len(truth.Ops) > 0 && truth.Ops[0] != TemplateNegative {
			for _, op := range truth.Ops {
				b.ops[op]++
			}
		}
	}
}
