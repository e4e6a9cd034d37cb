// Package sweep owns threshold sweeps and the quality golden figures: it
// runs a detection method once over a labelled corpus, at the lowest
// threshold of a range, re-decides the scored pairs at every threshold of
// the range, and scores the clusters each threshold gives (the connected
// components of its duplicate pairs) against the truth with package eval.
// The curves are written as a text table, as CSV and as an SVG plot of
// precision, recall and F1 against the threshold.
//
// What a threshold applies to depends on the method:
//
//   - minhash: the Jaccard of the shingle sets, exactly as Options.Threshold
//     does; containment (Options.Containment) and the number check
//     (Options.NumberAgreement) apply at every threshold as configured.
//   - minhash with Options.Vary = VaryContainment: the larger containment
//     of the shingle sets, exactly as Options.Containment does, with the
//     Jaccard threshold and the number check as configured.
//   - sentences, cosine: the pair's score, exactly as Options.Threshold;
//     the template rules (Options.NumberAgreement, DateApart, Names,
//     Template, Slots) veto at every threshold as configured: a pair at or
//     above the run's threshold that is no duplicate was vetoed.
//   - tfidf, rarewords: these decide by a rule, not a threshold; the sweep
//     applies the threshold to the score the method reports (tfidf: the
//     body cosine; rarewords: the larger of the two rare-word containments
//     of the best-match pairs) and ignores the rule. Their curve is
//     therefore not their rule's; the rule's own result is the curve's
//     Default point.
//
// One run per method is enough because every method reports each pair
// whose score reaches Options.Similar with that score: the sweep sets
// Similar (and the threshold where one applies) to the bottom of the
// range, so a pair the method would call a duplicate at any threshold of
// the range is among the pairs of the one run.
package sweep
