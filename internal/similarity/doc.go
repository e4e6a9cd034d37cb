// Package similarity owns the exact measures candidates are verified with
// (Jaccard, containment and weighted Jaccard over sorted sets) and the
// decision rules that turn scores into labels. Rules are data: thresholds
// the user sets, not code paths.
package similarity
