package main

import "fmt"

// stubFlags are the flag of the commands that compare documents (dedup,
// index add, serve, watch): the minimum length of a text compared.
type stubFlags struct {
	MinText minText `name:"min-text" default:"${default_min_text}" help:"Skip documents whose text has fewer than this many characters (white space not counted) as too-short, and gallery or video captions (\"See all photos (18)\") as gallery; 0 compares every document."`
}

// minChars returns the minimum as engine.Grouping and neardup.Options
// take it: the flag's 0 compares everything, their 0 means the default.
func (f stubFlags) minChars() int {
	if f.MinText <= 0 {
		return -1
	}
	return int(f.MinText)
}

// minText is --min-text: a number of characters, 0 or more.
type minText int

// Validate refuses a negative minimum; kong calls it after parsing.
func (m *minText) Validate() error {
	if *m < 0 {
		return fmt.Errorf("want 0 or more characters (0 compares every document), not %d", *m)
	}
	return nil
}
