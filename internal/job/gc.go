package job

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A run's heap is mostly the sketches of the documents read so far, which it
// keeps to the end: its largest live heap comes after the last document is
// read, and the peak memory of the run is that heap plus the collector's
// headroom. While the inputs are read, a collection at 1.25× the live heap
// (GOGC=25) would run five times as often as that peak needs: each one marks
// every sketch kept so far, and reading makes several times the sketches'
// bytes in garbage (lines, decoded texts). gcPacer therefore sizes the
// headroom by the heap the reading is headed for: after each collection it
// sets GOGC so that the next one comes when the heap has grown by a quarter
// of the live heap projected for the end of the reading (the live heap
// scaled by the input bytes still to read, once a 32nd of them is read),
// or by a quarter of the live heap, whichever is more, and at least
// minHeadroom. The heap never exceeds
// 1.25× the projected end of reading, so the run's peak, which comes after
// it, is unchanged; when the input's size is unknown (a stream) it is
// GOGC=25 with the floor. A GOGC in the environment turns the pacer off; a
// GOMEMLIMIT still bounds the heap as the runtime enforces it.
type gcPacer struct {
	mu       sync.Mutex
	progress func() (done, total int64) // nil: nothing to project
	stopped  bool
	sample   []metrics.Sample
	prev     int     // the GOGC in force before the pacer
	share    float64 // the headroom's share of the live heap
}

// headroomShare is the share of the live heap (projected or not) a
// collection leaves room for: GOGC=25.
const headroomShare = 0.25

// lastShare is the headroom's share once the live heap is at its largest
// and what is left of the run makes little garbage (see lastStretch):
// GOGC=10.
const lastShare = 0.10

// minProjected: the live heap is projected from a 32nd of the input on.
const minProjected = 32

// minHeadroom is the least room the pacer leaves between collections: small
// runs collect a few times rather than hundreds.
const minHeadroom = 4 << 20

// startGCPacer starts pacing the collector for a run, unless GOGC is set.
// progress, when not nil, gives the input bytes read and their total (see
// corpus.Reader.Progress). The caller calls stop at the end of the run.
func startGCPacer(progress func() (done, total int64)) *gcPacer {
	p := &gcPacer{progress: progress, share: headroomShare, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	if os.Getenv("GOGC") != "" {
		p.stopped = true
		return p
	}
	p.prev = debug.SetGCPercent(25)
	p.pace()
	runtime.SetFinalizer(&gcTick{p: p}, (*gcTick).collected)
	return p
}

// gcTick is an object nothing refers to: its finalizer runs after each
// collection and sets it again.
type gcTick struct{ p *gcPacer }

func (t *gcTick) collected() {
	if t.p.pace() {
		runtime.SetFinalizer(t, (*gcTick).collected)
	}
}

// reading ends the projection: from now on the live heap is what it is.
func (p *gcPacer) readingDone() {
	p.mu.Lock()
	p.progress = nil
	p.mu.Unlock()
	p.pace()
}

// lastStretch leaves a tenth of the live heap as headroom for the rest of
// the run: called when the largest heap is reached and little garbage is
// left to make (the second reading copies nothing), so that writing the
// results, which makes some, does not take the heap a quarter above it, at
// the cost of a collection or two.
func (p *gcPacer) lastStretch() {
	p.mu.Lock()
	p.share = lastShare
	p.mu.Unlock()
	p.pace()
}

// stop restores the GOGC in force before the pacer.
func (p *gcPacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		debug.SetGCPercent(p.prev)
	}
}

// pace sets GOGC for the live heap of the last collection; it reports
// false once the pacer is stopped.
func (p *gcPacer) pace() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return false
	}
	metrics.Read(p.sample)
	live := float64(p.sample[0].Value.Uint64())
	if live <= 0 {
		return true
	}
	projected := live
	if p.progress != nil {
		// Until a 32nd of the input is read, what the run keeps
		// whatever its size (buffers, tables) is too much of the live
		// heap to scale it by.
		if done, total := p.progress(); done > 0 && total > done && done >= total/minProjected {
			projected = live * float64(total) / float64(done)
		}
	}
	debug.SetGCPercent(gcPercent(live, projected, p.share))
	return true
}

// gcPercent is the GOGC that leaves room for share of the projected live
// heap, at least share of the live heap and minHeadroom.
func gcPercent(live, projected, share float64) int {
	room := max(share*max(projected, live), minHeadroom)
	return max(int(100*room/live), int(100*share))
}
