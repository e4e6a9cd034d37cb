//go:build !unix

package job

// peakRSS is unknown on this platform.
func peakRSS() int64 { return 0 }
