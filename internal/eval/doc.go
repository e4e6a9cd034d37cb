// Package eval owns the quality measures of near-duplicate detection: pair
// precision, recall and F1, the adjusted Rand index and B-cubed precision,
// recall and F1 over clusterings, recall broken down by a field of the truth,
// and the count of must-not-link pairs (templated negatives) that a
// prediction merged.
//
// Truth is JSON Lines in one of two forms:
//
//	clusters: {"id":"d1","cluster":"d0","ops":["truncate"],"negative_of":"d7"}
//	pairs:    {"a":"d1","b":"d2","label":"duplicate","weight":12.5,"stratum":"0.4-0.5"}
//
// In the first form every line is a document and documents with the same
// cluster are duplicates of each other; other fields (such as ops) can break
// recall down, and negative_of names a document it must not be merged with.
// In the second form only the labelled pairs are scored; weight (the inverse
// of the pair's probability of being drawn, 1 when absent) and stratum (the
// stratum it was drawn from) are optional, and with them the scores are
// also estimated for the population the pairs were drawn from, with 95 %
// intervals (WeightedScores). Predictions are the
// files neardup dedup writes:
//
//	pairs.jsonl:    {"a":"d1","b":"d2","method":"minhash","score":0.91,"label":"duplicate","evidence":{...}}
//	clusters.jsonl: {"cluster":3,"representative":"d1","members":["d1","d2"],"why":"longest"}
//
// Pairs implied by clusters are counted from the contingency table of truth
// and predicted clusters, never enumerated, so clusters of any size cost time
// linear in the number of documents.
package eval
