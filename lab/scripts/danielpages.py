#!/usr/bin/env python3
"""danielpages.py DANIEL_DIR LANGUAGE OUT_DIR: copies the HTML pages of one language of DAnIEL's corpus
(Corpus_daniel_v2.1 of github:rundimeco/waddle; doc_lg.json names each page's language: Chinese,
English, Greek, Polish, Russian) into OUT_DIR, one KEY.html a page, to run `neardup extract` on them:

    python3 lab/scripts/danielpages.py /tmp/data/waddle/corpora/Corpus_daniel_v2.1 Chinese /tmp/zh
    neardup extract /tmp/zh -o zh.jsonl     # the summary counts the pages too short for --min-chars
"""
import json, os, shutil, sys

daniel, language, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(out_dir, exist_ok=True)
languages = json.load(open(os.path.join(daniel, 'doc_lg.json')))
copied = 0
for key, lang in sorted(languages.items()):
    if lang != language:
        continue
    path = os.path.join(daniel, 'html', key)
    if os.path.isdir(path):
        path = os.path.join(path, sorted(os.listdir(path))[0])
    if os.path.isfile(path):
        shutil.copy(path, os.path.join(out_dir, key + '.html'))
        copied += 1
print(f'{copied} pages of {language} in {out_dir}')
