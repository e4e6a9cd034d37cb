import json, random, collections, difflib
random.seed(14)
def pairs(fn):
    d={}
    for l in open(fn):
        p=json.loads(l); d[(p['a'],p['b'])]=p
    return d
base=pairs('out-base/pairs.jsonl'); low=pairs('out-low/pairs.jsonl')
cl=[json.loads(l) for l in open('out-base/clusters.jsonl')]
docs={}
for l in open('reuters.jsonl'):
    r=json.loads(l); docs[r['id']]=r
order={k:i for i,k in enumerate(docs)}
def key(a,b): return (a,b) if order[a]<order[b] else (b,a)
implied=set()
for c in cl:
    m=sorted(c['members'],key=lambda x:order[x])
    for i in range(len(m)):
        for j in range(i+1,len(m)):
            implied.add((m[i],m[j]))
dup=sorted(k for k,p in base.items() if p['label']=='duplicate')
sim=sorted(k for k,p in base.items() if p['label']=='similar')
lowonly=sorted(k for k in low if k not in base)
ind=sorted(implied-set(dup))
fam=collections.defaultdict(list)
for i,d in docs.items(): fam[d['title']].append(i)
famp=[]
for t,ids in fam.items():
    if len(ids)<2 or not t: continue
    for i in range(len(ids)):
        for j in range(i+1,len(ids)):
            k=key(ids[i],ids[j])
            if k not in base and k not in low and k not in implied and docs[k[0]]['date'][:10]!=docs[k[1]]['date'][:10]:
                famp.append(k)
famp=sorted(set(famp))
sample=[]
for name,pool,n in [('dup',dup,150),('chain',ind,60),('similar',sim,80),('low',lowonly,40),('family',famp,40)]:
    for k in random.sample(pool,min(n,len(pool))):
        sample.append((name,k))
with open('sample.jsonl','w') as f:
    for name,(a,b) in sample:
        f.write(json.dumps({'a':a,'b':b,'stratum':name})+'\n')
print(len(sample), len(famp))
