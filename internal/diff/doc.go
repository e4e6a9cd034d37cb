// Package diff owns the aligned comparison of two texts: which parts they
// share, which parts one replaced with other text and which parts only one
// of them has, with byte spans into both original texts and the share of
// each text's words found in the other (its overlap ratio).
//
// Compare aligns the texts by words, sentences or lines, comparing units by
// their normalised form (package analysis: case folded, NFKC), so "The" and
// "the" match and punctuation or spacing between units never counts as a
// difference. A word the texts spell otherwise ("PRESIDENT" and
// "president", "34" and "３４") is thus shared; the word views show both
// spellings, in a milder style than an edit, and every rendering marks the
// punctuation and symbols between units that only one text holds (a minus
// sign, "$" against "€") as an edit, so that nothing either text holds is
// hidden. The result renders as coloured terminal text (WriteText), a
// self-contained side-by-side HTML page or fragment (WriteHTML,
// WriteHTMLFragment) and JSON (WriteJSON). The command `neardup diff` and
// the HTML report of `neardup dedup` are its callers.
package diff
