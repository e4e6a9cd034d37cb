package main

import (
	"strings"
	"testing"
)

func TestBlockVote(t *testing.T) {
	long := "The council passed the budget on Tuesday after a debate that lasted late into the night, with two votes against."
	own := strings.Join([]string{
		"Council passes budget",
		long,
		"Share this story on social media now",
		"Roads and bridges get more money this year",
		"Photo: Jane Roe",
	}, "\n\n")
	other := "Council passes budget\n\n" + "Roads and bridges get more money this year, the mayor said."
	got := blockVote(own, other)
	want := strings.Join([]string{"Council passes budget", long, "Roads and bridges get more money this year"}, "\n\n")
	if got != want {
		t.Errorf("blockVote:\n%s\nwant:\n%s", got, want)
	}
}
