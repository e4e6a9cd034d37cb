package main

import (
	"strings"
	"testing"
	"time"
)

// TestParseSpan pins the units of --window and --older-than; "2m" was
// read as two minutes without a word, where two months were likely meant.
func TestParseSpan(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"30d", 30 * day, ""},
		{"2w", 14 * day, ""},
		{"36h", 36 * time.Hour, ""},
		{"1d12h", 36 * time.Hour, ""},
		{"90min", 90 * time.Minute, ""},
		{"6mo", 180 * day, ""},
		{"1.5h", 90 * time.Minute, ""},
		{"45s", 45 * time.Second, ""},
		{"2m", 0, `--window "2m": m could be minutes or months: write min for minutes, mo for months`},
		{"1h30m", 90 * time.Minute, ""}, // after hours, m is minutes
		{"1d30m", 0, "m could be minutes or months"},
		{"3y", 0, `unknown unit "y": use s, min, h, d, w or mo`},
		{"soon", 0, "want a duration such as 30d, 12h, 2w, 90min or 6mo"},
		{"12", 0, "a number without its unit"},
		{"0d", 0, "want a positive duration"},
		// Spans under the second dates are kept to were taken: 1ms
		// expired every document dated before this second.
		{"1ms", 0, `--window "1ms": want 1s or more: a document's date is kept to the second`},
		{"1ns", 0, "want 1s or more"},
		{"0.5s", 0, "want 1s or more"},
		{"1s", time.Second, ""},
		{"106751d", 106751 * day, ""},
		{"999999999999999999d", 0, "too long: at most 106751d"},
		{"100000d100000d100000d", 0, "too long: at most 106751d"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseSpan("--window", tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("%v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
