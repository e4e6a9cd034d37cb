package main

import (
	"strings"
	"testing"
)

// TestParseMemory pins --memory's sizes and its floor: a budget below what
// a run needs whatever its corpus is refused with the floor named, rather
// than leaving the collector to run without pause.
func TestParseMemory(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    int64
		wantErr string
	}{
		{in: "", want: 0},
		{in: "4GiB", want: 4 << 30},
		{in: "500MB", want: 500e6},
		{in: "64MiB", want: 64 << 20},
		{in: "10MiB", wantErr: "below the least a run needs, 64 MiB"},
		{in: "1", wantErr: "below the least a run needs, 64 MiB"},
		{in: "0", wantErr: "want a size"},
		{in: "lots", wantErr: "want a size"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseMemory(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseMemory(%q) = %d, %v; want an error with %q", tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("parseMemory(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
		})
	}
}
