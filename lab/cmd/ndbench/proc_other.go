//go:build !linux

package main

// loadAverage returns "": the load average is read only on Linux.
func loadAverage() string { return "" }

// selfPeakRSS returns 0: the process's own peak is read only on Linux.
func selfPeakRSS() int64 { return 0 }
