//! The report's script: reads the data ([`super::data`]) and draws the timeline as a virtual
//! list. The data comes in blocks of [`super::data::BLOCK`] items, each parsed when one of its
//! records is drawn (a block not parsed yet is one chunk of the list, its height guessed from
//! the first block's records), so a page opens in the time of one block. The shown records are cut in chunks of 20 (`CH`); every chunk has a height (guessed
//! from its records until it is drawn, then measured) and a place; only the chunks within a
//! window's height of the window are in the document, so a page of 100,000 records opens and
//! jumps anywhere as fast as one of a hundred. Within a drawn chunk, the GUI's lines
//! (`data-gui`, `data-span`) are rebuilt from the items' `r` (a prefix of an earlier item's
//! line and a tail, bytes counted as UTF-8) and set as text, and the `.lazy` boards are drawn
//! (`fgDraw`, [`crate::view::html::DRAW_JS`]).
//!
//! The filters (verdict, code, kind) are filled from the data; the summary from the second
//! JSON object. Every text from the log goes into the page through `esc` or `textContent`.
//! For measuring, `#jump=F` (0 to 1) scrolls to that fraction of the timeline once drawn (three
//! times: the chunks drawn there are measured, and the heights guessed before move the place);
//! the root element's `data-open-ms` (since the navigation started), `data-script-ms` (this
//! script's share of it) and `data-jump-ms` say how long the first drawing and the jump took.

/// The script (after [`crate::view::html::DRAW_JS`]).
pub(super) const JS: &str = r#"(function(){var T0=performance.now();
var BL=[].slice.call(document.querySelectorAll('script.fg-d'));
var M=JSON.parse(document.getElementById('fg-meta').textContent),B=M.block,PD=[],SB=[],TOTAL=0;
M.blocks.forEach(function(n){TOTAL+=n;});
var main=document.getElementById('timeline'),root=document.documentElement,NS=M.sessions.length,CH=20;
var ESC={'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'};
function esc(s){return String(s).replace(/[&<>"']/g,function(c){return ESC[c];});}
function load(b){if(PD[b])return PD[b];var D=JSON.parse(BL[b].textContent),K=M.kinds,lastS=0,lastQ=0,lastG=null,ix=[];
for(var i=0;i<D.length;i++){var e=D[i];if(e.z)continue;ix.push(b*B+i);
if('s' in e)lastS=e.s;else e.s=lastS;if('q' in e)lastQ=e.q;else e.q=lastQ=lastQ+1;e.k=String(K[e.k]);
if(e.k==='search'&&e.h==null){if('G' in e)lastG=e.G;else e.G=lastG;}if(e.f!=null&&!('v' in e))e.v='valid';}
PD[b]=D;SB[b]=ix;return D;}
function item(i){var b=(i/B)|0;return load(b)[i-b*B];}
var RC=new Map();
function ascii(s){return !/[^\x00-\x7f]/.test(s);}
function bytesTo(s,n){var b=0,k=0;while(k<s.length&&b<n){var c=s.charCodeAt(k),l=c<0x80?1:c<0x800?2:(c>=0xd800&&c<0xdc00)?4:3;if(b+l>n)return -1;b+=l;k+=l===4?2:1;}return b===n||k>=s.length?k:-1;}
function raw(i){var chain=[],j=i,r,v;
while(!RC.has(j)){r=item(j).r;if(Array.isArray(r)&&r[0]<j){chain.push(j);j=r[0];continue;}
v=typeof r==='string'?r:'';RC.set(j,[v,ascii(v)]);break;}
v=RC.get(j);for(var k=chain.length-1;k>=0;k--){r=item(chain[k]).r;var t=String(r[2]),n=+r[1];
var head=v[1]?v[0].slice(0,n):v[0].slice(0,Math.max(0,bytesTo(v[0],n)));v=[head+t,v[1]&&ascii(t)];RC.set(chain[k],v);}
return v[0];}
function head(e){var h='seq '+esc(JSON.stringify(e.q===undefined?null:e.q))+' <span class="kind">'+esc(e.k)+'</span>';
if(e.v!=null)h+=' <span class="verdict">'+esc(e.v)+'</span>';if(e.a!=null)h+=' ('+esc(e.a)+')';
return h+' <small>'+esc(e.t)+(NS>1?' · s'+(e.s+1):'')+'</small>';}
function body(e){var b;
if(e.h!=null)return String(e.h);
if(e.k==='search'){b='<p class="kv">'+esc(e.G||'')+' → <b>bestmove '+esc(e.B||'')+'</b>';
if(e.P!=null)b+=' ponder '+esc(e.P);if(e.E!=null)b+=' ('+esc(e.E)+' ms)';if(e.S!=null)b+=' · position seq '+esc(e.S);
if(e.A!=null)b+=" · fenguard's own answer ("+esc(e.A)+')';return b+'</p>';}
if(e.F)return '<p class="kv">'+e.F.map(function(f){return '<b>'+esc(f[0])+'</b> '+esc(f[1])+' &nbsp; ';}).join('')+'</p>';
b='';if(e.g)b+='<pre data-gui></pre>';if(e.n==null)e.n=e.m?+e.m[0]+(e.m[1]||[]).length:0;
if('x' in e)b+='<pre>sent: '+(e.x===null?'(nothing)':esc(e.x))+'</pre>';
if(e.m){var k=+e.m[0],ms=e.m[1]||[];b+='<p class="moves">moves: ';if(k>0)b+='… '+k+' as before, then ';
for(var j=0;j<ms.length;j++)b+=(k+j+1)+'.'+esc(ms[j])+' ';b+='</p>';}
var fen=String(e.f||''),pl=fen.split(' ')[0].split('[')[0],w=e.w===10?10:8;
var cap="engine's position after "+(+e.n)+' moves'+(e.b!=null?'; bestmove '+e.b:'')+' · '+fen;
return b+'<div class="boards"><figure><div class="lazy'+(w===10?' w10':'')+'" data-fen="'+esc(pl)+'" data-w="'+w+'" data-h="8"'+
(e.b!=null?' data-best="'+esc(e.b)+'"':'')+'></div><figcaption>'+esc(cap)+(e.p!=null?'<br>'+esc(e.p):'')+'</figcaption></figure></div>';}
function sec(i){var e=item(i),v=e.k==='position'&&e.v!=null?String(e.v):'';
return '<section class="rec'+(v?' v-'+esc(v):'')+'" data-i="'+i+'" data-kind="'+esc(e.k)+'"'+(v?' data-verdict="'+esc(v)+'"':'')+
(e.c&&e.c.length?' data-codes=" '+e.c.map(esc).join(' ')+' "':'')+'><h2>'+head(e)+'</h2>'+body(e)+'</section>';}
function fill(el){[].forEach.call(el.querySelectorAll('[data-gui],[data-span]'),function(p){
var s=raw(+p.closest('section').getAttribute('data-i'));
if(p.hasAttribute('data-gui')){p.textContent='gui:  '+s;return;}
var ab=p.getAttribute('data-span').split(','),a=bytesTo(s,+ab[0]),z=bytesTo(s,Math.max(+ab[0],+ab[1]));
if(a<0||z<0){p.remove();return;}var m=document.createElement('mark');m.className='s-'+p.getAttribute('data-sev');
m.textContent=s.slice(a,z)||' ';p.appendChild(document.createTextNode(s.slice(0,a)));p.appendChild(m);p.appendChild(document.createTextNode(s.slice(z)));});
[].forEach.call(el.querySelectorAll('.lazy'),fgDraw);}
var chunks=[],AVG=170;
var CPL=Math.max(20,(main.clientWidth-80)/7.3);
function lines(i,n){var r=item(i).r,len=typeof r==='string'?r.length:Array.isArray(r)?+r[1]+String(r[2]).length:0;return n*Math.ceil((len+6)/CPL)*15;}
function est(i){var e=item(i);if(e.h!=null){var h=String(e.h);return 52+(h.indexOf('<figure')>=0?340:0)+40*(h.split('<li').length-1)+
lines(i,h.split('<pre data-').length-1);}return (e.f!=null?400:52)+(e.g?lines(i,1):0);}
function clear(){chunks.forEach(function(c){if(c.el)c.el.remove();});}
function chunksOf(ix){var out=[];for(var a=0;a<ix.length;a+=CH){var part=ix.slice(a,a+CH),h=0;
for(var k=0;k<part.length;k++)h+=est(part[k]);out.push({ix:part,h:h,top:0,el:null,m:false});}return out;}
function filtered(){return sel.some(function(s){return !!s.value;});}
function build(){clear();chunks=[];var n=TOTAL;
if(filtered()){var l=[];for(var b=0;b<BL.length;b++){load(b);SB[b].forEach(function(i){if(pass(item(i)))l.push(i);});}n=l.length;chunks=chunksOf(l);}
else for(var b=0;b<BL.length;b++){if(SB[b])[].push.apply(chunks,chunksOf(SB[b]));else chunks.push({p:b,h:(M.blocks[b]||0)*AVG,top:0,el:null,m:true});}
shown.textContent=n+' of '+TOTAL+' shown';layout();}
function layout(){var y=0;for(var c=0;c<chunks.length;c++){var ch=chunks[c];ch.top=y;if(ch.el)ch.el.style.top=y+'px';y+=ch.h;}main.style.height=(y+16)+'px';}
function find(y){var lo=0,hi=chunks.length-1;while(lo<hi){var mid=(lo+hi+1)>>1;if(chunks[mid].top<=y)lo=mid;else hi=mid-1;}return lo;}
function show(ch){var el=document.createElement('div'),s='';el.className='chunk';el.style.top=ch.top+'px';
for(var k=0;k<ch.ix.length;k++)s+=sec(ch.ix[k]);el.innerHTML=s;main.appendChild(el);fill(el);ch.el=el;}
function render(){for(var round=0;round<12&&chunks.length;round++){
var top=-main.getBoundingClientRect().top,vh=window.innerHeight||1600,y0=top-vh,y1=top+2*vh,changed=false,shift=0;
for(var c=find(Math.max(0,y0));c<chunks.length&&chunks[c].top<y1;c++){var ch=chunks[c];
if(ch.p!==undefined){load(ch.p);var real=chunksOf(SB[ch.p]),h=0;real.forEach(function(r){h+=r.h;});
if(ch.top+ch.h<=top)shift+=h-ch.h;[].splice.apply(chunks,[c,1].concat(real));changed=true;break;}
if(!ch.el)show(ch);
if(!ch.m){var h=ch.el.offsetHeight;ch.m=true;if(h!==ch.h){if(ch.top+ch.h<=top)shift+=h-ch.h;ch.h=h;changed=true;}}}
chunks.forEach(function(ch){if(ch.el&&(ch.top+ch.h<y0-2*vh||ch.top>y1+2*vh)){ch.el.remove();ch.el=null;}});
if(!changed)break;layout();if(shift)window.scrollBy(0,shift);}}
var queued=false;function later(){if(!queued){queued=true;window.requestAnimationFrame(function(){queued=false;render();});}}
window.addEventListener('scroll',later);
window.addEventListener('resize',function(){chunks.forEach(function(c){c.m=false;});later();});
var sel=[].slice.call(document.querySelectorAll('#filters select')),shown=document.getElementById('shown');
var vals={verdict:M.verdicts,codes:M.codes,kind:M.kinds};
sel.forEach(function(s){var f=s.getAttribute('data-f'),vs=vals[f]||[];
vs.forEach(function(v){var o=document.createElement('option');o.value=v;o.textContent=v;s.appendChild(o);});
s.addEventListener('change',apply);});
function pass(e){for(var k=0;k<sel.length;k++){var v=sel[k].value,f=sel[k].getAttribute('data-f');if(!v)continue;
if(f==='codes'){if(!e.c||e.c.indexOf(v)<0)return false;}else if(f==='verdict'){if(e.k!=='position'||String(e.v)!==v)return false;}
else if(String(e.k)!==v)return false;}return true;}
function apply(){build();render();}
var sm=document.getElementById('summary'),S=M.sessions,t=M.name+': '+M.records+' records, '+M.positions+' positions, '+M.troubled+' not valid; sessions:';
for(var k=0;k<S.length&&k<20;k++)t+=' s'+(k+1)+' = '+S[k];
if(S.length>20){t+=' … ('+S.length+' sessions)';var d=document.createElement('details'),su=document.createElement('summary'),p=document.createElement('p');
d.id='sessions';su.textContent='all '+S.length+' sessions';p.textContent=S.map(function(s,k){return 's'+(k+1)+' = '+s;}).join(' ');
d.appendChild(su);d.appendChild(p);sm.after(d);}
sm.textContent=t;if(BL.length){load(0);var n0=0,h0=0;SB[0].forEach(function(i){h0+=est(i);n0++;});if(n0)AVG=h0/n0;}apply();
var T1=performance.now();root.setAttribute('data-open-ms',T1.toFixed(1));root.setAttribute('data-script-ms',(T1-T0).toFixed(1));
var j=/^#jump=([0-9.]+)$/.exec(location.hash);
if(j){var t0=performance.now();for(var n=0;n<3;n++){window.scrollTo(0,main.offsetTop+Math.min(1,parseFloat(j[1]))*main.offsetHeight);render();}
root.setAttribute('data-jump-ms',(performance.now()-t0).toFixed(1));root.setAttribute('data-jump-drawn',main.querySelectorAll('section').length);}
})();"#;
