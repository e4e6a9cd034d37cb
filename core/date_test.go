package core

import (
	"testing"
	"time"
)

// TestParseRFC3339: RFC 3339 dates are read with an upper-case or a
// lower-case "t" and "z" (section 5.6 allows both). Regression: the API
// refused "2024-05-01t10:00:00z" as "not a date: use RFC 3339".
func TestParseRFC3339(t *testing.T) {
	want := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"2024-05-01T10:00:00Z", true},
		{"2024-05-01t10:00:00z", true},
		{"2024-05-01t10:00:00Z", true},
		{"2024-05-01T10:00:00z", true},
		{"2024-05-01t12:00:00+02:00", true},
		{"2024-05-01t10:00:00.000z", true},
		{"2024-05-01 10:00:00Z", false},
		{"2024-05-01x10:00:00z", false},
		{"2024-05-01t10:00:00", false},
		{"2024-05-01", false},
		{"z", false},
		{"", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRFC3339(tc.in)
			switch {
			case tc.ok && (err != nil || !got.Equal(want)):
				t.Errorf("ParseRFC3339(%q) = %v, %v; want %v", tc.in, got, err, want)
			case !tc.ok && err == nil:
				t.Errorf("ParseRFC3339(%q) = %v, want an error", tc.in, got)
			}
		})
	}
}
