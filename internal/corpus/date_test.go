package corpus

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	utc := func(y int, m time.Month, d, h, min, s int) time.Time {
		return time.Date(y, m, d, h, min, s, 0, time.UTC)
	}
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"2024-03-05T10:20:30Z", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T12:20:30+02:00", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T10:20:30.123Z", time.Date(2024, 3, 5, 10, 20, 30, 123e6, time.UTC)},
		{"2024-03-05T12:20:30+0200", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05T10:20:30", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 10:20:30", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"2024-03-05 10:20", utc(2024, 3, 5, 10, 20, 0)},
		{" 2024-03-05 ", utc(2024, 3, 5, 0, 0, 0)},
		{"2024/03/05", utc(2024, 3, 5, 0, 0, 0)},
		{"Tue, 05 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 5 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tue, 05 Mar 2024 10:20:30 GMT", utc(2024, 3, 5, 10, 20, 30)},
		{"5 Mar 2024 12:20:30 +0200", utc(2024, 3, 5, 10, 20, 30)},
		{"Tuesday, 05-Mar-24 10:20:30 UTC", utc(2024, 3, 5, 10, 20, 30)},
		{"March 5, 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"Mar 5, 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"5 March 2024", utc(2024, 3, 5, 0, 0, 0)},
		{"05.03.2024", utc(2024, 3, 5, 0, 0, 0)},
		{"yesterday", time.Time{}},
		{"", time.Time{}},
		{"2024-13-45", time.Time{}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := parseDate(tc.in); !got.Equal(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
