//go:build !unix

package job

// peakRSS is unknown on this platform.
func peakRSS() int64 { return 0 }

// cpuSeconds is unknown on this platform.
func cpuSeconds() float64 { return 0 }
