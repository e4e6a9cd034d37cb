package main

import (
	"strings"
	"testing"
)

func TestFallbackChoice(t *testing.T) {
	article := strings.Repeat("The ferry returned to the harbour on Monday after the storm kept it in port. ", 10)
	notice := strings.Repeat("Sign up for our letters and win a trip to the islands every summer. ", 10)
	for _, tc := range []struct {
		name, own, other, third, want string
	}{
		{"own text short, other longer", "Too short.", article, article, article},
		{"own text alone against two that agree", notice, article, article, article},
		{"own text agrees with the third", article, notice, article, article},
		{"the other two disagree", notice, article, "Something else entirely, in other words.", notice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fallbackChoice(tc.own, tc.other, tc.third); got != tc.want {
				t.Errorf("fallbackChoice = %.30q…, want %.30q…", got, tc.want)
			}
		})
	}
}
