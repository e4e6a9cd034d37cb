package main

import (
	"os"
	"strconv"
	"strings"
)

// loadAverage returns the 1, 5 and 15 minute load averages as
// /proc/loadavg gives them, or "" when unknown.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// selfPeakRSS returns this process's peak resident memory in bytes from
// VmHWM in /proc/self/status, or 0 when unknown. Unlike the rusage a parent
// sees, it does not count memory from before exec.
func selfPeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
