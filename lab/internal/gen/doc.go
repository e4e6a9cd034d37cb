// Package gen owns the labelled near-duplicate corpus generator: it turns real
// news texts (bases) into a shuffled corpus of originals, copies made by the
// edits real reprints show, and hard negatives, together with a truth file
// that says which documents belong together and how each copy was made.
//
// Loaders read the bases: LoadReuters reads the Reuters-21578 SGML files and
// LoadBBC the BBC News full-text archive. Generate writes two JSON Lines
// streams, one line per document in both and in the same order:
//
//	documents: {"id":"d0000042","title":"...","text":"...","source":"Daily Ledger",
//	            "url":"https://dailyledger.example/1987/02/26/...","date":"1987-02-26T15:01:01Z"}
//	truth:     {"id":"d0000042","cluster":"d0000007","base":"reuters-21578:5","ops":["truncate","ocr-light"]}
//
// cluster is the id of the original a document was made from (an original's
// cluster is its own id); base names the text it derives from; ops lists the
// edits that made a copy (empty for originals). A templated negative has op
// "template-negative", a cluster of its own and negative_of naming the
// document whose template it reuses with another company and other numbers.
//
// Copies pick their original at random, a tenth of them among 1 % of the
// originals, so most stories have no or few copies and some have many, as
// widely syndicated stories do. A copy that no op of Options.Ops changes is
// drawn from another original; one that none of copyTries originals fits is
// left out, its id unused, and counted in Stats.CopiesLeftOut.
//
// Large corpora are resampled: when more originals are needed than there are
// bases, new distinct originals are synthesised from the real ones by mixing
// the sentences of two articles, shuffling their order and replacing about a
// third of the words and every figure, so that two originals synthesised from
// the same article share no sentence and few word 3-grams. Such a corpus
// measures speed and relative quality; its text is not natural prose.
//
// Everything is a function of the bases, the options and Options.Seed: the
// same inputs give byte-identical outputs whatever the number of workers.
package gen
