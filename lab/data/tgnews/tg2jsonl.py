"""Turn the tgnews same-story pairs into a documents file and a truth file.

    python3 lab/data/tgnews/tg2jsonl.py ../shared/data/tgnews-thread-pairs docs.jsonl truth.jsonl

DIR holds en_train_pool.tsv and ru_train_pool.tsv (tab-separated, a header
row). Each distinct URL becomes one document {"id": URL, "title", "text"};
each row one labelled pair {"a", "b", "label", "stratum"}: label
"duplicate" for OK (same story), "different" for BAD; stratum the language.
Then: neardup dedup docs.jsonl -o out && neardup eval --truth truth.jsonl
--pred out/pairs.jsonl --include-similar --by stratum.
"""
import csv, json, os, sys

def main(folder, docs_path, truth_path):
    csv.field_size_limit(1 << 30)
    docs, truth = {}, []
    for lang, name in (("en", "en_train_pool.tsv"), ("ru", "ru_train_pool.tsv")):
        with open(os.path.join(folder, name), newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                pair = []
                for side in ("first", "second"):
                    url = row["INPUT:%s_url" % side]
                    docs.setdefault(url, {"id": url, "title": row["INPUT:%s_title" % side],
                                          "text": row["INPUT:%s_text" % side]})
                    pair.append(url)
                label = "duplicate" if row["GOLDEN:quality"] == "OK" else "different"
                truth.append({"a": pair[0], "b": pair[1], "label": label, "stratum": lang})
    with open(docs_path, "w", encoding="utf-8") as f:
        for d in docs.values():
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(truth_path, "w", encoding="utf-8") as f:
        for t in truth:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    print("%d documents, %d pairs, %d same story" % (len(docs), len(truth),
          sum(t["label"] == "duplicate" for t in truth)), file=sys.stderr)

if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
