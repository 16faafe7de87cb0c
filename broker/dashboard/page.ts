// The dashboard's one page: HTML, CSS and script inline (a nonce in the page's CSP lets them
// run; nothing loads from anywhere else: no framework, no CDN, no web font). The script renders
// the state JSON with textContent only (no markup from data), listens on /api/events and polls
// /api/state whenever the event stream is down, and counts durations on between updates.

const CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#15181c;--muted:#5d6670;--card:#fff;--line:#d9dde3;
--ok:#137333;--okbg:#e6f4ea;--held:#8a3b00;--heldbg:#ffe9d6;--pause:#5b2a86;--pausebg:#efe3fa;
--off:#5d6670;--offbg:#eceff3;--btn:#1f5fbf;--err:#b3261e}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--fg:#e8eaed;--muted:#9aa3ad;--card:#1b1f24;
--line:#2e343b;--ok:#81c995;--okbg:#0f2e1a;--held:#ffb77a;--heldbg:#3a2210;--pause:#d7b4f7;
--pausebg:#2b1c3b;--off:#9aa3ad;--offbg:#22272d;--btn:#8ab4f8;--err:#f28b82}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;
padding:.6rem 1rem;background:var(--card);border-bottom:1px solid var(--line)}
header h1{font-size:1.05rem;margin:0;font-weight:650}
#conn{font-size:.8rem;padding:.1rem .5rem;border-radius:1rem;background:var(--offbg);color:var(--off)}
#conn.live{background:var(--okbg);color:var(--ok)}
#updated{font-size:.8rem;color:var(--muted);margin-left:auto}
main{padding:1rem;display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr));
max-width:96rem;margin:0 auto}
section{background:var(--card);border:1px solid var(--line);border-radius:.6rem;padding:.8rem 1rem;min-width:0}
section.wide{grid-column:1/-1}
h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .6rem}
h3{font-size:1rem;margin:0}
.games{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr))}
.game{border:1px solid var(--line);border-radius:.6rem;overflow:hidden}
.game .body{padding:.6rem .8rem;display:grid;gap:.5rem}
.banner{padding:.7rem .8rem;font-size:1.15rem;font-weight:650;background:var(--offbg);color:var(--off)}
.banner.held{background:var(--heldbg);color:var(--held)}
.banner.paused{background:var(--pausebg);color:var(--pause)}
.banner.running{background:var(--okbg);color:var(--ok)}
.banner small{display:block;font-size:.8rem;font-weight:400;opacity:.85}
.meta{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.row{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .6rem;padding:.35rem 0;border-top:1px solid var(--line)}
.row:first-child{border-top:0}
.row .grow{flex:1 1 12rem;min-width:0;overflow-wrap:anywhere}
.label{font-size:.75rem;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}
.chip{display:inline-block;font-size:.8rem;padding:.05rem .45rem;border-radius:1rem;background:var(--offbg)}
.chip.held{background:var(--heldbg);color:var(--held)}
.chip.ok{background:var(--okbg);color:var(--ok)}
.num{font-variant-numeric:tabular-nums;white-space:nowrap}
.empty{color:var(--muted);font-size:.9rem}
button{font:inherit;font-size:.85rem;min-height:2.2rem;padding:.3rem .8rem;border-radius:.4rem;cursor:pointer;
border:1px solid var(--btn);background:transparent;color:var(--btn)}
button.danger{border-color:var(--err);color:var(--err)}
button:disabled{opacity:.5;cursor:default}
.actions{display:flex;flex-wrap:wrap;gap:.5rem}
.shot img{max-width:100%;border-radius:.3rem;border:1px solid var(--line)}
#msg{position:fixed;left:50%;bottom:1rem;transform:translateX(-50%);max-width:min(40rem,92vw);padding:.6rem 1rem;
border-radius:.5rem;background:var(--fg);color:var(--bg);font-size:.9rem;display:none}
#msg.show{display:block}
#msg.err{background:var(--err);color:#fff}
.audit .row{font-size:.85rem}
.audit code{font-size:.8rem}
@media (max-width:40rem){main{padding:.5rem;gap:.5rem}section{padding:.6rem .7rem}.banner{font-size:1.05rem}}
`;

// Plain ES2017 in the browser; rebuilt only when the state changed in more than its durations.
const SCRIPT = `
(function(){
'use strict';
var csrf=document.querySelector('meta[name="csrf-token"]').getAttribute('content');
var state=null,sig='',received=0,es=null,pollTimer=null,lastOk=0;
function h(tag,attrs){var e=document.createElement(tag);if(attrs)for(var k in attrs){var v=attrs[k];
if(v===undefined||v===null||v===false)continue;if(k==='text')e.textContent=v;else if(k==='cls')e.className=v;
else if(k.slice(0,2)==='on')e.addEventListener(k.slice(2),v);else e.setAttribute(k,v===true?'':String(v));}
for(var i=2;i<arguments.length;i++){var c=arguments[i];if(c===undefined||c===null||c===false)continue;
if(Array.isArray(c))c.forEach(function(x){if(x)e.appendChild(typeof x==='string'?document.createTextNode(x):x);});
else e.appendChild(typeof c==='string'?document.createTextNode(c):c);}return e;}
function dur(ms){if(ms<1000)return Math.round(ms)+' ms';var s=ms/1000;if(s<60)return s.toFixed(1)+' s';
var m=Math.floor(s/60);if(m<60)return m+' min '+Math.floor(s%60)+' s';return Math.floor(m/60)+' h '+(m%60)+' min';}
function tick(ms,live){return h('span',{cls:'num tick','data-ms':ms,'data-live':live?'1':'0',text:dur(ms)});}
function retick(){var now=performance.now();document.querySelectorAll('.tick').forEach(function(e){
var ms=Number(e.getAttribute('data-ms'));if(e.getAttribute('data-live')==='1')ms+=now-received;e.textContent=dur(ms);});
var u=document.getElementById('updated');
// live: the stream sends every change; polling or cut off: how old the last state is
if(state)u.textContent=es&&es.readyState===1?'':'updated '+dur(Math.max(0,Date.now()-lastOk))+' ago';}
function say(text,err){var m=document.getElementById('msg');m.textContent=text;m.className='show'+(err?' err':'');
clearTimeout(say.t);say.t=setTimeout(function(){m.className='';},err?8000:4000);}
function post(path,body,btn){if(btn)btn.disabled=true;return fetch(path,{method:'POST',credentials:'same-origin',
headers:{'content-type':'application/json','x-csrf-token':csrf},body:JSON.stringify(body)}).then(function(r){
return r.json().then(function(j){if(!r.ok)throw new Error((j.error&&j.error.code?j.error.code+': ':'')+(j.error?j.error.message:r.status));
say(j.text||'done');});}).catch(function(e){say(String(e.message||e),true);}).then(function(){if(btn)btn.disabled=false;refresh();});}
function shot(game,box,btn){btn.disabled=true;box.textContent='rendering…';
fetch('/api/screenshot?player='+encodeURIComponent(game),{credentials:'same-origin'}).then(function(r){
if(!r.ok)return r.json().then(function(j){throw new Error(j.error?j.error.code+': '+j.error.message:String(r.status));});
return r.blob();}).then(function(b){var img=h('img',{alt:'screenshot of '+game,src:URL.createObjectURL(b)});
box.textContent='';box.appendChild(img);}).catch(function(e){box.textContent='';say(String(e.message||e),true);})
.then(function(){btn.disabled=false;});}
var shots={};
function gameCard(g){var banner,cls;var holds=g.holds.slice().sort(function(a,b){return (b.held_ms||0)-(a.held_ms||0);});
if(holds.length){var top=holds[0];cls='held';banner=[ 'HELD by '+top.caller+' for ',tick(top.held_ms||0,true),
holds.length>1?h('small',{text:'and by '+holds.slice(1).map(function(x){return x.caller;}).join(', ')}):null];}
else if(g.paused_for){cls='paused';banner=['PAUSED at an event of '+g.paused_for];}
else if(g.attached){cls='running';banner=['RUNNING',h('small',{text:'attached, nobody holds it'})];}
else{cls='';banner=[g.lingering?'not attached (lingering)':'not attached'];}
var q=g.queue||{waiting:[],heavy_waiting:[]};
var box=shots[g.id]||(shots[g.id]=h('div',{cls:'shot'}));
var shotBtn=h('button',{text:'Screenshot','data-shot':g.id,disabled:!g.attached,onclick:function(){shot(g.id,box,shotBtn);}});
var detachBtn=h('button',{cls:'danger',text:'Detach','data-detach':g.id,disabled:!g.attached,onclick:function(){
if(confirm('Detach '+g.id+'? Every caller leaves it and the game runs free.'))post('/api/detach',{game:g.id},detachBtn);}});
return h('div',{cls:'game','data-game':g.id},
h('div',{cls:'banner '+cls,'data-testid':'banner'},banner),
h('div',{cls:'body'},
h('div',null,h('h3',{text:g.player||g.endpoint}),h('div',{cls:'meta',text:g.id+' · '+g.endpoint+(g.callers.length?' · callers: '+g.callers.join(', '):'')})),
h('div',null,h('div',{cls:'label',text:'holds'}),holds.length?holds.map(function(x){var b=h('button',{text:'Release',
'data-release':x.caller,onclick:function(){post('/api/release',{game:g.id,caller:x.caller},b);}});
return h('div',{cls:'row hold','data-caller':x.caller},h('span',{cls:'grow'},h('b',{text:x.caller}),' ×'+x.count+' for ',tick(x.held_ms||0,true)),b);}):
h('div',{cls:'empty',text:'none'})),
h('div',null,h('div',{cls:'label',text:'queue'}),
q.running?h('div',{cls:'row'},h('span',{cls:'grow',text:'running '+q.running.label+' for '+q.running.caller+' ('+q.running.tier+')'}),tick(q.running.ms,true)):null,
q.heavy?h('div',{cls:'row'},h('span',{cls:'grow',text:'heavy '+q.heavy.label+' for '+q.heavy.caller}),tick(q.heavy.ms,true)):null,
(q.waiting||[]).map(function(w){return h('div',{cls:'row'},h('span',{cls:'grow',text:w.tier+' · '+w.caller+' ×'+w.count+' waiting, oldest'}),tick(w.oldest_ms,true));}),
(q.heavy_waiting||[]).map(function(w){return h('div',{cls:'row'},h('span',{cls:'grow',text:'heavy waiting: '+w.label+' for '+w.caller}),tick(w.ms,true));}),
!q.running&&!q.heavy&&!(q.waiting||[]).length&&!(q.heavy_waiting||[]).length?h('div',{cls:'empty',text:'idle'+(q.served!==undefined?' · '+q.served+' turns served':'')}):null),
g.breakpoints.length?h('div',null,h('div',{cls:'label',text:'breakpoints'}),h('div',{cls:'row'},g.breakpoints.map(function(b){return h('span',{cls:'chip',text:b.owner+' ×'+b.count});}))):null,
h('div',{cls:'actions'},shotBtn,detachBtn),box));}
function list(items,render,none){return items.length?items.map(render):h('div',{cls:'empty',text:none});}
function render(){var s=state;var main=document.querySelector('main');main.textContent='';
main.appendChild(h('section',{cls:'wide',id:'games'},h('h2',{text:'games'}),s.games.length?h('div',{cls:'games'},s.games.map(gameCard)):
h('div',{cls:'empty',text:'no game attached yet: an agent attaches with its first call'})));
main.appendChild(h('section',{id:'callers'},h('h2',{text:'callers (agents)'}),list(s.callers,function(c){
return h('div',{cls:'row caller','data-caller':c.caller},h('span',{cls:'grow'},h('b',{text:c.caller}),c.game?' on '+c.game:'',
c.holds.map(function(x){return h('span',null,' ',h('span',{cls:'chip held'},'holds '+x.game+' ×'+x.count+' for ',tick(x.held_ms||0,true)));}),
c.pauses.map(function(p){return h('span',null,' ',h('span',{cls:'chip',text:'paused '+p}));}),
c.breakpoints.map(function(b){return h('span',null,' ',h('span',{cls:'chip',text:b.count+' breakpoint(s) on '+b.game}));})),
h('span',{cls:'meta'},'connected ',tick(c.connected_ms,true)));},'no caller connected')));
main.appendChild(h('section',{id:'jobs'},h('h2',{text:'jobs'}),list(s.jobs,function(j){var b=j.status==='running'?h('button',{cls:'danger',
text:j.cancelling?'Cancelling…':'Cancel',disabled:!!j.cancelling,onclick:function(){post('/api/cancel',{job:j.job},b);}}):null;
return h('div',{cls:'row job','data-job':j.job},h('span',{cls:'grow'},h('b',{text:j.job}),' '+j.tool+' of '+j.caller+(j.game?' on '+j.game:'')+' · '+j.status+' · ',
tick(j.ms,j.status==='running')),b);},'no job')));
main.appendChild(h('section',{id:'players'},h('h2',{text:'players heard'}),list(s.players,function(p){
return h('div',{cls:'row'},h('span',{cls:'grow'},h('b',{text:p.label}),p.project?' "'+p.project+'"':'',' at '+p.endpoint,
p.debuggable?'':' (no script debugging)'),h('span',{cls:p.stale?'chip':'chip ok',text:p.stale?'not heard lately':'announcing'}));},
s.discovery==='listening'?'none heard':s.discovery==='off'?'discovery is off':'discovery starts with the first caller that looks for players')));
main.appendChild(h('section',{cls:'wide audit',id:'audit'},h('h2',{text:'audit log (newest first)'}),list(s.audit,function(a){
var t=typeof a.time==='string'?a.time.slice(11,19):'';return h('div',{cls:'row'},h('span',{cls:'num meta',text:t}),
h('span',{cls:'grow'},h('b',{text:String(a.caller||'')}),' ',h('code',{text:String(a.tool||(a.dropped?'('+a.dropped+' lines dropped)':''))}),
a.player&&a.player.game?' on '+a.player.game:'',' → ',String(a.outcome||''),a.replayed?' (replayed)':''),
h('span',{cls:'num meta',text:a.duration_ms!==undefined?a.duration_ms+' ms':''}));},'no call yet')));}
function sigOf(s){return JSON.stringify(s,function(k,v){return k==='time'||k==='ms'||/_ms$/.test(k)?undefined:v;});}
function take(s){lastOk=Date.now();var n=sigOf(s);state=s;received=performance.now();
if(n!==sig){sig=n;render();}retick();}
function refresh(){return fetch('/api/state',{credentials:'same-origin'}).then(function(r){
if(r.status===401){location.reload();throw new Error('signed out');}if(!r.ok)throw new Error(String(r.status));return r.json();})
.then(take).catch(function(){});}
function setConn(live,text){var c=document.getElementById('conn');c.className=live?'live':'';c.textContent=text;}
function poll(){if(pollTimer)return;setConn(false,'polling');pollTimer=setInterval(function(){
if(es&&es.readyState===1){clearInterval(pollTimer);pollTimer=null;return;}refresh();},1000);refresh();}
function connect(){if(!window.EventSource){poll();return;}es=new EventSource('/api/events');
es.onopen=function(){setConn(true,'live');};es.onmessage=function(e){setConn(true,'live');try{take(JSON.parse(e.data));}catch(x){}};
es.onerror=function(){if(es.readyState!==1)poll();};}
setInterval(retick,250);connect();refresh();
})();
`;

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** The page for a signed-in session: its CSRF token in a meta tag, script and style by nonce. */
export function dashboardPage(csrf: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="csrf-token" content="${escapeHtml(csrf)}">
<meta name="referrer" content="no-referrer">
<title>unity-devtools dashboard</title>
<style nonce="${nonce}">${CSS}</style></head>
<body><header><h1>unity-devtools</h1><span id="conn">connecting</span><span id="updated"></span></header>
<main><section class="wide"><div class="empty">loading…</div></section></main>
<div id="msg" role="status" aria-live="polite"></div>
<script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}

/** The page for a request without a live session (401), or a login code that did not work. */
export function signInPage(why: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>unity-devtools dashboard: sign in</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
code{background:#8882;padding:.1rem .3rem;border-radius:.2rem}</style></head>
<body><h1>unity-devtools dashboard</h1><p>${escapeHtml(why)}</p>
<p>Run <code>unity-devtools dashboard</code> on the machine the broker runs on: it prints (and opens)
a one-time link that signs this browser in.</p></body></html>`;
}

/** The CSP of the signed-in page: its own inline script and style only, talking to itself. */
export function pageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
