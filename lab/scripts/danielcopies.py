#!/usr/bin/env python3
"""danielcopies.py DANIEL_DIR OUT_DIR [SEED]: a corpus per language of DAnIEL's references
(Corpus_daniel_v2.1 of github:rundimeco/waddle: news of 2011-2012 in Chinese, English, Greek,
Polish and Russian), with about 15 % of them copied by two edits each: a sentence dropped, two
sentences swapped, the last fifth cut, a line added, three words (characters in Chinese) changed.
Writes OUT_DIR/LANG.jsonl ({id, title, text, source}: the source is the page's site, a copy's
"SITE-copy") and OUT_DIR/LANG.truth.jsonl ({id, cluster}) for `neardup eval --truth`. Seeded: the
same references and seed give the same files. Used in docs/methods.md to measure the methods on
scripts written without spaces:

    python3 lab/scripts/danielcopies.py /tmp/data/waddle/corpora/Corpus_daniel_v2.1 /tmp/ml
    neardup dedup /tmp/ml/Chinese.jsonl --method tfidf -o out/
    neardup eval --truth /tmp/ml/Chinese.truth.jsonl --pred out/pairs.jsonl
"""
import json, os, random, re, sys

daniel, out_dir = sys.argv[1], sys.argv[2]
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
os.makedirs(out_dir, exist_ok=True)
languages = json.load(open(os.path.join(daniel, 'doc_lg.json')))
SENTENCE_END = re.compile(r'(?<=[.!?。！？])\s*')


def sentences(text):
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def edit(text, unspaced):
    parts = sentences(text)
    for op in rng.sample(['drop', 'swap', 'cut', 'line', 'words'], 2):
        if op == 'drop' and len(parts) > 3:
            del parts[rng.randrange(1, len(parts))]
        if op == 'swap' and len(parts) > 3:
            i = rng.randrange(1, len(parts) - 1)
            parts[i], parts[i + 1] = parts[i + 1], parts[i]
        if op == 'cut' and len(parts) > 5:
            parts = parts[:int(len(parts) * 0.8)]
        if op == 'line':
            parts.append('订阅我们的新闻通讯。' if unspaced else 'Subscribe to our newsletter for more news.')
        if op == 'words':
            if unspaced:
                chars = list(''.join(parts))
                for _ in range(3):
                    chars[rng.randrange(len(chars))] = '的'
                parts = sentences(''.join(chars))
            else:
                words = ' '.join(parts).split()
                for _ in range(3):
                    k = rng.randrange(len(words))
                    words[k] = words[k].upper()
                parts = sentences(' '.join(words))
    return ('' if unspaced else ' ').join(parts)


by_language = {}
for name in sorted(os.listdir(os.path.join(daniel, 'reference'))):
    language = languages.get(name)
    if not language:
        continue
    raw = open(os.path.join(daniel, 'reference', name), encoding='utf-8', errors='replace').read()
    text = re.sub(r'<[^>]+>', '', raw).strip()
    if len(text) < 200:
        continue
    lines = [line for line in text.split('\n') if line.strip()]
    body = '\n'.join(lines[1:]) if len(lines) > 1 else text
    by_language.setdefault(language, []).append((name, lines[0][:200], body))

for language, refs in by_language.items():
    unspaced = language == 'Chinese'
    with open(os.path.join(out_dir, language + '.jsonl'), 'w') as docs, \
            open(os.path.join(out_dir, language + '.truth.jsonl'), 'w') as truth:
        copies = 0
        for name, title, body in refs:
            site = name.split('_')[1]
            docs.write(json.dumps({'id': name, 'title': title, 'text': body, 'source': site}, ensure_ascii=False) + '\n')
            truth.write(json.dumps({'id': name, 'cluster': name}) + '\n')
            if rng.random() < 0.15:
                copy = name + '~copy'
                copy_title = title if rng.random() < 0.5 else title[:len(title) // 2]
                docs.write(json.dumps({'id': copy, 'title': copy_title, 'text': edit(body, unspaced),
                                       'source': site + '-copy'}, ensure_ascii=False) + '\n')
                truth.write(json.dumps({'id': copy, 'cluster': name}) + '\n')
                copies += 1
    print(language, len(refs), 'references,', copies, 'copies', file=sys.stderr)
