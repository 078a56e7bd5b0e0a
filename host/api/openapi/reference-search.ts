import { createHash } from 'node:crypto';

/**
 * The reference page's one script: a search box that shows only the methods whose model, name,
 * description or fields contain every word typed (and their entries in the menu). It loads
 * nothing; the page's Content-Security-Policy allows this script by its hash and nothing else.
 * Without it (scripts off) every method stays listed.
 */
export const SEARCH_SCRIPT = `(function(){
var box=document.getElementById('search');var ops=[].slice.call(document.querySelectorAll('section.op'));
var links={};[].forEach.call(document.querySelectorAll('nav a[data-op]'),function(a){links[a.getAttribute('data-op')]=a.parentNode;});
var models=[].slice.call(document.querySelectorAll('[data-model]'));var count=document.getElementById('search-count');
box.hidden=false;
function run(){var words=box.value.toLowerCase().split(/\\s+/).filter(Boolean);var shown=0;var seen={};
ops.forEach(function(op){var text=op.getAttribute('data-search');var hit=words.every(function(w){return text.indexOf(w)>=0;});
op.hidden=!hit;if(links[op.id])links[op.id].hidden=!hit;if(hit){shown++;seen[op.getAttribute('data-of')]=1;}});
models.forEach(function(m){m.hidden=words.length>0&&!seen[m.getAttribute('data-model')];});
count.textContent=words.length?shown+' of '+ops.length+' methods':'';}
box.addEventListener('input',run);if(location.hash.indexOf('#q=')===0){box.value=decodeURIComponent(location.hash.slice(3));run();}
})();`;

/** `'sha256-...'` for the policy's script-src. */
export const SEARCH_SCRIPT_HASH = `'sha256-${createHash('sha256').update(SEARCH_SCRIPT).digest('base64')}'`;
