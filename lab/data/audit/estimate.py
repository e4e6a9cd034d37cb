"""Precision of a run's duplicate pairs from the audit's labels.

    python3 lab/data/audit/estimate.py [labels.jsonl] [counts.json]

labels.jsonl holds one line per pair read ({a, b, method, stratum, score,
label: same, different or unsure, reason; label_after_review when a second
reading changed it, which counts}) and one per exact pair counted
without reading (stratum "exact", label "same"); counts.json the number of
the run's duplicate pairs in each stratum. Within a stratum the pairs read
were drawn uniformly without replacement, so the run's precision is the
strata's shares of "same" weighted by their sizes; the interval is a
stratified bootstrap (seeded), with the unsure pairs counted once as same
and once as different.
"""
import collections, json, random, sys

labels = sys.argv[1] if len(sys.argv) > 1 else "lab/data/audit/labels.jsonl"
counts = json.load(open(sys.argv[2] if len(sys.argv) > 2 else "lab/data/audit/counts.json"))
read = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(labels):
    r = json.loads(line)
    if r["stratum"] != "exact":
        read[r["method"]][r["stratum"]].append(r.get("label_after_review", r["label"]))
rng = random.Random(7)
for run, sizes in counts.items():
    n_all = sum(sizes.values())
    for unsure in ("same", "different"):
        strata = [(sizes[st], sum(x == "same" or x == "unsure" and unsure == "same" for x in labs), len(labs))
                  for st, labs in read[run].items()]
        est = (sizes.get("exact", 0) + sum(N * k / n for N, k, n in strata)) / n_all
        draws = []
        for _ in range(10000):
            e = sizes.get("exact", 0)
            for N, k, n in strata:
                e += N * sum(rng.random() < k / n for _ in range(n)) / n
            draws.append(e / n_all)
        draws.sort()
        print(f"{run:12s} {n_all:4d} duplicate pairs, unsure as {unsure:9s}: precision {est:.3f} "
              f"(95 % {draws[250]:.3f}-{draws[9750]:.3f}); read: "
              + ", ".join(f"{st} {k}/{n} of {N}" for (st, (N, k, n)) in zip(read[run], strata)))
