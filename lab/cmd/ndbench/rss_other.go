//go:build !unix

package main

import "os"

// peakRSS returns 0: the platform's process usage has no peak RSS.
func peakRSS(*os.ProcessState) int64 { return 0 }
