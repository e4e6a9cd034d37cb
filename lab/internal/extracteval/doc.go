// Package extracteval measures article extraction against gold text.
//
// It owns the shingle metric (Unicode \w+ tokens, case kept; multisets of
// 4-token shingles; per-page precision and recall from the multiset overlap;
// means over pages; F1 of the two means), the snippet metric of pages graded
// by passages their text must and must not hold (ScoreSnippets), the reading
// of gold folders laid out as input/<id>.html beside GoldStandard/<id>.txt
// (the Dragnet and CleanEval layout), html/ beside txt/ (newspaper4k),
// evaldata.json beside eval/ (trafilatura), ground-truth/ beside html/
// (WCXB), a folder per country of pages and their publishers' parsed
// articles (fundus), html/ beside reference/ (the DAnIEL corpus), ground-truth.json beside html/ (the Article Extraction
// Benchmark) or a subset of the Web Content Extraction Benchmark's
// combined layout (html/<subset>/ beside ground-truth/<subset>.jsonl), and
// the running of extraction systems over them, and the bootstrap that puts
// an interval round each score and each difference between two systems
// (Bootstrap: the sites of a dataset drawn again with replacement).
//
// It does not extract anything itself: a System is a function the caller
// supplies, so the package imports nothing of the extractor.
package extracteval
