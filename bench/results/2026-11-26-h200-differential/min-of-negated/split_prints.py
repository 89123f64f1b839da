# Splits the device_print lines of one kernel_diff run of v_s.tile into its two
# launches (the interpreter prints first, the GPU when its printf buffer is
# flushed) and shows the rows whose minimum differs.
import re,sys,collections
lines=open(sys.argv[1]).read().splitlines()
# two runs: GPU lines first (launch), then the interpreter's; each has 64 v + 2048 t + 2048 x lines
recs=[l for l in lines if l.startswith('pid')]
n=len(recs)//2
for name,part in (('gpu',recs[:n]),('interp',recs[n:])):
    v={};t=collections.defaultdict(dict);x=collections.defaultdict(dict)
    for l in part:
        m=re.match(r'pid \((\d+), \d+, \d+\) idx \(([\d, ]+)\) (\w)(.*)',l)
        idx=tuple(int(a) for a in m.group(2).split(','))
        (v if m.group(3)=='v' else t if m.group(3)=='t' else x)
        if m.group(3)=='v': v[idx[0]]=m.group(4)
        elif m.group(3)=='t': t[idx[0]][idx[1]]=m.group(4)
        else: x[idx[0]][idx[1]]=m.group(4)
    globals()[name]=(v,t,x)
for r in range(64):
    if gpu[0][r]!=interp[0][r]:
        print('row',r,'first v',gpu[0][r],'second v',interp[0][r])
        print(' first t ',[gpu[1][r][j] for j in range(32)])
        print(' second t',[interp[1][r][j] for j in range(32)])
        print(' x equal', [gpu[2][r][j] for j in range(32)] == [interp[2][r][j] for j in range(32)])
print('lines',len(recs))
