"""BBC News archive (bbc.tar.gz) to JSON Lines, under the ids neardup gives the articles.

    python3 bbc2jsonl.py ../shared/data/bbc-news-fulltext/bbc.tar.gz > bbc.jsonl

One line per article: {"id": "bbc.tar.gz/bbc/<category>/<nnn>.txt", "title": the
first line, "text": the rest}. A file that is not UTF-8 is read as Latin-1.
The archive's README.TXT is left out.
"""
import tarfile,json,sys
t=tarfile.open(sys.argv[1])
for m in sorted(t.getmembers(),key=lambda m:m.name):
    if not m.isfile() or not m.name.endswith('.txt') or m.name.endswith('README.TXT'): continue
    b=t.extractfile(m).read()
    try: s=b.decode('utf-8')
    except UnicodeDecodeError: s=b.decode('latin-1')
    title,_,body=s.partition('\n')
    print(json.dumps({'id':'bbc.tar.gz/'+m.name,'title':title.strip(),'text':body.strip()}))
