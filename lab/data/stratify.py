"""Stratified samples of document pairs over the word 3-gram Jaccard range.

    python3 lab/data/stratify.py population DOCS.jsonl > pop.tsv
    python3 lab/data/stratify.py counts DOCS.jsonl pop.tsv
    python3 lab/data/stratify.py sample DOCS.jsonl pop.tsv --seed 35 \
        --n exact=40,0.9-1=60,... > sample.jsonl

DOCS.jsonl holds one document a line ({"id", "title", "text"}). A document's
word 3-grams are the triples of consecutive words of its text (lower-cased,
words are runs of letters, digits and "_"), as a set.

population lists every pair of documents whose 3-gram sets have a Jaccard
similarity of at least 0.1 (--threshold), found exactly (no pair is estimated or missed) by
prefix filtering: with the 3-grams of every document ordered from rarest to
commonest, two sets of Jaccard >= t share a 3-gram among the first
|x| - ceil(t|x|) + 1 of each, so only pairs sharing such a 3-gram (found
through an inverted index) are scored; --brute scores every pair instead
(for a small corpus and a low threshold, where prefixes hold nearly every
3-gram). Lines: a, b (a earlier in DOCS),
Jaccard, shared 3-grams, sizes of a and b.

A pair's stratum is "exact" when the two texts have the same words (case
and punctuation aside), otherwise its Jaccard band: 0.9-1, 0.7-0.9, 0.5-0.7,
0.35-0.5, 0.2-0.35, 0.1-0.2, and below 0.1 when the threshold reaches them
0.05-0.1, 0.02-0.05 (lower bound included).

sample draws, in each stratum h, n_h of its N_h pairs by simple random
sampling without replacement (Python's random.Random(seed).sample over the
stratum's pairs in population order) and gives each the weight N_h / n_h,
the inverse of its probability of being drawn. A stratum asked for more
pairs than it holds is taken whole (weight 1). Strata are drawn in the
order above, so a stratum's sample does not change when another's size
does. With --apart FIELD, the pairs that have a document whose FIELD is
true form strata of their own, FIELD/exact, FIELD/0.9-1, ..., drawn after
the others (Reuters' unprocessed stories: lab/data/reuters-labels).
"""
import argparse, collections, json, math, random, re, sys

WORD = re.compile(r"\w+")
BANDS = [(0.9, "0.9-1"), (0.7, "0.7-0.9"), (0.5, "0.5-0.7"), (0.35, "0.35-0.5"),
         (0.2, "0.2-0.35"), (0.1, "0.1-0.2"), (0.05, "0.05-0.1"), (0.02, "0.02-0.05")]
STRATA = ["exact"] + [n for _, n in BANDS]
APART = "/"
THRESHOLD = 0.1


def read_docs(path, field=None):
    docs, marked = [], set()
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        docs.append((r["id"], WORD.findall(r["text"].lower())))
        if field and r.get(field):
            marked.add(r["id"])
    return docs, marked


def brute(docs, t, out=sys.stdout):
    grams = [set(zip(w, w[1:], w[2:])) for _, w in docs]
    n = 0
    for x, sx in enumerate(grams):
        if x % 200 == 0:
            print("population: %d of %d documents, %d pairs" % (x, len(grams), n), file=sys.stderr)
        for y in range(x):
            sy = grams[y]
            if not sx or not sy or min(len(sx), len(sy)) < t * max(len(sx), len(sy)):
                continue
            i = len(sx & sy)
            j = i / (len(sx) + len(sy) - i)
            if j >= t:
                out.write("%s\t%s\t%.6f\t%d\t%d\t%d\n" % (docs[y][0], docs[x][0], j, i, len(sy), len(sx)))
                n += 1
    print("population: %d pairs" % n, file=sys.stderr)


def population(docs, t=THRESHOLD, out=sys.stdout):
    grams = [set(zip(w, w[1:], w[2:])) for _, w in docs]
    df = collections.Counter(g for s in grams for g in s)
    rank = {g: i for i, (g, _) in enumerate(sorted(df.items(), key=lambda x: (x[1], x[0])))}
    sets = [sorted(rank[g] for g in s) for s in grams]
    inv = collections.defaultdict(list)
    n = 0
    for x, sx in enumerate(sets):
        if x % 2000 == 0:
            print("population: %d of %d documents, %d pairs" % (x, len(sets), n), file=sys.stderr)
        if not sx:
            continue
        prefix = len(sx) - math.ceil(t * len(sx)) + 1
        cand = set()
        for g in sx[:prefix]:
            cand.update(inv[g])
            inv[g].append(x)
        setx = set(sx)
        for y in cand:  # set order: the order the samples were drawn from
            sy = sets[y]
            if min(len(sx), len(sy)) < t * max(len(sx), len(sy)):
                continue
            i = len(setx.intersection(sy))
            j = i / (len(sx) + len(sy) - i)
            if j >= t:
                out.write("%s\t%s\t%.6f\t%d\t%d\t%d\n" % (docs[y][0], docs[x][0], j, i, len(sy), len(sx)))
                n += 1
    print("population: %d pairs" % n, file=sys.stderr)


def strata(docs, pop_path, apart=None):
    words = dict(docs)
    rows = collections.defaultdict(list)
    for line in open(pop_path):
        a, b, j = line.split("\t")[:3]
        j = float(j)
        if words[a] == words[b]:
            s = "exact"
        else:
            s = next(n for lo, n in BANDS if j >= lo)
        if apart and (a in apart or b in apart):
            s = APART + s
        rows[s].append((a, b, j))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["population", "counts", "sample"])
    ap.add_argument("docs")
    ap.add_argument("pop", nargs="?")
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--n", default="", help="stratum=count,...")
    ap.add_argument("--threshold", type=float, default=THRESHOLD, help="the population's least Jaccard")
    ap.add_argument("--apart", metavar="FIELD",
                    help="pairs with a document whose FIELD is true get strata of their own (FIELD/<stratum>)")
    ap.add_argument("--brute", action="store_true", help="score every pair (small corpora, low thresholds)")
    a = ap.parse_args()
    docs, marked = read_docs(a.docs, a.apart)
    global APART
    APART = (a.apart or "") + "/"
    if a.cmd == "population":
        if a.brute:
            brute(docs, a.threshold)
        else:
            population(docs, a.threshold)
        return
    rows = strata(docs, a.pop, marked)
    names = STRATA + ([APART + s for s in STRATA] if a.apart else [])
    if a.cmd == "counts":
        for s in names:
            print("%s\t%d" % (s, len(rows[s])))
        print("all\t%d" % sum(len(v) for v in rows.values()))
        return
    want = dict((k, int(v)) for k, v in (kv.split("=") for kv in a.n.split(",") if kv))
    rng = random.Random(a.seed)
    for s in names:
        pool = rows[s]
        n = min(want.get(s, 0), len(pool))
        if n == 0:
            continue
        w = len(pool) / n
        for pa, pb, j in rng.sample(pool, n):
            print(json.dumps({"a": pa, "b": pb, "stratum": s, "weight": round(w, 6), "jaccard": round(j, 4)}))


if __name__ == "__main__":
    main()
